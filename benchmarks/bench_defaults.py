"""The search as a new user runs it: ``NonReversibleMCMC(seed=s)`` with every other setting left at its default.

Run:  python benchmarks/bench_defaults.py [--datasets heart,asia,child,insurance,alarm,d25,d50]
          [--seeds 8] [--jobs 1] [--old-source DIR] [--out FILE.csv]

Every seed runs one fit with the defaults (no ``n_iter``, no ``max_time``); reported per data set:
how many seeds end within 1 log-unit of the best score known for the data, how many of the
others warned (``ConvergenceWarning``), the gaps, the wall time and why the fit stopped.

``--old-source DIR`` also runs the same fits, in separate processes in the same run, with the
package found in ``DIR`` (e.g. a ``git worktree`` of an earlier commit), so that its defaults are
compared on the same data and machine. The best known scores are the best of every fit in the
run and of ``bench_search.py``'s budgeted runs recorded in RESULTS (``BEST_KNOWN`` below).

Data: as ``bench_search.py`` (``PYTHONHASHSEED=0``; bnlearn networks and random models,
columns sorted), plus ``heart`` (the paper's data) and ``asia`` (n = 5000).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()
sys.path.insert(0, str(HERE))

#: Best scores of the budgeted runs of bench_search.py (RESULTS.md, "relocating insertions"); insurance:
#: the default fits with the settling check (RESULTS.md, "Defaults", 2026-11-27).
BEST_KNOWN = {
    "heart": -6715.90,
    "d25": -20360.56,
    "d50": -45025.09,
    "d100": -432402.54,
    "child": -62206.23,
    "insurance": -68858.46,
    "alarm": -54553.97,
}


def load(name: str):
    if name == "heart":
        from pgmpy_sgm import load_heart_disease

        return load_heart_disease()
    if name == "asia":
        import gzip

        from pgmpy.readwrite import BIFReader

        with gzip.open(HERE / "data" / "asia.bif.gz", "rt") as handle:
            bn = BIFReader(string=handle.read()).get_model()
        data = bn.simulate(5000, seed=0, show_progress=False)
        return data[sorted(data.columns)].astype(str)
    from bench_search import load_data

    return load_data(name)[0]


def fit_one(name: str, seed: int) -> dict:
    """One default fit: its best score, whether it warned, why it stopped, iterations and wall time."""
    from pgmpy_sgm.causal_discovery import NonReversibleMCMC

    data = load(name)
    tic = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = NonReversibleMCMC(seed=seed, show_progress=False).fit(data)
    seconds = time.perf_counter() - tic
    warned = [str(w.message)[:60] for w in caught if w.category.__name__ == "ConvergenceWarning"]
    return {
        "data": name,
        "seed": seed,
        "best": float(est.best_score_),
        "warned": bool(warned),
        "stop": getattr(est, "stop_reason_", "n_iter"),
        "n_iter": int(est.n_iter_),
        "seconds": round(seconds, 2),
        "chain_bests": " / ".join(f"{b:.2f}" for b in est.chain_best_scores_),
    }


def run_old(source: str, name: str, seed: int) -> dict:
    """The same fit in a fresh process importing the package from ``source``."""
    code = f"import sys; sys.path.insert(0, {str(HERE)!r}); import bench_defaults as b, json; " \
           f"print(json.dumps(b.fit_one({name!r}, {seed})))"  # fmt: skip
    env = dict(os.environ, PYTHONPATH=source, PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=source)  # not this checkout: "-c" puts the working folder first on sys.path
    return json.loads(out.stdout.strip().splitlines()[-1])


def summarise(rows: list[dict], label: str, best_known: dict) -> None:
    print(f"\n{label}")
    print("| data | seeds within 1 of the best known | others warned | gaps (median / max) | wall s (median / max) "
          "| stop reasons |")
    print("|---|---|---|---|---|---|")
    for name in dict.fromkeys(r["data"] for r in rows):
        mine = [r for r in rows if r["data"] == name]
        gaps = sorted(best_known[name] - r["best"] for r in mine)
        hits = sum(g <= 1.0 for g in gaps)
        missed = [r for r in mine if best_known[name] - r["best"] > 1.0]
        warned = sum(r["warned"] for r in missed)
        secs = sorted(r["seconds"] for r in mine)
        stops = ", ".join(f"{s} {sum(r['stop'] == s for r in mine)}" for s in dict.fromkeys(r["stop"] for r in mine))
        print(f"| {name} | {hits}/{len(mine)} | {warned}/{len(missed)} | {gaps[len(gaps) // 2]:.2f} / {gaps[-1]:.2f} "
              f"| {secs[len(secs) // 2]:.1f} / {secs[-1]:.1f} | {stops} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="heart,asia,child,insurance,alarm,d25,d50")
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="fits run this many at a time (separate processes)")
    parser.add_argument("--old-source", help="directory holding an earlier pgmpy_sgm package to compare")
    parser.add_argument("--skip-current", action="store_true", help="only the fits of --old-source")
    parser.add_argument("--out", help="CSV file for the raw rows")
    args = parser.parse_args()
    from bench_mcmc import machine
    from joblib import Parallel, delayed

    print(machine())
    print(f"start {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()}")
    tasks = [(n, s) for n in args.datasets.split(",") for s in range(args.first_seed, args.first_seed + args.seeds)]
    new, old = [], []
    for row in Parallel(n_jobs=args.jobs, return_as="generator")(
        delayed(fit_one)(n, s) for n, s in ([] if args.skip_current else tasks)
    ):
        print("current", row, flush=True)
        new.append(row)
    if args.old_source:
        for row in Parallel(n_jobs=args.jobs, return_as="generator")(
            delayed(run_old)(args.old_source, n, s) for n, s in tasks
        ):
            print("old", row, flush=True)
            old.append(row)
    best_known = dict(BEST_KNOWN)
    for row in new + old:
        best_known[row["data"]] = max(best_known.get(row["data"], -float("inf")), row["best"])
    if new:
        summarise(new, "current defaults", best_known)
    if old:
        summarise(old, f"defaults of the package in {args.old_source}", best_known)
    print(f"\nbest known: {best_known}")
    print(f"end {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()}")
    if args.out:
        with open(args.out, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=["code", *(new or old)[0]])
            writer.writeheader()
            writer.writerows([{"code": "current", **r} for r in new] + [{"code": "old", **r} for r in old])


if __name__ == "__main__":
    main()
