"""MPLScoreSettings: the pseudo-likelihood score's settings as one object."""

import pytest

from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.structure_score import MPLScore, MPLScoreSettings


@pytest.mark.parametrize(("settings", "match"), [({"alpha": 0}, "alpha must be a positive number or 'bdeu'"),
                                                 ({"alpha": "flat"}, "alpha must be"),
                                                 ({"kappa": 0}, r"kappa must be a number in \(0, 1\]"),
                                                 ({"kappa": True}, "kappa must be")])  # fmt: skip
def test_bad_settings_are_refused_naming_the_value(settings, match):
    with pytest.raises(ValueError, match=match):
        MPLScoreSettings(**settings)


def test_the_score_built_equals_an_mpl_score_built_directly_and_round_trips():
    data = load_heart_disease()
    built = MPLScoreSettings(alpha=1.0, kappa=0.5).score(data)
    direct = MPLScore(data, alpha=1.0, kappa=0.5)
    for node, blanket in [("smoking", ()), ("smoking", ("mental_work", "systolic_bp"))]:
        assert built.local_score(node, blanket) == direct.local_score(node, blanket)
    assert MPLScoreSettings.from_score(direct) == MPLScoreSettings(1.0, 0.5)
