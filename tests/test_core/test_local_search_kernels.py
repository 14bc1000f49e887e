"""The compiled local search over partitions against the Python search it follows."""

import numpy as np
import pytest

from pgmpy_sgm.core._label_search import _detach_moves, _merge_moves, _split_moves, local_search
from pgmpy_sgm.core._local_search_kernels import compiled_local_search, mask_weights
from pgmpy_sgm.core.bdeu_groups import CachedBlockWeights, _one_class_weight, _weights
from pgmpy_sgm.core.optimize import partition_space


def _python_weights(counts, a, log_kappa):
    return CachedBlockWeights(counts, lambda pooled, lam: _weights(pooled, lam, a, log_kappa),
                              lambda pooled, size: _one_class_weight(pooled, size, a, log_kappa))


def _random_case(rng, with_forbidden: bool):
    n_parents = int(rng.integers(2, 5))
    cards = tuple(int(k) for k in rng.integers(2, 4, n_parents))
    while np.prod(cards) > 64:
        cards = cards[:-1]
    q, r = int(np.prod(cards)), int(rng.integers(2, 4))
    protos = rng.dirichlet(np.ones(r), size=3)  # few distinct distributions: classes worth finding
    counts = np.array([rng.multinomial(int(rng.integers(1, 50)), protos[rng.integers(3)]) for _ in range(q)], float)
    forbidden = tuple(bool(f) for f in rng.random(len(cards)) < 0.3) if with_forbidden else (False,) * len(cards)
    return partition_space(cards, forbidden), counts


def _is_regular_partition(space, blocks) -> bool:
    union = 0
    for b in blocks:
        if union & b:
            return False
        union |= b
    return union == (1 << space.n_configs) - 1 and space.regular(blocks) and all(map(space.allowed_block, blocks))


@pytest.mark.parametrize("with_forbidden", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_the_compiled_search_ends_where_the_python_search_ends(seed, with_forbidden):
    rng = np.random.default_rng(seed)
    for _ in range(15):
        space, counts = _random_case(rng, with_forbidden)
        a, log_kappa = float(rng.choice([1.0, 0.05])), float(rng.choice([0.0, -0.7]))
        weights = _python_weights(counts, a, log_kappa)
        expected = sorted(local_search(space, weights))
        found = compiled_local_search(space, counts, a, log_kappa)
        assert found == expected
        assert _is_regular_partition(space, found)


@pytest.mark.parametrize("seed", range(3))
def test_no_move_of_the_neighbourhood_improves_the_result(seed):
    """Zero counts make equal gains, where either search may take either move: the end is still a local optimum."""
    rng = np.random.default_rng(seed)
    space = partition_space((2, 3, 2), (False, True, False))
    counts = rng.poisson(0.4, size=(12, 3)).astype(float)
    a, log_kappa = 0.3, -0.5
    weights = _python_weights(counts, a, log_kappa)
    found = compiled_local_search(space, counts, a, log_kappa)
    value = sum(weights(b) for b in found)
    assert _is_regular_partition(space, found)
    for moves in (_merge_moves, _detach_moves, _split_moves):
        for removed, added in moves(space, found):
            candidate = [b for g, b in enumerate(found) if g not in removed] + list(added)
            if space.regular(candidate):
                assert sum(weights(b) for b in candidate) <= value + 1e-9
    assert value == pytest.approx(sum(weights(b) for b in local_search(space, weights)), abs=1e-9)


def test_more_configurations_than_the_bits_of_a_word_are_searched_as_in_python():
    rng = np.random.default_rng(7)
    for cards, r in [((2,) * 6, 2), ((9, 9), 3), ((5, 4, 4), 2)]:
        q = int(np.prod(cards))
        protos = rng.dirichlet(np.ones(r), size=4)
        counts = np.array([rng.multinomial(int(rng.integers(1, 30)), protos[rng.integers(4)]) for _ in range(q)],
                          dtype=float)
        space = partition_space(cards, (False,) * len(cards))
        found = compiled_local_search(space, counts, 0.05, -1.0)
        assert found == sorted(local_search(space, _python_weights(counts, 0.05, -1.0)))
        assert _is_regular_partition(space, found)
        assert max(found).bit_length() == q  # the block of the last configuration is last


def test_a_given_start_is_searched_from():
    space = partition_space((2, 2, 2), (False,) * 3)
    counts = np.array([[30, 1], [29, 2], [1, 30], [2, 29], [30, 1], [29, 2], [1, 30], [15, 15]], float)
    start = [0b00110011, 0b11001100]
    weights = _python_weights(counts, 1.0, 0.0)
    assert compiled_local_search(space, counts, 1.0, start=start) == sorted(local_search(space, weights, start))


@pytest.mark.parametrize("start, held", [([0b0011, 0b0100], "3 configurations, 3 distinct"),
                                         ([0b0011, 0b0110, 0b1000], "5 configurations, 4 distinct"),
                                         ([0b0011, 0b11100], "5 configurations, 5 distinct")])
def test_a_start_that_is_not_a_partition_is_refused(start, held):
    space = partition_space((2, 2), (False, False))
    with pytest.raises(ValueError, match=f"start must partition the 4 configurations.*hold {held}"):
        compiled_local_search(space, np.ones((4, 2)), 1.0, start=start)


@pytest.mark.parametrize("counts, a, match", [(np.ones((3, 2)), 1.0, "4 rows"), (np.ones(4), 1.0, "shape"),
                                              (-np.ones((4, 2)), 1.0, "non-negative"),
                                              (np.ones((4, 2)), 0.0, "a must")])
def test_bad_counts_are_refused(counts, a, match):
    space = partition_space((2, 2), (False, False))
    with pytest.raises(ValueError, match=match):
        compiled_local_search(space, counts, a)
    if counts.ndim == 2 and counts.shape[0] == 4:
        with pytest.raises(ValueError, match=match):
            mask_weights(np.array([1, 3]), counts, a)


def test_a_mask_beyond_the_rows_of_counts_is_refused():
    with pytest.raises(ValueError, match="bits 0 to 3"):
        mask_weights(np.array([0b10001]), np.ones((4, 2)), 1.0)


@pytest.mark.parametrize("seed", range(3))
def test_mask_weights_are_the_class_weight_of_each_block(seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 30, size=(12, 3)) * rng.uniform(0.5, 1.5, size=(12, 3))  # fractional counts too
    masks = rng.integers(1, 1 << 12, size=40)
    a, log_kappa = float(rng.uniform(0.05, 2.0)), float(-rng.uniform(0.0, 2.0))
    expected = [_one_class_weight(counts[[c for c in range(12) if m >> c & 1]].sum(axis=0).tolist(), bin(m).count("1"),
                                  a, log_kappa) for m in masks]  # fmt: skip
    assert mask_weights(masks, counts, a, log_kappa) == pytest.approx(expected, abs=1e-9)
