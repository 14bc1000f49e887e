"""The stratified-graph score's settings as one object: ``NonReversibleMCMC(scoring_method=SGMScoreSettings(...))``.

As :mod:`~pgmpy_sgm.structure_score.ldag_settings` for labelled DAGs: the settings of
:class:`~pgmpy_sgm.structure_score.SGMScore` without its data, fixed or to be chosen from the
data, so that a learner takes its score in one argument as pgmpy's learners do.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pgmpy_sgm.core.engine import PRIORS, check_settings
from pgmpy_sgm.structure_score.sgm_score import SGMScore

__all__ = ["SGMScoreSettings", "HELD_OUT_PRIORS"]

#: The structure priors ``SGMScoreSettings(prior="held_out")`` chooses between.
HELD_OUT_PRIORS = PRIORS


@dataclass(frozen=True)
class SGMScoreSettings:
    r"""Settings of :class:`~pgmpy_sgm.structure_score.SGMScore` for a search, fixed or chosen from the data.

    ``NonReversibleMCMC(scoring_method=SGMScoreSettings(prior="uniform"))`` learns under the
    decomposable-SG score with the flat structure prior; an ``SGMScore`` instance given as
    ``scoring_method`` is read as the settings it was built with (:meth:`from_score`).

    Parameters
    ----------
    prior : {"paper", "uniform", "held_out"}, default="paper"
        Structure prior, :math:`P(G_L) \propto 2^{d - f(G)}` or flat, or ``"held_out"``: the
        one of those two whose model averages predict held-out rows better in 5-fold
        cross-validation (see ``NonReversibleMCMC``).
    max_labelled_clique : int, default=5
        Larger cliques stay unlabelled (see ``SGMScore``).

    Raises
    ------
    ValueError
        Naming the setting and the value at fault.

    Examples
    --------
    >>> SGMScoreSettings(prior="uniform")
    SGMScoreSettings(prior='uniform', max_labelled_clique=5)
    >>> SGMScoreSettings(prior="held_out").prior_grid
    ('paper', 'uniform')
    >>> SGMScoreSettings(prior="flat")
    Traceback (most recent call last):
        ...
    ValueError: prior must be one of ('paper', 'uniform') or 'held_out'. Got: 'flat'
    """

    prior: str = "paper"
    max_labelled_clique: int = 5

    def __post_init__(self) -> None:
        if not (isinstance(self.prior, str) and self.prior in (*PRIORS, "held_out")):
            raise ValueError(f"prior must be one of {PRIORS} or 'held_out'. Got: {self.prior!r}")
        check_settings(PRIORS[0], self.max_labelled_clique)
        object.__setattr__(self, "max_labelled_clique", int(self.max_labelled_clique))

    @classmethod
    def from_score(cls, score: SGMScore) -> SGMScoreSettings:
        """The settings ``score`` was built with (its data are not kept).

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> SGMScoreSettings.from_score(SGMScore(load_heart_disease(), prior="uniform")).prior
        'uniform'
        """
        return cls(score.prior, score.max_labelled_clique)

    @property
    def prior_grid(self) -> tuple[str, ...] | None:
        """The priors to choose between: None for a fixed prior, :data:`HELD_OUT_PRIORS` for ``"held_out"``."""
        return HELD_OUT_PRIORS if self.prior == "held_out" else None

    def fixed(self, prior: str) -> SGMScoreSettings:
        """These settings with the prior fixed (a choice made).

        Examples
        --------
        >>> SGMScoreSettings(prior="held_out").fixed("uniform").prior
        'uniform'
        """
        return replace(self, prior=prior)

    def score(self, data, prior: str | None = None, weights=None, state_names=None) -> SGMScore:
        """The SG score of ``data`` with these settings (``prior`` when given: the prior chosen).

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> SGMScoreSettings(max_labelled_clique=4).score(load_heart_disease()).max_labelled_clique
        4
        """
        return SGMScore(data, state_names=state_names, weights=weights, prior=prior or self.prior,
                        max_labelled_clique=self.max_labelled_clique)  # fmt: skip
