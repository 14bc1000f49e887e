"""The three stages of the marginal pseudo-likelihood search, on an :class:`~pgmpy_sgm.structure_score.MPLScore`.

1. :func:`prescreen_blanket`: each variable's Markov blanket by greedy forward additions of
   the variable that raises its local term most, each followed by backward deletions that
   raise it (Pensar et al., 2017, the first stage of their search; BDgraph's ``local_mb_hc``);
   the union ("OR") of the blankets gives the candidate edges.
2. :func:`climb_edges`: best-improvement hill climbing over the candidate edges from the
   empty graph, each toggle changing the local terms of the edge's two ends. When it drops
   candidate edges, :func:`choose_graph` keeps the climb's graph or the union of the blankets,
   whichever is expected to predict better as a Markov network by AIC (:func:`graph_aic`) or
   by cross-validation (:func:`graph_cv`), or has the higher BIC (:func:`graph_bic`; clique
   potentials by cyclical projection, exact likelihood, log-linear dimension): the pseudo-likelihood prices
   every conditional as a table saturated in the whole blanket, so the global score rejects
   edges at high-degree, multi-state nodes that the network's clique potentials pay for
   cheaply (see :func:`choose_graph`). Then
   :func:`~pgmpy_sgm.causal_discovery._mpl_additions.add_edges` adds the missing edges that
   the fitted network's likelihood pays for (by BIC; mostly edges between variables with common
   neighbours, which neither the climb nor the pre-screen proposed).
3. :func:`climb_contexts`: on the graph found, contexts added (or removed) one at a time in a
   random order when they raise the score, after a first proposal per variable whose blanket is
   complete: the optimal classes of its blanket for its own term alone
   (:meth:`~pgmpy_sgm.structure_score.MPLScore.optimal_blanket_groups`), whose lines are
   contexts of its edges, proposed together. Every candidate set is closed (implied contexts
   added) and kept regular (no edge independent in every context of its common neighbours).
"""

from __future__ import annotations

import math
import time
from itertools import product

import networkx as nx
import numpy as np

from pgmpy_sgm.causal_discovery._mpl_additions import ADDITION_PSEUDO_COUNT, fit_work, network_fit
from pgmpy_sgm.models._cmn_methods import DEFAULT_PSEUDO_COUNT
from pgmpy_sgm.models._cmn_smoothing import cv_log_likelihoods
from pgmpy_sgm.models._cmn_structure import log_linear_dimension
from pgmpy_sgm.structure_score._mpl_groups import close_contexts, common_neighbours

__all__ = ["prescreen_blanket", "climb_edges", "choose_graph", "graph_aic", "graph_bic", "graph_cv", "climb_contexts",
           "Deadline"]

_TOL = 1e-9

#: Pseudo-count of the fits behind :func:`graph_bic` (a near-maximum-likelihood fit that stays positive).
BIC_PSEUDO_COUNT = ADDITION_PSEUDO_COUNT


class Deadline:
    """A wall-clock budget (None: none).

    Examples
    --------
    >>> Deadline(None).passed()
    False
    """

    def __init__(self, seconds: float | None):
        self.end = None if seconds is None else time.perf_counter() + float(seconds)
        self.hit = False

    def passed(self) -> bool:
        if self.end is not None and time.perf_counter() >= self.end:
            self.hit = True
        return self.hit


def _blanket(nodes, order: dict) -> tuple:
    return tuple(sorted(nodes, key=order.__getitem__))


def prescreen_blanket(score, node, max_blanket: int | None, deadline: Deadline) -> tuple:
    """The blanket of ``node`` found by forward additions and backward deletions of its local term.

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 500)
    >>> df = pd.DataFrame({"a": a, "b": np.where(rng.random(500) < 0.9, a, 1 - a), "c": rng.integers(0, 2, 500)})
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> prescreen_blanket(MPLScore(df), "a", None, Deadline(None))
    ('b',)
    """
    order = score.order
    blanket: tuple = ()
    current = score.local_score(node, blanket)
    others = [v for v in score.variables if v != node]
    while not deadline.passed() and (max_blanket is None or len(blanket) < max_blanket):
        outside = [v for v in others if v not in blanket]
        if not outside:
            break
        trials = list(zip(score.extension_terms(node, blanket, outside), outside, strict=True))
        best, added = max(trials, key=lambda t: (t[0], -order[t[1]]))
        if best <= current + _TOL:
            break
        blanket, current = _blanket((*blanket, added), order), best
        while len(blanket) > 2:  # backward deletions (a deletion of one of two would undo the addition)
            trials = [(score.local_score(node, tuple(w for w in blanket if w != v)), v) for v in blanket]
            best, removed = max(trials, key=lambda t: (t[0], -order[t[1]]))
            if best <= current + _TOL:
                break
            blanket, current = tuple(w for w in blanket if w != removed), best
    return blanket


def climb_edges(score, candidates: list, deadline: Deadline) -> tuple[nx.Graph, int]:
    """Best-improvement toggles of candidate edges from the empty graph; the graph and the moves made.

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 500)
    >>> df = pd.DataFrame({"a": a, "b": np.where(rng.random(500) < 0.9, a, 1 - a), "c": rng.integers(0, 2, 500)})
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> graph, moves = climb_edges(MPLScore(df), [("a", "b"), ("a", "c")], Deadline(None))
    >>> sorted(graph.edges()), moves
    ([('a', 'b')], 1)
    """
    order = score.order
    graph = nx.Graph()
    graph.add_nodes_from(score.variables)
    term = {v: score.local_score(v, ()) for v in score.variables}

    def gain(u, v) -> float:
        total = 0.0
        for a, b in ((u, v), (v, u)):
            nbrs = set(graph.adj[a]) ^ {b}
            total += score.local_score(a, _blanket(nbrs, order)) - term[a]
        return total

    gains = {e: gain(*e) for e in candidates}
    moves = 0
    while gains and not deadline.passed():
        edge = max(gains, key=lambda e: (gains[e], -order[e[0]], -order[e[1]]))
        if gains[edge] <= _TOL:
            break
        u, v = edge
        if graph.has_edge(u, v):
            graph.remove_edge(u, v)
        else:
            graph.add_edge(u, v)
        moves += 1
        for a in (u, v):
            term[a] = score.local_score(a, _blanket(graph.adj[a], order))
        for e in gains:
            if u in e or v in e:
                gains[e] = gain(*e)
    return graph, moves


def _fitted_log_likelihood(score, graph: nx.Graph, pseudo_count: float, tol: float, max_iter: int,
                           memo: dict | None) -> tuple[float, int] | None:  # fmt: skip
    """``(log L, k)`` of ``graph`` fitted as a Markov network on the score's data; None when too costly to fit."""
    cards = {v: int(score.encoded.cardinality[v]) for v in graph.nodes()}
    if fit_work(graph, cards) is None:  # a junction tree beyond exact computation, or too costly a fit
        return None
    counts = score.encoded.counts
    fit = network_fit(score, graph, pseudo_count, tol, max_iter, memo)
    log_l = -score.encoded.n * fit.log_z
    for clique, table in fit.log_potentials.items():
        observed = np.asarray(counts(clique), dtype=float)
        log_l += float(np.sum(np.where(observed > 0, observed * table, 0.0)))
    return log_l, log_linear_dimension(graph, cards, {})


def graph_bic(score, graph: nx.Graph, pseudo_count: float = BIC_PSEUDO_COUNT, tol: float = 1e-4,
              max_iter: int = 100, memo: dict | None = None) -> float | None:  # fmt: skip
    """BIC of ``graph`` as a Markov network on the score's data; None when its junction tree is too costly.

    ``log L - (k / 2) log N``: ``log L`` is the exact log-likelihood of the data under clique
    potentials fitted by cyclical projection (with a uniform pseudo-sample of total weight
    ``pseudo_count``; 0 gives maximum likelihood; ``tol`` and ``max_iter`` as in
    ``ContextualMarkovNetwork.fit``, loose by default: the comparison needs the log-likelihood to
    a fraction of a nat, not the parameters to 1e-8), ``k`` the dimension of the log-linear model
    (:func:`~pgmpy_sgm.models._cmn_structure.log_linear_dimension`), ``N`` the number of rows.
    ``memo``: fits already made (:func:`~pgmpy_sgm.causal_discovery._mpl_additions.network_fit`).

    Examples
    --------
    Two binary variables: with the edge, the maximum-likelihood fit is the data's table
    (``log L = 2 x 45 log 0.45 + 2 x 5 log 0.05``) and ``k = 3``:

    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> table = pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 1, 0], "n": [45, 45, 5, 5]})
    >>> score = MPLScore(table, weights="n")
    >>> bic = graph_bic(score, nx.Graph([("a", "b")]), pseudo_count=0.0)
    >>> expected = 90 * math.log(0.45) + 10 * math.log(0.05) - 1.5 * math.log(100)
    >>> bool(abs(bic - expected) < 1e-6)
    True
    """
    fitted = _fitted_log_likelihood(score, graph, pseudo_count, tol, max_iter, memo)
    return None if fitted is None else fitted[0] - 0.5 * fitted[1] * math.log(score.encoded.n)


def graph_aic(score, graph: nx.Graph, pseudo_count: float = BIC_PSEUDO_COUNT, tol: float = 1e-4,
              max_iter: int = 100, memo: dict | None = None) -> float | None:  # fmt: skip
    """AIC of ``graph`` as a Markov network on the score's data, per row; None when its junction tree is too costly.

    ``(log L - k) / N``, with ``log L``, ``k`` and the fit as in :func:`graph_bic`: Akaike's
    estimate of the expected log-likelihood per row of new data under the fitted network, the
    quantity that 5-fold cross-validation (:func:`graph_cv`) estimates with ten more fits. Rows
    may carry fractional counts (``N`` is their total).

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> table = pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 1, 0], "n": [45, 45, 5, 5]})
    >>> score = MPLScore(table, weights="n")
    >>> aic = graph_aic(score, nx.Graph([("a", "b")]), pseudo_count=0.0)
    >>> expected = (90 * math.log(0.45) + 10 * math.log(0.05) - 3) / 100
    >>> bool(abs(aic - expected) < 1e-8)
    True
    """
    fitted = _fitted_log_likelihood(score, graph, pseudo_count, tol, max_iter, memo)
    return None if fitted is None else (fitted[0] - fitted[1]) / score.encoded.n


def graph_cv(score, graph: nx.Graph) -> float | None:
    """Cross-validated log-likelihood per row of ``graph`` as a Markov network on the score's data.

    The rows are split into 5 folds (a fixed seed); each fold is scored under the network fitted
    on the others by cyclical projection (to within 1e-4 of the fold's expectations, as in
    :func:`graph_bic`) with ``ContextualMarkovNetwork.fit``'s default pseudo-count. None when the
    fit is too costly (:func:`fit_work`) or the row counts are not whole numbers (expected counts
    of EM).

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> table = pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 1, 0], "n": [45, 45, 5, 5]})
    >>> score = MPLScore(table, weights="n")
    >>> bool(graph_cv(score, nx.Graph([("a", "b")])) > graph_cv(score, nx.empty_graph(["a", "b"])))
    True
    """
    encoded = score.encoded
    cards = {v: int(encoded.cardinality[v]) for v in graph.nodes()}
    if fit_work(graph, cards) is None or not np.allclose(encoded.weights, np.round(encoded.weights)):
        return None
    codes = encoded.codes[:, [encoded.variables.index(v) for v in graph.nodes()]]
    scores = cv_log_likelihoods(graph, cards, {}, codes, encoded.weights, list(graph.nodes()), (DEFAULT_PSEUDO_COUNT,),
                                tol=1e-4, max_iter=100)  # as graph_bic: the likelihood to a fraction of a nat
    return scores[DEFAULT_PSEUDO_COUNT]


#: Each criterion of :func:`choose_graph`.
GRAPH_CRITERIA = {"aic": graph_aic, "bic": graph_bic, "cv": graph_cv}


def choose_graph(score, climbed: nx.Graph, candidates: list, deadline: Deadline, criterion: str = "bic",
                 memo: dict | None = None) -> tuple[nx.Graph, str, dict, str]:  # fmt: skip
    """The climb's graph or the union of the pre-screened blankets, whichever has the higher ``criterion``.

    ``criterion`` is ``"bic"`` (:func:`graph_bic`), ``"aic"`` (:func:`graph_aic`) or ``"cv"``
    (:func:`graph_cv`). AIC and cross-validation estimate the held-out fit itself, where BIC,
    consistent for the graph, can prefer the sparser graph that predicts worse at small ``n``;
    AIC needs one fit per graph, cross-validation six. When cross-validation cannot be
    computed (fractional counts), BIC decides. ``memo`` keeps the fits of AIC and BIC
    (:func:`~pgmpy_sgm.causal_discovery._mpl_additions.network_fit`).

    The global pseudo-likelihood scores each node by its conditional distribution as a table
    saturated in the whole blanket, so an edge at a node with many multi-state neighbours
    multiplies that node's table and is rejected, although a Markov network pays for the edge
    only inside the cliques holding it; the node at the edge's other end, pre-screened alone,
    keeps it. The union ("OR") of the blankets keeps those edges, and also any weak edge one
    end accepted by chance; the likelihood of the fitted networks, exact, and their exact
    numbers of parameters arbitrate. Returns the chosen graph, ``"global"`` or ``"or"``, the
    value of each graph compared (empty when the two graphs agree, the budget is spent, or a
    junction tree is too costly: then the climb's graph) and the criterion that decided.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> table = pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 1, 0], "n": [45, 45, 5, 5]})
    >>> score = MPLScore(table, weights="n")
    >>> graph, rule, values, criterion = choose_graph(score, nx.Graph([("a", "b")]), [("a", "b")], Deadline(None))
    >>> sorted(graph.edges()), rule, values, criterion
    ([('a', 'b')], 'global', {}, 'bic')
    """
    if criterion not in GRAPH_CRITERIA:
        raise ValueError(f"criterion must be one of {sorted(GRAPH_CRITERIA)}. Got: {criterion!r}")
    union = nx.Graph()
    union.add_nodes_from(climbed.nodes())
    union.add_edges_from(candidates)
    if {frozenset(e) for e in union.edges()} == {frozenset(e) for e in climbed.edges()} or deadline.passed():
        return climbed, "global", {}, criterion
    cards = score.encoded.cardinality
    if fit_work(climbed, cards) is None or fit_work(union, cards) is None:  # no fit before knowing both are feasible
        return climbed, "global", {}, criterion
    judge = GRAPH_CRITERIA[criterion]
    values = {}
    for rule, graph in (("global", climbed), ("or", union)):  # with a memo, the union starts from the climb's fit
        value = judge(score, graph) if judge is graph_cv else judge(score, graph, memo=memo)
        if value is None and judge is graph_cv:
            return choose_graph(score, climbed, candidates, deadline, "bic", memo)
        if value is None or deadline.passed():
            return climbed, "global", {}, criterion
        values[rule] = value
    rule = "or" if values["or"] > values["global"] else "global"
    return (union if rule == "or" else climbed), rule, values, criterion


def _outcomes(graph: nx.Graph, cards: dict, u, v, order: dict) -> list:
    shared = common_neighbours(graph, u, v, order)
    return [frozenset(zip(shared, states, strict=True)) for states in product(*(range(cards[w]) for w in shared))]


def _regular(closed: dict, n_outcomes: dict) -> bool:
    return all(len(found) < n_outcomes[edge] for edge, found in closed.items())


def _line_contexts(score, graph: nx.Graph, node, groups: np.ndarray) -> dict:
    """Contexts stated by the lines of ``node``'s (complete) blanket lying inside one class."""
    order, cards = score.order, score.encoded.cardinality
    blanket = _blanket(graph.adj[node], order)
    shape = tuple(cards[w] for w in blanket)
    grid = np.asarray(groups).reshape(shape)
    out: dict = {}
    for axis, other in enumerate(blanket):
        rest = tuple(w for w in blanket if w != other)
        lines = np.moveaxis(grid, axis, -1).reshape(-1, shape[axis])
        configs = list(product(*(range(cards[w]) for w in rest)))
        for line, config in zip(lines, configs, strict=True):
            if np.all(line == line[0]):
                out.setdefault(frozenset((node, other)), set()).add(frozenset(zip(rest, config, strict=True)))
    return out


class _ContextState:
    """Closed contexts of a fixed graph and every node's local term under them."""

    def __init__(self, score, graph: nx.Graph):
        self.score, self.graph = score, graph
        self.closed: dict = {}
        self.term = {v: score.node_term(graph, {}, v) for v in score.variables}
        self.blankets = {v: _blanket(graph.adj[v], score.order) for v in score.variables}
        self._implied: dict = {}  # close_contexts' memo on this graph
        self._terms: dict = {}  # node terms per node and contexts of its edges

    def node_term(self, closed: dict, node) -> float:
        """``score.node_term`` on this graph, kept per node and contexts of its edges (all the term depends on)."""
        key = (node, tuple((frozenset((node, w)) in closed, frozenset(closed.get(frozenset((node, w)), ())))
                           for w in self.blankets[node]))  # fmt: skip
        term = self._terms.get(key)
        if term is None:
            term = self._terms[key] = self.score.node_term(self.graph, closed, node)
        return term

    def proposal(self, closed: dict) -> tuple[float, dict]:
        """Gain of moving to the closure of ``closed``, and the new terms of the nodes it changes."""
        score, graph = self.score, self.graph
        new = close_contexts(graph, score.encoded.cardinality, closed, score.order, self._implied)
        changed = {w for e in set(new) | set(self.closed) if new.get(e, set()) != self.closed.get(e, set()) for w in e}
        terms = {v: self.node_term(new, v) for v in changed}
        return math.fsum(terms[v] - self.term[v] for v in changed), {"closed": new, "terms": terms}

    def accept(self, move: dict) -> None:
        self.closed = move["closed"]
        self.term.update(move["terms"])


def climb_contexts(score, graph: nx.Graph, rng: np.random.Generator, deadline: Deadline,
                   max_context_configs: int = 64) -> tuple[dict, int]:  # fmt: skip
    """Contexts for a fixed graph (see the module); the closed contexts and the moves accepted.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> rng = np.random.default_rng(1)
    >>> a, b = rng.integers(0, 2, 3000), rng.integers(0, 2, 3000)
    >>> c = np.where(a == 0, rng.random(3000) < 0.5, np.where(b == 1, rng.random(3000) < 0.9, rng.random(3000) < 0.1))
    >>> score = MPLScore(pd.DataFrame({"a": a, "b": b, "c": c.astype(int)}))
    >>> closed, moves = climb_contexts(score, nx.complete_graph(["a", "b", "c"]), rng, Deadline(None))
    >>> score.decode_contexts(closed)
    {('b', 'c'): [{'a': 0}]}
    """
    order, cards = score.order, score.encoded.cardinality
    state = _ContextState(score, graph)
    edges = sorted((tuple(sorted(e, key=order.__getitem__)) for e in graph.edges()),
                   key=lambda e: (order[e[0]], order[e[1]]))
    outcomes = {e: _outcomes(graph, cards, *e, order) for e in edges}
    edges = [e for e in edges if common_neighbours(graph, *e, order) and len(outcomes[e]) <= max_context_configs]
    n_outcomes = {frozenset(e): len(found) for e, found in outcomes.items()}
    moves = 0
    for node in score.variables:  # optimal classes of complete blankets, proposed whole
        blanket = _blanket(graph.adj[node], order)
        if deadline.passed() or len(blanket) < 2 or math.prod(cards[w] for w in blanket) > 16:
            continue
        if any(not graph.has_edge(x, y) for i, x in enumerate(blanket) for y in blanket[i + 1:]):
            continue
        found = _line_contexts(score, graph, node, score.optimal_blanket_groups(node, blanket).group_ids)
        if not found:
            continue
        merged = {e: set(state.closed.get(e, set())) | found.get(e, set()) for e in set(state.closed) | set(found)}
        gain, move = state.proposal(merged)
        if gain > _TOL and _regular(move["closed"], n_outcomes):
            state.accept(move)
            moves += 1
    improved = True
    while improved and not deadline.passed():
        improved = False
        for i in rng.permutation(len(edges)):
            edge = frozenset(edges[i])
            for k in rng.permutation(len(outcomes[edges[i]])):
                if deadline.passed():
                    break
                context = outcomes[edges[i]][k]
                trial = {e: set(found) for e, found in state.closed.items()}
                found = trial.setdefault(edge, set())
                if context in found:
                    found.discard(context)
                else:
                    found.add(context)
                gain, move = state.proposal(trial)
                removal_undone = context in state.closed.get(edge, set()) and context in move["closed"].get(edge, set())
                if gain > _TOL and not removal_undone and _regular(move["closed"], n_outcomes):
                    state.accept(move)
                    moves += 1
                    improved = True
    return state.closed, moves
