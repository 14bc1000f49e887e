"""Choosing a learner's setting by held-out fit: k-fold cross-validated log-likelihood of its fits.

Shared by ``NonReversibleMCMC(scoring_method=SGMScoreSettings(prior="held_out"))`` (scored by the
model average of each fit) and ``LDAGSearch(scoring_method=LDAGScoreSettings(kappa="held_out"))``
(scored by the labelled network each fit learns).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import clone
from tqdm.auto import tqdm

from pgmpy_sgm.core.data import sorted_states
from pgmpy_sgm.models import ModelAverage

__all__ = [
    "HeldOutChoice",
    "choose_by_held_out",
    "rows_of",
    "fold_states",
    "model_average_log_likelihood",
]

#: Folds of the cross-validation.
N_FOLDS = 5
#: The least ``max_time`` a fit of the choice is given when the budget is spent (a learner needs a positive one).
MIN_FIT_SECONDS = 1e-3


@dataclass(frozen=True)
class HeldOutChoice:
    """The value of a setting with the best held-out fit, and every value's fit.

    Attributes
    ----------
    best : object
        The value with the highest mean held-out log-likelihood per row (ties: the first).
    scores : dict
        ``{value: mean held-out log-likelihood per row}`` (natural log), over all folds.
    fold_scores : dict
        ``{value: [log-likelihood per row of each fold]}``.

    Examples
    --------
    >>> HeldOutChoice("uniform", {"paper": -3.2, "uniform": -3.1}, {}).best
    'uniform'
    """

    best: object
    scores: dict
    fold_scores: dict


def rows_of(X, weights) -> pd.DataFrame:
    """One row per observation: a count column (``weights`` a name) or integer counts repeat their rows.

    Examples
    --------
    >>> table = pd.DataFrame({"a": [0, 1], "n": [2, 1]})
    >>> rows_of(table, "n")["a"].tolist()
    [0, 0, 1]
    """
    if not isinstance(X, pd.DataFrame):
        if isinstance(X, np.ndarray) and X.ndim == 2:
            X = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
        else:
            raise TypeError(f"A held-out choice needs a pandas DataFrame or a 2-d array. Got: {type(X).__name__}")
    if weights is None:
        return X.reset_index(drop=True)
    counts = np.asarray(X[weights] if isinstance(weights, str) else weights, dtype=float)
    if counts.shape != (len(X),) or not np.all(np.isfinite(counts)) or np.any(counts < 0) or np.any(
            counts != np.round(counts)):  # fmt: skip
        raise ValueError("A held-out choice splits observations into folds: weights must be one non-negative "
                         "integer count per row.")  # fmt: skip
    variables = X.drop(columns=[weights]) if isinstance(weights, str) else X
    return variables.loc[variables.index.repeat(counts.astype(np.int64))].reset_index(drop=True)


def model_average_log_likelihood(fitted, train: pd.DataFrame, test: pd.DataFrame) -> float:
    """Log-likelihood per row of ``test`` under the model average of ``fitted`` (fitted on ``train``).

    Examples
    --------
    >>> from pgmpy_sgm.causal_discovery import NonReversibleMCMC
    >>> rows = pd.DataFrame({"a": [0, 1] * 20, "b": [0, 1] * 20})
    >>> est = NonReversibleMCMC(n_iter=20, n_chains=1, seed=0, show_progress=False).fit(rows)
    >>> bool(model_average_log_likelihood(est, rows, rows.head(4)) < 0)
    True
    """

    return float(ModelAverage.from_estimator(fitted, train).log_likelihood(test) / len(test))


def fold_states(estimator, rows: pd.DataFrame) -> dict:
    """The states every fit of a choice gets: ``estimator``'s ``state_names``, else a categorical's categories, else
    the values seen in ``rows`` (sorted), so that each fold knows the states of the held-out rows.

    Examples
    --------
    >>> from pgmpy_sgm.causal_discovery import LDAGSearch
    >>> rows = pd.DataFrame({"a": [2, 0], "b": pd.Categorical(["x", "x"], categories=["y", "x"])})
    >>> fold_states(LDAGSearch(state_names={"a": [0, 1, 2]}), rows)
    {'a': [0, 1, 2], 'b': ['y', 'x']}
    """
    given = dict(estimator.get_params().get("state_names") or {})
    out = {}
    for c in rows.columns:
        if c in given:
            out[c] = list(given[c])
        elif isinstance(rows[c].dtype, pd.CategoricalDtype):
            out[c] = list(rows[c].cat.categories)
        else:
            out[c] = sorted_states(rows[c].dropna().unique())
    return out


def _fit_seconds(deadline: float | None, fits_left: int) -> dict:
    """``{"max_time": s}``: an equal share of the time left before ``deadline`` for each fit still to run."""
    if deadline is None:
        return {}
    return {"max_time": max((deadline - time.perf_counter()) / max(fits_left, 1), MIN_FIT_SECONDS)}


def choose_by_held_out(
    estimator,
    rows: pd.DataFrame,
    parameter: str,
    values,
    seed: int | None = 0,
    log_likelihood: Callable[..., float] = model_average_log_likelihood,
    max_time: float | None = None,
    show_progress: bool = False,
) -> HeldOutChoice:
    """The value of ``parameter`` whose fits predict held-out rows best (k-fold cross-validation).

    Each value is set on a copy of ``estimator`` (``sklearn.base.clone``, no progress bar,
    no ``weights``, the states of :func:`fold_states` so every fold knows every state),
    fitted on each training part of :data:`N_FOLDS` folds (rows shuffled with ``seed``), and
    scored by the mean over the folds of ``log_likelihood(fit, train, test)``, the
    log-likelihood per row of the held-out part (by default under the model average of the
    fit, :meth:`~pgmpy_sgm.models.ModelAverage.from_estimator`). Every value sees the same
    folds.

    **Time.** With ``max_time`` (seconds for the whole choice), each fit gets as its own
    ``max_time`` an equal share of the time left for the fits still to run, at least
    :data:`MIN_FIT_SECONDS`; the values are tried in the order given, and once the time is
    spent the values not yet tried are left out (the first value is always tried, and a
    value is scored on all its folds or not at all).

    Parameters
    ----------
    estimator : NonReversibleMCMC or LDAGSearch
        The learner (not modified).
    rows : pandas.DataFrame
        One row per observation (see :func:`rows_of`).
    parameter : str
        A constructor parameter of ``estimator``.
    values : sequence
        The values to compare, in the order they are tried (ties keep the earlier one).
    seed : int or None, default=0
        Seed of the fold assignment.
    log_likelihood : callable, default=model_average_log_likelihood
        ``log_likelihood(fitted, train, test)``: the held-out log-likelihood per row of a fit.
    max_time : float, optional
        Seconds for the whole choice (see above); None: no limit, and the fits keep
        ``estimator``'s own ``max_time``.
    show_progress : bool, default=False
        A progress bar over the fits (named after ``parameter``).

    Returns
    -------
    HeldOutChoice
        ``scores`` lists the values tried.

    Raises
    ------
    ValueError
        With fewer rows than folds.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> from pgmpy_sgm.causal_discovery import NonReversibleMCMC
    >>> learner = NonReversibleMCMC(n_iter=50, n_chains=1, seed=0)
    >>> rows = load_heart_disease().head(300)
    >>> choice = choose_by_held_out(learner, rows, "strata", (True, False))
    >>> choice.best in (True, False), sorted(choice.scores)
    (True, [False, True])
    """
    if len(rows) < N_FOLDS:
        raise ValueError(f"A held-out choice needs at least {N_FOLDS} rows (one per fold). Got: {len(rows)}")
    states = fold_states(estimator, rows)
    folds = np.array_split(np.random.default_rng(seed).permutation(len(rows)), N_FOLDS)
    deadline = None if max_time is None else time.perf_counter() + float(max_time)
    fold_scores = {}
    bar = tqdm(total=len(values) * N_FOLDS, disable=not show_progress, desc=f"held-out choice of {parameter}")
    for i, value in enumerate(values):
        if fold_scores and deadline is not None and time.perf_counter() >= deadline:
            break
        learner = clone(estimator).set_params(**{parameter: value, "state_names": states, "show_progress": False,
                                                 "weights": None})  # fmt: skip
        fold_scores[value] = []
        for k, test_idx in enumerate(folds):
            test = rows.iloc[test_idx].reset_index(drop=True)
            train = rows.drop(index=rows.index[test_idx]).reset_index(drop=True)
            fit = clone(learner).set_params(**_fit_seconds(deadline, (len(values) - i) * N_FOLDS - k)).fit(train)
            fold_scores[value].append(float(log_likelihood(fit, train, test)))
            bar.update(1)
    bar.close()
    scores = {value: float(np.mean(s)) for value, s in fold_scores.items()}
    best = max(scores, key=lambda v: (scores[v], -list(scores).index(v)))
    return HeldOutChoice(best, scores, fold_scores)
