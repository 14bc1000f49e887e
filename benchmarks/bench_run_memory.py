"""Resident memory of one long ``NonReversibleMCMC`` fit, sampled through the run, and its peak.

Run: ``python benchmarks/bench_run_memory.py SECONDS [SEED] [--data d200]``

The data are ``bench_search.load_data(NAME)`` (default ``d200``: 200 binary variables, n = 5,000). One
``NonReversibleMCMC(max_time=SECONDS, n_iter=None, seed=SEED)`` fit; a thread reads the process's resident memory
(``/proc/self/statm``) every 5 s. Printed: wall seconds, best score, distinct visited graphs, iterations per chain,
the peak (``ru_maxrss``) and the samples (every 30 s). To compare two trees, run it twice side by side, the baseline
from a git worktree of the older commit (``PYTHONPATH=<worktree>:<site-packages> python -S ...``): peak memory
does not depend on the other process's load.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine_line  # noqa: E402
from bench_search import load_data  # noqa: E402

from pgmpy_sgm import NonReversibleMCMC  # noqa: E402


def resident_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seconds", type=float)
    parser.add_argument("seed", type=int, nargs="?", default=0)
    parser.add_argument("--data", default="d200")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    data, _ = load_data(args.data)
    samples, done = [], threading.Event()

    def sample() -> None:
        start = time.time()
        while not done.wait(5.0 if samples else 0.0):
            samples.append((time.time() - start, resident_mb()))

    threading.Thread(target=sample, daemon=True).start()
    start = time.time()
    est = NonReversibleMCMC(max_time=args.seconds, n_iter=None, seed=args.seed, show_progress=False).fit(data)
    done.set()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"wall {time.time() - start:.1f} s, best {est.best_score_:.2f}, {est.n_visited_:,} visited graphs, "
          f"{est.n_iter_:,} iterations per chain, peak {peak:,.0f} MB")
    for seconds, mb in samples[::6]:
        print(f"{seconds:.0f} s {mb:.0f} MB")


if __name__ == "__main__":
    main()
