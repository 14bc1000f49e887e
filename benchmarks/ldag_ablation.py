"""Ablation of the labels: one tabu climb of ``LDAGSearch`` with and without labels, same data as predictive.py.

Run: ``python benchmarks/ldag_ablation.py [--out FILE.csv]`` (a few minutes on 2 cores). Training data
from asia and child with n in {500, 2000, 10000} and seeds 0-2, test n = 10,000 (seed ``1000 + seed``),
exactly as in ``predictive.py``. Both runs use BDeu with ESS 5; ``labels=False`` is the plain DAG
search with the same score and search, so the difference isolates what the labels add.
"""

from __future__ import annotations

import argparse
import time
import warnings

import pandas as pd
from predictive import as_categories, bn_log_likelihood, load_network, network_states

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.structure_score import LDAGScoreSettings

warnings.filterwarnings("ignore", category=FutureWarning)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="write the raw rows to this CSV")
    args = parser.parse_args()
    rows = []
    for name in ("asia", "child"):
        bn = load_network(name)
        states = network_states(bn)
        for seed in range(3):
            test = bn.simulate(10_000, seed=1000 + seed, show_progress=False)
            test = as_categories(test[sorted(test.columns)], states)
            for n in (500, 2000, 10_000):
                train = bn.simulate(n, seed=seed, show_progress=False)
                train = as_categories(train[sorted(train.columns)], states)
                for labels in (True, False):
                    start = time.perf_counter()
                    est = LDAGSearch(scoring_method=LDAGScoreSettings(labels=labels),
                                     n_restarts=0, seed=seed, state_names=states, show_progress=False).fit(train)
                    rows.append(
                        {
                            "data": name,
                            "n": n,
                            "seed": seed,
                            "labels": labels,
                            "ll": bn_log_likelihood(est.model_, test).mean(),
                            "n_params": est.model_.n_free_parameters(),
                            "fit_s": time.perf_counter() - start,
                        }
                    )
                print(f"{name} n={n} seed={seed}: labels {rows[-2]['ll']:.4f}, none {rows[-1]['ll']:.4f}", flush=True)
    frame = pd.DataFrame(rows)
    if args.out:
        frame.to_csv(args.out, index=False)
    wide = frame.pivot_table(index=["data", "n", "seed"], columns="labels", values=["ll", "n_params"])
    diff = (wide[("ll", True)] - wide[("ll", False)]).groupby(level=[0, 1]).agg(["mean", "std"])
    params = wide["n_params"].groupby(level=[0, 1]).mean()
    print(pd.concat([diff, params], axis=1).round(4).to_string())


if __name__ == "__main__":
    main()
