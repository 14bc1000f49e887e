"""The heuristic of ``method="heuristic"``: large-neighbourhood search with exact sub-problems.

A sub-problem fixes every group outside a *universe* (a union of current groups) and
re-partitions the universe exactly. The universe is given as at most :data:`MAX_ATOMS`
*atoms*, disjoint valid blocks that are never cut (single configurations, or pieces of
groups reaching outside the re-solved region). A union of atoms is a valid block when
the allowed lines inside it connect its atoms and no forbidden line lies inside it; its
leak mask (the directions of the lines meeting it without lying inside it) is computed
over the whole configuration space, so regularity of the whole partition is exact.

The dynamic programme (:mod:`pgmpy_sgm.core._atom_dp`) is the one of
:mod:`pgmpy_sgm.core._dp_kernels` on atom sets: the block holding the lowest atom of the
remaining set is chosen, and a direction mask carries the regularity directions the fixed
groups do not already supply.

:func:`bounded_lns` improves a partition by such sub-problems within a work budget;
:func:`bounded_heuristic` runs it from greedy merging and from a few random restarts.
"""

from __future__ import annotations

import itertools

import numpy as np

from pgmpy_sgm.core._agglomerate import PY_UNIT, greedy_merge
from pgmpy_sgm.core._atom_dp import (
    MAX_ATOMS,
    atom_blocks,
    atom_problem,
    best_atom_partition,
    solve_atom_dp,
    solve_atom_dp_listed,
)
from pgmpy_sgm.core._label_search import BlockScorer, PartitionSpace, bits, grow_parts, random_start

__all__ = [
    "MAX_ATOMS",
    "MAX_REGION",
    "atom_blocks",
    "atom_problem",
    "solve_atom_dp",
    "solve_atom_dp_listed",
    "best_atom_partition",
    "regions",
    "bounded_lns",
    "bounded_heuristic",
]

#: Smallest gain that counts as an improvement of a sub-problem.
_LNS_GAIN = 1e-9

#: Largest number of atoms of one sub-problem of :func:`bounded_lns` (the default).
BOUNDED_MAX_ATOMS = MAX_ATOMS

#: Work units charged for the fixed cost of one sub-problem of :func:`bounded_lns`
#: (compiled-kernel calls and the Python set-up of the atoms).
SOLVE_UNITS = 20_000

#: Largest sub-grid re-solved by :func:`bounded_lns` (also at most half the space).
MAX_REGION = 8


def regions(space: PartitionSpace, max_size: int) -> list[int]:
    """Sub-grids of the configuration space: fix the values of some parents, keep the others free.

    Only the largest sub-grids of at most ``max_size`` configurations are kept (a smaller
    sub-grid's neighbourhood is contained in that of any sub-grid containing it), in a
    fixed order: by free parents, then by the fixed values in C order.

    Examples
    --------
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> [bin(r) for r in regions(space, 2)]
    ['0b101', '0b1010', '0b11', '0b1100']
    """
    cards = space.cards
    grid = np.arange(space.n_configs).reshape(cards)
    best = 0
    found: list[tuple[int, int]] = []
    for r in range(1, len(cards) + 1):
        for free in itertools.combinations(range(len(cards)), r):
            size = int(np.prod([cards[d] for d in free]))
            if size <= max_size:
                best = max(best, size)
                found.append((size, free))
    out = []
    for size, free in found:
        if size != best:
            continue
        fixed = [d for d in range(len(cards)) if d not in free]
        for values in itertools.product(*[range(cards[d]) for d in fixed]):
            index = [slice(None)] * len(cards)
            for d, v in zip(fixed, values, strict=True):
                index[d] = v
            out.append(sum(1 << int(c) for c in np.ravel(grid[tuple(index)])))
    return out


def _adjacent_pairs(space: PartitionSpace, blocks: list[int]) -> list[tuple[int, int]]:
    owner = _owner_list(space, blocks)
    pairs = set()
    for configs in space.line_configs:
        gs = {owner[c] for c in configs}
        if len(gs) > 1:
            gs = sorted(gs)
            pairs.update((a, b) for i, a in enumerate(gs) for b in gs[i + 1 :])
    return sorted(pairs)


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _config_neighbours(space: PartitionSpace) -> list[int]:
    """For every configuration, the union of the lines through it (its neighbours and itself)."""
    out = []
    for c in range(space.n_configs):
        m = 1 << c
        for i in space.lines_of_config[c]:
            m |= space.line_masks[i]
        out.append(m)
    return out


def bounded_lns(
    space: PartitionSpace,
    scorer: BlockScorer,
    counts: np.ndarray,
    blocks: list[int],
    budget,
    max_atoms: int | None = None,
    max_region: int = MAX_REGION,
    memo: dict | None = None,
) -> list[int]:
    """Improve a valid regular partition by exact re-solving of parts of it, within a work budget.

    Four neighbourhoods, visited in a fixed order until a whole round finds no gain:

    * every sub-grid of :func:`regions` (at most ``max_region`` configurations): its
      configurations are re-partitioned freely, and may join the pieces outside it of
      the groups that meet it;
    * all current groups as atoms: the best merging of whole groups;
    * every two groups joined by a line and holding at most ``max_region``
      configurations together: their configurations are re-partitioned freely and may
      join any group joined to them by a line (kept whole);
    * every group of more than ``max_region`` configurations cut by the values of one
      parent: its connected pieces in each slice are re-grouped, and may join groups
      joined to it by a line (kept whole), so a large group can be split in two.

    Each sub-problem (at most ``max_atoms`` atoms, default :data:`BOUNDED_MAX_ATOMS`) is
    solved exactly by :func:`best_atom_partition`, with validity, forbidden directions
    and regularity checked on the whole partition. Each sub-problem solved is
    charged, once solved, the transitions its dynamic programme scanned (at most
    ``3 ** n_atoms`` per direction mask, see :func:`best_atom_partition`), ``2 ** n_atoms``
    units per atom for its valid unions, plus
    :data:`~pgmpy_sgm.core._agglomerate.PY_UNIT` per line it meets, each neighbourhood
    visited ``PY_UNIT`` per configuration and group it touches, to ``budget``
    (:class:`~pgmpy_sgm.core._agglomerate.WorkBudget`). Stops at a round without gain
    or when the budget is exhausted, and returns the best partition reached (every
    partition visited is valid and regular, and the value never decreases). ``memo`` caches
    solved sub-problems (their solution does not depend on the current grouping): pass the
    same dict to runs on the same counts and space; a sub-problem found there is not charged.

    Examples
    --------
    >>> from pgmpy_sgm.core._agglomerate import WorkBudget
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25]])
    >>> start = [1 << c for c in range(4)]
    >>> sorted(bounded_lns(space, BlockScorer(counts), counts, start, WorkBudget(None), max_region=2))
    [2, 5, 8]
    """
    max_atoms = BOUNDED_MAX_ATOMS if max_atoms is None else max_atoms
    subgrids = [(r, bits(r)) for r in regions(space, max_region)]
    tol = 1e-12 * max(1.0, float(np.sum(counts)))
    memo = {} if memo is None else memo
    part = _Grouping(space, list(blocks), _config_neighbours(space))
    improved = True
    while improved and not budget.exhausted:
        improved = False
        part.reset(part.blocks)
        problems = _round_problems(part, subgrids, max_region)
        budget.spend(PY_UNIT * (len(space.line_masks) + len(part.blocks)))
        for kind, arg in problems:
            if budget.exhausted:
                break
            found = _problem_atoms(part, kind, arg, max_region, max_atoms, budget)
            if found is None or not 2 <= len(found[0]) <= max_atoms:
                continue
            atoms, touched = found
            res = _solved(space, counts, atoms, part.need(touched), tol, memo, budget)
            if res is None:
                continue
            old = sum(scorer(part.blocks[f]) for f in touched)
            if sum(scorer(b) for b in res[0]) > old + _LNS_GAIN:
                part.replace(touched, res[0])
                improved = True
                budget.spend(PY_UNIT * (space.n_configs + len(part.blocks) * space.n_dirs))
    return sorted(part.blocks)


class _Grouping:
    """The current partition of :func:`bounded_lns`: its groups, the group of every configuration,
    the groups' leak masks, how many groups leak in each direction, and the groups met by a line
    through each group (filled on demand)."""

    def __init__(self, space: PartitionSpace, blocks: list[int], neighbours: list[int]):
        self.space = space
        self.neighbours = neighbours
        self.reset(blocks)

    def reset(self, blocks: list[int]) -> None:
        self.blocks = blocks
        self.adjacency: dict[int, set[int]] = {}
        self.owner = _owner_list(self.space, blocks)
        self.leaks = [self.space.leak(b) for b in blocks]
        self.leak_count = [sum((lk >> d) & 1 for lk in self.leaks) for d in range(self.space.n_dirs)]

    def replace(self, touched: list[int], groups: list[int]) -> None:
        """Replace the groups ``touched`` by ``groups``."""
        touched_set = set(touched)
        self.reset([b for f, b in enumerate(self.blocks) if f not in touched_set] + groups)

    def adjacent(self, g: int) -> set[int]:
        found = self.adjacency.get(g)
        if found is None:
            near = 0
            for c in bits(self.blocks[g]):
                near |= self.neighbours[c]
            found = self.adjacency[g] = {self.owner[c] for c in bits(near & ~self.blocks[g])}
        return found

    def need(self, touched: list[int]) -> int:
        """Direction mask that no group other than ``touched`` leaks in."""
        counts_left = list(self.leak_count)
        for f in touched:
            for d in range(self.space.n_dirs):
                counts_left[d] -= (self.leaks[f] >> d) & 1
        return sum(1 << d for d in range(self.space.n_dirs) if counts_left[d] == 0)


def _round_problems(part: _Grouping, subgrids: list, max_region: int) -> list:
    """The sub-problems of one round of :func:`bounded_lns`, in the order they are visited."""
    blocks, space = part.blocks, part.space
    problems: list = [("grid", r) for r in subgrids] + [("all", None)]
    problems += [("pair", (_lowest(blocks[g]), _lowest(blocks[h]))) for g, h in _adjacent_pairs(space, blocks)]
    problems += [("cut", (_lowest(b), d)) for b in blocks if b.bit_count() > max_region for d in range(space.n_dirs)]
    return problems


def _problem_atoms(part: _Grouping, kind: str, arg, max_region: int, max_atoms: int, budget):
    """Atoms of one sub-problem and the indices of the groups it re-solves (None when it no
    longer applies to the current partition); charges the visit to ``budget``."""
    if kind == "grid":
        return _grid_atoms(part, arg, budget)
    if kind == "all":
        return list(part.blocks), list(range(len(part.blocks)))
    if kind == "cut":
        g = part.owner[arg[0]]
        if part.blocks[g].bit_count() <= max_region:
            return None
        atoms, touched = _cut_atoms(part.space, part.blocks, g, arg[1], sorted(part.adjacent(g)), max_atoms)
        budget.spend(PY_UNIT * (part.blocks[g].bit_count() + len(touched)))
        return atoms, touched
    return _pair_atoms(part, arg, max_region, budget)


def _grid_atoms(part: _Grouping, arg: tuple, budget):
    """A sub-grid's configurations, and the pieces outside it of the groups meeting it."""
    region, configs = arg
    touched = sorted({part.owner[c] for c in configs})
    budget.spend(PY_UNIT * (len(configs) + len(touched)))
    atoms = [1 << c for c in configs]
    for g in touched:
        outside = part.blocks[g] & ~region
        if outside:
            atoms.extend(part.space.components(outside))
    return atoms, touched


def _pair_atoms(part: _Grouping, arg: tuple, max_region: int, budget):
    """Two groups joined by a line, configuration by configuration, and the groups they meet (whole)."""
    g, h = part.owner[arg[0]], part.owner[arg[1]]
    if g == h:
        return None
    region = part.blocks[g] | part.blocks[h]
    if region.bit_count() > max_region:
        return None
    configs = bits(region)
    touched = [g, h]
    touched += sorted((part.adjacent(g) | part.adjacent(h)) - {g, h})
    budget.spend(PY_UNIT * (len(configs) + len(touched)))
    return [1 << c for c in configs] + [part.blocks[f] for f in touched[2:]], touched


def _solved(space: PartitionSpace, counts: np.ndarray, atoms: list[int], need: int, tol: float, memo: dict, budget):
    """:func:`best_atom_partition` of a sub-problem, from ``memo`` or solved and charged to ``budget``."""
    key = (tuple(sorted(atoms)), need)
    if key not in memo:
        n_cells = sum(a.bit_count() for a in atoms) * (space.n_dirs + counts.shape[1])
        work = [0]
        memo[key] = best_atom_partition(space, counts, atoms, need, tol, work)
        budget.spend(SOLVE_UNITS + work[0] + 2 ** len(atoms) * len(atoms) + PY_UNIT * n_cells)
    return memo[key]


def _cut_atoms(space: PartitionSpace, blocks: list[int], g: int, direction: int, near: list[int], max_atoms: int):
    """Atoms of re-solving a large group cut by the values of one parent: the connected pieces
    of the group in every slice ``x_direction = v``, and the groups met by its lines (whole) while
    the atoms number at most ``max_atoms``; also the indices of those groups."""
    k = space.cards[direction]
    first = sum(space.cards[:direction])
    atoms = []
    for half in space.slices[first : first + k]:
        inside = blocks[g] & half
        if inside:
            atoms.extend(space.components(inside))
    touched = [g]
    for f in near:
        if len(atoms) >= max_atoms:
            break
        atoms.append(blocks[f])
        touched.append(f)
    return atoms, touched


def _owner_list(space: PartitionSpace, blocks: list[int]) -> list[int]:
    owner = [0] * space.n_configs
    for g, b in enumerate(blocks):
        for c in bits(b):
            owner[c] = g
    return owner


def bounded_heuristic(
    space: PartitionSpace,
    scorer: BlockScorer,
    counts: np.ndarray,
    budget,
    rng: np.random.Generator,
    max_restarts: int = 4,
    max_atoms: int | None = None,
) -> list[int]:
    """Best-first agglomeration, then :func:`bounded_lns`, then restarts while the budget lasts.

    The first run starts from :func:`~pgmpy_sgm.core._agglomerate.greedy_merge` of the
    singletons. When that merges nothing (no line gains by merging its configurations),
    the singletons are returned at once: a screen, not a proof, since a union of several
    lines could still gain. Otherwise up to ``max_restarts`` others start from 2 to 4
    connected groups grown at random from random configurations
    (:func:`~pgmpy_sgm.core._label_search.grow_parts`; the closure of a random label set,
    :func:`~pgmpy_sgm.core._label_search.random_start`, when those groups are not regular
    or hold a forbidden line), each followed by greedy merging and
    :func:`bounded_lns` (sub-problems of at most ``max_atoms`` atoms, default
    :data:`BOUNDED_MAX_ATOMS`). All runs share ``budget`` and the solved sub-problems; the best
    partition found is returned
    (valid and regular), also when the budget runs out.

    Examples
    --------
    >>> from pgmpy_sgm.core._agglomerate import WorkBudget
    >>> space = PartitionSpace((2, 2, 2), (False, False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25], [49, 1], [0, 50], [50, 0], [25, 25]])
    >>> blocks = bounded_heuristic(space, BlockScorer(counts), counts, WorkBudget(10**6), np.random.default_rng(0))
    >>> from pgmpy_sgm.core.optimize import optimal_groups
    >>> value = sum(BlockScorer(counts)(b) for b in blocks)
    >>> space.regular(blocks), bool(np.isclose(value, optimal_groups(counts, (2, 2, 2)).value))
    (True, True)
    """
    counts = np.asarray(counts, dtype=np.float64)
    max_region = min(MAX_REGION, max(2, space.n_configs // 2))
    best = greedy_merge(space, scorer, budget)
    if len(best) == space.n_configs:
        return best  # screen: no line gains by merging its configurations
    memo: dict = {}
    best = bounded_lns(space, scorer, counts, best, budget, max_atoms=max_atoms, max_region=max_region, memo=memo)
    best_value = sum(scorer(b) for b in best)
    for _ in range(max_restarts):
        if budget.exhausted:
            break
        seeds = rng.choice(space.n_configs, size=int(rng.integers(2, 5)), replace=False).tolist()
        start = grow_parts(space, (1 << space.n_configs) - 1, seeds, rng)
        budget.spend(PY_UNIT * space.n_configs * len(space.line_masks) // 8)
        if not (space.regular(start) and all(space.allowed_block(b) for b in start)):
            start = random_start(space, rng)
        start = greedy_merge(space, scorer, budget, start)
        cand = bounded_lns(space, scorer, counts, start, budget, max_atoms=max_atoms, max_region=max_region, memo=memo)
        value = sum(scorer(b) for b in cand)
        if value > best_value + _LNS_GAIN:
            best, best_value = cand, value
        elif value > best_value - _LNS_GAIN:
            break  # a restart from elsewhere ended at the best value again
    return best
