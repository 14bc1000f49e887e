"""Search quality under a time budget: the informed search against the paper's algorithm, seed by seed.

Run:  python benchmarks/bench_search.py [--datasets d25,d50,d100,child,insurance,alarm] [--seeds 8]
          [--paper-seeds 8] [--first-seed 0] [--scale 1.0] [--jobs 1] [--no-hill-climb] [--out FILE.csv]
          [--best-known d100=-432402.59,...] [--old-code PATH] [--budget SECONDS] [--climbed]

For each data set, every seed runs one default fit (two chains, one process) with
``max_time`` = the data set's budget and ``n_iter=None``, from cold caches, once with the
default search (``method="informed"``) and once with the paper's algorithm
(``method="paper"``, uniform pairs from the empty graph: the previous default). With
``--jobs J`` the fits run J at a time in separate processes (each fit still one process with
its two chains, so on a machine with J cores each fit gets about one core). Reported:

* each seed's best log unnormalized posterior, the spread over seeds, and the gap to the
  best score known for the data (the best over every run of both methods, and the
  generating graph with its optimal strata where the data come from a decomposable model, and
  the scores given with ``--best-known`` from earlier runs);
* the time at which a fit first came within 1 log-unit of the best known (estimated from
  the trace: chain ``c`` runs in the ``c``-th share of the budget);
* pgmpy's ``HillClimbSearch`` (BDeu) time on the same data, for reference;
* each fit's wall time (the results formed after the budget included) and peak resident set
  size: every fit runs in a fresh process (``--fit-one``).

With ``--old-code PATH`` (a checkout of an earlier version of the package, e.g. a ``git
worktree`` of an older commit), every informed fit runs once more with that code (its process
imports ``pgmpy_sgm`` from ``PATH``), in the same run, reported as method ``old``. With
``--climbed`` every informed fit runs once more from ``start="climbed"`` (method ``climbed``).

Data: ``d25`` is ``bench_mcmc.random_binary_sgm_data(25, 2000)``; ``d50`` and ``d100`` the same
generator with 50 variables (n = 2000) and 100 variables (n = 10,000); ``child``, ``insurance``
and ``alarm`` are simulated from the bnlearn networks; ``d200`` (n = 5000), ``d500`` and ``d1000``
(n = 10,000) are the same generator with 200, 500 and 1,000 variables; and ``random3`` from pgmpy's random network with
20 nodes, 30 edges and 3 states per node, seed 0 (n = 5000, seed 0; the script runs with
``PYTHONHASHSEED=0`` because pgmpy's sampler orders nodes by hash). Budgets: d25 10 s,
d50 60 s, d100 300 s, d200 300 s, d500 and d1000 600 s, bnlearn and random3 60 s (times ``--scale``,
or ``--budget`` seconds for every data set).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _hash_seed import pin_hash_seed  # noqa: E402
from bench_mcmc import machine, random_binary_sgm_data  # noqa: E402

from pgmpy_sgm import SGMScore  # noqa: E402
from pgmpy_sgm.causal_discovery import ConvergenceWarning, NonReversibleMCMC  # noqa: E402

warnings.filterwarnings("ignore", category=FutureWarning)
warnings.filterwarnings("ignore", category=ConvergenceWarning)

BUDGETS = {
    "d25": 10.0, "d50": 60.0, "d100": 300.0, "d200": 300.0, "d500": 600.0, "d1000": 600.0, "child": 60.0,
    "insurance": 60.0, "alarm": 60.0, "random3": 60.0,
}


def load_data(name: str):
    """(data, generating decomposable graph's edges or None)."""
    if name == "d25":
        return random_binary_sgm_data(25, 2000, seed=0, return_graph=True)
    if name == "d50":
        return random_binary_sgm_data(50, 2000, seed=0, return_graph=True)
    if name == "d100":
        return random_binary_sgm_data(100, 10_000, seed=0, return_graph=True)
    if name == "d200":
        return random_binary_sgm_data(200, 5000, seed=0, return_graph=True)
    if name == "d500":
        return random_binary_sgm_data(500, 10_000, seed=0, return_graph=True)
    if name == "d1000":
        return random_binary_sgm_data(1000, 10_000, seed=0, return_graph=True)
    if name == "random3":  # a random network full of v-structures: 20 nodes, 30 edges, 3 states each
        from pgmpy.models import DiscreteBayesianNetwork

        bn = DiscreteBayesianNetwork.get_random(n_nodes=20, n_edges=30, n_states=3, seed=0)
        data = bn.simulate(5000, seed=0, show_progress=False)
        return data[sorted(data.columns)].astype(str), None
    from pgmpy.readwrite import BIFReader

    with gzip.open(HERE / "data" / f"{name}.bif.gz", "rt") as handle:
        bn = BIFReader(string=handle.read()).get_model()
    data = bn.simulate(5000, seed=0, show_progress=False)
    data = data[sorted(data.columns)].astype(str)
    return data, None


def hill_climb_seconds(data: pd.DataFrame) -> float:
    from pgmpy.causal_discovery import HillClimbSearch
    from pgmpy.structure_score import BDeu

    cat = data.astype("category")
    tic = time.perf_counter()
    HillClimbSearch(scoring_method=BDeu(cat), show_progress=False).fit(cat)
    return time.perf_counter() - tic


def time_within(est: NonReversibleMCMC, budget: float, target: float) -> float:
    """First time (s) a chain's current state scored at least ``target`` (chain c runs in the c-th share)."""
    share = budget / est.trace_.shape[0]
    best = np.inf
    for c, trace in enumerate(est.trace_):
        trace = trace[~np.isnan(trace)]
        hits = np.flatnonzero(trace >= target)
        if hits.size:
            best = min(best, c * share + share * hits[0] / max(len(trace) - 1, 1))
    return best


class FitResult:
    """What the report needs of one fit (comes back from the fit's process as JSON)."""

    def __init__(self, body: dict):
        self.best_score_ = body["best"]
        self.chain_best_scores_ = np.array(body["chain_bests"])
        self.n_iter_ = body["n_iter"]
        self.trace_ = np.array([[np.nan if v is None else v for v in t] for t in body["trace"]], dtype=float)
        self.peak_rss_mb = body["peak_rss_mb"]


def fit_here(name: str, method: str, seed: int, budget: float) -> dict:
    """One default fit in this process (``--fit-one``): its result as a JSON-friendly dict."""
    data, _ = load_data(name)
    tic = time.perf_counter()
    start = "climbed" if method == "climbed" else "auto"  # "climbed": the informed search from the climbed start
    method = "informed" if method == "climbed" else method
    est = NonReversibleMCMC(n_iter=None, max_time=budget, method=method, seed=seed, start=start, show_progress=False)
    est.fit(data)
    wall = time.perf_counter() - tic
    trace = [[None if np.isnan(v) else float(v) for v in row] for row in est.trace_]
    return {
        "best": float(est.best_score_), "chain_bests": est.chain_best_scores_.tolist(), "n_iter": int(est.n_iter_),
        "trace": trace, "wall": wall, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }  # fmt: skip


def fit_one(name: str, method: str, seed: int, budget: float, code: str | None = None) -> tuple[FitResult, float]:
    """One default fit from cold caches in a fresh process (importing ``pgmpy_sgm`` from ``code`` if given)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    if code is not None:
        env["PYTHONPATH"] = os.path.abspath(code)
    args = [sys.executable, str(Path(__file__).resolve()), "--fit-one", json.dumps([name, method, seed, budget])]
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"The fit {name} {method} seed {seed} failed:\n{out.stderr[-3000:]}")
    body = json.loads(out.stdout.strip().splitlines()[-1])
    return FitResult(body), body["wall"]


def run(
    name: str,
    seeds: int,
    paper_seeds: int,
    scale: float,
    rows: list,
    jobs: int = 1,
    hill_climb: bool = True,
    first_seed: int = 0,
    earlier_best: float | None = None,
    old_code: str | None = None,
    budget: float | None = None,
    climbed: bool = False,
) -> None:
    budget = BUDGETS[name] * scale if budget is None else budget
    data, edges = load_data(name)
    print(f"\n== {name}: {data.shape[1]} variables, n = {len(data)}, budget {budget:.0f} s per fit", flush=True)
    generating = None
    if edges is not None:
        scorer = SGMScore(data)
        generating = float(scorer.score(scorer.optimal_strata(edges)))
        print(f"generating graph with its optimal strata: {generating:.2f}", flush=True)
    if hill_climb:
        print(f"pgmpy HillClimbSearch (BDeu): {hill_climb_seconds(data):.1f} s", flush=True)
    fits = []
    todo = sorted(
        ((method, seed) for method, n_seeds in (("informed", seeds), ("old", seeds if old_code else 0),
                                                ("climbed", seeds if climbed else 0), ("paper", paper_seeds))
         for seed in range(first_seed, first_seed + n_seeds)),
        key=lambda item: item[1],
    )  # fmt: skip  (seed by seed: the old and new code of a seed run side by side, under the same load)

    def launch(method, seed):
        if method == "old":
            return fit_one(name, "informed", seed, budget, old_code)
        return fit_one(name, method, seed, budget)

    if jobs > 1:
        from concurrent.futures import ThreadPoolExecutor  # each fit is its own process

        pool = ThreadPoolExecutor(jobs)
        results = pool.map(lambda item: launch(*item), todo)
    else:
        results = (launch(method, seed) for method, seed in todo)
    for (method, seed), (est, wall) in zip(todo, results, strict=True):
        fits.append((method, seed, est, wall))
        gap = f", {est.best_score_ - generating:+.2f} vs the generating graph" if generating is not None else ""
        print(
            f"  {method:8s} seed {seed}: best {est.best_score_:.2f}{gap} (chains {est.chain_best_scores_.round(2)}), "
            f"{est.n_iter_} it, {wall:.1f} s, peak RSS {est.peak_rss_mb:.0f} MB; "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    candidates = [f[2].best_score_ for f in fits] + [v for v in (generating, earlier_best) if v is not None]
    best_known = max(candidates)
    print(f"best known: {best_known:.2f} (this run's best: {max(f[2].best_score_ for f in fits):.2f})")
    for method in ("informed", "old", "climbed", "paper"):
        mine = [f for f in fits if f[0] == method]
        if not mine:
            continue
        scores = np.array([f[2].best_score_ for f in mine])
        times = [time_within(f[2], budget, best_known - 1.0) for f in mine]
        within = sum(best_known - s <= 1.0 for s in scores)
        below_gen = sum(s < generating for s in scores) if generating is not None else 0
        reached = [t for t in times if np.isfinite(t)]
        print(
            f"{method:8s}: {within}/{len(mine)} seeds within 1 of the best known; spread {np.ptp(scores):.2f}; "
            f"gap to best known max {best_known - scores.min():.2f}, median {best_known - np.median(scores):.2f}; "
            f"below the generating graph: {below_gen}; time to within 1: "
            + (f"median {np.median(reached):.1f} s, max {max(reached):.1f} s" if reached else "never")
            + f" ({len(reached)}/{len(mine)} seeds); peak RSS max {max(f[2].peak_rss_mb for f in mine):.0f} MB"
        )
        for (_, seed, est, wall), t in zip(mine, times, strict=True):
            rows.append(
                {
                    "data": name,
                    "method": method,
                    "seed": seed,
                    "budget_s": budget,
                    "wall_s": wall,
                    "best": est.best_score_,
                    "best_known": best_known,
                    "generating": generating,
                    "gap": best_known - est.best_score_,
                    "time_within_1_s": t,
                    "n_iter": est.n_iter_,
                    "peak_rss_mb": est.peak_rss_mb,
                }
            )


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--fit-one":
        warnings.filterwarnings("ignore")
        print(json.dumps(fit_here(*json.loads(sys.argv[2]))))
        return
    pin_hash_seed()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="d25,d50,d100,child,insurance,alarm")
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--paper-seeds", type=int, default=8)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every budget")
    parser.add_argument("--first-seed", type=int, default=0, help="seeds run from this one on")
    parser.add_argument("--jobs", type=int, default=1, help="fits run at once, each in its own process")
    parser.add_argument("--no-hill-climb", action="store_true", help="skip the HillClimbSearch reference time")
    parser.add_argument("--out", default=None, help="CSV file for the raw rows")
    parser.add_argument(
        "--best-known",
        default="",
        help="best scores known from earlier runs, e.g. d100=-432402.59,child=-62206.23 (the gaps use the larger)",
    )
    parser.add_argument("--old-code", default=None, help="a checkout of earlier code: its informed fits as 'old'")
    parser.add_argument("--budget", type=float, default=None, help="seconds per fit for every data set")
    parser.add_argument("--climbed", action="store_true",
                        help="every informed fit once more from start='climbed', reported as method 'climbed'")
    args = parser.parse_args()
    known = {}
    for item in filter(None, args.best_known.split(",")):
        name, _, value = item.partition("=")
        try:
            known[name.strip()] = float(value)
        except ValueError:
            parser.error(f"--best-known takes NAME=SCORE items separated by commas. Got: {item!r}")
    import pgmpy

    print(f"machine: {machine()}; pgmpy {pgmpy.__version__}; load average {os.getloadavg()}")
    rows: list = []
    for name in args.datasets.split(","):
        run(name, args.seeds, args.paper_seeds, args.scale, rows, args.jobs, not args.no_hill_climb, args.first_seed,
            known.get(name), args.old_code, args.budget, args.climbed)  # fmt: skip
        if args.out:
            pd.DataFrame(rows).to_csv(args.out, index=False)
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
