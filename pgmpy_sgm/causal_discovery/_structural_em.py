"""Structural EM (Friedman 1997, 1998) for any learner of the package, over pooled incomplete rows.

The loop is written once, for a learner given as one callable (:class:`MStep`):

1. *start*: the model of the first E-step: by default the DAG of a node-average score of
   the available cases (:func:`~pgmpy_sgm.causal_discovery._pnal_start.pnal_log_probability`;
   families scored by BDeu for ``LDAGSearch``, by the penalised node-average likelihood for
   the other learners); or the Chow-Liu
   tree of the pairwise available cases
   (:func:`~pgmpy_sgm.core.tree_start.chow_liu_log_probability`), the learner's model of
   the complete cases (independent variables when they are fewer than
   ``MIN_COMPLETE_CASES`` or twice the variables), or independent variables
   (:attr:`~pgmpy_sgm.core.missing.EMOptions.start`). EM's fixed points stay near their
   start: completions drawn from a model without a dependence dilute it in the completed
   table, so a start from independence holds EM near sparse graphs;
2. *E-step*: every incomplete row is spread over its completions by the current model's
   posterior (:func:`~pgmpy_sgm.core.missing.complete_rows`), giving distinct complete rows
   with expected counts;
3. *M-step*: the learner's own search on that table, warm-started from the current
   structure, then the parameters of the structure found; between searches, cheaper
   parameter steps (the current structure re-fitted on the new table);
4. repeat until a search moves the expected score by less than
   :meth:`~pgmpy_sgm.core.missing.EMOptions.threshold` (relative to the score, with an
   absolute floor) with the same structure, two searches in a row keep the structure (the
   E-step's draws move the score even with the structure fixed), three searches in a row
   fail to raise the best observed-data criterion, or ``max_iter`` iterations;
5. *second look* (``EMOptions.revisit``, models with a DAG): once EM settles, one more E-step
   from the settled DAG plus each variable's strongest parent that the rows where it is
   observed support (:mod:`~pgmpy_sgm.causal_discovery._revisit`), then a search; when its
   observed-data criterion beats the settled one by more than ``2 log n``, EM runs on from
   it, else the look is recorded and dropped;
6. return the search with the best observed-data criterion (Cheeseman and Stutz 1996),
   which compares searches on different completed tables.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from pgmpy_sgm.core.missing import (
    BEST_STARTS,
    MIN_COMPLETE_CASES,
    CompletedTable,
    EMOptions,
    IncompleteTable,
    check_missing_option,
    complete_rows,
    e_step_seed,
    independent_log_probability,
    missing_cells,
    observed_log_likelihood,
    resolve_missing,
)
from pgmpy_sgm.core.pooling import is_dask_frame
from pgmpy_sgm.core.tree_start import TREE_START, chow_liu_log_probability

from ._pnal_start import START_ESS, START_MAX_INDEGREE, available_case_dag, pnal_log_probability
from ._revisit import revisit_margin, supported_parents

__all__ = ["MStepResult", "EMResult", "structural_em", "MIN_COMPLETE_CASES", "missing_input", "adopt_fitted",
           "adopt_em_result"]



@dataclass(frozen=True)
class MStepResult:
    """What an M-step returns: the fitted learner, its structure and score, and the model's row log-probability.

    Attributes
    ----------
    estimator : object
        The learner fitted on the completed table.
    structure : frozenset
        Its structure (hashable; e.g. edges with their strata or labels), to detect changes.
    score : float
        Its score on the completed table (the expected score).
    log_probability : callable
        ``log_probability(codes)`` of complete rows under the fitted model (columns in the
        incomplete table's variable order).
    parents : tuple of tuple of int, optional
        The model's DAG, each variable's parents (positions in the incomplete table's variable
        order), for EM's second look (``EMOptions.revisit``); None when the model has none.
    """

    estimator: object
    structure: frozenset
    score: float
    log_probability: Callable[[np.ndarray], np.ndarray]
    parents: tuple[tuple[int, ...], ...] | None = None


@dataclass(frozen=True)
class EMResult:
    """The chosen structure step, the table it was fitted on, and the history of the iterations.

    Examples
    --------
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1, None]}))
    >>> def m_step(completed, previous):
    ...     return MStepResult(None, frozenset(), 0.0, lambda codes: np.zeros(len(codes)))
    >>> result = structural_em(table, m_step, EMOptions())
    >>> type(result.last).__name__, result.completed.counts.tolist(), list(result.history.columns)[:5]
    ('MStepResult', [1.5, 1.5], ['step', 'expected_score', 'gain', 'added', 'removed'])
    >>> list(result.history.columns)[5:]
    ['seconds', 'table_rows', 'criterion']
    """

    last: MStepResult
    completed: CompletedTable
    history: pd.DataFrame


def _changes(before: frozenset | None, after: frozenset) -> tuple[int, int]:
    if before is None:
        return len(after), 0
    return len(after - before), len(before - after)


def structural_em(
    table: IncompleteTable,
    m_step: Callable[[CompletedTable, MStepResult | None], MStepResult],
    options: EMOptions,
    seed: int | None = 0,
    report: Callable[[dict], None] | None = None,
    parameter_step: Callable[[CompletedTable, MStepResult], MStepResult] | None = None,
) -> EMResult:
    """Run structural EM; ``m_step(completed, previous)`` learns from one completed table.

    Every iteration is an E-step and then either a *structure* step (``m_step``: the
    learner's search) or, with ``parameter_step``, a *parameter* step (the previous
    structure's parameters and score on the new table: cheap). After a structure step the
    iterations are parameter steps until the expected score rises by less than
    ``options.threshold`` of it (or falls: rows whose posterior tail is carried by draws
    make it wobble by a few nats); then a structure step again. EM stops after a structure
    step that moved the expected score by less than the threshold and either kept the
    structure or followed another such structure step (structures of equal score may
    alternate), after :data:`SEARCHES_KEPT_TO_STOP` structure steps in a row that kept the
    structure whatever the score did (draws in the E-step move it by tens of nats on large
    tables with the structure fixed), after :data:`SEARCHES_STALLED_TO_STOP` structure
    steps in a row none of which raised the best observed-data criterion before them by
    more than the threshold (checked at the next E-step, which gives a step's criterion),
    or at ``max_iter`` (whose last iteration is a structure step).

    The result is the structure step with the best *observed-data* criterion (Cheeseman and
    Stutz 1996): its expected score, minus its expected log-likelihood on the table it was
    fitted on, plus its observed-data log-likelihood (over the rows completed exactly), an
    estimate of the score of the incomplete data that, unlike the expected scores, compares
    steps fitted on different completed tables. Every E-step draws with the same random
    numbers, so rows completed by draws move only as the model does.

    Parameters
    ----------
    table : IncompleteTable
    m_step : callable
        ``m_step(completed, previous)`` fits the learner on ``completed`` (warm-started from
        ``previous.estimator`` when given) and returns an :class:`MStepResult`.
    options : EMOptions
    seed : int, optional
        Seed of the Gibbs draws of rows completed by draws.
    report : callable, optional
        Called with each iteration's history row.
    parameter_step : callable, optional
        ``parameter_step(completed, previous)``: ``previous``'s structure with its
        parameters and score on ``completed``. Without it every step is a structure step.

    Returns
    -------
    EMResult
        ``history`` has one row per iteration: ``step`` ("structure" or "parameters"),
        ``expected_score``, ``gain`` (over the previous iteration), ``added`` and ``removed``
        (structure elements, against the previous model, the start's included),
        ``seconds``, ``table_rows`` (distinct rows of the completed table the step was
        fitted on) and ``criterion`` (the observed-data criterion, structure steps only);
        ``history.attrs["start"]`` says which start was used and
        ``history.attrs["best_iteration"]`` which structure step is the result. ``last`` is
        that step and ``completed`` the table it was fitted on. With a second look,
        ``history.attrs["revisit"]`` gives the parents it added (variable names), the
        criterion before and after, the margin and whether it was kept; the iterations of
        a look not kept stay in the history but are never the result.

    Examples
    --------
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 0, 1, 1, None], "b": [0, 0, 1, 1, 1]}))
    >>> def m_step(completed, previous):  # a "learner" that keeps the independence model
    ...     log_p = independent_log_probability(IncompleteTable.from_frame(completed.frame, completed.counts))
    ...     return MStepResult(None, frozenset(), float(completed.counts.sum()), log_p)
    >>> result = structural_em(table, m_step, EMOptions(max_iter=5))
    >>> result.history["expected_score"].tolist(), result.history.attrs["start"]
    ([5.0, 5.0], 'DAG of the penalised node-average likelihood (available cases per family)')
    """
    draw_seed = e_step_seed(seed)
    options = options.for_learner("pnal")
    if options.start != "best":
        return _structural_em_from(options.start, table, m_step, options, draw_seed, report, parameter_step)
    runs = [_structural_em_from(start, table, m_step, options, draw_seed, report, parameter_step)
            for start in BEST_STARTS]  # fmt: skip
    criteria = {run.history.attrs["start"]: _best_criterion(run) for run in runs}
    chosen = max(runs, key=_best_criterion)  # ties: the earlier start
    chosen.history.attrs["start_criteria"] = criteria
    return chosen


def _best_criterion(result: EMResult) -> float:
    return float(result.history.loc[result.history.attrs["best_iteration"], "criterion"])


def _structural_em_from(choice: str, table: IncompleteTable, m_step, options: EMOptions, draw_seed: int, report,
                        parameter_step) -> EMResult:  # fmt: skip
    """:func:`structural_em` from one start (``choice``: see ``EMOptions.start``), then its second look."""
    previous, log_probability, start = _start(table, m_step, choice)
    run = functools.partial(_em_loop, table, m_step, options, draw_seed, report, parameter_step)
    rows, candidates = run(previous, log_probability, options.max_iter, 1)
    revisit = _revisit(table, run, options, rows, candidates) if options.revisit else None
    eligible = candidates if revisit is None else [c for c in candidates if c.iteration not in revisit["rejected"]]
    best = max(eligible, key=lambda c: c.criterion)  # ties: the earliest
    history = pd.DataFrame(rows).set_index("iteration")
    history["criterion"] = pd.Series({c.iteration: c.criterion for c in candidates}, dtype=float)
    history.attrs["start"] = start
    history.attrs["best_iteration"] = best.iteration
    if revisit is not None:
        history.attrs["revisit"] = {k: v for k, v in revisit.items() if k != "rejected"}
    return EMResult(best.result, best.completed, history)


def _revisit(table: IncompleteTable, run, options: EMOptions, rows: list, candidates: list) -> dict | None:
    """EM's second look (:mod:`~pgmpy_sgm.causal_discovery._revisit`); extends ``rows`` and ``candidates``.

    Returns None when the settled model has no DAG or the available cases support no new
    parent; else what was added, the criteria and whether it was kept (``"rejected"``: the
    iterations of a look not kept, which the result may not come from).
    """
    settled = max(candidates, key=lambda c: c.criterion)
    if settled.result.parents is None:
        return None
    new_parents, added = supported_parents(table.codes, table.counts, table.cards, settled.result.parents)
    if not added:
        return None
    look_model = available_case_dag(table.codes, table.counts, table.cards, new_parents)
    look_rows, look = run(settled.result, look_model, 1, len(rows) + 1)
    rows.extend(look_rows)
    candidates.extend(look)
    margin = revisit_margin(float(table.counts.sum()))
    kept = bool(look) and look[0].criterion > settled.criterion + margin
    record = {"parents_added": [(table.variables[u], table.variables[v]) for u, v, _ in added],
              "criterion_before": settled.criterion, "criterion_after": look[0].criterion if look else np.nan,
              "margin": margin, "kept": kept, "rejected": set() if kept else {c.iteration for c in look}}  # fmt: skip
    if kept:
        more_rows, more = run(look[0].result, look[0].result.log_probability, options.max_iter, len(rows) + 1)
        rows.extend(more_rows)
        candidates.extend(more)
    return record


def _em_loop(table: IncompleteTable, m_step, options: EMOptions, draw_seed: int, report, parameter_step,
             previous: MStepResult | None, log_probability, max_iter: int,
             first: int) -> tuple[list, list]:  # fmt: skip
    """EM's iterations ``first, first + 1, ...`` (at most ``max_iter``) from the model of the first E-step.

    Returns the history rows and the structure steps with their observed-data criteria.
    """
    rows, last_score, candidates, pending = [], np.nan, [], None
    cache: dict = {}  # the rows' parts in the E-step, the same while the structure is
    structure_next, calm_search, searches_kept = True, False, 0
    for step in range(1, max_iter + 1):
        tic = time.perf_counter()
        completed = complete_rows(table, log_probability, options.max_completions, options.n_draws, draw_seed,
                                  options.tail_mass, options.max_kept, options.n_tail_draws, cache=cache)  # fmt: skip
        if pending is not None:  # the E-step gives the observed-data log-likelihood of the model that made it
            candidates.append(pending._replace(criterion=pending.criterion + completed.log_likelihood))
            pending = None
            if _criterion_stalled(candidates, options):
                rows[-1]["seconds"] += time.perf_counter() - tic
                break
        structural = structure_next or parameter_step is None or previous is None or step == max_iter
        result = m_step(completed, previous) if structural else parameter_step(completed, previous)
        if structural:
            pending = _Candidate(result.score - _expected_log_likelihood(result, completed), first + step - 1, result,
                                 completed)  # fmt: skip
        added, removed = _changes(None if previous is None else previous.structure, result.structure)
        gain, last_score = result.score - last_score, result.score
        row = {"iteration": first + step - 1, "step": "structure" if structural else "parameters",
               "expected_score": result.score, "gain": gain, "added": added, "removed": removed,
               "seconds": time.perf_counter() - tic, "table_rows": len(completed.counts)}  # fmt: skip
        rows.append(row)
        if report is not None:
            report(row)
        small = step > 1 and abs(gain) < options.threshold(result.score)
        kept = previous is not None and result.structure == previous.structure
        previous, log_probability = result, result.log_probability
        if structural:
            searches_kept = searches_kept + 1 if kept else 0
        if structural and small and (kept or calm_search):  # the structure, or at least the score, has settled
            break
        if searches_kept >= SEARCHES_KEPT_TO_STOP:  # the structure has settled; the score moves by the draws only
            break
        if structural:
            calm_search = small
        structure_next = not structural and gain < options.threshold(result.score)  # a fall counts as settled
    if pending is not None:
        tic = time.perf_counter()
        observed = observed_log_likelihood(table, pending.result.log_probability, options.max_completions)
        candidates.append(pending._replace(criterion=pending.criterion + observed))
        rows[-1]["seconds"] += time.perf_counter() - tic
    return rows, candidates


#: EM stops when this many structure searches in a row keep the structure, however much the expected score
#: moves (the E-step's draws make it move even with the structure fixed).
SEARCHES_KEPT_TO_STOP = 2

#: EM stops when this many structure searches in a row fail to raise the best observed-data criterion found
#: before them by more than ``EMOptions.threshold`` (the structure may still drift between near-equals).
SEARCHES_STALLED_TO_STOP = 3


def _criterion_stalled(candidates: list, options: EMOptions) -> bool:
    """Whether the last :data:`SEARCHES_STALLED_TO_STOP` searches all failed to beat the best criterion before them.

    Examples
    --------
    >>> from types import SimpleNamespace as S
    >>> flat = [S(criterion=c) for c in (-100.0, -50.0, -50.05, -49.99, -50.02)]
    >>> _criterion_stalled(flat, EMOptions()), _criterion_stalled(flat[:4], EMOptions())
    (True, False)
    """
    if len(candidates) <= SEARCHES_STALLED_TO_STOP:
        return False
    before = max(c.criterion for c in candidates[:-SEARCHES_STALLED_TO_STOP])
    return all(c.criterion < before + options.threshold(before) for c in candidates[-SEARCHES_STALLED_TO_STOP:])


#: ``history.attrs["start"]`` of EM started from the DAG of the penalised node-average likelihood.
PNAL_START = "DAG of the penalised node-average likelihood (available cases per family)"

#: ``history.attrs["start"]`` of EM started from the DAG of the node-average BDeu score.
BDEU_START = "DAG of the node-average BDeu score (available cases per family)"


class _Candidate(NamedTuple):
    """A structure step and its observed-data criterion (partial until its observed log-likelihood is added)."""

    criterion: float
    iteration: int
    result: MStepResult
    completed: CompletedTable


def _expected_log_likelihood(result: MStepResult, completed: CompletedTable) -> float:
    """The log-likelihood of the completed table (rows with their expected counts) under the step's model."""
    codes = completed.codes
    if codes is None:
        raise ValueError("The completed table has no codes; make it with complete_rows.")
    return float(np.dot(result.log_probability(codes), completed.counts))


def _start(table: IncompleteTable, m_step, choice: str) -> tuple[MStepResult | None, Callable, str]:
    """``(previous, log_probability, name)``: the model of the first E-step (see ``EMOptions.start``).

    ``previous`` is the learner's model of the complete cases, or None when the start is not
    one of the learner's models (the first M-step is then a search from scratch).
    """
    if choice == "complete_cases" and table.enough_complete_cases():
        previous = m_step(table.complete_cases(), None)
        return previous, previous.log_probability, "complete cases"
    if choice == "tree":
        return None, chow_liu_log_probability(table.codes, table.counts, table.cards), TREE_START
    if choice == "pnal":
        return None, pnal_log_probability(table.codes, table.counts, table.cards), PNAL_START
    if choice == "bdeu":
        log_probability = pnal_log_probability(table.codes, table.counts, table.cards, max_indegree=START_MAX_INDEGREE,
                                               bdeu_ess=START_ESS)  # fmt: skip
        return None, log_probability, BDEU_START
    return None, independent_log_probability(table), "independent variables (available cases)"


def missing_input(X, weights, missing, stacklevel: int = 4) -> tuple[object, object, bool]:
    """``(X, weights, needs_em)``: a learner's input with its missing cells handled as ``missing`` says.

    A DataFrame goes through :func:`~pgmpy_sgm.core.missing.resolve_missing` (with
    ``"error"``, the error naming every column with gaps); an array is made a DataFrame
    (columns ``x0, x1, ...``) unless ``missing="error"``; ``needs_em`` is true when
    ``missing`` means EM and there are missing cells (the data are then returned as they are).

    Examples
    --------
    >>> X, weights, needs_em = missing_input(np.array([[0, 1], [np.nan, 0]]), None, "em")
    >>> list(X.columns), needs_em
    (['x0', 'x1'], True)
    """
    choice = check_missing_option(missing)
    if is_dask_frame(X) or (choice == "error" and not isinstance(X, pd.DataFrame)):
        return X, weights, False
    if not isinstance(X, pd.DataFrame):
        X = pd.DataFrame(np.asarray(X), columns=[f"x{i}" for i in range(np.shape(X)[1])])
    variables = [c for c in X.columns if not (isinstance(weights, str) and c == weights)]
    if choice == "em" and not missing_cells(X, variables).empty:
        return X, weights, True
    X, weights = resolve_missing(X, weights, choice, variables, stacklevel=stacklevel)
    return X, weights, False


def adopt_fitted(target, source) -> None:
    """Copy the fitted attributes (public names ending in ``_``) of one learner to another.

    Examples
    --------
    >>> class Learner:
    ...     pass
    >>> a, b = Learner(), Learner()
    >>> b.model_, b._cache, b.seed = 1, 2, 3
    >>> adopt_fitted(a, b)
    >>> vars(a)
    {'model_': 1}
    """
    target.__dict__.update({k: v for k, v in vars(source).items() if k.endswith("_") and not k.startswith("_")})


def adopt_em_result(target, result: EMResult, cells) -> None:
    """Give a learner the fitted attributes of EM's chosen step and the record of the EM.

    Sets what :func:`adopt_fitted` copies, plus ``em_history_``, ``n_completed_exactly_``,
    ``n_completed_capped_``, ``n_completed_by_draws_`` (incomplete rows, counted with their
    weights, of the chosen step's completed table, see
    :class:`~pgmpy_sgm.core.missing.CompletedTable`) and ``missing_cells_`` (``cells``: the
    missing cells per column).

    Examples
    --------
    >>> class Learner:
    ...     pass
    >>> def m_step(completed, previous):
    ...     return MStepResult(Learner(), frozenset(), 0.0, lambda codes: np.zeros(len(codes)))
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1, None, 1]}))
    >>> target = Learner()
    >>> adopt_em_result(target, structural_em(table, m_step, EMOptions(max_iter=2)), {"a": 1})
    >>> target.n_completed_exactly_, target.missing_cells_
    (1.0, {'a': 1})
    """
    adopt_fitted(target, result.last.estimator)
    target.em_history_ = result.history
    target.n_completed_exactly_ = result.completed.n_exact
    target.n_completed_capped_ = result.completed.n_capped
    target.n_completed_by_draws_ = result.completed.n_drawn
    target.missing_cells_ = cells
