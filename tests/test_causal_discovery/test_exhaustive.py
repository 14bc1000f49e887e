"""Exact posterior over all decomposable stratified graphs (paper Section 5, DESIGN section 3)."""

from itertools import combinations

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore, load_heart_disease
from pgmpy_sgm.causal_discovery import exhaustive_posterior


@pytest.fixture(scope="module")
def heart_posterior():
    return exhaustive_posterior(load_heart_disease(as_counts=True), weights="count")


def test_heart_top_two(heart_posterior, heart_paper):
    post = heart_posterior
    assert len(post) == 18154  # labelled chordal graphs on 6 nodes
    assert list(post.columns) == ["edges", "strata", "log_posterior", "probability", "n_edges", "n_labels"]
    first, second = post.iloc[0], post.iloc[1]
    assert first["log_posterior"] == pytest.approx(-6715.90, abs=0.005)
    assert {frozenset(e) for e in first["edges"]} == heart_paper.best_edges
    assert first["strata"] == heart_paper.best_strata
    assert first["n_labels"] == 2
    assert second["log_posterior"] == pytest.approx(-6716.66, abs=0.005)
    assert {frozenset(e) for e in second["edges"]} == heart_paper.second_edges
    assert second["strata"] == heart_paper.second_strata
    assert post["probability"].sum() == pytest.approx(1.0)
    assert post["log_posterior"].is_monotonic_decreasing
    ratio = post["probability"].iloc[0] / post["probability"].iloc[1]
    assert ratio == pytest.approx(np.exp(first["log_posterior"] - second["log_posterior"]))


def test_strata_rows_match_optimal_strata(heart_posterior):
    scorer = SGMScore(load_heart_disease(as_counts=True), weights="count")
    rows = list(range(40)) + list(range(0, len(heart_posterior), 997))
    for r in rows:
        row = heart_posterior.iloc[r]
        sg = scorer.optimal_strata(list(row["edges"]))
        assert row["strata"] == sg.strata
        assert row["n_labels"] == sg.n_labels()
        assert row["n_edges"] == sg.number_of_edges()
        assert row["log_posterior"] == pytest.approx(scorer.score(sg), abs=1e-9, rel=0)


def test_heart_without_strata(heart_paper):
    post = exhaustive_posterior(load_heart_disease(as_counts=True), weights="count", strata=False)
    assert post["log_posterior"].iloc[0] == pytest.approx(-6720.18, abs=0.005)
    assert {frozenset(e) for e in post["edges"].iloc[0]} == heart_paper.best_edges
    assert (post["n_labels"] == 0).all()


def test_brute_force_small_ternary():
    """Independent enumeration with networkx: every graph, chordal ones scored by SGMScore."""
    rng = np.random.default_rng(7)
    n = 300
    a = rng.integers(0, 3, n)
    b = np.where(a == 2, rng.integers(0, 2, n), a % 2)
    c = (b + (rng.random(n) < 0.3)) % 2
    d = np.where(c == 1, a, rng.integers(0, 3, n))
    data = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    scorer = SGMScore(data)
    names = list(data.columns)
    pairs = list(combinations(names, 2))
    expected = {}
    for mask in range(1 << len(pairs)):
        edges = [pairs[p] for p in range(len(pairs)) if mask >> p & 1]
        g = nx.Graph(edges)
        g.add_nodes_from(names)
        if nx.is_chordal(g):
            expected[frozenset(frozenset(e) for e in edges)] = scorer.score(scorer.optimal_strata(edges))
    post = exhaustive_posterior(data)
    got = {frozenset(frozenset(e) for e in row): s for row, s in zip(post["edges"], post["log_posterior"], strict=True)}
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-9, rel=0)
    log_post = np.array(list(expected.values()))
    prob = np.exp(log_post - log_post.max())
    assert post["probability"].iloc[0] == pytest.approx(prob.max() / prob.sum())


def test_too_many_variables():
    data = pd.DataFrame(np.zeros((3, 7), dtype=int), columns=[f"x{i}" for i in range(7)])
    with pytest.raises(ValueError, match="Got: 7"):
        exhaustive_posterior(data)
    with pytest.raises(ValueError, match="max_variables"):
        exhaustive_posterior(data, max_variables=0)


def test_column_order_does_not_change_the_posterior(heart_posterior):
    data = load_heart_disease(as_counts=True)
    permuted = exhaustive_posterior(data[list(data.columns)[::-1]], weights="count", show_progress=False)
    assert permuted["log_posterior"].tolist() == heart_posterior["log_posterior"].tolist()
    edges = [set(map(frozenset, e)) for e in heart_posterior["edges"]]
    assert [set(map(frozenset, e)) for e in permuted["edges"]] == edges


def test_progress_bar_follows_pgmpy_show_progress(capsys):
    data = pd.DataFrame({"a": [0, 1, 1, 0], "b": [0, 1, 0, 0], "c": [1, 1, 0, 0]})
    exhaustive_posterior(data, show_progress=True)
    assert "exhaustive_posterior" in capsys.readouterr().err
    exhaustive_posterior(data, show_progress=False)
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError, match="show_progress"):
        exhaustive_posterior(data, show_progress="yes")
