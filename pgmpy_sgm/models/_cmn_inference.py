"""Exact computations on a Markov network given by log-potentials: a junction tree of a triangulation.

The graph is triangulated by greedy minimum-fill elimination (ties broken by the smaller
clique table), after joining the variables of every set that must lie in one clique; the
maximal elimination cliques are joined by a maximum-weight spanning tree (weight: the size of
the separator), which has the running-intersection property. Sum-product message passing in
log space gives the log normalising constant and every clique's marginal; sampling runs down
the tree from the root.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from itertools import combinations

import networkx as nx
import numpy as np

__all__ = ["JunctionTreeEngine", "Propagation", "align", "sum_out", "MAX_CLIQUE_CELLS"]

#: Largest clique table of a triangulation (cells) that exact computations accept.
MAX_CLIQUE_CELLS = 2**24


def align(array: np.ndarray, variables: Sequence, target: Sequence) -> np.ndarray:
    """``array`` over ``variables`` laid out to broadcast against a table over ``target``.

    Examples
    --------
    >>> align(np.array([1.0, 2.0]), ["b"], ["a", "b"]).shape
    (1, 2)
    """
    variables = list(variables)
    present = [v for v in target if v in variables]
    moved = np.transpose(array, [variables.index(v) for v in present])
    return moved.reshape([array.shape[variables.index(v)] if v in variables else 1 for v in target])


_MAX, _SUM, _ALL = np.maximum.reduce, np.add.reduce, np.logical_and.reduce


def _logsumexp(log_table: np.ndarray, axes: tuple) -> np.ndarray:
    """``log sum exp`` over ``axes`` (scipy's without its per-call overhead; all ``-inf`` gives ``-inf``)."""
    top = _MAX(log_table, axis=axes, keepdims=True)  # ndarray.max, .sum and .all without their wrappers
    finite = np.isfinite(top)
    if not _ALL(finite, axis=None):  # a line of impossible cells: its sum is 0, its log -inf
        top = np.where(finite, top, 0.0)
    total = _SUM(np.exp(log_table - top), axis=axes, keepdims=True)
    if _ALL(total, axis=None):
        return (np.log(total) + top).squeeze(axis=axes)
    with np.errstate(divide="ignore"):
        return (np.log(total) + top).squeeze(axis=axes)


def _total(tables) -> np.ndarray:
    """``sum(tables, np.zeros(()))``: the tables added left to right (a 0-d zero when there are none)."""
    total = np.zeros(())
    for table in tables:
        total = total + table
    return total


def _log_total(log_table: np.ndarray) -> float:
    """``float(_logsumexp(log_table, every axis))``, its checks on the one maximum and total as Python floats."""
    axes = tuple(range(log_table.ndim))
    top = _MAX(log_table, axis=axes, keepdims=True)
    if not math.isfinite(top.item()):
        top = np.where(np.isfinite(top), top, 0.0)
    total = _SUM(np.exp(log_table - top), axis=axes, keepdims=True)
    if total.item() != 0.0:
        return (np.log(total) + top).item()
    with np.errstate(divide="ignore"):
        return (np.log(total) + top).item()


def sum_out(log_table: np.ndarray, variables: Sequence, keep: Sequence) -> np.ndarray:
    """Log of the sums of ``exp(log_table)`` over the variables not in ``keep`` (axes in ``keep``'s order).

    Examples
    --------
    >>> np.exp(sum_out(np.log(np.array([[0.1, 0.2], [0.3, 0.4]])), ["a", "b"], ["b"])).round(2).tolist()
    [0.4, 0.6]
    """
    variables = list(variables)
    axes = tuple(i for i, v in enumerate(variables) if v not in keep)
    with np.errstate(divide="ignore", invalid="ignore"):
        summed = _logsumexp(log_table, axes) if axes else log_table
    rest = [v for v in variables if v in keep]
    return np.transpose(summed, [rest.index(v) for v in keep])


def _eliminate(graph: nx.Graph, cards: dict) -> list[tuple]:
    """Maximal cliques of a triangulation by greedy minimum-fill elimination."""
    adj = {v: set(graph.adj[v]) for v in graph.nodes()}
    order = {v: i for i, v in enumerate(graph.nodes())}
    cliques = []
    while adj:
        def cost(v):
            fill = sum(1 for a, b in combinations(adj[v], 2) if b not in adj[a])
            return fill, float(math.prod(float(cards[w]) for w in adj[v])) * cards[v], order[v]

        v = min(adj, key=cost)
        clique = frozenset(adj[v] | {v})
        if not any(clique <= c for c in cliques):
            cliques.append(clique)
        for a, b in combinations(adj[v], 2):
            adj[a].add(b)
            adj[b].add(a)
        for w in adj[v]:
            adj[w].discard(v)
        del adj[v]
    return [tuple(sorted(c, key=order.__getitem__)) for c in cliques]


class JunctionTreeEngine:
    """A junction tree of a triangulation of ``graph`` in which each set of ``cover`` lies in one clique.

    Parameters
    ----------
    graph : networkx.Graph
    cards : dict
        ``{node: number of states}``.
    cover : iterable of sets of nodes, optional
        Sets that must each lie inside one clique of the junction tree.

    Examples
    --------
    >>> engine = JunctionTreeEngine(nx.cycle_graph(4), dict.fromkeys(range(4), 2))
    >>> [len(c) for c in engine.cliques]
    [3, 3]
    >>> log_z, beliefs = engine.calibrate([])
    >>> round(float(np.exp(log_z)), 6)
    16.0
    """

    def __init__(self, graph: nx.Graph, cards: dict, cover=()):
        g = nx.Graph()
        g.add_nodes_from(graph.nodes())
        g.add_edges_from(graph.edges())
        for group in cover:
            g.add_edges_from(combinations(list(group), 2))
        self.cards = dict(cards)
        self.cliques = _eliminate(g, self.cards)
        widest = max(self.cliques, key=lambda c: np.prod([self.cards[v] for v in c], dtype=float), default=())
        cells = float(np.prod([self.cards[v] for v in widest], dtype=float))
        if cells > MAX_CLIQUE_CELLS:
            raise ValueError(f"Exact computation needs a junction tree whose largest clique has {len(widest)} "
                             f"variables ({cells:,.0f} cells), more than {MAX_CLIQUE_CELLS:,}: the graph is too dense "
                             "for exact likelihoods.")
        tree = nx.Graph()
        tree.add_nodes_from(range(len(self.cliques)))
        for i, j in combinations(range(len(self.cliques)), 2):
            tree.add_edge(i, j, weight=len(set(self.cliques[i]) & set(self.cliques[j])))
        tree = nx.maximum_spanning_tree(tree)
        self.tree_edges = sorted(tuple(sorted(e)) for e in tree.edges())
        self.parent = {0: None}
        self.downward = [0]  # root first, every clique after its parent
        for parent, child in nx.bfs_edges(tree, 0):
            self.parent[child] = parent
            self.downward.append(child)
        self.neighbours: dict = {i: [] for i in range(len(self.cliques))}
        for i, j in self.tree_edges:
            self.neighbours[i].append(j)
            self.neighbours[j].append(i)
        self._homes: dict = {}
        self._layouts: dict = {}
        self._away: dict = {}

    def away(self, i: int) -> list:
        """The directed tree edges ``(a, b)`` leading away from clique ``i`` (the messages a change at ``i`` stales).

        Examples
        --------
        >>> JunctionTreeEngine(nx.path_graph(3), dict.fromkeys(range(3), 2)).away(0)
        [(0, 1)]
        """
        found = self._away.get(i)
        if found is None:
            found, stack = [], [(i, None)]
            while stack:
                node, came = stack.pop()
                for other in self.neighbours[node]:
                    if other != came:
                        found.append((node, other))
                        stack.append((other, node))
            self._away[i] = found
        return found

    def home(self, scope: Sequence) -> int:
        """Index of the first clique holding every variable of ``scope``.

        Examples
        --------
        >>> JunctionTreeEngine(nx.path_graph(3), dict.fromkeys(range(3), 2)).home([1, 2]) >= 0
        True
        """
        key = tuple(scope)
        found = self._homes.get(key)
        if found is None:
            wanted = set(key)
            found = next((i for i, clique in enumerate(self.cliques) if wanted <= set(clique)), None)
            if found is None:
                raise ValueError(f"No clique of the junction tree holds {sorted(wanted, key=str)}")
            self._homes[key] = found
        return found

    def layout(self, source: Sequence, target: Sequence) -> tuple:
        """``(axes, permutation, shape)``: :func:`sum_out` of a table over ``source`` onto the variables it
        shares with ``target``, then :func:`align` to ``target`` (cached; see :meth:`Propagation.add`).

        Examples
        --------
        >>> JunctionTreeEngine(nx.path_graph(3), dict.fromkeys(range(3), 2)).layout((0, 1), (1, 2))
        ((0,), [0], [2, 1])
        """
        key = (tuple(source), tuple(target))
        found = self._layouts.get(key)
        if found is None:
            shared = [v for v in source if v in set(target)]
            axes = tuple(i for i, v in enumerate(source) if v not in shared)
            present = [v for v in target if v in shared]
            shape = [self.cards[v] if v in shared else 1 for v in target]
            found = self._layouts[key] = (axes, [shared.index(v) for v in present], shape)
        return found

    def separator(self, child: int) -> tuple:
        """Variables shared by clique ``child`` and its parent (in the child's order).

        Examples
        --------
        >>> JunctionTreeEngine(nx.path_graph(3), dict.fromkeys(range(3), 2)).separator(1)
        (1,)
        """
        parent = set(self.cliques[self.parent[child]])
        return tuple(v for v in self.cliques[child] if v in parent)

    def _upward(self, factors: Sequence[tuple]) -> tuple[list, dict, np.ndarray, float]:
        """The clique tables, the messages towards the root (``{(child, parent): message}``, leaves first),
        the root's table with its messages and ``log Z``."""
        cliques = self.cliques
        tables = [np.zeros([self.cards[v] for v in c]) for c in cliques]
        for scope, log_table in factors:
            i = self.home(scope)
            tables[i] = tables[i] + align(np.asarray(log_table, dtype=float), scope, cliques[i])
        kids: dict = {}
        upward: dict = {}
        for child in reversed(self.downward[1:]):
            parent = self.parent[child]
            table = tables[child] + _total(upward[(c, child)] for c in kids.get(child, ()))
            axes, permutation, shape = self.layout(cliques[child], cliques[parent])
            summed = _logsumexp(table, axes) if axes else table
            upward[(child, parent)] = np.transpose(summed, permutation).reshape(shape)
            kids.setdefault(parent, []).append(child)
        root = tables[0] + _total(upward[(c, 0)] for c in kids.get(0, ()))
        return tables, upward, root, float(_logsumexp(root, tuple(range(root.ndim))))

    def log_partition(self, factors: Sequence[tuple]) -> float:
        """``log Z`` of the log-potentials ``factors``: :meth:`calibrate`'s, by its upward pass alone.

        Examples
        --------
        >>> engine = JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2})
        >>> round(float(np.exp(engine.log_partition([((0, 1), np.log(np.array([[1.0, 2.0], [3.0, 4.0]])))]))), 6)
        10.0
        """
        return self._upward(factors)[3]

    def calibrate(self, factors: Sequence[tuple]) -> tuple[float, list[np.ndarray]]:
        """Log normalising constant and the normalised log marginal of every clique.

        Parameters
        ----------
        factors : sequence of (variables, log table)
            Log-potentials; their sum is the unnormalised log probability.

        Returns
        -------
        log_z : float
        beliefs : list of numpy.ndarray
            ``beliefs[i]`` is ``log P(X_{cliques[i]})`` (axes in the clique's order).

        Examples
        --------
        >>> engine = JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2})
        >>> log_z, beliefs = engine.calibrate([((0, 1), np.log(np.array([[1.0, 2.0], [3.0, 4.0]])))])
        >>> round(float(np.exp(log_z)), 6), np.exp(beliefs[0]).round(1).tolist()
        (10.0, [[0.1, 0.2], [0.3, 0.4]])
        """
        tables, upward, root, log_z = self._upward(factors)
        beliefs: list = [None] * len(self.cliques)
        beliefs[0] = root - log_z
        for child in self.downward[1:]:
            parent = self.parent[child]
            sep = self.separator(child)
            incoming = sum((m for (c, p), m in upward.items() if p == child), np.zeros(()))
            own = tables[child] + incoming
            with np.errstate(invalid="ignore"):
                parent_on_sep = sum_out(beliefs[parent], self.cliques[parent], sep)
                child_on_sep = sum_out(own, self.cliques[child], sep)
                ratio = np.where(np.isneginf(parent_on_sep), -np.inf, parent_on_sep - child_on_sep)
            beliefs[child] = own + align(ratio, sep, self.cliques[child])
        return log_z, beliefs

    def marginal(self, beliefs: list[np.ndarray], variables: Sequence) -> np.ndarray:
        """``P(X_variables)`` (axes in the given order) from calibrated beliefs.

        Examples
        --------
        >>> engine = JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2})
        >>> _, beliefs = engine.calibrate([((0, 1), np.log(np.array([[1.0, 2.0], [3.0, 4.0]])))])
        >>> engine.marginal(beliefs, [1]).round(1).tolist()
        [0.4, 0.6]
        """
        i = self.home(variables)
        return np.exp(sum_out(beliefs[i], self.cliques[i], list(variables)))

    def sample(self, beliefs: list[np.ndarray], n: int, rng: np.random.Generator) -> dict:
        """``{variable: codes}`` of ``n`` joint draws, clique by clique down the tree.

        Examples
        --------
        >>> engine = JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2})
        >>> _, beliefs = engine.calibrate([((0, 1), np.array([[-np.inf, 0.0], [0.0, -np.inf]]))])
        >>> draws = engine.sample(beliefs, 5, np.random.default_rng(0))
        >>> bool(((draws[0] + draws[1]) == 1).all())
        True
        """
        codes: dict = {}
        for i in self.downward:
            clique = self.cliques[i]
            known = [v for v in clique if v in codes]
            new = [v for v in clique if v not in codes]
            if not new:
                continue
            table = np.exp(np.transpose(beliefs[i], [clique.index(v) for v in known + new]))
            table = table.reshape(int(np.prod([self.cards[v] for v in known], dtype=np.int64)), -1)
            with np.errstate(invalid="ignore", divide="ignore"):
                table = table / table.sum(axis=1, keepdims=True)
            rows = (np.ravel_multi_index([codes[v] for v in known], [self.cards[v] for v in known])
                    if known else np.zeros(n, dtype=np.int64))
            cumulative = np.cumsum(table[rows], axis=1)
            cells = (cumulative < rng.random(n)[:, None] * cumulative[:, -1:]).sum(axis=1)
            cells = np.minimum(cells, table.shape[1] - 1)
            for v, column in zip(new, np.unravel_index(cells, [self.cards[v] for v in new]), strict=True):
                codes[v] = column.astype(np.int64)
        return codes


class Propagation:
    """Clique potentials on a junction tree with messages computed on demand and kept until stale.

    After :meth:`add` changes one clique's potential, only the messages leading away from it are
    recomputed, and only when a belief needs them: fitting one block after another then costs
    the messages along the path between their cliques, not a whole calibration.

    Parameters
    ----------
    engine : JunctionTreeEngine
    factors : sequence of (variables, log table)
        The starting log-potentials.

    Examples
    --------
    >>> engine = JunctionTreeEngine(nx.path_graph(3), dict.fromkeys(range(3), 2))
    >>> propagation = Propagation(engine, [])
    >>> propagation.add((0, 1), np.log(np.array([[1.0, 1.0], [1.0, 3.0]])))
    >>> propagation.marginal([1]).round(3).tolist()
    [0.333, 0.667]
    """

    def __init__(self, engine: JunctionTreeEngine, factors: Sequence[tuple]):
        self.engine = engine
        self.tables = [np.zeros([engine.cards[v] for v in c]) for c in engine.cliques]
        self.neighbours: dict = engine.neighbours
        self.messages: dict = {}
        for scope, log_table in factors:
            self.add(scope, log_table)

    def fork(self) -> Propagation:
        """A copy that shares nothing this one changes: its own tables and messages.

        Examples
        --------
        >>> engine = JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2})
        >>> base = Propagation(engine, [])
        >>> other = base.fork()
        >>> other.add((0,), np.log(np.array([1.0, 3.0])))
        >>> base.marginal([0]).round(6).tolist(), other.marginal([0]).round(6).tolist()
        ([0.5, 0.5], [0.25, 0.75])
        """
        other = copy.copy(self)
        other.tables, other.messages = list(self.tables), dict(self.messages)
        return other

    def add(self, scope: Sequence, log_table: np.ndarray) -> None:
        """Add a log-potential over ``scope`` (it goes to the first clique holding it).

        Examples
        --------
        >>> engine = JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2})
        >>> propagation = Propagation(engine, [])
        >>> propagation.add((0,), np.log(np.array([1.0, 3.0])))
        >>> propagation.marginal([0]).round(6).tolist()
        [0.25, 0.75]
        """
        engine = self.engine
        i = engine.home(scope)
        clique = engine.cliques[i]
        log_table = np.asarray(log_table, dtype=float)
        if tuple(scope) == clique:  # align's identity layout, without its bookkeeping
            self.tables[i] = self.tables[i] + log_table
        else:
            self.tables[i] = self.tables[i] + align(log_table, scope, clique)
        messages = self.messages
        if messages:
            for key in engine.away(i):
                messages.pop(key, None)

    def _message(self, source: int, target: int) -> np.ndarray:
        """The log message from clique ``source`` to its neighbour ``target`` (laid out for ``target``)."""
        found = self.messages.get((source, target))
        if found is not None:
            return found
        pending = [(source, target)]
        while pending:  # compute the missing messages feeding it, deepest first
            a, b = pending[-1]
            missing = [(c, a) for c in self.neighbours[a] if c != b and (c, a) not in self.messages]
            if missing:
                pending.extend(missing)
                continue
            pending.pop()
            table = self.tables[a] + _total(self.messages[(c, a)] for c in self.neighbours[a] if c != b)
            cliques = self.engine.cliques
            axes, permutation, shape = self.engine.layout(cliques[a], cliques[b])
            summed = _logsumexp(table, axes) if axes else table
            self.messages[(a, b)] = np.transpose(summed, permutation).reshape(shape)
        return self.messages[(source, target)]

    def belief(self, i: int) -> tuple[float, np.ndarray]:
        """``(log Z, log P(X_{cliques[i]}))`` under the current potentials.

        Examples
        --------
        >>> engine = JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2})
        >>> log_z, belief = Propagation(engine, []).belief(0)
        >>> round(float(np.exp(log_z)), 6), np.exp(belief).tolist()
        (4.0, [[0.25, 0.25], [0.25, 0.25]])
        """
        table = self.tables[i] + _total(self._message(c, i) for c in self.neighbours[i])
        log_z = _log_total(table)
        return log_z, table - log_z

    def marginal(self, variables: Sequence) -> np.ndarray:
        """``P(X_variables)`` (axes in the given order) under the current potentials.

        Examples
        --------
        >>> engine = JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2})
        >>> Propagation(engine, []).marginal([1]).tolist()
        [0.5, 0.5]
        """
        engine = self.engine
        i = engine.home(variables)
        _, belief = self.belief(i)
        clique = engine.cliques[i]
        axes, permutation, _ = engine.layout(clique, variables)
        summed = _logsumexp(belief, axes) if axes else belief
        return np.exp(np.transpose(summed, permutation))
