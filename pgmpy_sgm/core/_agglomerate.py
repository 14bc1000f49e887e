"""Work budget and best-first agglomeration of the bounded labelling heuristic.

Used by ``method="heuristic"`` of :func:`pgmpy_sgm.core.optimize.optimal_groups`:

* :class:`WorkBudget` -- a deterministic cap on the work of one center's search, counted
  in *work units* (one unit is about one transition of a sub-problem's compiled dynamic
  programme; an element visited by a Python loop costs :data:`PY_UNIT`), so that results
  do not depend on the machine's load;
* :func:`greedy_merge` -- agglomeration from the singletons: repeatedly apply the merge
  of the groups met by one line that gains most, among those that keep the partition
  valid and regular, until no merge gains.
"""

from __future__ import annotations

import heapq
import math

import numpy as np
from numba import njit

from pgmpy_sgm.core._label_search import BlockScorer, PartitionSpace, bits

__all__ = ["WorkBudget", "greedy_merge", "PY_UNIT"]

#: Smallest gain that counts as an improvement.
_MIN_GAIN = 1e-9

#: Work units charged per element visited by a Python loop (a configuration, line or group);
#: one unit is about one transition of a compiled dynamic programme.
PY_UNIT = 40


class WorkBudget:
    """A cap on the work units one search may spend.

    Parameters
    ----------
    limit : int or None
        Units allowed; None for no cap.
    scorer : BlockScorer, optional
        Its :attr:`~pgmpy_sgm.core._label_search.BlockScorer.work` (count cells read by
        the group weights computed) is charged at every :meth:`spend`.

    Examples
    --------
    >>> budget = WorkBudget(10)
    >>> budget.spend(4), budget.spend(7), budget.exhausted
    (True, False, True)
    """

    def __init__(self, limit: int | None, scorer: BlockScorer | None = None):
        self.limit = limit
        self.used = 0
        self.exhausted = False
        self._scorer = scorer
        self._scored = 0 if scorer is None else scorer.work

    def spend(self, units: int) -> bool:
        """Record ``units`` of work; False (and ``exhausted`` set) once the total passes the limit.

        The cells read by the attached scorer since the last call are charged too
        (:data:`PY_UNIT` each).
        """
        self.used += int(units)
        if self._scorer is not None:
            self.used += PY_UNIT * (self._scorer.work - self._scored)
            self._scored = self._scorer.work
        if self.limit is not None and self.used > self.limit:
            self.exhausted = True
        return not self.exhausted

    def left(self) -> float:
        """Units still available (infinite without a cap)."""
        return float("inf") if self.limit is None else max(0, self.limit - self.used)


def greedy_merge(space: PartitionSpace, scorer: BlockScorer, budget: WorkBudget, start: list[int] | None = None):
    """Best-first merging along lines from ``start`` (default: the singletons).

    A candidate is the union of the groups met by one allowed line; it is kept when it
    holds no forbidden line and the partition after the merge still leaks in every
    direction (regular). The candidate with the largest gain is applied while some gain
    exceeds ``1e-9`` and the budget lasts; candidates of lines meeting the merged group
    are then re-evaluated. Every partition visited is valid and regular.

    Returns
    -------
    list of int
        The blocks (configuration bitmasks).

    Examples
    --------
    >>> import numpy as np
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25]])
    >>> sorted(greedy_merge(space, BlockScorer(counts), WorkBudget(None)))
    [2, 5, 8]
    """
    n = space.n_configs
    if start is None:
        start = [1 << c for c in range(n)]
    if n <= COMPILED_MAX_CONFIGS:
        return _greedy_compiled(space, scorer, budget, list(start))
    blocks: dict[int, int] = {}
    owner = [0] * n
    for g, b in enumerate(start):
        blocks[g] = b
        for c in bits(b):
            owner[c] = g
    next_id = len(start)
    n_dirs = space.n_dirs
    leak_count = [0] * n_dirs
    for b in blocks.values():
        lk = space.leak(b)
        for d in range(n_dirs):
            leak_count[d] += (lk >> d) & 1
    version = [0] * len(space.line_masks)
    heap: list = []

    def evaluate(i: int) -> None:
        version[i] += 1
        mask = space.line_masks[i]
        met = dict.fromkeys(owner[c] for c in space.line_configs[i])  # in order along the line
        if len(met) < 2:
            return
        union = 0
        for g in met:
            union |= blocks[g]
        gain = scorer(union) - sum(scorer(blocks[g]) for g in met)
        budget.spend(PY_UNIT * (len(space.line_configs[i]) + union.bit_count()))
        if gain > _MIN_GAIN:
            heapq.heappush(heap, (-gain, i, version[i], mask))

    for i in space.allowed:
        evaluate(i)
    while heap and not budget.exhausted:
        neg_gain, i, ver, _ = heapq.heappop(heap)
        if ver != version[i]:
            continue
        met = sorted({owner[c] for c in space.line_configs[i]})
        union = 0
        for g in met:
            union |= blocks[g]
        budget.spend(PY_UNIT * (len(met) + len(space.forbidden_masks) + union.bit_count() * n_dirs))
        if not space.allowed_block(union):
            version[i] += 1
            continue
        new_leak = space.leak(union)
        counts = list(leak_count)
        for g in met:
            lk = space.leak(blocks[g])
            for d in range(n_dirs):
                counts[d] -= (lk >> d) & 1
        for d in range(n_dirs):
            counts[d] += (new_leak >> d) & 1
        if min(counts) <= 0:
            version[i] += 1  # irregular now; re-evaluated if a neighbouring group changes
            continue
        leak_count = counts
        for g in met:
            del blocks[g]
        gid = next_id
        next_id += 1
        blocks[gid] = union
        touched = set()
        for c in bits(union):
            owner[c] = gid
            touched.update(space.lines_of_config[c])
        for j in sorted(touched):
            if not space.forbidden[space.line_dirs[j]]:
                evaluate(j)
    return sorted(blocks.values())


#: Largest number of configurations handled by the compiled :func:`greedy_merge` (int64 masks).
COMPILED_MAX_CONFIGS = 62


def _greedy_compiled(space: PartitionSpace, scorer: BlockScorer, budget: WorkBudget, start: list[int]) -> list[int]:
    """:func:`greedy_merge` by :func:`_greedy_kernel`; the scorer's cache, its work and the budget are
    updated as the Python loop would."""
    line_ptr, line_cfg, line_dir, dir_forb = space.line_arrays()
    cfg_ptr, cfg_lines = space.config_line_arrays()
    cache = scorer._cache
    keys = np.fromiter(cache.keys(), dtype=np.int64, count=len(cache))
    values = np.fromiter(cache.values(), dtype=np.float64, count=len(cache))
    state = np.array(
        [budget.used, scorer.work, budget._scored, int(budget.exhausted), -1 if budget.limit is None else budget.limit],
        dtype=np.int64,
    )
    blocks, keys, values = _greedy_kernel(
        space.n_dirs,
        scorer.counts,
        line_ptr,
        line_cfg,
        line_dir,
        dir_forb,
        cfg_ptr,
        cfg_lines,
        np.array(start, dtype=np.int64),
        keys,
        values,
        state,
        PY_UNIT,
        _MIN_GAIN,
    )
    cache.update(zip(keys.tolist(), values.tolist(), strict=True))
    budget.used, scorer.work, budget._scored = int(state[0]), int(state[1]), int(state[2])
    budget.exhausted = bool(state[3])
    return blocks.tolist()


@njit(cache=True)
def _popcount(x):  # pragma: no cover - compiled
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _block_weight(block, counts, weights, state):  # pragma: no cover - compiled
    """The group weight of ``block`` (cached in ``weights``), charging its cells to the scorer's work."""
    if block in weights:
        return weights[block]
    k = counts.shape[1]
    pooled = np.zeros(k)
    n = 0
    m = block
    while m:
        c = _lowest(m)
        m &= m - 1
        n += 1
        for j in range(k):
            pooled[j] += counts[c, j]
    state[1] += (n + 1) * (k + 1)
    lam = float(n)
    total = 0.0
    for j in range(k):
        total += pooled[j]
    w = math.lgamma(k * lam) - math.lgamma(total + k * lam) - k * math.lgamma(lam)
    s = 0.0
    for j in range(k):
        s += math.lgamma(pooled[j] + lam)
    w += s
    weights[block] = w
    return w


@njit(cache=True)
def _lowest(m):  # pragma: no cover - compiled
    i = 0
    while (m >> i) & 1 == 0:
        i += 1
    return i


@njit(cache=True)
def _spend(state, units, py_unit):  # pragma: no cover - compiled
    """WorkBudget.spend: ``state`` = (used, scorer work, work charged, exhausted, limit or -1)."""
    state[0] += units + py_unit * (state[1] - state[2])
    state[2] = state[1]
    if state[4] >= 0 and state[0] > state[4]:
        state[3] = 1


@njit(cache=True)
def _leak(block, line_mask, line_dir, cfg_ptr, cfg_lines):  # pragma: no cover - compiled
    out = 0
    m = block
    while m:
        c = _lowest(m)
        m &= m - 1
        for p in range(cfg_ptr[c], cfg_ptr[c + 1]):
            i = cfg_lines[p]
            if line_mask[i] & ~block:
                out |= 1 << line_dir[i]
    return out


@njit(cache=True)
def _greedy_kernel(
    n_dirs, counts, line_ptr, line_cfg, line_dir, dir_forb, cfg_ptr, cfg_lines, start, keys, values, state, py_unit, tol
):  # pragma: no cover - compiled
    """Best-first merging along lines (the loop of :func:`greedy_merge`) on int64 masks.

    Returns the blocks (sorted) and every cached group weight (``keys``/``values`` given
    and computed); ``state`` is updated as :func:`_spend` describes.
    """
    n_configs = cfg_ptr.size - 1
    n_lines = line_ptr.size - 1
    weights = dict()
    for t in range(keys.size):
        weights[keys[t]] = values[t]
    line_mask = np.zeros(n_lines, np.int64)
    for i in range(n_lines):
        for p in range(line_ptr[i], line_ptr[i + 1]):
            line_mask[i] |= np.int64(1) << line_cfg[p]
    forb_masks = [line_mask[i] for i in range(n_lines) if dir_forb[line_dir[i]]]
    n_forb = len(forb_masks)
    max_groups = start.size + n_configs + 1
    block_of = np.zeros(max_groups, np.int64)
    leak_of = np.zeros(max_groups, np.int64)
    owner = np.zeros(n_configs, np.int64)
    leak_count = np.zeros(n_dirs, np.int64)
    for g in range(start.size):
        b = start[g]
        block_of[g] = b
        m = b
        while m:
            owner[_lowest(m)] = g
            m &= m - 1
        lk = _leak(b, line_mask, line_dir, cfg_ptr, cfg_lines)
        leak_of[g] = lk
        for d in range(n_dirs):
            leak_count[d] += (lk >> d) & 1
    next_id = start.size
    version = np.zeros(n_lines, np.int64)
    heap = [(0.0, 0, 0)]
    heap.pop()
    met = np.empty(n_configs, np.int64)
    for i in range(n_lines):
        if not dir_forb[line_dir[i]]:
            _evaluate(i, line_ptr, line_cfg, owner, block_of, met, counts, weights, state, py_unit, version, heap, tol)
    stamp = np.zeros(n_lines, np.int64)
    round_id = 0
    while len(heap) > 0 and state[3] == 0:
        neg_gain, i, ver = heapq.heappop(heap)
        if ver != version[i]:
            continue
        n_met = _met(i, line_ptr, line_cfg, owner, met)
        union = 0
        for t in range(n_met):
            union |= block_of[met[t]]
        _spend(state, py_unit * (n_met + n_forb + _popcount(union) * n_dirs), py_unit)
        allowed = True
        for fm in forb_masks:
            if fm & ~union == 0:
                allowed = False
                break
        if not allowed:
            version[i] += 1
            continue
        new_leak = _leak(union, line_mask, line_dir, cfg_ptr, cfg_lines)
        regular = True
        for d in range(n_dirs):
            cnt = leak_count[d] + ((new_leak >> d) & 1)
            for t in range(n_met):
                cnt -= (leak_of[met[t]] >> d) & 1
            if cnt <= 0:
                regular = False
        if not regular:
            version[i] += 1
            continue
        for d in range(n_dirs):
            for t in range(n_met):
                leak_count[d] -= (leak_of[met[t]] >> d) & 1
            leak_count[d] += (new_leak >> d) & 1
        gid = next_id
        next_id += 1
        block_of[gid] = union
        leak_of[gid] = new_leak
        for t in range(n_met):
            block_of[met[t]] = 0
        round_id += 1
        m = union
        while m:
            owner[_lowest(m)] = gid
            m &= m - 1
        m = union
        while m:
            c = _lowest(m)
            m &= m - 1
            for p in range(cfg_ptr[c], cfg_ptr[c + 1]):
                j = cfg_lines[p]
                if stamp[j] != round_id and not dir_forb[line_dir[j]]:
                    stamp[j] = round_id
                    _evaluate(
                        j, line_ptr, line_cfg, owner, block_of, met, counts, weights, state, py_unit, version, heap, tol
                    )
    n_out = 0
    for g in range(next_id):
        if block_of[g] != 0:
            n_out += 1
    out = np.empty(n_out, np.int64)
    t = 0
    for g in range(next_id):
        if block_of[g] != 0:
            out[t] = block_of[g]
            t += 1
    out.sort()
    out_keys = np.empty(len(weights), np.int64)
    out_values = np.empty(len(weights), np.float64)
    t = 0
    for key, value in weights.items():
        out_keys[t] = key
        out_values[t] = value
        t += 1
    return out, out_keys, out_values


@njit(cache=True)
def _met(i, line_ptr, line_cfg, owner, met):  # pragma: no cover - compiled
    """Distinct groups met by line ``i`` (in order along the line) into ``met``; their number."""
    n = 0
    for p in range(line_ptr[i], line_ptr[i + 1]):
        g = owner[line_cfg[p]]
        seen = False
        for t in range(n):
            if met[t] == g:
                seen = True
                break
        if not seen:
            met[n] = g
            n += 1
    return n


@njit(cache=True)
def _evaluate(
    i, line_ptr, line_cfg, owner, block_of, met, counts, weights, state, py_unit, version, heap, tol
):  # pragma: no cover - compiled
    version[i] += 1
    n_met = _met(i, line_ptr, line_cfg, owner, met)
    if n_met < 2:
        return
    union = 0
    for t in range(n_met):
        union |= block_of[met[t]]
    gain = _block_weight(union, counts, weights, state)
    parts = 0.0
    for t in range(n_met):
        parts += _block_weight(block_of[met[t]], counts, weights, state)
    gain -= parts
    _spend(state, py_unit * ((line_ptr[i + 1] - line_ptr[i]) + _popcount(union)), py_unit)
    if gain > tol:
        heapq.heappush(heap, (-gain, i, version[i]))
