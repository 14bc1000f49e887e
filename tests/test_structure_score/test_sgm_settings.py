"""SGMScoreSettings: the stratified-graph score's settings as one object, fixed or chosen from the data."""

import pytest

from pgmpy_sgm import StratifiedGraph, load_heart_disease
from pgmpy_sgm.structure_score import SGMScore, SGMScoreSettings
from pgmpy_sgm.structure_score.sgm_settings import HELD_OUT_PRIORS


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        ({"prior": "flat"}, r"prior must be one of \('paper', 'uniform'\) or 'held_out'. Got: 'flat'"),
        ({"prior": None}, "prior must be one of"),
        ({"max_labelled_clique": 1}, "max_labelled_clique must be an integer >= 2. Got: 1"),
        ({"max_labelled_clique": 3.5}, "max_labelled_clique must be an integer"),
    ],
)
def test_bad_settings_are_refused_naming_the_value(settings, match):
    with pytest.raises(ValueError, match=match):
        SGMScoreSettings(**settings)


def test_grid_choice_and_round_trip_through_a_score():
    assert SGMScoreSettings().prior_grid is None
    assert SGMScoreSettings(prior="held_out").prior_grid == HELD_OUT_PRIORS == ("paper", "uniform")
    assert SGMScoreSettings(prior="held_out").fixed("uniform") == SGMScoreSettings(prior="uniform")
    score = SGMScore(load_heart_disease(), prior="uniform", max_labelled_clique=3)
    assert SGMScoreSettings.from_score(score) == SGMScoreSettings("uniform", 3)


def test_the_score_built_equals_an_sgm_score_built_directly():
    data = load_heart_disease()
    sg = StratifiedGraph([("smoking", "mental_work"), ("mental_work", "physical_work")])
    sg.add_nodes_from(data.columns)
    for prior in ("paper", "uniform"):
        built = SGMScoreSettings(prior=prior, max_labelled_clique=4).score(data)
        direct = SGMScore(data, prior=prior, max_labelled_clique=4)
        assert built.score(sg) == direct.score(sg)
    chosen = SGMScoreSettings(prior="held_out").score(data, prior="uniform")
    assert chosen.score(sg) == SGMScore(data, prior="uniform").score(sg)
