"""The pseudo-likelihood score's settings as one object: ``MPLSearch(scoring_method=MPLScoreSettings(...))``.

As :mod:`~pgmpy_sgm.structure_score.ldag_settings` for labelled DAGs: the settings of
:class:`~pgmpy_sgm.structure_score.MPLScore` without its data, so that the learner takes its
score in one argument as pgmpy's learners do.
"""

from __future__ import annotations

from dataclasses import dataclass

from pgmpy_sgm.structure_score.mpl_score import DEFAULT_ALPHA, DEFAULT_KAPPA, MPLScore, check_mpl_settings

__all__ = ["MPLScoreSettings"]


@dataclass(frozen=True)
class MPLScoreSettings:
    """Settings of :class:`~pgmpy_sgm.structure_score.MPLScore` for a search.

    Parameters
    ----------
    alpha : float or "bdeu", default=0.5
        Dirichlet hyperparameter of each blanket configuration's distribution (see ``MPLScore``).
    kappa : float in (0, 1], default=0.2
        Structure-prior factor per free parameter removed by contexts (1: flat).

    Examples
    --------
    >>> MPLScoreSettings(kappa=0.5)
    MPLScoreSettings(alpha=0.5, kappa=0.5)
    >>> MPLScoreSettings(alpha=-1)
    Traceback (most recent call last):
        ...
    ValueError: alpha must be a positive number or 'bdeu'. Got: -1
    """

    alpha: float | str = DEFAULT_ALPHA
    kappa: float = DEFAULT_KAPPA

    def __post_init__(self) -> None:
        check_mpl_settings(self.alpha, self.kappa)

    @classmethod
    def from_score(cls, score: MPLScore) -> MPLScoreSettings:
        """The settings ``score`` was built with (its data are not kept).

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> MPLScoreSettings.from_score(MPLScore(load_heart_disease(), kappa=0.5)).kappa
        0.5
        """
        return cls(score.alpha, score.kappa)

    def score(self, data, weights=None, state_names=None) -> MPLScore:
        """The pseudo-likelihood score of ``data`` with these settings.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> MPLScoreSettings(alpha="bdeu").score(load_heart_disease()).alpha
        'bdeu'
        """
        return MPLScore(data, state_names=state_names, weights=weights, alpha=self.alpha, kappa=self.kappa)
