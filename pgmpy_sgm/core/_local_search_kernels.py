"""Compiled best-improvement local search over partitions of parent configurations.

The same search as :func:`pgmpy_sgm.core._label_search.local_search` (greedy merges along
lines, then best-improvement merges, detachments and splits; every partition visited valid,
free of forbidden lines and regular), for the Dirichlet class weight of
:func:`pgmpy_sgm.core.bdeu_groups._one_class_weight`:

``w(B) = lgamma(r a lam) - lgamma(n_B + r a lam) + sum_k [lgamma(n_Bk + a lam) - lgamma(a lam)]
+ (lam - 1) (r - 1) log_kappa``

for a block ``B`` of ``lam`` configurations. With ``a = 1`` and ``log_kappa = 0`` this is the
group weight of :func:`pgmpy_sgm.core.lines.group_weights`. Moves are enumerated in the
Python search's order and the first of equal gains wins, as there; the weights come from
the C library's ``lgamma``, which differs from Python's ``math.lgamma`` in the last bits, so
of two moves whose gains agree to those bits either may be taken.

Blocks are ``int64`` bitmasks over at most :data:`MAX_CONFIGS` configurations (bit 63 is
the sign bit; masks are ordered as unsigned numbers, as Python orders them).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.core import types
from numba.typed import Dict

__all__ = ["MAX_CONFIGS", "compiled_local_search"]

#: Most configurations a partition of the compiled search may have (one bit each in an int64).
MAX_CONFIGS = 64

_MIN_GAIN = 1e-10
_SIGN = np.int64(-(2**63))


@njit(cache=True)
def _unsigned_key(mask):
    return mask ^ _SIGN


@njit(cache=True)
def _sort_unsigned(masks, n):
    """Insertion sort of ``masks[:n]`` as unsigned numbers (n <= 64)."""
    for i in range(1, n):
        value = masks[i]
        key = _unsigned_key(value)
        j = i - 1
        while j >= 0 and _unsigned_key(masks[j]) > key:
            masks[j + 1] = masks[j]
            j -= 1
        masks[j + 1] = value


@njit(cache=True)
def _block_weight(block, weighing):
    """``w(block)`` of the module docstring, cached; ``weighing`` is ``(counts, a, log_kappa, cache)``."""
    counts, a, log_kappa, cache = weighing
    if block in cache:
        return cache[block]
    q, r = counts.shape
    pooled = np.zeros(r)
    size = 0
    for c in range(q):
        if (block >> c) & 1:
            size += 1
            for k in range(r):
                pooled[k] += counts[c, k]
    alpha = a * size
    total_count = 0.0
    for k in range(r):
        total_count += pooled[k]
    w = math.lgamma(r * alpha) - math.lgamma(total_count + r * alpha) - r * math.lgamma(alpha)
    for k in range(r):
        w += math.lgamma(pooled[k] + alpha)
    w += (size - 1) * (r - 1) * log_kappa
    cache[block] = w
    return w


@njit(cache=True)
def _sum_weights(blocks, n, weighing):
    total = 0.0
    for j in range(n):
        total += _block_weight(blocks[j], weighing)
    return total


@njit(cache=True)
def _leak(block, space, leaks):
    """Direction mask of the lines that meet ``block`` without lying inside it (cached in ``leaks``)."""
    if block in leaks:
        return leaks[block]
    line_masks, line_dirs, _, _, config_ptr, config_lines = space[:6]
    out = np.int64(0)
    for c in range(len(config_ptr) - 1):
        if (block >> c) & 1:
            for t in range(config_ptr[c], config_ptr[c + 1]):
                i = config_lines[t]
                if line_masks[i] & ~block:
                    out |= np.int64(1) << line_dirs[i]
    leaks[block] = out
    return out


@njit(cache=True)
def _allowed_block(block, space):
    for m in space[3]:
        if m & ~block == 0:
            return False
    return True


@njit(cache=True)
def _components(subset, space, out, start):
    """Components of ``subset`` through allowed lines inside it, written sorted to ``out[start:]``; their number."""
    line_masks, _, line_allowed, _, config_ptr, config_lines = space[:6]
    n = 0
    left = subset
    while left:
        comp = left & -left
        frontier = comp
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            c = 0
            while (low >> c) & 1 == 0:
                c += 1
            for t in range(config_ptr[c], config_ptr[c + 1]):
                i = config_lines[t]
                if line_allowed[i]:
                    m = line_masks[i]
                    if m & ~subset == 0 and m & ~comp:
                        frontier |= m & ~comp
                        comp |= m
        out[start + n] = comp
        n += 1
        left &= ~comp
    _sort_unsigned(out[start:], n)
    return n


@njit(cache=True)
def _regular(blocks, n, space, leaks):
    full_dirs = space[7]
    acc = np.int64(0)
    for g in range(n):
        acc |= _leak(blocks[g], space, leaks)
        if acc == full_dirs:
            return True
    return False


@njit(cache=True)
def _consider(gain, move, added, n_added, space, leaks):
    """Keep ``blocks`` without ``removed`` plus ``added`` in ``move`` when it gains most so far and stays regular.

    ``move`` is ``(blocks, n_blocks, candidate, best, best_gain)``, the last a one-element array;
    returns the number of blocks kept, or -1.
    """
    blocks, n_blocks, removed, candidate, best, best_gain = move
    if gain <= best_gain[0]:
        return -1
    n = 0
    for g in range(n_blocks):
        if not (removed >> g) & 1:
            candidate[n] = blocks[g]
            n += 1
    for j in range(n_added):
        candidate[n] = added[j]
        n += 1
    if not _regular(candidate, n, space, leaks):
        return -1
    best[:n] = candidate[:n]
    best_gain[0] = gain
    return n


@njit(cache=True)
def _owners(blocks, n_blocks, q):
    owner = np.empty(q, np.int64)
    for g in range(n_blocks):
        for c in range(q):
            if (blocks[g] >> c) & 1:
                owner[c] = g
    return owner


@njit(cache=True)
def _merges(blocks, n_blocks, weights, owner, work, weighing, space, leaks):
    """Merges of the groups met by one line; the blocks of the best kept in ``work``'s best, their number or -1."""
    line_masks, line_ptr, line_cfg = space[0], space[8], space[9]
    candidate, best, best_gain, added = work
    best_n = -1
    seen = set()
    seen.add(np.int64(0))
    for i in range(len(line_masks)):
        if not space[2][i]:
            continue
        touched = np.int64(0)
        for t in range(line_ptr[i], line_ptr[i + 1]):
            touched |= np.int64(1) << owner[line_cfg[t]]
        if touched & (touched - 1) == 0 or touched in seen:
            continue
        seen.add(touched)
        union = np.int64(0)
        lost = 0.0
        for g in range(n_blocks):
            if (touched >> g) & 1:
                union |= blocks[g]
                lost += weights[g]
        if not _allowed_block(union, space):
            continue
        added[0] = union
        gain = _block_weight(union, weighing) - lost
        n = _consider(gain, (blocks, n_blocks, touched, candidate, best, best_gain), added, 1, space, leaks)
        if n >= 0:
            best_n = n
    return best_n


@njit(cache=True)
def _detachments(blocks, n_blocks, weights, owner, work, weighing, space, leaks):
    """One configuration out of its group, alone or into the groups met by one of its lines (as :func:`_merges`)."""
    config_ptr, config_lines, line_ptr, line_cfg = space[4], space[5], space[8], space[9]
    candidate, best, best_gain, added = work
    q = len(owner)
    best_n = -1
    after = np.empty(MAX_CONFIGS + 1, np.int64)
    after_index = np.empty(MAX_CONFIGS + 1, np.int64)
    after_owner = np.empty(q, np.int64)
    for g in range(n_blocks):
        block = blocks[g]
        if block & (block - 1) == 0:
            continue
        for c in range(q):
            if not (block >> c) & 1:
                continue
            single = np.int64(1) << c
            n_rest = _components(block & ~single, space, added, 0)
            added[n_rest] = single
            gain = _sum_weights(added, n_rest + 1, weighing) - weights[g]
            move = (blocks, n_blocks, np.int64(1) << g, candidate, best, best_gain)
            n = _consider(gain, move, added, n_rest + 1, space, leaks)
            if n >= 0:
                best_n = n
            # the blocks after the detachment: those before g, those after g, then the rest of g's block
            n_after = 0
            for h in range(n_blocks):
                if h != g:
                    after[n_after] = blocks[h]
                    after_index[n_after] = h
                    n_after += 1
            for j in range(n_rest):
                after[n_after] = added[j]
                after_index[n_after] = -1
                n_after += 1
            for o in range(q):
                h = owner[o]
                if h != g:
                    after_owner[o] = h if h < g else h - 1
                else:
                    for j in range(n_rest):
                        if (added[j] >> o) & 1:
                            after_owner[o] = n_blocks - 1 + j
            for t in range(config_ptr[c], config_ptr[c + 1]):
                i = config_lines[t]
                if not space[2][i]:
                    continue
                absorbed = np.int64(0)
                for u in range(line_ptr[i], line_ptr[i + 1]):
                    if line_cfg[u] != c:
                        absorbed |= np.int64(1) << after_owner[line_cfg[u]]
                union = single
                for h in range(n_after):
                    if (absorbed >> h) & 1:
                        union |= after[h]
                if not _allowed_block(union, space):
                    continue
                n_added = 0
                for h in range(n_after):
                    if not (absorbed >> h) & 1 and after[h] & block:
                        added[n_added] = after[h]
                        n_added += 1
                added[n_added] = union
                n_added += 1
                removed = np.int64(1) << g
                for h in range(n_after):
                    if (absorbed >> h) & 1 and not after[h] & block:
                        removed |= np.int64(1) << after_index[h]
                lost = 0.0
                for h in range(n_blocks):
                    if (removed >> h) & 1:
                        lost += weights[h]
                gain = _sum_weights(added, n_added, weighing) - lost
                n = _consider(gain, (blocks, n_blocks, removed, candidate, best, best_gain), added, n_added, space,
                              leaks)
                if n >= 0:
                    best_n = n
    return best_n


@njit(cache=True)
def _splits(blocks, n_blocks, weights, work, weighing, space, leaks):
    """Cuts of one group along a parent value, both sides split into their components (as :func:`_merges`)."""
    candidate, best, best_gain, added = work
    best_n = -1
    for g in range(n_blocks):
        block = blocks[g]
        if block & (block - 1) == 0:
            continue
        for half in space[6]:
            inside = block & half
            if inside == 0 or inside == block:
                continue
            n_in = _components(inside, space, added, 0)
            n_out = _components(block & ~inside, space, added, n_in)
            gain = _sum_weights(added, n_in + n_out, weighing) - weights[g]
            move = (blocks, n_blocks, np.int64(1) << g, candidate, best, best_gain)
            n = _consider(gain, move, added, n_in + n_out, space, leaks)
            if n >= 0:
                best_n = n
    return best_n


@njit(cache=True)
def _best_move(blocks, n_blocks, with_local_moves, best, weighing, space, leaks):
    """The best improving move from ``blocks[:n_blocks]``, written to ``best``; its number of blocks, or -1.

    Merges first, then (``with_local_moves``) detachments and splits, in the Python search's order.
    """
    q = weighing[0].shape[0]
    work = (np.empty(MAX_CONFIGS, np.int64), best, np.full(1, _MIN_GAIN), np.empty(MAX_CONFIGS + 1, np.int64))
    weights = np.empty(n_blocks)
    for g in range(n_blocks):
        weights[g] = _block_weight(blocks[g], weighing)
    owner = _owners(blocks, n_blocks, q)
    best_n = _merges(blocks, n_blocks, weights, owner, work, weighing, space, leaks)
    if with_local_moves:
        n = _detachments(blocks, n_blocks, weights, owner, work, weighing, space, leaks)
        if n >= 0:
            best_n = n
        n = _splits(blocks, n_blocks, weights, work, weighing, space, leaks)
        if n >= 0:
            best_n = n
    return best_n


@njit(cache=True)
def _search(start, counts, a, log_kappa, space):
    """The search from the blocks ``start``; ``space`` is ``PartitionSpace.kernel_arrays()``."""
    weighing = (counts, a, log_kappa, Dict.empty(key_type=types.int64, value_type=types.float64))
    leaks = Dict.empty(key_type=types.int64, value_type=types.int64)
    blocks = np.empty(MAX_CONFIGS, np.int64)
    best = np.empty(MAX_CONFIGS, np.int64)
    n_blocks = len(start)
    blocks[:n_blocks] = start
    for with_local_moves in (False, True):
        while True:
            n = _best_move(blocks, n_blocks, with_local_moves, best, weighing, space, leaks)
            if n < 0:
                break
            blocks[:n] = best[:n]
            n_blocks = n
    out = blocks[:n_blocks].copy()
    _sort_unsigned(out, n_blocks)
    return out


def _masks(masks: list[int]) -> np.ndarray:
    return np.array(masks, dtype=np.uint64).view(np.int64)


def compiled_local_search(space, counts, a: float, log_kappa: float = 0.0, start: list[int] | None = None) -> list[int]:
    """Best-improvement local search of ``space``'s partitions under the Dirichlet class weight, compiled.

    Parameters
    ----------
    space : PartitionSpace
        The configurations' lines and forbidden directions (at most :data:`MAX_CONFIGS` configurations).
    counts : ndarray, shape (n_configs, r)
        Counts of the node's states per configuration.
    a : float
        Dirichlet hyperparameter per configuration and state (a class of ``lam`` configurations
        has ``a * lam`` per state).
    log_kappa : float, default=0.0
        Charge per free parameter a class removes (``<= 0``).
    start : list of int, optional
        Blocks to start from (a valid, regular partition); default: every configuration alone.

    Returns
    -------
    list of int
        The blocks found, as bitmasks, in increasing order.

    Examples
    --------
    >>> from pgmpy_sgm.core._label_search import PartitionSpace
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50.0, 0.0], [0.0, 50.0], [50.0, 0.0], [25.0, 25.0]])
    >>> compiled_local_search(space, counts, a=1.0)  # merges configurations 0 and 2
    [2, 5, 8]
    """
    if space.n_configs > MAX_CONFIGS:
        raise ValueError(f"the compiled search handles at most {MAX_CONFIGS} configurations, got {space.n_configs}")
    starting = [1 << c for c in range(space.n_configs)] if start is None else list(start)
    found = _search(_masks(starting), np.ascontiguousarray(counts, dtype=np.float64), float(a), float(log_kappa),
                    space.kernel_arrays())
    return [int(m) for m in found.view(np.uint64)]
