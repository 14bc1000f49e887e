"""The SG search's posterior table with every visited graph against the rows within ``POSTERIOR_MARGIN`` of the best.

Run: ``python benchmarks/bench_posterior_table.py [--variables 200] [--rows 5000] [--seconds 180]``

Data: ``bench_mcmc.random_binary_sgm_data(VARIABLES, ROWS, seed=0)``. One ``NonReversibleMCMC(n_iter=None,
max_time=SECONDS, seed=0)`` fit with the margin switched off, so that its ``posterior_`` holds every visited graph;
those graphs and scores, as a :class:`~pgmpy_sgm.core.graph_store.GraphStore`, are then made into the table twice in
the same process: the baseline, every row (``margin=None``, as before the margin), and the rows within
``POSTERIOR_MARGIN`` log-units of the best. Printed for each: rows, seconds, peak traced memory while the table is
built and the memory the table keeps (``tracemalloc``), and whether the kept rows and the edge probabilities are
those of the whole table. The tables are built without strata (``strata=False``): the strata of the top rows come
from the score engine's caches, which the first build would fill for the second.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mcmc import random_binary_sgm_data  # noqa: E402

from pgmpy_sgm.causal_discovery import NonReversibleMCMC, _run_results  # noqa: E402
from pgmpy_sgm.causal_discovery._posterior import posterior_frame  # noqa: E402
from pgmpy_sgm.core.graph_store import GraphStore  # noqa: E402


def visited_store(est) -> GraphStore:
    """The fit's visited graphs and scores, from a posterior table that holds every one of them."""
    engine = est.scorer_.engine
    index = engine.index
    store = GraphStore()
    for edges, score in zip(est.posterior_["edges"], est.posterior_["log_posterior"], strict=True):
        store[sum(1 << engine.pair_index[index[u]][index[v]] for u, v in edges)] = float(score)
    return store


def built(engine, store: GraphStore, margin: float | None) -> tuple[pd.DataFrame, np.ndarray, float, float, float]:
    """The table, the pair probabilities, seconds, peak MB while building, MB kept by the table."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    start = time.perf_counter()
    frame, pair_prob = posterior_frame(engine, store, strata=False, margin=margin)
    seconds = time.perf_counter() - start
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return frame, pair_prob, seconds, (peak - before) / 2**20, (kept - before) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variables", type=int, default=200)
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=180.0)
    args = parser.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, Python "
          f"{platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}", flush=True)
    data, _ = random_binary_sgm_data(args.variables, args.rows, seed=0, return_graph=True)
    margin = _run_results.POSTERIOR_MARGIN
    _run_results.POSTERIOR_MARGIN = None  # the fit's table holds every visited graph
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = NonReversibleMCMC(n_iter=None, max_time=args.seconds, seed=0, show_progress=False).fit(data)
    _run_results.POSTERIOR_MARGIN = margin
    store = visited_store(est)
    engine = est.scorer_.engine
    print(f"{args.variables} variables, n = {args.rows}, {args.seconds:g} s: {est.n_iter_:,} iterations per chain, "
          f"{len(store):,} visited graphs", flush=True)
    every, every_pairs, *every_cost = built(engine, store, None)
    within, within_pairs, *within_cost = built(engine, store, margin)
    expected = every[every["log_posterior"] >= every["log_posterior"].iloc[0] - margin].reset_index(drop=True)
    same = within.equals(expected) and np.array_equal(every_pairs, within_pairs)
    print("| table | rows | seconds | peak MB while built | MB kept |")
    print("|---|---|---|---|---|")
    for label, frame, (seconds, peak, kept) in (("every visited graph (before)", every, every_cost),
                                                (f"within {margin:g} of the best", within, within_cost)):
        print(f"| {label} | {len(frame):,} | {seconds:.2f} | {peak:.0f} | {kept:.0f} |")
    print(f"kept rows and edge probabilities those of the whole table: {same}")


if __name__ == "__main__":
    main()
