"""SGMScoreSettings(prior="held_out") for NonReversibleMCMC: the structure prior chosen by 5-fold held-out fit."""

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.causal_discovery import NonReversibleMCMC
from pgmpy_sgm.causal_discovery._held_out import rows_of
from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.models import ModelAverage
from pgmpy_sgm.structure_score import SGMScoreSettings

SETTINGS = {"n_iter": 60, "n_chains": 1, "seed": 0, "show_progress": False}


@pytest.fixture(scope="module")
def rows():
    return load_heart_disease().head(250).reset_index(drop=True)


@pytest.fixture(scope="module")
def fitted(rows):
    return NonReversibleMCMC(scoring_method=SGMScoreSettings(prior="held_out"), **SETTINGS).fit(rows)


def _cross_validated(rows: pd.DataFrame, prior: str) -> float:
    """Mean over 5 folds (rows shuffled with seed 0) of the model average's log-likelihood per held-out row."""
    states = {c: sorted(rows[c].unique()) for c in rows.columns}
    order = np.random.default_rng(0).permutation(len(rows))
    values = []
    for test_idx in np.array_split(order, 5):
        test = rows.iloc[test_idx].reset_index(drop=True)
        train = rows.drop(index=rows.index[test_idx]).reset_index(drop=True)
        est = NonReversibleMCMC(scoring_method=SGMScoreSettings(prior=prior), state_names=states, **SETTINGS).fit(train)
        values.append(ModelAverage.from_estimator(est, train).log_likelihood(test) / len(test))
    return float(np.mean(values))


def test_held_out_prior_is_the_one_with_the_better_cross_validated_fit(rows, fitted):
    expected = {prior: _cross_validated(rows, prior) for prior in ("paper", "uniform")}
    assert fitted.prior_scores_ == pytest.approx(expected, abs=1e-9)
    assert fitted.prior_ == max(expected, key=expected.get)


def test_held_out_fit_is_the_fit_with_the_chosen_prior(rows, fitted):
    plain = NonReversibleMCMC(scoring_method=SGMScoreSettings(prior=fitted.prior_), **SETTINGS).fit(rows)
    assert fitted.best_score_ == plain.best_score_
    assert sorted(fitted.model_.edges()) == sorted(plain.model_.edges())
    assert fitted.score(rows) == pytest.approx(plain.score(rows), abs=1e-9)
    pd.testing.assert_frame_equal(fitted.posterior_, plain.posterior_)


def test_a_fixed_prior_is_recorded_without_a_choice(rows):
    est = NonReversibleMCMC(**SETTINGS).fit(rows)
    assert est.prior_ == "paper" and est.prior_scores_ is None


def test_counts_are_split_as_the_observations_they_stand_for():
    table = pd.DataFrame({"a": [0, 1, 1], "b": [1, 0, 1], "n": [2, 0, 3]})
    assert rows_of(table, "n").values.tolist() == [[0, 1], [0, 1], [1, 1], [1, 1], [1, 1]]
    with pytest.raises(ValueError, match="integer count"):
        rows_of(table, np.array([0.5, 1.0, 2.0]))


def test_bad_prior_is_named():
    with pytest.raises(ValueError, match="prior must be one of .*'held_out'.*Got: 'cv'"):
        SGMScoreSettings(prior="cv")
