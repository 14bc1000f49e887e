"""Answers of 237 statistics students to a survey (Venables & Ripley, MASS), with missing cells."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["load_student_survey", "STUDENT_SURVEY_VARIABLES"]

_PATH = Path(__file__).with_name("data") / "student_survey.csv"

#: Column name -> meaning, in the column order of :func:`load_student_survey`.
STUDENT_SURVEY_VARIABLES = {
    "Sex": "sex of the student (Female, Male)",
    "W.Hnd": "writing hand (Left, Right)",
    "Fold": "arm on top when folding the arms (R on L, L on R, Neither)",
    "Clap": "hand on top when clapping (Left, Right, Neither)",
    "Exer": "how often the student exercises (Freq, Some, None)",
    "Smoke": "how much the student smokes (Heavy, Regul, Occas, Never)",
    "M.I": "units in which height was given (Metric, Imperial)",
    "Age": "age in years, in two bins (<20, >=20)",
}


def load_student_survey() -> pd.DataFrame:
    """The categorical answers of the MASS ``survey`` data, with their missing cells.

    The answers of 237 statistics students of the University of Adelaide to a survey
    in 1992 (Venables & Ripley, *Modern Applied Statistics with S*, 4th ed., Springer
    2002; data set ``survey`` of the R package MASS, licence GPL-2 | GPL-3). The seven
    categorical columns are kept as they are, with the levels of MASS; of the numeric
    columns, ``Age`` is kept in two bins (``"<20"``: 171 students, ``">=20"``: 66) and
    the hand spans, pulse and height are left out.

    31 rows have missing cells, 32 cells in all: ``M.I`` (28), ``Sex``, ``W.Hnd``,
    ``Clap`` and ``Smoke`` (1 each). They are ``NaN``, which ``missing="complete_cases"``,
    ``"em"`` and ``"state"`` of the learners and models handle. The level ``"None"`` of
    ``Exer`` (24 students who do not exercise) is a state, not a missing cell.

    Returns
    -------
    pandas.DataFrame
        237 rows and the string columns ``Sex, W.Hnd, Fold, Clap, Exer, Smoke, M.I, Age``
        (see :data:`STUDENT_SURVEY_VARIABLES`), ``NaN`` where an answer is missing.

    Examples
    --------
    >>> survey = load_student_survey()
    >>> survey.shape
    (237, 8)
    >>> survey.isna().sum().to_dict()
    {'Sex': 1, 'W.Hnd': 1, 'Fold': 0, 'Clap': 1, 'Exer': 0, 'Smoke': 1, 'M.I': 28, 'Age': 0}
    >>> int(survey.isna().any(axis=1).sum())
    31
    """
    # only empty cells are missing: pandas would also read the level "None" of Exer as NaN
    return pd.read_csv(_PATH, dtype=str, keep_default_na=False, na_values=[""])
