"""Small contextual Markov networks fitted from their whole joint table against a junction tree's messages.

Run: ``python benchmarks/bench_dense_joint.py [--repeats 15] [--out FILE]``

Data as ``bench_mpl.py`` makes them (training seed 0, test seed 1000): asia, blocks-10 and grid-12 at
n = 500, 2,000 and 10,000, child at 500 and 2,000, and grid-20 at 2,000 (its 2**20 joint states are beyond
``DENSE_JOINT_CELLS``, so both runs take the junction tree: a control). For each, in one process, alternating:
``MPLSearch(seed=0).fit`` and ``ContextualMarkovNetwork.fit`` of its model with the whole joint table where it has
at most ``DENSE_JOINT_CELLS`` cells (the default) and with the junction tree's messages everywhere (the baseline:
``DENSE_JOINT_CELLS = 0``, the code before). Printed: median milliseconds of each, the ratio, whether the
learned graph, contexts and added edges are identical, and the largest difference of held-out nats/row.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _cmn_data  # noqa: E402
from _machine import machine_line  # noqa: E402
from predictive import as_categories, load_network, network_states  # noqa: E402

import pgmpy_sgm.models._cmn_dense as cmn_dense  # noqa: E402
from pgmpy_sgm.causal_discovery import MPLSearch  # noqa: E402

WHOLE = cmn_dense.DENSE_JOINT_CELLS
TEST_N = 10_000


def datasets():
    for kind, size, name in [("blocks", 2, "blocks-10"), ("grid", (3, 4), "grid-12"), ("grid", (4, 5), "grid-20")]:
        model = _cmn_data.blocks(size, 0) if kind == "blocks" else _cmn_data.grid(*size, 0)
        states = {v: [0, 1] for v in sorted(model[0].nodes())}
        test, _ = _cmn_data.sample(model, TEST_N, seed=1000)
        for n in (2000,) if name == "grid-20" else (500, 2000, 10_000):
            yield f"{name} n={n}", _cmn_data.sample(model, n, seed=0)[0], test, states
    for name, sizes in [("asia", (500, 2000, 10_000)), ("child", (500, 2000))]:
        bn = load_network(name)
        states = network_states(bn)
        test = as_categories(bn.simulate(TEST_N, seed=1000, show_progress=False), states)
        for n in sizes:
            train = as_categories(bn.simulate(n, seed=0, show_progress=False), states)
            yield f"{name} n={n}", train[sorted(train.columns)], test[sorted(test.columns)], states


def fit_once(train, test, states, whole: int):
    cmn_dense.DENSE_JOINT_CELLS = whole
    start = time.perf_counter()
    est = MPLSearch(seed=0, state_names=states).fit(train)
    search_s = time.perf_counter() - start
    start = time.perf_counter()
    model = est.model_.copy().fit(train, state_names=states)
    fit_s = time.perf_counter() - start
    found = (sorted(map(sorted, est.graph_.edges())), repr(sorted(est.contexts_.items(), key=repr)), est.added_edges_)
    return search_s, fit_s, found, model.log_likelihood(test) / len(test)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    print(machine_line(f"DENSE_JOINT_CELLS = {WHOLE}"))
    MPLSearch(seed=0).fit(pd.DataFrame({"a": [0, 1, 0, 1, 1, 0] * 5, "b": [0, 1, 1, 1, 1, 0] * 5}))  # compile once
    rows = []
    for label, train, test, states in datasets():
        times = {0: ([], []), WHOLE: ([], [])}
        results = {}
        for _ in range(args.repeats):
            for whole in (0, WHOLE):
                search_s, fit_s, found, held_out = fit_once(train, test, states, whole)
                times[whole][0].append(search_s)
                times[whole][1].append(fit_s)
                results[whole] = (found, held_out)
        cmn_dense.DENSE_JOINT_CELLS = WHOLE
        row = {"data": label,
               "search_ms_tree": 1000 * np.median(times[0][0]), "search_ms_whole": 1000 * np.median(times[WHOLE][0]),
               "fit_ms_tree": 1000 * np.median(times[0][1]), "fit_ms_whole": 1000 * np.median(times[WHOLE][1]),
               "same_graph": results[0][0] == results[WHOLE][0],
               "held_out_diff": abs(results[0][1] - results[WHOLE][1])}
        row["search_ratio"] = row["search_ms_tree"] / row["search_ms_whole"]
        row["fit_ratio"] = row["fit_ms_tree"] / row["fit_ms_whole"]
        rows.append(row)
        print(f"{label:16s} search {row['search_ms_tree']:8.1f} -> {row['search_ms_whole']:8.1f} ms "
              f"({row['search_ratio']:.2f}x)  fit {row['fit_ms_tree']:8.1f} -> {row['fit_ms_whole']:8.1f} ms "
              f"({row['fit_ratio']:.2f}x)  same graph {row['same_graph']}  held-out diff {row['held_out_diff']:.2e}",
              flush=True)
    if args.out is not None:
        pd.DataFrame(rows).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
