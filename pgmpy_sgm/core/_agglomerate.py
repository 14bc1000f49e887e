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
    merging = _Merging(space, scorer, budget, [1 << c for c in range(space.n_configs)] if start is None else start)
    for i in space.allowed:
        merging.evaluate(i)
    while merging.heap and not budget.exhausted:
        _, i, ver, _ = heapq.heappop(merging.heap)
        if ver == merging.version[i]:
            merging.try_merge(i)
    return sorted(merging.blocks.values())


class _Merging:
    """The partition of :func:`greedy_merge` (groups by id, the group of every configuration, how many
    groups leak in each direction) and its heap of candidate merges, one per line (stale entries are
    told by the line's version)."""

    def __init__(self, space: PartitionSpace, scorer: BlockScorer, budget: WorkBudget, start: list[int]):
        self.space, self.scorer, self.budget = space, scorer, budget
        self.blocks: dict[int, int] = {}
        self.owner = [0] * space.n_configs
        for g, b in enumerate(start):
            self.blocks[g] = b
            for c in bits(b):
                self.owner[c] = g
        self.next_id = len(start)
        self.leak_count = [0] * space.n_dirs
        for b in self.blocks.values():
            lk = space.leak(b)
            for d in range(space.n_dirs):
                self.leak_count[d] += (lk >> d) & 1
        self.version = [0] * len(space.line_masks)
        self.heap: list = []

    def evaluate(self, i: int) -> None:
        """Push the merge of the groups met by line ``i`` when it gains (older entries of the line go stale)."""
        space, blocks = self.space, self.blocks
        self.version[i] += 1
        mask = space.line_masks[i]
        met = {self.owner[c] for c in space.line_configs[i]}
        if len(met) < 2:
            return
        union = 0
        for g in met:
            union |= blocks[g]
        gain = self.scorer(union) - sum(self.scorer(blocks[g]) for g in met)
        self.budget.spend(PY_UNIT * (len(space.line_configs[i]) + union.bit_count()))
        if gain > _MIN_GAIN:
            heapq.heappush(self.heap, (-gain, i, self.version[i], mask))

    def try_merge(self, i: int) -> None:
        """Merge the groups met by line ``i`` when the union is a valid block and the partition stays regular."""
        space = self.space
        met = sorted({self.owner[c] for c in space.line_configs[i]})
        union = 0
        for g in met:
            union |= self.blocks[g]
        self.budget.spend(PY_UNIT * (len(met) + len(space.forbidden_masks) + union.bit_count() * space.n_dirs))
        if not space.allowed_block(union):
            self.version[i] += 1
            return
        counts = self._leak_counts_after(met, union)
        if min(counts) <= 0:
            self.version[i] += 1  # irregular now; re-evaluated if a neighbouring group changes
            return
        self.leak_count = counts
        self._merge(met, union)

    def _leak_counts_after(self, met: list[int], union: int) -> list[int]:
        """How many groups would leak in each direction once the groups ``met`` are replaced by ``union``."""
        n_dirs = self.space.n_dirs
        new_leak = self.space.leak(union)
        counts = list(self.leak_count)
        for g in met:
            lk = self.space.leak(self.blocks[g])
            for d in range(n_dirs):
                counts[d] -= (lk >> d) & 1
        for d in range(n_dirs):
            counts[d] += (new_leak >> d) & 1
        return counts

    def _merge(self, met: list[int], union: int) -> None:
        """Replace the groups ``met`` by ``union`` and re-evaluate the allowed lines through it."""
        space = self.space
        for g in met:
            del self.blocks[g]
        gid = self.next_id
        self.next_id += 1
        self.blocks[gid] = union
        touched = set()
        for c in bits(union):
            self.owner[c] = gid
            touched.update(space.lines_of_config[c])
        for j in sorted(touched):
            if not space.forbidden[space.line_dirs[j]]:
                self.evaluate(j)
