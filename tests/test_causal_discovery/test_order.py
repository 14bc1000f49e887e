"""Column-order invariance helpers: canonical order, and results shown in the data's column order."""

import pandas as pd

from pgmpy_sgm.causal_discovery._order import canonical_order, reorder_edges, reorder_posterior, reorder_strata


def test_canonical_order_sorts_mixed_names_stably():
    assert canonical_order(["b", 1, "a", "1"]) == [1, "1", "a", "b"]
    assert canonical_order(["x10", "x2", "x1"]) == ["x1", "x10", "x2"]


def test_reorder_edges_and_strata_follow_the_given_order():
    position = {"c": 0, "a": 1, "b": 2}
    assert reorder_edges([("a", "b"), ("b", "c"), ("a", "c")], position) == (("c", "a"), ("c", "b"), ("a", "b"))
    strata = {("a", "b"): [{"c": "y"}, {"c": "x"}], ("c", "b"): [{"a": 0}]}
    got = reorder_strata(strata, position, {"c": ("x", "y"), "a": (0, 1)})
    assert list(got) == [("c", "b"), ("a", "b")]
    assert got[("a", "b")] == [{"c": "x"}, {"c": "y"}]


def test_reorder_posterior_keeps_rows_and_missing_strata():
    frame = pd.DataFrame({"edges": [(("a", "b"),), ()], "strata": [{}, None], "log_posterior": [-1.0, -2.0]})
    out = reorder_posterior(frame, ["b", "a"], {})
    assert out["edges"].tolist() == [(("b", "a"),), ()]
    assert out["strata"].tolist() == [{}, None]
    assert out["log_posterior"].tolist() == [-1.0, -2.0]


def test_reorder_posterior_rows_equal_reorder_edges_and_share_each_edge():
    rows = [(("a", "b"), ("a", "c")), (("a", "c"), ("b", "c")), (("a", "b"),)]
    frame = pd.DataFrame({"edges": pd.Series(rows, dtype=object), "strata": [None] * 3})
    position = {"c": 0, "b": 1, "a": 2}
    out = reorder_posterior(frame, ["c", "b", "a"], {})
    assert out["edges"].tolist() == [reorder_edges(edges, position) for edges in rows]
    first, second, third = out["edges"]
    assert first[1] is third[0]  # ("b", "a") is one tuple in both rows
    assert first[0] is second[1]  # ("c", "a") likewise
