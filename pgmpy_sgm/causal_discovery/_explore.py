"""Exploration around the mode: the neighbourhoods of the best visited graphs, scored best first.

The chains' posterior estimate normalizes the exact scores of the distinct graphs visited
(Corander et al., 2008), so its error is the mass of the graphs no chain entered. An informed
chain reaches the mode quickly and then stays near it, rejecting most proposals; after the
chains end, the graphs one toggle away from the best visited graphs are scored directly, the
best unexpanded graph first, so that the graphs holding the most mass join the visited ones
for a bounded number of scored toggles. Nothing here is random: the graphs found depend only
on the visited graphs and the budget, so seeded fits stay reproducible whatever ``n_jobs``
or checkpoint segmenting.
"""

from __future__ import annotations

import heapq
import math
import time

from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.graph_store import GraphStore
from pgmpy_sgm.core.moves import DecomposableState

__all__ = ["MARGIN", "explore_neighbourhoods", "exploration_budget", "explore_run"]

#: Graphs scoring more than this many log-units below the best visited graph (posterior ratio
#: below ``exp(-20)``, about ``2e-9``) are neither kept nor expanded.
MARGIN = 20.0


def exploration_budget(share: float, iterations: int) -> int | float:
    """Scored toggles allowed to the exploration: ``share`` times the chains' iterations (rounded down).

    Examples
    --------
    >>> exploration_budget(0.1, 40000), exploration_budget(0.0, 40000), exploration_budget(float("inf"), 1)
    (4000, 0, inf)
    """
    return math.inf if math.isinf(share) else int(share * iterations)


def explore_neighbourhoods(
    engine: ScoreEngine,
    visited: dict[int, float],
    strata: bool,
    budget: int | float,
    deadline: float | None = None,
    margin: float = MARGIN,
) -> dict[int, float]:
    """Score the single-toggle neighbours of the best visited graphs, best first, within ``budget`` toggles.

    A queue holds the graphs within ``margin`` of the best score, ordered by score (then
    key). The best graph not yet expanded is taken from it and every toggle of one pair
    that keeps it decomposable is scored with ``engine``
    (:meth:`~pgmpy_sgm.core.moves.DecomposableState.propose`); a neighbour not visited
    before and within ``margin`` of the best score so far is kept and joins the queue
    (graphs that fall more than ``margin`` below a better one found later are not expanded). This goes on
    until ``budget`` toggles have been scored (each counts, decomposable or not), the queue
    is empty, or ``deadline`` (:func:`time.time`) has passed.

    Parameters
    ----------
    engine : ScoreEngine
        The engine the visited scores came from (same labellings).
    visited : dict
        ``{key: log unnormalized posterior}`` of the graphs visited so far (not modified).
    strata : bool
        Whether the graphs are scored with their optimal strata.
    budget : int or float
        Toggles to score at most (``math.inf``: until the queue is empty or ``deadline``).
    deadline : float, optional
        Wall-clock time at which the exploration stops (results then depend on the machine).
    margin : float
        See :data:`MARGIN`.

    Returns
    -------
    dict
        ``{key: log unnormalized posterior}`` of the graphs found (none of them in ``visited``).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.moves import DecomposableState
    >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> visited = {0: DecomposableState(engine).score}
    >>> found = explore_neighbourhoods(engine, visited, True, budget=15, margin=float("inf"))  # 15 one-edge graphs
    >>> len(found), all(key.bit_count() == 1 for key in found)
    (15, True)
    """
    if budget <= 0 or not visited or (deadline is not None and time.time() >= deadline):
        return {}
    floor = max(visited.values()) - margin
    queue = [(-score, key) for key, score in visited.items() if score >= floor]
    heapq.heapify(queue)
    found: dict[int, float] = {}
    tried = visited.copy() if isinstance(visited, GraphStore) else GraphStore(visited)  # keys only
    spent = 0
    while queue and spent < budget:
        neg_score, key = heapq.heappop(queue)
        if -neg_score < floor:  # below a better graph found since it joined the queue
            continue
        state = DecomposableState(engine, key, strata)
        for p, (i, j) in enumerate(engine.pairs):
            other = key ^ (1 << p)
            if other in tried:
                continue
            if deadline is not None and time.time() >= deadline:
                return found
            tried[other] = None
            move = state.propose(i, j)
            spent += 1
            if move is not None and move.score >= floor:
                found[other] = move.score
                heapq.heappush(queue, (-move.score, other))
                floor = max(floor, move.score - margin)
            if spent >= budget:
                break
    return found


def explore_run(engine: ScoreEngine, run, strata: bool, share: float, deadline: float | None = None) -> int:
    """Add to ``run.visited`` the graphs :func:`explore_neighbourhoods` finds; returns how many.

    The budget is ``share`` times the iterations of all chains of ``run`` (a
    :class:`~pgmpy_sgm.causal_discovery._run_state.RunState`); the graphs found are marked
    as seen by no chain (``run.seen_by``), so that the chains' own estimates
    (``convergence_``) are unchanged. With ``strata``, the graphs are scored with the
    engine's default labellings (``label_method="auto"``), those of the reported scores.
    """
    budget = exploration_budget(share, sum(state.iteration for state in run.chains))
    method = engine.label_method
    if strata:  # the reported labellings: their cost falls within the deadline and the rescoring reuses them
        engine.label_method = "auto"
    try:
        found = explore_neighbourhoods(engine, run.visited, strata, budget, deadline)
    finally:
        engine.label_method = method
    for key, score in found.items():
        run.visited[key] = score
        run.seen_by[key] = 0
    return len(found)
