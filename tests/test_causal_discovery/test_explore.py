"""Exploration around the mode: scores, normalisation over the visited graphs, determinism."""

import math

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore, load_heart_disease
from pgmpy_sgm.causal_discovery import Checkpoint, NonReversibleMCMC, exhaustive_posterior
from pgmpy_sgm.causal_discovery._explore import explore_neighbourhoods
from pgmpy_sgm.causal_discovery.exhaustive import enumerate_scores
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.datasets import simulate_paper_synthetic


@pytest.fixture(scope="module")
def heart():
    return load_heart_disease(as_counts=True)


@pytest.fixture(scope="module")
def heart_exact(heart):
    """``{frozenset of edges: exact log posterior}`` of every decomposable graph (enumerated)."""
    post = exhaustive_posterior(heart, weights="count", show_progress=False)
    pairs = zip(post["edges"], post["log_posterior"], strict=True)
    return {frozenset(frozenset(e) for e in edges): lp for edges, lp in pairs}


def _fit(data, **kwargs):
    return NonReversibleMCMC(**{"weights": "count", "show_progress": False, **kwargs}).fit(data)


def _graphs(est):
    return [frozenset(frozenset(e) for e in edges) for edges in est.posterior_["edges"]]


def test_unlimited_exploration_finds_every_decomposable_graph_with_its_exact_score():
    data = simulate_paper_synthetic(300, seed=1)[["X1", "X2", "X3", "X4"]]
    engine = SGMScore(data).engine
    every = enumerate_scores(engine)  # 61 of the 64 graphs on 4 nodes (three chordless 4-cycles)
    start = {0: DecomposableState(engine).score}
    found = explore_neighbourhoods(engine, start, True, budget=10**6, margin=math.inf)
    assert len(every) == 61
    assert set(found) | {0} == set(every)
    for key, score in found.items():
        assert score == pytest.approx(every[key], abs=1e-9)


def test_budget_counts_scored_toggles_and_margin_drops_poor_graphs():
    engine = SGMScore(simulate_paper_synthetic(2000, seed=2)[["X1", "X2", "X3", "X4", "X5"]]).engine
    start = {0: DecomposableState(engine).score}
    assert len(explore_neighbourhoods(engine, start, True, budget=7, margin=math.inf)) == 7  # 7 one-edge graphs
    assert explore_neighbourhoods(engine, start, True, budget=0) == {}
    every = enumerate_scores(engine)
    mode = max(every, key=every.get)
    found = explore_neighbourhoods(engine, {mode: every[mode]}, True, budget=500, margin=5.0)
    assert found and mode not in found
    assert min(found.values()) >= every[mode] - 5.0 - 1e-9
    # nothing is missed within the margin that a toggle of a kept graph reaches (the budget was not spent)
    near = {key for key, score in every.items() if score >= every[mode] - 5.0}
    assert len(found) < 500 and set(found) | {mode} <= near


def test_explored_posterior_is_the_normalised_exact_score_over_the_visited_graphs(heart, heart_exact):
    chains_only = _fit(heart, seed=3, n_iter=400, explore=0)
    est = _fit(heart, seed=3, n_iter=400, explore=1.0)
    graphs = _graphs(est)
    assert set(_graphs(chains_only)) < set(graphs)  # the chains' graphs, and more
    assert est.best_score_ == chains_only.best_score_
    # brute force: the enumerated scores of the visited graphs, normalised over them
    log_post = np.array([heart_exact[g] for g in graphs])
    prob = np.exp(log_post - log_post.max())
    prob /= prob.sum()
    np.testing.assert_allclose(est.posterior_["log_posterior"].to_numpy(), log_post, rtol=0, atol=1e-8)
    np.testing.assert_allclose(est.posterior_["probability"].to_numpy(), prob, rtol=0, atol=1e-12)
    edges = est.edge_probabilities_
    for u in edges.index:
        for v in edges.columns:
            if u != v:
                expected = sum(p for g, p in zip(graphs, prob, strict=True) if frozenset((u, v)) in g)
                assert edges.loc[u, v] == pytest.approx(expected, abs=1e-12)


def test_exploration_leaves_less_exact_mass_unvisited(heart, heart_exact):
    top = max(heart_exact.values())
    weight = {g: math.exp(lp - top) for g, lp in heart_exact.items()}
    total = sum(weight.values())

    def unvisited(est):
        seen = set(_graphs(est))
        return sum(w for g, w in weight.items() if g not in seen) / total

    chains_only = _fit(heart, seed=0, n_iter=2000, explore=0)
    explored = _fit(heart, seed=0, n_iter=2000, explore=0.2)
    assert unvisited(explored) < unvisited(chains_only) / 10


def test_explored_fit_is_the_same_with_any_n_jobs_and_checkpoint_segmenting(heart, tmp_path):
    one = _fit(heart, seed=11, n_iter=600, n_chains=3, explore=0.5)
    two = _fit(heart, seed=11, n_iter=600, n_chains=3, explore=0.5, n_jobs=2, checkpoint=Checkpoint(every=250))
    saved = _fit(heart, seed=11, n_iter=600, n_chains=3, explore=0.5,
                 checkpoint=Checkpoint(tmp_path / "run.jsonl", every=200))  # fmt: skip
    assert one.n_visited_ > _fit(heart, seed=11, n_iter=600, n_chains=3, explore=0).n_visited_
    for other in (two, saved):
        pd.testing.assert_frame_equal(one.posterior_, other.posterior_)
        pd.testing.assert_frame_equal(one.edge_probabilities_, other.edge_probabilities_)
        assert one.best_score_ == other.best_score_


def test_paper_method_is_not_explored(heart):
    a = _fit(heart, seed=2, n_iter=300, method="paper", explore=0)
    b = _fit(heart, seed=2, n_iter=300, method="paper", explore=2.0)
    pd.testing.assert_frame_equal(a.posterior_, b.posterior_)


@pytest.mark.parametrize("bad", [-0.1, float("inf"), float("nan"), "0.1", True, None])
def test_bad_explore_is_refused_naming_it(heart, bad):
    with pytest.raises(ValueError, match="explore must be a non-negative number"):
        _fit(heart, seed=0, n_iter=10, explore=bad)
