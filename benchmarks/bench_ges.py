"""The greedy equivalence search of LDAGSearch on the wide networks, two source trees in one run.

Run: ``python benchmarks/bench_ges.py OLD_TREE NEW_TREE [--networks andes pigs link] [--cap 600]
[--out FILE.csv]``

For each network (pgmpy's shipped BIF files, n = 5000 rows simulated with seed 0, as in
``bench_wide.py``) and each tree, one subprocess (``python -S`` with the tree first on the path, so
an editable install of either cannot shadow it) runs ``LDAGSearch(seed=0, start="ges",
max_time=CAP)`` until its greedy equivalence search ends (the learner's own candidate screening and
score; the climbs after it are not run). Printed per tree: wall and CPU seconds of the search,
insertion and deletion steps, families evaluated, whether the cap stopped it, and peak resident
memory of the process; then whether the two trees took the same steps (kind, pair and subset of
every step compared exactly; the direction is left out, since inserting ``x -> y`` or ``y -> x`` with
the same subset gains the same under a score-equivalent score, and the two trees may break that tie
differently in the last bits) and the largest difference between their gains.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

RUN = r"""
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[2])
from bench_wide import simulate
import pgmpy_sgm
from pgmpy_sgm.causal_discovery import LDAGSearch, ldag_search


class Done(Exception):
    pass


record = {"file": pgmpy_sgm.__file__}
original = ldag_search.LDAGSearch._ges_dag


def timed(self, score, columns, *rest):
    wall, cpu = time.perf_counter(), time.process_time()
    dag = original(self, score, columns, *rest)
    record.update(wall=time.perf_counter() - wall, cpu=time.process_time() - cpu, steps=self.ges_steps_,
                  n_edges=dag.number_of_edges())
    raise Done


ldag_search.LDAGSearch._ges_dag = timed
train, _, states = simulate(sys.argv[3], 5000, 10)
try:
    LDAGSearch(seed=0, state_names=states, show_progress=False, start="ges", max_time=float(sys.argv[4])).fit(train)
except Done:
    pass
record["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(record, default=str))
"""


def run(tree: str, network: str, cap: float) -> dict:
    site_packages = [p for p in sys.path if p.endswith("site-packages")]
    env = {"PYTHONPATH": os.pathsep.join([tree, *site_packages]), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1",
           "PYTHONHASHSEED": "0", "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", "/tmp/numba-cache")}  # fmt: skip
    done = subprocess.run([sys.executable, "-S", "-c", RUN, tree, str(HERE), network, str(cap)],
                          capture_output=True, text=True, env=env, cwd=tree, check=False)  # fmt: skip
    if done.returncode:
        raise SystemExit(f"{tree} on {network}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _step(step: list) -> tuple:
    """A step without its direction and gain: score-equivalent reversals tie to the last bits."""
    kind, x, y, subset, _ = step
    return kind, frozenset((x, y)), tuple(subset)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--networks", nargs="+", default=["andes", "pigs", "link"])
    parser.add_argument("--cap", type=float, default=600.0, help="max_time of each fit (s)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rows = []
    for network in args.networks:
        results = {"old": run(args.old, network, args.cap), "new": run(args.new, network, args.cap)}
        for tree, r in results.items():
            inserts = sum(1 for s in r["steps"] if s[0] == "insert")
            rows.append({"network": network, "tree": tree, "wall_s": round(r["wall"], 1), "cpu_s": round(r["cpu"], 1),
                         "inserts": inserts, "deletes": len(r["steps"]) - inserts, "n_edges": r["n_edges"],
                         "capped": r["wall"] >= args.cap * 0.95, "peak_mb": round(r["peak_mb"])})  # fmt: skip
            print(rows[-1], flush=True)
        steps = [results[t]["steps"] for t in ("old", "new")]
        common = min(map(len, steps))
        same = [_step(a) for a in steps[0][:common]] == [_step(b) for b in steps[1][:common]]
        gap = max((abs(a[4] - b[4]) for a, b in zip(steps[0][:common], steps[1][:common], strict=True)), default=0.0)
        print(f"{network}: the first {common} steps {'identical' if same else 'DIFFER'} (largest gain "
              f"difference {gap:.2e}); "
              f"old {len(steps[0])} steps, new {len(steps[1])}; CPU ratio old/new "
              f"{results['old']['cpu'] / results['new']['cpu']:.2f}", flush=True)
        if not same:
            first = next(i for i, (a, b) in enumerate(zip(*steps, strict=False)) if _step(a) != _step(b))
            print(f"  first difference at step {first}: old {steps[0][first]}, new {steps[1][first]}", flush=True)
    if args.out:
        import pandas as pd

        pd.DataFrame(rows).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
