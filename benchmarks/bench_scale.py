"""Scale: 1,000,000 rows x 30 binary variables; wall time and peak RSS of each step.

Run: ``python benchmarks/bench_scale.py`` (options: ``--rows``, ``--variables``, ``--iterations``).

Each step runs in a fresh subprocess, which simulates the data itself (a fixed seed) and reports
its own peak resident set size (``resource.getrusage(RUSAGE_SELF).ru_maxrss``), so steps do not
inherit each other's peaks. The data are simulated with dependence: every variable copies one of
the previous variables with probability 0.8 (else a fair coin), and in every fifth variable the
copy is taken only in one context of a neighbour of that variable (context-specific dependence;
the generating graph is chordal, with triangles). Columns are ``int64``, as ``pandas.read_csv``
gives them.

Steps:

* ``data``: simulation only (the baseline each step includes);
* ``encode``: :class:`~pgmpy_sgm.core.data.EncodedData` of the frame;
* ``score``: :class:`~pgmpy_sgm.structure_score.SGMScore` and the score of three graphs (empty,
  the generating chain's skeleton, and the same with optimal strata);
* ``mcmc``: :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` with one chain of 1,000
  iterations.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time

GOAL_GB = 4.0


def simulate(n_rows: int, n_vars: int, seed: int = 0):
    """A DataFrame of dependent binary columns (int64) and the edges that generated it."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    columns = {}
    edges = []
    neighbours: dict[str, list[str]] = {}
    for j in range(n_vars):
        name = f"x{j:02d}"
        coin = rng.integers(0, 2, n_rows, dtype=np.int8)
        neighbours[name] = []
        if j == 0:
            columns[name] = coin
            continue
        parent = f"x{int(rng.integers(max(0, j - 3), j)):02d}"
        copy = rng.random(n_rows) < 0.8
        parents = [parent]
        if j % 5 == 0 and neighbours[parent]:  # the copy only happens in one context of a neighbour of parent
            other = neighbours[parent][int(rng.integers(len(neighbours[parent])))]
            copy &= columns[other] == 1
            parents.append(other)  # {other, parent, name} is a clique: the graph stays chordal
        columns[name] = np.where(copy, columns[parent], coin).astype(np.int8)
        for p in parents:
            edges.append((p, name))
            neighbours[p].append(name)
            neighbours[name].append(p)
    values = np.empty((n_rows, n_vars), dtype=np.int64)
    for j, column in enumerate(columns.values()):
        values[:, j] = column
    frame = pd.DataFrame(values, columns=list(columns), copy=False)
    return frame, edges


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def run_step(step: str, n_rows: int, n_vars: int, n_iter: int) -> dict:
    """Run one step in this process and return its figures."""
    import networkx as nx

    import pgmpy_sgm.causal_discovery  # noqa: F401 - imports are not part of any step's time
    import pgmpy_sgm.structure_score  # noqa: F401

    t0 = time.perf_counter()
    frame, edges = simulate(n_rows, n_vars)
    out = {"step": step, "simulate_s": time.perf_counter() - t0, "frame_mb": frame.memory_usage().sum() / 2**20}
    t0 = time.perf_counter()
    if step == "encode":
        from pgmpy_sgm.core.data import EncodedData

        enc = EncodedData(frame)
        out["distinct_rows"] = int(enc.codes.shape[0])
    elif step == "score":
        from pgmpy_sgm import SGMScore, StratifiedGraph

        scorer = SGMScore(frame)
        t1 = time.perf_counter()
        out["build_s"] = t1 - t0
        graph = nx.Graph(edges)
        assert nx.is_chordal(graph)  # each variable joins a clique of earlier ones
        scores = {
            "empty": scorer.score(StratifiedGraph(nodes=scorer.variables)),
            "chain": scorer.score(StratifiedGraph(graph)),
        }
        strata = scorer.optimal_strata(graph)
        scores["chain+strata"] = scorer.score(strata)
        out["graph_s"] = time.perf_counter() - t1
        out["scores"] = {k: round(v, 2) for k, v in scores.items()}
        out["n_labels"] = strata.n_labels()
    elif step == "mcmc":
        from pgmpy_sgm.causal_discovery import NonReversibleMCMC

        est = NonReversibleMCMC(n_iter=n_iter, n_chains=1, seed=0, show_progress=False).fit(frame)
        out["best_score"] = round(est.best_score_, 2)
        out["n_edges"] = est.model_.number_of_edges()
        out["acceptance_rate"] = round(est.acceptance_rate_, 3)
    elif step != "data":
        raise ValueError(f"Unknown step {step!r}")
    out["step_s"] = time.perf_counter() - t0
    out["peak_rss_mb"] = _peak_mb()
    return out


def _machine() -> dict:
    import networkx
    import numpy
    import pandas
    import pgmpy

    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next(line.split(":", 1)[1].strip() for line in handle if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
        "networkx": networkx.__version__,
        "pgmpy": pgmpy.__version__,
        "date": time.strftime("%Y-%m-%d"),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--variables", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--step", help=argparse.SUPPRESS)  # internal: run one step and print JSON
    args = parser.parse_args(argv)
    if args.step:
        print(json.dumps(run_step(args.step, args.rows, args.variables, args.iterations)))
        return 0
    print(json.dumps(_machine()))
    print(f"{args.rows:,} rows x {args.variables} binary variables, {args.iterations} MCMC iterations")
    results = []
    for step in ("data", "encode", "score", "mcmc"):
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--step", step, "--rows", str(args.rows), "--variables",
                               str(args.variables), "--iterations", str(args.iterations)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        out = json.loads(done.stdout.strip().splitlines()[-1])
        out["process_s"] = time.perf_counter() - t0
        results.append(out)
        print(json.dumps(out))
    peak = max(r["peak_rss_mb"] for r in results) / 1024
    print(f"peak RSS {peak:.2f} GB ({'within' if peak <= GOAL_GB else 'OVER'} the {GOAL_GB:.0f} GB goal)")
    return 0 if peak <= GOAL_GB else 1


if __name__ == "__main__":
    sys.exit(main())
