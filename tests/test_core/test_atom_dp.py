"""The exact atom sub-problem (pgmpy_sgm.core._atom_dp) against brute force on a 2 x 2 space."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pgmpy_sgm.core._atom_dp import atom_blocks, atom_problem, best_atom_partition
from pgmpy_sgm.core._label_search import PartitionSpace

# configurations of two binary parents in C order: 0 = (0, 0), 1 = (0, 1), 2 = (1, 0), 3 = (1, 1);
# the lines of a 2 x 2 space join configurations differing in one parent
_LINES = [{0, 1}, {2, 3}, {0, 2}, {1, 3}]


def _connected(block: set) -> bool:
    reached, frontier = set(), [min(block)]
    while frontier:
        c = frontier.pop()
        reached.add(c)
        frontier += [d for ln in _LINES if c in ln and ln <= block for d in ln if d not in reached]
    return reached == block


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


def test_single_configurations_as_atoms_give_every_connected_union():
    space = PartitionSpace((2, 2), (False, False))
    counts = np.array([[3.0, 1.0], [0.0, 4.0], [2.0, 2.0], [5.0, 0.0]])
    valid, _, weight = atom_blocks(4, *atom_problem(4, np.arange(4), counts, *space.line_arrays()))
    for u in range(1, 16):
        block = {c for c in range(4) if u >> c & 1}
        assert bool(valid[u]) == _connected(block), block
        if valid[u]:
            assert weight[u] == pytest.approx(_weight(counts, block), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_best_partition_matches_brute_force_without_regularity(seed):
    space = PartitionSpace((2, 2), (False, False))
    counts = np.random.default_rng(seed).integers(0, 30, size=(4, 2)).astype(float)
    groups, value = best_atom_partition(space, counts, [1, 2, 4, 8], 0, 1e-12)
    best = max(
        sum(_weight(counts, b) for b in p) for p in _partitions([0, 1, 2, 3]) if all(_connected(b) for b in p)
    )
    assert value == pytest.approx(best, rel=1e-12)
    assert sorted(c for g in groups for c in range(4) if g >> c & 1) == [0, 1, 2, 3]
