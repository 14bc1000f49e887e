"""Tabu hill climbing over DAGs with a cache of every move's change of score, refreshed where the graph changed.

The climb is the one of pgmpy's ``HillClimbSearch`` (Koller & Friedman 2009, section 18.4.3):
at each step the best legal move among edge additions, removals and reversals is applied
while it improves the score by at least ``epsilon``; a tabu list of the last ``tabu_length``
moves forbids undoing them. It makes the same moves as pgmpy's climb with ties broken by
(kind of move, parent's index, child's index), but it does not score every move at every step:

* the change of score of every move is kept in an array ``(3, d, d)`` (additions, removals,
  reversals by parent and child), so the best move is one ``argmax`` in that tie-breaking
  order, and a move is checked for acyclicity and the tabu list only when it is the best;
* after a move, only the entries that read a family whose parents changed are recomputed
  (the columns of the one or two nodes whose parents changed, and the reversals of their
  edges): a step scores O(k) families, not O(d^2) moves;
* additions can be restricted to candidate parents per node (``candidates``); removals and
  reversals of existing edges are always allowed;
* the largest entry of each column ``(kind, child)`` and its first parent are kept, and only the
  columns a move wrote to are searched again, so finding the best move reads ``3 d`` maxima and
  the changed columns, not all ``3 d^2`` entries.

With ``swaps=True`` (not a move of pgmpy's climb), where no single move gains ``epsilon`` the climb
also tries *parent swaps*: one parent of a node replaced by another candidate in one step. A
swap can gain where its two halves each lose (removing the parent loses its information, adding
the other alone makes the family too large), so a climb of single moves stops short of it. The
improving swaps of a node are kept until its parents change.

With ``floor``, a cheap lower bound of ``family`` (for the LDAG score, the family's term without
labels: a labelling is never worse than none), a family that a move would *give a new parent* (an
addition, the reversal's new parent, a swap) is scored only when it may gain: when its bound plus
:data:`SCREEN_LABEL_FACTOR` times what the labels gain on the node's current family (its term less
its bound) plus :data:`SCREEN_MARGIN` reaches the current term. Otherwise the move's entry is its
bound's change, a lower bound of its change of score (below zero for an addition or a swap, so such
a move is not made; a reversal made on it gains at least that much); a move is missed if the labels
of the family it makes would gain more than that. Labelling a family is the dear part of the LDAG
score, and most of the families a climb reads are families of such moves.

Nodes are ``0 .. d - 1`` and parent sets are bit masks (Python integers).
"""

from __future__ import annotations

import copy
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pgmpy_sgm.core.bitsets import iter_bits

__all__ = ["ClimbResult", "ClimbMemory", "tabu_climb"]

_ADD, _REMOVE, _FLIP = 0, 1, 2

#: Nats by which a move's bound may fall below the current family's and the move still be scored (``floor``).
SCREEN_MARGIN = 2.0
#: The labels of a family a move makes are taken to gain at most this many times what they gain on the current one.
SCREEN_LABEL_FACTOR = 2.0


@dataclass
class ClimbResult:
    """Outcome of :func:`tabu_climb`.

    Attributes
    ----------
    parents : list of int
        Parent mask of every node of the DAG reached.
    n_moves_scored : int
        Legal moves over all steps (those pgmpy's climb scores at each step, within the candidates).
    n_steps : int
        Moves applied.

    Examples
    --------
    >>> ClimbResult([0, 1], 3, 1).n_steps
    1
    """

    parents: list[int]
    n_moves_scored: int
    n_steps: int


def _descendants(children: list[int]) -> list[int]:
    """Mask of the nodes reachable from each node along directed edges (the node itself excluded)."""
    d = len(children)
    out: list[int | None] = [None] * d
    for root in range(d):
        if out[root] is not None:
            continue
        stack = [root]
        while stack:
            v = stack[-1]
            pending = [c for c in iter_bits(children[v]) if out[c] is None]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            if out[v] is None:
                mask = 0
                for c in iter_bits(children[v]):
                    mask |= (1 << c) | out[c]
                out[v] = mask
    return out  # type: ignore[return-value]


def _finite_or_worst(value: float) -> float:
    """A change of score, with NaN (both sides of a family scored ``-inf``) as the worst."""
    return value if value == value else -math.inf


def _candidate_masks(d: int, candidates: list[int] | None) -> list[int]:
    """The parents each node may gain by an addition: ``candidates``, or every other node when None."""
    return [((1 << d) - 1) & ~(1 << y) for y in range(d)] if candidates is None else list(candidates)


class _Climb:
    """The state of one climb: the DAG, the families' terms and the moves' changes of score."""

    def __init__(self, family, parents, candidates, max_indegree, floor=None):
        d = len(parents)
        self.family, self.d, self.max_indegree, self.floor = family, d, max_indegree, floor
        self.pa = list(parents)
        self.ch = [0] * d
        for y, mask in enumerate(self.pa):
            for x in iter_bits(mask):
                self.ch[x] |= 1 << y
        self.cand = _candidate_masks(d, candidates)
        self.fam = [family(y, self.pa[y]) for y in range(d)]
        self.least = [self._least(y) for y in range(d)]  # with a floor: the bound a grown family must reach
        self.delta = np.full((3, d, d), -np.inf)
        self.column_max = np.full((3, d), -np.inf)  # largest entry of every column (kind, child)
        self.column_first = np.zeros((3, d), dtype=np.int64)  # its first parent
        self.stale: set[tuple[int, int]] = set()  # columns written since their maxima were taken
        self.swaps: dict[int, tuple[int, list]] = {}  # node -> (its parent mask, its improving swaps, best first)
        self.n_swaps_scored = 0
        for y in range(d):
            self._refresh_node(y)

    def rebased(self, start: list[int]) -> _Climb:
        """A copy of this climb's state moved to the DAG ``start``: the entries that read a changed family refreshed.

        Every entry is a function of the DAG alone, so the copy equals a climb built from
        ``start`` afresh; it costs the nodes whose parents or children differ, not ``d``.
        """
        other = copy.copy(self)
        other.pa, other.ch, other.fam, other.least = list(self.pa), list(self.ch), list(self.fam), list(self.least)
        other.delta, other.column_max, other.column_first = self.delta.copy(), self.column_max.copy(), \
            self.column_first.copy()  # fmt: skip
        other.stale, other.swaps, other.n_swaps_scored = set(self.stale), {}, 0  # swaps are scored (and counted) anew
        touched = set()
        for y, mask in enumerate(start):
            if mask != other.pa[y]:
                touched.add(y)
                touched.update(iter_bits(mask ^ other.pa[y]))  # parents gained or lost: their children changed
                other._set_parents(y, mask)
        for y in sorted(touched):
            other._refresh_node(y)
        return other

    def _room(self, y: int) -> bool:
        return self.max_indegree is None or self.pa[y].bit_count() + 1 <= self.max_indegree

    def _refresh_node(self, y: int) -> None:
        """Additions and removals into ``y``, and reversals of ``y``'s edges in and out."""
        family, pa, fam, delta = self.family, self.pa, self.fam, self.delta
        delta[_ADD, :, y] = -np.inf
        delta[_REMOVE, :, y] = -np.inf
        delta[_FLIP, :, y] = -np.inf
        self.stale.update(((_ADD, y), (_REMOVE, y), (_FLIP, y)))
        self.stale.update((_FLIP, int(c)) for c in np.flatnonzero(delta[_FLIP, y, :] != -np.inf))
        delta[_FLIP, y, :] = -np.inf
        old = pa[y]
        if self._room(y):
            for x in iter_bits(self.cand[y] & ~old & ~self.ch[y]):
                delta[_ADD, x, y] = _finite_or_worst(self._grown(y, old | (1 << x)) - fam[y])
        for x in iter_bits(old):
            delta[_REMOVE, x, y] = _finite_or_worst(family(y, old & ~(1 << x)) - fam[y])
            self._refresh_flip(x, y)
        for c in iter_bits(self.ch[y]):
            self._refresh_flip(y, c)

    def _refresh_flip(self, x: int, y: int) -> None:
        """The reversal of the edge ``x -> y`` (pgmpy's order of terms, so the sums agree to the bit)."""
        pa, fam, family = self.pa, self.fam, self.family
        self.stale.add((_FLIP, y))
        if not self._room(x):
            self.delta[_FLIP, x, y] = -np.inf
            return
        value = self._grown(x, pa[x] | (1 << y)) + family(y, pa[y] & ~(1 << x)) - fam[x] - fam[y]
        self.delta[_FLIP, x, y] = _finite_or_worst(value)

    def _least(self, y: int) -> float:
        """The bound a family grown from ``y``'s current one must reach to be scored (see the module's text)."""
        if self.floor is None:
            return -math.inf
        current = self.floor(y, self.pa[y])
        return current - SCREEN_MARGIN - (SCREEN_LABEL_FACTOR - 1) * (self.fam[y] - current)

    def _grown(self, y: int, mask: int) -> float:
        """The term of ``y`` with the parents ``mask`` (one it has not now), or its bound when screened out."""
        if self.floor is not None:
            bound = self.floor(y, mask)
            if not bound >= self.least[y]:
                return bound
        return self.family(y, mask)

    def _set_parents(self, y: int, mask: int) -> None:
        for x in iter_bits(self.pa[y] & ~mask):
            self.ch[x] &= ~(1 << y)
        for x in iter_bits(mask & ~self.pa[y]):
            self.ch[x] |= 1 << y
        self.pa[y] = mask
        self.fam[y] = self.family(y, mask)
        self.least[y] = self._least(y)

    def apply(self, kind: int, x: int, y: int) -> None:
        """Apply a move and refresh the entries that read the families it changed."""
        if kind == _ADD:
            self._set_parents(y, self.pa[y] | (1 << x))
        elif kind == _REMOVE:
            self._set_parents(y, self.pa[y] & ~(1 << x))
        else:
            self._set_parents(y, self.pa[y] & ~(1 << x))
            self._set_parents(x, self.pa[x] | (1 << y))
        # additions x -> y and y -> x depend on the adjacency of the pair: refresh both columns
        self._refresh_node(y)
        self._refresh_node(x)

    def _improving_swaps(self, y: int, epsilon: float) -> list[tuple[float, int, int]]:
        """``(-gain, old, new)`` of every swap of a parent of ``y`` gaining at least ``epsilon``, best first."""
        mask = self.pa[y]
        kept = self.swaps.get(y)
        if kept is not None and kept[0] == mask:
            return kept[1]
        found = []
        others = self.cand[y] & ~mask
        for old in iter_bits(mask):
            rest = mask & ~(1 << old)
            for new in iter_bits(others):
                self.n_swaps_scored += 1
                gain = _finite_or_worst(self._grown(y, rest | (1 << new)) - self.fam[y])
                if gain >= epsilon:
                    found.append((-gain, old, new))
        found.sort()
        self.swaps[y] = (mask, found)
        return found

    def best_swap(self, desc: list[int], tabu: set, epsilon: float) -> tuple[float, int, int, int] | None:
        """The legal swap ``(gain, old, new, y)`` gaining most (ties: first ``y``), or None when none gains ``epsilon``.

        A swap is legal when the new parent is not a descendant of ``y`` (removing the old
        parent's edge changes no descendant of ``y``) and neither half undoes a tabu move.
        """
        best = None
        for y in range(self.d):
            for negative, old, new in self._improving_swaps(y, epsilon):
                if best is not None and -negative <= best[0]:
                    break
                if desc[y] >> new & 1 or (_ADD, new, y) in tabu or (_REMOVE, old, y) in tabu:
                    continue
                best = (-negative, old, new, y)
                break
        return best

    def swap(self, old: int, new: int, y: int) -> None:
        """Replace the parent ``old`` of ``y`` by ``new`` and refresh the entries that read the changed families."""
        self._set_parents(y, (self.pa[y] & ~(1 << old)) | (1 << new))
        for node in (y, old, new):
            self._refresh_node(node)

    def alternative_path(self, x: int, y: int, desc: list[int]) -> bool:
        """Whether ``y`` is reachable from ``x`` other than by the edge ``x -> y``."""
        for c in iter_bits(self.ch[x] & ~(1 << y)):
            if (desc[c] | (1 << c)) >> y & 1:
                return True
        return False

    def count_legal(self, desc: list[int], tabu: set) -> int:
        """Legal moves (acyclic, not tabu, within ``max_indegree`` and the candidates): pgmpy's count."""
        pa, ch = self.pa, self.ch
        n = 0
        for y in range(self.d):
            if self._room(y):
                n += (self.cand[y] & ~pa[y] & ~ch[y] & ~desc[y]).bit_count()
            for x in iter_bits(pa[y]):
                n += (_REMOVE, x, y) not in tabu
                if self._room(x) and not self.alternative_path(x, y, desc):
                    n += (_FLIP, x, y) not in tabu and (_FLIP, y, x) not in tabu
        for kind, x, y in tabu:  # tabu additions that would otherwise be legal
            if kind == _ADD and self.cand[y] >> x & 1 and not (pa[y] | ch[y] | desc[y]) >> x & 1 and self._room(y):
                n -= 1
        return n

    def legal(self, kind: int, x: int, y: int, desc: list[int], tabu: set) -> bool:
        if kind == _ADD:
            return (_ADD, x, y) not in tabu and not desc[y] >> x & 1
        if kind == _REMOVE:
            return (_REMOVE, x, y) not in tabu
        return (_FLIP, x, y) not in tabu and (_FLIP, y, x) not in tabu and not self.alternative_path(x, y, desc)

    def _update_maxima(self) -> None:
        """Take the maxima of the columns written since the last call."""
        for kind, y in self.stale:
            column = self.delta[kind, :, y]
            first = int(np.argmax(column))
            self.column_first[kind, y], self.column_max[kind, y] = first, column[first]
        self.stale.clear()

    def _first_best(self) -> tuple[int, int, int, float] | None:
        """The largest entry, first in the order (kind, parent, child), as ``np.argmax`` of the flat array."""
        self._update_maxima()
        value = float(self.column_max.max())
        if value == -np.inf:
            return None
        kinds, children = np.nonzero(self.column_max == value)
        kind, x, y = min(zip(kinds.tolist(), self.column_first[kinds, children].tolist(), children.tolist(),
                             strict=True))  # fmt: skip
        return kind, x, y, value

    def best_move(self, desc: list[int], tabu: set) -> tuple[int, int, int, float] | None:
        """The first best legal move in the order (kind, parent, child), or None when there is none."""
        hidden = []
        try:
            while True:
                best = self._first_best()
                if best is None or self.legal(*best[:3], desc, tabu):
                    return best
                kind, x, y, value = best
                hidden.append((kind, x, y, value))
                self.delta[kind, x, y] = -np.inf
                self.stale.add((kind, y))
        finally:
            for kind, x, y, value in hidden:
                self.delta[kind, x, y] = value
                self.stale.add((kind, y))


class ClimbMemory:
    """The end states of the last climbs over one score, from which a climb from a nearby DAG starts.

    Building a climb's cache of moves scores ``O(d^2)`` moves; a climb from a DAG a few edges
    away from one a previous climb ended at (a turn or a kick of the best DAG) copies that
    climb's cache and refreshes the nodes whose families differ
    (:meth:`_Climb.rebased`). The climbs must share the score, its ``family`` and ``floor``
    callables (cached for the whole search), the candidates and ``max_indegree``.

    Parameters
    ----------
    family, floor : callable
        As :func:`tabu_climb` takes them.
    kept : int, default=2
        End states kept (the most recent).

    Raises
    ------
    ValueError
        If ``kept`` is not a positive integer.

    Examples
    --------
    >>> terms = {(1, 0b001): 2.0, (2, 0b010): 1.0, (2, 0b011): 3.0}
    >>> memory = ClimbMemory(lambda y, m: terms.get((y, m), 0.0))
    >>> first = tabu_climb(memory.family, [0, 0, 0], memory=memory)
    >>> second = tabu_climb(memory.family, [0, 1, 0b001], memory=memory)  # one family away from the first end
    >>> first.parents, second.parents, memory.n_rebased
    ([0, 1, 3], [0, 1, 3], 1)
    """

    def __init__(self, family: Callable[[int, int], float], floor: Callable[[int, int], float] | None = None,
                 kept: int = 2) -> None:  # fmt: skip
        if isinstance(kept, bool) or not isinstance(kept, int) or kept < 1:
            raise ValueError(f"kept must be a positive integer (end states kept). Got: {kept!r}")
        self.family, self.floor = family, floor
        self.states: deque = deque(maxlen=kept)
        self.n_rebased = 0

    def start(self, start: list[int], candidates: list[int] | None, max_indegree: int | None) -> _Climb:
        """A climb's state at ``start``: the nearest kept end state moved there, or a new one."""
        best, best_changed = None, len(start) // 2 + 1  # rebasing more than half the nodes gains little
        cand = _candidate_masks(len(start), candidates)
        for state in self.states:
            if state.cand != cand or state.max_indegree != max_indegree:
                continue
            changed = sum(a != b for a, b in zip(state.pa, start, strict=True))
            if changed < best_changed:
                best, best_changed = state, changed
        if best is None:
            return _Climb(self.family, start, candidates, max_indegree, self.floor)
        self.n_rebased += 1
        return best.rebased(start)

    def keep(self, climb: _Climb) -> None:
        """Keep a finished climb's state (it is not changed afterwards: later climbs copy it)."""
        self.states.append(climb)


def tabu_climb(
    family: Callable[[int, int], float],
    start: list[int],
    candidates: list[int] | None = None,
    tabu_length: int = 100,
    max_indegree: int | None = None,
    max_iter: int = 1_000_000,
    epsilon: float = 1e-4,
    deadline: float | None = None,
    swaps: bool = False,
    floor: Callable[[int, int], float] | None = None,
    memory: ClimbMemory | None = None,
) -> ClimbResult:
    """Greedy climb over DAGs from ``start`` with a tabu list (pgmpy's ``HillClimbSearch``, cached).

    Parameters
    ----------
    family : callable
        ``family(node, parent_mask)``: the family's term of a decomposable score (it should
        cache its values: the climb asks for a family again when a move touches it);
        ``-inf`` for a family that must not be made.
    start : list of int
        Parent mask of every node of the starting DAG.
    candidates : list of int, optional
        Mask of the parents each node may gain by an addition (None: every other node).
    tabu_length : int, default=100
    max_indegree : int, optional
    max_iter : int, default=1_000_000
        Largest number of moves.
    epsilon : float, default=1e-4
        The climb stops when the best legal move gains less.
    deadline : float, optional
        A ``time.time()`` value after which no further move is made (the climb ends where it is).
    swaps : bool, default=False
        Where no single move gains ``epsilon``, apply the legal parent swap that gains most
        (see the module's text), and go on; the swap's two halves become tabu to undo. The
        swaps scored count among the moves scored.
    floor : callable, optional
        ``floor(node, parent_mask)``: a cheap lower bound of ``family`` (cached, ``-inf`` where
        ``family`` is); with it a move that gives a node a new parent is scored only when the
        bound of the family it makes shows that it may gain (see the module's text). None
        scores every move.
    memory : ClimbMemory, optional
        End states of earlier climbs with the same ``family``, ``floor``, ``candidates`` and
        ``max_indegree``: the climb starts from the nearest one moved to ``start`` (the same
        climb, built at less cost), and leaves its own end state there.

    Returns
    -------
    ClimbResult

    Examples
    --------
    >>> # node 1 gains 2 from parent 0; node 2 gains 1 from parent 1 and 3 from both 0 and 1
    >>> terms = {(1, 0b001): 2.0, (2, 0b010): 1.0, (2, 0b011): 3.0}
    >>> res = tabu_climb(lambda y, m: terms.get((y, m), 0.0), [0, 0, 0])
    >>> res.parents
    [0, 1, 3]
    >>> # node 2 with parent 0 gains 1 from parent 1 instead: each half alone loses
    >>> terms = {(2, 0b001): 1.0, (2, 0b010): 2.0, (2, 0b000): -1.0, (2, 0b011): -5.0}
    >>> tabu_climb(lambda y, m: terms.get((y, m), 0.0), [0, 0, 0b001]).parents
    [0, 0, 1]
    >>> tabu_climb(lambda y, m: terms.get((y, m), 0.0), [0, 0, 0b001], swaps=True).parents
    [0, 0, 2]
    """
    if memory is None:
        climb = _Climb(family, start, candidates, max_indegree, floor)
    else:
        if memory.family is not family or memory.floor is not floor:
            raise ValueError("A climb's memory must hold the climb's own family and floor callables.")
        climb = memory.start(list(start), candidates, max_indegree)
    tabu: deque = deque(maxlen=tabu_length)
    n_scored, n_steps = 0, 0
    for _ in range(int(max_iter)):
        if deadline is not None and time.time() >= deadline:
            break
        desc = _descendants(climb.ch)
        tabu_set = set(tabu)
        n_scored += climb.count_legal(desc, tabu_set)
        move = climb.best_move(desc, tabu_set)
        if move is None or move[3] < epsilon:
            found = climb.best_swap(desc, tabu_set, epsilon) if swaps else None
            if found is None:
                break
            _, old, new, y = found
            climb.swap(old, new, y)
            tabu.extend(((_ADD, old, y), (_REMOVE, new, y)))
            n_steps += 1
            continue
        kind, x, y, _ = move
        climb.apply(kind, x, y)
        tabu.append((_FLIP, x, y) if kind == _FLIP else (_REMOVE if kind == _ADD else _ADD, x, y))
        n_steps += 1
    if memory is not None:
        memory.keep(climb)
    return ClimbResult(list(climb.pa), n_scored + climb.n_swaps_scored, n_steps)
