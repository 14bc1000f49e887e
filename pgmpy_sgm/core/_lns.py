"""The heuristic of ``method="heuristic"``: large-neighbourhood search with exact sub-problems.

A sub-problem fixes every group outside a *universe* (a union of current groups) and
re-partitions the universe exactly. The universe is given as at most :data:`MAX_ATOMS`
*atoms*, disjoint valid blocks that are never cut (single configurations, or pieces of
groups reaching outside the re-solved region). A union of atoms is a valid block when
the allowed lines inside it connect its atoms and no forbidden line lies inside it; its
leak mask (the directions of the lines meeting it without lying inside it) is computed
over the whole configuration space, so regularity of the whole partition is exact.

The dynamic programme is the one of :mod:`pgmpy_sgm.core._dp_kernels` on atom sets:
the block holding the lowest atom of the remaining set is chosen, and a direction mask
carries the regularity directions the fixed groups do not already supply.

:func:`lns_heuristic` runs :func:`large_neighbourhood_search` from the local search of
:mod:`pgmpy_sgm.core._label_search` and from a few random restarts.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numba import njit

from pgmpy_sgm.core._dp_kernels import _lowest_bit, relax
from pgmpy_sgm.core._label_search import BlockScorer, PartitionSpace, bits, grow_parts, local_search, random_start

__all__ = [
    "MAX_ATOMS",
    "MAX_REGION",
    "atom_blocks",
    "atom_problem",
    "solve_atom_dp",
    "best_atom_partition",
    "regions",
    "large_neighbourhood_search",
    "lns_heuristic",
]

#: Largest number of atoms of one sub-problem (state tables of ``2**MAX_ATOMS`` entries).
MAX_ATOMS = 14

#: Smallest gain that counts as an improvement of a sub-problem.
_LNS_GAIN = 1e-9

#: Largest number of atoms of one sub-problem of :func:`bounded_lns`.
BOUNDED_MAX_ATOMS = 10

#: Work units charged for the fixed cost of one sub-problem of :func:`bounded_lns`
#: (compiled-kernel calls and the Python set-up of the atoms).
SOLVE_UNITS = 20_000

#: Largest sub-grid re-solved by :func:`large_neighbourhood_search` (also at most half the space).
MAX_REGION = 8


@njit(cache=True)
def atom_blocks(n_atoms, pooled, sizes, line_amask, line_full, line_dir, line_forb):
    """Validity, leak mask and group weight of every union of atoms.

    Parameters
    ----------
    n_atoms : int
        Number of atoms (at most :data:`MAX_ATOMS`).
    pooled : float64 array, shape (n_atoms, k)
        Counts of the center's states pooled over each atom.
    sizes : float64 array
        Number of configurations of each atom.
    line_amask : int64 array
        For every line meeting the universe, the atoms it meets.
    line_full : bool array
        Whether the line lies inside the universe.
    line_dir : int64 array
        Direction of the line.
    line_forb : bool array
        Whether the line's direction is forbidden.

    Returns
    -------
    valid : bool array, length ``2**n_atoms``
    leak : int64 array
        Direction mask of the lines meeting the union without lying inside it.
    weight : float64 array
        Group weight ``w(B)`` of the union (see :func:`pgmpy_sgm.core.lines.group_weights`).
    """
    n_sets = 1 << n_atoms
    k = pooled.shape[1]
    valid = np.zeros(n_sets, np.bool_)
    leak = np.zeros(n_sets, np.int64)
    weight = np.zeros(n_sets)
    # lines reaching outside the universe leak from every union they meet
    outer = np.zeros(n_sets, np.int64)
    atom_outer = np.zeros(n_atoms, np.int64)
    inner = []  # lines inside the universe meeting at least two atoms
    for i in range(line_amask.size):
        a = line_amask[i]
        if not line_full[i]:
            for t in range(n_atoms):
                if (a >> t) & 1:
                    atom_outer[t] |= 1 << line_dir[i]
        elif a & (a - 1):
            inner.append(i)
    n_inner = len(inner)
    in_mask = np.empty(n_inner, np.int64)
    in_dir = np.empty(n_inner, np.int64)
    in_forb = np.empty(n_inner, np.bool_)
    for j in range(n_inner):
        in_mask[j] = line_amask[inner[j]]
        in_dir[j] = line_dir[inner[j]]
        in_forb[j] = line_forb[inner[j]]
    # inner lines through each atom
    line_ptr = np.zeros(n_atoms + 1, np.int64)
    for t in range(n_atoms):
        line_ptr[t + 1] = line_ptr[t]
        for j in range(n_inner):
            if (in_mask[j] >> t) & 1:
                line_ptr[t + 1] += 1
    atom_lines = np.empty(line_ptr[n_atoms], np.int64)
    for t in range(n_atoms):
        p = line_ptr[t]
        for j in range(n_inner):
            if (in_mask[j] >> t) & 1:
                atom_lines[p] = j
                p += 1
    tot = np.zeros((n_sets, k))
    lam = np.zeros(n_sets)
    stack = np.empty(n_atoms, np.int64)
    for u in range(1, n_sets):
        low = _lowest_bit(u)
        prev = u & (u - 1)
        outer[u] = outer[prev] | atom_outer[low]
        lam[u] = lam[prev] + sizes[low]
        for j in range(k):
            tot[u, j] = tot[prev, j] + pooled[low, j]
        # connectivity of the atoms through lines inside the union (depth-first over atoms)
        reached = u & -u
        stack[0] = low
        top = 1
        while top > 0 and reached != u:
            top -= 1
            t = stack[top]
            for p in range(line_ptr[t], line_ptr[t + 1]):
                a = in_mask[atom_lines[p]]
                if (a & ~u) == 0 and (a & ~reached) != 0:
                    new = a & ~reached
                    reached |= a
                    while new:
                        stack[top] = _lowest_bit(new)
                        top += 1
                        new &= new - 1
        if reached != u:
            continue
        # forbidden lines inside, and the leak mask
        ok = True
        lk = outer[u]
        for j in range(n_inner):
            a = in_mask[j]
            if a & u == 0:
                continue
            if a & ~u:
                lk |= 1 << in_dir[j]
            elif in_forb[j]:
                ok = False
                break
        if not ok:
            continue
        leak[u] = lk
        valid[u] = True
        n_b = 0.0
        lm = lam[u]
        w = math.lgamma(k * lm) - k * math.lgamma(lm)
        for j in range(k):
            n_b += tot[u, j]
            w += math.lgamma(tot[u, j] + lm)
        weight[u] = w - math.lgamma(n_b + k * lm)
    return valid, leak, weight


@njit(cache=True)
def atom_problem(n_atoms, atom_of, counts, line_ptr, line_cfg, line_dir, dir_forb):
    """The arguments of :func:`atom_blocks` for the atoms given by ``atom_of`` (the atom of every
    configuration, -1 outside the universe): the counts pooled over each atom (configurations in
    increasing order), the atoms' sizes, and for the lines meeting the universe (in line order)
    the atoms they meet, whether they lie inside the universe, their directions and whether
    those are forbidden.

    ``line_ptr``/``line_cfg`` list the configurations of every line (CSR), ``line_dir`` its
    direction and ``dir_forb`` whether a direction is forbidden
    (:meth:`~pgmpy_sgm.core._label_search.PartitionSpace.line_arrays`).
    """
    n_lines = line_ptr.size - 1
    amask = np.empty(n_lines, np.int64)
    full = np.empty(n_lines, np.bool_)
    dirs = np.empty(n_lines, np.int64)
    forb = np.empty(n_lines, np.bool_)
    m = 0
    for i in range(n_lines):
        a = 0
        inside = True
        for p in range(line_ptr[i], line_ptr[i + 1]):
            t = atom_of[line_cfg[p]]
            if t >= 0:
                a |= 1 << t
            else:
                inside = False
        if a != 0:
            amask[m] = a
            full[m] = inside
            dirs[m] = line_dir[i]
            forb[m] = dir_forb[line_dir[i]]
            m += 1
    k = counts.shape[1]
    pooled = np.zeros((n_atoms, k))
    sizes = np.zeros(n_atoms)
    for c in range(atom_of.size):
        t = atom_of[c]
        if t >= 0:
            sizes[t] += 1.0
            for j in range(k):
                pooled[t, j] += counts[c, j]
    return pooled, sizes, amask[:m], full[:m], dirs[:m], forb[:m]


@njit(cache=True)
def solve_atom_dp(n_atoms, valid, cleak, weight, n_masks, tol):
    """Best partition of all atoms into valid unions whose leaks cover every constrained direction.

    ``cleak`` holds the leak masks restricted (and renumbered) to the constrained
    directions, ``n_masks = 2 ** n_constrained``. Higher value by more than ``tol``
    wins, then more blocks. Returns the chosen unions (atom masks) and the value
    (``-inf`` and an empty array when infeasible).
    """
    n_sets = 1 << n_atoms
    full_mask = n_masks - 1
    val = np.full((n_sets, n_masks), -np.inf)
    cnt = np.zeros((n_sets, n_masks), np.int64)
    arg = np.zeros((n_sets, n_masks), np.int64)
    val[0, 0] = 0.0
    for s in range(1, n_sets):
        low = s & -s
        rest = s ^ low
        t = rest
        while True:
            b = t | low
            if valid[b]:
                relax(val, cnt, arg, s, s ^ b, weight[b], full_mask & ~cleak[b], b, n_masks, tol)
            if t == 0:
                break
            t = (t - 1) & rest
    s = n_sets - 1
    m = full_mask
    value = val[s, m]
    chosen = np.empty(cnt[s, m] if value > -np.inf else 0, np.int64)
    i = 0
    while s != 0 and value > -np.inf:
        b = arg[s, m]
        chosen[i] = b
        i += 1
        m = m & ~cleak[b]
        s = s ^ b
    return chosen, value


def best_atom_partition(space, counts: np.ndarray, atoms: list[int], need: int, tol: float):
    """Exact best re-partition of the union of ``atoms`` given the groups outside it.

    Parameters
    ----------
    space : PartitionSpace
        Lines and forbidden flags (:mod:`pgmpy_sgm.core._label_search`).
    counts : numpy.ndarray, shape (n_configs, k)
        Counts of the center's states per configuration.
    atoms : list of int
        Disjoint valid blocks (bitmasks over configurations), at most :data:`MAX_ATOMS`.
    need : int
        Direction mask that the new groups must leak in (the directions the fixed groups miss).
    tol : float
        Tie tolerance.

    Returns
    -------
    (list of int, float) or None
        The new groups (configuration bitmasks) and their total weight; None when no
        partition of the atoms supplies ``need``.

    Examples
    --------
    >>> from pgmpy_sgm.core._label_search import PartitionSpace
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25]])
    >>> groups, _ = best_atom_partition(space, counts, [1, 2, 4, 8], space.full_dirs, 1e-9)
    >>> sorted(groups)  # configurations 0 and 2 merged
    [2, 5, 8]
    """
    n_atoms = len(atoms)
    atom_of = [-1] * space.n_configs
    for t, a in enumerate(atoms):
        for c in bits(a):
            atom_of[c] = t
    line_ptr, line_cfg, line_dir, dir_forb = space.line_arrays()
    problem = atom_problem(
        n_atoms,
        np.array(atom_of, dtype=np.int64),
        np.ascontiguousarray(counts, dtype=np.float64),
        line_ptr,
        line_cfg,
        line_dir,
        dir_forb,
    )
    valid, leak, weight = atom_blocks(n_atoms, *problem)
    constrained: list[int] = []
    while True:
        cleak = np.zeros_like(leak)
        for j, d in enumerate(constrained):
            cleak |= ((leak >> d) & 1) << j
        chosen, value = solve_atom_dp(n_atoms, valid, cleak, weight, 1 << len(constrained), tol)
        if value == -np.inf:
            return None
        acc = 0
        for b in chosen:
            acc |= int(leak[b])
        missing = [d for d in range(space.n_dirs) if (need >> d) & 1 and not (acc >> d) & 1]
        if not missing:
            break
        constrained = sorted(set(constrained) | set(missing))
    groups = []
    for b in chosen.tolist():
        g = 0
        for t in range(n_atoms):
            if (b >> t) & 1:
                g |= atoms[t]
        groups.append(g)
    return groups, float(value)


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


def _region_atoms(space: PartitionSpace, blocks: list[int], region: int):
    """Atoms of re-solving ``region``: its configurations, and the pieces outside it of the groups
    meeting it; also the indices of those groups."""
    touched = [g for g, b in enumerate(blocks) if b & region]
    atoms = [1 << c for c in bits(region)]
    for g in touched:
        outside = blocks[g] & ~region
        if outside:
            atoms.extend(space.components(outside))
    return atoms, touched


def _group_atoms(space: PartitionSpace, blocks: list[int], pair: tuple[int, int], max_region: int):
    """Atoms of re-solving two groups joined by a line: their configurations, and every group
    joined to them by a line as a whole; None when too large."""
    g, h = pair
    region = blocks[g] | blocks[h]
    if region.bit_count() > max_region:
        return None
    atoms = [1 << c for c in bits(region)]
    touched = [g, h]
    for f, b in enumerate(blocks):
        if f not in pair and any(m & region and m & b for m in space.line_masks):
            atoms.append(b)
            touched.append(f)
    return atoms, touched


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


def _resolve(space, scorer, counts, blocks, touched, atoms, tol, memo):
    """Exact re-partition of the groups ``touched``; the improved partition or None.

    ``memo`` maps (atoms, needed directions) to the sub-problem's solution, which does not
    depend on how the atoms are currently grouped."""
    if len(atoms) > MAX_ATOMS or len(atoms) < 2:
        return None
    fixed = [b for g, b in enumerate(blocks) if g not in touched]
    acc = 0
    for b in fixed:
        acc |= space.leak(b)
    need = space.full_dirs & ~acc
    key = (tuple(sorted(atoms)), need)
    if key not in memo:
        memo[key] = best_atom_partition(space, counts, atoms, need, tol)
    res = memo[key]
    if res is None:
        return None
    groups, _ = res
    old = sum(scorer(blocks[g]) for g in touched)
    if sum(scorer(b) for b in groups) <= old + _LNS_GAIN:
        return None
    return fixed + groups


def large_neighbourhood_search(
    space: PartitionSpace,
    scorer: BlockScorer,
    counts: np.ndarray,
    blocks: list[int],
    max_region: int,
    pairs: bool = True,
    memo: dict | None = None,
) -> list[int]:
    """Improve a valid regular partition by exact re-solving of parts of it, until no part improves.

    Three neighbourhoods, visited in a fixed order until a whole round finds no gain:

    * every sub-grid of :func:`regions` (at most ``max_region`` configurations): its
      configurations are re-partitioned freely, and may join the pieces outside it of
      the groups that meet it;
    * all current groups as atoms (when there are at most :data:`MAX_ATOMS`): the best
      merging of whole groups;
    * with ``pairs``, every two groups joined by a line and holding at most ``max_region``
      configurations together: their configurations are re-partitioned freely and may
      join any group joined to them by a line (kept whole).

    Each step is the exact optimum of its sub-problem (:func:`best_atom_partition`),
    with validity, forbidden directions and regularity checked on the whole partition,
    so the value never decreases. ``memo`` caches solved sub-problems (pass the same
    dict to runs on the same counts).

    Examples
    --------
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25]])
    >>> start = [1 << c for c in range(4)]
    >>> sorted(large_neighbourhood_search(space, BlockScorer(counts), counts, start, 2))
    [2, 5, 8]
    """
    blocks = list(blocks)
    subgrids = regions(space, max_region)
    tol = 1e-12 * max(1.0, float(np.sum(counts)))
    memo = {} if memo is None else memo
    improved = True
    while improved:
        improved = False
        problems: list = [("grid", r) for r in subgrids] + [("all", None)]
        if pairs:  # named by one configuration of each group, as group indices change
            problems += [("pair", (bits(blocks[g])[0], bits(blocks[h])[0])) for g, h in _adjacent_pairs(space, blocks)]
        for kind, arg in problems:
            if kind == "grid":
                atoms, touched = _region_atoms(space, blocks, arg)
            elif kind == "all":
                atoms, touched = list(blocks), list(range(len(blocks)))
            else:
                g, h = (next(i for i, b in enumerate(blocks) if b >> c & 1) for c in arg)
                if g == h:
                    continue
                found = _group_atoms(space, blocks, (g, h), max_region)
                if found is None:
                    continue
                atoms, touched = found
            nxt = _resolve(space, scorer, counts, blocks, set(touched), atoms, tol, memo)
            if nxt is not None:
                blocks, improved = nxt, True
    return sorted(blocks)


def lns_heuristic(
    space: PartitionSpace, scorer: BlockScorer, counts: np.ndarray, n_restarts: int, rng: np.random.Generator
) -> list[int]:
    """Best of :func:`large_neighbourhood_search` runs from several starting partitions.

    The first run starts from :func:`~pgmpy_sgm.core._label_search.local_search` of the
    singletons; each of the ``n_restarts`` others directly from 2 to 4 connected groups
    grown at random from random configurations
    (:func:`~pgmpy_sgm.core._label_search.grow_parts`), or from the closure of a random label
    set (:func:`~pgmpy_sgm.core._label_search.random_start`) when those groups are not
    regular or hold a forbidden line. Sub-grids have
    at most ``min(MAX_REGION, n_configs // 2)`` configurations, so the search never solves
    the whole space at once. Solved sub-problems are shared between the runs.

    Examples
    --------
    >>> space = PartitionSpace((2, 2, 2), (False, False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25], [49, 1], [0, 50], [50, 0], [25, 25]])
    >>> blocks = lns_heuristic(space, BlockScorer(counts), counts, 2, np.random.default_rng(0))
    >>> from pgmpy_sgm.core.lines import group_weights
    >>> from pgmpy_sgm.core.optimize import optimal_groups
    >>> value = group_weights(counts, space.group_ids(blocks))
    >>> space.regular(blocks), bool(np.isclose(value, optimal_groups(counts, (2, 2, 2)).value))
    (True, True)
    """
    counts = np.asarray(counts, dtype=np.float64)
    max_region = min(MAX_REGION, space.n_configs // 2)
    memo: dict = {}
    best = large_neighbourhood_search(space, scorer, counts, local_search(space, scorer), max_region, memo=memo)
    best_value = sum(scorer(b) for b in best)
    for _ in range(n_restarts):
        seeds = rng.choice(space.n_configs, size=int(rng.integers(2, 5)), replace=False).tolist()
        start = grow_parts(space, (1 << space.n_configs) - 1, seeds, rng)
        if not (space.regular(start) and all(space.allowed_block(b) for b in start)):
            start = random_start(space, rng)
        cand = large_neighbourhood_search(space, scorer, counts, start, max_region, memo=memo)
        value = sum(scorer(b) for b in cand)
        if value > best_value + _LNS_GAIN:
            best, best_value = cand, value
    return best


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
) -> list[int]:
    """:func:`large_neighbourhood_search` within a work budget, with smaller sub-problems.

    The same three neighbourhoods (sub-grids, all groups, pairs of groups joined by a
    line), each sub-problem of at most ``max_atoms`` atoms. Each sub-problem solved is
    charged ``3 ** n_atoms`` work units (the transitions of its dynamic programme) plus
    :data:`~pgmpy_sgm.core._agglomerate.PY_UNIT` per line it meets, each neighbourhood
    visited ``PY_UNIT`` per configuration and group it touches, to ``budget``
    (:class:`~pgmpy_sgm.core._agglomerate.WorkBudget`). Stops at a round without gain
    or when the budget is exhausted, and returns the best partition reached (every
    partition visited is valid and regular, and the value never decreases).

    Examples
    --------
    >>> from pgmpy_sgm.core._agglomerate import WorkBudget
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25]])
    >>> start = [1 << c for c in range(4)]
    >>> sorted(bounded_lns(space, BlockScorer(counts), counts, start, WorkBudget(None), max_region=2))
    [2, 5, 8]
    """
    from pgmpy_sgm.core._agglomerate import PY_UNIT

    max_atoms = BOUNDED_MAX_ATOMS if max_atoms is None else max_atoms
    blocks = list(blocks)
    subgrids = [(r, bits(r)) for r in regions(space, max_region)]
    neighbours = _config_neighbours(space)
    tol = 1e-12 * max(1.0, float(np.sum(counts)))
    n_dirs = space.n_dirs
    memo: dict = {}
    adjacency: dict[int, set[int]] = {}  # group -> groups met by a line through it (current partition)

    def adjacent(g: int) -> set[int]:
        found = adjacency.get(g)
        if found is None:
            near = 0
            for c in bits(blocks[g]):
                near |= neighbours[c]
            found = adjacency[g] = {owner[c] for c in bits(near & ~blocks[g])}
        return found

    improved = True
    while improved and not budget.exhausted:
        improved = False
        adjacency.clear()
        owner = _owner_list(space, blocks)
        leaks = [space.leak(b) for b in blocks]
        leak_count = [sum((lk >> d) & 1 for lk in leaks) for d in range(n_dirs)]
        problems: list = [("grid", r) for r in subgrids] + [("all", None)]
        problems += [("pair", (_lowest(blocks[g]), _lowest(blocks[h]))) for g, h in _adjacent_pairs(space, blocks)]
        budget.spend(PY_UNIT * (len(space.line_masks) + len(blocks)))
        for kind, arg in problems:
            if budget.exhausted:
                break
            if kind == "grid":
                region, configs = arg
                touched = sorted({owner[c] for c in configs})
                budget.spend(PY_UNIT * (len(configs) + len(touched)))
                atoms = [1 << c for c in configs]
                for g in touched:
                    outside = blocks[g] & ~region
                    if outside:
                        atoms.extend(space.components(outside))
            elif kind == "all":
                atoms, touched = list(blocks), list(range(len(blocks)))
            else:
                g, h = owner[arg[0]], owner[arg[1]]
                if g == h:
                    continue
                region = blocks[g] | blocks[h]
                if region.bit_count() > max_region:
                    continue
                configs = bits(region)
                touched = [g, h]
                touched += sorted((adjacent(g) | adjacent(h)) - {g, h})
                budget.spend(PY_UNIT * (len(configs) + len(touched)))
                atoms = [1 << c for c in configs] + [blocks[f] for f in touched[2:]]
            if len(atoms) > max_atoms or len(atoms) < 2:
                continue
            counts_left = list(leak_count)
            for f in touched:
                for d in range(n_dirs):
                    counts_left[d] -= (leaks[f] >> d) & 1
            need = sum(1 << d for d in range(n_dirs) if counts_left[d] == 0)
            key = (tuple(sorted(atoms)), need)
            if key not in memo:
                n_cells = sum(a.bit_count() for a in atoms) * (n_dirs + counts.shape[1])
                budget.spend(SOLVE_UNITS + 3 ** len(atoms) + 2 ** len(atoms) * len(atoms) + PY_UNIT * n_cells)
                memo[key] = best_atom_partition(space, counts, atoms, need, tol)
            res = memo[key]
            if res is None:
                continue
            groups, _ = res
            old = sum(scorer(blocks[f]) for f in touched)
            if sum(scorer(b) for b in groups) > old + _LNS_GAIN:
                touched_set = set(touched)
                blocks = [b for f, b in enumerate(blocks) if f not in touched_set] + groups
                improved = True
                adjacency.clear()
                owner = _owner_list(space, blocks)
                leaks = [space.leak(b) for b in blocks]
                leak_count = [sum((lk >> d) & 1 for lk in leaks) for d in range(n_dirs)]
                budget.spend(PY_UNIT * (space.n_configs + len(blocks) * n_dirs))
    return sorted(blocks)


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
) -> list[int]:
    """Best-first agglomeration, then :func:`bounded_lns`, then restarts while the budget lasts.

    The first run starts from :func:`~pgmpy_sgm.core._agglomerate.greedy_merge` of the
    singletons. When that merges nothing (no line gains by merging its configurations),
    the singletons are returned at once: a screen, not a proof, since a union of several
    lines could still gain. Otherwise up to ``max_restarts`` others start from 2 to 4 connected groups grown at
    random (as in :func:`lns_heuristic`), each followed by greedy merging and
    :func:`bounded_lns`. All runs share ``budget``; the best partition found is returned
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
    from pgmpy_sgm.core._agglomerate import PY_UNIT, greedy_merge

    counts = np.asarray(counts, dtype=np.float64)
    max_region = min(MAX_REGION, max(2, space.n_configs // 2))
    best = greedy_merge(space, scorer, budget)
    if len(best) == space.n_configs:
        return best  # screen: no line gains by merging its configurations
    best = bounded_lns(space, scorer, counts, best, budget, max_region=max_region)
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
        cand = bounded_lns(space, scorer, counts, start, budget, max_region=max_region)
        value = sum(scorer(b) for b in cand)
        if value > best_value + _LNS_GAIN:
            best, best_value = cand, value
    return best
