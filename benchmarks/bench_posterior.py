"""Posterior accuracy of ``NonReversibleMCMC`` against the exact posterior, this code and an earlier one in one run.

Run:  python benchmarks/bench_posterior.py --old-source DIR [--cases heart,synthetic6,asia6]
          [--seeds 5] [--n-iter 20000] [--out FILE.csv]
      python benchmarks/bench_posterior.py --old-source DIR --summarise FILE.csv

For every case (data with at most 6 variables, so that
:func:`~pgmpy_sgm.causal_discovery.exhaustive_posterior` enumerates every decomposable graph)
and seed, each code runs two fits, each in a fresh process (no cache survives from one fit to
the next):

* ``n_iter``: ``NonReversibleMCMC(n_iter=N, seed=s)``, every other setting at its default;
* ``equal time``: ``NonReversibleMCMC(n_iter=None, max_time=T, seed=s)``, ``T`` the median
  wall time of the paper's chain's ``n_iter`` fits on that case in this run.

Codes: this checkout (``method="informed"``, the default), the earlier package in
``--old-source`` with its default ``method="informed"`` (``old``) and with ``method="paper"``
(``old paper``: the paper's chain, uniform pair proposals from the empty graph).

Reported per fit: the largest absolute difference between the estimated and the exact edge
probabilities, the number of distinct graphs visited, the exact posterior mass of the graphs
not visited, the best score and the wall time of the fit. Each code is measured against the
exact posterior computed by its own ``exhaustive_posterior`` (in a fresh process too), so a
change of labelling between the codes does not count as an error.

Cases: ``heart`` (the paper's data, 6 variables, 1841 rows), ``synthetic6`` (the paper's
Appendix B model, ``simulate_paper_synthetic(2000, seed=0)`` without ``X7``), ``synthetic6_300``
(the same with 300 rows: a flatter posterior) and ``asia6``
(asia simulated with seed 0, n = 5000, without ``either`` and ``xray``).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()

CASES = ("heart", "synthetic6", "synthetic6_300", "asia6")


def load(case: str):
    """The data of a case (a DataFrame of at most 6 discrete columns)."""
    if case == "heart":
        from pgmpy_sgm import load_heart_disease

        return load_heart_disease()
    if case == "synthetic6":
        from pgmpy_sgm.datasets import simulate_paper_synthetic

        return simulate_paper_synthetic(2000, seed=0).drop(columns=["X7"])
    if case == "synthetic6_300":
        from pgmpy_sgm.datasets import simulate_paper_synthetic

        return simulate_paper_synthetic(300, seed=0).drop(columns=["X7"])
    if case == "asia6":
        import gzip

        from pgmpy.readwrite import BIFReader

        with gzip.open(HERE / "data" / "asia.bif.gz", "rt") as handle:
            bn = BIFReader(string=handle.read()).get_model()
        data = bn.simulate(5000, seed=0, show_progress=False).drop(columns=["either", "xray"])
        return data[sorted(data.columns)].astype(str)
    raise ValueError(f"case must be one of {CASES}. Got: {case!r}")


def _graph(edges) -> str:
    """A graph as a canonical string (sorted pairs of sorted names)."""
    return ";".join(sorted("|".join(sorted(map(str, e))) for e in edges))


def exact(case: str) -> dict:
    """The exact posterior of a case: ``{graph: probability}`` and the variables."""
    from pgmpy_sgm.causal_discovery import exhaustive_posterior

    data = load(case)
    post = exhaustive_posterior(data, show_progress=False)
    return {"variables": sorted(map(str, data.columns)),
            "probability": {_graph(e): float(p) for e, p in zip(post["edges"], post["probability"], strict=True)},
            "best": float(post["log_posterior"].iloc[0])}  # fmt: skip


def fit_one(case: str, seed: int, n_iter, max_time, method: str = "informed") -> dict:
    """One fit: the visited graphs, the edge probabilities, the best score and the wall time."""
    from pgmpy_sgm.causal_discovery import NonReversibleMCMC

    data = load(case)
    est = NonReversibleMCMC(n_iter=n_iter, max_time=max_time, seed=seed, method=method, show_progress=False)
    tic = time.perf_counter()
    est.fit(data)
    seconds = time.perf_counter() - tic
    names = sorted(map(str, data.columns))
    matrix = est.edge_probabilities_
    matrix.index = matrix.columns = [str(c) for c in matrix.columns]
    return {
        "visited": [_graph(e) for e in est.posterior_["edges"]],
        "edge_probability": {f"{a}|{b}": float(matrix.loc[a, b]) for i, a in enumerate(names) for b in names[i + 1 :]},
        "best": float(est.best_score_),
        "n_iter_run": int(est.n_iter_),
        "seconds": seconds,
    }


def in_process(source: str, call: str) -> dict:
    """Evaluate ``call`` (a call of this module's functions) in a fresh process importing the package in ``source``."""
    code = f"import sys; sys.path.insert(0, {str(HERE)!r}); import bench_posterior as b, json; "
    code += f"print(json.dumps({call}))"
    env = dict(os.environ, PYTHONPATH=source, PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=source)
    return json.loads(out.stdout.strip().splitlines()[-1])


def errors(fit: dict, truth: dict) -> dict:
    """Largest edge-probability error, visited graphs and unvisited exact mass of one fit."""
    names = truth["variables"]
    exact_edge = {f"{a}|{b}": 0.0 for i, a in enumerate(names) for b in names[i + 1 :]}
    for graph, p in truth["probability"].items():
        for pair in filter(None, graph.split(";")):
            exact_edge[pair] += p
    visited = set(fit["visited"])
    return {
        "max_edge_error": max(abs(fit["edge_probability"][k] - v) for k, v in exact_edge.items()),
        "n_visited": len(visited),
        "unvisited_mass": sum(p for g, p in truth["probability"].items() if g not in visited),
        "best_gap": truth["best"] - fit["best"],
    }


def measure(case: str, code: str, source: str, method: str, seed: int, n_iter, max_time, truth: dict) -> dict:
    """One fit in a fresh process, measured against the exact posterior ``truth``."""
    fit = in_process(source, f"b.fit_one({case!r}, {seed}, {n_iter}, {max_time}, {method!r})")
    setting = f"n_iter={n_iter}" if max_time is None else f"max_time={max_time}"
    row = {"case": case, "code": code, "setting": setting, "seed": seed, "seconds": fit["seconds"],
           "n_iter_run": fit["n_iter_run"], **errors(fit, truth)}  # fmt: skip
    print(row, flush=True)
    return row


def summarise(rows: list[dict]) -> None:
    """The table of RESULTS.md: per case, setting and code, the spread over seeds."""
    print("\n| case | setting | code | largest edge-probability error (min / max) | visited graphs "
          "| unvisited exact mass (min / max) | wall s (median / max) | best gap max |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for key in dict.fromkeys((r["case"], r["setting"], r["code"]) for r in rows):
        mine = [r for r in rows if (r["case"], r["setting"], r["code"]) == key]
        err = [float(r["max_edge_error"]) for r in mine]
        seen = [int(r["n_visited"]) for r in mine]
        lost = [100 * float(r["unvisited_mass"]) for r in mine]
        secs = [float(r["seconds"]) for r in mine]
        print(f"| {' | '.join(key)} | {min(err):.2g} / {max(err):.2g} | {min(seen)}-{max(seen)} "
              f"| {min(lost):.2g}% / {max(lost):.2g}% | {statistics.median(secs):.2f} / {max(secs):.2f} "
              f"| {max(float(r['best_gap']) for r in mine):.2f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-source", required=True, help="directory holding an earlier pgmpy_sgm package")
    parser.add_argument("--cases", default="heart,synthetic6,asia6")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--n-iter", type=int, default=20000)
    parser.add_argument("--out", help="CSV file for the rows")
    parser.add_argument("--summarise", help="print the table of an earlier run's CSV file and stop")
    args = parser.parse_args()
    if args.summarise:
        with open(args.summarise, newline="") as handle:
            summarise(list(csv.DictReader(handle)))
        return
    codes = {"current": (str(HERE.parent), "informed"), "old": (args.old_source, "informed"),
             "old paper": (args.old_source, "paper")}  # fmt: skip
    rows = []
    for case in args.cases.split(","):
        truths = {src: in_process(src, f"b.exact({case!r})") for src, _ in set(codes.values())}
        for seed in range(args.seeds):
            for code, (src, method) in codes.items():
                rows.append(measure(case, code, src, method, seed, args.n_iter, None, truths[src]))
        paper = [r["seconds"] for r in rows if r["case"] == case and r["code"] == "old paper"]
        budget = round(statistics.median(paper), 2)
        for seed in range(args.seeds):
            for code, (src, method) in codes.items():
                rows.append(measure(case, code, src, method, seed, None, budget, truths[src]))
    summarise(rows)
    if args.out:
        with open(args.out, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
