"""The climbed start's greedy climb over every pair, against a variant over the candidate pairs of the current graph.

Run: ``python benchmarks/bench_climbed_start.py [--sizes 200 500 1000]``

For each data set (``bench_search``'s random decomposable binary data), in one process: the pair
gains and the best forest once, then from that forest ``core.search.greedy_climb`` over every pair
(what ``start="climbed"`` runs) and ``screened_climb`` below, a variant tried on 2026-11-29 and not
kept: a lazy greedy climb over the candidate pairs of the current graph (``CandidatePairs`` with the
default partners per node; the pairs touching each committed edge join the queue, and a last pass
re-scores every node's candidates). Printed: seconds, committed toggles and the score each climb
reaches (with strata), and that of the generating graph.
"""

from __future__ import annotations

import argparse
import heapq
import time
import warnings

from _machine import machine_line
from bench_search import load_data

from pgmpy_sgm.core.candidates import CandidatePairs
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.core.search import best_forest_key, greedy_climb, pair_gains
from pgmpy_sgm.structure_score import SGMScore

warnings.filterwarnings("ignore")


def screened_climb(state: DecomposableState, candidates: CandidatePairs) -> int:
    """The variant: commit the best improving toggle among the queued candidate pairs until none is left."""
    pairs, index = state.tables.pairs, state.tables.pair_index
    n_moves = 0
    while True:
        queued = {index[i][j] for v in range(state.tables.n) for i, j in candidates.touching(state.adj, [v])}
        heap = improving(state, queued)
        if not heap:
            return n_moves
        while heap:
            _, p = heapq.heappop(heap)
            move = state.propose(*pairs[p])
            if move is None or move.score <= state.score + 1e-9:
                continue
            if heap and (state.score - move.score, p) > heap[0]:  # another queued toggle may gain more now
                heapq.heappush(heap, (state.score - move.score, p))
                continue
            state.commit(move)
            n_moves += 1
            fresh = {index[i][j] for i, j in candidates.touching(state.adj, [move.i, move.j])} - queued
            queued |= fresh
            for item in improving(state, fresh):
                heapq.heappush(heap, item)


def improving(state: DecomposableState, positions) -> list:
    """A heap of ``(loss, pair index)`` of the toggles among ``positions`` that raise the score."""
    heap = []
    for p in sorted(positions):
        move = state.propose(*state.tables.pairs[p])
        if move is not None and move.score > state.score + 1e-9:
            heap.append((state.score - move.score, p))
    heapq.heapify(heap)
    return heap


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 500, 1000])
    args = parser.parse_args()
    print(machine_line())
    print("| data | candidates per node | every pair: s, toggles, score | candidate pairs: s, toggles, score | "
          "speed ratio | score difference | generating graph |")
    print("|---|---|---|---|---|---|---|")
    for d in args.sizes:
        data, generating = load_data(f"d{d}")
        engine = SGMScore(data).engine
        gains = pair_gains(engine)
        forest = best_forest_key(engine, gains)
        candidates = CandidatePairs(engine.pairs, engine.n, gains)
        truth = DecomposableState(engine, engine.key(generating)).score
        results = {}
        for name in ("all", "screened"):
            state = DecomposableState(engine, forest)
            tic = time.perf_counter()
            moves = greedy_climb(state) if name == "all" else screened_climb(state, candidates)
            results[name] = (time.perf_counter() - tic, moves, state.score)
        (t_all, m_all, s_all), (t_scr, m_scr, s_scr) = results["all"], results["screened"]
        print(f"| d{d} | {candidates.k} | {t_all:.1f}, {m_all}, {s_all:.2f} | {t_scr:.1f}, {m_scr}, {s_scr:.2f} | "
              f"{t_all / t_scr:.1f}x | {s_scr - s_all:+.2f} | {truth:.2f} |", flush=True)


if __name__ == "__main__":
    main()
