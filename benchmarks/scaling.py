"""Speed and scale: score throughput against pgmpy's BDeu, MCMC iterations/s and peak memory, chains.

Run: ``python benchmarks/scaling.py`` (about 15 minutes on 2 cores; ``--quick`` for a smoke run)

* Score throughput: family terms per second of ``SGMScore`` against pgmpy's ``BDeu`` local score
  (the functions of ``bench_score.py``: 20 binary variables, families of 2-4 parents, caches
  cleared), for n = 1e3 .. 1e6 (pgmpy only up to 1e5: its pandas counts take seconds per family
  beyond that).
* MCMC: ``NonReversibleMCMC`` (one chain from the empty graph, ``bench_score.simulate`` chained
  binary data) for d in {10, 25, 50} and n in {1e3, 1e4, 1e5, 1e6}, each in a fresh subprocess:
  iterations per second, the resident memory after importing and simulating the data, and the
  process's peak resident memory (``ru_maxrss``; it includes import-time peaks). Iterations are
  fewer for large n; a run over the time cap stops the larger n for that d (reported as skipped).
* Chains: 2 chains on 2 processes (loky) against 1 chain, d = 25, n = 1e4.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pgmpy
from pgmpy.structure_score import BDeu

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_score import families, simulate, time_per_family  # noqa: E402

from pgmpy_sgm import SGMScore  # noqa: E402

WORKER = r"""
import json, resource, sys, time, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, {here!r})
from bench_score import simulate
from pgmpy_sgm.causal_discovery import NonReversibleMCMC
d, n, n_iter, n_chains = {d}, {n}, {n_iter}, {n_chains}
data = simulate(n, d, seed=0)
def rss_mb():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * resource.getpagesize() / 2**20
base = rss_mb()
start = time.perf_counter()
est = NonReversibleMCMC(n_iter=n_iter, n_chains=n_chains, n_jobs=n_chains, seed=0, show_progress=False).fit(data)
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": elapsed, "base_mb": base, "peak_mb": peak, "data_mb": data.memory_usage().sum() / 2**20,
                  "best": est.best_score_, "visited": est.n_visited_, "edges": est.model_.number_of_edges()}}))
"""


def run_worker(d: int, n: int, n_iter: int, n_chains: int, timeout: float) -> dict | None:
    code = WORKER.format(here=str(HERE), d=d, n=n, n_iter=n_iter, n_chains=n_chains)
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def score_throughput(sizes) -> None:
    print("\n### Score throughput (family terms per second, caches cleared)\n")
    print("| n | pgmpy BDeu | SGMScore | ratio |")
    print("|---|---|---|---|")
    for n in sizes:
        df = simulate(n, 20, seed=0)
        fams = families(20, 200 if n <= 10_000 else 40, seed=1)
        sgm = SGMScore(df)

        def sgm_family(child, parents, sgm=sgm):
            sgm.encoded._cache.clear()
            sgm.engine.clear()
            return sgm._local_score(child, parents)

        t_sgm = time_per_family(sgm_family, fams)
        if n <= 100_000:
            bdeu = BDeu(df.astype("category"), equivalent_sample_size=1)
            t_pgmpy = time_per_family(bdeu._local_score, fams[:20] if n > 10_000 else fams, repeat=1)
            print(f"| {n:,} | {1 / t_pgmpy:,.0f} | {1 / t_sgm:,.0f} | {t_pgmpy / t_sgm:.1f}x |", flush=True)
        else:
            print(f"| {n:,} | (not run) | {1 / t_sgm:,.0f} | |", flush=True)


def mcmc_scaling(dims, sizes, cap: float) -> None:
    print(f"\n### MCMC iterations/s and memory (one chain from the empty graph; time cap {cap:.0f} s per run)\n")
    print("| d | n | iterations | seconds | iterations/s | RSS MB before fit / peak | data MB | edges found |")
    print("|---|---|---|---|---|---|---|---|")
    for d in dims:
        over = False
        for n in sizes:
            n_iter = {1_000: 1000, 10_000: 500, 100_000: 200, 1_000_000: 50}[n]
            if over:
                print(f"| {d} | {n:,} | {n_iter} | skipped (smaller n hit the cap) | | | | |", flush=True)
                continue
            out = run_worker(d, n, n_iter, 1, cap)
            if out is None:
                over = True
                print(f"| {d} | {n:,} | {n_iter} | > {cap:.0f} (stopped) | | | | |", flush=True)
                continue
            print(f"| {d} | {n:,} | {n_iter} | {out['seconds']:.1f} | {n_iter / out['seconds']:.1f} | "
                  f"{out['base_mb']:.0f} / {out['peak_mb']:.0f} | {out['data_mb']:.0f} | {out['edges']} |", flush=True)


def chains(cap: float) -> None:
    print("\n### 1 vs 2 chains (d = 25, n = 10,000, 500 iterations per chain)\n")
    print("| chains (processes) | seconds | total iterations/s | peak MB of the main process |")
    print("|---|---|---|---|")
    for c in (1, 2):
        out = run_worker(25, 10_000, 500, c, cap)
        if out is None:
            print(f"| {c} | > {cap:.0f} | | |")
            continue
        print(f"| {c} | {out['seconds']:.1f} | {c * 500 / out['seconds']:.1f} | {out['peak_mb']:.0f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cap", type=float, default=150.0, help="seconds per MCMC run")
    args = parser.parse_args()
    print(f"nproc {os.cpu_count()}, Python {platform.python_version()}, pgmpy {pgmpy.__version__}, "
          f"numpy {np.__version__}; {time.strftime('%Y-%m-%d %H:%M')}")
    if args.quick:
        score_throughput([1_000])
        mcmc_scaling([10], [1_000], args.cap)
        return
    score_throughput([1_000, 10_000, 100_000, 1_000_000])
    mcmc_scaling([10, 25, 50], [1_000, 10_000, 100_000, 1_000_000], args.cap)
    chains(args.cap)


if __name__ == "__main__":
    main()
