"""The exact labelling search (pgmpy_sgm.core._exact_partition) against brute force on a 2 x 2 space."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pgmpy_sgm.core._exact_partition import (
    best_partition_by_block,
    exact_groups,
    exact_search_fits,
    partition_space,
)

# configurations of two binary parents in C order; lines join configurations differing in one parent,
# direction 0 (the first parent) or 1 (the second)
_LINES = [(0, {0, 2}), (0, {1, 3}), (1, {0, 1}), (1, {2, 3})]


def _valid(block: set) -> bool:
    if len(block) == 1:
        return True
    inside = [ln for _, ln in _LINES if ln <= block]
    reached = set(inside[0]) if inside else set()
    for _ in range(4):
        for ln in inside:
            if ln & reached:
                reached |= ln
    return reached == block


def _regular(partition: list) -> bool:
    # every direction has a line that is not inside one group
    return all(any(not any(ln <= b for b in partition) for d, ln in _LINES if d == e) for e in (0, 1))


def _weight(counts: np.ndarray, block: set) -> float:
    lam, k = len(block), counts.shape[1]
    n = counts[sorted(block)].sum(axis=0)
    prior = math.lgamma(k * lam) - k * math.lgamma(lam)
    return prior + sum(math.lgamma(x + lam) for x in n) - math.lgamma(n.sum() + k * lam)


def _partitions(items: list):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        yield [{first}, *part]
        for i in range(len(part)):
            yield [*part[:i], part[i] | {first}, *part[i + 1 :]]


def _brute_force_value(counts: np.ndarray) -> float:
    feasible = [p for p in _partitions([0, 1, 2, 3]) if all(_valid(b) for b in p) and _regular(p)]
    return max(sum(_weight(counts, b) for b in p) for p in feasible)


def _value(counts: np.ndarray, group_ids: np.ndarray) -> float:
    return sum(_weight(counts, set(np.flatnonzero(group_ids == g).tolist())) for g in np.unique(group_ids))


@pytest.mark.parametrize("seed", range(6))
def test_exact_groups_reach_the_brute_force_optimum(seed):
    counts = np.random.default_rng(seed).integers(0, 40, size=(4, 2)).astype(float)
    group_ids = exact_groups((2, 2), (False, False), counts)
    assert _value(counts, group_ids) == pytest.approx(_brute_force_value(counts), rel=1e-12)


def test_block_weight_hook_with_the_clique_weight_matches_exact_groups():
    counts = np.array([[30.0, 1.0], [29.0, 2.0], [1.0, 30.0], [2.0, 29.0]])

    def weight(pooled, sizes):
        k = pooled.shape[1]
        return np.array(
            [
                math.lgamma(k * s) - k * math.lgamma(s) + sum(math.lgamma(x + s) for x in row)
                - math.lgamma(row.sum() + k * s)
                for row, s in zip(pooled, sizes, strict=True)
            ]
        )

    by_block = best_partition_by_block((2, 2), (False, False), counts, weight)
    assert by_block.tolist() == exact_groups((2, 2), (False, False), counts).tolist()


def test_partition_space_is_shared_and_the_exact_bound_is_checked():
    assert partition_space((2, 2), (False, False)) is partition_space([2, 2], [0, 0])
    assert exact_search_fits((2, 2, 2, 2), (False,) * 4)
    assert not exact_search_fits((5, 5), (False, False))  # 25 configurations


def _weights_of_valid_blocks(cards, forbidden, counts):
    from pgmpy_sgm.core._exact_partition import valid_blocks
    from pgmpy_sgm.core._local_search_kernels import mask_weights

    return mask_weights(valid_blocks(cards, forbidden), counts, 1.0)


@pytest.mark.parametrize("seed", range(6))
def test_skipping_dominated_blocks_changes_no_choice(seed, monkeypatch):
    """The programme picks the same partition with and without the blocks that peeling one configuration beats."""
    from pgmpy_sgm.core import _exact_partition

    rng = np.random.default_rng(seed)
    cards = ((2, 2, 2), (2, 2, 2, 2), (3, 2, 2), (2, 3, 3))[seed % 4]
    forbidden = tuple(bool(f) for f in rng.random(len(cards)) < 0.4)
    q = math.prod(cards)
    for _ in range(10):
        protos = rng.dirichlet(np.ones(2), size=3)
        counts = np.array([rng.multinomial(int(rng.integers(0, 30)), protos[rng.integers(3)]) for _ in range(q)],
                          dtype=float)
        weights = _weights_of_valid_blocks(cards, forbidden, counts)
        pruned = _exact_partition.best_regular_partition(cards, forbidden, weights, int(counts.sum()))
        with monkeypatch.context() as patch:
            patch.setattr(_exact_partition, "dominated_blocks", lambda blocks, *_: np.zeros(blocks.size, bool))
            full = _exact_partition.best_regular_partition(cards, forbidden, weights, int(counts.sum()))
        assert pruned.tolist() == full.tolist()


def test_a_block_is_dominated_when_peeling_one_configuration_gains():
    from pgmpy_sgm.core._dp_kernels import dominated_blocks
    from pgmpy_sgm.core._exact_partition import _exact_structure, valid_blocks

    cards, forbidden = (2, 2), (False, False)
    blocks = valid_blocks(cards, forbidden)
    counts = np.array([[30.0, 1.0], [29.0, 2.0], [1.0, 30.0], [2.0, 29.0]])
    weights = _weights_of_valid_blocks(cards, forbidden, counts)
    found = dominated_blocks(blocks, weights, _exact_structure(cards, forbidden).position, 1e-9)
    weight = dict(zip(blocks.tolist(), weights.tolist(), strict=True))
    for block, flag in zip(blocks.tolist(), found.tolist(), strict=True):
        peeled = [(1 << c, block & ~(1 << c)) for c in range(4) if block >> c & 1 and block & ~(1 << c) in weight]
        expected = bin(block).count("1") > 1 and any(weight[a] + weight[b] > weight[block] + 1e-9 for a, b in peeled)
        assert flag == expected, bin(block)
    assert not found[blocks.tolist().index(0b0011)] and found[blocks.tolist().index(0b0101)]  # 0 and 1 alike, 2 not


@pytest.mark.parametrize("seed", range(6))
def test_exact_center_reaches_the_brute_force_optimum_and_values_both_partitions(seed):
    from pgmpy_sgm.core._exact_partition import exact_center

    counts = np.random.default_rng(seed).integers(0, 40, size=(4, 2)).astype(float)
    group_ids, value, unlabelled = exact_center((2, 2), (False, False), counts)
    assert value == pytest.approx(_brute_force_value(counts), rel=1e-12)
    assert value == pytest.approx(_value(counts, group_ids), rel=1e-12)
    assert unlabelled == pytest.approx(sum(_weight(counts, {c}) for c in range(4)), rel=1e-12)
    first_seen = list(dict.fromkeys(group_ids.tolist()))
    assert first_seen == list(range(len(first_seen)))  # numbered in order of first appearance


def test_exact_center_gains_exactly_nothing_when_every_configuration_stays_apart():
    from pgmpy_sgm.core._exact_partition import exact_center

    counts = np.array([[60.0, 0.0], [0.0, 60.0], [60.0, 60.0], [5.0, 90.0]])  # four different distributions
    group_ids, value, unlabelled = exact_center((2, 2), (False, False), counts)
    assert group_ids.tolist() == [0, 1, 2, 3]
    assert value == unlabelled
