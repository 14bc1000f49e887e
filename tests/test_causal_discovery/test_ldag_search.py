"""LDAGSearch: contract, labels planted in simulated data, restarts never worse than one climb."""

import itertools
import os

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
    return LDAGSearch(n_restarts=10, restart_budget=None, seed=0).fit(_planted())


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
    assert est.climb_starts_ == ["ges", "empty"] + ["restart"] * 10


def test_first_climb_is_pgmpy_hill_climb_with_the_score():
    df = _planted(1500, 2)
    est = LDAGSearch(n_restarts=0, start="empty").fit(df)
    score = LDAGScore(df)
    dag = HillClimbSearch(scoring_method=score, return_type="dag", show_progress=False).fit(df).causal_graph_
    assert est.climb_scores_[0] == pytest.approx(score.score(dag))
    assert est.start_scores_ == {"empty": pytest.approx(sum(score.local_score(v, ()) for v in df.columns))}
    assert est.ges_steps_ is None and est.climb_starts_ == ["empty"]


def test_default_start_climbs_from_the_equivalence_search_and_from_the_empty_graph():
    df = _planted(1500, 2)
    est = LDAGSearch(n_restarts=0).fit(df)
    assert est.climb_starts_ == ["ges", "empty"]
    kinds = [step[0] for step in est.ges_steps_]
    assert kinds and set(kinds) <= {"insert", "delete"} and kinds[0] == "insert"
    assert all(gain > 0 for *_, gain in est.ges_steps_)
    # the unlabelled score rises from the empty graph by the gains of the steps applied
    plain = LDAGScore(df, labels=False)
    ges = LDAGSearch(n_restarts=0, start="ges", labels=False).fit(df)
    empty_score = sum(plain.local_score(v, ()) for v in df.columns)
    assert ges.start_scores_["ges"] == pytest.approx(empty_score + sum(step[-1] for step in ges.ges_steps_))
    assert est.best_score_ == pytest.approx(max(est.climb_scores_))
    for where in ("ges", "empty"):
        alone = LDAGSearch(n_restarts=0, start=where).fit(df)
        assert alone.best_score_ == pytest.approx(est.climb_scores_[est.climb_starts_.index(where)])


def test_start_from_a_given_dag_is_pgmpy_hill_climb_from_it():
    df = _planted(1500, 3)
    start = DAG([("c", "y"), ("y", "a")])
    start.add_nodes_from(df.columns)
    est = LDAGSearch(n_restarts=0, start=start).fit(df)
    score = LDAGScore(df)
    dag = HillClimbSearch(scoring_method=score, start_dag=start, return_type="dag",
                          show_progress=False).fit(df).causal_graph_  # fmt: skip
    assert est.start_scores_ == {"given": pytest.approx(score.score(start))}
    assert est.climb_scores_ == [pytest.approx(score.score(dag))]


@pytest.mark.parametrize(
    ("start", "match"),
    [("greedy", "start must be one of"), (DAG([("a", "zz")]), "zz"), (nx.DiGraph([("a", "b"), ("b", "a")]), "acyclic")],
)
def test_bad_start_is_named(start, match):
    with pytest.raises(ValueError, match=match):
        LDAGSearch(start=start).fit(_planted(200, 4))


def test_max_time_stops_restarts():
    est = LDAGSearch(n_restarts=50, max_time=1e-9).fit(_planted(300, 3))
    assert est.climb_starts_ == ["ges", "empty"]


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
        ({"restart_budget": -1.0}, "restart_budget"),
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
    assert est.best_score_ >= max(est.climb_scores_) - 1e-9
    # the best visited DAG is the model's DAG unless the climbs' DAG was better
    top = set(est.posterior_["edges"].iloc[0])
    if est.chain_best_score_ > max(est.climb_scores_) + 1e-9:
        assert top == set(est.causal_graph_.edges())


def test_labels_off_learns_a_plain_dag():
    est = LDAGSearch(n_restarts=0, labels=False).fit(_planted(2000, 6))
    assert est.model_.labels() == {}
    assert est.best_score_ == pytest.approx(LDAGScore(_planted(2000, 6), labels=False).score(est.causal_graph_))


_TIES = """
import numpy as np, pandas as pd
from pgmpy_sgm.causal_discovery import LDAGSearch
x = np.random.default_rng(0).integers(0, 2, 200)
df = pd.DataFrame({c: x for c in "pqrstu"})
print(sorted(LDAGSearch(n_restarts=2, seed=0).fit(df).causal_graph_.edges()))
"""


def test_ties_are_broken_by_column_order_not_by_the_hash_seed():
    # six copies of one column: every addition (and both orientations of every edge) ties
    # exactly, so pgmpy's set order alone would decide; the sorted order takes the earliest
    # column pair first, which builds the complete DAG in column order whatever the hash seed
    import subprocess
    import sys

    expected = str(sorted(itertools.combinations("pqrstu", 2)))
    for hash_seed in ("0", "1", "7"):
        out = subprocess.run(
            [sys.executable, "-c", _TIES],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert out.stdout.strip() == expected


def test_moves_scored_are_counted():
    # two independent columns: the first climb scores the two additions, takes neither and stops
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"a": rng.integers(0, 2, 400), "b": rng.integers(0, 2, 400)})
    est = LDAGSearch(n_restarts=0, start="empty").fit(df)
    assert est.climb_moves_ == [2] and est.causal_graph_.number_of_edges() == 0


def test_restart_budget_zero_keeps_the_first_climb():
    est = LDAGSearch(n_restarts=5, restart_budget=0).fit(_planted(500, 7))
    assert est.climb_starts_ == ["ges", "empty"]


@pytest.mark.parametrize("budget", [0.3, 1.0, 3.0])
def test_restart_budget_stops_when_the_next_restart_would_exceed_it(budget):
    est = LDAGSearch(n_restarts=30, restart_budget=budget, seed=1).fit(_planted(1000, 8))
    moves = est.climb_moves_
    assert len(moves) == len(est.climb_scores_) == len(est.climb_seconds_) == len(est.climb_new_families_)
    assert est.climb_starts_[:2] == ["ges", "empty"]
    limit = budget * max(moves[:2])
    restarts = moves[2:]
    for k in range(len(restarts)):  # every restart started while the expected total was within the budget
        before = restarts[:k]
        assert 0 < limit and sum(before) + (sum(before) / k if k else 0) <= limit
    if len(restarts) < 30:  # and the next one would have exceeded it
        assert sum(restarts) + sum(restarts) / max(len(restarts), 1) > limit


def test_counts_table_learns_what_its_rows_learn():
    rows = _planted(600, 9)
    table = rows.value_counts().rename("n").reset_index()
    by_rows = LDAGSearch(n_restarts=2, seed=0).fit(rows)
    by_counts = LDAGSearch(n_restarts=2, seed=0, weights="n").fit(table)
    assert len(table) < len(rows)
    assert by_counts.best_score_ == pytest.approx(by_rows.best_score_, rel=1e-12)
    assert sorted(by_counts.causal_graph_.edges()) == sorted(by_rows.causal_graph_.edges())
    assert by_counts.model_.labels() == by_rows.model_.labels()
    for node in rows.columns:
        np.testing.assert_allclose(
            by_counts.model_.get_cpds(node).get_values(), by_rows.model_.get_cpds(node).get_values(), rtol=1e-12
        )
    assert list(by_counts.feature_names_in_) == list(rows.columns)


def test_unknown_weights_column_is_named():
    with pytest.raises((ValueError, KeyError), match="nope"):
        LDAGSearch(n_restarts=0, weights="nope").fit(_planted(50, 4))


def test_kicks_grow_by_one_and_return_to_the_base_after_an_improvement(monkeypatch):
    import pgmpy_sgm.causal_discovery.ldag_search as module

    # climbs that return their start with scripted scores: improvements at climbs 1, 4 and 8
    scripted = iter([0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0])  # one first climb (start="empty")
    kicks = []
    original = module._perturb

    def climb(score, X, start, tabu_length, max_indegree, max_iter):
        return start, next(scripted), 0.0, 0, 100

    def recording(dag, n_moves, max_indegree, rng):
        kicks.append(n_moves)
        return original(dag, n_moves, max_indegree, rng)

    monkeypatch.setattr(module, "_climb", climb)
    monkeypatch.setattr(module, "_perturb", recording)
    est = LDAGSearch(n_restarts=8, restart_budget=None, perturbation=2, seed=0, start="empty").fit(_planted(300, 10))
    assert est.climb_scores_ == [0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0]
    assert kicks == [2, 2, 3, 4, 2, 3, 4, 5]
