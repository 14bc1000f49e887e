"""The exact sub-problem of the heuristic: the best re-partition of a set of atoms by a dynamic programme.

The universe is given as at most :data:`MAX_ATOMS` *atoms*, disjoint valid blocks that are never
cut. A union of atoms is a valid block when the allowed lines inside it connect its atoms and no
forbidden line lies inside it; its leak mask (the directions of the lines meeting it without lying
inside it) is computed over the whole configuration space. The dynamic programme is the one of
:mod:`pgmpy_sgm.core._dp_kernels` on atom sets.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from pgmpy_sgm.core._dp_kernels import lowest_bit, relax
from pgmpy_sgm.core._label_search import bits

__all__ = [
    "MAX_ATOMS",
    "atom_blocks",
    "atom_problem",
    "solve_atom_dp",
    "solve_atom_dp_listed",
    "best_atom_partition",
]

#: Largest number of atoms of one sub-problem (state tables of ``2**MAX_ATOMS`` entries).
MAX_ATOMS = 14


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
    atom_outer, in_mask, in_dir, in_forb = _split_lines(n_atoms, line_amask, line_full, line_dir, line_forb)
    line_ptr, atom_lines = _lines_by_atom(n_atoms, in_mask)
    # lines reaching outside the universe leak from every union they meet
    outer = np.zeros(n_sets, np.int64)
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
        if not _connected(u, low, line_ptr, atom_lines, in_mask, stack):
            continue
        lk = _inner_leak(u, outer[u], in_mask, in_dir, in_forb)
        if lk < 0:
            continue
        leak[u] = lk
        valid[u] = True
        weight[u] = _union_weight(tot[u], lam[u], k)
    return valid, leak, weight


@njit(cache=True)
def _split_lines(n_atoms, line_amask, line_full, line_dir, line_forb):
    """The directions of the lines reaching outside the universe through each atom, and the atom
    masks, directions and forbidden flags of the lines inside the universe meeting two atoms or more."""
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
    return atom_outer, in_mask, in_dir, in_forb


@njit(cache=True)
def _lines_by_atom(n_atoms, in_mask):
    """The inner lines through each atom (CSR: ``atom_lines[line_ptr[t]:line_ptr[t + 1]]``)."""
    n_inner = in_mask.size
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
    return line_ptr, atom_lines


@njit(cache=True)
def _connected(u, low, line_ptr, atom_lines, in_mask, stack):
    """Whether the lines inside the union ``u`` connect its atoms (depth-first over atoms from ``low``)."""
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
    return reached == u


@njit(cache=True)
def _inner_leak(u, outer_u, in_mask, in_dir, in_forb):
    """The leak mask of the union ``u`` (``outer_u`` and the inner lines meeting it without lying
    inside it), or -1 when a forbidden line lies inside it."""
    lk = outer_u
    for j in range(in_mask.size):
        a = in_mask[j]
        if a & u == 0:
            continue
        if a & ~u:
            lk |= 1 << in_dir[j]
        elif in_forb[j]:
            return -1
    return lk


@njit(cache=True)
def _union_weight(tot_u, lam_u, k):
    """Group weight of a union from its pooled counts ``tot_u`` and its number of configurations ``lam_u``."""
    n_b = 0.0
    w = math.lgamma(k * lam_u) - k * math.lgamma(lam_u)
    for j in range(k):
        n_b += tot_u[j]
        w += math.lgamma(tot_u[j] + lam_u)
    return w - math.lgamma(n_b + k * lam_u)


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
