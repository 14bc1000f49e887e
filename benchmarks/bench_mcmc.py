"""Benchmark of NonReversibleMCMC.  Run:  python benchmarks/bench_mcmc.py [--quick]

Measures (figures go to benchmarks/RESULTS.md, section "MCMC structure learning"):

1. iterations/s of one chain with labels on 25 binary variables, n=2000, simulated from a
   random decomposable model with context-specific ties, beside pgmpy's HillClimbSearch
   (BDeu) on the same data;
2. the iteration and time at which the chain reached its final best;
3. throughput of 2 chains with n_jobs=2 relative to 1 chain;
4. heart data: time of default fits from the empty graph over 20 seeds (each reaches the
   global optimum -6715.90 within the fit), and the estimated time to reach it;
5. exact (exhaustive) heart posterior.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import joblib
import numpy as np
import pandas as pd

from pgmpy_sgm import load_heart_disease
from pgmpy_sgm.causal_discovery import NonReversibleMCMC, exhaustive_posterior


def random_binary_sgm_data(n_vars: int = 25, n: int = 2000, seed: int = 0, return_graph: bool = False):
    """Rows from a random binary decomposable model: each node's parents form a clique of earlier nodes.

    Parent configurations are tied in random pairs (context-specific independence). With
    ``return_graph=True`` also the generating decomposable graph's edges (parents - child).
    """
    rng = np.random.default_rng(seed)
    parents: list[list[int]] = []
    families: list[list[int]] = []
    for v in range(n_vars):
        if v == 0 or rng.random() < 0.1:
            pa: list[int] = []
        else:
            base = families[int(rng.integers(len(families)))] if families else []
            k = int(rng.integers(1, min(3, len(base)) + 1)) if base else 0
            pa = sorted(rng.choice(base, size=k, replace=False).tolist()) if k else []
            if not pa:
                pa = [int(rng.integers(v))]
        parents.append(pa)
        families.append(pa + [v])
    x = np.zeros((n, n_vars), dtype=np.int64)
    for v in range(n_vars):
        pa = parents[v]
        n_cfg = 1 << len(pa)
        probs = rng.beta(0.6, 0.6, size=n_cfg)
        if n_cfg >= 4:  # tie two configurations: a context-specific independence
            a, b = rng.choice(n_cfg, size=2, replace=False)
            probs[b] = probs[a]
        cfg = np.zeros(n, dtype=np.int64)
        for u in pa:
            cfg = 2 * cfg + x[:, u]
        x[:, v] = rng.random(n) < probs[cfg]
    frame = pd.DataFrame(x, columns=[f"V{i:02d}" for i in range(n_vars)])
    if not return_graph:
        return frame
    names = list(frame.columns)
    edges = sorted({(names[a], names[b]) for fam in families for k, a in enumerate(fam) for b in fam[k + 1 :]})
    return frame, edges


def machine() -> str:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}"


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main(quick: bool = False) -> None:
    import pgmpy
    import sklearn

    n_iter = 5000 if quick else 20000
    print(f"machine: {machine()}; pgmpy {pgmpy.__version__}, scikit-learn {sklearn.__version__}, "
          f"numpy {np.__version__}, joblib {joblib.__version__}")
    data = random_binary_sgm_data()
    print(f"data: 25 binary variables, n={len(data)}")

    from pgmpy.causal_discovery import HillClimbSearch
    from pgmpy.structure_score import BDeu

    cat = data.astype("category")
    _, t_hc = timed(lambda: HillClimbSearch(scoring_method=BDeu(cat), show_progress=False).fit(cat))
    print(f"pgmpy HillClimbSearch (BDeu): {t_hc:.2f} s")

    def fit(n_chains, n_jobs, iters=n_iter, seed=0):
        return NonReversibleMCMC(n_iter=iters, n_chains=n_chains, n_jobs=n_jobs, seed=seed, show_progress=False).fit(
            data
        )

    cold, t_cold = timed(lambda: fit(1, 1))
    warm, t_warm = timed(lambda: fit(1, 1, seed=1))
    best_it = int(cold.chain_best_iterations_[0])
    print(f"1 chain, first fit: {n_iter} it in {t_cold:.2f} s = {n_iter / t_cold:,.0f} it/s; "
          f"best {cold.best_score_:.2f} first reached at iteration {best_it} "
          f"(~{t_cold * best_it / n_iter:.2f} s); acceptance {cold.acceptance_rate_:.3f}, visited {cold.n_visited_}")
    print(f"1 chain, second fit (own score caches; kernels loaded): {n_iter / t_warm:,.0f} it/s; "
          f"best {warm.best_score_:.2f} "
          f"at iteration {int(warm.chain_best_iterations_[0])}")

    # 1 vs 2 chains (n_jobs=2). Chain 0 is the same chain in both runs (same seed).
    # cold: first fit on these data; warm: the same fit repeated, best of 3 (worker processes started; every fit
    # builds its own score caches, so only process start-up and compiled kernels are warm).
    fit(2, 2, iters=200)  # start the worker processes
    fresh = random_binary_sgm_data(seed=1)

    # long enough (several seconds per chain) that starting processes and shipping data do not dominate
    chain_iter = n_iter if quick else 150_000

    def fit_on(frame, n_chains, n_jobs, seed=3):
        return NonReversibleMCMC(
            n_iter=chain_iter, n_chains=n_chains, n_jobs=n_jobs, seed=seed, show_progress=False
        ).fit(frame)

    _, t1_cold = timed(lambda: fit_on(fresh, 1, 1))
    _, t2_cold = timed(lambda: fit_on(fresh, 2, 2))
    t1_warm = min(timed(lambda: fit_on(data, 1, 1))[1] for _ in range(3))
    t2_warm = min(timed(lambda: fit_on(data, 2, 2))[1] for _ in range(3))
    for label, t1, t2 in (("cold", t1_cold, t2_cold), ("warm", t1_warm, t2_warm)):
        r1, r2 = chain_iter / t1, 2 * chain_iter / t2
        print(f"{label} caches, {chain_iter} iterations per chain: 1 chain {r1:,.0f} it/s; "
              f"2 chains n_jobs=2 {r2:,.0f} it/s: {r2 / r1:.2f}x")

    greedy = NonReversibleMCMC(n_iter=1, n_chains=1, start="best_gm", strata=False, show_progress=False).fit(data)
    print(f"greedy decomposable GM (start='best_gm'): {greedy.trace_[0, 0]:.2f}; MCMC best SG {cold.best_score_:.2f}")
    print(f"load average: {os.getloadavg()}")

    heart = load_heart_disease(as_counts=True)
    times, to_optimum, hits = [], [], 0
    for seed in range(20):
        est, t = timed(lambda seed=seed: NonReversibleMCMC(seed=seed, weights="count", show_progress=False).fit(heart))
        hits += abs(est.best_score_ + 6715.90) < 0.005
        times.append(t)
        # chain 0 of this fit is the single chain of the same seed: time a fresh fit that stops where it first
        # reaches the optimum (setup and posterior included)
        reached = np.flatnonzero(est.trace_[0] >= -6715.90 - 0.005)
        if reached.size:
            first = max(int(reached[0]), 1)
            _, t_opt = timed(
                lambda seed=seed, first=first: NonReversibleMCMC(
                    n_iter=first, n_chains=1, seed=seed, weights="count", show_progress=False
                ).fit(heart)
            )
            to_optimum.append(t_opt)
    print(f"heart: optimum -6715.90 found in {hits}/20 seeds by the default fit "
          f"(median {statistics.median(times):.3f} s, max {max(times):.3f} s, cold caches); "
          f"time to reach it (chain 0, {len(to_optimum)} seeds): "
          f"median {statistics.median(to_optimum):.3f} s, max {max(to_optimum):.3f} s")

    post, t_ex = timed(lambda: exhaustive_posterior(heart, weights="count"))
    print(f"exhaustive heart posterior: {len(post)} decomposable SGs in {t_ex:.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    main(parser.parse_args().quick)
