"""Posterior tables of scored graphs (pgmpy_sgm.causal_discovery._posterior)."""

import math

import numpy as np
import pytest

from pgmpy_sgm import SGMScore, load_heart_disease
from pgmpy_sgm.causal_discovery._posterior import posterior_frame


@pytest.fixture(scope="module")
def engine():
    return SGMScore(load_heart_disease(as_counts=True), weights="count").engine


def test_a_margin_keeps_the_rows_near_the_best_with_their_whole_table_probabilities(engine):
    scores = {0b1: 0.0, 0b11: math.log(3.0), 0b111: -30.0, 0b1111: -80.0}
    every, every_pairs = posterior_frame(engine, scores, strata=False)
    kept, kept_pairs = posterior_frame(engine, scores, strata=False, margin=50.0)
    weights = np.exp(np.array([math.log(3.0), 0.0, -30.0, -80.0]) - math.log(3.0))
    np.testing.assert_allclose(kept["probability"], (weights / weights.sum())[:3], rtol=1e-12)
    assert kept["log_posterior"].tolist() == every["log_posterior"].tolist()[:3]
    np.testing.assert_array_equal(kept_pairs, every_pairs)


@pytest.mark.parametrize("margin", [-1.0, float("nan")])
def test_a_bad_margin_is_refused(engine, margin):
    with pytest.raises(ValueError, match="margin must be a non-negative"):
        posterior_frame(engine, {0b1: 0.0}, strata=False, margin=margin)
