"""Candidate screening of LDAGSearch: pairwise gains counted in chunks of rows, and the screen widened given a DAG."""

import itertools

import numpy as np
import pandas as pd
import pytest
from pgmpy.structure_score import BDeu

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.causal_discovery._candidates import conditional_gains, pairwise_gains, widened_candidates
from pgmpy_sgm.causal_discovery._dag_moves import mask_fits
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.structure_score import LDAGScore


def _mixed(n=400, seed=0):
    """Five variables of 2-4 states, the last a noisy function of two others."""
    rng = np.random.default_rng(seed)
    cols = {"a": rng.integers(0, 3, n), "b": rng.integers(0, 2, n), "c": rng.integers(0, 4, n),
            "d": rng.integers(0, 2, n)}
    cols["e"] = np.where(rng.random(n) < 0.8, (cols["a"] + cols["b"]) % 3, rng.integers(0, 3, n))
    return pd.DataFrame(cols)


@pytest.mark.parametrize(("parents", "ess"), [([], 5.0), (["a"], 5.0), (["a", "c"], 1.0), (["b", "d"], 10.0)])
def test_conditional_gains_are_differences_of_pgmpys_bdeu_terms(parents, ess):
    df = _mixed()
    others = [v for v in df.columns if v not in parents and v != "e"]
    gains = conditional_gains(EncodedData(df), "e", parents, others, ess)
    bdeu = BDeu(df, equivalent_sample_size=ess)
    expected = [bdeu.local_score("e", tuple(parents) + (x,)) - bdeu.local_score("e", tuple(parents)) for x in others]
    np.testing.assert_allclose(gains, expected, rtol=0, atol=1e-9)


def test_conditional_gains_in_chunks_equal_those_in_one_pass(monkeypatch):
    import pgmpy_sgm.causal_discovery._candidates as module

    df = _mixed()
    whole = conditional_gains(EncodedData(df), "e", ["a"], ["b", "c", "d"], 5.0)
    monkeypatch.setattr(module, "EXTENSION_CELLS", 1)  # one candidate per pass
    np.testing.assert_array_equal(conditional_gains(EncodedData(df), "e", ["a"], ["b", "c", "d"], 5.0), whole)


def test_widening_adds_exactly_the_pairs_whose_term_gains_given_the_parents():
    df = _mixed(600, 1)
    score = LDAGScore(df)
    names = score.variables
    d = len(names)
    parents = [0] * d
    parents[names.index("e")] = 1 << names.index("a")  # the DAG a -> e
    candidates = [0] * d  # nothing screened in yet
    widened, added = widened_candidates(score, parents, candidates, mask_fits(score, names))
    bdeu = BDeu(df, equivalent_sample_size=score.equivalent_sample_size)
    expected = [0] * d
    for y, child in enumerate(names):
        mine = tuple(names[p] for p in range(d) if parents[y] >> p & 1)
        for x, other in enumerate(names):
            if x != y and not parents[y] >> x & 1:
                if bdeu.local_score(child, mine + (other,)) - bdeu.local_score(child, mine) > 0:
                    expected[y] |= 1 << x
                    expected[x] |= 1 << y
    assert widened == expected and added > 0
    assert widened[names.index("e")] >> names.index("b") & 1  # b matters to e beside a


def test_widening_again_screens_only_the_nodes_whose_parents_changed():
    rng = np.random.default_rng(2)
    cols = {v: rng.integers(0, 2, 2000) for v in ("a", "b", "c", "g")}
    cols["f"] = cols["a"] ^ cols["b"] ^ cols["c"] ^ (rng.random(2000) < 0.05)  # c matters to f beside a and b
    score = LDAGScore(pd.DataFrame(cols))
    names = score.variables
    fits = mask_fits(score, names)
    index = {v: i for i, v in enumerate(names)}
    parents = [0] * len(names)
    parents[index["f"]] = 1 << index["a"]
    first, _ = widened_candidates(score, parents, [0] * len(names), fits)
    assert not first[index["f"]] >> index["c"] & 1  # given a alone, c does not help f
    moved = list(parents)
    moved[index["f"]] |= 1 << index["b"]  # a climb gave f the parent b as well
    everywhere, added_everywhere = widened_candidates(score, moved, first, fits)
    changed, added_changed = widened_candidates(score, moved, first, fits, nodes=[index["f"]])
    assert changed == everywhere and added_changed == added_everywhere > 0
    assert changed[index["f"]] >> index["c"] & 1
    assert widened_candidates(score, parents, first, fits) == (first, 0)  # unchanged parents: nothing joins


def test_widening_stops_screening_when_out_of_time():
    df = _mixed(600, 1)
    score = LDAGScore(df)
    names = score.variables
    fits = mask_fits(score, names)
    parents = [0] * len(names)
    parents[names.index("e")] = 1 << names.index("a")
    asked = []

    def out_of_time():
        asked.append(1)
        return len(asked) > 2  # two nodes screened, then the budget is spent

    partial = widened_candidates(score, parents, [0] * len(names), fits, out_of_time=out_of_time)
    assert len(asked) == 3
    assert partial == widened_candidates(score, parents, [0] * len(names), fits, nodes=[0, 1])  # the first two


def _copies(n=3000, seed=0):
    """y = x0 XOR x1 (x1 biased, so y and x1 are independent in pairs), with 33 noisy copies each of x1 and y.

    Past 64 variables the pairs are screened: the copies crowd x1 and y out of each other's partners.
    """
    rng = np.random.default_rng(seed)
    x0, x1 = rng.integers(0, 2, n), (rng.random(n) < 0.8).astype(int)
    cols = {"x0": x0, "x1": x1, "y": x0 ^ x1 ^ (rng.random(n) < 0.05)}
    for i in range(33):
        cols[f"c{i:02d}"] = x1 ^ (rng.random(n) < 0.1)
        cols[f"d{i:02d}"] = cols["y"] ^ (rng.random(n) < 0.1)
    return pd.DataFrame(cols)


def test_a_parent_that_matters_only_beside_another_is_found_by_widening():
    df = _copies()
    settings = {"n_restarts": 0, "seed": 0, "show_progress": False}
    narrow = LDAGSearch(widen_candidates=False, **settings).fit(df)
    wide = LDAGSearch(**settings).fit(df)
    assert narrow.n_candidates_added_ == 0 and "widened" not in narrow.climb_starts_
    assert wide.n_candidates_added_ > 0 and "widened" in wide.climb_starts_
    assert wide.best_score_ > narrow.best_score_ + 100
    # the widened search's DAG is scored as the score scores it
    assert wide.best_score_ == pytest.approx(wide.scorer_.score(wide.causal_graph_), abs=1e-6)


def test_widening_stops_at_the_deadline():
    df = _copies(500)
    est = LDAGSearch(n_restarts=0, seed=0, show_progress=False, max_time=1e-9).fit(df)
    assert est.n_candidates_added_ == 0 and "widened" not in est.climb_starts_


def test_widen_candidates_must_be_a_bool():
    with pytest.raises(TypeError, match="widen_candidates must be a bool"):
        LDAGSearch(widen_candidates=1).fit(_mixed())


def test_wide_data_start_from_the_equivalence_search_alone_unless_told_otherwise():
    df = _copies(500)
    settings = {"n_restarts": 0, "seed": 0, "show_progress": False, "parent_swaps": False}
    auto = LDAGSearch(widen_candidates=False, **settings).fit(df)
    empty = LDAGSearch(start="empty", widen_candidates=False, **settings).fit(df)
    assert auto.climb_starts_ == ["ges"] and empty.climb_starts_ == ["empty"]
    # up to 64 variables "auto" still climbs from both
    assert LDAGSearch(**settings).fit(df.iloc[:, :20]).climb_starts_[:2] == ["ges", "empty"]


def test_screened_climbs_label_fewer_families_than_unscreened_ones():
    df = _copies(1000)
    settings = {"n_restarts": 0, "seed": 0, "show_progress": False}
    screened = LDAGSearch(**settings).fit(df)
    every = LDAGSearch(screen_moves=False, **settings).fit(df)
    assert screened.scorer_.n_families_labelled < every.scorer_.n_families_labelled
    # the screen leaves out moves, never mis-scores a DAG: each result is its DAG's score
    for est in (screened, every):
        assert est.best_score_ == pytest.approx(est.scorer_.score(est.causal_graph_), abs=1e-6)


def test_screen_moves_must_be_a_bool():
    with pytest.raises(TypeError, match="screen_moves must be a bool"):
        LDAGSearch(screen_moves="yes").fit(_mixed())


def _weighted_bdeu(codes, weights, cards, child, parent, ess):
    """BDeu term of ``child`` (with ``parent`` or alone) from a table counted with ``np.add.at``."""
    from scipy.special import gammaln

    q = 1 if parent is None else cards[parent]
    r = cards[child]
    table = np.zeros((q, r))
    np.add.at(table, (0 if parent is None else codes[:, parent], codes[:, child]), weights)
    a_j, a_jk = ess / q, ess / (q * r)
    return float(np.sum(gammaln(a_j) - gammaln(a_j + table.sum(axis=1)))
                 + np.sum(gammaln(a_jk + table) - gammaln(a_jk)))  # fmt: skip


@pytest.mark.parametrize(("chunk_cells", "block_cells"), [(1, 1), (7, 40), (2**22, 2**24)])
def test_pairwise_gains_with_fractional_weights_in_any_chunks(chunk_cells, block_cells, monkeypatch):
    from pgmpy_sgm.core._pair_terms import weighted_cross_product

    rng = np.random.default_rng(4)
    cards = [2, 3, 4, 2]
    codes = np.column_stack([rng.integers(0, k, 50) for k in cards])
    weights = rng.random(50) * 3  # expected counts, as EM's completed tables have
    monkeypatch.setattr(weighted_cross_product, "__defaults__", (0, None, chunk_cells))
    gains = pairwise_gains(codes, cards, weights, 2.0, block_cells=block_cells)
    for x, y in itertools.permutations(range(4), 2):
        alone = _weighted_bdeu(codes, weights, cards, y, None, 2.0)
        expected = _weighted_bdeu(codes, weights, cards, y, x, 2.0) - alone
        assert gains[x, y] == pytest.approx(expected, rel=1e-12, abs=1e-9)
