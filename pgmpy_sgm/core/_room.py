"""Clique insertions that make room: join nodes whose joining is blocked, removing the edges in the way.

A clique insertion (:func:`~pgmpy_sgm.core.search.insert_clique`) makes a node and some of
its partners pairwise adjacent; it is impossible when a new edge ``{a, b}`` would close a
chordless cycle, that is when ``a`` and ``b`` are still connected once their common
neighbours are left out. Such a blocked insertion can still lead to a better graph: a
weak edge elsewhere (a few tenths of a log-unit) keeps a whole region from reorganising,
and no single toggle, relocation or clique insertion can move it, since each first
step costs more than it gains. *Making room* removes, for every blocked pair, edges on
a shortest path between them outside their common neighbours (on each path the edge
whose removal costs least), until the pair can be joined, then joins it and climbs over
the pairs touching every node involved. Every state is decomposable and scored exactly.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Sequence

from pgmpy_sgm.core.moves import DecomposableState, iter_bits
from pgmpy_sgm.core.search import (
    SCREEN_SLACK,
    changed_state,
    check_node_indices,
    greedy_climb,
    key_with_clique,
    without_strata,
)

__all__ = ["join_making_room", "room_sweep", "MAX_REMOVALS"]

#: Sizes of the partner sets joined to a node by one insertion that makes room.
ROOM_SIZES = (2,)

#: At most this many edges are removed to make room for one clique insertion (the move stays local).
MAX_REMOVALS = 6


def _path(adj: list[int], a: int, b: int, avoid: int) -> list[int] | None:
    """A shortest path from ``a`` to ``b`` through nodes outside the set mask ``avoid`` (None if there is none)."""
    previous = {a: -1}
    queue = deque([a])
    while queue:
        u = queue.popleft()
        for w in iter_bits(adj[u] & ~avoid):
            if w in previous:
                continue
            previous[w] = u
            if w == b:
                path = [b]
                while previous[path[-1]] >= 0:
                    path.append(previous[path[-1]])
                return path[::-1]
            queue.append(w)
    return None


def _make_room(state: DecomposableState, a: int, b: int, members: set, removed: list) -> bool:
    """Remove edges (not between ``members``) until ``{a, b}`` can be added, then add it; False if that fails."""
    while True:
        move = state.propose(a, b)
        if move is not None:
            state.commit(move)
            return True
        if len(removed) >= MAX_REMOVALS:
            return False
        path = _path(state.adj, a, b, state.adj[a] & state.adj[b])
        if path is None:
            return False
        cheapest = None
        for u, v in zip(path, path[1:], strict=False):
            if u in members and v in members:
                continue
            option = state.propose(u, v)
            if option is not None and (cheapest is None or option.score > cheapest.score):
                cheapest = option
        if cheapest is None:
            return False
        state.commit(cheapest)
        removed.append((cheapest.i, cheapest.j))


def join_making_room(state: DecomposableState, members: Sequence[int]) -> DecomposableState | None:
    """Make ``members`` pairwise adjacent, removing the edges in the way, then climb over the pairs touching them.

    For each missing edge between members, while adding it would break decomposability,
    the edge of a shortest path between its two ends (outside their common neighbours)
    whose removal costs least is removed (at most ``MAX_REMOVALS`` in all). The climb
    covers the pairs touching the members and the ends of every removed edge.

    Parameters
    ----------
    state : DecomposableState
        The start (not changed).
    members : sequence of int
        Variable indices.

    Returns
    -------
    DecomposableState or None
        The new state, or None when the members are already a clique or no room could be
        made.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.moves import key_from_edges
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> path = DecomposableState(tables, key_from_edges(tables, [(0, 1), (1, 2), (2, 3)]))
    >>> path.propose(0, 3) is None  # joining 0 and 3 would close a chordless 4-cycle
    True
    >>> joined = join_making_room(path, [0, 3])
    >>> joined.has_edge(0, 3), joined.key != path.key
    (True, True)
    """
    tables = state.tables
    members = sorted(set(members))
    check_node_indices(tables, members, "clique members")
    if key_with_clique(state, members) == state.key:
        return None
    new = DecomposableState(tables, state.key, state.strata)
    inside, removed = set(members), []
    for a, b in itertools.combinations(members, 2):
        if not new.has_edge(a, b) and not _make_room(new, a, b, inside, removed):
            return None
    touched = inside.union(*removed)
    greedy_climb(new, [(i, j) for i, j in tables.pairs if i in touched or j in touched])
    return new


def _blocked(plain: DecomposableState, members: Sequence[int]) -> bool:
    """Whether joining ``members`` in ``plain`` is impossible without removing edges (a blocked insertion)."""
    key = key_with_clique(plain, members)
    return key != plain.key and changed_state(plain, key) is None


def room_sweep(
    state: DecomposableState,
    partners: Sequence[Sequence[int]],
    deadline: float | None = None,
    visited: dict | None = None,
) -> DecomposableState:
    """For every node in turn, the best of its blocked clique insertions made with room, when it raises the score.

    The candidates are those of :func:`~pgmpy_sgm.core.search.clique_sweep` (a node with 2
    or 3 of its ``partners``) whose joining is not decomposable as the graph stands (the
    others are the clique sweep's). As there, each is screened without strata and made
    again with strata only when it ends at most ``SCREEN_SLACK`` below the current graph.
    One round over the nodes, keeping each improvement (a polish of the result does the
    rest).

    Parameters
    ----------
    state : DecomposableState
        The start (not changed).
    partners : sequence of sequence of int
        :func:`~pgmpy_sgm.core.search.clique_partners`.
    deadline : float, optional
        Wall-clock time (:func:`time.time`) after which the sweep stops early.
    visited : dict, optional
        ``{key: score}``; every improved state is added.

    Returns
    -------
    DecomposableState
        The best state found (``state`` itself if nothing improved it).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.search import clique_partners, pair_gains
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> start = DecomposableState(tables)
    >>> room_sweep(start, clique_partners(tables, pair_gains(tables))).score >= start.score
    True
    """
    if len(partners) != state.tables.n:
        raise ValueError(f"partners must list one sequence per variable ({state.tables.n}). Got {len(partners)}.")
    plain_of: dict[int, DecomposableState] = {}

    def best_at(best: DecomposableState, node: int) -> DecomposableState | None:
        plain = without_strata(best, plain_of)
        chosen = None
        for size in ROOM_SIZES:
            for others in itertools.combinations(partners[node], size):
                if deadline is not None and time.time() >= deadline:
                    return chosen
                members = (node, *others)
                if not _blocked(plain, members):
                    continue
                new = join_making_room(plain, members)
                if new is None or new.score <= plain.score - (SCREEN_SLACK if best.strata else 0.0):
                    continue
                if best.strata:  # the move again with strata (its removals and climb may differ)
                    new = join_making_room(best, members)
                if new is not None and new.score > (best.score if chosen is None else chosen.score) + 1e-9:
                    chosen = new
        return chosen

    best = state
    for node in range(state.tables.n):  # one round: the settling check polishes what it finds
        if deadline is not None and time.time() >= deadline:
            break
        new = best_at(best, node)
        if new is not None and new.score > best.score + 1e-9:
            best = new
            if visited is not None:
                visited.setdefault(new.key, new.score)
    return best
