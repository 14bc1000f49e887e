"""Iterated local search over DAGs: kicked climbs from the best DAG, within a count, a work budget and a deadline.

The loop of :class:`~pgmpy_sgm.causal_discovery.LDAGSearch`'s restarts, beside the climb it
repeats (:mod:`~pgmpy_sgm.causal_discovery._dag_climb`), the equivalence search that gives one of
its starts and the DAG chain that may follow it. Each restart kicks the best DAG so far by
``size`` random edge changes and climbs from there; the kick grows by one after a round of
restarts that improves nothing (a kick the climb repairs is too small) and returns to its base
size after an improvement. Restarts stop after ``n_restarts``, when the next one is expected to
exceed the work budget (the moves the restarts have scored, the next costing their mean), or at
the deadline.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import joblib
import numpy as np

__all__ = ["RestartPlan", "RestartsResult", "iterated_climb"]


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

    ``stopped_by`` is ``"n_restarts"`` (all ran), ``"restart_budget"`` or ``"max_time"``.

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
        if plan.budget is not None and (plan.budget <= 0 or spent + (spent / done if done else 0) > plan.budget):
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
