"""Numba kernels of the exact clique-labelling optimizer (:mod:`pgmpy_sgm.core.optimize`).

Sets of parent configurations are bitmasks (bit ``c`` = configuration ``c``), so
these kernels handle at most :data:`~pgmpy_sgm.core.optimize.MAX_EXACT_CONFIGS`
configurations (a reachability table of ``2**P`` entries).

The dynamic programme partitions a *remaining set* ``S`` by choosing the block that
contains the lowest configuration of ``S``. A state is a remaining set reachable from
the full set this way; its value table has one entry per *direction mask* ``M``:
the best value of a partition of ``S`` whose blocks leak in (at least) every
direction of ``M``. Regularity asks the full set to reach the mask of all directions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["reachable_states", "solve_partition_dp", "dominated_blocks", "regular_partition", "groups_of_blocks"]


@njit(cache=True)
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask (compiled).

    Examples
    --------
    >>> lowest_bit(0b1000)
    3
    """
    i = 0
    while (mask >> i) & 1 == 0:
        i += 1
    return i


@njit(cache=True)
def reachable_states(n_configs, blocks, bymin_ptr):
    """States and transitions of the partition DP.

    Parameters
    ----------
    n_configs : int
        Number of configurations (<= 16).
    blocks : int64 array
        Valid blocks as bitmasks, sorted by lowest configuration.
    bymin_ptr : int64 array, length n_configs + 1
        ``blocks[bymin_ptr[c]:bymin_ptr[c + 1]]`` are the blocks whose lowest configuration is ``c``.

    Returns
    -------
    states : int64 array
        Reachable remaining sets in increasing order; ``states[0] == 0`` (the empty set).
    ptr, t_block, t_next : int64 arrays
        Transitions of state ``s`` are ``ptr[s]:ptr[s + 1]``: choosing block ``t_block[t]``
        leads to state index ``t_next[t]`` (always a smaller index).
    """
    size = 1 << n_configs
    full = size - 1
    reach = np.zeros(size, np.bool_)
    reach[full] = True
    n_trans = 0
    for s in range(full, 0, -1):
        if not reach[s]:
            continue
        low = lowest_bit(s)
        for j in range(bymin_ptr[low], bymin_ptr[low + 1]):
            b = blocks[j]
            if b & ~s == 0:
                reach[s & ~b] = True
                n_trans += 1
    index = np.full(size, -1, np.int64)
    n_states = 0
    for s in range(size):
        if reach[s] or s == 0:
            index[s] = n_states
            n_states += 1
    states = np.empty(n_states, np.int64)
    ptr = np.zeros(n_states + 1, np.int64)
    t_block = np.empty(n_trans, np.int64)
    t_next = np.empty(n_trans, np.int64)
    t = 0
    for s in range(size):
        i = index[s]
        if i < 0:
            continue
        states[i] = s
        if s != 0:
            low = lowest_bit(s)
            for j in range(bymin_ptr[low], bymin_ptr[low + 1]):
                b = blocks[j]
                if b & ~s == 0:
                    t_block[t] = j
                    t_next[t] = index[s & ~b]
                    t += 1
        ptr[i + 1] = t
    return states, ptr, t_block, t_next


@njit(cache=True)
def relax(val, cnt, arg, s, nxt, wb, keep, tag, n_masks, tol):
    """Try block ``tag`` (weight ``wb``, leaving state ``nxt``) for every mask of state ``s``.

    ``val``/``cnt``/``arg`` hold the best value, its number of blocks and the choice per
    (state, directions still to cut); higher value by more than ``tol`` wins, then more
    blocks. ``keep`` masks out the directions the block itself cuts.
    """
    for m in range(n_masks):
        r = m & keep
        sub = val[nxt, r]
        if sub == -np.inf:
            continue
        v = wb + sub
        g = cnt[nxt, r] + 1
        cur = val[s, m]
        if v > cur + tol or (v > cur - tol and g > cnt[s, m]):
            val[s, m] = v
            cnt[s, m] = g
            arg[s, m] = tag


@njit(cache=True)
def dominated_blocks(blocks, weights, position, tol):
    """Blocks that some partition beats by more than ``tol``: one configuration peeled off.

    A block ``B`` is dominated when, for one of its configurations ``c``, ``{c}`` and ``B - {c}``
    are both valid blocks and ``w({c}) + w(B - {c}) > w(B) + tol``. Such a block is never in
    the partition the programme picks: the two blocks leak in every direction ``B`` leaks in,
    so wherever ``B`` fits, the pair does better. Skipping them changes no choice.

    Parameters
    ----------
    blocks : int64 array
        Valid blocks as bitmasks.
    weights : float64 array
        Weight of every block.
    position : int32 array
        ``position[mask]`` is the index of the block ``mask`` in ``blocks``, -1 for a set that is
        not a valid block; empty to skip nothing.
    tol : float
        The programme's tie tolerance.

    Returns
    -------
    bool array
        True for the dominated blocks.

    Examples
    --------
    >>> blocks = np.array([0b01, 0b10, 0b11])  # two configurations, and both together
    >>> position = np.array([-1, 0, 1, 2], dtype=np.int32)
    >>> dominated_blocks(blocks, np.array([-1.0, -1.0, -3.0]), position, 1e-9).tolist()  # apart is better
    [False, False, True]
    >>> dominated_blocks(blocks, np.array([-1.0, -1.0, -1.5]), position, 1e-9).tolist()
    [False, False, False]
    """
    n = blocks.size
    out = np.zeros(n, np.bool_)
    if position.size == 0:
        return out
    for b in range(n):
        mask = blocks[b]
        if mask & (mask - 1) == 0:
            continue
        left = mask
        while left:
            single = left & -left
            left ^= single
            rest = position[mask ^ single]
            if rest >= 0 and weights[position[single]] + weights[rest] > weights[b] + tol:
                out[b] = True
                break
    return out


@njit(cache=True)
def solve_partition_dp(ptr, t_block, t_next, weights, leak, n_masks, tol, skip):
    """Best partition of the full set into blocks, with regularity as a direction mask.

    Comparison is lexicographic: a higher value by more than ``tol`` wins; within
    ``tol`` more blocks win; otherwise the first candidate found is kept.

    Parameters
    ----------
    ptr, t_block, t_next : int64 arrays
        Transitions from :func:`reachable_states`.
    weights : float64 array
        Weight of every block.
    leak : int64 array
        Direction mask in which every block leaks.
    n_masks : int
        ``2 ** n_directions``; pass 1 to ignore regularity.
    tol : float
        Tie tolerance of the lexicographic comparison.
    skip : bool array
        Blocks never to choose (:func:`dominated_blocks`).

    Returns
    -------
    chosen : int64 array
        Indices of the blocks of the best partition (empty if none is feasible).
    value : float
        Its value as summed by the DP (-inf if infeasible).
    """
    n_states = ptr.size - 1
    full_mask = n_masks - 1
    val = np.full((n_states, n_masks), -np.inf)
    cnt = np.zeros((n_states, n_masks), np.int64)
    arg = np.full((n_states, n_masks), -1, np.int64)
    val[0, 0] = 0.0
    for s in range(1, n_states):
        for t in range(ptr[s], ptr[s + 1]):
            b = t_block[t]
            if skip[b]:
                continue
            relax(val, cnt, arg, s, t_next[t], weights[b], full_mask & ~leak[b], t, n_masks, tol)
    s = n_states - 1
    m = full_mask
    value = val[s, m]
    chosen = np.empty(cnt[s, m] if value > -np.inf else 0, np.int64)
    i = 0
    while s != 0 and value > -np.inf:
        t = arg[s, m]
        b = t_block[t]
        chosen[i] = b
        i += 1
        m = m & ~leak[b]
        s = t_next[t]
    return chosen, value


@njit(cache=True)
def regular_partition(ptr, t_block, t_next, weights, leak, n_dirs, tol, skip):
    """Best regular partition by the programme, regularity imposed only where the relaxed optimum needs it.

    Regularity rarely binds: the programme first runs with no direction constrained, then
    constrains every direction its optimum does not leak in, and widens that set until the
    optimum leaks in every direction (then it is optimal). Returns the chosen blocks (each
    holding the lowest configuration the earlier ones leave) and their summed weight.

    Examples
    --------
    >>> blocks = np.array([0b01, 0b11, 0b10])  # sorted by lowest configuration
    >>> _, ptr, t_block, t_next = reachable_states(2, blocks, np.array([0, 2, 3]))
    >>> chosen, value = regular_partition(ptr, t_block, t_next, np.array([-1.0, -1.5, -1.0]),
    ...                                   np.zeros(3, np.int64), 0, 1e-9, np.zeros(3, np.bool_))
    >>> chosen.tolist(), value  # both configurations together beat them apart
    ([1], -1.5)
    """
    full = (1 << n_dirs) - 1
    constrained = 0  # directions whose leak is imposed, as a mask
    remapped = np.zeros(leak.size, np.int64)
    while True:
        n_constrained = 0
        remapped[:] = 0
        for d in range(n_dirs):
            if (constrained >> d) & 1:
                for b in range(leak.size):
                    remapped[b] |= ((leak[b] >> d) & 1) << n_constrained
                n_constrained += 1
        chosen, value = solve_partition_dp(ptr, t_block, t_next, weights, remapped, 1 << n_constrained, tol, skip)
        reached = 0
        for b in chosen:
            reached |= leak[b]
        missing = full & ~reached
        if missing == 0 or chosen.size == 0:
            return chosen, value
        constrained |= missing


@njit(cache=True)
def groups_of_blocks(blocks, chosen, n_configs):
    """The group of every configuration: ``g`` for the configurations of block ``chosen[g]`` (compiled).

    Examples
    --------
    >>> groups_of_blocks(np.array([0b0001, 0b1010, 0b0100]), np.array([0, 1, 2]), 4).tolist()
    [0, 1, 2, 1]
    """
    group_ids = np.empty(n_configs, np.int64)
    for g in range(chosen.size):
        left = blocks[chosen[g]]
        while left:
            group_ids[lowest_bit(left)] = g
            left &= left - 1
    return group_ids
