"""Cost of one clique-insertion sweep with and without the screen without strata, in one process.

Run:  python benchmarks/bench_clique_sweep.py [--datasets child,random3]

For each data set (``bench_search.load_data``: child simulated at n = 5000, and the random
3-state network), the start is the best forest, climbed greedily and swept by relocations
(not timed). From there one :func:`~pgmpy_sgm.core.search.clique_sweep` runs twice, each with
a new score engine (so neither reuses the other's clique labellings):

* *screened* (the package's code): every insertion is climbed without strata first, and
  scored with strata only when it ends at most ``SCREEN_SLACK`` below the current graph;
* *no screen*: ``SCREEN_SLACK`` set to infinity, so every insertion, climbed without strata,
  is scored with strata and climbed again over the pairs touching it;
* *baseline, climbs with strata*: the first version of the sweep, written out here: every
  insertion is made on the graph with strata and climbed with strata
  (:func:`~pgmpy_sgm.core.search.insert_clique` on the state itself), so every clique met on
  the way is labelled.

Reported: the seconds of each sweep, the score it reaches, and the ratios to the package's.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _hash_seed import pin_hash_seed  # noqa: E402
from bench_mcmc import machine  # noqa: E402
from bench_search import load_data  # noqa: E402

import pgmpy_sgm.core.search as search  # noqa: E402
from pgmpy_sgm import SGMScore  # noqa: E402
from pgmpy_sgm.core.moves import DecomposableState  # noqa: E402

warnings.filterwarnings("ignore", category=FutureWarning)

saved_slack = search.SCREEN_SLACK


def climbs_with_strata(state, partners):
    """The first version of the clique sweep: insertions climbed with strata, the best per node kept."""
    best, improved = state, True
    while improved:
        improved = False
        for node in range(best.tables.n):
            chosen = best
            for size in search.CLIQUE_SIZES:
                for others in itertools.combinations(partners[node], size):
                    new = search.insert_clique(best, (node, *others))
                    if new is not None and new.score > chosen.score + 1e-9:
                        chosen = new
            if chosen is not best:
                best, improved = chosen, True
    return best


def one_sweep(data, slack: float | None) -> tuple[float, float, float]:
    """(start score, swept score, seconds of the sweep) on a new engine with ``SCREEN_SLACK = slack``.

    ``slack=None`` runs :func:`climbs_with_strata` instead.
    """
    engine = SGMScore(data).engine
    gains = search.pair_gains(engine)
    start = DecomposableState(engine, search.best_forest_key(engine, gains))
    search.greedy_climb(start)
    start = search.relocation_sweep(start)
    partners = search.clique_partners(engine, gains)
    saved, search.SCREEN_SLACK = search.SCREEN_SLACK, saved_slack if slack is None else slack
    try:
        tic = time.perf_counter()
        swept = climbs_with_strata(start, partners) if slack is None else search.clique_sweep(start, partners)
        seconds = time.perf_counter() - tic
    finally:
        search.SCREEN_SLACK = saved
    return start.score, swept.score, seconds


def main() -> None:
    pin_hash_seed()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="child,random3")
    args = parser.parse_args()
    print(f"machine: {machine()}; load average {os.getloadavg()}")
    for name in args.datasets.split(","):
        data, _ = load_data(name)
        start, base_score, base_s = one_sweep(data, None)
        _, open_score, open_s = one_sweep(data, math.inf)
        _, screened_score, screened_s = one_sweep(data, saved_slack)
        print(
            f"{name}: start {start:.2f}; baseline (climbs with strata) {base_score:.2f} in {base_s:.1f} s; "
            f"no screen {open_score:.2f} in {open_s:.1f} s; screened (package) {screened_score:.2f} in "
            f"{screened_s:.1f} s; baseline / screened {base_s / screened_s:.1f}x, no screen / screened "
            f"{open_s / screened_s:.1f}x",
            flush=True,
        )
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
