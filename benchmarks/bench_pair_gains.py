"""Pair gains (the gain of every single edge, the start of every search): the exact sums against one proposal per pair.

Run: ``python benchmarks/bench_pair_gains.py [--sizes 200 500 1000]``

For each data set (``bench_search``'s random decomposable binary data d100 ... d1000), in one
process, on fresh engines:

* *proposals* (the baseline, the code before 2026-11-29): every pair's term primed by one
  weighted cross-product into the engine's term cache (one entry per pair, keyed by its set
  mask), then ``DecomposableState.propose(i, j)`` on the empty graph for every pair;
* *exact sums* (``core.search.pair_gains`` now): the same terms kept as one array
  (``ScoreEngine.prime_pair_terms``), each gain the correctly rounded exact sum a proposal
  computes, without building a proposal.

The two gain vectors must be equal bit for bit. Printed: seconds of each, their ratio, the
entries left in the engine's term cache, and the peak of Python allocations during a second
run of each (``tracemalloc``, which slows what it watches).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
import warnings

import numpy as np
from _machine import machine_line
from bench_search import load_data

from pgmpy_sgm.core import search
from pgmpy_sgm.core._pair_terms import pair_set_terms
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.structure_score import SGMScore

warnings.filterwarnings("ignore")


def gains_by_proposals(engine) -> np.ndarray:
    """The baseline: the pair terms primed into the term cache, then one proposal per pair on the empty graph."""
    terms = pair_set_terms(engine.encoded.codes, engine.encoded.weights, engine.cards)
    for (i, j), value in terms.items():
        engine._d.setdefault(1 << i | 1 << j, value)
    empty = DecomposableState(engine, 0, strata=False)
    return np.array([empty.propose(i, j).score - empty.score for i, j in engine.pairs])


def gains_by_exact_sums(engine) -> np.ndarray:
    search.PRIME_PAIRS_FROM = 0  # primed at every size, as the baseline is
    return search._single_edge_gains(engine)


def run(data, compute) -> tuple[np.ndarray, float, int, float]:
    """``(gains, seconds, term cache entries, peak MB of a second, traced run)``."""
    engine = SGMScore(data).engine
    tic = time.perf_counter()
    gains = compute(engine)
    seconds = time.perf_counter() - tic
    entries = len(engine._d)
    engine = SGMScore(data).engine
    tracemalloc.start()
    compute(engine)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return gains, seconds, entries, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 500, 1000])
    args = parser.parse_args()
    print(machine_line())
    run(load_data("d25")[0], gains_by_exact_sums)  # compile the counting kernels first
    print("| data | pairs | proposals s | exact sums s | ratio | cache entries before / now | peak MB before / now "
          "| identical |")
    print("|---|---|---|---|---|---|---|---|")
    for d in args.sizes:
        data, _ = load_data(f"d{d}")
        baseline, before, entries_before, peak_before = run(data, gains_by_proposals)
        gains, now, entries_now, peak_now = run(data, gains_by_exact_sums)
        print(f"| d{d} | {len(gains):,} | {before:.2f} | {now:.2f} | {before / now:.1f}x | {entries_before:,} / "
              f"{entries_now:,} | {peak_before:.0f} / {peak_now:.0f} | {np.array_equal(gains, baseline)} |", flush=True)


if __name__ == "__main__":
    main()
