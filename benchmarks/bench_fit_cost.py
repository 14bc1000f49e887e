"""CPU of a default NonReversibleMCMC fit on child: the code at a reference commit and this code in one process.

Run from the repository root:
    PYTHONHASHSEED=0 python benchmarks/bench_fit_cost.py [--old-commit main] [--seeds 0 1 2 3]

The package at ``--old-commit`` is extracted with ``git archive`` and imported as ``pgmpy_sgm_old``
(see bench_labelling_quality.import_old). Child is simulated as in bench_search.load_data("child")
(5000 rows). For every seed, both codes fit ``NonReversibleMCMC(seed=s, show_progress=False)`` in
turn (each with a fresh score cache, numba kernels compiled beforehand by a warm-up fit on a
small table); reported: CPU seconds (time.process_time), best_score_, iterations and the ratio.
``--profile`` also times this code's center searches (``optimal_groups``) per requested method,
method used, number of parents and number of parent configurations.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_labelling_quality import import_old  # noqa: E402
from bench_search import load_data  # noqa: E402

import pgmpy_sgm.core.optimize as optimize  # noqa: E402
from pgmpy_sgm.causal_discovery import NonReversibleMCMC  # noqa: E402

PROFILE: dict = collections.defaultdict(lambda: [0, 0.0])


def profile_center_searches() -> None:
    """Wrap optimize.optimal_groups (the engine looks it up at every call) to time every center search."""
    inner = optimize.optimal_groups

    def timed(counts2d, cards, forbidden=None, method="auto", **kw):
        tic = time.process_time()
        res = inner(counts2d, cards, forbidden, method=method, **kw)
        used = [int(k) for k in cards if int(k) > 1]
        entry = PROFILE[(method, res.method, len(used), int(np.prod(used)) if used else 1)]
        entry[0] += 1
        entry[1] += time.process_time() - tic
        return res

    optimize.optimal_groups = timed


def fit(cls, data, seed):
    tic = time.process_time()
    est = cls(seed=seed, show_progress=False).fit(data)
    return time.process_time() - tic, est


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old-commit", default="main")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--data", default="child")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        profile_center_searches()
    with tempfile.TemporaryDirectory() as tmp:
        import_old(args.old_commit, Path(tmp))
        old_cls = importlib.import_module("pgmpy_sgm_old.causal_discovery").NonReversibleMCMC
        data, _ = load_data(args.data)
        warm = data.iloc[:300, :6]
        for cls in (old_cls, NonReversibleMCMC):
            cls(seed=0, n_iter=200, show_progress=False).fit(warm)
        PROFILE.clear()
        print("seed  old_cpu  new_cpu  ratio  old_best  new_best  old_iter  new_iter", flush=True)
        tot_old = tot_new = 0.0
        for seed in args.seeds:
            t_old, e_old = fit(old_cls, data, seed)
            t_new, e_new = fit(NonReversibleMCMC, data, seed)
            tot_old += t_old
            tot_new += t_new
            print(
                f"{seed:4d} {t_old:8.2f} {t_new:8.2f} {t_new / t_old:6.2f} {e_old.best_score_:9.2f} "
                f"{e_new.best_score_:9.2f} {e_old.n_iter_:9d} {e_new.n_iter_:9d}",
                flush=True,
            )
        print(f"total {tot_old:8.2f} {tot_new:8.2f} {tot_new / tot_old:6.2f}")
        if args.profile:
            print("(requested, used, parents, configurations): calls, CPU s (all seeds, this code)")
            for key, (n, cpu) in sorted(PROFILE.items(), key=lambda kv: -kv[1][1])[:15]:
                print(f"  {key}: {n}, {cpu:.2f}")


if __name__ == "__main__":
    main()
