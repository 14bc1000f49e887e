"""Stage 2 of MPLSearch by the fitted network's likelihood: edges added, and the graph chosen by cross-validation.

Every expected value is computed here by brute force over the joint table of a small network.
"""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import pgmpy_sgm.models._cmn_dense as cmn_dense
from pgmpy_sgm.causal_discovery import MPLSearch
from pgmpy_sgm.causal_discovery._mpl_additions import (
    add_edges,
    added_dimension,
    carried_potentials,
    edge_margins,
    joint_marginals,
    network_fit,
)
from pgmpy_sgm.causal_discovery._mpl_steps import Deadline, choose_graph
from pgmpy_sgm.models._cmn_parameters import cyclical_projection, fit_plan
from pgmpy_sgm.structure_score import MPLScore

_NODES = ["a", "b", "c", "d", "e"]
_CARDS = {"a": 2, "b": 3, "c": 2, "d": 3, "e": 2}
_GRAPH = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("b", "e"), ("c", "e")]  # chordless cycle a-b-c-d


def _brute_dimension(graph: nx.Graph, cards: dict) -> int:
    """Free log-linear parameters: every non-empty complete set A contributes prod_A (r - 1)."""
    total = 0
    nodes = list(graph.nodes())
    for size in range(1, len(nodes) + 1):
        for subset in itertools.combinations(nodes, size):
            if all(graph.has_edge(u, v) for u, v in itertools.combinations(subset, 2)):
                total += math.prod(cards[v] - 1 for v in subset)
    return total


def _graph(edges) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(_NODES)
    g.add_edges_from(edges)
    return g


def _random_data(n: int, seed: int) -> pd.DataFrame:
    """Draws from a random positive joint over the five variables (every interaction present)."""
    rng = np.random.default_rng(seed)
    shape = [_CARDS[v] for v in _NODES]
    p = rng.gamma(1.0, size=shape).ravel()
    cells = rng.choice(p.size, size=n, p=p / p.sum())
    return pd.DataFrame(dict(zip(_NODES, np.unravel_index(cells, shape), strict=True)))


def _joint(fit) -> np.ndarray:
    """The fitted joint over _NODES by brute force from the fit's log-potentials."""
    total = np.zeros([_CARDS[v] for v in _NODES])
    for clique, table in fit.log_potentials.items():
        shape = [_CARDS[v] if v in clique else 1 for v in _NODES]
        order = sorted(range(len(clique)), key=lambda i: _NODES.index(clique[i]))
        total = total + np.transpose(table, order).reshape(shape)
    p = np.exp(total - total.max())
    return p / p.sum()


def _marginal(joint: np.ndarray, keep) -> np.ndarray:
    axes = tuple(i for i, v in enumerate(_NODES) if v not in keep)
    kept = [v for v in _NODES if v in keep]
    return np.transpose(joint.sum(axis=axes), [kept.index(v) for v in keep])


def _data_table(data: pd.DataFrame) -> np.ndarray:
    table = np.zeros([_CARDS[v] for v in _NODES])
    np.add.at(table, tuple(data[v].to_numpy() for v in _NODES), 1.0)
    return table


@pytest.mark.parametrize("edge", [("a", "c"), ("b", "d"), ("a", "e"), ("d", "e")])
def test_added_dimension_equals_the_difference_of_brute_force_dimensions(edge):
    before = _graph(_GRAPH)
    after = _graph([*_GRAPH, edge])
    assert added_dimension(before, _CARDS, *edge) == _brute_dimension(after, _CARDS) - _brute_dimension(before, _CARDS)


@pytest.mark.parametrize("whole", [True, False], ids=["whole joint", "junction tree"])
def test_joint_marginals_equal_the_brute_force_joint(whole, monkeypatch):
    if not whole:
        monkeypatch.setattr(cmn_dense, "DENSE_JOINT_CELLS", 0)
    data = _random_data(800, seed=0)
    score = MPLScore(data, state_names={v: list(range(_CARDS[v])) for v in _NODES})
    graph = _graph(_GRAPH)
    fit = cyclical_projection(graph, _CARDS, {}, score.encoded.counts, 1.0, 1e-10, 500)
    joint = _joint(fit)
    requests = [("a", "c", ()), ("a", "c", ("b",)), ("d", "b", ("c",)), ("e", "a", ()), ("a", "e", ("b",))]
    got = joint_marginals(fit, _CARDS, requests)
    for u, v, extra in requests:
        np.testing.assert_allclose(got[(u, v, extra)], _marginal(joint, [u, v, *extra]), atol=1e-10)


def test_edge_margin_is_the_exact_gain_of_one_proportional_fitting_step_less_the_bic_price():
    """The margin of a-c: the largest gain of p' = p p_hat_A / p_A over A = {a, c}, {a, c, b}, {a, c, d},
    computed on the brute-force joint, less (dk / 2) log N; and it does not exceed the gain of the
    maximum-likelihood fit of the graph with the edge."""
    data = _random_data(3000, seed=1)
    score = MPLScore(data, state_names={v: list(range(_CARDS[v])) for v in _NODES})
    graph = _graph(_GRAPH)
    fit = cyclical_projection(graph, _CARDS, {}, score.encoded.counts, 1.0, 1e-10, 500)
    joint, table = _joint(fit), _data_table(data)
    n = len(data)
    log_l = lambda p: float(np.sum(table * np.log(p)))  # noqa: E731
    gains = []
    for scope in (["a", "c"], ["a", "c", "b"], ["a", "c", "d"]):
        ratio = _marginal(table / n, scope) / _marginal(joint, scope)
        shape = [_CARDS[v] if v in scope else 1 for v in _NODES]
        order = sorted(range(len(scope)), key=lambda i: _NODES.index(scope[i]))
        stepped = joint * np.transpose(ratio, order).reshape(shape)
        assert stepped.sum() == pytest.approx(1.0)
        gains.append(log_l(stepped) - log_l(joint))
    price = 0.5 * added_dimension(graph, _CARDS, "a", "c") * math.log(n)
    from pgmpy_sgm.causal_discovery import _mpl_additions

    price += 2 * _mpl_additions.EBIC_GAMMA * math.log(len(_NODES))
    margin = edge_margins(score, graph, fit, [("a", "c")])[("a", "c")]
    assert margin == pytest.approx(max(gains) - price, rel=1e-9, abs=1e-7)
    larger = cyclical_projection(_graph([*_GRAPH, ("a", "c")]), _CARDS, {}, score.encoded.counts, 1.0, 1e-10, 500)
    assert log_l(_joint(larger)) - log_l(joint) >= max(gains) - 1e-6


def _collider_data(n: int, seed: int) -> pd.DataFrame:
    """a -> c <- b with c mostly a xor b, and d a noisy copy of c: a Bayesian network whose moral graph
    has a - b; z independent of everything."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    c = np.where(rng.random(n) < 0.85, a ^ b, 1 - (a ^ b))
    d = np.where(rng.random(n) < 0.8, c, 1 - c)
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d, "z": rng.integers(0, 2, n)})


def test_add_edges_adds_the_moral_edge_of_a_collider_and_no_false_one():
    data = _collider_data(3000, seed=0)
    score = MPLScore(data)
    start = nx.Graph([("a", "c"), ("b", "c"), ("c", "d")])
    start.add_nodes_from(data.columns)
    graph, added = add_edges(score, start, [], Deadline(None))
    assert added == [("a", "b")]
    assert {frozenset(e) for e in graph.edges()} == {frozenset(e) for e in [*start.edges(), ("a", "b")]}


def test_add_edges_adds_nothing_when_the_budget_is_spent_or_the_graph_is_complete():
    data = _collider_data(500, seed=1)
    score = MPLScore(data)
    start = nx.Graph([("a", "c"), ("b", "c")])
    start.add_nodes_from(data.columns)
    assert add_edges(score, start, [], Deadline(1e-9))[1] == []
    assert add_edges(score, nx.complete_graph(list(data.columns)), [], Deadline(None))[1] == []


def test_mplsearch_on_bayesian_network_data_adds_a_moral_edge_and_can_switch_additions_off():
    """Data from the child network (20 variables, up to 6 states): the pseudo-likelihood misses moral
    edges at the multi-state hub Disease; the likelihood stage adds one, and only moral ones."""
    import gzip
    from pathlib import Path

    from pgmpy.readwrite import BIFReader

    with gzip.open(Path(__file__).parents[1] / "data" / "child.bif.gz", "rt") as fh:
        bn = BIFReader(string=fh.read()).get_model()
    moral = {frozenset(e) for e in bn.to_markov_model().edges()}
    data = bn.simulate(2000, seed=0, show_progress=False)
    est = MPLSearch(contexts=False).fit(data)
    plain = MPLSearch(contexts=False, edge_additions=False).fit(data)
    assert plain.added_edges_ == [] and est.added_edges_
    extra = {frozenset(e) for e in est.graph_.edges()} - {frozenset(e) for e in plain.graph_.edges()}
    assert extra == {frozenset(e) for e in est.added_edges_} and extra <= moral


def _cv_by_hand(data: pd.DataFrame, edges, pseudo_count: float) -> float:
    """5-fold held-out log-likelihood per row of a forest, fitted in closed form on each fold's complement."""
    from pgmpy_sgm.models._cmn_smoothing import fold_weights

    score = MPLScore(data)
    codes, weights, names = score.encoded.codes, score.encoded.weights, score.encoded.variables
    cards = {v: 2 for v in names}
    total = 0.0
    for k, held in enumerate(folds := fold_weights(weights, 5)):
        train = sum(f for j, f in enumerate(folds) if j != k)

        def marginal(scope, train=train):
            table = np.zeros([cards[v] for v in scope])
            np.add.at(table, tuple(codes[:, names.index(v)] for v in scope), train)
            table = table + pseudo_count / table.size
            return table / table.sum()

        degree = {v: sum(v in e for e in edges) for v in names}
        log_p = np.zeros(len(codes))
        for u, v in edges:
            log_p += np.log(marginal([u, v])[codes[:, names.index(u)], codes[:, names.index(v)]])
        for v in names:
            log_p += (1 - degree[v]) * np.log(marginal([v])[codes[:, names.index(v)]])
        total += float(held @ log_p)
    return total / weights.sum()


def test_choose_graph_by_cross_validation_follows_the_hand_computed_held_out_fit():
    """A hub h with a strong a and a weak c; the union adds h-c: the cross-validated likelihoods of both
    graphs (forests, fitted in closed form here) decide."""
    from pgmpy_sgm.models._cmn_methods import DEFAULT_PSEUDO_COUNT

    rng = np.random.default_rng(0)
    n = 400
    h = rng.integers(0, 2, n)
    data = pd.DataFrame({"h": h, "a": np.where(rng.random(n) < 0.85, h, 1 - h),
                         "c": np.where(rng.random(n) < 0.58, h, 1 - h)})  # fmt: skip
    score = MPLScore(data)
    climbed = nx.Graph([("h", "a")])
    climbed.add_nodes_from(data.columns)
    candidates = [("h", "a"), ("h", "c")]
    graph, rule, values, criterion = choose_graph(score, climbed, candidates, Deadline(None), "cv")
    by_hand = {"global": _cv_by_hand(data, [("h", "a")], DEFAULT_PSEUDO_COUNT),
               "or": _cv_by_hand(data, candidates, DEFAULT_PSEUDO_COUNT)}  # fmt: skip
    assert criterion == "cv" and values == pytest.approx(by_hand, abs=1e-5)
    assert rule == max(by_hand, key=by_hand.get)


def test_graph_choice_cv_falls_back_to_bic_with_fractional_counts_aic_does_not_and_is_checked():
    from pgmpy_sgm.core.data import ExpectedCounts

    data = pd.DataFrame({"a": [0, 1, 0, 1, 0, 1], "b": [0, 1, 1, 0, 0, 1], "c": [0, 0, 1, 1, 1, 0]})
    score = MPLScore(data, weights=ExpectedCounts(np.array([10.5, 9.5, 2.0, 3.0, 4.0, 5.0])))
    climbed = nx.empty_graph(["a", "b", "c"])
    assert choose_graph(score, climbed, [("a", "b")], Deadline(None), "cv")[3] == "bic"
    _, _, values, criterion = choose_graph(score, climbed, [("a", "b")], Deadline(None), "aic")
    assert criterion == "aic" and set(values) == {"global", "or"}  # AIC needs no whole rows
    with pytest.raises(ValueError, match="criterion must be one of"):
        choose_graph(score, climbed, [("a", "b")], Deadline(None), "aicc")
    with pytest.raises(ValueError, match="graph_choice must be one of"):
        MPLSearch(graph_choice="aicc").fit(data)


def test_carried_potentials_start_a_supergraph_at_the_subgraph_fits_distribution():
    data = _random_data(800, seed=1)
    score = MPLScore(data, state_names={v: list(range(_CARDS[v])) for v in _NODES})
    fit = cyclical_projection(_graph(_GRAPH), _CARDS, {}, score.encoded.counts, 1.0, 1e-10, 500)
    larger = _graph(_GRAPH + [("a", "c"), ("d", "e")])
    start = carried_potentials(fit, fit_plan(larger, _CARDS, {})[0])
    assert set(start) == {c for b in fit_plan(larger, _CARDS, {})[0] for c in b.cliques}
    carried = cyclical_projection(larger, _CARDS, {}, score.encoded.counts, 1.0, 1e-10, 0, start)  # no sweep
    np.testing.assert_allclose(_joint(carried), _joint(fit), atol=1e-12)
    smaller = _graph(_GRAPH[:3])  # not a supergraph: its cliques hold no potential of the cycle's fit
    assert carried_potentials(fit, fit_plan(smaller, _CARDS, {})[0]) is None


def test_a_warm_fit_reaches_the_same_network_in_no_more_sweeps():
    data = _random_data(2000, seed=2)
    score = MPLScore(data, state_names={v: list(range(_CARDS[v])) for v in _NODES})
    memo: dict = {}
    network_fit(score, _graph(_GRAPH), tol=1e-10, max_iter=500, memo=memo)
    network_fit(score, _graph(_GRAPH[:3]), tol=1e-10, max_iter=500, memo=memo)  # a smaller subgraph, not chosen
    larger = _graph(_GRAPH + [("d", "e")])  # still not chordal: cyclical projection needs several sweeps
    cold = network_fit(score, larger, tol=1e-10, max_iter=500)
    warm = network_fit(score, larger, tol=1e-10, max_iter=500, memo=memo)  # from the cycle's fit in the memo
    assert cold.converged and warm.converged and warm.n_iter <= cold.n_iter  # fewer on wide graphs: bench_mpl_warm
    np.testing.assert_allclose(_joint(warm), _joint(cold), atol=1e-9)
