"""The climbed start's greedy climb: over the candidate pairs of the current graph against over every pair.

Run: ``python benchmarks/bench_climbed_start.py [--sizes 200 500 1000]``

For each data set (``bench_search``'s random decomposable binary data), in one process: the pair
gains and the best forest once, then from that forest ``core.search.greedy_climb`` over every pair
(the baseline, the climbed start's climb before 2026-11-29) and ``core.search.screened_climb`` over
the candidate pairs of the current graph (``CandidatePairs`` with the default partners per node, as
``NonReversibleMCMC(start="climbed")`` builds them). Printed: seconds, committed toggles and the
score each climb reaches (with strata), and that of the generating graph.
"""

from __future__ import annotations

import argparse
import time
import warnings

from _machine import machine_line
from bench_search import load_data

from pgmpy_sgm.core.candidates import CandidatePairs
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.core.search import best_forest_key, greedy_climb, pair_gains, screened_climb
from pgmpy_sgm.structure_score import SGMScore

warnings.filterwarnings("ignore")


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
