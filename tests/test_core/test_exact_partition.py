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
