import itertools
import math

import networkx as nx
import numpy as np
import pytest

from pgmpy_sgm.core.tree_start import chow_liu_edges, chow_liu_log_probability, pairwise_available_tables


def _incomplete_codes(seed: int, n: int = 300, cards=(2, 3, 2, 3)):
    """A chain a - b - c - d with strong dependences, then 20% of cells removed (code -1)."""
    rng = np.random.default_rng(seed)
    codes = np.zeros((n, len(cards)), dtype=np.int64)
    codes[:, 0] = rng.integers(0, cards[0], n)
    for j in range(1, len(cards)):
        copy = rng.random(n) < 0.8
        codes[:, j] = np.where(copy, codes[:, j - 1] % cards[j], rng.integers(0, cards[j], n))
    codes[rng.random(codes.shape) < 0.2] = -1
    weights = rng.integers(1, 4, n).astype(float)
    return codes, weights, list(cards)


def _mutual_information(table: np.ndarray) -> float:
    """Mutual information written out cell by cell."""
    total = table.sum()
    rows, cols = table.sum(axis=1), table.sum(axis=0)
    return sum(table[a, b] / total * math.log(table[a, b] * total / (rows[a] * cols[b]))
               for a in range(table.shape[0]) for b in range(table.shape[1]) if table[a, b] > 0)  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("one_matrix", [True, False])
def test_pair_tables_count_the_rows_where_both_are_observed(seed, one_matrix, monkeypatch):
    if not one_matrix:  # as when the states are too many for one cross-product
        monkeypatch.setattr("pgmpy_sgm.core._pair_terms.MAX_TOTAL_STATES", 3)
    codes, weights, cards = _incomplete_codes(seed)
    tables = pairwise_available_tables(codes, weights, cards)
    assert sorted(tables) == [(i, j) for i in range(4) for j in range(i + 1, 4)]
    for (i, j), table in tables.items():
        expected = np.zeros((cards[i], cards[j]))
        for row, w in zip(codes, weights, strict=True):
            if row[i] >= 0 and row[j] >= 0:
                expected[row[i], row[j]] += w
        np.testing.assert_array_equal(table, expected)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_tree_maximises_the_summed_mutual_information_over_all_spanning_trees(seed):
    codes, weights, cards = _incomplete_codes(seed)
    rng = np.random.default_rng(seed)
    codes = np.where(codes >= 0, rng.permutation(codes.T).T, -1)  # shuffle columns: the chain is not the answer
    cards = [3] * 4
    tables = pairwise_available_tables(codes, weights, cards)
    mi = {pair: _mutual_information(table) for pair, table in tables.items()}
    trees = [t for t in itertools.combinations(mi, 3) if nx.is_tree(nx.Graph(list(t)))]
    assert len(trees) == 16  # Cayley: 4^(4-2)
    best = max(trees, key=lambda t: sum(mi[e] for e in t))
    edges = chow_liu_edges(tables, 4)
    assert {frozenset(e) for e in edges} == {frozenset(e) for e in best}
    seen = {0}
    for parent, child in edges:  # directed away from the root, parents first
        assert parent in seen and child not in seen
        seen.add(child)


def test_the_tree_model_is_its_smoothed_pair_tables_and_sums_to_one():
    codes, weights, cards = _incomplete_codes(3)
    log_p = chow_liu_log_probability(codes, weights, cards, ess=2.0)
    every_row = np.array(list(itertools.product(*(range(c) for c in cards))))
    assert np.exp(log_p(every_row)).sum() == pytest.approx(1.0, abs=1e-12)
    tables = pairwise_available_tables(codes, weights, cards)
    root = np.array([weights[codes[:, 0] == s].sum() for s in range(cards[0])]) + 2.0 / cards[0]
    for row in every_row[::5]:
        expected = math.log(root[row[0]] / root.sum())
        for parent, child in chow_liu_edges(tables, 4):
            pair = tables[min(parent, child), max(parent, child)]
            pair = pair if parent < child else pair.T
            cell = pair[row[parent], row[child]] + 2.0 / (cards[parent] * cards[child])
            expected += math.log(cell / (pair[row[parent]].sum() + 2.0 / cards[parent]))
        assert log_p(row[None, :])[0] == pytest.approx(expected, abs=1e-12)
    assert sorted(log_p.scopes) == sorted([(0,)] + chow_liu_edges(tables, 4))


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="one row per weight"):
        pairwise_available_tables(np.zeros((3, 2), dtype=int), np.ones(2), [2, 2])
    with pytest.raises(ValueError, match="at least one variable"):
        chow_liu_log_probability(np.zeros((3, 0), dtype=int), np.ones(3), [])
    with pytest.raises(ValueError, match="ess must be"):
        chow_liu_log_probability(np.zeros((3, 2), dtype=int), np.ones(3), [2, 2], ess=float("nan"))
