"""ContextualMarkovNetwork.fit(pseudo_count="cv"): the pseudo-count chosen by cross-validation on the training rows.

Expected values are computed here in closed form (one-clique networks, whose fit is the smoothed table).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

from pgmpy_sgm.models import ContextualMarkovNetwork
from pgmpy_sgm.models._cmn_inference import _logsumexp
from pgmpy_sgm.models._cmn_smoothing import CV_PSEUDO_COUNTS, fold_weights


def _data(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    b = np.where(rng.random(n) < 0.5, a, rng.integers(0, 3, n))
    return pd.DataFrame({"a": a, "b": b})


def _by_hand(data: pd.DataFrame) -> dict:
    """5-fold held-out log-likelihood per row of the one-clique network a - b for every pseudo-count."""
    pooled = data.value_counts().sort_index()
    codes = np.array(pooled.index.tolist())
    folds = fold_weights(pooled.to_numpy(dtype=float), 5)
    out = {}
    for pc in CV_PSEUDO_COUNTS:
        total = 0.0
        for k, held in enumerate(folds):
            train = sum(f for j, f in enumerate(folds) if j != k)
            table = np.zeros((3, 3))
            np.add.at(table, (codes[:, 0], codes[:, 1]), train)
            p = (table + pc / 9) / (table.sum() + pc)
            total += float(held @ np.log(p[codes[:, 0], codes[:, 1]]))
        out[pc] = total / len(data)
    return out


def test_fold_weights_partition_the_rows():
    weights = np.array([3.0, 0.0, 7.0, 1.0, 4.0])
    parts = fold_weights(weights, 5, seed=3)
    np.testing.assert_array_equal(sum(parts), weights)
    assert [p.sum() for p in parts] == [3.0, 3.0, 3.0, 3.0, 3.0]  # 15 rows dealt out evenly


@pytest.mark.parametrize("n, seed", [(60, 0), (2000, 1)])
def test_cv_pseudo_count_is_the_best_hand_computed_held_out_fit(n, seed):
    data = _data(n, seed)
    by_hand = _by_hand(data)
    cmn = ContextualMarkovNetwork([("a", "b")], state_names={"a": [0, 1, 2], "b": [0, 1, 2]})
    cmn.fit(data, pseudo_count="cv")
    assert cmn.cv_scores_ == pytest.approx(by_hand, abs=1e-7)
    assert cmn.pseudo_count_ == max(by_hand, key=by_hand.get)
    plain = ContextualMarkovNetwork([("a", "b")], state_names={"a": [0, 1, 2], "b": [0, 1, 2]})
    plain.fit(data, pseudo_count=cmn.pseudo_count_)
    assert cmn.log_likelihood(data) == pytest.approx(plain.log_likelihood(data), abs=1e-9)


def test_cv_pseudo_count_refuses_fractional_counts_bad_names_and_too_few_rows():
    data = pd.DataFrame({"a": [0, 1, 1], "b": [1, 0, 1], "w": [1.5, 2.0, 1.0]})
    with pytest.raises(ValueError, match="whole"):
        ContextualMarkovNetwork([("a", "b")]).fit(data, weights="w", pseudo_count="cv")
    with pytest.raises(ValueError, match="pseudo_count must be a finite number >= 0 or 'cv'"):
        ContextualMarkovNetwork([("a", "b")]).fit(data[["a", "b"]], pseudo_count="auto")
    with pytest.raises(ValueError, match="at least 5 rows"):
        ContextualMarkovNetwork([("a", "b")]).fit(data[["a", "b"]], pseudo_count="cv")


def test_a_number_is_recorded_as_the_pseudo_count_used():
    cmn = ContextualMarkovNetwork([("a", "b")]).fit(_data(50, 2), pseudo_count=2)
    assert cmn.pseudo_count_ == 2.0 and cmn.cv_scores_ is None


@pytest.mark.parametrize("shape, axes", [((3, 4, 5), (0, 2)), ((2, 3), (1,)), ((4,), (0,)), ((2, 2, 2), (0, 1, 2))])
def test_log_sum_exp_equals_scipys_with_impossible_cells(shape, axes):
    rng = np.random.default_rng(0)
    table = rng.normal(size=shape) * 50
    table[rng.random(shape) < 0.3] = -np.inf
    table.reshape(-1)[: shape[-1]] = -np.inf  # a whole line impossible
    with np.errstate(divide="ignore"):
        expected = logsumexp(table, axis=axes)
    np.testing.assert_allclose(_logsumexp(table, axes), expected)
