"""Fixtures for the plotting tests: the heart-disease best SG and the paper's synthetic SG."""

import matplotlib
import matplotlib.pyplot as plt
import pytest

matplotlib.use("Agg")

@pytest.fixture
def heart_sg(heart_reference_models):
    return heart_reference_models["best"][0].copy()


@pytest.fixture
def synthetic_sg():
    from pgmpy_sgm.datasets import paper_synthetic_graph

    return paper_synthetic_graph()


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
