"""Bundled heart-disease data and the paper's synthetic generator."""

import numpy as np
import pytest

from pgmpy_sgm.datasets import load_heart_disease, paper_synthetic_graph, simulate_paper_synthetic


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
