"""Fixtures for the plotting tests: the heart-disease best SG and the paper's synthetic SG."""

import matplotlib
import matplotlib.pyplot as plt
import pytest

matplotlib.use("Agg")

HEART_EDGES = [
    ("smoking", "physical_work"),
    ("smoking", "systolic_bp"),
    ("smoking", "lipoprotein_ratio"),
    ("mental_work", "physical_work"),
    ("physical_work", "lipoprotein_ratio"),
    ("systolic_bp", "lipoprotein_ratio"),
]
HEART_STRATA = {
    ("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
    ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}],
}
HEART_NODES = ["smoking", "mental_work", "physical_work", "systolic_bp", "lipoprotein_ratio", "family_history"]


@pytest.fixture
def heart_sg():
    from pgmpy_sgm import StratifiedGraph

    return StratifiedGraph(HEART_EDGES, strata=HEART_STRATA, nodes=HEART_NODES)


@pytest.fixture
def synthetic_sg():
    from pgmpy_sgm.datasets import paper_synthetic_graph

    return paper_synthetic_graph()


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
