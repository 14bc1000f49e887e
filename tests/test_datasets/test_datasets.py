"""Bundled heart-disease data and the paper's synthetic generator."""

from importlib.resources import files

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.datasets import (
    STUDENT_SURVEY_VARIABLES,
    load_heart_disease,
    load_student_survey,
    paper_synthetic_graph,
    simulate_paper_synthetic,
)


def test_heart_disease_shapes():
    rows = load_heart_disease()
    table = load_heart_disease(as_counts=True)
    assert rows.shape == (1841, 6) and table.shape == (64, 7)
    assert list(rows.columns) == ["smoking", "mental_work", "physical_work", "systolic_bp",
                                  "lipoprotein_ratio", "family_history"]
    assert rows.value_counts().sum() == table["count"].sum() == 1841


def test_synthetic_generator_follows_appendix_b():
    df = simulate_paper_synthetic(200_000, seed=1)
    assert list(df.columns) == [f"X{i}" for i in range(1, 8)]
    assert df["X2"].mean() == pytest.approx(0.5, abs=0.01)
    assert df.loc[df.X2 == 1, "X3"].mean() == pytest.approx(0.8, abs=0.01)
    assert df.loc[(df.X2 == 0) & (df.X3 == 1) & (df.X4 == 1), "X1"].mean() == pytest.approx(0.4, abs=0.02)
    assert df.loc[df.X3 == 0, "X5"].mean() == pytest.approx(0.8, abs=0.01)
    assert df.loc[(df.X5 == 0) & (df.X6 == 1), "X7"].mean() == pytest.approx(0.8, abs=0.01)
    assert df.loc[(df.X5 == 1), "X7"].mean() == pytest.approx(0.4, abs=0.01)
    np.testing.assert_array_equal(simulate_paper_synthetic(50, seed=3), simulate_paper_synthetic(50, seed=3))


def test_synthetic_graph_is_valid():
    sg = paper_synthetic_graph()
    assert sg.check_model()
    assert sg.is_maximal_regular()


def test_synthetic_rejects_bad_n():
    with pytest.raises(ValueError, match="positive integer"):
        simulate_paper_synthetic(0)


def test_student_survey_keeps_its_missing_cells_and_the_level_none():
    survey = load_student_survey()
    assert survey.shape == (237, 8)
    assert list(survey.columns) == ["Sex", "W.Hnd", "Fold", "Clap", "Exer", "Smoke", "M.I", "Age"]
    assert list(STUDENT_SURVEY_VARIABLES) == list(survey.columns)
    # the file read as plain text: a missing cell is an empty field
    raw = pd.read_csv(files("pgmpy_sgm.datasets") / "data" / "student_survey.csv", dtype=str, keep_default_na=False)
    assert survey.isna().sum().to_dict() == (raw == "").sum().to_dict()
    assert survey.isna().sum().to_dict() == {"Sex": 1, "W.Hnd": 1, "Fold": 0, "Clap": 1, "Exer": 0, "Smoke": 1,
                                             "M.I": 28, "Age": 0}  # fmt: skip
    assert int(survey.isna().any(axis=1).sum()) == 31
    # MASS's summary(survey): Exer Freq 115, None 24, Some 98; Smoke Heavy 11, Never 189, Occas 19, Regul 17
    assert survey["Exer"].value_counts().to_dict() == {"Freq": 115, "Some": 98, "None": 24}
    assert survey["Smoke"].value_counts().sort_index().to_dict() == {"Heavy": 11, "Never": 189, "Occas": 19,
                                                                     "Regul": 17}  # fmt: skip
    assert (survey.dropna() == raw[(raw != "").all(axis=1)]).all().all()
