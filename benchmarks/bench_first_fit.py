"""First labelled fit in a fresh process: this code against an earlier checkout, side by side.

Run from the repository root:

    python benchmarks/bench_first_fit.py [--baseline DIR] [--runs 3] [--networks child sachs]
        [--methods informed paper] [--cold] [--cliques]

Every fit is a fresh interpreter running ``_fit_once.py`` (NonReversibleMCMC, 2 chains x 2000
iterations, data simulated with seed 0 at n = 5000 from ``benchmarks/data/NETWORK.bif.gz``,
``PYTHONHASHSEED=0``), strata on and off. ``--baseline DIR`` runs the same fits with the
``pgmpy_sgm`` of another checkout (a ``git worktree`` of the earlier commit), put first on the
path from a neutral working directory. Runs are interleaved (one of every configuration per
round), so that changes of the machine's load fall on all of them alike; the load average is
printed with every round.

Reported per configuration, medians over the runs: the fit's wall-clock and CPU seconds
(``fit`` only: numba kernels loaded from the on-disk cache, labelling cache built from empty),
the seconds spent importing pgmpy and this package and simulating the data (not part of the
fit), the ratios strata on / off, and this code / baseline. ``--cold`` gives every process an
empty numba cache folder (``NUMBA_CACHE_DIR``), so the fit includes compiling the kernels (the
first fit after installing). ``child`` has 2-6 states per variable, ``sachs`` 3 states each,
``random3`` is pgmpy's random network of 20 3-state variables (30 edges, seed 0).

``--cliques`` instead labels 5-variable cliques of 3- and 4-state variables (counts simulated
from random conditional tables, n = 5000, the tables of ``bench_labelling.py``) with each code
in its own process, after a warm-up: wall and CPU seconds per whole clique (5 centers) and the
gains found, so that the two codes are compared on the same tables.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FIELDS = ("seconds", "cpu_seconds", "import_seconds", "simulate_seconds")


def run_once(python: str, checkout: Path | None, network: str, strata: bool, method: str, cold: bool) -> dict:
    """One fit in a fresh process; ``checkout`` None means this repository's code."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout) + os.pathsep + env.get("PYTHONPATH", "")
    with tempfile.TemporaryDirectory() as tmp:
        if cold:
            env["NUMBA_CACHE_DIR"] = tmp
        cmd = [python, "-W", "ignore", str(HERE / "_fit_once.py"), network, "5000", "on" if strata else "off"]
        cmd += ["2000", "2", method]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env, cwd=tmp).stdout
    return json.loads(out.strip().splitlines()[-1])


CLIQUES = """
import json, sys, time
import numpy as np
sys.path.insert(0, {bench!r})
from bench_labelling import random_cpt_clique
from pgmpy_sgm.core.optimize import optimal_clique_labelling, optimal_groups
rng = np.random.default_rng(7)
optimal_groups(np.ones((81, 3)), (3, 3, 3, 3))
out = {{}}
for k, n_cliques in ((3, 6), (4, 4)):
    rows = []
    for _ in range(n_cliques):
        table = random_cpt_clique(rng, (k,) * 5, 5000)
        t, c = time.perf_counter(), time.process_time()
        lab = optimal_clique_labelling(table)
        rows.append((time.perf_counter() - t, time.process_time() - c, lab.gain, bool(lab.capped)))
    out[k] = rows
print(json.dumps(out))
"""


def cliques(codes) -> None:
    print(f"5-variable cliques, random CPTs, n = 5000; load average {os.getloadavg()[0]:.2f}")
    found = {}
    for name, checkout in codes:
        env = {**os.environ}
        if checkout is not None:
            env["PYTHONPATH"] = str(checkout) + os.pathsep + env.get("PYTHONPATH", "")
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, "-W", "ignore", "-c", CLIQUES.format(bench=str(HERE))]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env, cwd=tmp).stdout
        found[name] = json.loads(out.strip().splitlines()[-1])
        for k, rows in found[name].items():
            wall, cpu, gains, capped = zip(*rows, strict=True)
            print(
                f"  {name:9s} {k} states: median {np.median(wall):.3f} s wall / {np.median(cpu):.3f} s cpu per clique, "
                f"max {max(wall):.3f} s wall ({len(rows)} cliques, {sum(capped)} capped); "
                f"gains {', '.join(f'{g:.2f}' for g in gains)}"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="checkout of the earlier code (its repository root)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--networks", nargs="+", default=["child", "sachs"])
    parser.add_argument("--methods", nargs="+", default=["informed", "paper"])
    parser.add_argument("--cold", action="store_true", help="empty numba cache in every process")
    parser.add_argument("--cliques", action="store_true", help="time single cliques instead of fits")
    args = parser.parse_args()
    codes = [("this code", None)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    if args.cliques:
        cliques(codes)
        return
    configs = [(c, net, m, s) for c in codes for net in args.networks for m in args.methods for s in (True, False)]
    if not args.cold:  # fill each checkout's numba cache first (not timed)
        for _, checkout in codes:
            run_once(sys.executable, checkout, "sachs", True, "paper", False)
    results: dict = {}
    loads = []
    for r in range(args.runs):
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}/{args.runs}, load average {loads[-1]:.2f}", flush=True)
        for (name, checkout), net, method, strata in configs:
            res = run_once(sys.executable, checkout, net, strata, method, args.cold)
            results.setdefault((name, net, method, strata), []).append(res)
    loads.append(os.getloadavg()[0])
    print(f"load average (1 min) during the runs: {min(loads):.2f} to {max(loads):.2f}; cpu count {os.cpu_count()}")
    print(f"medians of {args.runs} fresh processes; 2 chains x 2000 iterations, n = 5000")
    med = {key: {f: float(np.median([x[f] for x in v])) for f in FIELDS} for key, v in results.items()}
    score = {key: v[0]["best_score"] for key, v in results.items()}
    for name, _ in codes:
        for net in args.networks:
            for method in args.methods:
                on, off = med[(name, net, method, True)], med[(name, net, method, False)]
                print(
                    f"  {name:9s} {net:6s} {method:8s}: fit on {on['seconds']:.2f} s wall / {on['cpu_seconds']:.2f} s "
                    f"cpu (best {score[(name, net, method, True)]:.1f}), off {off['seconds']:.2f} / "
                    f"{off['cpu_seconds']:.2f} s; ratio on/off {on['seconds'] / off['seconds']:.2f} wall, "
                    f"{on['cpu_seconds'] / off['cpu_seconds']:.2f} cpu; imports {on['import_seconds']:.2f} s, "
                    f"simulate {on['simulate_seconds']:.2f} s"
                )
    if len(codes) == 2:
        print("this code / baseline, strata on (fit cpu seconds):")
        for net in args.networks:
            for method in args.methods:
                new, old = med[("this code", net, method, True)], med[("baseline", net, method, True)]
                print(f"  {net:6s} {method:8s}: {new['cpu_seconds'] / old['cpu_seconds']:.2f}")


if __name__ == "__main__":
    main()
