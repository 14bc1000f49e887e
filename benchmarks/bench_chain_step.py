"""Iterations per second of one chain, two source trees alternated in subprocesses of one run.

Each round runs, for each tree, ``NonReversibleMCMC(n_iter=N, n_chains=1, method="paper",
strata=..., seed=0)`` on the heart-disease data in a fresh process and reports the seconds of
the fit (after a warm-up fit of 200 iterations that fills the numba and labelling caches);
the median over rounds is printed per tree.

Usage::

    python benchmarks/bench_chain_step.py OLD_TREE NEW_TREE [ROUNDS] [N_ITER]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

FIT = r"""
import sys, time, warnings
warnings.simplefilter("ignore")
from pgmpy_sgm.causal_discovery import NonReversibleMCMC
from pgmpy_sgm.datasets import load_heart_disease
data = load_heart_disease()
n_iter = int(sys.argv[1])
out = []
for strata in (False, True):
    NonReversibleMCMC(n_iter=200, n_chains=1, method="paper", strata=strata, seed=1, show_progress=False).fit(data)
    tic = time.perf_counter()
    NonReversibleMCMC(n_iter=n_iter, n_chains=1, method="paper", strata=strata, seed=0, show_progress=False).fit(data)
    out.append(time.perf_counter() - tic)
print(*out)
"""


def run(tree: str, n_iter: int) -> list[float]:
    site_packages = [p for p in sys.path if p.endswith("site-packages")]
    env = {"PYTHONPATH": os.pathsep.join([tree, *site_packages]), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-S", "-c", FIT, str(n_iter)], capture_output=True, text=True, env=env,
                          cwd=tree, check=True)  # fmt: skip
    return [float(x) for x in done.stdout.split()]


def main(old: str, new: str, rounds: int = 3, n_iter: int = 20000) -> None:
    times: dict[str, list[list[float]]] = {old: [], new: []}
    for _ in range(rounds):
        for tree in (old, new):
            times[tree].append(run(tree, n_iter))
    for tree, rows in times.items():
        plain = statistics.median(r[0] for r in rows)
        strata = statistics.median(r[1] for r in rows)
        print(f"{tree}: {n_iter} iterations, strata=False {plain:.2f} s ({n_iter / plain:,.0f}/s), "
              f"strata=True {strata:.2f} s ({n_iter / strata:,.0f}/s)  [median of {rounds}]")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *(int(a) for a in sys.argv[3:5]))
