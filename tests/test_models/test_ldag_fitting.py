"""Parameters of a labelled DAG (pgmpy_sgm.models._ldag_fitting) against counts worked by hand."""

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.models._ldag_fitting import (
    checked_fit_columns,
    fit_spec,
    fitted_cpd,
    network_log_likelihood,
    non_negative_number,
)

DATA = pd.DataFrame({"a": [0, 0, 1, 1, 1], "b": [0, 1, 0, 1, 1], "y": [0, 1, 0, 0, 1]})


def _model():
    return LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
                                  state_names={"a": [0, 1], "b": [0, 1], "y": [0, 1]})


def test_a_class_pools_its_configurations_counts():
    cpd = fitted_cpd(_model(), "y", EncodedData(DATA), fit_spec(None, None))
    # class {(0,0), (1,0)}: rows 0 and 2, both y = 0; (0,1): one row, y = 1; (1,1): y = 0 and y = 1
    assert cpd.get_values()[0].tolist() == [1.0, 0.0, 1.0, 0.5]


def test_bdeu_spreads_the_equivalent_sample_size_over_the_configurations():
    cpd = fitted_cpd(_model(), "y", EncodedData(DATA), fit_spec("bayes", 8))
    # ESS 8 over q * r = 8 cells: one pseudo-count per cell, two for the class of two configurations
    assert cpd.get_values()[0].tolist() == pytest.approx([4 / 6, 1 / 3, 4 / 6, 2 / 4])


def test_log_likelihood_is_the_sum_of_the_cpd_logs():
    model = _model().fit(DATA)
    rows = pd.DataFrame({"a": [1], "b": [1], "y": [1]})
    p_a1, p_b1, p_y1 = 3 / 5, 3 / 5, 0.5  # P(a=1), P(b=1), P(y=1 | a=1, b=1)
    assert network_log_likelihood(model, rows) == pytest.approx(np.log(p_a1 * p_b1 * p_y1))


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="n_prev_samples"):
        non_negative_number(float("nan"), "n_prev_samples")
    with pytest.raises(ValueError, match="'y'"):
        checked_fit_columns(DATA[["a", "b"]], ["a", "b", "y"], None)
    with pytest.raises(ValueError, match="equivalent_sample_size goes with"):
        fit_spec("mle", 5)
