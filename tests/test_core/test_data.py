"""EncodedData: encoding of discrete columns, pooled counts, and clear errors for bad data."""

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core.data import EncodedData


def test_counts_equal_pandas_crosstab_for_mixed_column_types():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({
        "i": rng.integers(0, 3, 500),
        "s": rng.choice(["lo", "hi"], 500),
        "b": rng.random(500) < 0.3,
        "c": pd.Categorical(rng.choice(["z", "y", "x"], 500), categories=["z", "y", "x"]),
    })
    enc = EncodedData(df)
    assert enc.state_names == {"i": [0, 1, 2], "s": ["hi", "lo"], "b": [False, True], "c": ["z", "y", "x"]}
    table = enc.counts(("s", "c", "i"))
    expected = df.groupby(["s", "c", "i"], observed=False).size()
    for (s, c, i), n in expected.items():
        assert table[enc.state_names["s"].index(s), enc.state_names["c"].index(c), i] == n
    assert table.sum() == 500 and enc.n == 500


def test_rows_and_weights_pool_identically():
    df = pd.DataFrame({"a": [0, 1, 1, 0, 1], "b": ["x", "y", "y", "x", "x"]})
    counts = df.value_counts().rename("n").reset_index()
    by_rows = EncodedData(df)
    by_counts = EncodedData(counts, weights="n")
    np.testing.assert_array_equal(by_rows.counts(("a", "b")), by_counts.counts(("a", "b")))
    assert by_rows.codes.shape[0] == 3  # duplicate rows pooled


def test_state_names_fix_order_and_allow_unobserved_states():
    enc = EncodedData(pd.DataFrame({"a": ["y", "y"]}), state_names={"a": ["x", "y", "z"]})
    assert enc.counts(("a",)).tolist() == [0.0, 2.0, 0.0]


def test_single_state_column_is_allowed():
    enc = EncodedData(pd.DataFrame({"a": [1, 1, 1], "b": [0, 1, 0]}))
    assert enc.cardinality["a"] == 1


def test_many_states_are_allowed():
    enc = EncodedData(pd.DataFrame({"a": np.arange(2000) % 1000}))
    assert enc.cardinality["a"] == 1000 and enc.codes.dtype == np.uint16


def test_encode_new_rows_and_unknown_states():
    enc = EncodedData(pd.DataFrame({"a": ["x", "y"], "b": [0, 1]}))
    assert enc.encode(pd.DataFrame({"a": ["y"], "b": [0]})).tolist() == [[1, 0]]
    with pytest.raises(ValueError, match=r"Column 'a' has state\(s\) \['w'\] unknown"):
        enc.encode(pd.DataFrame({"a": ["w"], "b": [0]}))
    with pytest.raises(ValueError, match=r"lack the model's variable\(s\) \['b'\]"):
        enc.encode(pd.DataFrame({"a": ["x"]}))


@pytest.mark.parametrize(
    ("frame", "kwargs", "error", "message"),
    [
        (pd.DataFrame({"a": [0, np.nan, np.nan], "b": [1, 0, 1]}), {}, ValueError, r"Column 'a' has 2 missing"),
        (pd.DataFrame({"x": np.linspace(0, 1, 50)}), {}, ValueError, r"Column 'x' looks continuous.*pandas.cut"),
        (pd.DataFrame(), {}, ValueError, "no columns"),
        (pd.DataFrame({"a": []}), {}, ValueError, "no rows"),
        (pd.DataFrame([[0, 1]], columns=["a", "a"]), {}, ValueError, r"duplicated: \['a'\]"),
        (pd.DataFrame({0: [0, 1]}), {}, TypeError, "Column names must be strings"),
        (pd.DataFrame({"a": [0, 2]}), {"state_names": {"a": [0, 1]}}, ValueError, r"values \[2\].*state_names\['a'\]"),
        (pd.DataFrame({"a": [0, 1]}), {"state_names": {"z": [0, 1]}}, ValueError, r"not columns of the data: \['z'\]"),
        (pd.DataFrame({"a": [0, 1], "n": [1, -2]}), {"weights": "n"}, ValueError, r"non-negative; found \[-2.0\]"),
        (pd.DataFrame({"a": [0, 1], "n": [1, 0.5]}), {"weights": "n"}, ValueError, r"whole counts; found \[0.5\]"),
        (pd.DataFrame({"a": [0, 1]}), {"weights": [1, 2, 3]}, ValueError, r"one count per row \(2\)"),
        (pd.DataFrame({"a": [0, 1]}), {"weights": "count"}, ValueError, r"weights column 'count' is not a column"),
        (pd.DataFrame({"a": [0, 1], "n": [0, 0]}), {"weights": "n"}, ValueError, "no observations"),
        (pd.DataFrame({"a": [[0], [1]]}), {}, TypeError, r"Column 'a' holds unhashable values"),
        ([[0, 1]], {}, TypeError, "data must be a pandas DataFrame"),
    ],
)
def test_bad_data_is_rejected_with_a_clear_message(frame, kwargs, error, message):
    with pytest.raises(error, match=message):
        EncodedData(frame, **kwargs)


def test_integral_floats_are_accepted():
    enc = EncodedData(pd.DataFrame({"a": [0.0, 1.0, 1.0]}))
    assert enc.state_names["a"] == [0.0, 1.0]


def test_unknown_variables_in_counts():
    enc = EncodedData(pd.DataFrame({"a": [0, 1]}))
    with pytest.raises(ValueError, match=r"Unknown variable\(s\) \['b'\]"):
        enc.counts(("a", "b"))
