"""Incomplete data: structural EM against complete cases and the full data, held out, per learner.

Run:  python benchmarks/bench_missing.py [--networks asia,child] [--n 2000] [--seeds 1]
          [--rates 0.1,0.2,0.3] [--mar] [--learners ldag,sgm] [--out FILE.csv]

For each network, sample size and seed, training data are simulated from the bnlearn network
(columns sorted, ``PYTHONHASHSEED=0``) and cells are removed completely at random at each rate
(and, with ``--mar``, at random given an always-observed variable: the first column is never
missing, and a cell of another column is missing with probability ``1.6 * rate`` when that
variable holds its first state and ``0.4 * rate`` otherwise). Each learner is fitted

* on the full data before masking (the ceiling),
* with ``missing="em"`` on the masked data (structural EM; the model's parameters are those of
  the last EM iteration: the learner's on the table of expected counts),
* with ``missing="complete_cases"``,

and pgmpy's ``HillClimbSearch`` (BDeu) with ``DiscreteBayesianEstimator`` (BDeu, ESS 1) on the
complete cases is the peer. Reported: held-out log-likelihood per row on 10,000 fresh complete
rows, free parameters, fit time. The learners run with their defaults (``NonReversibleMCMC``:
``n_iter="auto"``; ``LDAGSearch``: its default restarts), each M-step of EM the same.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import os
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
if os.environ.get("PYTHONHASHSEED") != "0":  # pgmpy's sampler orders nodes by hash
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

warnings.filterwarnings("ignore")


def network(name: str):
    from pgmpy.readwrite import BIFReader

    with gzip.open(HERE / "data" / f"{name}.bif.gz", "rt") as handle:
        return BIFReader(string=handle.read()).get_model()


def simulate(bn, n: int, seed: int) -> pd.DataFrame:
    data = bn.simulate(n, seed=seed, show_progress=False)
    return data[sorted(data.columns)].astype(str)


def mask(data: pd.DataFrame, rate: float, mar: bool, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    if not mar:
        return data.mask(rng.random(data.shape) < rate)
    anchor = data.columns[0]
    first = data[anchor] == sorted(data[anchor].unique())[0]
    p = np.where(first.to_numpy()[:, None], 1.6 * rate, 0.4 * rate) * np.ones((1, data.shape[1]))
    p[:, 0] = 0.0
    return data.mask(rng.random(data.shape) < p)


def held_out(model, test: pd.DataFrame, states: dict) -> float:
    """Mean log-likelihood per row of complete test rows under a fitted model (SGM or labelled network)."""
    from pgmpy_sgm.core.missing import encode_with_gaps

    variables = list(test.columns)
    codes, _ = encode_with_gaps(test, states)
    return float(model.log_probability_function(variables, states)(codes).mean())


def sgm_model(est, train, missing):
    from pgmpy_sgm.models import StratifiedGraphicalModel

    states = {v: list(s) for v, s in est.scorer_.state_names.items()}
    return StratifiedGraphicalModel(est.model_).fit(train, state_names=states, missing=missing)


def fit_learner(kind: str, train: pd.DataFrame, missing: str, states: dict, seed: int):
    from pgmpy_sgm import LDAGSearch
    from pgmpy_sgm.causal_discovery import NonReversibleMCMC

    tic = time.perf_counter()
    if kind == "ldag":
        est = LDAGSearch(seed=seed, show_progress=False, state_names=states, missing=missing).fit(train)
        model, n_params = est.model_, est.model_.n_free_parameters()
    else:
        est = NonReversibleMCMC(seed=seed, show_progress=False, state_names=states, missing=missing).fit(train)
        model = sgm_model(est, train, missing if missing != "complete_cases" else "complete_cases")
        n_params = est.model_.n_free_parameters()
    return model, n_params, time.perf_counter() - tic, len(getattr(est, "em_history_", []))


def hill_climb(train: pd.DataFrame, states: dict):
    from pgmpy.causal_discovery import HillClimbSearch
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator
    from pgmpy.structure_score import BDeu

    from pgmpy_sgm import LabeledBayesianNetwork

    complete = train.dropna()
    tic = time.perf_counter()
    cat = complete.astype(pd.CategoricalDtype())
    dag = HillClimbSearch(scoring_method=BDeu(cat), show_progress=False, return_type="dag").fit(cat).causal_graph_
    model = LabeledBayesianNetwork(dag.edges(), state_names=states)
    model.add_nodes_from(train.columns)
    model.fit(complete, estimator=DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=1),
              state_names=states)  # fmt: skip
    return model, model.n_free_parameters(), time.perf_counter() - tic


def summarise(rows: pd.DataFrame) -> None:
    """Per network, learner, masking and rate: held out against the full-data fit, EM against complete cases."""
    full = rows[rows["method"] == "full"].set_index(["network", "n", "seed", "learner"])
    print("| network | learner | masking | rate | EM - full | CC - full | EM - CC (seeds EM ahead) | "
          "HC on CC - full | params EM / CC / full | EM time / full time |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    masked = rows[rows["method"] != "full"]
    for (name, n, learner, masking, rate), group in masked[masked["learner"] != "hc-bdeu"].groupby(
        ["network", "n", "learner", "masking", "rate"]
    ):
        em = group[group["method"] == "em"].set_index("seed")
        cc = group[group["method"] == "complete_cases"].set_index("seed")
        ref = full.xs((name, n, learner), level=("network", "n", "learner"))
        hc = rows[(rows["learner"] == "hc-bdeu") & (rows["network"] == name) & (rows["n"] == n)
                  & (rows["masking"] == masking) & (rows["rate"] == rate)].set_index("seed")  # fmt: skip
        d_em, d_cc = em["loglik"] - ref["loglik"], cc["loglik"] - ref["loglik"]
        ahead = int(((em["loglik"] - cc["loglik"]) > 0).sum())
        print(f"| {name} {n} | {learner} | {masking} | {rate:.0%} | {d_em.mean():+.4f} | {d_cc.mean():+.4f} | "
              f"{(em['loglik'] - cc['loglik']).mean():+.4f} ({ahead}/{len(em)}) | "
              f"{(hc['loglik'] - ref['loglik']).mean():+.4f} | {em['params'].mean():.0f} / {cc['params'].mean():.0f} / "
              f"{ref['params'].mean():.0f} | {(em['seconds'] / ref['seconds']).mean():.1f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default="asia,child")
    parser.add_argument("--n", default="2000")
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--rates", default="0.1,0.2,0.3")
    parser.add_argument("--mar", action="store_true", help="also the missing-at-random variant")
    parser.add_argument("--learners", default="ldag,sgm")
    parser.add_argument("--out", help="CSV file for the raw rows")
    parser.add_argument("--summary", help="only summarise the raw rows of this CSV file")
    args = parser.parse_args()
    if args.summary:
        summarise(pd.read_csv(args.summary))
        return
    from bench_mcmc import machine

    print(machine())
    print(f"start {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()}")
    rows = []
    for name in args.networks.split(","):
        bn = network(name)
        states = {v: sorted(map(str, bn.get_cpds(v).state_names[v])) for v in bn.nodes()}
        for n in map(int, args.n.split(",")):
            for seed in range(args.seeds):
                train, test = simulate(bn, n, seed), simulate(bn, 10_000, 1000 + seed)
                for kind in args.learners.split(","):
                    model, k, secs, _ = fit_learner(kind, train, "error", states, seed)
                    full = held_out(model, test, states)
                    rows.append(dict(network=name, n=n, seed=seed, learner=kind, masking="none", rate=0.0,
                                     method="full", loglik=full, params=k, seconds=secs, em_iter=0))  # fmt: skip
                    print(rows[-1], flush=True)
                for mar in [False, True] if args.mar else [False]:
                    for rate in map(float, args.rates.split(",")):
                        masked = mask(train, rate, mar, seed)
                        label = "MAR" if mar else "MCAR"
                        for kind in args.learners.split(","):
                            for method in ("em", "complete_cases"):
                                model, k, secs, iters = fit_learner(kind, masked, method, states, seed)
                                rows.append(dict(network=name, n=n, seed=seed, learner=kind, masking=label,
                                                 rate=rate, method=method, loglik=held_out(model, test, states),
                                                 params=k, seconds=secs, em_iter=iters))  # fmt: skip
                                print(rows[-1], flush=True)
                        model, k, secs = hill_climb(masked, states)
                        rows.append(dict(network=name, n=n, seed=seed, learner="hc-bdeu", masking=label, rate=rate,
                                         method="complete_cases", loglik=held_out(model, test, states), params=k,
                                         seconds=secs, em_iter=0))  # fmt: skip
                        print(rows[-1], flush=True)
    print(f"end {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()}")
    if args.out:
        with open(args.out, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
