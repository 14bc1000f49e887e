"""LDAGScoreSettings: the labelled-DAG score's settings as one object, fixed or chosen from the data."""

import math

import pandas as pd
import pytest

from pgmpy_sgm.structure_score import LDAGScore, LDAGScoreSettings
from pgmpy_sgm.structure_score.ldag_settings import ESS_GRID, KAPPA_GRID


@pytest.fixture(scope="module")
def data():
    return pd.DataFrame({"a": [0, 1, 1, 0, 1, 1, 0, 0], "b": [0, 1, 1, 1, 0, 1, 0, 1], "c": [1, 1, 0, 0, 1, 0, 0, 1]})


@pytest.mark.parametrize(
    ("settings", "error", "match"),
    [
        ({"kappa": 2.0}, ValueError, "kappa must be a number in"),
        ({"kappa": "auto"}, ValueError, "kappa must be"),
        ({"kappa": (0.2, 0.2)}, ValueError, "lists a value twice"),
        ({"kappa": ()}, ValueError, "empty"),
        ({"equivalent_sample_size": 0}, ValueError, "equivalent_sample_size must be a positive number"),
        ({"equivalent_sample_size": "held_out"}, ValueError, "equivalent_sample_size"),
        ({"equivalent_sample_size": [1.0, math.inf]}, ValueError, "inf"),
        ({"labels": "yes"}, TypeError, "labels must be a bool"),
        ({"max_labelled_configs": 0}, ValueError, "max_labelled_configs"),
        ({"method": "fast"}, ValueError, "method must be 'auto', 'exact' or 'heuristic'"),
        ({"kappa": "held_out", "labels": False}, ValueError, "labels=False learns no labels"),
    ],
)
def test_bad_settings_are_refused_naming_the_value(settings, error, match):
    with pytest.raises(error, match=match):
        LDAGScoreSettings(**settings)


def test_grids_fixed_values_and_choices():
    assert LDAGScoreSettings().ess_grid == (5.0,) and LDAGScoreSettings().kappa_grid is None
    assert LDAGScoreSettings(equivalent_sample_size="auto").ess_grid == ESS_GRID
    assert LDAGScoreSettings(kappa="held_out").kappa_grid == KAPPA_GRID
    listed = LDAGScoreSettings(equivalent_sample_size=[1, 2], kappa=[0, 1])
    assert listed.ess_grid == (1.0, 2.0) and listed.kappa_grid == (0.0, 1.0)
    assert hash(listed) == hash(LDAGScoreSettings(equivalent_sample_size=(1.0, 2.0), kappa=(0.0, 1.0)))
    chosen = listed.fixed(equivalent_sample_size=2.0, kappa=1.0)
    assert (chosen.ess_grid, chosen.kappa_grid, chosen.kappa) == ((2.0,), None, 1.0)


def test_from_score_reads_the_settings_a_score_was_built_with(data):
    score = LDAGScore(data, equivalent_sample_size=2.0, kappa=0.5, labels=False, method="exact",
                      max_labelled_configs=8)  # fmt: skip
    assert LDAGScoreSettings.from_score(score) == LDAGScoreSettings(2.0, 0.5, False, 8, "exact")


def test_the_score_built_equals_an_ldag_score_built_directly(data):
    settings = LDAGScoreSettings(max_labelled_configs=8, method="exact")
    built = settings.score(data, 2.0, 0.5)
    direct = LDAGScore(data, equivalent_sample_size=2.0, kappa=0.5, method="exact", max_labelled_configs=8)
    for variable, parents in [("a", ()), ("a", ("b", "c")), ("c", ("a",))]:
        assert built.local_score(variable, parents) == direct.local_score(variable, parents)
    unlabelled = settings.score(data, 2.0, 0.0)  # kappa 0: no label is worth its cost
    plain = LDAGScore(data, equivalent_sample_size=2.0, labels=False)
    assert not unlabelled.labels
    assert unlabelled.local_score("a", ("b", "c")) == plain.local_score("a", ("b", "c"))
