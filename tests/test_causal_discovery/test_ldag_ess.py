"""The equivalent sample size of LDAGSearch chosen from the data (``equivalent_sample_size="auto"``)."""

import itertools
import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.causal_discovery.ldag_search import ESS_GRID
from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.structure_score import LDAGScoreSettings


def _table(n: int = 80, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = np.where(rng.random(n) < 0.8, a, 1 - a)
    c = np.where(rng.random(n) < 0.7, b, rng.integers(0, 3, n))
    return pd.DataFrame({"a": a, "b": b, "c": c})


def _bdeu_family(df: pd.DataFrame, child: str, parents: tuple, ess: float) -> float:
    """log p(child | parents) under BDeu, written out with log-gamma over every configuration."""
    states = {v: sorted(df[v].unique()) for v in df.columns}
    r = len(states[child])
    configs = list(itertools.product(*(states[p] for p in parents)))
    q = len(configs)
    a_cell, a_row = ess / (q * r), ess / q
    total = 0.0
    for config in configs:
        rows = df
        for p, value in zip(parents, config, strict=True):
            rows = rows[rows[p] == value]
        counts = [int((rows[child] == k).sum()) for k in states[child]]
        total += math.lgamma(a_row) - math.lgamma(a_row + sum(counts))
        total += sum(math.lgamma(a_cell + n) - math.lgamma(a_cell) for n in counts)
    return total


def _all_dags(nodes: list) -> list:
    pairs = list(itertools.permutations(nodes, 2))
    out = []
    for chosen in itertools.product((False, True), repeat=len(pairs)):
        edges = [e for e, on in zip(pairs, chosen, strict=True) if on]
        if any((v, u) in edges for u, v in edges):
            continue
        if nx.is_directed_acyclic_graph(nx.DiGraph(edges)) or not edges:
            out.append(edges)
    return out


def _brute_force_best(df: pd.DataFrame, ess: float) -> float:
    """The largest BDeu log marginal likelihood over every DAG on the columns of ``df``."""
    nodes = list(df.columns)
    best = -math.inf
    for edges in _all_dags(nodes):
        value = sum(_bdeu_family(df, v, tuple(sorted(u for u, w in edges if w == v)), ess) for v in nodes)
        best = max(best, value)
    return best


def test_all_dags_on_three_nodes_are_25():
    assert len(_all_dags(["a", "b", "c"])) == 25


def test_auto_ess_maximises_the_marginal_likelihood_found_by_brute_force():
    df = _table()
    est = LDAGSearch(scoring_method=LDAGScoreSettings(equivalent_sample_size="auto", labels=False),
                     n_restarts=5, seed=0, show_progress=False).fit(df)
    brute = {ess: _brute_force_best(df, ess) for ess in ESS_GRID}
    assert set(est.ess_scores_) == set(ESS_GRID)
    for ess in ESS_GRID:
        assert est.ess_scores_[ess] == pytest.approx(brute[ess], abs=1e-7)
    assert est.ess_ == max(brute, key=brute.get)
    assert est.best_score_ == pytest.approx(brute[est.ess_], abs=1e-7)


def test_given_grid_is_searched_and_the_model_is_fitted_with_the_chosen_ess():
    df = _table(n=200, seed=4)
    grid = (0.3, 3.0, 30.0)
    est = LDAGSearch(scoring_method=LDAGScoreSettings(equivalent_sample_size=grid, labels=False),
                     n_restarts=2, seed=0, show_progress=False).fit(df)
    brute = {ess: _brute_force_best(df, ess) for ess in grid}
    assert est.ess_ == max(brute, key=brute.get)
    assert est.model_.equivalent_sample_size == est.ess_
    refit = est.model_.copy().fit(df, equivalent_sample_size=est.ess_)
    for node in df.columns:
        np.testing.assert_allclose(refit.get_cpds(node).get_values(), est.model_.get_cpds(node).get_values())


def test_fixed_ess_is_the_fitted_attribute_and_gives_the_earlier_results():
    # reference values from the release before the ESS could be chosen (same data, seed and settings)
    rng = np.random.default_rng(3)
    n = 300
    a, b = rng.integers(0, 2, n), rng.integers(0, 3, n)
    c = np.where((a == 1) & (b > 0), rng.integers(0, 2, n), (a + b) % 2)
    d = np.where(c == 1, rng.integers(0, 3, n), b)
    df = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    earlier = {5.0: (-811.3684187898252, 10.014028285334527), 1.0: (-809.5664462981642, 10.151884738061952)}
    for ess, (score, squares) in earlier.items():
        est = LDAGSearch(scoring_method=LDAGScoreSettings(equivalent_sample_size=ess),
                         n_restarts=2, seed=0, show_progress=False).fit(df)
        assert est.ess_ == ess and list(est.ess_scores_) == [ess]
        assert est.best_score_ == score
        assert sorted(est.model_.edges()) == [("b", "a"), ("c", "a"), ("c", "b"), ("d", "b")]
        values = np.concatenate([np.asarray(cpd.get_values()).ravel()
                                 for cpd in sorted(est.model_.get_cpds(), key=lambda cpd: cpd.variable)])
        assert float((values**2).sum()) == squares


def test_a_learned_model_refits_with_its_ess_unless_given_an_estimator():
    df = _table(n=120, seed=2)
    est = LDAGSearch(scoring_method=LDAGScoreSettings(equivalent_sample_size=2.0),
                     n_restarts=0, seed=0, show_progress=False).fit(df)
    model = est.model_.copy()
    assert model.equivalent_sample_size == 2.0
    by_default = model.fit(df).get_cpds("a").get_values()
    bdeu2 = model.fit(df, equivalent_sample_size=2.0).get_cpds("a").get_values()
    np.testing.assert_allclose(by_default, bdeu2)
    mle = model.fit(df, estimator="mle").get_cpds("a").get_values()
    assert not np.allclose(mle, bdeu2)
    hand_built = LabeledBayesianNetwork(list(model.edges()))
    hand_built.add_nodes_from(df.columns)
    assert hand_built.equivalent_sample_size is None
    np.testing.assert_allclose(hand_built.fit(df).get_cpds("a").get_values(), mle)


@pytest.mark.parametrize("bad", ["big", [], [1.0, -2.0], [True], float("nan"), 0.0])
def test_bad_ess_is_refused_with_its_value(bad):
    with pytest.raises(ValueError, match="equivalent_sample_size"):
        LDAGSearch(scoring_method=LDAGScoreSettings(equivalent_sample_size=bad), show_progress=False).fit(_table(n=20))
