"""What a finished run of NonReversibleMCMC gives: its chains' bests recombined, visited graphs re-scored, attributes.

The chains move on cheaper labellings; after them the visited graphs are re-scored with the
package's labellings, the chains' best graphs recombined, and the fitted attributes
(``posterior_``, ``model_``, ``edge_probabilities_``, ``convergence_``, ...) computed from the
run's visited graphs and traces.
"""

from __future__ import annotations

import time

import numpy as np

from pgmpy_sgm.causal_discovery._chain import ChainData, run_segment
from pgmpy_sgm.causal_discovery._convergence import convergence_summary
from pgmpy_sgm.causal_discovery._posterior import edge_probability_frame, posterior_frame
from pgmpy_sgm.causal_discovery._run_state import RunState
from pgmpy_sgm.causal_discovery._search_plan import SearchPlan
from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.core.search import recombine
from pgmpy_sgm.models import StratifiedGraph

__all__ = ["recombine_chains", "rescore_visited", "visit_starts", "run_results", "POSTERIOR_STRATA_ROWS",
           "POSTERIOR_MARGIN"]

#: Rows of ``posterior_`` whose strata (and number of labels) are filled in: the top rows
#: holding 99.9% of the estimated posterior mass, but at least 100 and at most 1000 rows
#: (at least 1 when the time budget has run out).
POSTERIOR_STRATA_ROWS = (100, 0.999, 1000)

#: Rows of ``posterior_`` are the visited graphs within this many log-units of the best: a graph
#: further below has less than ``e**-50`` (2e-22) of the best's probability, so ten million of
#: them hold less than 1e-14 of the mass. They still count in the normalisation and in the edge
#: probabilities.
POSTERIOR_MARGIN = 50.0


def recombine_chains(tables: ScoreEngine, run: RunState, strata: bool, deadline: float | None = None) -> None:
    """Recombine the chains' best graphs (:func:`~pgmpy_sgm.core.search.recombine`) into the visited graphs.

    Starting from the best of them, the parts in which another chain's best graph is
    better are imported, over every other chain in turn until none adds anything. The
    graphs found enter the visited graphs with their exact scores (seen by no chain). It
    stops early at ``deadline`` (a :func:`time.time`), if given.
    """
    keys = sorted({s.best_key for s in run.chains if s.best_key in run.visited}, key=run.visited.get, reverse=True)
    if len(keys) < 2:
        return
    found: dict[int, float] = {}
    best = DecomposableState(tables, keys[0], strata)
    improved = True
    while improved:
        improved = False
        for donor in keys[1:]:
            new = recombine(best, donor, found, deadline)
            if new.score > best.score + 1e-9:
                best, improved = new, True
    for key, score in found.items():
        if key not in run.visited:
            run.visited[key] = score
            run.seen_by[key] = 0


def rescore_visited(tables: ScoreEngine, run: RunState, deadline: float | None = None) -> None:
    """Score the visited graphs with the package's labellings (``label_method="auto"``), best first.

    The chains move on the cheaper labellings of :data:`SEARCH_LABEL_METHOD`; the
    reported scores (``posterior_``, ``best_score_``, ``chain_best_scores_``) are those
    of ``"auto"``, :meth:`SGMScore.score <pgmpy_sgm.structure_score.SGMScore.score>`'s
    labellings, computed here for the visited graphs only, from the highest chain score
    down. When ``deadline`` (the time budget's end) has passed, the graphs not yet
    re-scored keep the chains' scores, which are never above the re-scored ones.
    """
    tables.label_method = "auto"
    for key in run.visited.sorted_keys(reverse=True):
        if deadline is not None and time.time() >= deadline:
            break
        run.visited[key] = DecomposableState(tables, key, True).score


def visit_starts(data: ChainData, run: RunState, strata: bool) -> None:
    """When no segment has ended (interrupted, or no time left), the chains' start graphs are the visited ones."""
    if not run.visited:
        for state in run.chains:
            run.merge(run_segment(data, state, 0, SearchPlan(strata)))


def run_results(data: ChainData, scorer, run: RunState, strata: bool, deadline: float | None = None) -> dict:
    """The fitted attributes of a finished run, by name: posterior, model, edge probabilities, traces, diagnostics.

    The start graphs count as visited when no segment ended (:func:`visit_starts`); with
    strata the visited graphs are re-scored first (:func:`rescore_visited`). After
    ``deadline``, the posterior table's strata are filled for fewer rows
    (:data:`POSTERIOR_STRATA_ROWS`).
    """
    tables, chains = scorer.engine, run.chains
    visit_starts(data, run, strata)
    if strata:
        rescore_visited(tables, run, deadline)
    rows = POSTERIOR_STRATA_ROWS
    if deadline is not None and time.time() >= deadline:
        rows = (1, *rows[1:])
    frame, pair_prob = posterior_frame(tables, run.visited, strata=strata, n_strata_rows=rows, margin=POSTERIOR_MARGIN)
    edges = list(frame["edges"].iloc[0])
    if strata:
        model = scorer.optimal_strata(edges)
    else:
        model = StratifiedGraph(edges, nodes=scorer.variables, state_names=scorer.state_names)
    best_scores = np.array([run.visited.get(s.best_key, s.best_score) for s in chains], dtype=np.float64)
    best_iterations = np.array([s.best_iteration for s in chains], dtype=np.int64)
    iterations = np.array([s.iteration for s in chains], dtype=np.int64)
    accepted = sum(s.n_accepted for s in chains)
    return {
        "scorer_": scorer,
        "variables_": list(scorer.variables),
        "posterior_": frame,
        "model_": model,
        "best_score_": float(frame["log_posterior"].iloc[0]),
        "edge_probabilities_": edge_probability_frame(tables, pair_prob),
        "trace_": _traces(run),
        "chain_best_scores_": best_scores,
        "chain_best_iterations_": best_iterations,
        "n_visited_": len(run.visited),
        "acceptance_rate_": float(accepted / iterations.sum()) if iterations.sum() else 0.0,
        "n_iter_": int(iterations.max()),
        "convergence_": convergence_summary(best_scores, best_iterations, iterations,
                                            _chain_pair_probabilities(run, len(tables.pairs)), pair_prob),  # fmt: skip
    }


def _traces(run: RunState) -> np.ndarray:
    """The chains' traces as rows of one array, NaN after a shorter chain's end."""
    trace = np.full((len(run.traces), max(len(t) for t in run.traces)), np.nan)
    for c, t in enumerate(run.traces):
        trace[c, : len(t)] = t
    return trace


def _chain_pair_probabilities(run: RunState, n_pairs: int) -> np.ndarray:
    """Each chain's edge probabilities over the graphs it visited itself (chains by rows)."""
    scores = np.fromiter(run.visited.values(), dtype=np.float64, count=len(run.visited))
    masks = np.array(run.seen_by.values_for(run.visited, 0), dtype=np.int64)
    weights = np.zeros((len(run.chains), len(scores)))
    for c in range(len(run.chains)):
        own = np.flatnonzero(masks & (1 << c))
        if len(own):
            own_weights = np.exp(scores[own] - scores[own].max())
            weights[c, own] = own_weights / own_weights.sum()
    return run.visited.weighted_pair_sums(weights, n_pairs)  # one pass over the graphs for every chain
