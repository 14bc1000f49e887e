"""The SG search's labelling caches keyed by a clique's own forbidden pairs against the wide pair-index mask.

Run: ``python benchmarks/bench_labelling_keys.py [--data d100 d200] [--n-iter 20000] [--rounds 2]``

``ScoreEngine.labelling`` and ``clique_strata`` cache per clique and forbidden (separator) pairs. Before, the key
held the pair-index mask of the forbidden pairs, an int as wide as the highest pair index (about 2.5 kB at 200
variables); now it holds :meth:`ScoreEngine.local_forbidden`, one bit per pair of the clique. The code before of
``labelling`` is reproduced below and swapped in for the baseline, in the same process, the two variants alternated
over rounds (``clique_strata``'s cache, a few dozen entries in a fit, is keyed the new way in both).
Each fit: ``NonReversibleMCMC(n_iter=N, seed=0, method=...)`` on ``bench_search.load_data(NAME)``; printed: median
seconds, the memory of the two caches' keys (``sys.getsizeof`` of each key's ints) after the fit, and whether the
fits' best score and posterior table are the same.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine_line  # noqa: E402
from bench_search import load_data  # noqa: E402

from pgmpy_sgm import NonReversibleMCMC  # noqa: E402
from pgmpy_sgm.core.engine import ScoreEngine  # noqa: E402

NEW = {"labelling": ScoreEngine.labelling}


def old_labelling(self, clique: int, forbidden: int, method: str = "auto"):
    key = (clique, forbidden, method)
    value = self._labellings.get(key)
    if value is None:
        value = self._best_labelling(clique, forbidden, method)
        self._labellings[key] = value
    return value


OLD = {"labelling": old_labelling}


def key_mb(engine: ScoreEngine) -> float:
    caches = (engine._labellings, engine._strata)
    return sum(sys.getsizeof(a) + sys.getsizeof(b) for cache in caches for a, b, _ in cache) / 2**20


def fit(data, variant: dict, n_iter: int, method: str):
    for name, function in variant.items():
        setattr(ScoreEngine, name, function)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = NonReversibleMCMC(n_iter=n_iter, seed=0, method=method, show_progress=False).fit(data)
    seconds = time.perf_counter() - start
    for name, function in NEW.items():
        setattr(ScoreEngine, name, function)
    return est, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", nargs="+", default=["d100", "d200"])
    parser.add_argument("--n-iter", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--method", default="informed")
    args = parser.parse_args()
    print(machine_line(f"n_iter {args.n_iter}, method {args.method}, {args.rounds} rounds"), flush=True)
    print("| data | before s | now s | speed ratio | before key MB | now key MB | same best and posterior |")
    print("|---|---|---|---|---|---|---|")
    for name in args.data:
        data, _ = load_data(name)
        times = {"old": [], "new": []}
        for r in range(args.rounds):
            for label in (("old", "new") if r % 2 == 0 else ("new", "old")):
                est, seconds = fit(data, OLD if label == "old" else NEW, args.n_iter, args.method)
                times[label].append(seconds)
                print(f"  {name} round {r} {label}: {seconds:.1f} s, best {est.best_score_:.4f}", flush=True)
                if label == "old":
                    old_est, old_mb = est, key_mb(est.scorer_.engine)
                else:
                    new_est, new_mb = est, key_mb(est.scorer_.engine)
        same = old_est.best_score_ == new_est.best_score_ and old_est.posterior_.equals(new_est.posterior_)
        old_s, new_s = statistics.median(times["old"]), statistics.median(times["new"])
        print(f"| {name} | {old_s:.1f} | {new_s:.1f} | {old_s / new_s:.2f}x | {old_mb:.1f} | {new_mb:.1f} | {same} |",
              flush=True)


if __name__ == "__main__":
    main()
