"""The mathematics of a contextual Markov network's structure: closure of the edge contexts and dimension.

A positive distribution is Markov to an undirected graph ``G`` iff ``log p`` is a sum of
functions of the cliques. For an edge ``{u, v}`` the interaction of ``X_u`` and ``X_v`` given all
the other variables only involves the cliques holding both, so it depends on the other
variables only through the common neighbours ``L_uv``: ``X_u ⟂ X_v`` given the rest holds in
every outcome of the rest that agrees with one outcome ``x`` of ``L_uv``, or in none. An edge
context ``x`` states that it holds (a set of linear constraints on ``log p``), so the model is
a linear exponential family; its dimension is counted here exactly, in the reference coding
of the log-linear parameters.
"""

from __future__ import annotations

from itertools import combinations, product

import networkx as nx
import numpy as np

from pgmpy_sgm.core.unionfind import DisjointSets

__all__ = ["common_neighbours", "implied_contexts", "log_linear_dimension"]


def common_neighbours(graph: nx.Graph, u, v) -> list:
    """Nodes adjacent to both ``u`` and ``v``, in node order.

    Examples
    --------
    >>> common_neighbours(nx.Graph([(1, 2), (1, 3), (2, 3), (3, 4)]), 2, 3)
    [1]
    """
    shared = set(graph.adj[u]) & set(graph.adj[v])
    return [w for w in graph.nodes() if w in shared]


def _lines(grid: np.ndarray, blanket: list, cards: dict, axis: int):
    """The lines of the configuration grid in direction ``blanket[axis]``, each with its other coordinates."""
    rest = [w for i, w in enumerate(blanket) if i != axis]
    lines = np.moveaxis(grid, axis, -1).reshape(-1, cards[blanket[axis]])
    for line, config in zip(lines, product(*(range(cards[w]) for w in rest)), strict=True):
        yield line, dict(zip(rest, config, strict=True))


def _node_groups(node, blanket: list, cards: dict, contexts: dict) -> tuple[DisjointSets, np.ndarray]:
    """Merge the configurations of ``node``'s blanket that its edges' contexts make equivalent.

    Configurations are numbered in C order over ``blanket`` (indices into each variable's states).
    """
    shape = tuple(cards[w] for w in blanket)
    grid = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)
    sets = DisjointSets(grid.size)
    for axis, other in enumerate(blanket):
        found = [dict(c) for c in contexts.get(frozenset((node, other)), ())]
        if not found:
            continue
        for line, config in _lines(grid, blanket, cards, axis):
            if any(all(config[w] == s for w, s in c.items()) for c in found):
                for cell in line[1:]:
                    sets.union(int(line[0]), int(cell))
    return sets, grid


def implied_contexts(graph: nx.Graph, cards: dict, contexts: dict) -> dict:
    """The closure of the edge contexts: every context they imply, as state indices.

    Within the Markov blanket of a node ``v``, a context of an edge ``{u, v}`` ties the
    conditional distributions of ``X_v`` along every line in direction ``u`` whose common
    neighbours agree with the context; the tied configurations form groups. A whole line in
    direction ``u`` inside one group states ``X_u ⟂ X_v`` there, hence (see the module) in its
    context of the common neighbours. Repeated over the nodes until nothing is added.

    Parameters
    ----------
    graph : networkx.Graph
    cards : dict
        ``{node: number of states}``.
    contexts : dict
        ``{frozenset({u, v}): set of contexts}``, each context a ``frozenset`` of
        ``(common neighbour, state index)`` pairs.

    Returns
    -------
    dict
        Same layout, closed.

    Examples
    --------
    >>> g = nx.complete_graph([1, 2, 3, 4])
    >>> ctx = {frozenset((2, 3)): {frozenset({(1, 0), (4, 0)})},
    ...        frozenset((3, 4)): {frozenset({(1, 0), (2, 0)}), frozenset({(1, 0), (2, 1)})}}
    >>> sorted(sorted(c) for c in implied_contexts(g, dict.fromkeys(g, 2), ctx)[frozenset((2, 3))])
    [[(1, 0), (4, 0)], [(1, 0), (4, 1)]]
    """
    closed = {edge: set(found) for edge, found in contexts.items() if found}
    changed = True
    while changed:
        changed = False
        for node in graph.nodes():
            if not any(node in edge for edge in closed):
                continue
            blanket = list(graph.adj[node])
            sets, grid = _node_groups(node, blanket, cards, closed)
            for axis, other in enumerate(blanket):
                shared = set(common_neighbours(graph, node, other))
                for line, config in _lines(grid, blanket, cards, axis):
                    root = sets.find(int(line[0]))
                    if all(sets.find(int(cell)) == root for cell in line[1:]):
                        context = frozenset((w, s) for w, s in config.items() if w in shared)
                        found = closed.setdefault(frozenset((node, other)), set())
                        if context not in found:
                            found.add(context)
                            changed = True
    return closed


def _complete_sets(graph: nx.Graph) -> list[tuple]:
    order = {w: i for i, w in enumerate(graph.nodes())}
    return [tuple(sorted(s, key=order.__getitem__)) for s in nx.enumerate_all_cliques(graph)]


def log_linear_dimension(graph: nx.Graph, cards: dict, contexts: dict) -> int:
    """Free parameters of the positive distributions Markov to ``graph`` with the given contexts.

    The log-linear parameters in reference coding (state index 0 the reference) are
    ``phi_A(x_A)`` for every non-empty complete set ``A`` and every ``x_A`` without a reference
    state. A context ``x`` of edge ``{u, v}`` sets the interaction of ``u`` and ``v`` to zero:
    for every non-reference ``(x_u, x_v)``, the sum of ``phi_{B + {u, v}}(x_u, x_v, x_B)`` over
    the sets ``B`` of common neighbours with ``B + {u, v}`` complete and no reference state in
    ``x_B`` is zero. The dimension is the number of parameters less the rank of those constraints.

    Examples
    --------
    >>> g = nx.complete_graph([1, 2, 3])
    >>> log_linear_dimension(g, dict.fromkeys(g, 2), {}), log_linear_dimension(
    ...     g, dict.fromkeys(g, 2), {frozenset((2, 3)): {frozenset({(1, 1)})}})
    (7, 6)
    """
    complete = _complete_sets(graph)
    n_params = sum(int(np.prod([cards[w] - 1 for w in s])) for s in complete)
    is_complete = {frozenset(s) for s in complete}
    columns: dict = {}
    rows = []
    for edge, found in contexts.items():
        u, v = sorted(edge, key=list(graph.nodes()).index)
        for context in found:
            given = dict(context)
            active = [w for w, s in given.items() if s != 0]
            subsets = [b for r in range(len(active) + 1) for b in combinations(active, r)
                       if frozenset((u, v, *b)) in is_complete]
            for su, sv in product(range(1, cards[u]), range(1, cards[v])):
                cells = [frozenset({(u, su), (v, sv), *((w, given[w]) for w in b)}) for b in subsets]
                rows.append([columns.setdefault(cell, len(columns)) for cell in cells])
    if not rows:
        return n_params
    links = nx.Graph()
    for i, row in enumerate(rows):
        links.add_node(("row", i))
        links.add_edges_from((("row", i), ("col", c)) for c in row)
    rank = 0
    for part in nx.connected_components(links):
        row_ids = sorted(i for kind, i in part if kind == "row")
        col_ids = {c: k for k, c in enumerate(sorted(c for kind, c in part if kind == "col"))}
        matrix = np.zeros((len(row_ids), len(col_ids)))
        for r, i in enumerate(row_ids):
            for c in rows[i]:
                matrix[r, col_ids[c]] = 1.0
        rank += int(np.linalg.matrix_rank(matrix))
    return n_params - rank
