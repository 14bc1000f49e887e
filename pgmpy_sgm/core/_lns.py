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

:func:`bounded_lns` improves a partition by such sub-problems within a work budget;
:func:`bounded_heuristic` runs it from greedy merging and from a few random restarts.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numba import njit

from pgmpy_sgm.core._dp_kernels import lowest_bit, relax
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

#: Largest number of atoms of one sub-problem (state tables of ``2**MAX_ATOMS`` entries).
MAX_ATOMS = 14

#: Smallest gain that counts as an improvement of a sub-problem.
_LNS_GAIN = 1e-9

#: Largest number of atoms of one sub-problem of :func:`bounded_lns` (the default).
BOUNDED_MAX_ATOMS = MAX_ATOMS

#: Work units charged for the fixed cost of one sub-problem of :func:`bounded_lns`
#: (compiled-kernel calls and the Python set-up of the atoms).
SOLVE_UNITS = 20_000

#: Largest sub-grid re-solved by :func:`bounded_lns` (also at most half the space).
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
        low = lowest_bit(u)
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
                        stack[top] = lowest_bit(new)
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
def _chosen_unions(val, cnt, arg, cleak, s, m):
    """Walk the dynamic programme's choices back from state ``(s, m)``: the unions chosen and the value."""
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
    return _chosen_unions(val, cnt, arg, cleak, n_sets - 1, full_mask)


@njit(cache=True)
def solve_atom_dp_listed(n_atoms, by_low_ptr, by_low, cleak, weight, n_masks, tol):
    """:func:`solve_atom_dp` with the valid unions listed by their lowest atom
    (``by_low[by_low_ptr[a]:by_low_ptr[a + 1]]``, each list in decreasing order, the order in
    which :func:`solve_atom_dp` meets them), so that a state scans only the valid unions holding
    its lowest atom: the same result, cheaper when valid unions are few."""
    n_sets = 1 << n_atoms
    full_mask = n_masks - 1
    val = np.full((n_sets, n_masks), -np.inf)
    cnt = np.zeros((n_sets, n_masks), np.int64)
    arg = np.zeros((n_sets, n_masks), np.int64)
    val[0, 0] = 0.0
    for s in range(1, n_sets):
        low = lowest_bit(s)
        for j in range(by_low_ptr[low], by_low_ptr[low + 1]):
            b = by_low[j]
            if b & ~s == 0:
                relax(val, cnt, arg, s, s ^ b, weight[b], full_mask & ~cleak[b], b, n_masks, tol)
    return _chosen_unions(val, cnt, arg, cleak, n_sets - 1, full_mask)


def _listed_unions(n_atoms: int, valid: np.ndarray):
    """Valid unions grouped by lowest atom (decreasing within a group), and the transitions each
    form of the dynamic programme scans: ``(ptr, unions, listed_work, dense_work)``."""
    unions = np.flatnonzero(valid)
    low = np.zeros(unions.size, dtype=np.int64)
    rest = unions.copy()
    while True:  # lowest set bit of every union
        even = (rest & 1) == 0
        if not even.any():
            break
        low[even] += 1
        rest[even] >>= 1
    order = np.lexsort((-unions, low))
    unions, low = unions[order], low[order]
    ptr = np.searchsorted(low, np.arange(n_atoms + 1)).astype(np.int64)
    per_low = np.diff(ptr)
    listed = int(np.sum(per_low * (2 ** (n_atoms - 1 - np.arange(n_atoms, dtype=np.int64)))))
    return ptr, unions.astype(np.int64), listed, 3**n_atoms


def best_atom_partition(space, counts: np.ndarray, atoms: list[int], need: int, tol: float, work: list | None = None):
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
    work : list of one int, optional
        Incremented by the transitions the dynamic programme scans (per direction mask): the
        states times the valid unions holding their lowest atom, or ``3 ** n_atoms`` when
        every subset is scanned (whichever form is cheaper is used).

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
    work = [0] if work is None else work
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
    ptr, unions, listed_work, dense_work = _listed_unions(n_atoms, valid)
    constrained: list[int] = []
    while True:
        cleak = np.zeros_like(leak)
        for j, d in enumerate(constrained):
            cleak |= ((leak >> d) & 1) << j
        n_masks = 1 << len(constrained)
        if listed_work < dense_work:
            chosen, value = solve_atom_dp_listed(n_atoms, ptr, unions, cleak, weight, n_masks, tol)
        else:
            chosen, value = solve_atom_dp(n_atoms, valid, cleak, weight, n_masks, tol)
        work[0] += min(listed_work, dense_work) * n_masks
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
    from pgmpy_sgm.core._agglomerate import PY_UNIT

    max_atoms = BOUNDED_MAX_ATOMS if max_atoms is None else max_atoms
    blocks = list(blocks)
    subgrids = [(r, bits(r)) for r in regions(space, max_region)]
    neighbours = _config_neighbours(space)
    tol = 1e-12 * max(1.0, float(np.sum(counts)))
    n_dirs = space.n_dirs
    memo = {} if memo is None else memo
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
        problems += [("cut", (_lowest(b), d)) for b in blocks if b.bit_count() > max_region for d in range(n_dirs)]
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
            elif kind == "cut":
                g = owner[arg[0]]
                if blocks[g].bit_count() <= max_region:
                    continue
                atoms, touched = _cut_atoms(space, blocks, g, arg[1], sorted(adjacent(g)), max_atoms)
                budget.spend(PY_UNIT * (blocks[g].bit_count() + len(touched)))
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
                work = [0]
                memo[key] = best_atom_partition(space, counts, atoms, need, tol, work)
                budget.spend(SOLVE_UNITS + work[0] + 2 ** len(atoms) * len(atoms) + PY_UNIT * n_cells)
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
    from pgmpy_sgm.core._agglomerate import PY_UNIT, greedy_merge

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
