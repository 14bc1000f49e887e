"""Choice of the LDAG score's ESS and kappa on data the predictive benchmark does not use.

Run: ``PYTHONHASHSEED=0 python benchmarks/ldag_tuning.py --out benchmarks/results_ldag_tuning.csv``
(about 30 minutes on 2 shared cores). Training data from asia, child and alarm with seeds 10 and 11
(the benchmark uses seeds 0-2) and from sachs (not in the benchmark at all), n in {500, 2000, 10000};
test n = 10,000 with seed ``2000 + seed``. Learners: ``LDAGSearch`` without restarts
(``n_restarts=0``: its first climbs only) for ESS in {1, 2, 5} and kappa in {0.2, 0.5}, and pgmpy's ``HillClimbSearch``
with BDeu and BIC exactly as in ``predictive.py``. Prints, per learner, the mean difference in
held-out nats/row and in free parameters to the better pgmpy learner of each data set.
"""

from __future__ import annotations

import argparse
import time
import warnings

import pandas as pd
from predictive import as_categories, bn_log_likelihood, fit_hc, load_network, network_states

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.structure_score import LDAGScoreSettings

warnings.filterwarnings("ignore", category=FutureWarning)
warnings.filterwarnings("ignore", category=UserWarning)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="write the raw rows to this CSV")
    parser.add_argument("--networks", nargs="*", default=["asia", "sachs", "child", "alarm"])
    args = parser.parse_args()
    rows: list = []
    for name in args.networks:
        bn = load_network(name)
        states = network_states(bn)
        for seed in (10, 11):
            test = bn.simulate(10_000, seed=2000 + seed, show_progress=False)
            test = as_categories(test[sorted(test.columns)], states)
            for n in (500, 2000, 10_000):
                train = bn.simulate(n, seed=seed, show_progress=False)
                train = as_categories(train[sorted(train.columns)], states)
                tag = {"data": name, "n": n, "seed": seed}
                fit_hc(train, test, states, rows, tag)
                for ess in (1.0, 2.0, 5.0):
                    for kappa in (0.2, 0.5):
                        start = time.perf_counter()
                        est = LDAGSearch(scoring_method=LDAGScoreSettings(equivalent_sample_size=ess, kappa=kappa),
                                         n_restarts=0, seed=seed, state_names=states, show_progress=False).fit(train)
                        rows.append(
                            {
                                **tag,
                                "learner": f"LDAG-1 ess={ess:g} kappa={kappa:g}",
                                "ll": bn_log_likelihood(est.model_, test).mean(),
                                "n_params": est.model_.n_free_parameters(),
                                "fit_s": time.perf_counter() - start,
                                "n_labels": est.model_.n_labels(),
                            }
                        )
                if args.out:
                    pd.DataFrame(rows).to_csv(args.out, index=False)
                print(f"{name} n={n} seed={seed} done", flush=True)
    frame = pd.DataFrame(rows)
    hc = frame[frame["learner"].str.startswith("HC")]
    best = hc.loc[hc.groupby(["data", "n", "seed"])["ll"].idxmax(), ["data", "n", "seed", "ll", "n_params"]]
    best = best.rename(columns={"ll": "best_ll", "n_params": "best_params"})
    ldag = frame[frame["learner"].str.startswith("LDAG")].merge(best, on=["data", "n", "seed"])
    ldag["d_ll"] = ldag["ll"] - ldag["best_ll"]
    ldag["d_params"] = ldag["n_params"] - ldag["best_params"]
    per_setting = ldag.groupby(["learner", "data", "n"])[["d_ll", "d_params"]].mean()
    summary = pd.DataFrame(
        {
            "d_ll": ldag.groupby("learner")["d_ll"].mean(),
            "d_params": ldag.groupby("learner")["d_params"].mean(),
            "labels": ldag.groupby("learner")["n_labels"].mean(),
            "settings >= best": (per_setting["d_ll"] >= 0).groupby("learner").sum(),
            "settings >= best - 0.01": (per_setting["d_ll"] >= -0.01).groupby("learner").sum(),
            "settings fewer params": (per_setting["d_params"] < 0).groupby("learner").sum(),
        }
    )
    print(summary.round(4).to_string())
    print(per_setting["d_ll"].unstack("learner").round(4).to_string())


if __name__ == "__main__":
    main()
