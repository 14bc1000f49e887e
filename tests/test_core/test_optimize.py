"""Tests of pgmpy_sgm.core.optimize against independent enumerations written here.

The reference solvers below use neither the module under test nor pgmpy_sgm.core.lines:
configurations, lines, validity, regularity and the group weight are re-derived from
their definitions.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core.optimize import (
    CliqueLabelling,
    GroupsResult,
    optimal_clique_labelling,
    optimal_groups,
)

DATA = Path(__file__).resolve().parents[2] / "pgmpy_sgm" / "datasets" / "data" / "heart_disease_counts.csv"

# ----------------------------------------------------------------------------- independent reference


@cache
def ref_lines(cards):
    """(direction, frozenset of configs) for every line; configs are C-order flat indices."""
    configs = list(itertools.product(*[range(k) for k in cards]))
    flat = {cfg: i for i, cfg in enumerate(configs)}  # itertools.product is C order
    out = []
    for d in range(len(cards)):
        contexts = {}
        for cfg in configs:
            key = cfg[:d] + cfg[d + 1 :]
            contexts.setdefault(key, set()).add(flat[cfg])
        out.extend((d, frozenset(v)) for v in contexts.values())
    return out


def ref_feasible(cards, forbidden, blocks):
    lines = ref_lines(cards)
    for block in blocks:
        if len(block) == 1:
            continue
        inside = [(d, ln) for d, ln in lines if ln <= block]
        if any(forbidden[d] for d, _ in inside):
            return False
        # connectivity of the block through the lines inside it
        reached = {min(block)}
        grew = True
        while grew:
            grew = False
            for _, ln in inside:
                if ln & reached and not ln <= reached:
                    reached |= ln
                    grew = True
        if reached != set(block):
            return False
    for d in range(len(cards)):  # regularity
        if all(any(ln <= b for b in blocks) for dd, ln in lines if dd == d):
            return False
    return True


def set_partitions(n):
    """All partitions of range(n) (restricted growth strings)."""

    def rec(i, labels, n_blocks):
        if i == n:
            yield list(labels)
            return
        for b in range(n_blocks + 1):
            labels.append(b)
            yield from rec(i + 1, labels, max(n_blocks, b + 1))
            labels.pop()

    for labels in rec(0, [], 0):
        yield [frozenset(i for i, x in enumerate(labels) if x == b) for b in range(max(labels) + 1)]


@cache
def ref_feasible_partitions(cards, forbidden):
    n = math.prod(cards)
    return [p for p in set_partitions(n) if ref_feasible(cards, forbidden, p)]


def ref_weight(counts2d, block):
    """w(B) = lgamma(k lam) - lgamma(n_B + k lam) + sum_i [lgamma(n_iB + lam) - lgamma(lam)]."""
    k = counts2d.shape[1]
    lam = len(block)
    n_ib = [sum(counts2d[c, i] for c in block) for i in range(k)]
    n_b = sum(n_ib)
    return (
        math.lgamma(k * lam) - math.lgamma(n_b + k * lam) + sum(math.lgamma(x + lam) - math.lgamma(lam) for x in n_ib)
    )


def ref_best(counts2d, cards, forbidden):
    cache = {}

    def w(block):
        if block not in cache:
            cache[block] = ref_weight(counts2d, block)
        return cache[block]

    return max(sum(w(b) for b in p) for p in ref_feasible_partitions(cards, forbidden))


def ref_most_groups_near_best(counts2d, cards, forbidden, best, tol=1e-9):
    """Largest number of groups among feasible partitions within tol of the best value."""
    values = [(sum(ref_weight(counts2d, b) for b in p), len(p)) for p in ref_feasible_partitions(cards, forbidden)]
    return max(n for v, n in values if v >= best - tol)


def blocks_of(group_ids):
    return [frozenset(np.flatnonzero(group_ids == g).tolist()) for g in np.unique(group_ids)]


# ----------------------------------------------------------------------------- random tables


def random_table(rng, n_configs, k, kind):
    if kind == "dense":
        return rng.multinomial(int(rng.integers(200, 5000)), rng.dirichlet(np.ones(n_configs * k))).reshape(-1, k)
    if kind == "sparse":
        return rng.multinomial(int(rng.integers(3, 30)), rng.dirichlet(np.ones(n_configs * k))).reshape(-1, k)
    if kind == "zeros":
        table = rng.integers(0, 40, size=(n_configs, k))
        table[rng.random(n_configs) < 0.5] = 0  # empty cells
        return table * (rng.random((n_configs, k)) < 0.7)
    if kind == "allzero":
        return np.zeros((n_configs, k), dtype=int)
    if kind == "huge":
        table = rng.integers(0, 4, size=(n_configs, k))
        table[rng.integers(n_configs), rng.integers(k)] = 100_000
        return table
    if kind == "sg":
        return sg_table(rng, n_configs, k)
    raise AssertionError(kind)


def sg_table(rng, n_configs, k, n=None):
    """Counts from a random SG-like conditional: random merges of configurations differing in one bit."""
    m = int(round(math.log2(n_configs)))
    group = list(range(n_configs))
    for c in range(n_configs):
        for d in range(m):
            other = c ^ (1 << d)
            if rng.random() < 0.35:
                a, b = group[c], group[other]
                group = [a if g == b else g for g in group]
    probs = {g: rng.dirichlet(np.ones(k)) for g in set(group)}
    n = int(rng.integers(200, 5001)) if n is None else n
    parent_counts = rng.multinomial(n, rng.dirichlet(np.ones(n_configs)))
    return np.array([rng.multinomial(parent_counts[c], probs[group[c]]) for c in range(n_configs)])


KINDS = ["dense", "sparse", "zeros", "allzero", "huge", "sg"]


def check_result(res, counts, cards, forbidden):
    assert isinstance(res, GroupsResult)
    flags = tuple(forbidden) if forbidden is not None else (False,) * len(cards)
    blocks = blocks_of(res.group_ids)
    assert ref_feasible(cards, flags, blocks)
    assert res.value == pytest.approx(sum(ref_weight(counts, b) for b in blocks), abs=1e-9, rel=1e-12)
    first_seen = list(dict.fromkeys(res.group_ids.tolist()))
    assert first_seen == list(range(len(first_seen)))  # canonical numbering


# ----------------------------------------------------------------------------- exact vs brute force

BINARY_CASES = [
    ((2, 2), (False, False)),
    ((2, 2), (True, False)),
    ((2, 2), (False, True)),
    ((2, 2, 2), (False, False, False)),
    ((2, 2, 2), (True, False, False)),
    ((2, 2, 2), (False, True, True)),
]


@pytest.mark.parametrize("cards,forbidden", BINARY_CASES)
def test_exact_matches_brute_force_binary(cards, forbidden):
    rng = np.random.default_rng(abs(hash((cards, forbidden))) % 2**32)
    n_configs = math.prod(cards)
    n_tables = 60 if len(cards) == 3 else 30
    for t in range(n_tables):
        counts = random_table(rng, n_configs, 2, KINDS[t % len(KINDS)])
        res = optimal_groups(counts, cards, forbidden=list(forbidden))
        assert res.exact and res.method == "exact"
        check_result(res, counts, cards, forbidden)
        assert res.value == pytest.approx(ref_best(counts, cards, forbidden), abs=1e-9, rel=1e-12)


@pytest.mark.parametrize(
    "cards,k,forbidden",
    [((3, 3), 3, (False, False)), ((3, 3), 3, (True, False)), ((2, 3), 3, (False, False)), ((3, 2), 2, (False, True))],
)
def test_exact_matches_brute_force_categorical(cards, k, forbidden):
    rng = np.random.default_rng(7)
    n_configs = math.prod(cards)
    for t in range(12):
        kind = ["dense", "sparse", "zeros", "huge"][t % 4]
        counts = random_table(rng, n_configs, k, kind)
        res = optimal_groups(counts, cards, forbidden=list(forbidden))
        check_result(res, counts, cards, forbidden)
        assert res.value == pytest.approx(ref_best(counts, cards, forbidden), abs=1e-9, rel=1e-12)


def test_structured_optimum_found():
    # configs 0..3 of parents (2, 2): 0 and 2 share a distribution (line in direction 0), 1 and 3 differ
    counts = np.array([[400, 100], [100, 400], [398, 102], [250, 250]])
    res = optimal_groups(counts, (2, 2))
    assert res.group_ids.tolist() == [0, 1, 0, 2]
    # forbidding direction 0 leaves singletons (no line of direction 1 is worth merging)
    assert optimal_groups(counts, (2, 2), forbidden=[0]).group_ids.tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("cards", [(2, 2), (2, 2, 2)])
def test_ties_prefer_more_groups(cards):
    # merging empty configurations has zero gain: among near-optimal partitions the most groups win
    rng = np.random.default_rng(17)
    n_configs = math.prod(cards)
    for _ in range(15):
        counts = random_table(rng, n_configs, 2, "zeros")
        forbidden = (False,) * len(cards)
        res = optimal_groups(counts, cards)
        best = ref_best(counts, cards, forbidden)
        assert res.group_ids.max() + 1 == ref_most_groups_near_best(counts, cards, forbidden, best)
    res = optimal_groups(np.zeros((n_configs, 2)), cards)
    assert res.group_ids.tolist() == list(range(n_configs)) and res.value == 0.0


# ----------------------------------------------------------------------------- five binary variables (Q_4)


def ref_q4_optimum(counts):
    """Independent exact optimum on Q_4: all connected vertex sets enumerated by brute force over the
    2**16 subsets, then a memoised recursion on (remaining set, directions still lacking a cut line).

    Splitting off the block of the lowest remaining vertex enumerates every partition exactly once,
    so this is exhaustive search with shared sub-results (no pruning)."""
    n, m = 16, 4
    edges = [(c, c ^ (1 << d), d) for c in range(n) for d in range(m) if c < c ^ (1 << d)]
    subsets = np.arange(1 << n, dtype=np.int64)
    bit = (subsets[:, None] >> np.arange(n)) & 1
    label = np.where(bit == 1, np.arange(n), n)  # component label propagation inside each subset
    for _ in range(n):
        for a, b, _d in edges:
            both = (bit[:, a] == 1) & (bit[:, b] == 1)
            low = np.minimum(label[:, a], label[:, b])
            label[both, a] = low[both]
            label[both, b] = low[both]
    lowest = np.where(bit == 1, label, n).min(axis=1)
    connected = np.all((bit == 0) | (label == lowest[:, None]), axis=1) & (subsets > 0)
    blocks = subsets[connected]
    k = counts.shape[1]
    member = bit[connected].astype(float)
    lam = member.sum(axis=1)
    pooled = member @ counts
    from scipy.special import gammaln

    weights = (
        gammaln(k * lam)
        - gammaln(pooled.sum(axis=1) + k * lam)
        + (gammaln(pooled + lam[:, None]) - gammaln(lam)[:, None]).sum(axis=1)
    )
    cut = np.zeros(blocks.size, dtype=np.int64)  # directions with an edge leaving the block
    for a, b, d in edges:
        leaving = member[:, a] != member[:, b]
        cut |= leaving.astype(np.int64) << d
    by_low = {}
    low_vertex = np.array([(int(s) & -int(s)).bit_length() - 1 for s in blocks])
    for v in range(n):
        sel = low_vertex == v
        by_low[v] = (blocks[sel], weights[sel], cut[sel])

    memo = {}

    def best(remaining, need):
        if remaining == 0:
            return 0.0 if need == 0 else -math.inf
        key = (remaining, need)
        if key not in memo:
            v = (remaining & -remaining).bit_length() - 1
            bl, wt, ct = by_low[v]
            ok = (bl & ~remaining) == 0
            value = -math.inf
            for b, w, c in zip(bl[ok].tolist(), wt[ok].tolist(), ct[ok].tolist(), strict=True):
                value = max(value, w + best(remaining & ~b, need & ~c))
            memo[key] = value
        return memo[key]

    return best((1 << n) - 1, (1 << m) - 1)


@pytest.mark.parametrize("case", [0, 1])
def test_exact_q4_matches_independent_search(case):
    rng = np.random.default_rng(100 + case)
    counts = sg_table(rng, 16, 2, n=2000) if case == 0 else rng.multinomial(3000, np.full(32, 1 / 32)).reshape(16, 2)
    res = optimal_groups(counts, (2, 2, 2, 2))
    check_result(res, counts, (2, 2, 2, 2), None)
    assert res.value == pytest.approx(ref_q4_optimum(counts), abs=1e-9, rel=1e-12)


# ----------------------------------------------------------------------------- inexact methods


def hit_rate(method, cards, n_tables, seed, uniform_every):
    rng = np.random.default_rng(seed)
    n_configs = math.prod(cards)
    hits = 0
    for t in range(n_tables):
        if t % uniform_every == uniform_every - 1:
            counts = rng.multinomial(int(rng.integers(200, 5001)), np.full(2 * n_configs, 0.5 / n_configs))
            counts = counts.reshape(n_configs, 2)
        else:
            counts = sg_table(rng, n_configs, 2)
        exact = optimal_groups(counts, cards, method="exact")
        res = optimal_groups(counts, cards, method=method, seed=t)
        assert not res.exact and res.method == method
        check_result(res, counts, cards, None)
        hits += res.value >= exact.value - 1e-9
    return hits / n_tables


def test_mcmc_hits_exact_optimum_on_four_binary_variables():
    # dense SG tables (merge probability 0.35) with every 20th table uniform; default n_iter
    assert hit_rate("mcmc", (2, 2, 2), 100, seed=11, uniform_every=20) >= 0.95


@pytest.mark.parametrize("method,rate", [("heuristic", 0.9)])
def test_heuristic_hits_exact_optimum_on_five_binary_variables(method, rate):
    # the heuristic never solves more than half of Q_4 at once, so the exact optimum is a real check
    assert hit_rate(method, (2, 2, 2, 2), 100, seed=12, uniform_every=20) >= rate


@pytest.mark.parametrize("method", ["heuristic", "mcmc"])
def test_inexact_methods_respect_forbidden_and_regularity(method):
    rng = np.random.default_rng(5)
    n_iter = 2 if method == "heuristic" else 300
    for _ in range(5):
        counts = sg_table(rng, 8, 2)
        res = optimal_groups(counts, (2, 2, 2), forbidden=[False, True, False], method=method, n_iter=n_iter)
        check_result(res, counts, (2, 2, 2), (False, True, False))


@pytest.mark.parametrize(
    "cards,k,forbidden",
    [((2, 2, 2, 2), 2, (True, False, False, True)), ((3, 5), 3, (False, False)), ((2, 3, 2), 3, (False, True, False))],
)
def test_heuristic_with_forbidden_directions_and_categorical_parents(cards, k, forbidden):
    rng = np.random.default_rng(29)
    n_configs = math.prod(cards)
    hits = 0
    for t in range(20):
        counts = random_table(rng, n_configs, k, ["dense", "zeros", "sparse", "huge"][t % 4])
        exact = optimal_groups(counts, cards, forbidden=list(forbidden), method="exact")
        res = optimal_groups(counts, cards, forbidden=list(forbidden), method="heuristic", seed=t)
        check_result(res, counts, cards, forbidden)
        assert res.value <= exact.value + 1e-9
        hits += res.value >= exact.value - 1e-9
    assert hits >= 18


def test_heuristic_beyond_exact_size():
    rng = np.random.default_rng(3)
    counts = sg_table(rng, 32, 2, n=3000)
    res = optimal_groups(counts, (2,) * 5)
    assert res.method == "heuristic" and not res.exact
    lines = ref_lines((2,) * 5)
    blocks = blocks_of(res.group_ids)
    assert all(any(not any(ln <= b for b in blocks) for dd, ln in lines if dd == d) for d in range(5))
    singletons = sum(ref_weight(counts, [c]) for c in range(32))
    assert res.value >= singletons - 1e-9
    assert optimal_groups(counts, (2,) * 5, seed=0).group_ids.tolist() == res.group_ids.tolist()  # deterministic


# ----------------------------------------------------------------------------- bounded heuristic


def test_removed_lns_method_is_refused_by_name():
    counts = np.ones((4, 2))
    with pytest.raises(ValueError, match="method='lns'.*removed"):
        optimal_groups(counts, (2, 2), method="lns")
    with pytest.raises(ValueError, match="method='lns'.*removed"):
        optimal_clique_labelling(np.ones((2, 2, 2)), method="lns")


def random_cpt_table(rng, cards, n):
    """Counts of a clique simulated from random conditional tables of a complete DAG in index order."""
    joint = np.ones(())
    for i, k in enumerate(cards):
        cpt = rng.dirichlet(np.ones(k), size=math.prod(cards[:i])).reshape(tuple(cards[:i]) + (k,))
        joint = joint[..., None] * cpt
    return rng.multinomial(n, joint.ravel()).reshape(cards)


@pytest.mark.parametrize("k", [3, 4])
def test_heuristic_on_five_multistate_variables_is_valid_and_bounded(k):
    rng = np.random.default_rng(40 + k)
    table = random_cpt_table(rng, (k,) * 5, 5000)
    counts = np.moveaxis(table, 0, -1).reshape(-1, k)
    cards, forbidden = (k,) * 4, (False, True, False, False)
    res = optimal_groups(counts, cards, forbidden=list(forbidden))
    assert res.method == "heuristic" and not res.exact
    check_result(res, counts, cards, forbidden)
    singletons = sum(ref_weight(counts, [c]) for c in range(k**4))
    assert res.value >= singletons - 1e-9
    again = optimal_groups(counts, cards, forbidden=list(forbidden))
    assert again.group_ids.tolist() == res.group_ids.tolist()  # deterministic (work cap, not time)


@pytest.mark.parametrize(
    "cards,forbidden", [((2, 2, 2), (False, True, False)), ((3, 2), (True, False)), ((3, 2), (False, False))]
)
def test_greedy_merging_is_valid_regular_and_improves(cards, forbidden):
    from pgmpy_sgm.core._agglomerate import WorkBudget, greedy_merge
    from pgmpy_sgm.core._label_search import BlockScorer, PartitionSpace

    rng = np.random.default_rng(23)
    n_configs = math.prod(cards)
    space = PartitionSpace(cards, forbidden)
    for t in range(12):
        counts = random_table(rng, n_configs, 2, KINDS[t % (len(KINDS) - 1)])  # "sg" needs binary parents
        blocks = greedy_merge(space, BlockScorer(counts), WorkBudget(None))
        parts = [frozenset(c for c in range(n_configs) if b >> c & 1) for b in blocks]
        assert sorted(c for p in parts for c in p) == list(range(n_configs))
        assert ref_feasible(cards, forbidden, parts)
        value = sum(ref_weight(counts, p) for p in parts)
        assert value >= sum(ref_weight(counts, [c]) for c in range(n_configs)) - 1e-9
        assert value <= ref_best(counts, cards, forbidden) + 1e-9


def test_work_cap_keeps_the_best_partition_found():
    rng = np.random.default_rng(9)
    table = random_cpt_table(rng, (3,) * 5, 5000)
    counts = np.moveaxis(table, 0, -1).reshape(-1, 3)
    cards = (3, 3, 3, 3)
    results = [optimal_groups(counts, cards, max_work=w) for w in (0, 2_000, None)]
    for res in results:
        check_result(res, counts, cards, None)
    assert [r.capped for r in results] == [True, True, False]
    assert results[0].group_ids.tolist() == list(range(81))  # no work: the singletons
    singletons = sum(ref_weight(counts, [c]) for c in range(81))
    assert results[1].value >= singletons - 1e-9
    assert results[2].value >= results[1].value - 1e-9  # the uncapped run starts the same way


def test_heuristic_hits_exact_optimum_on_multistate_parents():
    # 16 configurations with 3- and 4-state parents: the exact optimum is computable
    rng = np.random.default_rng(13)
    hits = 0
    for t in range(20):
        cards = ((4, 4), (2, 2, 4), (2, 8))[t % 3]
        counts = random_cpt_table(rng, cards + (3,), int(rng.integers(300, 5000))).reshape(-1, 3)
        exact = optimal_groups(counts, cards, method="exact")
        res = optimal_groups(counts, cards, method="heuristic", seed=t)
        check_result(res, counts, cards, None)
        assert res.value <= exact.value + 1e-9
        hits += res.value >= exact.value - 1e-9
    assert hits >= 18


# ----------------------------------------------------------------------------- one-state variables


@pytest.mark.parametrize("method", ["exact", "heuristic"])
def test_one_state_parents_are_dropped(method):
    # configurations of parents (2, 1, 2) are those of (2, 2) in the same flat order
    rng = np.random.default_rng(31)
    for t in range(12):
        counts = random_table(rng, 4, 3, KINDS[t % len(KINDS)])
        for forbidden in ((False, False), (True, False)):
            res = optimal_groups(counts, (2, 1, 2), forbidden=[forbidden[0], t % 2 == 0, forbidden[1]], method=method)
            check_result(res, counts, (2, 2), forbidden)
            best = ref_best(counts, (2, 2), forbidden)
            assert res.value <= best + 1e-9
            if method == "exact":
                assert res.exact and res.value == pytest.approx(best, abs=1e-9, rel=1e-12)
    only = optimal_groups(np.array([[3.0, 4.0]]), (1, 1))
    assert only.group_ids.tolist() == [0] and only.exact


def test_one_state_center_has_nothing_to_label():
    counts = np.array([[5.0], [0.0], [7.0], [1.0]])
    res = optimal_groups(counts, (2, 2))
    assert res.exact and res.group_ids.tolist() == [0, 1, 2, 3]
    # every partition has the value 0 when the center has one state
    assert res.value == pytest.approx(0.0, abs=1e-12)
    assert ref_weight(counts, [0, 1]) + ref_weight(counts, [2, 3]) == pytest.approx(0.0, abs=1e-9)


def test_clique_with_a_constant_variable_matches_the_clique_without_it():
    rng = np.random.default_rng(17)
    for _ in range(6):
        table = sg_table(rng, 4, 2).reshape(2, 2, 2)
        with_constant = optimal_clique_labelling(table[:, :, None, :], forbidden_pairs=[(0, 1), (2, 3)])
        without = optimal_clique_labelling(table, forbidden_pairs=[(0, 1)])
        assert with_constant.gain == pytest.approx(without.gain, abs=1e-9)
        if without.center is None:
            assert with_constant.center is None
        else:
            assert with_constant.center == (without.center if without.center < 2 else 3)
            assert with_constant.group_ids.tolist() == without.group_ids.tolist()
    # the minimal failing case: a 4-state, a dependent 4-state and a constant variable
    table = np.zeros((4, 4, 1))
    for a in range(4):
        table[a, a, 0], table[a, (a + 1) % 4, 0] = 60, 40
    lab = optimal_clique_labelling(table)
    assert lab.center is None and lab.exact


# ----------------------------------------------------------------------------- clique labelling


def test_clique_labelling_matches_per_center_reference():
    rng = np.random.default_rng(21)
    for _ in range(10):
        table = sg_table(rng, 4, 2).reshape(2, 2, 2)
        lab = optimal_clique_labelling(table, forbidden_pairs=[(0, 1)])
        gains = []
        for center in range(3):
            parents = [u for u in range(3) if u != center]
            counts2d = np.moveaxis(table, center, -1).reshape(4, 2)
            forbidden = tuple(center in (0, 1) and u in (0, 1) for u in parents)
            single = sum(ref_weight(counts2d, [c]) for c in range(4))
            gains.append(ref_best(counts2d, (2, 2), forbidden) - single)
        best = max(gains)
        if best <= 1e-9:
            assert lab.center is None and lab.gain == 0.0
        else:
            assert lab.center == next(c for c, g in enumerate(gains) if g > best - 1e-9)
            assert lab.gain == pytest.approx(best, abs=1e-9)


def test_clique_labelling_small_and_degenerate():
    assert optimal_clique_labelling(np.ones((2, 2))) == CliqueLabelling(None, None, 0.0, True, "exact")
    lab = optimal_clique_labelling(np.zeros((2, 2, 2)))
    assert lab.center is None and lab.gain == 0.0 and lab.exact


def test_single_labelled_edge_ties_to_lowest_center():
    # X0 and X1 independent given X2 = 0, strongly dependent given X2 = 1: one label on {0, 1},
    # so centers 0 and 1 give the same gain and center 0 must be chosen
    table = np.zeros((2, 2, 2))
    table[:, :, 0] = [[300, 300], [300, 300]]
    table[:, :, 1] = [[500, 20], [20, 500]]
    lab = optimal_clique_labelling(table)
    assert lab.center == 0
    assert lab.group_ids.tolist() == [0, 1, 0, 2]  # parents (X1, X2): configs with X2=0 merged


def heart_table(df, cols):
    table = np.zeros((2, 2, 2))
    np.add.at(table, tuple(df[c].to_numpy() for c in cols), df["count"].to_numpy())
    return table


def test_heart_data_labellings():
    df = pd.read_csv(DATA)
    table = heart_table(df, ["smoking", "systolic_bp", "lipoprotein_ratio"])
    lab = optimal_clique_labelling(table, forbidden_pairs=[(0, 2)])
    assert lab.center == 1 and lab.exact
    # parents (smoking, lipoprotein_ratio): (1, 0) alone, the other three configurations together
    assert lab.group_ids.tolist() == [0, 0, 1, 0]
    table = heart_table(df, ["smoking", "physical_work", "lipoprotein_ratio"])
    assert optimal_clique_labelling(table, forbidden_pairs=[(0, 2)]).center is None


# ----------------------------------------------------------------------------- input errors


def test_errors_name_the_culprit():
    with pytest.raises(ValueError, match="counts2d must have shape"):
        optimal_groups(np.ones((5, 2)), (2, 2))
    with pytest.raises(ValueError, match="P=32"):
        optimal_groups(np.ones((32, 2)), (2,) * 5, method="exact")
    with pytest.raises(ValueError, match="method"):
        optimal_groups(np.ones((4, 2)), (2, 2), method="greedy")
    with pytest.raises(ValueError, match="non-negative"):
        optimal_groups(-np.ones((4, 2)), (2, 2))
    with pytest.raises(ValueError, match="forbidden"):
        optimal_groups(np.ones((4, 2)), (2, 2), forbidden=[True])
    with pytest.raises(ValueError, match="forbidden direction"):
        optimal_groups(np.ones((4, 2)), (2, 2), forbidden=[3])
    with pytest.raises(ValueError, match="cards"):
        optimal_groups(np.ones((0, 2)), (4, 0))
    with pytest.raises(ValueError, match="max_work"):
        optimal_groups(np.ones((4, 2)), (2, 2), max_work=-1)
    with pytest.raises(ValueError, match="forbidden pair"):
        optimal_clique_labelling(np.ones((2, 2, 2)), forbidden_pairs=[(0, 0)])
    with pytest.raises(TypeError, match="forbidden_pairs"):
        optimal_clique_labelling(np.ones((2, 2, 2)), forbidden_pairs=[1])


# ------------------------------------------------------------------ compiled and memoized pieces of the heuristic


def ref_components(cards, forbidden, subset, skip=None):
    """Components of a set of configurations through the allowed lines inside it (``skip`` excluded)."""
    parts = [{c} for c in subset]
    for d, ln in ref_lines(cards):
        if forbidden[d] or ln == skip or not ln <= subset:
            continue
        met = [p for p in parts if p & ln]
        parts = [p for p in parts if not p & ln] + [set().union(*met)]
    return sorted(sum(1 << c for c in p) for p in parts)


@pytest.mark.parametrize(
    "cards,forbidden", [((2, 2, 2), (False, True, False)), ((3, 2), (False, False)), ((3, 4), (True, False))]
)
def test_components_match_reference(cards, forbidden):
    from pgmpy_sgm.core._label_search import PartitionSpace

    space = PartitionSpace(cards, forbidden)
    n = math.prod(cards)
    rng = np.random.default_rng(5)
    subsets = [int(s) for s in rng.integers(1, 1 << n, size=60)] + [(1 << n) - 1]
    for subset in subsets:
        members = frozenset(c for c in range(n) if subset >> c & 1)
        want = ref_components(cards, forbidden, members)
        assert space.components(subset) == want
        assert space.components(subset) == want  # memoized
        space.components(subset).append(0)  # callers may change the list they get
        assert space.components(subset) == want
        for i, mask in enumerate(space.line_masks):
            line = frozenset(c for c in range(n) if mask >> c & 1)
            assert space.components(subset, skip_line=i) == ref_components(cards, forbidden, members, line)


def test_line_arrays_list_every_line():
    from pgmpy_sgm.core._label_search import PartitionSpace

    space = PartitionSpace((3, 2, 2), (False, True, False))
    ptr, cfg, dirs, forb = space.line_arrays()
    lines = [(int(d), frozenset(cfg[ptr[i] : ptr[i + 1]].tolist())) for i, d in enumerate(dirs)]
    assert len(lines) == len(ref_lines((3, 2, 2))) and set(lines) == set(ref_lines((3, 2, 2)))
    assert forb.tolist() == [False, True, False]


def ref_leak(cards, members):
    """Directions of the lines meeting a set of configurations without lying inside it."""
    leak = 0
    for d, ln in ref_lines(cards):
        if ln & members and not ln <= members:
            leak |= 1 << d
    return leak


@pytest.mark.parametrize(
    "cards,forbidden,k", [((2, 2, 2), (False, True, False), 2), ((3, 3), (False, False), 3), ((2, 4), (True, False), 2)]
)
def test_atom_problem_matches_definitions(cards, forbidden, k):
    from pgmpy_sgm.core._atom_dp import atom_blocks, atom_problem
    from pgmpy_sgm.core._label_search import PartitionSpace

    space = PartitionSpace(cards, forbidden)
    n = math.prod(cards)
    rng = np.random.default_rng(8)
    for _ in range(6):
        counts = random_table(rng, n, k, "dense").astype(float)
        configs = rng.permutation(n)[: int(rng.integers(3, min(n, 7) + 1))]
        # atoms: single configurations, and one piece of two configurations joined by a line when possible
        atoms = [frozenset([int(c)]) for c in configs]
        for d, ln in ref_lines(cards):
            if not ln & set(configs.tolist()) and not forbidden[d] and len(ln) == 2:
                atoms.append(frozenset(ln))
                break
        atom_of = np.full(n, -1)
        for t, a in enumerate(atoms):
            atom_of[list(a)] = t
        valid, leak, weight = atom_blocks(len(atoms), *atom_problem(len(atoms), atom_of, counts, *space.line_arrays()))
        for u in range(1, 1 << len(atoms)):
            members = frozenset().union(*(a for t, a in enumerate(atoms) if u >> t & 1))
            # a union of atoms is valid when the allowed lines inside it connect it and no forbidden line
            # lies inside it (each atom is connected by construction)
            want_valid = u & (u - 1) == 0 or (
                len(ref_components(cards, forbidden, members)) == 1
                and not any(forbidden[d] and ln <= members for d, ln in ref_lines(cards))
            )
            assert bool(valid[u]) == want_valid, (u, sorted(members))
            if want_valid:
                assert int(leak[u]) == ref_leak(cards, members)
                assert weight[u] == pytest.approx(ref_weight(counts, members), rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("cards,forbidden", [((2, 2, 2), (False, True, False)), ((3, 3), (False, False))])
def test_best_atom_partition_matches_brute_force(cards, forbidden):
    from pgmpy_sgm.core._atom_dp import best_atom_partition
    from pgmpy_sgm.core._label_search import PartitionSpace

    space = PartitionSpace(cards, forbidden)
    n = math.prod(cards)
    rng = np.random.default_rng(21)
    feasible = ref_feasible_partitions(cards, forbidden)
    for t in range(8):
        counts = random_table(rng, n, 2, ("dense", "zeros", "huge")[t % 3]).astype(float)
        # fix the groups of a random feasible partition outside a universe of whole groups
        fixed_partition = feasible[int(rng.integers(len(feasible)))]
        chosen = [b for b in fixed_partition if rng.random() < 0.6] or [fixed_partition[0]]
        fixed = [b for b in fixed_partition if b not in chosen]
        universe = frozenset().union(*chosen)
        atoms = [1 << c for c in sorted(universe)]
        acc = 0
        for b in fixed:
            acc |= ref_leak(cards, b)
        need = ((1 << len(cards)) - 1) & ~acc
        res = best_atom_partition(space, counts, atoms, need, 1e-12)
        best = None
        for p in feasible:  # whole partitions that keep the fixed groups
            if all(b in p for b in fixed):
                value = sum(ref_weight(counts, b) for b in p if b <= universe)
                best = value if best is None else max(best, value)
        if best is None:
            assert res is None
        else:
            groups, value = res
            assert value == pytest.approx(best, rel=1e-12, abs=1e-9)
            assert sum(ref_weight(counts, [c for c in range(n) if g >> c & 1]) for g in groups) == pytest.approx(
                best, rel=1e-12, abs=1e-9
            )


def test_block_scorer_matches_reference_weight():
    from pgmpy_sgm.core._label_search import BlockScorer, bits

    rng = np.random.default_rng(4)
    counts = rng.integers(0, 50, size=(12, 3)) * 0.5
    scorer = BlockScorer(counts)
    for block in [int(b) for b in rng.integers(1, 1 << 12, size=40)]:
        assert scorer(block) == pytest.approx(ref_weight(counts, bits(block)), rel=1e-13, abs=1e-10)
        assert scorer(block) == scorer(block)


@pytest.mark.parametrize(("cards", "k", "seed"), [((2, 2), 2, 0), ((2, 2, 2), 2, 1), ((3, 2), 3, 2)])
def test_best_partition_by_block_matches_brute_force(cards, k, seed):
    from scipy.special import gammaln

    from pgmpy_sgm.core.optimize import best_partition_by_block

    rng = np.random.default_rng(seed)
    counts = random_table(rng, math.prod(cards), k, "dense")
    forbidden = (False,) * len(cards)

    def weight(pooled, sizes):  # ref_weight, vectorised over blocks
        return (
            gammaln(k * sizes)
            - gammaln(pooled.sum(axis=1) + k * sizes)
            + (gammaln(pooled + sizes[:, None]) - gammaln(sizes)[:, None]).sum(axis=1)
        )

    ids = best_partition_by_block(cards, forbidden, counts, weight)
    got = sum(ref_weight(counts, b) for b in blocks_of(ids))
    assert got == pytest.approx(ref_best(counts, cards, forbidden), rel=1e-10)
    assert ref_feasible(cards, forbidden, blocks_of(ids))


# ----------------------------------------------------------------------------- multi-state spaces by blocks

HOUSING = Path(__file__).resolve().parents[1] / "data" / "mass_housing.csv"


def ref_valid_blocks(cards, forbidden):
    """Every valid block as a bitmask: singletons, and the unions of lines that the lines inside
    them connect, with no line of a forbidden direction inside (grown line by line from each line)."""
    lines = [(d, sum(1 << c for c in ln)) for d, ln in ref_lines(cards)]
    allowed = [m for d, m in lines if not forbidden[d]]
    found = set(allowed)
    stack = list(allowed)
    while stack:
        block = stack.pop()
        for m in allowed:
            union = block | m
            if m & block and union != block and union not in found:
                found.add(union)
                stack.append(union)
    ok = [b for b in found if not any(forbidden[d] and m & ~b == 0 for d, m in lines)]
    return ok + [1 << c for c in range(math.prod(cards))]


def ref_best_by_blocks(counts2d, cards, forbidden):
    """Independent exact optimum: every partition into valid blocks, enumerated by splitting off
    the block of the lowest remaining configuration, with the directions still lacking a line
    that leaves its block (regularity) carried along; memoised on (remaining set, directions)."""
    n = math.prod(cards)
    lines = [(d, sum(1 << c for c in ln)) for d, ln in ref_lines(cards)]
    by_low = {}
    for b in ref_valid_blocks(cards, forbidden):
        configs = [c for c in range(n) if b >> c & 1]
        cut = 0
        for d, m in lines:
            if m & b and m & ~b:
                cut |= 1 << d
        by_low.setdefault(configs[0], []).append((b, ref_weight(counts2d, configs), cut))
    memo = {}

    def best(remaining, need):
        if remaining == 0:
            return 0.0 if need == 0 else -math.inf
        key = (remaining, need)
        if key not in memo:
            low = (remaining & -remaining).bit_length() - 1
            memo[key] = max(
                (w + best(remaining & ~b, need & ~cut) for b, w, cut in by_low[low] if b & ~remaining == 0),
                default=-math.inf,
            )
        return memo[key]

    return best((1 << n) - 1, (1 << len(cards)) - 1)


def test_block_reference_agrees_with_set_partitions():
    # the reference used below against the plain enumeration of all set partitions
    rng = np.random.default_rng(61)
    for cards, k, forbidden in [
        ((3, 2), 3, (False, False)),
        ((2, 2, 2), 4, (False, True, False)),
        ((4, 2), 2, (True, False)),
    ]:
        counts = random_table(rng, math.prod(cards), k, "dense")
        assert ref_best_by_blocks(counts, cards, forbidden) == pytest.approx(
            ref_best(counts, cards, forbidden), abs=1e-9, rel=1e-12
        )


@pytest.mark.parametrize("cards", [(2, 3, 4), (3, 2, 2, 2), (4, 3, 2)])
def test_clique_labelling_exact_on_small_multistate_cliques(cards):
    # every center of these cliques (2-4 states) is within the exact search: the clique's gain is the
    # best brute-force gain over the centers, with no work cap involved
    rng = np.random.default_rng(sum(cards))
    for t in range(3):
        table = random_cpt_table(rng, cards, int(rng.integers(200, 3000)))
        if t == 2:
            table = table * (rng.random(table.shape) < 0.6)  # empty cells
        lab = optimal_clique_labelling(table)
        assert lab.exact and not lab.capped
        gains = []
        for center in range(len(cards)):
            parents = tuple(k for i, k in enumerate(cards) if i != center)
            counts = np.moveaxis(table, center, -1).reshape(-1, cards[center]).astype(float)
            singletons = sum(ref_weight(counts, [c]) for c in range(counts.shape[0]))
            gains.append(ref_best_by_blocks(counts, parents, (False,) * len(parents)) - singletons)
        best = max(gains)
        assert (lab.gain if lab.center is not None else 0.0) == pytest.approx(max(best, 0.0), abs=1e-9, rel=1e-12)


@pytest.mark.parametrize("cards,k", [((3, 3, 2), 3), ((2, 3, 3), 4), ((3, 2, 3), 2)])
def test_exact_on_eighteen_configurations_matches_reference(cards, k):
    rng = np.random.default_rng(k)
    counts = random_table(rng, math.prod(cards), k, "zeros" if k == 2 else "dense")
    res = optimal_groups(counts, cards)
    assert res.exact and res.method == "exact"
    check_result(res, counts, cards, None)
    assert res.value == pytest.approx(ref_best_by_blocks(counts, cards, (False,) * 3), abs=1e-9, rel=1e-12)


def housing_table():
    frame = pd.read_csv(HOUSING, comment="#")
    axes = ["Sat", "Infl", "Type", "Cont"]
    codes = [pd.Categorical(frame[a]).codes for a in axes]
    table = np.zeros([len(set(frame[a])) for a in axes])
    np.add.at(table, tuple(codes), frame["Freq"].to_numpy(dtype=float))
    return table


def test_housing_clique_reaches_brute_force_optimum():
    # MASS housing: Sat (3) x Infl (3) x Type (4) x Cont (2). The default labelling is centred on Infl
    # (parents with 3, 4 and 2 states: 24 configurations, beyond the default exact search) with 12
    # labels, at the optimum of that center; the center Type (18 configurations) is checked against
    # the independent reference above. Infl's optimum comes from the exact programme on request (the
    # same programme checked against independent enumerations on the smaller spaces above), as the
    # pure-Python reference takes minutes on 24 configurations.
    table = housing_table()
    assert table.shape == (3, 3, 4, 2) and table.sum() == 1681

    def center_problem(center):
        parents = tuple(k for i, k in enumerate(table.shape) if i != center)
        counts = np.moveaxis(table, center, -1).reshape(-1, table.shape[center])
        return parents, counts, sum(ref_weight(counts, [c]) for c in range(counts.shape[0]))

    lab = optimal_clique_labelling(table)
    parents, counts, singletons = center_problem(2)
    type_gain = ref_best_by_blocks(counts, parents, (False,) * 3) - singletons
    parents, counts, singletons = center_problem(1)
    infl = optimal_groups(counts, parents, method="exact")
    check_result(infl, counts, parents, None)
    assert lab.center == 1
    assert lab.gain == pytest.approx(infl.value - singletons, abs=1e-9, rel=1e-12)
    assert lab.gain > type_gain + 0.4  # the Type labelling the earlier bounded heuristic returned
    blocks = blocks_of(np.asarray(lab.group_ids))
    assert sum(any(ln <= b for b in blocks) for _, ln in ref_lines((3, 4, 2))) == 12  # lines inside groups


def test_listed_and_dense_atom_programmes_agree():
    # the sub-problem programme that scans only valid unions holding the lowest atom must pick the
    # same partition (value, blocks and ties) as the one that scans every subset
    from pgmpy_sgm.core._atom_dp import _listed_unions, solve_atom_dp, solve_atom_dp_listed

    rng = np.random.default_rng(71)
    for t in range(150):
        n = int(rng.integers(2, 9))
        valid = rng.random(1 << n) < rng.random()
        valid[[1 << i for i in range(n)]] = True
        valid[0] = False
        weight = rng.normal(size=1 << n)
        if t % 3 == 0:
            weight = np.round(weight)  # exact ties
        cleak = rng.integers(0, 4, size=1 << n)
        ptr, unions, _, _ = _listed_unions(n, valid)
        for n_masks in (1, 4):
            dense = solve_atom_dp(n, valid, cleak, weight, n_masks, 1e-9)
            listed = solve_atom_dp_listed(n, ptr, unions, cleak, weight, n_masks, 1e-9)
            assert dense[1] == listed[1]
            assert dense[0].tolist() == listed[0].tolist()


# ----------------------------------------------------------------------------- the search's fast schedule


@pytest.mark.parametrize("cards", [(2, 2, 2, 2), (4, 4), (3, 6), (3, 3, 2), (2, 3, 3)])
def test_fast_schedule_is_exact_on_small_spaces_and_never_above_the_optimum(cards):
    rng = np.random.default_rng(11)
    p = int(np.prod(cards))
    for _ in range(4):
        counts = rng.multinomial(800, rng.dirichlet(np.full(p * 3, 0.5))).reshape(p, 3).astype(float)
        fast = optimal_groups(counts, cards, method="fast")
        best = optimal_groups(counts, cards, method="exact")
        groups = [np.flatnonzero(fast.group_ids == g).tolist() for g in np.unique(fast.group_ids)]
        assert fast.value == pytest.approx(sum(ref_weight(counts, b) for b in groups), abs=1e-9)
        check_result(fast, counts, cards, None)
        if p <= 16 or len(cards) == 2:  # 16 configurations, or 18 with 400 valid blocks: exact
            assert fast.method == "exact" and fast.value == pytest.approx(best.value, abs=1e-9)
        else:  # 18 configurations with 21,480 valid blocks: the heuristic
            assert fast.method == "heuristic" and fast.value <= best.value + 1e-9


def test_solved_exactly_follows_the_schedule_of_optimal_groups():
    from pgmpy_sgm.core.optimize import solved_exactly

    assert solved_exactly((2, 2, 2), (False,) * 3, "fast", 2)
    assert solved_exactly((2, 2, 2), (False,) * 3, "auto", 3)
    assert not solved_exactly((2, 2, 2), (False,) * 3, "heuristic", 2)
    assert not solved_exactly((2, 2), (False, False), "fast", 1)  # a one-state center: nothing to label
    assert not solved_exactly((2, 1), (False, False), "fast", 2)  # a one-state parent
    assert not solved_exactly((3, 3, 3), (False,) * 3, "auto", 2)  # 27 configurations: beyond the exact search


def test_solved_exactly_refuses_bad_input_by_name():
    from pgmpy_sgm.core.optimize import solved_exactly

    with pytest.raises(ValueError, match="method must be one of"):
        solved_exactly((2, 2), (False, False), "quick", 2)
    with pytest.raises(ValueError, match="cardinality in cards"):
        solved_exactly((2, 0), (False, False), "fast", 2)
    with pytest.raises(ValueError, match="one entry per direction"):
        solved_exactly((2, 2), (False,), "fast", 2)
    with pytest.raises(ValueError, match="n_states must be a positive int"):
        solved_exactly((2, 2), (False, False), "fast", 0)
    assert solved_exactly([2, 2], [1], "fast", 2)  # lists and direction indices as optimal_groups takes them
