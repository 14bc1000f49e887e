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


def _complete_sets(graph: nx.Graph) -> list[tuple]:
    order = {w: i for i, w in enumerate(graph.nodes())}
    return [tuple(sorted(s, key=order.__getitem__)) for s in nx.enumerate_all_cliques(graph)]


class _Constraints:
    """The contexts' constraints as rows over the reference-coded log-linear parameters.

    A parameter is named by the frozenset of its ``(variable, state index)`` cells; a row is the
    list of the parameters it sums (every coefficient is 1).
    """

    def __init__(self, graph: nx.Graph, cards: dict):
        self.order = {w: i for i, w in enumerate(graph.nodes())}
        self.cards = cards
        self.complete = _complete_sets(graph)
        self.is_complete = {frozenset(c) for c in self.complete}

    def rows(self, edge, context) -> list[list[frozenset]]:
        """The ``(k_u - 1)(k_v - 1)`` rows of one context (``context``: ``(variable, state index)`` pairs)."""
        u, v = sorted(edge, key=self.order.__getitem__)
        given = dict(context)
        active = [w for w, s in given.items() if s != 0]
        subsets = [b for r in range(len(active) + 1) for b in combinations(active, r)
                   if frozenset((u, v, *b)) in self.is_complete]
        return [[frozenset({(u, su), (v, sv), *((w, given[w]) for w in b)}) for b in subsets]
                for su, sv in product(range(1, self.cards[u]), range(1, self.cards[v]))]

    def n_parameters(self) -> int:
        return sum(int(np.prod([self.cards[w] - 1 for w in c])) for c in self.complete)


def _row_spaces(rows: list) -> list[tuple[dict, np.ndarray]]:
    """Per connected group of rows sharing parameters: ``({parameter: column}, orthonormal row-space basis)``."""
    links = nx.Graph()
    for i, row in enumerate(rows):
        links.add_node(("row", i))
        links.add_edges_from((("row", i), ("col", c)) for c in row)
    spaces = []
    for part in nx.connected_components(links):
        row_ids = [i for kind, i in part if kind == "row"]
        columns = {c: k for k, c in enumerate(c for kind, c in part if kind == "col")}
        matrix = np.zeros((len(row_ids), len(columns)))
        for r, i in enumerate(row_ids):
            for c in rows[i]:
                matrix[r, columns[c]] = 1.0
        _, singular, vt = np.linalg.svd(matrix, full_matrices=False)
        rank = int((singular > 1e-9 * max(1.0, singular.max(initial=0.0))).sum())
        spaces.append((columns, vt[:rank]))
    return spaces


def implied_contexts(graph: nx.Graph, cards: dict, contexts: dict) -> dict:
    """The closure of the edge contexts: every context they imply, as state indices.

    A context of edge ``{u, v}`` is implied when its constraints (see
    :func:`log_linear_dimension`) are linear combinations of those of the given contexts: then
    ``X_u ⟂ X_v`` holds in that context in every positive distribution of the model. Only an
    edge with contexts can gain some (the two-way parameters of an edge appear in its own
    constraints alone).

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
    if not closed:
        return closed
    constraints = _Constraints(graph, cards)
    rows = [row for edge, found in closed.items() for context in found for row in constraints.rows(edge, context)]
    spaces = _row_spaces(rows)
    where = {c: k for k, (columns, _) in enumerate(spaces) for c in columns}
    for edge, found in closed.items():
        shared = common_neighbours(graph, *tuple(edge))
        for states in product(*(range(cards[w]) for w in shared)):
            context = frozenset(zip(shared, states, strict=True))
            if context in found:
                continue
            if all(_in_span(row, spaces, where) for row in constraints.rows(edge, context)):
                found.add(context)
    return closed


def _in_span(row: list, spaces: list, where: dict) -> bool:
    if any(c not in where for c in row):
        return False
    for k in {where[c] for c in row}:
        columns, basis = spaces[k]
        vector = np.zeros(len(columns))
        for c in row:
            if where[c] == k:
                vector[columns[c]] = 1.0
        residual = vector - (basis @ vector) @ basis
        if np.abs(residual).max(initial=0.0) > 1e-8:
            return False
    return True


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
    constraints = _Constraints(graph, cards)
    rows = [row for edge, found in contexts.items() for context in found for row in constraints.rows(edge, context)]
    return constraints.n_parameters() - sum(len(basis) for _, basis in _row_spaces(rows))
