"""What a finished run gives: traces, per-chain edge probabilities and the fitted attributes."""

from types import SimpleNamespace

import numpy as np

from pgmpy_sgm import load_heart_disease
from pgmpy_sgm.causal_discovery import NonReversibleMCMC
from pgmpy_sgm.causal_discovery._run_results import _chain_pair_probabilities, _traces
from pgmpy_sgm.core.graph_store import GraphStore


def test_traces_of_chains_of_different_lengths_are_padded_with_nan():
    trace = _traces(SimpleNamespace(traces=[[1.0, 2.0, 3.0], [4.0]]))
    np.testing.assert_array_equal(trace, [[1.0, 2.0, 3.0], [4.0, np.nan, np.nan]])


def test_each_chain_counts_only_the_graphs_it_visited():
    # graph keys are edge bit masks over 2 pairs; chain 0 saw keys 1 and 3, chain 1 only key 2
    run = SimpleNamespace(chains=[0, 1], visited=GraphStore({1: 0.0, 2: 0.0, 3: np.log(2.0)}),
                          seen_by=GraphStore({1: 1, 2: 2, 3: 1}))
    rows = _chain_pair_probabilities(run, 2)
    np.testing.assert_allclose(rows[0], [1.0, 2 / 3])  # pair 0 in keys 1 and 3; pair 1 in key 3 (weight 2 of 3)
    np.testing.assert_allclose(rows[1], [0.0, 1.0])


def test_a_fit_sets_every_attribute_of_a_run():
    est = NonReversibleMCMC(n_iter=200, n_chains=2, seed=0, show_progress=False).fit(load_heart_disease())
    assert est.trace_.shape == (2, est.n_iter_ + 1) and not np.isnan(est.trace_).any()  # the start, then each step
    assert est.best_score_ == est.posterior_["log_posterior"].iloc[0] == max(est.chain_best_scores_)
    assert 0.0 < est.acceptance_rate_ < 1.0 and est.n_visited_ >= len(est.posterior_)
