"""Cliques, separators and free edges of decomposable (chordal) graphs.

Separators are the multiset of intersections of cliques adjacent in a junction
tree; empty separators (between connected components) are left out, since they
contribute nothing to the score or to the number of free parameters.
"""

from __future__ import annotations

import heapq
from collections import Counter
from itertools import combinations

import networkx as nx

__all__ = [
    "node_order",
    "decompose",
    "junction_tree_edges",
    "edge_clique_counts",
    "chordless_cycle",
    "free_parameters",
    "is_chordal",
]


def node_order(graph: nx.Graph) -> dict:
    """Position of every node in the graph's node order (used to sort cliques).

    Examples
    --------
    >>> node_order(nx.Graph([("b", "a")]))
    {'b': 0, 'a': 1}
    """
    return {node: i for i, node in enumerate(graph.nodes())}


def decompose(graph: nx.Graph) -> tuple[list[tuple], list[tuple]]:
    """Cliques and (non-empty) separators of a chordal graph.

    Cliques are tuples sorted by node order, listed in a perfect (running
    intersection) order; separators are sorted tuples, one per junction-tree edge.

    Raises
    ------
    ValueError
        If the graph is not chordal, naming a chordless cycle.

    Examples
    --------
    >>> g = nx.Graph([(1, 2), (2, 3), (1, 3), (3, 4)])
    >>> decompose(g)
    ([(1, 2, 3), (3, 4)], [(3,)])
    """
    if graph.number_of_nodes() == 0:
        return [], []
    visited, earlier = _max_cardinality_search(graph)
    if not _is_perfect(visited, earlier, graph):
        cycle = chordless_cycle(graph)
        raise ValueError(f"The graph is not decomposable (chordal): the cycle {cycle} has no chord.")
    order = node_order(graph)
    # in a maximum cardinality search of a chordal graph, a node and its earlier neighbours form a
    # maximal clique exactly when the next node has no more earlier neighbours (Blair and Peyton)
    sequence = list(visited)
    by_component: dict[int, list[tuple]] = {}
    component_of: dict = {}
    for position, v in enumerate(sequence):
        component_of[v] = component_of[earlier[v][0]] if earlier[v] else v
        if position + 1 == len(sequence) or len(earlier[sequence[position + 1]]) <= len(earlier[v]):
            clique = tuple(sorted([v, *earlier[v]], key=order.__getitem__))
            by_component.setdefault(component_of[v], []).append(clique)
    cliques: list[tuple] = []
    separators: list[tuple] = []
    for raw in sorted(by_component.values(), key=lambda c: min(order[v] for clique in c for v in clique)):
        raw.sort(key=lambda c: [order[v] for v in c])
        if len(raw) == 1:
            cliques.extend(raw)
            continue
        # grown from the first clique, the tree lists cliques in a running-intersection order
        cliques.append(raw[0])
        for i, j in junction_tree_edges(raw):
            cliques.append(raw[j])
            separators.append(tuple(sorted(set(raw[i]) & set(raw[j]), key=order.__getitem__)))
    return cliques, [s for s in separators if s]


def junction_tree_edges(cliques) -> list[tuple[int, int]]:
    """Edges ``(parent, child)`` of a junction tree of the cliques of one connected chordal graph.

    A maximum-weight spanning tree of the clique graph (weights = sizes of intersections),
    grown from clique 0 by Prim's algorithm; the children come in a running-intersection
    order, and ties go to the earliest cliques.

    Examples
    --------
    >>> junction_tree_edges([(1, 2, 3), (3, 4), (2, 3, 5)])
    [(0, 2), (0, 1)]
    """
    sets = [set(c) for c in cliques]
    holders: dict = {}  # node -> cliques holding it
    for j, members in enumerate(sets):
        for v in members:
            holders.setdefault(v, []).append(j)
    # a heap of candidate edges (-weight, child, position of the parent in the tree, parent): its
    # minimum is the heaviest edge, ties going to the earliest child and then the earliest parent
    in_tree = [False] * len(sets)
    heap: list[tuple[int, int, int, int]] = []
    edges: list[tuple[int, int]] = []

    def add(i: int) -> None:
        in_tree[i] = True
        position = len(edges)
        for j in sorted({j for v in sets[i] for j in holders[v] if not in_tree[j]}):
            heapq.heappush(heap, (-len(sets[i] & sets[j]), j, position, i))

    add(0)
    while len(edges) < len(sets) - 1:
        if not heap:  # cliques sharing no node with the tree: weight 0, earliest child and parent
            j = in_tree.index(False)
            edges.append((0, j))
            add(j)
            continue
        _, j, _, i = heapq.heappop(heap)
        if in_tree[j]:
            continue
        edges.append((i, j))
        add(j)
    return edges


def edge_clique_counts(cliques) -> Counter:
    """How many cliques contain each edge (``frozenset`` of its two ends).

    An edge is *free* (may carry a label) when its count is 1.

    Examples
    --------
    >>> counts = edge_clique_counts([(1, 2, 3), (2, 3, 4)])
    >>> counts[frozenset((2, 3))], counts[frozenset((1, 2))]
    (2, 1)
    """
    counts: Counter = Counter()
    for clique in cliques:
        for u, v in combinations(clique, 2):
            counts[frozenset((u, v))] += 1
    return counts


def chordless_cycle(graph: nx.Graph) -> list | None:
    """A chordless cycle of length >= 4, or None if the graph is chordal.

    Examples
    --------
    >>> sorted(chordless_cycle(nx.cycle_graph(4)))
    [0, 1, 2, 3]
    >>> chordless_cycle(nx.complete_graph(4)) is None
    True
    """
    order = {v: i for i, v in enumerate(graph.nodes())}
    for cycle in nx.chordless_cycles(graph):
        if len(cycle) >= 4:  # written from its first node in node order, towards the earlier of its two neighbours
            start = min(range(len(cycle)), key=lambda i: order[cycle[i]])
            cycle = list(cycle[start:]) + list(cycle[:start])
            return cycle if order[cycle[1]] < order[cycle[-1]] else [cycle[0], *reversed(cycle[1:])]
    return None


def _max_cardinality_search(graph: nx.Graph) -> tuple[dict, dict]:
    """Visit position of every node and its earlier-visited neighbours, in linear time."""
    adjacency = {v: set(graph.adj[v]) - {v} for v in graph.nodes()}
    visited: dict = {}  # node -> visit position
    earlier: dict = {}  # node -> neighbours visited before it
    weight = dict.fromkeys(adjacency, 0)
    buckets: list[list] = [list(reversed(adjacency))]  # stacks of nodes per weight; stale entries skipped
    top = 0
    while len(visited) < len(adjacency):
        v = buckets[top].pop() if buckets[top] else None
        if v is None or v in visited or weight[v] != top:
            if not buckets[top]:
                top -= 1
            continue
        earlier[v] = [w for w in adjacency[v] if w in visited]
        visited[v] = len(visited)
        for w in adjacency[v]:
            if w not in visited:
                weight[w] += 1
                if weight[w] == len(buckets):
                    buckets.append([])
                buckets[weight[w]].append(w)
                top = max(top, weight[w])
    return visited, earlier


def _is_perfect(visited: dict, earlier: dict, graph: nx.Graph) -> bool:
    for v in visited:
        if len(earlier[v]) > 1:
            latest = max(earlier[v], key=visited.__getitem__)
            if any(w != latest and w not in graph.adj[latest] for w in earlier[v]):
                return False
    return True


def is_chordal(graph: nx.Graph) -> bool:
    """Whether an undirected graph is chordal, in time linear in its size.

    A maximum cardinality search visits the nodes; the graph is chordal exactly when the
    reverse visit order is a perfect elimination order, checked neighbourhood by neighbourhood
    (Tarjan and Yannakakis, 1984).

    Examples
    --------
    >>> is_chordal(nx.cycle_graph(4)), is_chordal(nx.complete_graph(4)), is_chordal(nx.empty_graph(3))
    (False, True, True)
    """
    return _is_perfect(*_max_cardinality_search(graph), graph)


def free_parameters(cliques, separators, cardinality: dict) -> int:
    """Free parameters of a distribution faithful to the decomposable graph.

    ``f(G) = sum_C (|X_C| - 1) - sum_S (|X_S| - 1)``, isolated nodes being cliques.

    Examples
    --------
    >>> free_parameters([("a", "b"), ("b", "c")], [("b",)], {"a": 2, "b": 2, "c": 3})
    7
    """

    def size(nodes) -> int:
        out = 1
        for v in nodes:
            out *= cardinality[v]
        return out

    return sum(size(c) - 1 for c in cliques) - sum(size(s) - 1 for s in separators)
