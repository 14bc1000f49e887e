"""ScoringMethod: a learner's scoring_method read as settings, the earlier keywords folded in."""

import pandas as pd
import pytest

from pgmpy_sgm.causal_discovery._scoring_method import ScoringMethod
from pgmpy_sgm.structure_score import LDAGScore, LDAGScoreSettings

SPEC = ScoringMethod(LDAGScoreSettings, LDAGScore, {"ldag": {}, "bdeu": {"labels": False}}, ("kappa",))


class Learner:
    """A stand-in with the two attributes the spec reads, and sklearn's get_params/set_params."""

    def __init__(self, scoring_method=None, kappa="deprecated"):
        self.scoring_method, self.kappa = scoring_method, kappa

    def get_params(self, deep=True):
        return {"scoring_method": self.scoring_method, "kappa": self.kappa}

    def set_params(self, **params):
        for k, v in params.items():
            setattr(self, k, v)
        return self


def test_the_constraint_names_every_form():
    constraint = SPEC.constraint()
    assert constraint.description == "None, 'ldag', 'bdeu', an LDAGScore or an LDAGScoreSettings"
    data = pd.DataFrame({"a": [0, 1], "b": [1, 0]})
    for good in (None, "ldag", "bdeu", LDAGScoreSettings(), LDAGScore(data)):
        assert constraint.accepts(good)
    for bad in ("bic", 3, LDAGScoreSettings):
        assert not constraint.accepts(bad)


def test_every_form_is_read_as_settings():
    data = pd.DataFrame({"a": [0, 1], "b": [1, 0]})
    assert SPEC.settings(Learner()) == LDAGScoreSettings()
    assert SPEC.settings(Learner("bdeu")) == LDAGScoreSettings(labels=False)
    assert SPEC.settings(Learner(LDAGScore(data, kappa=0.5))) == LDAGScoreSettings(kappa=0.5)
    assert SPEC.settings(Learner(LDAGScoreSettings(kappa=0.3))).kappa == 0.3


def test_a_deprecated_keyword_overrides_with_a_warning_and_the_copy_drops_it():
    learner = Learner("bdeu", kappa=0.5)
    with pytest.warns(FutureWarning, match=r"Learner\(kappa=...\) is deprecated: pass "
                                           r"scoring_method=LDAGScoreSettings\(kappa=0.5\)"):
        settings = SPEC.settings(learner)
    assert settings == LDAGScoreSettings(kappa=0.5, labels=False)
    copy = SPEC.resolved_copy(learner, settings)
    assert copy.kappa == "deprecated" and copy.scoring_method == settings and learner.kappa == 0.5
