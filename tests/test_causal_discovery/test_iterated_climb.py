"""The restarts loop: kicks grow until an improvement, and the count, work budget and deadline stop it; the turns."""

import time

import numpy as np
import pandas as pd
from pgmpy.base import DAG

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.causal_discovery._dag_moves import turn_candidates, turn_edges
from pgmpy_sgm.causal_discovery._iterated_climb import RestartPlan, iterated_climb, turn_sweeps


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


def _sink_score(dag) -> float:
    """A toy score: edges into "c" count 2, other edges -1 (the best DAG has every edge into c, none else)."""
    return sum(2.0 if v == "c" else -1.0 for _, v in dag.edges())


def _turn_toy(moves: int = 10):
    """A climb that stays where it starts (scored by ``_sink_score``), recording each start."""
    starts = []

    def climb(start):
        starts.append(sorted(start.edges()))
        return start, _sink_score(start), 0.0, 0, moves

    return climb, starts


def test_turns_stop_when_no_turn_improves_and_each_turn_is_tried_once_per_neighbourhood():
    dag = DAG([("c", "a"), ("c", "b"), ("d", "a"), ("d", "b")])  # 4 edges out of c and d: -4
    climb, starts = _turn_toy()
    res = turn_sweeps(climb, turn_edges, lambda g: turn_candidates(g, list("abcd")), dag, _sink_score(dag), None)
    assert res.stopped_by == "converged" and res.best_score == 2.0
    assert {u for u, _ in res.best.in_edges("c")} == {"a", "b"} and res.best.out_degree("c") == 0
    # no DAG is climbed twice, the start (which a turn back gives) included
    seen = [tuple(map(tuple, s)) for s in starts]
    assert len(seen) == len(set(seen)) and tuple(sorted(dag.edges())) not in seen


def test_turns_stop_at_the_budget_and_the_deadline():
    dag = DAG([("a", "x"), ("a", "y"), ("b", "x"), ("b", "y")])  # no turn improves: 4 candidate turns
    climb, starts = _turn_toy(moves=10)
    candidates = lambda g: turn_candidates(g, ["a", "b", "x", "y"])  # noqa: E731
    res = turn_sweeps(climb, turn_edges, candidates, dag, _sink_score(dag), budget=25.0)
    assert len(starts) == 2 and res.stopped_by == "turn_budget"  # a third climb would spend 30 > 25
    climb, starts = _turn_toy()
    res = turn_sweeps(climb, turn_edges, candidates, dag, _sink_score(dag), budget=0)
    assert starts == [] and res.stopped_by == "turn_budget"
    res = turn_sweeps(climb, turn_edges, candidates, dag, _sink_score(dag), None, deadline=time.time() - 1)
    assert starts == [] and res.stopped_by == "max_time" and res.best is dag


def test_a_turn_that_cannot_be_made_costs_nothing():
    dag = DAG([("c", "a"), ("c", "b")])
    climb, starts = _turn_toy()
    res = turn_sweeps(climb, lambda g, node, into: None, lambda g: turn_candidates(g, ["a", "b", "c"]), dag, -2.0,
                      budget=0.5)  # fmt: skip
    assert starts == [] and res.stopped_by == "converged" and res.best is dag


def _polish_toy(added: tuple):
    """A polish that adds the edge ``added`` (scored by ``_sink_score``), recording each start."""
    starts = []

    def polish(start):
        starts.append(sorted(start.edges()))
        out = start.copy()
        out.add_edge(*added)
        return out, _sink_score(out), 0.0, 0, 1

    return polish, starts


def test_the_polish_runs_after_the_turns_and_the_turns_resume_after_it_improves():
    dag = DAG([("c", "a"), ("c", "b")])  # the turn of c gains; then the polish's edge d -> c gains
    climb, starts = _turn_toy()
    polish, polished = _polish_toy(("d", "c"))
    kinds = []
    res = turn_sweeps(climb, turn_edges, lambda g: turn_candidates(g, list("abcd")), dag, _sink_score(dag), None,
                      on_result=lambda result, kind: kinds.append(kind), polish=polish)  # fmt: skip
    assert res.stopped_by == "converged" and res.best_score == 6.0
    assert polished[0] == [("a", "c"), ("b", "c")]  # from the turned DAG, after the turn
    # from the polished DAG the turns are tried again (c's edges changed); a polish from it adds nothing new
    assert kinds[:2] == ["turn", "polish"] and kinds.count("polish") == len(polished) == 2
    assert polished[1] == [("a", "c"), ("b", "c"), ("d", "c")]


def test_the_polish_runs_once_per_dag_and_not_after_the_deadline():
    dag = DAG([("a", "x"), ("a", "y")])
    climb, _ = _turn_toy()
    polish, polished = _polish_toy(("x", "y"))  # -1: never an improvement
    candidates = lambda g: turn_candidates(g, ["a", "x", "y"])  # noqa: E731
    res = turn_sweeps(climb, turn_edges, candidates, dag, _sink_score(dag), budget=0, polish=polish)
    assert res.stopped_by == "turn_budget" and res.best is dag and len(polished) == 1  # the budget stops turns only
    res = turn_sweeps(climb, turn_edges, candidates, dag, _sink_score(dag), None, deadline=time.time() - 1,
                      polish=polish)  # fmt: skip
    assert res.stopped_by == "max_time" and len(polished) == 1
