"""Memory of the SG search's results over many visited graphs: edge probabilities streamed from the stored edges.

Run: ``python benchmarks/bench_posterior_memory.py [--variables 200] [--graphs 50000 200000] [--edges 250]``

A long ``NonReversibleMCMC`` run at 200 variables visits a few hundred thousand distinct graphs of about 250 edges
each (211,506 in 900 s on the d200 data of ``bench_search.py``). Its results compute the pooled edge probabilities
(``posterior_frame``) and each chain's own (``_run_results._chain_pair_probabilities``) from the visited graphs'
edges. The code before (reproduced below as the baseline) turned every graph's stored edges into an int64 array and
concatenated them all, with a weight per edge; the package now streams them in chunks
(``GraphStore.weighted_pair_sums``). Here both run in one process on the same synthetic store (graphs a few random
toggles away from one base graph, a thousand of them within ``POSTERIOR_MARGIN`` of the best, the others 60-2,000 below;
two chains, each seeing a random 60% of the graphs); printed: seconds, peak traced memory (``tracemalloc``) of each,
and the largest difference between their probabilities.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine_line  # noqa: E402

from pgmpy_sgm.causal_discovery._posterior import POSTERIOR_COLUMNS, posterior_frame  # noqa: E402
from pgmpy_sgm.causal_discovery._run_results import POSTERIOR_MARGIN, _chain_pair_probabilities  # noqa: E402
from pgmpy_sgm.causal_discovery._run_state import RunState  # noqa: E402
from pgmpy_sgm.core.data import EncodedData  # noqa: E402
from pgmpy_sgm.core.engine import ScoreEngine  # noqa: E402
from pgmpy_sgm.core.graph_store import GraphStore  # noqa: E402


# -- the code before, as the baseline --------------------------------------------------------------
def old_weighted_pair_sums(positions: list, weights: np.ndarray, n_pairs: int) -> np.ndarray:
    if not positions:
        return np.zeros(n_pairs)
    counts = np.fromiter((len(p) for p in positions), dtype=np.int64, count=len(positions))
    flat = np.concatenate(positions) if counts.sum() else np.zeros(0, dtype=np.int64)
    return np.bincount(flat, weights=np.repeat(weights, counts), minlength=n_pairs)[:n_pairs]


def old_edge_probabilities_of(positions: list, log_posts: np.ndarray, n_pairs: int) -> np.ndarray:
    if not len(positions):
        return np.zeros(n_pairs)
    weights = np.exp(log_posts - log_posts.max())
    return old_weighted_pair_sums(positions, weights / weights.sum(), n_pairs)


def old_pair_probabilities_of_table(store: GraphStore, n_pairs: int, margin: float) -> tuple[np.ndarray, list]:
    """The old ``posterior_frame``'s pair probabilities and kept rows' edges (its part that read every graph)."""
    all_positions = store.edge_positions()
    all_log_posts = np.fromiter(store.values(), dtype=np.float64, count=len(store))
    all_n_edges = np.array([len(graph) for graph in all_positions], dtype=np.int64)
    order = np.lexsort((all_n_edges, -all_log_posts)).tolist()
    positions = [all_positions[r] for r in order]
    log_post = all_log_posts[order]
    weights = np.exp(log_post - log_post[0])
    prob = weights / weights.sum()
    pair_prob = old_weighted_pair_sums(positions, prob, n_pairs)
    kept = int(np.searchsorted(-log_post, margin - log_post[0], side="right"))
    return pair_prob, positions[:kept]


def old_chain_pair_probabilities(run: RunState, n_pairs: int) -> np.ndarray:
    positions = run.visited.edge_positions()
    scores = np.fromiter(run.visited.values(), dtype=np.float64, count=len(run.visited))
    masks = np.array(run.seen_by.values_for(run.visited, 0), dtype=np.int64)
    rows = []
    for c in range(len(run.chains)):
        own = np.flatnonzero(masks & (1 << c))
        rows.append(old_edge_probabilities_of([positions[r] for r in own], scores[own], n_pairs))
    return np.array(rows)


#: Visited graphs within the margin of the best (the posterior table's rows).
NEAR_ROWS = 1000


# -- the data ----------------------------------------------------------------------------------------
def synthetic_run(n_variables: int, n_graphs: int, n_edges: int, seed: int = 0) -> RunState:
    """Graphs a few toggles from one base graph, ``NEAR_ROWS`` of them within the margin, two chains."""
    rng = np.random.default_rng(seed)
    n_pairs = n_variables * (n_variables - 1) // 2
    base = sum(1 << int(p) for p in rng.choice(n_pairs, n_edges, replace=False))
    run = RunState({"n_chains": 2}, [None, None]).untracked()
    while len(run.visited) < n_graphs:
        key = base
        for p in rng.choice(n_pairs, rng.integers(1, 30), replace=False):
            key ^= 1 << int(p)
        near = len(run.visited) % (n_graphs // NEAR_ROWS) == 0  # within the margin of the best
        run.visited[key] = float(-rng.uniform(0.0, 40.0) if near else -rng.uniform(60.0, 2000.0))
        run.seen_by[key] = int(rng.choice([1, 2, 3], p=[0.4, 0.4, 0.2]))
    return run


def measured(function, *args):
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    start = time.perf_counter()
    out = function(*args)
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out, seconds, (peak - before) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variables", type=int, default=200)
    parser.add_argument("--graphs", type=int, nargs="+", default=[50_000, 200_000])
    parser.add_argument("--edges", type=int, default=250)
    args = parser.parse_args()
    print(machine_line(), flush=True)
    import pandas as pd

    engine = ScoreEngine(EncodedData(pd.DataFrame({f"x{i:03d}": [0, 1] for i in range(args.variables)})))
    n_pairs = len(engine.pairs)
    print("| graphs | step | before s | now s | before peak MB | now peak MB | peak ratio | largest difference |")
    print("|---|---|---|---|---|---|---|---|")
    for n_graphs in args.graphs:
        run = synthetic_run(args.variables, n_graphs, args.edges)
        (old_pairs, old_kept), old_s, old_mb = measured(old_pair_probabilities_of_table, run.visited, n_pairs,
                                                        POSTERIOR_MARGIN)  # fmt: skip
        (frame, new_pairs), new_s, new_mb = measured(posterior_frame, engine, run.visited, False, None,
                                                     POSTERIOR_MARGIN)  # fmt: skip
        assert list(frame.columns) == POSTERIOR_COLUMNS and len(frame) == len(old_kept)
        diff = float(np.abs(old_pairs - new_pairs).max())
        print(f"| {n_graphs:,} | pooled (posterior_frame; before: its pair part only) | {old_s:.2f} | {new_s:.2f} "
              f"| {old_mb:.0f} | {new_mb:.0f} | {old_mb / new_mb:.1f}x | {diff:.1e} |", flush=True)
        old_chain, old_s, old_mb = measured(old_chain_pair_probabilities, run, n_pairs)
        new_chain, new_s, new_mb = measured(_chain_pair_probabilities, run, n_pairs)
        diff = float(np.abs(old_chain - new_chain).max())
        print(f"| {n_graphs:,} | per chain | {old_s:.2f} | {new_s:.2f} | {old_mb:.0f} | {new_mb:.0f} "
              f"| {old_mb / new_mb:.1f}x | {diff:.1e} |", flush=True)


if __name__ == "__main__":
    main()
