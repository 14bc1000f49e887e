"""Every pair's term at once equals the pair's own table scored one by one, bit for bit; the cross-product in chunks."""

import itertools

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core._pair_terms import MAX_TOTAL_STATES, pair_set_terms, weighted_cross_product
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.lines import dirichlet_log_ml


def random_frame(seed: int, n_rows: int, cards: list[int]) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    columns = {}
    for v, card in enumerate(cards):
        base = rng.integers(0, card, n_rows)
        if v and rng.random() < 0.7:  # some dependence on the previous column
            base = np.where(rng.random(n_rows) < 0.6, columns[f"v{v - 1}"] % card, base)
        columns[f"v{v}"] = base
    return pd.DataFrame(columns)


@pytest.mark.parametrize("cards", [[2] * 9, [2, 3, 4, 2, 5, 3, 2, 6], [7, 1, 3]])
@pytest.mark.parametrize("weights", ["none", "counts"])
def test_equal_to_each_pair_counted_alone(cards, weights):
    frame = random_frame(len(cards), 3000, cards)
    if weights == "counts":
        frame = frame.value_counts().rename("n").reset_index()
    encoded = EncodedData(frame, weights="n" if weights == "counts" else None)
    terms = pair_set_terms(encoded.codes, encoded.weights, [encoded.cardinality[v] for v in encoded.variables])
    names = encoded.variables
    assert sorted(terms) == [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    for (i, j), value in terms.items():
        table = np.zeros((encoded.cardinality[names[i]], encoded.cardinality[names[j]]))  # counted in the test
        np.add.at(table, (encoded.codes[:, i], encoded.codes[:, j]), encoded.weights)
        assert value == dirichlet_log_ml(table)  # bit for bit


def test_rows_beyond_one_block_are_all_counted():
    frame = random_frame(1, 20_000, [2, 3, 2])  # more rows than one product block
    encoded = EncodedData(frame)
    terms = pair_set_terms(encoded.codes, encoded.weights, [2, 3, 2])
    for (i, j), value in terms.items():
        assert value == dirichlet_log_ml(encoded.counts([encoded.variables[i], encoded.variables[j]]))


def test_fractional_weights_and_too_many_states_are_left_to_the_one_by_one_path():
    codes = np.array([[0, 1], [1, 0]])
    assert pair_set_terms(codes, np.array([0.5, 1.0]), [2, 2]) is None
    assert pair_set_terms(codes, np.array([1.0, 1.0]), [MAX_TOTAL_STATES, 2]) is None


def test_the_engine_primes_the_same_terms_it_would_compute():
    frame = random_frame(3, 500, [2, 3, 2, 4])
    primed, plain = ScoreEngine(EncodedData(frame)), ScoreEngine(EncodedData(frame))
    terms = primed.prime_pair_terms()
    assert terms.shape == (6,) and not terms.flags.writeable
    for p, (i, j) in enumerate(primed.pairs):
        assert terms[p] == primed.set_term(1 << i | 1 << j) == plain.set_term(1 << i | 1 << j)


def test_a_primed_engine_counts_only_what_is_not_a_pair(monkeypatch):
    frame = random_frame(4, 300, [2, 3, 2])
    primed, plain = ScoreEngine(EncodedData(frame)), ScoreEngine(EncodedData(frame))
    primed.prime_pair_terms()
    counted = []
    original = primed.encoded.counts
    monkeypatch.setattr(primed.encoded, "counts", lambda names: counted.append(names) or original(names))
    assert primed.set_term(0b011) == plain.set_term(0b011) and counted == []
    assert primed.set_term(0b111) == plain.set_term(0b111) and len(counted) == 1


def test_codes_of_another_shape_are_refused_with_the_shapes():
    with pytest.raises(ValueError, match=r"one row per weight \(2\) and one column per variable \(3\)"):
        pair_set_terms(np.zeros((2, 2), dtype=int), np.ones(2), [2, 2, 2])


@pytest.mark.parametrize("weights", [np.ones(40), np.arange(40) * 0.5, np.full(40, 2.0**20)])
def test_cross_product_rows_in_chunks_equal_the_tables_counted_directly(weights):
    rng = np.random.default_rng(5)
    cards = [3, 2, 4]
    codes = np.column_stack([rng.integers(0, k, 40) for k in cards])
    codes[3, 0] = codes[7, 2] = -1  # missing cells count nowhere
    offsets = np.concatenate([[0], np.cumsum(cards)])
    for chunk_cells in (1, 9, 10_000):
        joint = weighted_cross_product(codes, weights, offsets[:-1], int(offsets[-1]), offsets[1], offsets[3],
                                       chunk_cells=chunk_cells)  # fmt: skip
        for x, y in itertools.product((1, 2), range(3)):
            table = np.zeros((cards[x], cards[y]))
            seen = (codes[:, x] >= 0) & (codes[:, y] >= 0)
            np.add.at(table, (codes[seen, x], codes[seen, y]), weights[seen])
            block = joint[offsets[x] - offsets[1]:offsets[x + 1] - offsets[1], offsets[y]:offsets[y + 1]]
            assert np.array_equal(block, table)
