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
    blocks: dict[int, int] = {}
    owner = [0] * n
    if start is None:
        start = [1 << c for c in range(n)]
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
        met = {owner[c] for c in space.line_configs[i]}
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
