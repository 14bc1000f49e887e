"""Iterated local search over DAGs: turned and kicked climbs from the best DAG, within work budgets and a deadline.

The loops of :class:`~pgmpy_sgm.causal_discovery.LDAGSearch` after its first climbs, beside the
climb they repeat (:mod:`~pgmpy_sgm.causal_discovery._dag_climb`), the equivalence search that
gives one of its starts and the DAG chain that may follow it.

* *Turns* (:func:`turn_sweeps`): every edge at one node turned to point into it or out of it
  (:func:`~pgmpy_sgm.causal_discovery._dag_moves.turn_edges`), then a climb; the turns are tried
  node after node until none improves the best DAG. They repair v-structures drawn the wrong
  way round, which no single edge move improves.
* *Restarts* (:func:`iterated_climb`): each kicks the best DAG so far by ``size`` random edge
  changes and climbs from there; the kick grows by one after a round of restarts that improves
  nothing (a kick the climb repairs is too small) and returns to its base size after an
  improvement. Restarts stop after ``n_restarts``.

Both stop when the next climb is expected to exceed their work budget (the moves their climbs
have scored, the next costing their mean), or at the deadline.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import joblib
import numpy as np

__all__ = ["RestartPlan", "RestartsResult", "iterated_climb", "turn_sweeps"]


@dataclass(frozen=True)
class RestartPlan:
    """How many restarts, how hard they kick and what they may spend.

    Attributes
    ----------
    n_restarts : int
        Most restarts.
    base_kick : int
        Edge changes of the first kick, and of every kick after an improvement.
    max_kick : int
        Largest kick.
    budget : float or None
        Moves the restarts may score in all (None: no limit; 0: no restart).
    deadline : float or None
        A ``time.time()`` value after which no restart starts.
    n_jobs : int
        Restarts climbed at once (joblib), each round from the best DAG of the previous one.

    Examples
    --------
    >>> RestartPlan(n_restarts=5, base_kick=2, max_kick=10)
    RestartPlan(n_restarts=5, base_kick=2, max_kick=10, budget=None, deadline=None, n_jobs=1)
    """

    n_restarts: int
    base_kick: int
    max_kick: int
    budget: float | None = None
    deadline: float | None = None
    n_jobs: int = 1


@dataclass(frozen=True)
class RestartsResult:
    """The best DAG after the restarts, its score, and why the restarts stopped.

    ``stopped_by`` is ``"n_restarts"`` (all ran), ``"restart_budget"`` or ``"max_time"`` for the
    restarts; ``"converged"`` (no turn improves the best DAG), ``"turn_budget"`` or ``"max_time"``
    for the turns.

    Examples
    --------
    >>> RestartsResult("dag", -1.0, "n_restarts").stopped_by
    'n_restarts'
    """

    best: object
    best_score: float
    stopped_by: str


def iterated_climb(climb: Callable, kick: Callable, best, best_score: float, plan: RestartPlan,
                   rng: np.random.Generator, on_result: Callable | None = None,
                   on_round: Callable | None = None) -> RestartsResult:  # fmt: skip
    """Restarts from ``best``: each a ``kick`` of the best DAG so far followed by a ``climb``.

    Parameters
    ----------
    climb : callable
        ``climb(start)`` returns ``(dag, score, seconds, n_new_families, moves_scored)``;
        with ``plan.n_jobs > 1`` it is sent to joblib's workers (it must pickle).
    kick : callable
        ``kick(dag, size, rng)`` returns ``dag`` changed by ``size`` random edge changes.
    best, best_score
        The best DAG so far and its score.
    plan : RestartPlan
    rng : numpy.random.Generator
        Draws the kicks (in the main process, so results do not depend on the workers).
    on_result : callable, optional
        Called with each restart's climb result, in order.
    on_round : callable, optional
        Called with the number of restarts of each round.

    Returns
    -------
    RestartsResult

    Examples
    --------
    >>> # a toy landscape: the score of a "DAG" (an integer) is -|x - 7|; a climb steps to the nearest even x
    >>> climb = lambda x: (x + x % 2, -abs(x + x % 2 - 7), 0.0, 0, 1)
    >>> kick = lambda x, size, rng: x + size
    >>> res = iterated_climb(climb, kick, 0, -7.0, RestartPlan(n_restarts=4, base_kick=3, max_kick=5),
    ...                      np.random.default_rng(0))
    >>> res.best, res.best_score, res.stopped_by
    (8, -1, 'n_restarts')
    """
    size, remaining, spent, done = plan.base_kick, plan.n_restarts, 0, 0
    while remaining > 0:
        if plan.deadline is not None and time.time() >= plan.deadline:
            return RestartsResult(best, best_score, "max_time")
        # the next restart is expected to cost what the restarts before it cost on average
        if _over_budget(plan.budget, spent, done):
            return RestartsResult(best, best_score, "restart_budget")
        batch = min(remaining, plan.n_jobs)
        kicked = [kick(best, size, rng) for _ in range(batch)]
        if batch == 1:
            results = [climb(kicked[0])]
        else:
            results = joblib.Parallel(n_jobs=batch)(joblib.delayed(climb)(start) for start in kicked)
        improved = False
        for result in results:
            if on_result is not None:
                on_result(result)
            spent, done = spent + result[4], done + 1
            if result[1] > best_score + 1e-9:
                best, best_score, improved = result[0], result[1], True
        # a kick the climb repairs is too small: escalate until a restart improves
        size = plan.base_kick if improved else min(size + 1, plan.max_kick)
        remaining -= batch
        if on_round is not None:
            on_round(batch)
    return RestartsResult(best, best_score, "n_restarts")


def _over_budget(budget: float | None, spent: int, done: int) -> bool:
    """Whether the next climb is expected to exceed ``budget``: it costs the mean of the ``done`` climbs so far."""
    return budget is not None and (budget <= 0 or spent + (spent / done if done else 0) > budget)


def _incident(dag, node) -> frozenset:
    return frozenset(dag.in_edges(node)) | frozenset(dag.out_edges(node))


def turn_sweeps(climb: Callable, turn: Callable, candidates: Callable, best, best_score: float,
                budget: float | None, deadline: float | None = None, on_result: Callable | None = None,
                polish: Callable | None = None) -> RestartsResult:  # fmt: skip
    """Climbs from turns of the best DAG until no turn improves it (a variable neighbourhood descent).

    The turns of ``candidates(best)`` are tried in order, each once; after an improvement the
    list is taken again from the new best DAG, and a turn already tried is tried again only
    when the edges at its node have changed. A turned DAG climbed before (or the best DAG
    itself, which a turn back gives) is not climbed again. When no turn is left to try, or
    the budget stops the turns, ``polish`` (a climb with a wider neighbourhood) runs from the
    best DAG if it has not run from that DAG before and the deadline has not passed; when it
    improves and the turns had converged, they are tried again from its DAG.

    Parameters
    ----------
    climb : callable
        ``climb(start)`` returns ``(dag, score, seconds, n_new_families, moves_scored)``.
    turn : callable
        ``turn(dag, node, into)`` returns the turned DAG, or None when it cannot be made.
    candidates : callable
        ``candidates(dag)`` lists the turns ``(node, into)`` worth trying, best first.
    best, best_score
        The best DAG so far and its score.
    budget : float or None
        Moves the climbs from turns may score in all (None: no limit; 0: no turn).
    deadline : float, optional
        A ``time.time()`` value after which no climb starts.
    on_result : callable, optional
        Called as ``on_result(result, kind)`` with each climb's result, in order; ``kind`` is
        ``"turn"`` or ``"polish"``.
    polish : callable, optional
        ``polish(start)`` returns a climb's result as ``climb`` does; its moves are not counted
        in the budget.

    Returns
    -------
    RestartsResult

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_sgm.causal_discovery._dag_moves import turn_candidates, turn_edges
    >>> # a toy score: the edges into "c"; the "climb" stays where it starts
    >>> climb = lambda dag: (dag, dag.in_degree("c"), 0.0, 0, 1)
    >>> candidates = lambda dag: turn_candidates(dag, ["a", "b", "c"])
    >>> res = turn_sweeps(climb, turn_edges, candidates, DAG([("c", "a"), ("c", "b")]), 0, budget=None)
    >>> sorted(res.best.edges()), res.best_score, res.stopped_by
    ([('a', 'c'), ('b', 'c')], 2, 'converged')
    >>> # a polish that adds the edge d -> c: the turns converge, the polish improves, nothing is left
    >>> def add_d(dag):
    ...     out = dag.copy()
    ...     out.add_edge("d", "c")
    ...     return out, out.in_degree("c"), 0.0, 0, 1
    >>> res = turn_sweeps(climb, turn_edges, candidates, DAG([("c", "a"), ("c", "b")]), 0, budget=None,
    ...                   polish=add_d)
    >>> sorted(res.best.edges()), res.best_score, res.stopped_by
    ([('a', 'c'), ('b', 'c'), ('d', 'c')], 3, 'converged')
    """
    spent, done, tried, climbed, polished = 0, 0, {}, {frozenset(best.edges())}, set()
    while True:
        next_turn = _untried(candidates(best), best, tried)
        if next_turn is None:
            stop = "converged"
        else:
            tried[next_turn] = _incident(best, next_turn[0])
            start = turn(best, *next_turn)
            if start is None or frozenset(start.edges()) in climbed:
                continue
            climbed.add(frozenset(start.edges()))
            if deadline is not None and time.time() >= deadline:
                return RestartsResult(best, best_score, "max_time")
            if not _over_budget(budget, spent, done):
                result = climb(start)
                if on_result is not None:
                    on_result(result, "turn")
                spent, done = spent + result[4], done + 1
                if result[1] > best_score + 1e-9:
                    best, best_score = result[0], result[1]
                continue
            stop = "turn_budget"
        # no turn is climbed next: the polish, once from each best DAG, before the deadline
        past_deadline = deadline is not None and time.time() >= deadline
        if polish is None or past_deadline or frozenset(best.edges()) in polished:
            return RestartsResult(best, best_score, stop)
        polished.add(frozenset(best.edges()))
        result = polish(best)
        if on_result is not None:
            on_result(result, "polish")
        improved = result[1] > best_score + 1e-9
        if improved:
            best, best_score = result[0], result[1]
        if not improved or stop != "converged":
            return RestartsResult(best, best_score, stop)
        # improved after the turns converged: they are tried again from the polished DAG


def _untried(turns: list, best, tried: dict) -> tuple | None:
    """The first turn ``(node, into)`` not tried since the edges at its node last changed (None: every one was)."""
    for node, into in turns:
        if tried.get((node, into)) != _incident(best, node):
            return node, into
    return None
