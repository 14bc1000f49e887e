"""A learner's ``scoring_method``: a name, a score instance or a settings object, read as settings.

pgmpy's learners take their score in one argument (``scoring_method``), a name or a score
instance. A score instance holds its data, so it cannot ask for a setting to be chosen from
the data; the learners here also accept a settings object
(:class:`~pgmpy_sgm.structure_score.LDAGScoreSettings`,
:class:`~pgmpy_sgm.structure_score.SGMScoreSettings`) and read every form as one. The score
keywords the learners took before are folded in with a ``FutureWarning``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

from sklearn.base import clone

from pgmpy_sgm.causal_discovery._parameters import DEPRECATED, Constraint, given_legacy

__all__ = ["ScoringMethod"]


@dataclass(frozen=True)
class ScoringMethod:
    """The forms a learner's ``scoring_method`` takes, and the keywords it replaced.

    Attributes
    ----------
    settings_class : type
        The settings object (a frozen dataclass with ``from_score``).
    score_class : type
        The score whose instances are read as their settings.
    names : dict
        ``{name: settings keywords}``; the first name is the default (``scoring_method=None``).
    legacy_keywords : tuple of str
        The learner's deprecated score keywords (default ``"deprecated"``), fields of the settings.

    Examples
    --------
    >>> from pgmpy_sgm.structure_score import SGMScore, SGMScoreSettings
    >>> spec = ScoringMethod(SGMScoreSettings, SGMScore, {"sgm": {}}, ("prior",))
    >>> spec.constraint().description
    "None, 'sgm', an SGMScore or an SGMScoreSettings"
    """

    settings_class: type
    score_class: type
    names: dict
    legacy_keywords: tuple

    def constraint(self) -> Constraint:
        """The parameter constraint of ``scoring_method``."""
        names = ", ".join(repr(n) for n in self.names)
        description = f"None, {names}, an {self.score_class.__name__} or an {self.settings_class.__name__}"
        return Constraint(description, lambda v: v is None or isinstance(v, self.score_class | self.settings_class)
                          or (isinstance(v, str) and v in self.names))  # fmt: skip

    def settings(self, learner):
        """``learner.scoring_method`` as settings, its deprecated keywords folded in (with a ``FutureWarning``)."""
        method = learner.scoring_method
        if isinstance(method, self.settings_class):
            settings = method
        elif isinstance(method, self.score_class):
            settings = self.settings_class.from_score(method)
        else:
            settings = self.settings_class(**self.names[method or next(iter(self.names))])
        legacy = given_legacy(learner, self.legacy_keywords)
        if not legacy:
            return settings
        fields = ", ".join(f"{k}={v!r}" for k, v in legacy.items())
        warnings.warn(f"{type(learner).__name__}({', '.join(f'{k}=' for k in legacy)}...) is deprecated: pass "
                      f"scoring_method={self.settings_class.__name__}({fields}).", FutureWarning,
                      stacklevel=5)  # fmt: skip
        return replace(settings, **legacy)

    def resolved_copy(self, learner, settings):
        """An unfitted copy of ``learner`` with ``settings`` as its ``scoring_method`` and no deprecated keyword."""
        return clone(learner).set_params(scoring_method=settings, **dict.fromkeys(self.legacy_keywords, DEPRECATED))
