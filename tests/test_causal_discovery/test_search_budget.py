"""NonReversibleMCMC's informed search: heart optimum from every seed, time budget, convergence diagnostics."""

import time
import warnings

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import load_heart_disease
from pgmpy_sgm.causal_discovery import ConvergenceWarning, NonReversibleMCMC
from pgmpy_sgm.causal_discovery._convergence import convergence_summary, warn_if_unconverged
from pgmpy_sgm.causal_discovery._run_results import recombine_chains, rescore_visited

HEART_OPTIMUM = -6715.90  # DESIGN.md, section 3


@pytest.fixture(scope="module")
def heart():
    return load_heart_disease(as_counts=True)


@pytest.mark.parametrize("method", ["informed", "paper"])
def test_heart_optimum_from_every_seed(heart, method):
    for seed in range(8):
        est = NonReversibleMCMC(n_iter=1000, n_chains=1, method=method, seed=seed, weights="count",
                                show_progress=False).fit(heart)  # fmt: skip
        assert est.best_score_ == pytest.approx(HEART_OPTIMUM, abs=0.005), seed


def test_informed_search_records_relocations(heart):
    est = NonReversibleMCMC(n_iter=1200, n_chains=1, seed=0, weights="count", show_progress=False).fit(heart)
    # iterations 500 and 1000 proposed relocations; every visited state is scored exactly
    scorer = est.scorer_
    for edges, value in est.posterior_[["edges", "log_posterior"]].head(20).itertuples(index=False):
        assert scorer.score(scorer.optimal_strata(list(edges) or [])) == pytest.approx(value, abs=1e-9) or not edges


def test_max_time_stops_every_chain(noisy_tree_data):
    data = noisy_tree_data(n_vars=14, n=400)
    for n_jobs in (1, 2):
        tic = time.perf_counter()
        est = NonReversibleMCMC(n_iter=None, max_time=2.0, n_chains=2, n_jobs=n_jobs, seed=0,
                                show_progress=False).fit(data)  # fmt: skip
        elapsed = time.perf_counter() - tic
        assert elapsed < 60  # a loose bound: without the budget the run would never end
        assert est.n_iter_ > 0
        assert (est.convergence_["n_iter"] > 0).all()  # every chain got a share of the time


def test_the_chains_leave_a_share_of_the_budget_to_what_follows_them(noisy_tree_data):
    """The chains' deadline is at 95% of max_time (less the exploration's share); the finishing steps get the rest."""
    from pgmpy_sgm.causal_discovery.nonreversible_mcmc import FINISH_SHARE
    from pgmpy_sgm.structure_score import SGMScore

    tables = SGMScore(noisy_tree_data(n_vars=14, n=400)).engine
    for explore in (0.0, 0.02):
        est = NonReversibleMCMC(max_time=100.0, explore=explore)
        plan = est._plan(tables, np.ones(len(tables.pairs)), True, t_start=1000.0)
        share = est._explore_time_share(tables.n)
        assert plan.deadline == pytest.approx(1000.0 + 100.0 * (1.0 - share - FINISH_SHARE))
        assert est._budget_point(1000.0, 1.0) == 1100.0
    assert NonReversibleMCMC(n_iter=50, max_time=None)._budget_point(1000.0, 1.0) is None
    assert NonReversibleMCMC(n_iter="auto")._budget_point(0.0, 1.0) == 600.0  # the default cap


def test_after_the_budget_only_the_rows_holding_the_mass_get_strata(heart):
    from pgmpy_sgm.causal_discovery._run_results import POSTERIOR_STRATA_ROWS

    est = NonReversibleMCMC(n_iter=400, seed=0, weights="count", show_progress=False).fit(heart)
    mass = est.posterior_["probability"].to_numpy()
    holding = int(np.searchsorted(np.cumsum(mass), POSTERIOR_STRATA_ROWS[1])) + 1
    filled = int(est.posterior_["strata"].notna().sum())
    assert filled == min(len(mass), max(POSTERIOR_STRATA_ROWS[0], holding))  # in time: at least 100 rows
    from pgmpy_sgm.causal_discovery._posterior import posterior_frame
    from pgmpy_sgm.core.graph_store import GraphStore

    engine = est.scorer_.engine
    scores = GraphStore({engine.pairs_key(_pairs(engine, edges)): lp
                         for edges, lp in zip(est.posterior_["edges"], est.posterior_["log_posterior"], strict=True)})
    late, _ = posterior_frame(engine, scores, n_strata_rows=(1, *POSTERIOR_STRATA_ROWS[1:]))
    assert int(late["strata"].notna().sum()) == min(len(mass), max(1, holding))


def _pairs(engine, edges):
    return [(engine.index[u], engine.index[v]) for u, v in edges]


def test_n_iter_none_needs_max_time(noisy_tree_data):
    with pytest.raises(ValueError, match=r"^n_iter=None needs a time budget.*max_time=None"):
        NonReversibleMCMC(n_iter=None).fit(noisy_tree_data())
    with pytest.raises(ValueError, match=r"^max_time must be a positive number.*Got: -1"):
        NonReversibleMCMC(max_time=-1).fit(noisy_tree_data())


def test_convergence_summary_of_a_fit(heart):
    est = NonReversibleMCMC(n_iter=300, n_chains=3, seed=0, weights="count", show_progress=False).fit(heart)
    summary = est.convergence_
    assert list(summary.columns) == ["best_score", "gap", "best_iteration", "n_iter", "max_edge_probability_difference"]
    np.testing.assert_array_equal(summary["best_score"], est.chain_best_scores_)
    assert summary.attrs["spread"] == pytest.approx(est.chain_best_scores_.max() - est.chain_best_scores_.min())
    assert summary["gap"].min() == 0.0
    assert 0.0 <= summary.attrs["max_edge_probability_difference"] <= 1.0


def test_disagreeing_chains_warn_with_the_spread(noisy_tree_data):
    data = noisy_tree_data(n_vars=16, n=500, seed=1)
    with pytest.warns(ConvergenceWarning, match=r"spread over \d+\.\d\d log-units.*more time"):
        est = NonReversibleMCMC(n_iter=15, n_chains=3, method="paper", seed=0, show_progress=False).fit(data)
    assert est.convergence_.attrs["spread"] > 2.0


def test_agreeing_chains_do_not_warn():
    frame = convergence_summary(np.array([-5.0, -5.5]), np.array([3, 4]), np.array([10, 10]),
                                np.array([[0.5, 1.0], [0.4, 1.0]]), np.array([0.45, 1.0]))  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert warn_if_unconverged(frame) is False
    assert frame.attrs["max_edge_probability_difference"] == pytest.approx(0.1)
    np.testing.assert_allclose(frame["max_edge_probability_difference"], [0.05, 0.05])


def test_grafting_keeps_every_visited_score_exact(monkeypatch, noisy_tree_data):
    """A chain that grafts the better parts of its current graph into its best one, scored from scratch."""
    from pgmpy_sgm import SGMScore
    from pgmpy_sgm.causal_discovery import _chain
    from pgmpy_sgm.core.moves import DecomposableState

    data = noisy_tree_data(n_vars=14, n=200, seed=1)
    calls = {"tried": 0, "improved": 0}
    original = _chain.recombine

    def counting(state, donor, visited=None, deadline=None):
        new = original(state, donor, visited, deadline)
        calls["tried"] += 1
        calls["improved"] += new.score > state.score
        return new

    monkeypatch.setattr(_chain, "recombine", counting)
    scorer = SGMScore(data)
    chain_data = _chain.ChainData.from_scorer(scorer)
    state = _chain.new_chain_state(0, np.random.SeedSequence(1), 0)
    out = _chain.run_segment(chain_data, state, 3000, _chain.SearchPlan(graft_every=20))
    assert calls["tried"] > 0 and calls["improved"] > 0
    fresh = SGMScore(data).engine  # new caches: every score recomputed
    for key, value in out.visited.items():
        assert DecomposableState(fresh, key).score == pytest.approx(value, abs=1e-9)
    assert out.state.score == out.trace[-1] == pytest.approx(DecomposableState(fresh, out.state.key).score, abs=1e-9)
    assert out.state.best_score == max(out.visited.values())


def test_chain_bests_are_recombined_into_the_posterior():
    """Two chains, each right in a different block: the fit's best graph has both (brute-force reference)."""
    from pgmpy_sgm import SGMScore
    from pgmpy_sgm.causal_discovery._chain import new_chain_state
    from pgmpy_sgm.causal_discovery._run_state import RunState
    from pgmpy_sgm.core.moves import key_from_edges

    rng = np.random.default_rng(4)
    n = 1500
    a, c = rng.integers(0, 2, n), rng.integers(0, 2, n)
    frame = pd.DataFrame({"a": a, "b": a ^ (rng.random(n) < 0.1), "c": c, "d": c ^ (rng.random(n) < 0.1)})
    scorer = SGMScore(frame)
    tables = scorer.engine
    keys = [key_from_edges(tables, [(0, 1)]), key_from_edges(tables, [(2, 3)])]
    chains = [new_chain_state(i, np.random.SeedSequence(i), key) for i, key in enumerate(keys)]
    run = RunState({}, chains)
    for i, (key, edge) in enumerate(zip(keys, [("a", "b"), ("c", "d")], strict=True)):
        run.visited[key] = scorer.score(scorer.optimal_strata([edge]))
        run.seen_by[key] = 1 << i
    recombine_chains(tables, run, True)
    both = key_from_edges(tables, [(0, 1), (2, 3)])
    assert run.visited[both] == pytest.approx(scorer.score(scorer.optimal_strata([("a", "b"), ("c", "d")])), abs=1e-9)
    assert run.seen_by[both] == 0  # found by the recombination, visited by no chain
    assert run.visited[both] == max(run.visited.values())


def test_rescoring_after_the_chains_stops_at_the_budget(heart):
    """Re-scoring with the default labellings stops when the budget is spent; without one it gives the exact scores."""
    from pgmpy_sgm.causal_discovery._run_state import RunState
    from pgmpy_sgm.core.graph_store import GraphStore
    from pgmpy_sgm.core.moves import DecomposableState, key_from_edges
    from pgmpy_sgm.structure_score import SGMScore

    tables = SGMScore(heart, weights="count").engine
    keys = [key_from_edges(tables, edges) for edges in ([], [(0, 1)], [(0, 1), (1, 2)], [(1, 5), (5, 4)])]
    low = {key: -1e9 - i for i, key in enumerate(keys)}  # chain scores far below the true ones, in key order
    run = RunState({}, [])
    run.visited = GraphStore(low)
    rescore_visited(tables, run, deadline=time.time() - 1.0)  # budget already spent
    assert run.visited == low
    rescore_visited(tables, run, deadline=None)
    exact = {key: DecomposableState(tables, key, True).score for key in keys}  # a fresh build, default labellings
    assert run.visited == pytest.approx(exact, abs=1e-9)
