"""The check a run passes before it counts as settled: the chains' agreed best must survive moves they cannot make.

Chains that agree may share a sub-optimum: both walks are drawn to the same basin, whose
way out starts with a step down that neither the walk nor the polish takes (on 25
binary variables a weak edge of 0.18 log-units keeps a region of seven edges from
reorganising). Before the run stops as settled, :func:`settle_check` recombines the
chains' best graphs and runs a sweep of clique insertions that make room
(:func:`~pgmpy_sgm.core._room.room_sweep`) from the best of them, polishing what it
finds. If that beats the chains' best, every chain jumps to the result
(:func:`adopt_check`) and the run goes on; the run stops as settled only when the check
finds nothing.
"""

from __future__ import annotations

import functools

from pgmpy_sgm.core._room import room_sweep
from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.core.search import cached_triple_partners, polish, recombine

__all__ = ["settle_check", "adopt_check"]


def settle_check(tables: ScoreEngine, run, plan, deadline: float | None) -> DecomposableState | None:
    """A graph better than every chain's best, found by recombination and insertions that make room, or None.

    Starting from the best of the chains' best graphs, the parts in which another chain's
    best is better are imported (:func:`~pgmpy_sgm.core.search.recombine`), then a
    :func:`~pgmpy_sgm.core._room.room_sweep` runs; when either raised the score, the result
    is polished (:func:`~pgmpy_sgm.core.search.polish`). The graphs found join
    ``run``'s visited graphs, seen by every chain. Deterministic unless ``deadline``
    (wall-clock, :func:`time.time`) cuts it short.

    Parameters
    ----------
    tables : ScoreEngine
        The run's engine (with the chains' labelling method).
    run : RunState
    plan : SearchPlan
        Needs ``clique_partners``.
    deadline : float or None

    Returns
    -------
    DecomposableState or None

    Examples
    --------
    >>> import numpy as np
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.causal_discovery._chain import new_chain_state
    >>> from pgmpy_sgm.causal_discovery._run_state import RunState
    >>> from pgmpy_sgm.causal_discovery._search_plan import SearchPlan
    >>> from pgmpy_sgm.core.search import clique_partners, pair_gains
    >>> from pgmpy_sgm.core.moves import key_from_edges
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> plan = SearchPlan(clique_partners=clique_partners(tables, pair_gains(tables)))
    >>> start = key_from_edges(tables, [(0, 1), (1, 2), (2, 3)])  # a poor graph both chains "agree" on
    >>> state = new_chain_state(0, np.random.SeedSequence(0), start)
    >>> state.best_score = DecomposableState(tables, start).score
    >>> run = RunState({}, [state])
    >>> better = settle_check(tables, run, plan, None)
    >>> round(better.score, 2), better.key in run.visited
    (-6715.9, True)
    """
    bests = sorted(run.chains, key=lambda s: s.best_score, reverse=True)
    keys = list(dict.fromkeys(s.best_key for s in bests))
    start = DecomposableState(tables, keys[0], plan.strata)
    found: dict[int, float] = {}
    best = start
    for donor in keys[1:]:
        best = recombine(best, donor, found, deadline)
    best = room_sweep(best, plan.clique_partners, deadline, found)
    if best.score > start.score + 1e-9:
        triples = functools.partial(cached_triple_partners, tables)
        best = polish(best, plan.clique_partners, deadline, found, triples)
    run.add_found(found, (1 << len(run.chains)) - 1)
    return best if best.score > start.score + 1e-9 else None


def adopt_check(run, better: DecomposableState) -> None:
    """Every chain jumps to ``better``, its new (already polished) best, and is no longer settled.

    Examples
    --------
    >>> import numpy as np
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.causal_discovery._chain import new_chain_state
    >>> from pgmpy_sgm.causal_discovery._run_state import RunState
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> state = new_chain_state(0, np.random.SeedSequence(0), 0)
    >>> state.iteration, state.settled = 40, True
    >>> run = RunState({}, [state])
    >>> adopt_check(run, DecomposableState(tables, 5))
    >>> state.key, state.best_key, state.polished_key, state.best_iteration, state.settled
    (5, 5, 5, 40, False)
    """
    run.add_found({better.key: better.score}, (1 << len(run.chains)) - 1)
    for state in run.chains:
        state.key = state.best_key = state.polished_key = better.key
        state.score = state.best_score = better.score
        state.best_iteration = state.iteration
        state.settled = False
