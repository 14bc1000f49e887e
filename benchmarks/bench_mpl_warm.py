"""MPLSearch's stage-2 fits started from the fit of a subgraph against fits from zero, in one process.

Run: ``python benchmarks/bench_mpl_warm.py [--repeats 3] [--out FILE]``

Stage 2 of ``MPLSearch`` fits the climb's graph, then the union of the blankets (its supergraph), then the graph
of each round of edge additions (a few edges more than the last) by cyclical projection. Each fit after the first
now starts from the last fit's potentials (``_mpl_additions.carried_potentials``); the baseline starts every fit
from zero (``carried_potentials`` patched to return None, the code before). Data as ``bench_mpl.py`` makes them
(training seed 0, test seed 1000): grid-100 at n = 500 and 2,000, blocks-50 at 2,000, grid-12 at 500, asia,
child, insurance and alarm at 2,000. Printed per setting: median seconds of ``MPLSearch(seed=0).fit`` with each,
the ratio, whether the graph, contexts and added edges are identical and, when they are not and the network has at
most 50 variables, the held-out nats/row of each (``ContextualMarkovNetwork.fit``, default pseudo-count).
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _cmn_data  # noqa: E402
from _machine import alternated, machine_line  # noqa: E402
from predictive import as_categories, load_network, network_states  # noqa: E402

import pgmpy_sgm.causal_discovery._mpl_additions as additions  # noqa: E402
from pgmpy_sgm.causal_discovery import MPLSearch  # noqa: E402

CARRIED = additions.carried_potentials
TEST_N = 10_000


def datasets():
    for kind, size, name, sizes in [("grid", (10, 10), "grid-100", (500, 2000)), ("blocks", 10, "blocks-50", (2000,)),
                                    ("grid", (3, 4), "grid-12", (500,))]:  # fmt: skip
        model = _cmn_data.blocks(size, 0) if kind == "blocks" else _cmn_data.grid(*size, 0)
        states = {v: [0, 1] for v in sorted(model[0].nodes())}
        test, _ = _cmn_data.sample(model, TEST_N, seed=1000)
        for n in sizes:
            yield f"{name} n={n}", _cmn_data.sample(model, n, seed=0)[0], test, states
    for name in ("asia", "child", "insurance", "alarm"):
        bn = load_network(name)
        states = network_states(bn)
        test = as_categories(bn.simulate(TEST_N, seed=1000, show_progress=False), states)
        train = as_categories(bn.simulate(2000, seed=0, show_progress=False), states)
        yield f"{name} n=2000", train[sorted(train.columns)], test[sorted(test.columns)], states


def fit_once(train, states, warm: bool):
    additions.carried_potentials = CARRIED if warm else (lambda fit, blocks: None)
    try:
        start = time.perf_counter()
        est = MPLSearch(seed=0, state_names=states).fit(train)
        return time.perf_counter() - start, est
    finally:
        additions.carried_potentials = CARRIED


def found(est) -> tuple:
    return sorted(map(sorted, est.graph_.edges())), repr(sorted(est.contexts_.items(), key=repr)), est.added_edges_


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    print(machine_line())
    MPLSearch(seed=0).fit(_cmn_data.sample(_cmn_data.blocks(2, seed=99), 500, seed=99)[0])  # kernels loaded
    rows = []
    for label, train, test, states in datasets():
        medians, ests = alternated(functools.partial(fit_once, train, states), (False, True), args.repeats)
        same = found(ests[True]) == found(ests[False])
        row = {"data": label, "cold_s": medians[False], "warm_s": medians[True],
               "same_graph": same, "held_out_cold": np.nan, "held_out_warm": np.nan}
        row["ratio"] = row["cold_s"] / row["warm_s"]
        if not same and train.shape[1] <= 50:
            for warm, key in ((False, "held_out_cold"), (True, "held_out_warm")):
                model = ests[warm].model_.copy().fit(train, state_names=states)
                row[key] = model.log_likelihood(test) / len(test)
        rows.append(row)
        print(f"{label:16s} from zero {row['cold_s']:7.3f} s  warm {row['warm_s']:7.3f} s  ({row['ratio']:.2f}x)  "
              f"same graph {same}  held out {row['held_out_cold']:.4f} / {row['held_out_warm']:.4f}", flush=True)
    if args.out is not None:
        pd.DataFrame(rows).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
