"""Pair gains (the gain of every single edge, the start of every search) with every pair's term in one product.

Run: ``python benchmarks/bench_pair_gains.py [--sizes 100 200 500]``

For each data set (``bench_search``'s random decomposable binary data d100, d200, d500), in one
process: ``core.search.pair_gains`` on a fresh engine with the pair terms primed by one weighted
cross-product of one-hot codes (``ScoreEngine.prime_pair_terms``, the path from
``core.search.PRIME_PAIRS_FROM`` variables on), and on a fresh engine whose pairs are counted one by
one (the baseline, the path below it); the two gain
vectors must be equal bit for bit. Printed: seconds of each, their ratio, and the peak of Python
allocations during a third, primed run (``tracemalloc``, which slows what it watches).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import tracemalloc
import warnings

import numpy as np
from bench_search import load_data

from pgmpy_sgm.core import search
from pgmpy_sgm.core.search import _single_edge_gains
from pgmpy_sgm.structure_score import SGMScore

warnings.filterwarnings("ignore")


def timed_gains(data, primed: bool) -> tuple[np.ndarray, float]:
    engine = SGMScore(data).engine
    search.PRIME_PAIRS_FROM = 0 if primed else 10**9  # whatever the package's threshold
    tic = time.perf_counter()
    gains = _single_edge_gains(engine)
    return gains, time.perf_counter() - tic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 500])
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}; load average {os.getloadavg()}")
    timed_gains(load_data("d25")[0], True)  # compile the counting kernels first
    for d in args.sizes:
        data, _ = load_data(f"d{d}")
        baseline, one_by_one = timed_gains(data, primed=False)
        gains, primed = timed_gains(data, primed=True)
        tracemalloc.start()  # a third run for the memory (tracemalloc slows allocations)
        timed_gains(data, primed=True)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        same = np.array_equal(gains, baseline)
        print(f"d{d}: {len(gains):,} pairs; one by one {one_by_one:.2f} s, primed {primed:.2f} s, "
              f"ratio {one_by_one / primed:.1f}x; identical: {same}; peak allocations {peak:.0f} MB; "
              f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
