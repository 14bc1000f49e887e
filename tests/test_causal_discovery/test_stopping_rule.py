"""The default stopping rule (``n_iter="auto"``): chains settle, disagreeing chains go on, honest warnings."""

import warnings

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore, load_heart_disease
from pgmpy_sgm.causal_discovery import Checkpoint, ConvergenceWarning, NonReversibleMCMC, nonreversible_mcmc
from pgmpy_sgm.causal_discovery._chain import ChainState, SearchPlan

HEART_OPTIMUM = -6715.90  # the paper's best stratified graph


@pytest.fixture(scope="module")
def heart():
    return load_heart_disease(as_counts=True)


def _fit_quietly(data, **params):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = NonReversibleMCMC(show_progress=False, **params).fit(data)
    return est, [w for w in caught if issubclass(w.category, ConvergenceWarning)]


def test_default_fit_settles_at_the_paper_optimum(heart):
    for seed in range(4):
        est, warned = _fit_quietly(heart, seed=seed, weights="count")
        assert est.stop_reason_ == "settled", seed
        assert est.best_score_ == pytest.approx(HEART_OPTIMUM, abs=0.005), seed
        assert not warned, seed
        d = heart.shape[1] - 1
        need = max(nonreversible_mcmc.SETTLE_MIN, nonreversible_mcmc.SETTLE_PER_NODE * d)
        stood = est.convergence_["n_iter"] - est.convergence_["best_iteration"]
        assert (stood >= need).all(), seed  # every chain's best stood at least the stated while


def test_settling_does_not_depend_on_segments_or_processes(heart):
    one, _ = _fit_quietly(heart, seed=7, weights="count", n_chains=3)
    two, _ = _fit_quietly(heart, seed=7, weights="count", n_chains=3, n_jobs=2, checkpoint=Checkpoint(every=250))
    np.testing.assert_array_equal(one.trace_, two.trace_)
    pd.testing.assert_frame_equal(one.posterior_, two.posterior_)


def test_a_settled_checkpoint_resumes_to_the_same_result(heart, tmp_path):
    path = tmp_path / "run.jsonl"
    first, _ = _fit_quietly(heart, seed=2, weights="count", checkpoint=path)
    again, _ = _fit_quietly(heart, seed=2, weights="count", checkpoint=Checkpoint(path, resume=True))
    assert again.stop_reason_ == "settled"
    np.testing.assert_array_equal(first.trace_, again.trace_)
    pd.testing.assert_frame_equal(first.posterior_, again.posterior_)


def _settled_state(chain: int, best: float) -> ChainState:
    state = ChainState.new(chain, np.random.SeedSequence(chain), 0)
    state.best_score, state.settled = best, True
    return state


def test_chains_that_disagree_start_another_round():
    plan = SearchPlan(settle_age=100)
    far = [_settled_state(0, -100.0), _settled_state(1, -103.0)]
    assert nonreversible_mcmc.NonReversibleMCMC._next_settle_round(far, plan)
    assert [(s.settled, s.settle_round) for s in far] == [(False, 1), (False, 1)]
    close = [_settled_state(0, -100.0), _settled_state(1, -100.5)]
    assert not nonreversible_mcmc.NonReversibleMCMC._next_settle_round(close, plan)
    one_running = [_settled_state(0, -100.0), ChainState.new(1, np.random.SeedSequence(1), 0)]
    assert not nonreversible_mcmc.NonReversibleMCMC._next_settle_round(one_running, plan)


def test_time_limit_before_settling_warns(monkeypatch, noisy_tree_data):
    monkeypatch.setattr(nonreversible_mcmc, "SETTLE_MIN", 10**9)  # no chain can settle
    est, warned = _fit_quietly(noisy_tree_data(16, 400, keep=0.85), seed=0, max_time=1.0)
    assert est.stop_reason_ == "max_time"
    assert any("time limit" in str(w.message) for w in warned)


def test_chains_agreeing_below_a_mode_warn_after_the_final_polish(noisy_tree_data):
    """A chain stopped after 3 iterations has no other to disagree with, but a polish still climbs: a warning."""
    data = noisy_tree_data(16, 400, keep=0.85)
    est, warned = _fit_quietly(data, seed=0, n_iter=3, n_chains=1, start="empty")
    assert est.convergence_.attrs["spread"] <= 2.0  # the spread alone would not warn
    assert est.best_score_ > est.chain_best_scores_.max() + 1.0
    assert any("polish of the best graph" in str(w.message) for w in warned)
    # the polished graph is scored exactly (from scratch, by another scorer)
    assert SGMScore(data).score(est.model_) == pytest.approx(est.best_score_, abs=1e-6)


def test_n_iter_keeps_its_meaning(heart):
    est, _ = _fit_quietly(heart, seed=0, weights="count", n_iter=300)
    assert est.stop_reason_ == "n_iter"
    assert (est.convergence_["n_iter"] == 300).all()


@pytest.mark.parametrize("value", ["forever", "AUTO", 0, -5, 2.5])
def test_bad_n_iter(heart, value):
    with pytest.raises((ValueError, TypeError), match="n_iter"):
        NonReversibleMCMC(n_iter=value, weights="count", show_progress=False).fit(heart)


# -- the settling check ---------------------------------------------------------------------------------------------
def _agreeing_run(tables, key: int, n_chains: int = 2):
    from pgmpy_sgm.causal_discovery._run_state import RunState
    from pgmpy_sgm.core.moves import DecomposableState

    score = DecomposableState(tables, key).score
    chains = []
    for c in range(n_chains):
        state = ChainState.new(c, np.random.SeedSequence(c), key)
        state.iteration, state.best_iteration, state.settled = 5000, 1000, True
        state.score, state.best_score, state.polished_key = score, score, key
        chains.append(state)
    run = RunState({}, chains)
    run.visited[key], run.seen_by[key] = score, (1 << n_chains) - 1
    return run


def _check_plan(tables):
    from pgmpy_sgm.core.search import clique_partners, pair_gains

    return SearchPlan(clique_partners=clique_partners(tables, pair_gains(tables)), settle_age=100, polish_after=10)


def test_settling_check_moves_agreeing_chains_off_a_sub_optimum(heart):
    from pgmpy_sgm.core.moves import key_from_edges

    tables = SGMScore(heart, weights="count").engine
    poor = key_from_edges(tables, [(0, 1), (1, 2), (2, 3), (3, 4)])  # both chains "agree" on this path
    run = _agreeing_run(tables, poor)
    before = run.chains[0].best_score
    assert NonReversibleMCMC()._failed_settle_check(tables, run, _check_plan(tables), 0.0, None)
    after = {(s.key, s.best_key, s.best_score, s.settled, s.best_iteration) for s in run.chains}
    assert len(after) == 1  # every chain jumped to the same graph, no longer settled, a new best from now
    key, best_key, best, settled, best_iteration = after.pop()
    assert key == best_key and not settled and best_iteration == 5000 and best > before + 1.0
    assert run.visited[key] == best and run.seen_by[key] == 0b11
    # its score, from scratch by another scorer, is the graph's with its optimal strata
    other = SGMScore(heart, weights="count")
    edges = [(tables.variables[i], tables.variables[j]) for p, (i, j) in enumerate(tables.pairs) if key >> p & 1]
    assert other.score(other.optimal_strata(edges)) == pytest.approx(best, abs=1e-6)


def test_settling_check_passes_at_the_paper_optimum(heart):
    tables = SGMScore(heart, weights="count").engine
    est, _ = _fit_quietly(heart, seed=0, weights="count")
    key = tables.key(list(est.model_.edges()))
    assert est.best_score_ == pytest.approx(HEART_OPTIMUM, abs=0.005)
    run = _agreeing_run(tables, key)
    assert not NonReversibleMCMC()._failed_settle_check(tables, run, _check_plan(tables), 0.0, None)
    assert all(s.settled and s.key == key for s in run.chains)


def test_settling_check_waits_for_every_chain(heart):
    from pgmpy_sgm.core.moves import key_from_edges

    tables = SGMScore(heart, weights="count").engine
    run = _agreeing_run(tables, key_from_edges(tables, [(0, 1), (1, 2), (2, 3), (3, 4)]))
    run.chains[1].settled = False
    assert not NonReversibleMCMC()._failed_settle_check(tables, run, _check_plan(tables), 0.0, None)
    assert run.chains[0].settled


# -- progress -------------------------------------------------------------------------------------------------------
def test_progress_bar_shows_best_its_age_and_spread(heart, monkeypatch):
    from pgmpy import config

    from pgmpy_sgm.causal_discovery import _segments

    shown = []

    class Recorder:
        def __init__(self, *args, **kwargs):
            pass

        def update(self, n):
            pass

        def set_postfix_str(self, text, refresh=True):
            shown.append(text)

        def close(self):
            pass

    monkeypatch.setattr(_segments, "tqdm", Recorder)
    monkeypatch.setattr(config, "SHOW_PROGRESS", True)
    est = NonReversibleMCMC(n_iter=600, seed=0, weights="count", show_progress=True).fit(heart)
    assert shown
    last = shown[-1]
    best = float(last.split("best=")[1].split(" ")[0])
    assert best == pytest.approx(max(est.trace_[~np.isnan(est.trace_)]), abs=0.005)
    age_iterations = int(last.split(" s, ")[1].split(" it ago")[0])
    assert 0 <= age_iterations <= 2 * 600
    spread = float(last.split("spread=")[1].split(" ")[0])
    chains = [float(v) for v in last.split("chains=[")[1].split("]")[0].split()]
    assert len(chains) == 2 and spread == pytest.approx(max(chains) - min(chains), abs=0.11)


def test_a_settling_check_cut_short_by_its_time_limit_warns(heart, monkeypatch):
    """The check finds nothing because its time ran out: the run stops as settled, but says so."""
    import time

    def slow_check(tables, run, plan, deadline):  # uses up the check's time, finds nothing
        time.sleep(max(deadline - time.time(), 0.0) + 0.01)
        return None

    monkeypatch.setattr(nonreversible_mcmc, "SETTLE_CHECK_SECONDS", 0.05)
    monkeypatch.setattr(nonreversible_mcmc, "settle_check", slow_check)
    with pytest.warns(ConvergenceWarning, match="settling check ran out of its time"):
        est = NonReversibleMCMC(seed=0, weights="count", show_progress=False).fit(heart)
    assert est.stop_reason_ == "settled"
    monkeypatch.setattr(nonreversible_mcmc, "settle_check", lambda tables, run, plan, deadline: None)
    with warnings.catch_warnings():  # a check that ends in time and finds nothing: no warning
        warnings.simplefilter("error", ConvergenceWarning)
        assert NonReversibleMCMC(seed=0, weights="count", show_progress=False).fit(heart).stop_reason_ == "settled"
