"""EncodedData: encoding of discrete columns, pooled counts, and clear errors for bad data."""

import functools
import itertools
import math
import re
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core.data import EncodedData, pool_codes


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


# -- precision of scores with huge counts ----------------------------------------------------
_BERNOULLI = [Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66),
              Fraction(-691, 2730), Fraction(7, 6), Fraction(-3617, 510), Fraction(43867, 798)]


@functools.cache
def _lgamma_exact(x: int) -> Decimal:
    """log Gamma(x) for a positive integer to ~50 digits: recurrence up to 200, then Stirling's series."""
    with localcontext() as ctx:
        ctx.prec = 60
        x = Decimal(x)
        shift = Decimal(0)
        while x < 200:
            shift += x.ln()
            x += 1
        two_pi = 2 * Decimal("3.14159265358979323846264338327950288419716939937510582097494")
        out = (x - Decimal("0.5")) * x.ln() - x + two_pi.ln() / 2
        for k, b in enumerate(_BERNOULLI, start=1):
            out += Decimal(b.numerator) / Decimal(b.denominator) / (2 * k * (2 * k - 1) * x ** (2 * k - 1))
        return out - shift


def _dirichlet_exact(cells, alpha=1) -> Decimal:
    k, n = len(cells), sum(cells)
    return (_lgamma_exact(k * alpha) - _lgamma_exact(n + k * alpha) + sum(_lgamma_exact(c + alpha) for c in cells)
            - k * _lgamma_exact(alpha))


def _table(frame, variables):
    totals = frame.groupby(list(variables))["n"].sum()
    keys = itertools.product([0, 1], repeat=len(variables))
    return [int(totals.get(key if len(variables) > 1 else key[0], 0)) for key in keys]


def test_lgamma_reference_is_exact_on_factorials():
    with localcontext() as ctx:
        ctx.prec = 60
        assert abs(_lgamma_exact(21) - Decimal(math.factorial(20)).ln()) < Decimal("1e-40")
    assert abs(float(_lgamma_exact(10**6)) - math.lgamma(10**6)) < 1e-6


@pytest.mark.parametrize("others", [(0,), (1,), (1, 0, 3), (5, 2)])
def test_scores_with_huge_counts_are_exact_or_refused(others):
    """Up to the refusal bound, every score matches a 60-digit reference to 1e-9 relative."""
    from pgmpy.base import DAG

    from pgmpy_sgm import SGMScore, StratifiedGraph

    rows = list(itertools.product([0, 1], repeat=3))
    big, n_checked = 2**18, 0
    while True:
        counts = [big] + [others[i % len(others)] for i in range(7)]  # one cell holds nearly everything
        frame = pd.DataFrame(rows, columns=list("abc")).assign(n=counts)
        try:
            score = SGMScore(frame, weights="n")
        except ValueError as err:
            assert re.match(r"^Column '[abc]' is nearly constant: .*weights column 'n'", str(err))
            break
        d = {vs: _dirichlet_exact(_table(frame, vs)) for vs in ["a", "b", "c", "ab", "bc", "abc"]}
        abc = [_table(frame, "abc")[2 * i: 2 * i + 2] for i in range(4)]  # (a, b) configurations x c
        groups = [0, 0, 1, 2]
        labelled = _dirichlet_exact([sum(r) for r in abc], alpha=2)
        for g in set(groups):
            lam = groups.count(g)
            pooled = [sum(abc[i][s] for i in range(4) if groups[i] == g) for s in range(2)]
            labelled += (_lgamma_exact(2 * lam) - _lgamma_exact(sum(pooled) + 2 * lam)
                         + sum(_lgamma_exact(x + lam) for x in pooled) - 2 * _lgamma_exact(lam))
        pairs = [
            (d["ab"] + d["bc"] - d["b"], score.log_marginal_likelihood([("a", "b"), ("b", "c")])),
            (d["abc"], score.log_marginal_likelihood([("a", "b"), ("b", "c"), ("a", "c")])),
            (d["a"] + d["b"] + d["c"], score.log_marginal_likelihood(StratifiedGraph(nodes=list("abc")))),
            (labelled, score.clique_term(("a", "b", "c"), center="c", group_ids=groups)),
            (d["ab"] + d["bc"] - d["b"], score.score(DAG([("a", "b"), ("b", "c")])) - score.structure_prior(
                DAG([("a", "b"), ("b", "c")]))),
        ]
        for exact, got in pairs:
            assert got == pytest.approx(float(exact), rel=1e-9, abs=0)
        n_checked += 1
        big *= 2
    assert n_checked >= 3 and big <= 2**30  # checked up to the bound, and the bound is well below 2**53


def test_large_data_that_are_not_degenerate_are_accepted():
    frame = pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 0, 1, 1], "n": [2.0**50, 2.0**49, 2.0**48, 2.0**47]})
    assert EncodedData(frame, weights="n").n == 2.0**50 + 2.0**49 + 2.0**48 + 2.0**47


@pytest.mark.parametrize("n_columns", [3, 40, 90])  # one int64 key; two; three
def test_pooled_codes_are_numpys_distinct_rows_in_order_with_summed_weights(n_columns):
    rng = np.random.default_rng(n_columns)
    cards = rng.integers(2, 6, n_columns)
    base = rng.integers(0, cards, size=(40, n_columns))
    codes = base[rng.integers(0, 40, 300)]  # many repeats
    codes[::7, -1] = 0  # rows that differ in the last column only
    weights = rng.random(300)
    pooled, pooled_weights, inverse = pool_codes(codes, cards, weights)
    expected, expected_inverse = np.unique(codes, axis=0, return_inverse=True)
    np.testing.assert_array_equal(pooled, expected)
    np.testing.assert_array_equal(inverse, expected_inverse.ravel())
    np.testing.assert_allclose(pooled_weights, np.bincount(expected_inverse.ravel(), weights=weights))


def test_encoding_keeps_each_columns_codes_in_the_narrowest_type():
    import tracemalloc

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({f"x{i}": rng.integers(0, 2, 200_000) for i in range(20)})  # int64 columns, 30.5 MB
    tracemalloc.start()
    enc = EncodedData(frame)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert enc.codes.dtype == np.uint8
    assert peak < frame.memory_usage().sum() * 0.75  # int64 codes of every column at once: more than the frame


@pytest.mark.parametrize("given", [None, ["z", "y", "x"], ["x", "y", "z"], ["w", "x", "z", "y"], ["z", "y", "x", "v"]])
def test_categorical_columns_encode_as_their_values_do(given):
    rng = np.random.default_rng(3)
    values = rng.choice(["z", "x"], 300)  # "y" is a category that never occurs
    other = rng.integers(0, 2, 300)
    states = ["z", "y", "x"] if given is None else given
    from_categories = EncodedData(pd.DataFrame({"c": pd.Categorical(values, categories=["z", "y", "x"]), "b": other}),
                                  state_names=None if given is None else {"c": given})
    as_objects = EncodedData(pd.DataFrame({"c": values.astype(object), "b": other}), state_names={"c": states})
    assert from_categories.state_names["c"] == states
    assert from_categories.counts(("c", "b")).tolist() == as_objects.counts(("c", "b")).tolist()
    assert from_categories.counts(("c",))[states.index("y")] == 0


def test_categorical_column_with_a_value_outside_the_state_names_is_refused():
    frame = pd.DataFrame({"c": pd.Categorical(["a", "b", "a"], categories=["a", "b", "c"])})
    with pytest.raises(ValueError, match=re.escape("Column 'c' has values ['b'] that are not in state_names['c']")):
        EncodedData(frame, state_names={"c": ["a", "c"]})
    EncodedData(frame, state_names={"c": ["a", "b"]})  # an unused category may be left out


def test_categorical_row_identifier_is_refused_like_any_other_column():
    frame = pd.DataFrame({"c": pd.Categorical([f"r{i}" for i in range(25)]), "b": [0, 1] * 12 + [0]})
    with pytest.raises(ValueError, match="a row identifier"):
        EncodedData(frame)


def test_extension_counts_refuse_a_bad_candidate_naming_it():
    frame = pd.DataFrame({"a": [0, 1, 1, 0], "b": [0, 0, 1, 1], "c": [1, 0, 1, 2], "d": [0, 1, 2, 3]})
    enc = EncodedData(frame, max_cells=20)
    tables = np.vstack([enc.counts(["b", "c", "a"]).reshape(-1, 2), enc.counts(["b", "d", "a"]).reshape(-1, 2)])
    np.testing.assert_array_equal(enc.extension_counts("a", ["b"], ["c", "d"]), tables)
    with pytest.raises(ValueError, match="Unknown variable"):
        enc.extension_counts("a", ["b"], ["c", "zz"])
    with pytest.raises(ValueError, match="repeated"):
        enc.extension_counts("a", ["b"], ["c", "b"])
    with pytest.raises(ValueError, match="repeated"):
        enc.extension_counts("a", ["b"], ["a"])
    with pytest.raises(ValueError, match="max_cells"):  # (b, d, c, a): 2 x 4 x 3 x 2 = 48 cells
        enc.extension_counts("a", ["b", "d"], ["c"])
