"""Coronary heart disease risk factors of 1841 men (Edwards & Havranek, 1985)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["load_heart_disease", "HEART_DISEASE_VARIABLES"]

_PATH = Path(__file__).with_name("data") / "heart_disease_counts.csv"

#: Column name -> meaning (0 = no, 1 = yes), in the paper's order X1 .. X6.
HEART_DISEASE_VARIABLES = {
    "smoking": "smoking (X1)",
    "mental_work": "strenuous mental work (X2)",
    "physical_work": "strenuous physical work (X3)",
    "systolic_bp": "systolic blood pressure > 140 (X4)",
    "lipoprotein_ratio": "ratio of beta and alpha lipoproteins > 3 (X5)",
    "family_history": "family anamnesis of coronary heart disease (X6)",
}


def load_heart_disease(as_counts: bool = False) -> pd.DataFrame:
    """The heart-disease data of Nyman et al. (2014), Section 5.

    Six binary risk factors (0 = no, 1 = yes) of 1841 Czech men, from Reinis et
    al. (1981) as tabulated by Edwards & Havranek (1985).

    Parameters
    ----------
    as_counts : bool, default=False
        False: one row per man (1841 rows). True: the 64-row table of counts with
        a ``count`` column (use ``weights="count"`` with the scores and estimators).

    Returns
    -------
    pandas.DataFrame
        Integer columns ``smoking, mental_work, physical_work, systolic_bp,
        lipoprotein_ratio, family_history`` (see :data:`HEART_DISEASE_VARIABLES`).

    Examples
    --------
    >>> load_heart_disease().shape
    (1841, 6)
    >>> table = load_heart_disease(as_counts=True)
    >>> table.shape, int(table["count"].sum())
    ((64, 7), 1841)
    """
    if not isinstance(as_counts, bool | np.bool_):
        raise TypeError(f"as_counts must be True or False. Got: {as_counts!r}")
    table = pd.read_csv(_PATH)
    if as_counts:
        return table
    rows = np.repeat(np.arange(len(table)), table["count"].to_numpy())
    return table.drop(columns="count").iloc[rows].reset_index(drop=True)
