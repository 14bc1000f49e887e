"""The labelled-DAG score's settings as one object: ``LDAGSearch(scoring_method=LDAGScoreSettings(...))``.

pgmpy's learners take their score as one argument (``scoring_method``); a score instance
holds its data, so it cannot say "choose the ESS from the data". This object holds the
settings only, fixed or to be chosen, and builds the score for the data a fit sees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from numbers import Real

import numpy as np

from pgmpy_sgm.core.family_engine import check_family_settings
from pgmpy_sgm.structure_score.ldag_score import DEFAULT_KAPPA, LDAGScore

__all__ = ["LDAGScoreSettings", "ESS_GRID", "KAPPA_GRID"]

#: Equivalent sample sizes tried by ``equivalent_sample_size="auto"`` (Steck 2008: the marginal likelihood's maximiser).
ESS_GRID = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0)
#: Label penalties tried by ``kappa="held_out"``, in the order tried (ties keep the earlier one, so the
#: default comes first): the default, no labels (0), a heavy penalty, a light one and the flat prior.
KAPPA_GRID = (DEFAULT_KAPPA, 0.0, 0.05, 0.5, 1.0)

_ESS_EXPECTED = "equivalent_sample_size must be a positive number, 'auto' or a sequence of positive numbers"
_KAPPA_EXPECTED = "kappa must be a number in [0, 1], 'held_out' or a sequence of such numbers"


def _values(value) -> list | None:
    """The values of a sequence setting (None for a single value)."""
    return list(value) if isinstance(value, list | tuple | np.ndarray) else None


def _ess_setting(value):
    """``value`` as stored: ``"auto"``, a float, or a tuple of floats; a one-line error otherwise."""
    if isinstance(value, str):
        if value != "auto":
            raise ValueError(f"{_ESS_EXPECTED}. Got: {value!r}")
        return value
    values = _values(value)
    if values == []:
        raise ValueError("equivalent_sample_size: the sequence of values to try is empty.")
    for v in values or [value]:
        if isinstance(v, bool | np.bool_) or not isinstance(v, Real) or not (math.isfinite(v) and v > 0):
            raise ValueError(f"{_ESS_EXPECTED}. Got: {v!r}")
    return float(value) if values is None else tuple(float(v) for v in values)


def _kappa_setting(value):
    """``value`` as stored: ``"held_out"``, a float, or a tuple of distinct floats; a one-line error otherwise."""
    if isinstance(value, str):
        if value != "held_out":
            raise ValueError(f"{_KAPPA_EXPECTED}. Got: {value!r}")
        return value
    values = _values(value)
    if values == []:
        raise ValueError("kappa: the sequence of values to try is empty.")
    for v in values or [value]:
        if isinstance(v, bool | np.bool_) or not isinstance(v, Real) or not (0 <= v <= 1):
            raise ValueError(f"{_KAPPA_EXPECTED}. Got: {v!r}")
    if values is not None and len(set(values)) != len(values):
        raise ValueError(f"kappa: the sequence of values to try lists a value twice. Got: {value!r}")
    return float(value) if values is None else tuple(float(v) for v in values)


@dataclass(frozen=True)
class LDAGScoreSettings:
    """Settings of :class:`~pgmpy_sgm.structure_score.LDAGScore` for a search, fixed or chosen from the data.

    ``LDAGSearch(scoring_method=LDAGScoreSettings(kappa=0.5))`` learns under the LDAG score
    with that label penalty; an ``LDAGScore`` instance given as ``scoring_method`` is read
    as the settings it was built with (:meth:`from_score`).

    Parameters
    ----------
    equivalent_sample_size : float, "auto" or sequence of float, default=5.0
        ESS of the BDeu hyperparameters (score and parameters). ``"auto"`` chooses it from
        the data among :data:`ESS_GRID` (a sequence: among its values) by the marginal
        likelihood, as Steck (2008) proposes: for each value the search's first climbs run
        under the score with that ESS, and the value whose best labelled DAG scores highest
        is kept. A smaller ESS usually gives sparser graphs and less smoothed parameters.
    kappa : float in [0, 1], "held_out" or sequence of float, default=0.2
        Structure-prior factor per free parameter removed by labels (see ``LDAGScore``):
        1 is the flat prior, smaller values label less, and 0 is the limit where no label
        is worth its cost. ``"held_out"`` chooses it among :data:`KAPPA_GRID` (a sequence:
        among its values, tried in the order given) by 5-fold cross-validation (see
        ``LDAGSearch``). The marginal likelihood cannot make this choice: the label prior
        is not normalised over labellings.
    labels : bool, default=True
        ``False`` scores plain DAGs under BDeu with the same ESS (pgmpy's ``BDeu``).
    max_labelled_configs : int or None, default=64
        Families with more parent configurations are scored unlabelled.
    method : {"auto", "exact", "heuristic"}, default="auto"
        Labelling search per family (see ``LDAGScore``).

    Raises
    ------
    ValueError
        Naming the setting and the value at fault; also for a choice of ``kappa`` with
        ``labels=False`` (no label to penalise).

    Examples
    --------
    >>> LDAGScoreSettings(kappa=0.5)
    LDAGScoreSettings(equivalent_sample_size=5.0, kappa=0.5, labels=True, max_labelled_configs=64, method='auto')
    >>> LDAGScoreSettings(equivalent_sample_size="auto").ess_grid
    (0.5, 1.0, 2.0, 5.0, 10.0, 20.0)
    >>> LDAGScoreSettings(kappa=[0.2, 1]).kappa_grid
    (0.2, 1.0)
    >>> LDAGScoreSettings(kappa=2)
    Traceback (most recent call last):
        ...
    ValueError: kappa must be a number in [0, 1], 'held_out' or a sequence of such numbers. Got: 2
    """

    equivalent_sample_size: float | str | tuple = 5.0
    kappa: float | str | tuple = DEFAULT_KAPPA
    labels: bool = True
    max_labelled_configs: int | None = 64
    method: str = "auto"

    def __post_init__(self) -> None:
        object.__setattr__(self, "equivalent_sample_size", _ess_setting(self.equivalent_sample_size))
        object.__setattr__(self, "kappa", _kappa_setting(self.kappa))
        # the other settings as the score checks them (ESS and kappa, which may be choices, are checked above)
        check_family_settings(1.0, 1.0, self.labels, self.method, self.max_labelled_configs)
        if self.kappa_grid is not None and not self.labels:
            raise ValueError(f"kappa={self.kappa!r} chooses the label penalty, but labels=False learns no labels: "
                             "give a number (it is not used) or labels=True")  # fmt: skip

    @classmethod
    def from_score(cls, score: LDAGScore) -> LDAGScoreSettings:
        """The settings ``score`` was built with (its data are not kept).

        Examples
        --------
        >>> import pandas as pd
        >>> score = LDAGScore(pd.DataFrame({"a": [0, 1], "b": [1, 1]}), equivalent_sample_size=2, kappa=0.5)
        >>> LDAGScoreSettings.from_score(score).equivalent_sample_size
        2.0
        """
        return cls(score.equivalent_sample_size, score.kappa, score.labels, score.max_labelled_configs, score.method)

    @property
    def ess_grid(self) -> tuple[float, ...]:
        """The equivalent sample sizes to try: one when fixed, :data:`ESS_GRID` for ``"auto"``."""
        value = self.equivalent_sample_size
        if isinstance(value, str):
            return ESS_GRID
        return value if isinstance(value, tuple) else (value,)

    @property
    def kappa_grid(self) -> tuple[float, ...] | None:
        """The label penalties to choose between: None for a fixed ``kappa``, :data:`KAPPA_GRID` for ``"held_out"``."""
        if isinstance(self.kappa, str):
            return KAPPA_GRID
        return self.kappa if isinstance(self.kappa, tuple) else None

    def fixed(self, equivalent_sample_size: float | None = None, kappa: float | None = None) -> LDAGScoreSettings:
        """These settings with the ESS and/or kappa fixed to the values given (a choice made).

        Examples
        --------
        >>> LDAGScoreSettings(kappa="held_out").fixed(kappa=0.5).kappa
        0.5
        """
        changes = {}
        if equivalent_sample_size is not None:
            changes["equivalent_sample_size"] = equivalent_sample_size
        if kappa is not None:
            changes["kappa"] = kappa
        return replace(self, **changes)

    def score(self, data, equivalent_sample_size: float, kappa: float, weights=None, state_names=None) -> LDAGScore:
        """The LDAG score of ``data`` with these settings, the ESS and kappa given (kappa 0: no labels).

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"a": [0, 1, 1], "b": [1, 1, 0]})
        >>> LDAGScoreSettings().score(df, 5.0, 0.0).labels
        False
        """
        return LDAGScore(data, weights=weights, equivalent_sample_size=equivalent_sample_size,
                         kappa=kappa if kappa > 0 else DEFAULT_KAPPA, labels=self.labels and kappa > 0,
                         method=self.method, max_labelled_configs=self.max_labelled_configs,
                         state_names=state_names)  # fmt: skip
