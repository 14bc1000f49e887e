"""The restarts loop: kicks grow until an improvement, and the count, work budget and deadline stop it."""

import time

import numpy as np
import pandas as pd

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.causal_discovery._iterated_climb import RestartPlan, iterated_climb


def _toy(scores: list[float], moves: int = 10):
    """A climb giving the next scripted score (the start as its DAG), and a kick recording its sizes."""
    scripted, sizes = iter(scores), []

    def climb(start):
        return start, next(scripted), 0.0, 0, moves

    def kick(dag, size, rng):
        sizes.append(size)
        return dag

    return climb, kick, sizes


def test_kick_sizes_and_the_count():
    climb, kick, sizes = _toy([-5.0, -5.0, -1.0, -3.0])
    res = iterated_climb(climb, kick, "start", -2.0, RestartPlan(4, base_kick=2, max_kick=3), np.random.default_rng(0))
    assert sizes == [2, 3, 3, 2] and res.best_score == -1.0 and res.stopped_by == "n_restarts"


def test_the_work_budget_and_the_deadline_stop_it():
    climb, kick, sizes = _toy([-5.0] * 10, moves=10)
    res = iterated_climb(climb, kick, "s", 0.0, RestartPlan(10, 1, 5, budget=25.0), np.random.default_rng(0))
    assert len(sizes) == 2 and res.stopped_by == "restart_budget"  # a third restart would spend 30 > 25
    climb, kick, sizes = _toy([-5.0] * 10)
    spent = RestartPlan(10, 1, 5, deadline=time.time() - 1)
    res = iterated_climb(climb, kick, "s", 0.0, spent, np.random.default_rng(0))
    assert sizes == [] and res.stopped_by == "max_time"


def test_parallel_restarts_are_reproducible():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2, 400)
    data = pd.DataFrame({"a": a, "b": a ^ (rng.random(400) < 0.1), "c": rng.integers(0, 2, 400)})
    runs = [LDAGSearch(n_restarts=4, n_jobs=2, restart_budget=None, seed=0, show_progress=False).fit(data)
            for _ in range(2)]  # fmt: skip
    assert runs[0].climb_starts_.count("restart") == 4
    assert runs[0].best_score_ == runs[1].best_score_ >= max(runs[0].climb_scores_[:2]) - 1e-9
    assert sorted(runs[0].causal_graph_.edges()) == sorted(runs[1].causal_graph_.edges())
