"""read_data_file: the Python spelling of its options in messages, its warning, and its pooling."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.readwrite import CountsLikeColumnWarning, DataFileError, read_data_file


def _write(tmp_path, text, name="data.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_rows_are_pooled_with_their_counts(tmp_path):
    path = _write(tmp_path, "a,b\n0,x\n1,y\n0,x\n0,x\n")
    frame, weights, description = read_data_file(path)
    pooled = {tuple(row): w for row, w in zip(frame.itertuples(index=False), weights, strict=True)}
    assert pooled == {(0, "x"): 3, (1, "y"): 1}
    assert description == f"{path} (4 observations, 2 variables)"


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        ("a;b\n0;1\n1;0\n", {}, r"read as the single column 'a;b'; if its fields are separated by ';', pass sep=';'$"),
        ("a,b\nNA,1\n1,0\n", {}, r"column 'a' of .* such as 'NA' that pandas .* pass keep_na_strings=True\. Or pass "
         r"keep_missing=True"),
        ("a,b\n0,1\n1,0\n", {"sep": ";;"}, r"^sep must be one character, got ';;'$"),
        ("a,b,n\n0,1,x\n1,0,2\n", {"counts_column": "n"}, r"^counts column 'n' of .* holds 'x' in data row 1"),
    ],
)
def test_errors_name_the_python_options(tmp_path, text, options, message):
    with pytest.raises(DataFileError, match=message):
        read_data_file(_write(tmp_path, text), **options)


def test_missing_file_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match=r"^data file not found: .*absent\.csv$"):
        read_data_file(tmp_path / "absent.csv")


def test_a_counts_like_column_gets_a_warning_naming_the_option(tmp_path):
    rows = pd.DataFrame({"a": [0, 1] * 20, "n": np.repeat(np.arange(20) * 50 + 1, 2)})
    path = tmp_path / "data.csv"
    rows.to_csv(path, index=False)
    with pytest.warns(CountsLikeColumnWarning, match=r"column 'n' .* pass counts_column='n'$"):
        read_data_file(path)


def test_a_path_that_is_not_a_path_is_named():
    with pytest.raises(TypeError, match="path must be a file path.*int 123"):
        read_data_file(123)
