"""Checks of a user's table before encoding (pgmpy_sgm.core.data_checks): each names what is at fault."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core.data_checks import (
    ExpectedCounts,
    check_column_names,
    check_discrete,
    check_frame,
    check_frame_complete,
    check_one_type,
    check_row_id,
    known_gaps,
    split_weights,
)


def test_split_weights_takes_out_the_count_column_and_refuses_fractional_counts():
    frame, counts = split_weights(pd.DataFrame({"a": [0, 1], "n": [2, 5]}), "n")
    assert list(frame.columns) == ["a"] and counts.tolist() == [2.0, 5.0]
    with pytest.raises(ValueError, match="whole counts"):
        split_weights(pd.DataFrame({"a": [0, 1]}), [0.5, 1.0])
    assert split_weights(pd.DataFrame({"a": [0, 1]}), ExpectedCounts([0.5, 1.0]))[1].tolist() == [0.5, 1.0]


def test_split_weights_matches_a_series_by_its_index():
    data = pd.DataFrame({"a": [0, 1]}, index=[10, 20])
    _, counts = split_weights(data, pd.Series([7, 3], index=[20, 10]))
    assert counts.tolist() == [3.0, 7.0]
    with pytest.raises(ValueError, match="row label .*20.* has no weight"):
        split_weights(data, pd.Series([1], index=[10]))


def test_each_check_names_the_column_at_fault():
    with pytest.raises(ValueError, match="'b' has 1 missing"):
        check_frame_complete(pd.DataFrame({"a": [0, 1], "b": [1.0, np.nan]}))
    with pytest.raises(ValueError, match="'x' looks continuous"):
        check_discrete(pd.Series(np.linspace(0.1, 0.9, 30)), "x", 30)
    with pytest.raises(ValueError, match="'id' has a different value"):
        check_row_id(30, 30, "id", unweighted=True)
    check_row_id(30, 30, "id", unweighted=False)  # a table of counts may list each row once
    with pytest.raises(ValueError, match="'s' holds both"):
        check_one_type([True, "True"], "s")
    with pytest.raises(TypeError, match="must be strings"):
        check_column_names(["a", 3])


def test_check_frame_accepts_discrete_data_and_counts():
    check_frame(pd.DataFrame({"a": [0, 1, 1], "b": ["x", "y", "x"]}))
    check_frame(pd.DataFrame({"a": [0, 1], "n": [4, 6]}), "n")


@pytest.mark.parametrize("column", [
    pd.Series([1, 0, 1]),
    pd.Series([True, False, True]),
    pd.Series(pd.Categorical(["a", None, "b"])),
    pd.Series(pd.Categorical([1, 2, None], categories=[1, 2, 3])),
])
def test_known_gaps_are_the_cells_pandas_calls_missing(column):
    np.testing.assert_array_equal(known_gaps(column), column.isna().to_numpy())


@pytest.mark.parametrize("column", [pd.Series([0.5, None]), pd.Series(["a", ""]),
                                    pd.Series(["a", None], dtype="string")])
def test_types_whose_values_must_be_read_have_no_known_gaps(column):
    assert known_gaps(column) is None


def test_known_gaps_refuses_what_is_not_a_column():
    with pytest.raises(TypeError, match="known_gaps takes a pandas Series"):
        known_gaps(pd.DataFrame({"a": [0, 1]}))
