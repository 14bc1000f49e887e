r"""Edges added to the MPL search's graph by the likelihood of the fitted Markov network.

The pseudo-likelihood prices each variable's conditional as a table saturated in its whole
blanket, so its climb (and its pre-screen) reject edges at high-degree, multi-state nodes that
a Markov network pays for only inside the cliques holding them: in data from Bayesian networks,
mostly the edges between the parents of a common child. :func:`add_edges` looks for them with
the network's own likelihood. The graph is fitted by cyclical projection (pseudo-count 1, near
maximum likelihood); for a missing edge ``{u, v}`` and a set ``A`` that is complete once the
edge is added (``{u, v}``, or ``{u, v, w}`` for a common neighbour ``w``), one step of iterative
proportional fitting, ``p'(x) = p(x) p_hat(x_A) / p(x_A)``, stays in the enlarged model, stays
normalised and raises the log-likelihood by exactly

.. math:: N \, KL(\hat p_A \,\|\, p_A),

so the largest of these is a lower bound on the gain of the maximum-likelihood fit of the graph
with the edge (the triples see a dependence that only shows given a common neighbour, as
between the parents of a common child). The edge is worth adding when that bound exceeds its
BIC price ``(dk / 2) log N``, where ``dk`` is the exact number of log-linear parameters the edge
adds (its interaction with every complete set of common neighbours), plus the extended-BIC term
``2 gamma log d`` (Foygel & Drton 2010; ``EBIC_GAMMA`` = 0: plain BIC, which recovered more
held-out likelihood than ``gamma`` = 1/2 on data sets the benchmark does not use, without false
edges on the non-chordal ones). The candidates are the missing edges whose ends share a
neighbour and those the pre-screen proposed. Edges are added in rounds: in each, the positive
ones in decreasing order of their margin, skipping any edge near one already added in the round
(an end in the closed neighbourhood of an added edge's end, where gains and prices interact),
then the graph is fitted again; the stage ends when no edge pays.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from pgmpy_sgm.models._cmn_dense import DenseJoint, held_whole
from pgmpy_sgm.models._cmn_inference import Propagation, align, sum_out
from pgmpy_sgm.models._cmn_parameters import cyclical_projection, fit_plan

__all__ = ["add_edges", "added_dimension", "joint_marginals", "edge_margins", "fit_work", "network_fit",
           "MAX_FIT_WORK",
           "ADDITION_PSEUDO_COUNT", "EBIC_GAMMA"]

#: Largest work of one sweep of cyclical projection (maximal cliques x junction-tree cells) at which
#: graphs are fitted during the search; above it the search keeps the graph it has.
MAX_FIT_WORK = 2**22

#: Extended-BIC ``gamma``: each added edge pays ``2 gamma log d`` on top of BIC's ``(dk / 2) log N``.
EBIC_GAMMA = 0.0

#: Pseudo-count of the search's fits (a near-maximum-likelihood fit that stays positive).
ADDITION_PSEUDO_COUNT = 1.0


def fit_work(graph: nx.Graph, cards: dict) -> int | None:
    """Cells visited by one sweep of cyclical projection on ``graph``; None above :data:`MAX_FIT_WORK`.

    Examples
    --------
    >>> fit_work(nx.path_graph(3), dict.fromkeys(range(3), 2))  # 2 cliques x (4 + 4) cells
    16
    """
    try:  # the plan of the fit itself (cached): its blocks are the maximal cliques, their tree the triangulation's
        blocks, engine, _ = fit_plan(graph, cards, {})
    except ValueError:  # a clique of the triangulation beyond exact computation
        return None
    cells = sum(math.prod(cards[v] for v in c) for c in engine.cliques)
    work = cells * len(blocks)
    return work if work <= MAX_FIT_WORK else None


def added_dimension(graph: nx.Graph, cards: dict, u, v) -> int:
    """Log-linear parameters that the edge ``{u, v}`` adds to ``graph`` (no contexts).

    The new complete sets are ``{u, v} + B`` for every complete set ``B`` (the empty one
    included) of common neighbours of ``u`` and ``v``, each with ``(r_u - 1)(r_v - 1)
    prod_B (r_w - 1)`` parameters.

    Examples
    --------
    >>> g = nx.Graph([("a", "c"), ("b", "c")])  # a - c - b: a-b adds {a, b} and {a, b, c}
    >>> added_dimension(g, {"a": 2, "b": 3, "c": 4}, "a", "b")  # 1 x 2 + 1 x 2 x 3
    8
    """
    base = (cards[u] - 1) * (cards[v] - 1)
    common = set(graph.adj[u]) & set(graph.adj[v])
    sets = nx.enumerate_all_cliques(graph.subgraph(common))
    return base * (1 + sum(math.prod(cards[w] - 1 for w in c) for c in sets))


def joint_marginals(fit, cards: dict, requests: list) -> dict:
    """``{(u, v, w): P(x_u, x_v, x_w)}`` under a fit of :func:`cyclical_projection` (``w`` a tuple of variables).

    ``v`` and ``w`` must lie in one clique of the fit's junction tree (``w`` a tuple of
    neighbours of ``v``, complete with it); each state ``s`` of ``u`` is entered as evidence
    ``x_u = s``, renewing only the messages on the paths from ``u``'s clique to the cliques asked.

    Examples
    --------
    >>> g = nx.path_graph(3)
    >>> table = np.array([[4.0, 1.0], [1.0, 4.0]])
    >>> fit = cyclical_projection(g, dict.fromkeys(g, 2), {}, lambda vs: table / 2 if len(vs) == 2 else
    ...                           np.array([5.0, 5.0]), 0.0, 1e-12, 100)
    >>> joint_marginals(fit, dict.fromkeys(g, 2), [(0, 2, ())])[(0, 2, ())].round(2).tolist()  # 0.8^2 + 0.2^2
    [[0.34, 0.16], [0.16, 0.34]]
    """
    engine = fit.engine
    if held_whole(engine):
        return _dense_joint_marginals(fit, requests)
    base = Propagation(engine, list(fit.log_potentials.items()))
    for i in range(len(engine.cliques)):  # every message once; each evidence then renews only those it changes
        base.belief(i)
    by_first: dict = {}
    for u, v, extra in requests:
        by_first.setdefault(u, []).append((v, tuple(extra)))
    homes: dict = {}
    out = {}
    for u, wanted in by_first.items():
        tables = {key: np.zeros([cards[u]] + [cards[x] for x in (key[0], *key[1])]) for key in wanted}
        for state in range(cards[u]):
            evidence = np.full(cards[u], -np.inf)
            evidence[state] = 0.0
            propagation = base.fork()
            propagation.add((u,), evidence)
            for v, extra in wanted:
                scope = [v, *extra]
                i = homes.setdefault(tuple(scope), engine.home(scope))
                log_z, belief = propagation.belief(i)
                if np.isfinite(log_z):
                    tables[(v, extra)][state] = math.exp(log_z - fit.log_z) * np.exp(
                        sum_out(belief, engine.cliques[i], scope))
        out.update({(u, v, extra): table for (v, extra), table in tables.items()})
    return out


def _dense_joint_marginals(fit, requests: list) -> dict:
    """:func:`joint_marginals` summed from the fit's whole joint table (a small network)."""
    joint = DenseJoint(fit.engine, list(fit.log_potentials.items()))
    return {(u, v, tuple(extra)): joint.marginal([u, v, *extra]) for u, v, extra in requests}


def _orient(pairs: list) -> list:
    """Each pair with the end shared by more pairs first (fewer calibrations in :func:`joint_marginals`)."""
    load: dict = {}
    for u, v in pairs:
        load[u] = load.get(u, 0) + 1
        load[v] = load.get(v, 0) + 1
    return [(u, v) if load[u] >= load[v] else (v, u) for u, v in pairs]


def _candidates(graph: nx.Graph, proposed: list, order: dict) -> list:
    """Missing edges whose ends share a neighbour, and missing edges the pre-screen proposed."""
    found = {frozenset((a, b)) for w in graph.nodes() for a in graph.adj[w] for b in graph.adj[w]
             if a != b and not graph.has_edge(a, b)}  # fmt: skip
    found |= {frozenset(e) for e in proposed if not graph.has_edge(*e)}
    return sorted((tuple(sorted(e, key=order.__getitem__)) for e in found), key=lambda e: (order[e[0]], order[e[1]]))


def _common_cliques(graph: nx.Graph, u, v, order: dict) -> list[tuple]:
    """The maximal complete sets of common neighbours of ``u`` and ``v`` (``[()]`` when they have none)."""
    common = graph.subgraph(set(graph.adj[u]) & set(graph.adj[v]))
    found = [tuple(sorted(c, key=order.__getitem__)) for c in nx.find_cliques(common)] if len(common) else []
    return sorted(found) or [()]


def _kl(counts: np.ndarray, model: np.ndarray) -> float:
    p = counts / counts.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * (np.log(p) - np.log(model)), 0.0)
    return float(terms.sum())


def edge_margins(score, graph: nx.Graph, fit, pairs: list) -> dict:
    """``{(u, v): gain bound - (dk / 2) log N - log d}`` for the missing edges ``pairs`` (see the module).

    The gain bound is the largest ``N KL(p_hat_A || p_A)`` over ``A = {u, v}`` and ``A = {u, v, w}``
    for each common neighbour ``w`` (complete once the edge is added, so one step of iterative
    proportional fitting on ``A`` stays in the enlarged model and gains exactly that).

    Examples
    --------
    Two binary variables, independent under the fit, strongly dependent in the data:

    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> score = MPLScore(pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 1, 0], "n": [45, 45, 5, 5]}), weights="n")
    >>> g = nx.empty_graph(["a", "b"])
    >>> fit = cyclical_projection(g, {"a": 2, "b": 2}, {}, score.encoded.counts, 0.0, 1e-12, 10)
    >>> margin = edge_margins(score, g, fit, [("a", "b")])[("a", "b")]
    >>> gain = 100 * (0.9 * math.log(0.45 / 0.25) + 0.1 * math.log(0.05 / 0.25))  # N KL, one parameter added
    >>> expected = gain - 0.5 * math.log(100) - 2 * EBIC_GAMMA * math.log(2)
    >>> bool(abs(margin - expected) < 1e-9)
    True
    """
    cards = score.encoded.cardinality
    n, d = score.encoded.n, len(score.variables)
    requests = [(u, v, extra) for u, v in _orient(pairs) for extra in _common_cliques(graph, u, v, score.order)]
    model = joint_marginals(fit, cards, requests)
    bound: dict = {}
    for (u, v, extra), table in model.items():
        key = frozenset((u, v))
        counts = np.asarray(score.encoded.counts((u, v, *extra)), dtype=float)
        bound[key] = max(bound.get(key, 0.0), n * _kl(counts, table))
    out = {}
    for u, v in pairs:
        price = 0.5 * added_dimension(graph, cards, u, v) * math.log(n) + 2 * EBIC_GAMMA * math.log(d)
        out[(u, v)] = bound[frozenset((u, v))] - price
    return out


def network_fit(score, graph: nx.Graph, pseudo_count: float = ADDITION_PSEUDO_COUNT, tol: float = 1e-4,
                max_iter: int = 100, memo: dict | None = None):  # fmt: skip
    """``graph`` fitted as a Markov network (no contexts) on the score's data by :func:`cyclical_projection`.

    ``memo`` keeps each fit by the graph's nodes, its edges and the fit's settings, so that the
    stages of one search fit each graph once. A graph not in it starts from the fit in it of its
    largest subgraph with the same nodes and settings (:func:`carried_potentials`), when there is
    one: the stages fit ever larger graphs (the climb's, the union of the blankets, each round of
    additions), which then take a few sweeps each, to the same tolerance.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> score = MPLScore(pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 1, 0], "n": [45, 45, 5, 5]}), weights="n")
    >>> memo = {}
    >>> fit = network_fit(score, nx.Graph([("a", "b")]), memo=memo)
    >>> network_fit(score, nx.Graph([("b", "a")]), memo=memo) is fit, len(memo)
    (True, 1)
    >>> alone = network_fit(score, nx.empty_graph(["a", "b"]), memo=memo)  # no edges: another fit
    >>> sorted(network_fit(score, nx.empty_graph(["a"]), memo=memo).log_potentials), len(memo)  # fewer nodes
    ([('a',)], 3)
    """
    nodes, edges = frozenset(graph.nodes()), frozenset(frozenset(e) for e in graph.edges())
    key = (nodes, edges, pseudo_count, tol, max_iter)
    if memo is not None and key in memo:
        return memo[key]
    cards = score.encoded.cardinality
    subgraphs = [k for k in (memo or ()) if k[0] == nodes and k[2:] == key[2:] and k[1] <= edges]
    warm = memo[max(subgraphs, key=lambda k: len(k[1]))] if subgraphs else None  # ties: the first fitted
    start = None if warm is None else carried_potentials(warm, fit_plan(graph, cards, {})[0])
    fit = cyclical_projection(graph, cards, {}, score.encoded.counts, pseudo_count, tol, max_iter, start)
    if memo is not None:
        memo[key] = fit
    return fit


def carried_potentials(fit, blocks: list) -> dict | None:
    """``fit``'s log-potentials laid out on the cliques of ``blocks`` (a plan of a supergraph without contexts).

    Each potential goes to the first clique holding its variables, so the start is ``fit``'s
    distribution itself. None when some potential fits in no clique (``blocks`` is not the plan
    of a supergraph).

    Examples
    --------
    >>> g = nx.path_graph(3)
    >>> table = np.array([[4.0, 1.0], [1.0, 4.0]])
    >>> fit = cyclical_projection(g, dict.fromkeys(g, 2), {}, lambda vs: table, 0.0, 1e-12, 100)
    >>> triangle = fit_plan(nx.complete_graph(3), dict.fromkeys(g, 2), {})[0]
    >>> start = carried_potentials(fit, triangle)
    >>> [(clique, table.shape) for clique, table in start.items()]
    [((0, 1, 2), (2, 2, 2))]
    """
    cliques = [c for b in blocks for c in b.cliques]
    cards = fit.engine.cards
    out = {c: np.zeros([cards[v] for v in c]) for c in cliques}
    for scope, table in fit.log_potentials.items():
        home = next((c for c in cliques if set(scope) <= set(c)), None)
        if home is None:
            return None
        out[home] = out[home] + align(table, scope, home)
    return out


def add_edges(score, graph: nx.Graph, proposed: list, deadline, memo: dict | None = None) -> tuple[nx.Graph, list]:
    """Edges added to ``graph`` while one pays by the fitted network's likelihood (see the module).

    Returns the enlarged graph and the edges added, in the order added. Nothing is added when
    the graph's fit is too costly (:func:`fit_work`) or the budget is spent. ``memo``: fits
    already made (:func:`network_fit`).

    Examples
    --------
    ``c`` is the common child of ``a`` and ``b`` (``c = a xor b`` mostly), so ``a`` and ``b``
    are independent but dependent given ``c``: the Markov network needs the edge ``a - b``.

    >>> import pandas as pd
    >>> from pgmpy_sgm.causal_discovery._mpl_steps import Deadline
    >>> from pgmpy_sgm.structure_score import MPLScore
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.integers(0, 2, 2000), rng.integers(0, 2, 2000)
    >>> c = np.where(rng.random(2000) < 0.9, a ^ b, 1 - (a ^ b))
    >>> score = MPLScore(pd.DataFrame({"a": a, "b": b, "c": c}))
    >>> graph, added = add_edges(score, nx.Graph([("a", "c"), ("b", "c")]), [], Deadline(None))
    >>> added
    [('a', 'b')]
    """
    order, cards = score.order, score.encoded.cardinality
    graph = graph.copy()
    added: list = []
    if fit_work(graph, cards) is None:
        return graph, added
    memo = {} if memo is None else memo  # each round's fit starts from the last one's (network_fit)
    while not deadline.passed():
        pairs = _candidates(graph, proposed, order)
        if not pairs:
            break
        margins = edge_margins(score, graph, network_fit(score, graph, memo=memo), pairs)
        touched: set = set()
        batch = []
        for (u, v), margin in sorted(margins.items(), key=lambda kv: (-kv[1], order[kv[0][0]], order[kv[0][1]])):
            if margin <= 0:
                break
            if u in touched or v in touched:
                continue
            batch.append((u, v))
            touched |= {u, v} | set(graph.adj[u]) | set(graph.adj[v])
        if not batch:
            break
        graph.add_edges_from(batch)
        if fit_work(graph, cards) is None:  # too costly to fit with the whole round: its best edge alone, or stop
            graph.remove_edges_from(batch[1:])
            batch = batch[:1]
            if fit_work(graph, cards) is None:
                graph.remove_edge(*batch[0])
                break
        added.extend(batch)
    return graph, added
