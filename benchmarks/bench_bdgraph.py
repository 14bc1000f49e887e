"""Undirected structure recovery against BDgraph on the random decomposable data of bench_search.

Run:  python benchmarks/bench_bdgraph.py [--datasets d100,d200] [--seeds 2] [--budget 60]
          [--bd-iter 5000] [--out FILE.csv]

For each data set (``d100``: 100 binary variables, n = 10,000; ``d200``: 200, n = 5000; both
``bench_mcmc.random_binary_sgm_data``, seed 0, with the generating decomposable graph) the same run
fits:

* ``NonReversibleMCMC(n_iter=None, max_time=BUDGET, seed=s)`` for each seed: the edges of the best
  graph found (``model_``) and the edges of posterior probability above 0.5
  (``edge_probabilities_``);
* BDgraph's birth-death sampler with the marginal pseudo-likelihood (R: ``BDgraph::bdgraph.mpl``,
  ``method = "dgm-binary"``, ``iter = BD_ITER``, ``burnin = BD_ITER / 2``, one core, the package's
  defaults otherwise) through ``Rscript``, for each seed (``set.seed``): the edges of posterior
  probability above 0.5 (``BDgraph::select(fit, cut = 0.5)``).

Reported: precision, recall and F1 of each edge set against the generating graph's edges, and wall
time (for BDgraph the sampler's own time inside R and the whole ``Rscript`` call with the data
read). Each fit runs in its own process. Without ``Rscript`` or the ``BDgraph`` package, the
BDgraph rows are skipped with a message.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_mcmc import machine  # noqa: E402
from bench_search import load_data  # noqa: E402

R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(BDgraph))
data <- as.matrix(read.csv(args[1]))
set.seed(as.integer(args[2]))
iter <- as.integer(args[3])
seconds <- system.time(
  fit <- bdgraph.mpl(data, method = "dgm-binary", iter = iter, burnin = iter / 2, cores = 1, verbose = FALSE)
)[["elapsed"]]
selected <- BDgraph::select(fit, cut = 0.5)
edges <- which(selected == 1 & upper.tri(selected), arr.ind = TRUE)
cat(seconds, "\n")
if (nrow(edges)) for (r in seq_len(nrow(edges))) cat(edges[r, 1] - 1, edges[r, 2] - 1, "\n")
"""


def edge_scores(found: set, truth: set) -> dict:
    """Precision, recall and F1 of an undirected edge set (frozensets) against the true one."""
    hits = len(found & truth)
    precision = hits / len(found) if found else float("nan")
    recall = hits / len(truth) if truth else float("nan")
    f1 = 2 * hits / (len(found) + len(truth)) if found or truth else float("nan")
    return {"edges": len(found), "precision": precision, "recall": recall, "f1": f1}


def sgm_here(name: str, seed: int, budget: float) -> dict:
    """One NonReversibleMCMC fit in this process (``--fit-one``): the two edge sets and the wall time."""
    from pgmpy_sgm.causal_discovery import ConvergenceWarning, NonReversibleMCMC

    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    warnings.filterwarnings("ignore", category=FutureWarning)
    data, _ = load_data(name)
    tic = time.perf_counter()
    est = NonReversibleMCMC(n_iter=None, max_time=budget, seed=seed, show_progress=False).fit(data)
    wall = time.perf_counter() - tic
    probs = est.edge_probabilities_
    names = list(probs.columns)
    median = [
        (names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names)) if probs.iat[i, j] > 0.5
    ]
    return {"best": [list(e) for e in est.model_.edges()], "median": median, "wall": wall}


def bdgraph_available() -> str | None:
    """None when Rscript with BDgraph is there, else the reason it is not."""
    if shutil.which("Rscript") is None:
        return "Rscript is not installed"
    out = subprocess.run(["Rscript", "-e", "library(BDgraph)"], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return "the R package BDgraph is not installed"
    return None


def bdgraph_fit(data: pd.DataFrame, seed: int, n_iter: int) -> tuple[set, float, float]:
    """(edges as name pairs, the sampler's seconds, the whole Rscript call's seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        csv, script = Path(tmp) / "data.csv", Path(tmp) / "fit.R"
        data.astype(int).to_csv(csv, index=False)
        script.write_text(R_SCRIPT)
        tic = time.perf_counter()
        out = subprocess.run(
            ["Rscript", str(script), str(csv), str(seed), str(n_iter)], capture_output=True, text=True, check=False
        )
        wall = time.perf_counter() - tic
    if out.returncode != 0:
        raise RuntimeError(f"BDgraph failed:\n{out.stderr[-3000:]}")
    lines = out.stdout.split("\n")
    names = list(data.columns)
    edges = {frozenset((names[int(a)], names[int(b)])) for a, b in (line.split() for line in lines[1:] if line.strip())}
    return edges, float(lines[0]), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default="d100,d200")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--budget", type=float, default=60.0, help="NonReversibleMCMC max_time (s)")
    parser.add_argument("--bd-iter", type=int, default=5000, help="BDgraph iterations (half of them burn-in)")
    parser.add_argument("--out", default=None, help="CSV file for the rows")
    parser.add_argument("--fit-one", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fit_one:
        name, seed, budget = json.loads(args.fit_one)
        print(json.dumps(sgm_here(name, seed, budget)))
        return
    print(machine())
    missing = bdgraph_available()
    if missing:
        print(f"BDgraph skipped: {missing}")
    rows = []
    for name in args.datasets.split(","):
        data, truth_edges = load_data(name)
        truth = {frozenset(e) for e in truth_edges}
        for seed in range(args.seeds):
            env = dict(os.environ, PYTHONHASHSEED="0")
            cmd = [sys.executable, str(Path(__file__).resolve()), "--fit-one", json.dumps([name, seed, args.budget])]
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
            if out.returncode != 0:
                raise RuntimeError(f"The fit {name} seed {seed} failed:\n{out.stderr[-3000:]}")
            body = json.loads(out.stdout.strip().splitlines()[-1])
            for kind in ("best", "median"):
                found = {frozenset(e) for e in body[kind]}
                rows.append({"data": name, "method": f"sgm-{kind}", "seed": seed, "seconds": body["wall"],
                             "wall": body["wall"], **edge_scores(found, truth)})  # fmt: skip
            if not missing:
                edges, seconds, wall = bdgraph_fit(data, seed, args.bd_iter)
                rows.append({"data": name, "method": "bdgraph-median", "seed": seed, "seconds": seconds, "wall": wall,
                             **edge_scores(edges, truth)})  # fmt: skip
            print(pd.DataFrame(rows[-3:]).to_string(index=False, float_format=lambda x: f"{x:.3f}"), flush=True)
    frame = pd.DataFrame(rows)
    print(frame.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    if args.out:
        frame.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
