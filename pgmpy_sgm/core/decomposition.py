"""Cliques, separators and free edges of decomposable (chordal) graphs.

Separators are the multiset of intersections of cliques adjacent in a junction
tree; empty separators (between connected components) are left out, since they
contribute nothing to the score or to the number of free parameters.
"""

from __future__ import annotations

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
    if not nx.is_chordal(graph):
        cycle = chordless_cycle(graph)
        raise ValueError(f"The graph is not decomposable (chordal): the cycle {cycle} has no chord.")
    order = node_order(graph)
    cliques: list[tuple] = []
    separators: list[tuple] = []
    for component in sorted(nx.connected_components(graph), key=lambda c: min(order[v] for v in c)):
        sub = graph.subgraph(component)
        raw = [tuple(sorted(c, key=order.__getitem__)) for c in nx.chordal_graph_cliques(sub)]
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
    in_tree = [0]
    remaining = list(range(1, len(sets)))
    edges = []
    while remaining:
        best = None
        for j in remaining:
            for i in in_tree:
                w = len(sets[i] & sets[j])
                if best is None or w > best[0]:
                    best = (w, i, j)
        _, i, j = best
        remaining.remove(j)
        in_tree.append(j)
        edges.append((i, j))
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
    for cycle in nx.chordless_cycles(graph):
        if len(cycle) >= 4:
            return list(cycle)
    return None


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
