"""LDAGSearch: contract, labels planted in simulated data, restarts never worse than one climb."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG
from pgmpy.causal_discovery import HillClimbSearch

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.causal_discovery.ldag_search import _perturb
from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.structure_score import LDAGScore


def _planted(n=4000, seed=0):
    """y copies a when b = 1 and is a biased coin when b = 0; c is noise on y."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    y = np.where(b == 1, np.where(rng.random(n) < 0.9, a, 1 - a), (rng.random(n) < 0.3).astype(int))
    c = np.where(rng.random(n) < 0.8, y, 1 - y)
    return pd.DataFrame({"a": a, "b": b, "y": y, "c": c})


@pytest.fixture(scope="module")
def fitted():
    return LDAGSearch(n_restarts=10, seed=0).fit(_planted())


def test_contract(fitted):
    est = fitted
    assert isinstance(est.causal_graph_, DAG)
    assert nx.is_directed_acyclic_graph(est.causal_graph_)
    adj = est.adjacency_matrix_
    assert list(adj.index) == list(adj.columns) and int(adj.values.sum()) == est.causal_graph_.number_of_edges()
    assert isinstance(est.model_, LabeledBayesianNetwork)
    assert sorted(est.model_.edges()) == sorted(est.causal_graph_.edges())
    assert est.score(true_graph=est.causal_graph_, metric="SHD") == 0
    assert np.isfinite(est.score(X=_planted(500, 1), metric="structure_score"))


def test_planted_labelled_dag_is_found(fitted):
    # a -> y <- b (a v-structure, so the orientation is identified) and y -> c or c -> y
    edges = set(fitted.causal_graph_.edges())
    assert {("a", "y"), ("b", "y")} <= edges and len(edges) == 3
    assert fitted.model_.labels() == {("a", "y"): [{"b": 0}]}


def test_search_reaches_the_planted_optimum(fitted):
    # pgmpy's first climb may stop in a triangle on a, b, y (depending on its tie order); the
    # kicks reach the planted labelled DAG, whose score is computed here independently of the search
    planted = LDAGScore(_planted()).score(DAG([("a", "y"), ("b", "y"), ("y", "c")]))
    assert fitted.best_score_ == pytest.approx(planted)
    assert max(fitted.climb_scores_) == pytest.approx(planted)


def test_best_score_matches_the_model_and_beats_each_climb(fitted):
    est = fitted
    score = est.scoring_method_
    total = 0.0
    for node in est.model_.nodes():
        parents, ids = est.model_.get_classes(node)
        total += score.family_score(node, parents, ids)
    assert est.best_score_ == pytest.approx(total)
    assert est.best_score_ >= max(est.climb_scores_) - 1e-9
    assert len(est.climb_scores_) == 11


def test_first_climb_is_pgmpy_hill_climb_with_the_score():
    df = _planted(1500, 2)
    est = LDAGSearch(n_restarts=0).fit(df)
    score = LDAGScore(df)
    dag = HillClimbSearch(scoring_method=score, return_type="dag", show_progress=False).fit(df).causal_graph_
    assert est.climb_scores_[0] == pytest.approx(score.score(dag))


def test_max_time_stops_restarts():
    est = LDAGSearch(n_restarts=50, max_time=1e-9).fit(_planted(300, 3))
    assert len(est.climb_scores_) == 1


def test_perturb_keeps_acyclic_and_indegree():
    rng = np.random.default_rng(0)
    dag = DAG([("a", "b"), ("b", "c"), ("c", "d")])
    for _ in range(20):
        out = _perturb(dag, 4, 2, rng)
        assert nx.is_directed_acyclic_graph(out) and max(d for _, d in out.in_degree()) <= 2
        assert set(out.nodes()) == set(dag.nodes())


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_restarts": -1}, "n_restarts"),
        ({"perturbation": 0}, "perturbation"),
        ({"max_indegree": 0}, "max_indegree"),
        ({"max_time": 0}, "max_time"),
        ({"n_jobs": 0}, "n_jobs"),
        ({"kappa": 2.0}, "kappa"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        LDAGSearch(**kwargs).fit(_planted(50, 4))


def test_score_needs_an_argument(fitted):
    with pytest.raises(ValueError, match="true_graph"):
        fitted.score()


def test_mcmc_after_the_climbs_gives_a_posterior():
    est = LDAGSearch(n_restarts=0, n_mcmc=2000, seed=0).fit(_planted(2000, 5))
    assert est.n_visited_ >= len(est.posterior_) > 1
    assert est.posterior_["probability"].is_monotonic_decreasing
    assert est.posterior_["probability"].sum() <= 1 + 1e-12
    assert est.best_score_ >= est.climb_scores_[0] - 1e-9
    # the best visited DAG is the model's DAG unless the climb's DAG was better
    top = set(est.posterior_["edges"].iloc[0])
    if est.chain_best_score_ > est.climb_scores_[0] + 1e-9:
        assert top == set(est.causal_graph_.edges())


def test_labels_off_learns_a_plain_dag():
    est = LDAGSearch(n_restarts=0, labels=False).fit(_planted(2000, 6))
    assert est.model_.labels() == {}
    assert est.best_score_ == pytest.approx(LDAGScore(_planted(2000, 6), labels=False).score(est.causal_graph_))
