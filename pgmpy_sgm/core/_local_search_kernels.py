"""Compiled best-improvement local search over partitions of parent configurations.

The same search as :func:`pgmpy_sgm.core._label_search.local_search` (greedy merges along
lines, then best-improvement merges, detachments and splits; every partition visited valid,
free of forbidden lines and regular), for the Dirichlet class weight of
:func:`pgmpy_sgm.core.bdeu_groups._one_class_weight`:

``w(B) = lgamma(r a lam) - lgamma(n_B + r a lam) + sum_k [lgamma(n_Bk + a lam) - lgamma(a lam)]
+ (lam - 1) (r - 1) log_kappa``

for a block ``B`` of ``lam`` configurations. With ``a = 1`` and ``log_kappa = 0`` this is the
group weight of :func:`pgmpy_sgm.core.lines.group_weights`.

Blocks are lists of configurations, not bitmasks, so any number of configurations is
searched. Moves are enumerated in the Python search's order: blocks in the order the
Python search keeps them (disjoint bitmasks compare as their highest configurations do),
and the first of equal gains wins, as there. The weights come from the C library's
``lgamma``, which differs from Python's ``math.lgamma`` in the last bits, so of two moves
whose gains agree to those bits either may be taken.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from pgmpy_sgm.core.bitsets import iter_bits

__all__ = ["compiled_local_search", "mask_weights"]

_MIN_GAIN = 1e-10


@njit(cache=True)
def _pooled_weight(pooled, size, a, log_kappa):
    """``w(B)`` of the module docstring for a block of ``size`` configurations whose counts sum to ``pooled``."""
    alpha = a * size
    return _weight_from_parts(pooled, alpha, math.lgamma(pooled.size * alpha), math.lgamma(alpha), size, log_kappa)


@njit(cache=True)
def _weight_from_parts(pooled, alpha, lgamma_r_alpha, lgamma_alpha, size, log_kappa):
    """``w(B)`` given ``lgamma(r alpha)`` and ``lgamma(alpha)``, which depend on the block's size alone."""
    r = pooled.size
    total_count = 0.0
    for k in range(r):
        total_count += pooled[k]
    w = lgamma_r_alpha - math.lgamma(total_count + r * alpha) - r * lgamma_alpha
    for k in range(r):
        w += math.lgamma(pooled[k] + alpha)
    return w + (size - 1) * (r - 1) * log_kappa


@njit(cache=True)
def _pool(members, n, counts, out):
    """Counts of the block ``members[:n]``, summed into ``out`` (zeroed first)."""
    out[:] = 0.0
    for j in range(n):
        for k in range(out.size):
            out[k] += counts[members[j], k]
    return out


@njit(cache=True)
def _block_weight(members, n, counts, a, log_kappa):
    """``w(B)`` of the module docstring for the block ``members[:n]``."""
    return _pooled_weight(_pool(members, n, counts, np.empty(counts.shape[1])), n, a, log_kappa)


@njit(cache=True)
def _mark(members, n, marks):
    """Tag ``members[:n]`` with a fresh stamp (``marks[0]`` holds the stamp); return it."""
    marks[0] += 1
    stamp = marks[0]
    for j in range(n):
        marks[1 + members[j]] = stamp
    return stamp


@njit(cache=True)
def _line_inside(i, stamp, marks, space):
    line_ptr, line_cfg = space[0], space[1]
    for u in range(line_ptr[i], line_ptr[i + 1]):
        if marks[1 + line_cfg[u]] != stamp:
            return False
    return True


@njit(cache=True)
def _leak(members, n, marks, space):
    """Direction mask of the lines that meet the block without lying inside it."""
    line_dirs, config_ptr, config_lines = space[2], space[4], space[5]
    stamp = _mark(members, n, marks)
    out = np.int64(0)
    for j in range(n):
        c = members[j]
        for t in range(config_ptr[c], config_ptr[c + 1]):
            i = config_lines[t]
            if not (out >> line_dirs[i]) & 1 and not _line_inside(i, stamp, marks, space):
                out |= np.int64(1) << line_dirs[i]
    return out


@njit(cache=True)
def _allowed_block(members, n, marks, space):
    """True when no line of a forbidden direction lies inside the block."""
    line_allowed, config_ptr, config_lines = space[3], space[4], space[5]
    stamp = _mark(members, n, marks)
    for j in range(n):
        c = members[j]
        for t in range(config_ptr[c], config_ptr[c + 1]):
            i = config_lines[t]
            if not line_allowed[i] and _line_inside(i, stamp, marks, space):
                return False
    return True


@njit(cache=True)
def _components(members, n, marks, seen, space, out, out_ptr, n_out):
    """Components of the set ``members[:n]`` through allowed lines inside it, appended to ``out``.

    Component ``j`` is ``out[out_ptr[j]:out_ptr[j + 1]]``; the new ones start at index ``n_out``
    and are ordered by their highest configuration (the order of disjoint bitmasks). Returns
    the new number of components.
    """
    line_ptr, line_cfg, line_allowed, config_ptr, config_lines = space[0], space[1], space[3], space[4], space[5]
    stamp = _mark(members, n, marks)
    seen[0] += 1
    visit = seen[0]
    first = n_out
    pos = out_ptr[n_out]
    for j in range(n):  # lowest unvisited configuration first, as the Python search grows them
        c0 = members[j]
        if seen[1 + c0] == visit:
            continue
        seen[1 + c0] = visit
        begin = pos
        out[pos] = c0
        pos += 1
        head = begin
        while head < pos:
            c = out[head]
            head += 1
            for t in range(config_ptr[c], config_ptr[c + 1]):
                i = config_lines[t]
                if line_allowed[i] and _line_inside(i, stamp, marks, space):
                    for u in range(line_ptr[i], line_ptr[i + 1]):
                        o = line_cfg[u]
                        if seen[1 + o] != visit:
                            seen[1 + o] = visit
                            out[pos] = o
                            pos += 1
        n_out += 1
        out_ptr[n_out] = pos
    _order_by_highest(out, out_ptr, first, n_out)
    return n_out


@njit(cache=True)
def _order_by_highest(members, ptr, first, last):
    """Reorder blocks ``first..last-1`` of ``(members, ptr)`` by their highest configuration."""
    count = last - first
    if count < 2:
        return
    highest = np.empty(count, np.int64)
    for j in range(count):
        highest[j] = members[ptr[first + j]:ptr[first + j + 1]].max()
    order = np.argsort(highest, kind="mergesort")
    begin = ptr[first]
    copy = members[begin:ptr[last]].copy()
    sizes = np.empty(count, np.int64)
    for j in range(count):
        sizes[j] = ptr[first + j + 1] - ptr[first + j]
    pos = begin
    for j in range(count):
        src = ptr[first + order[j]] - begin
        size = sizes[order[j]]
        members[pos:pos + size] = copy[src:src + size]
        pos += size
    for j in range(count):
        ptr[first + j + 1] = ptr[first + j] + sizes[order[j]]


@njit(cache=True)
def _partition_state(members, ptr, n_blocks, weighing, marks, space):
    """Owner of every configuration; counts, weight and leak of every block of the partition ``(members, ptr)``."""
    counts = weighing[0]
    owner = np.empty(counts.shape[0], np.int64)
    pooled = np.empty((n_blocks, counts.shape[1]))
    weights = np.empty(n_blocks)
    leaks = np.empty(n_blocks, np.int64)
    _weigh_blocks(members, ptr, n_blocks, weighing, owner, pooled, weights)
    for g in range(n_blocks):
        leaks[g] = _leak(members[ptr[g]:], ptr[g + 1] - ptr[g], marks, space)
    return owner, pooled, weights, leaks


@njit(cache=True)
def _weigh_blocks(members, ptr, n_blocks, weighing, owner, pooled, weights):
    """Fill ``owner`` (the block of each member), ``pooled`` (each block's counts) and ``weights``; their sum."""
    counts, a, log_kappa = weighing
    total = 0.0
    for g in range(n_blocks):
        block = members[ptr[g]:ptr[g + 1]]
        for c in block:
            owner[c] = g
        _pool(block, block.size, counts, pooled[g])
        weights[g] = _pooled_weight(pooled[g], block.size, a, log_kappa)
        total += weights[g]
    return total


@njit(cache=True)
def _consider(gain, removed, added, added_ptr, n_added, current, best, marks, space):
    """Keep the move in ``best`` when it gains most so far and the partition stays regular.

    ``current`` is ``(n_blocks, leaks, best_gain)`` (``best_gain`` a one-element array);
    ``removed`` flags the blocks the move removes and ``added[added_ptr[j]:added_ptr[j + 1]]``
    are the blocks it adds. ``best`` is ``(removed, added, added_ptr, n_added)`` (the last a
    one-element array).
    """
    n_blocks, leaks, best_gain = current
    if gain <= best_gain[0]:
        return
    full_dirs = space[8]
    acc = np.int64(0)
    for g in range(n_blocks):
        if not removed[g]:
            acc |= leaks[g]
    for j in range(n_added):
        if acc == full_dirs:
            break
        start = added_ptr[j]
        acc |= _leak(added[start:], added_ptr[j + 1] - start, marks, space)
    if acc != full_dirs:
        return
    best_removed, best_added, best_ptr, best_n = best
    best_removed[:n_blocks] = removed[:n_blocks]
    best_ptr[:n_added + 1] = added_ptr[:n_added + 1]
    best_added[:added_ptr[n_added]] = added[:added_ptr[n_added]]
    best_n[0] = n_added
    best_gain[0] = gain


@njit(cache=True)
def _merges(members, ptr, state, current, best, scratch, weighing, marks, space):
    """Every merge of the groups met by one allowed line (a merge met again is the same move)."""
    line_ptr, line_cfg, line_allowed = space[0], space[1], space[3]
    owner, pooled, weights, _ = state
    counts, a, log_kappa = weighing
    n_blocks, best_gain = current[0], current[2]
    removed, added, added_ptr = scratch
    removed[:n_blocks] = False
    touched = np.empty(owner.size, np.int64)
    union = np.empty(counts.shape[1])
    for i in range(line_ptr.size - 1):
        if not line_allowed[i]:
            continue
        n_touched = 0
        for u in range(line_ptr[i], line_ptr[i + 1]):
            g = owner[line_cfg[u]]
            if not removed[g]:
                removed[g] = True
                touched[n_touched] = g
                n_touched += 1
        if n_touched > 1:
            union[:] = 0.0
            size = 0
            lost = 0.0
            for g in range(n_blocks):  # ascending, as the union's bits
                if removed[g]:
                    union += pooled[g]
                    size += ptr[g + 1] - ptr[g]
                    lost += weights[g]
            gain = _pooled_weight(union, size, a, log_kappa) - lost
            if gain > best_gain[0]:
                pos = 0
                for g in range(n_blocks):
                    if removed[g]:
                        size_g = ptr[g + 1] - ptr[g]
                        added[pos:pos + size_g] = members[ptr[g]:ptr[g + 1]]
                        pos += size_g
                added_ptr[0], added_ptr[1] = 0, pos
                if _allowed_block(added, pos, marks, space):
                    _consider(gain, removed, added, added_ptr, 1, current, best, marks, space)
        for j in range(n_touched):
            removed[touched[j]] = False


@njit(cache=True)
def _sum_weights(added, added_ptr, n_added, weighing):
    counts, a, log_kappa = weighing
    total = 0.0
    for j in range(n_added):
        start = added_ptr[j]
        total += _block_weight(added[start:], added_ptr[j + 1] - start, counts, a, log_kappa)
    return total


@njit(cache=True)
def _copy_blocks(source, source_ptr, chosen, n, out, pos):
    """Append the blocks ``j < n`` of ``(source, source_ptr)`` with ``chosen[j]`` to ``out`` at ``pos``; the new end."""
    for j in range(n):
        if chosen[j]:
            size = source_ptr[j + 1] - source_ptr[j]
            out[pos:pos + size] = source[source_ptr[j]:source_ptr[j + 1]]
            pos += size
    return pos


@njit(cache=True)
def _append_each(source, source_ptr, skipped, n, out, out_ptr):
    """Write the blocks ``j < n`` of ``(source, source_ptr)`` without ``skipped[j]`` to ``(out, out_ptr)``, each a
    block of its own, from the start; return their number."""
    out_ptr[0] = 0
    count = 0
    for j in range(n):
        if not skipped[j]:
            size = source_ptr[j + 1] - source_ptr[j]
            start = out_ptr[count]
            out[start:start + size] = source[source_ptr[j]:source_ptr[j + 1]]
            count += 1
            out_ptr[count] = start + size
    return count


@njit(cache=True)
def _detachments(members, ptr, state, current, best, scratch, weighing, marks, space):
    """One configuration out of its group, alone or into the groups met by one of its allowed lines."""
    line_allowed, config_ptr, config_lines = space[3], space[4], space[5]
    weights = state[2]
    counts, a, log_kappa = weighing
    n_blocks, best_gain = current[0], current[2]
    removed, added, added_ptr = scratch
    q, r = counts.shape
    seen = np.zeros(q + 1, np.int64)
    rest = np.empty(q, np.int64)
    rest_ptr = np.zeros(q + 1, np.int64)
    rest_of = np.empty(q, np.int64)  # the rest component holding each other configuration of the block
    rest_pooled = np.empty((q, r))
    rest_weights = np.empty(q)
    work = (np.zeros(n_blocks, np.bool_), np.zeros(q, np.bool_), np.empty(r))  # absorbed blocks, rests; union
    others = np.empty(q, np.int64)
    removed[:n_blocks] = False
    for g in range(n_blocks):
        if ptr[g + 1] - ptr[g] == 1:
            continue
        block = members[ptr[g]:ptr[g + 1]]
        for c in block:
            n_others = 0
            for o in block:
                if o != c:
                    others[n_others] = o
                    n_others += 1
            n_rest = _components(others, n_others, marks, seen, space, rest, rest_ptr, 0)
            kept_weight = _weigh_blocks(rest, rest_ptr, n_rest, weighing, rest_of, rest_pooled, rest_weights)
            # alone: the rest's components, then the configuration
            removed[g] = True
            gain = kept_weight + _pooled_weight(counts[c], 1, a, log_kappa) - weights[g]
            if gain > best_gain[0]:
                added[:rest_ptr[n_rest]] = rest[:rest_ptr[n_rest]]
                added_ptr[:n_rest + 1] = rest_ptr[:n_rest + 1]
                added[rest_ptr[n_rest]] = c
                added_ptr[n_rest + 1] = rest_ptr[n_rest] + 1
                _consider(gain, removed, added, added_ptr, n_rest + 1, current, best, marks, space)
            rests = (rest, rest_ptr, rest_of, rest_pooled, rest_weights, n_rest)
            for t in range(config_ptr[c], config_ptr[c + 1]):
                if line_allowed[config_lines[t]]:
                    _into_line(c, g, config_lines[t], members, ptr, state, rests, work, current, best, scratch,
                               weighing, marks, space)
            removed[g] = False


@njit(cache=True)
def _into_line(c, g, i, members, ptr, state, rests, work, current, best, scratch, weighing, marks, space):
    """Configuration ``c`` of block ``g`` into the groups met by line ``i``: the other blocks it meets and the
    components of the rest of ``g`` it meets join ``c``; the rest's other components stay apart."""
    line_ptr, line_cfg = space[0], space[1]
    owner, pooled, weights, _ = state
    rest, rest_ptr, rest_of, rest_pooled, rest_weights, n_rest = rests
    absorbed, absorbed_rest, union = work
    counts, a, log_kappa = weighing
    n_blocks, best_gain = current[0], current[2]
    removed, added, added_ptr = scratch
    for u in range(line_ptr[i], line_ptr[i + 1]):
        o = line_cfg[u]
        if o != c:
            if owner[o] == g:
                absorbed_rest[rest_of[o]] = True
            else:
                absorbed[owner[o]] = True
    union[:] = counts[c]
    size = 1
    lost = 0.0
    for h in range(n_blocks):
        if absorbed[h] or h == g:
            lost += weights[h]
        if absorbed[h]:
            union += pooled[h]
            size += ptr[h + 1] - ptr[h]
    gained = 0.0
    for j in range(n_rest):
        if absorbed_rest[j]:
            union += rest_pooled[j]
            size += rest_ptr[j + 1] - rest_ptr[j]
        else:
            gained += rest_weights[j]
    gain = gained + _pooled_weight(union, size, a, log_kappa) - lost
    if gain > best_gain[0]:
        # the kept rest components (their order), then the union: c, absorbed blocks, absorbed rest
        n_added = _append_each(rest, rest_ptr, absorbed_rest, n_rest, added, added_ptr)
        union_start = added_ptr[n_added]
        added[union_start] = c
        pos = _copy_blocks(members, ptr, absorbed, n_blocks, added, union_start + 1)
        pos = _copy_blocks(rest, rest_ptr, absorbed_rest, n_rest, added, pos)
        n_added += 1
        added_ptr[n_added] = pos
        if _allowed_block(added[union_start:], pos - union_start, marks, space):
            removed[:n_blocks] |= absorbed
            _consider(gain, removed, added, added_ptr, n_added, current, best, marks, space)
            removed[:n_blocks] &= ~absorbed  # g is never absorbed: it stays removed
    absorbed[:] = False
    absorbed_rest[:n_rest] = False


@njit(cache=True)
def _splits(members, ptr, state, current, best, scratch, weighing, marks, space):
    """Cuts of one group along a parent value, both sides split into their components."""
    slice_ptr, slice_cfg = space[6], space[7]
    weights = state[2]
    n_blocks = current[0]
    removed, added, added_ptr = scratch
    seen = np.zeros(marks.size, np.int64)
    inside = np.empty(marks.size, np.int64)
    outside = np.empty(marks.size, np.int64)
    in_half = np.zeros(marks.size, np.bool_)
    removed[:n_blocks] = False
    for g in range(n_blocks):
        size = ptr[g + 1] - ptr[g]
        if size == 1:
            continue
        block = members[ptr[g]:ptr[g + 1]]
        for s in range(slice_ptr.size - 1):
            for u in range(slice_ptr[s], slice_ptr[s + 1]):
                in_half[slice_cfg[u]] = True
            n_in = 0
            n_out = 0
            for c in block:
                if in_half[c]:
                    inside[n_in] = c
                    n_in += 1
                else:
                    outside[n_out] = c
                    n_out += 1
            for u in range(slice_ptr[s], slice_ptr[s + 1]):
                in_half[slice_cfg[u]] = False
            if n_in == 0 or n_out == 0:
                continue
            added_ptr[0] = 0
            n_added = _components(inside, n_in, marks, seen, space, added, added_ptr, 0)
            n_added = _components(outside, n_out, marks, seen, space, added, added_ptr, n_added)
            removed[g] = True
            gain = _sum_weights(added, added_ptr, n_added, weighing) - weights[g]
            _consider(gain, removed, added, added_ptr, n_added, current, best, marks, space)
            removed[g] = False


@njit(cache=True)
def _apply(members, ptr, n_blocks, best):
    """The partition after the best move: the blocks it keeps, in order, then the blocks it adds."""
    best_removed, best_added, best_ptr, best_n = best
    new_members = np.empty(members.size, np.int64)
    new_ptr = np.zeros(members.size + 1, np.int64)
    n = _append_each(members, ptr, best_removed, n_blocks, new_members, new_ptr)
    pos = new_ptr[n]
    for j in range(best_n[0]):
        block = np.sort(best_added[best_ptr[j]:best_ptr[j + 1]])
        new_members[pos:pos + block.size] = block
        pos += block.size
        n += 1
        new_ptr[n] = pos
    return new_members, new_ptr, n


@njit(cache=True)
def _search(members, ptr, n_blocks, counts, a, log_kappa, space):
    """The search from the partition ``(members, ptr)``; ``space`` is ``PartitionSpace.kernel_arrays()``."""
    q = counts.shape[0]
    marks = np.zeros(q + 1, np.int64)
    weighing = (counts, a, log_kappa)
    scratch = (np.zeros(q, np.bool_), np.empty(q, np.int64), np.zeros(q + 1, np.int64))
    for with_local_moves in (False, True):
        while True:
            state = _partition_state(members, ptr, n_blocks, weighing, marks, space)
            best = (np.zeros(q, np.bool_), np.empty(q, np.int64), np.zeros(q + 1, np.int64), np.full(1, -1))
            current = (n_blocks, state[3], np.full(1, _MIN_GAIN))
            _merges(members, ptr, state, current, best, scratch, weighing, marks, space)
            if with_local_moves:
                _detachments(members, ptr, state, current, best, scratch, weighing, marks, space)
                _splits(members, ptr, state, current, best, scratch, weighing, marks, space)
            if best[3][0] < 0:
                break
            members, ptr, n_blocks = _apply(members, ptr, n_blocks, best)
    _order_by_highest(members, ptr, 0, n_blocks)
    return members, ptr, n_blocks


@njit(cache=True)
def _mask_weights(masks, counts, a, log_kappa):
    q, r = counts.shape
    out = np.empty(masks.size)
    pooled = np.empty(r)
    lgamma_r_alpha = np.empty(q + 1)  # the two terms that depend on a block's size alone, once per size
    lgamma_alpha = np.empty(q + 1)
    for size in range(1, q + 1):
        lgamma_r_alpha[size] = math.lgamma(r * (a * size))
        lgamma_alpha[size] = math.lgamma(a * size)
    for b in range(masks.size):
        mask = masks[b]
        pooled[:] = 0.0
        size = 0
        for c in range(q):
            if (mask >> c) & 1:
                size += 1
                for k in range(r):
                    pooled[k] += counts[c, k]
        out[b] = _weight_from_parts(pooled, a * size, lgamma_r_alpha[size], lgamma_alpha[size], size, log_kappa)
    return out


def mask_weights(masks: np.ndarray, counts: np.ndarray, a: float, log_kappa: float = 0.0) -> np.ndarray:
    """``w(B)`` of the module docstring for every block given as a bitmask (at most 63 configurations).

    The exact search weighs all its valid blocks with this (one compiled pass, without the
    blocks-by-configurations membership matrix).

    Parameters
    ----------
    masks : int64 array
        Blocks as bitmasks over the rows of ``counts``.
    counts : ndarray, shape (n_configs, r)
    a, log_kappa : float
        As in :func:`compiled_local_search`.

    Returns
    -------
    float64 array

    Raises
    ------
    ValueError
        For counts that are not a table of finite non-negative numbers, ``a <= 0``, or a mask
        with a bit beyond the rows of ``counts``.

    Examples
    --------
    >>> from pgmpy_sgm.core.bdeu_groups import bdeu_class_weights
    >>> counts = np.array([[3.0, 1.0], [2.0, 2.0]])
    >>> w = mask_weights(np.array([0b01, 0b10, 0b11]), counts, a=1.0)
    >>> bool(np.isclose(w[0] + w[1], bdeu_class_weights(counts, [0, 1], ess=4.0)))
    True
    """
    counts = _checked_counts(counts, None, a)
    masks = np.asarray(masks, dtype=np.int64)
    if masks.ndim != 1 or np.any(masks <= 0) or np.any(masks >> counts.shape[0]):
        raise ValueError(f"masks must be non-empty blocks over the {counts.shape[0]} rows of counts (bits 0 to "
                         f"{counts.shape[0] - 1})")
    return _mask_weights(masks, counts, float(a), float(log_kappa))


def _checked_counts(counts, n_configs: int | None, a: float) -> np.ndarray:
    """``counts`` as a C-ordered float table, refused by name when it cannot be one family's counts."""
    counts = np.ascontiguousarray(counts, dtype=np.float64)
    if counts.ndim != 2 or counts.shape[1] == 0 or (n_configs is not None and counts.shape[0] != n_configs):
        rows = "rows" if n_configs is None else f"{n_configs} rows (one per configuration)"
        raise ValueError(f"counts must be a 2-D table with {rows} and a column per state, got shape {counts.shape}")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError("counts must hold finite non-negative numbers")
    if not (math.isfinite(a) and a > 0):
        raise ValueError(f"a must be a positive number, got {a!r}")
    return counts


def _partition_arrays(blocks: list[int], n_configs: int) -> tuple[np.ndarray, np.ndarray]:
    union, held = 0, 0
    for block in blocks:
        union |= block
        held += int(block).bit_count()
    if union != (1 << n_configs) - 1 or held != n_configs or any(block <= 0 for block in blocks):
        raise ValueError(f"start must partition the {n_configs} configurations into non-empty disjoint blocks; its "
                         f"blocks hold {held} configurations, {union.bit_count()} distinct")
    members = np.empty(n_configs, dtype=np.int64)
    ptr = np.zeros(n_configs + 1, dtype=np.int64)
    pos = 0
    for g, block in enumerate(blocks):
        configs = list(iter_bits(block))
        members[pos:pos + len(configs)] = configs
        pos += len(configs)
        ptr[g + 1] = pos
    return members, ptr


def compiled_local_search(space, counts, a: float, log_kappa: float = 0.0, start: list[int] | None = None) -> list[int]:
    """Best-improvement local search of ``space``'s partitions under the Dirichlet class weight, compiled.

    Parameters
    ----------
    space : PartitionSpace
        The configurations' lines and forbidden directions.
    counts : ndarray, shape (n_configs, r)
        Counts of the node's states per configuration.
    a : float
        Dirichlet hyperparameter per configuration and state (a class of ``lam`` configurations
        has ``a * lam`` per state).
    log_kappa : float, default=0.0
        Charge per free parameter a class removes (``<= 0``).
    start : list of int, optional
        Blocks (bitmasks) to start from, a valid and regular partition; default: every
        configuration alone.

    Returns
    -------
    list of int
        The blocks found, as bitmasks, in increasing order.

    Raises
    ------
    ValueError
        For counts that are not one row per configuration of finite non-negative numbers,
        ``a <= 0``, or a start that does not partition the configurations.

    Examples
    --------
    >>> from pgmpy_sgm.core._label_search import PartitionSpace
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50.0, 0.0], [0.0, 50.0], [50.0, 0.0], [25.0, 25.0]])
    >>> compiled_local_search(space, counts, a=1.0)  # merges configurations 0 and 2
    [2, 5, 8]
    """
    q = space.n_configs
    if start is None:
        members, ptr, n_blocks = np.arange(q, dtype=np.int64), np.arange(q + 1, dtype=np.int64), q
    else:
        members, ptr = _partition_arrays(list(start), q)
        n_blocks = len(start)
    counts = _checked_counts(counts, q, a)
    members, ptr, n_blocks = _search(members, ptr, n_blocks, counts, float(a), float(log_kappa), space.kernel_arrays())
    return [sum(1 << int(c) for c in members[ptr[g]:ptr[g + 1]]) for g in range(n_blocks)]
