"""Incomplete data: structural EM against complete cases and the full data, held out, per learner.

Run:  python benchmarks/bench_missing.py [--networks asia,child] [--n 2000] [--seeds 1] [--first-seed 0]
          [--rates 0.1,0.2,0.3] [--mar | --mar-only] [--learners ldag,sgm] [--out FILE.csv]
      python benchmarks/bench_missing.py --heart 10 [--heart-rate 0.2] [--out FILE.csv]
      python benchmarks/bench_missing.py --summary FILE.csv  (or --heart-summary FILE.csv)

For each network, sample size and seed, training data are simulated from the bnlearn network
(columns sorted, ``PYTHONHASHSEED=0``) and cells are removed completely at random at each rate
(and, with ``--mar``, at random given an always-observed variable, the anchor: the column whose
most frequent state is closest to half the rows, never missing; a cell of another column is
missing four times as often on the rows where the anchor holds its most frequent state as on
the others, scaled so that ``rate`` of those columns' cells are missing. Until 2026-11-27 the
anchor was the first column and the probabilities ``1.6 * rate`` on its first state and
``0.4 * rate`` otherwise, unscaled: on alarm and asia, whose first column holds its first state
in 99% of the rows, "20%" removed 31% of the cells, on child 24%, on insurance 10%). Each learner is fitted

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
import gzip
import os
import sys
import time
import warnings
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
from _csv_rows import append_row  # noqa: E402
from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

warnings.filterwarnings("ignore")


def network(name: str):
    from pgmpy.readwrite import BIFReader

    with gzip.open(HERE / "data" / f"{name}.bif.gz", "rt") as handle:
        return BIFReader(string=handle.read()).get_model()


def string_states(bn) -> dict:
    """Each variable's states as the sorted strings :func:`simulate` gives its columns."""
    return {v: sorted(map(str, bn.get_cpds(v).state_names[v])) for v in bn.nodes()}


def simulate(bn, n: int, seed: int) -> pd.DataFrame:
    data = bn.simulate(n, seed=seed, show_progress=False)
    return data[sorted(data.columns)].astype(str)


class Setting(NamedTuple):
    """One benchmark setting of a SPEC ``network:n:rate:masking:seed``, with its data."""

    name: str
    n: int
    rate: float
    masking: str
    seed: int
    bn: object
    states: dict
    train: pd.DataFrame
    test: pd.DataFrame
    masked: pd.DataFrame


def setting(spec: str) -> Setting:
    """The network, its states, training rows, 10,000 fresh test rows and the masked training rows of ``spec``."""
    name, n, rate, masking, seed = spec.split(":")
    n, rate, seed = int(n), float(rate), int(seed)
    bn = network(name)
    states = string_states(bn)
    train, test = simulate(bn, n, seed), simulate(bn, 10_000, 1000 + seed)
    return Setting(name, n, rate, masking, seed, bn, states, train, test, mask(train, rate, masking == "mar", seed))


def mask(data: pd.DataFrame, rate: float, mar: bool, seed: int) -> pd.DataFrame:
    """Cells removed completely at random at ``rate``, or (``mar``) at random given the anchor (see the module text).

    Under MAR the anchor is the column whose most frequent state is closest to half the rows
    (the first such column); it is never missing, and a cell of another column is missing with
    a probability four times higher on the rows where the anchor holds its most frequent
    state than on the others, scaled so that the expected share of missing cells among the
    other columns is ``rate``.
    """
    rng = np.random.default_rng(seed)
    if not mar:
        return data.mask(rng.random(data.shape) < rate)
    shares = {c: data[c].value_counts(normalize=True).iloc[0] for c in data.columns}
    anchor = min(data.columns, key=lambda c: abs(shares[c] - 0.5))
    common = (data[anchor] == data[anchor].value_counts().index[0]).to_numpy()
    weight = np.where(common, 1.6, 0.4)
    p = np.minimum(rate * weight / weight.mean(), 1.0)[:, None] * np.ones((1, data.shape[1]))
    p[:, list(data.columns).index(anchor)] = 0.0
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
    history = getattr(est, "em_history_", None)
    steps = 0 if history is None else int((history["step"] == "structure").sum())
    return model, n_params, time.perf_counter() - tic, 0 if history is None else len(history), steps


#: The measured fields of a complete-case fit that could not run (every row has a missing cell).
NOT_FITTED = dict(loglik=float("nan"), params=0, seconds=0.0, em_iter=0, structure_steps=0)


def no_complete_case(masked: pd.DataFrame, cell: dict) -> bool:
    """Whether no row of ``masked`` is complete (then complete cases cannot be fitted; said on stdout)."""
    if len(masked.dropna()):
        return False
    print(f"{cell}: no complete case among {len(masked)} rows; recorded as not fitted (NaN)", flush=True)
    return True


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
          "HC on CC - full | params EM / CC / full | EM iterations (searches) | EM time / full time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
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
              f"{ref['params'].mean():.0f} | {em['em_iter'].mean():.1f} ({em['structure_steps'].mean():.1f}) | "
              f"{(em['seconds'] / ref['seconds']).mean():.1f}x |")


FIELDS = ["network", "n", "seed", "learner", "masking", "rate", "method", "loglik", "params", "seconds", "em_iter",
          "structure_steps", "load"]  # fmt: skip


class Rows:
    """Raw rows, each appended to the CSV file as soon as it is measured (a stopped run keeps its rows)."""

    def __init__(self, path: str | None):
        self.path = path
        self.done = set()
        if path and Path(path).exists():
            old = pd.read_csv(path)
            self.done = {self.key(r) for r in old.to_dict("records")}

    @staticmethod
    def key(row: dict) -> tuple:
        return (row["network"], int(row["n"]), int(row["seed"]), row["learner"], row["masking"],
                round(float(row["rate"]), 3), row["method"])  # fmt: skip

    def has(self, **row) -> bool:
        return self.key(row) in self.done

    def add(self, row: dict) -> None:
        row = {**row, "load": round(os.getloadavg()[0], 1)}
        print(row, flush=True)
        self.done.add(self.key(row))
        if self.path:
            append_row(self.path, row, FIELDS)


def run_grid(args, out: Rows) -> None:
    learners = args.learners.split(",")
    for name in args.networks.split(","):
        bn = network(name)
        states = string_states(bn)
        for n in map(int, args.n.split(",")):
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                train, test = simulate(bn, n, seed), simulate(bn, 10_000, 1000 + seed)
                base = dict(network=name, n=n, seed=seed)
                for kind in learners:
                    if out.has(**base, learner=kind, masking="none", rate=0.0, method="full"):
                        continue
                    model, k, secs, _, _ = fit_learner(kind, train, "error", states, seed)
                    out.add(dict(**base, learner=kind, masking="none", rate=0.0, method="full",
                                 loglik=held_out(model, test, states), params=k, seconds=secs, em_iter=0,
                                 structure_steps=0))  # fmt: skip
                for mar in [True] if args.mar_only else [False, True] if args.mar else [False]:
                    for rate in map(float, args.rates.split(",")):
                        masked = mask(train, rate, mar, seed)
                        label = "MAR" if mar else "MCAR"
                        for kind in learners:
                            for method in ("em", "complete_cases"):
                                cell = dict(**base, learner=kind, masking=label, rate=rate, method=method)
                                if out.has(**cell):
                                    continue
                                if method == "complete_cases" and no_complete_case(masked, cell):
                                    out.add(dict(**cell, **NOT_FITTED))
                                    continue
                                model, k, secs, iters, steps = fit_learner(kind, masked, method, states, seed)
                                out.add(dict(**cell, loglik=held_out(model, test, states), params=k, seconds=secs,
                                             em_iter=iters, structure_steps=steps))  # fmt: skip
                        cell = dict(**base, learner="hc-bdeu", masking=label, rate=rate, method="complete_cases")
                        if not out.has(**cell) and no_complete_case(masked, cell):
                            out.add(dict(**cell, **NOT_FITTED))
                        elif not out.has(**cell):
                            model, k, secs = hill_climb(masked, states)
                            out.add(dict(**cell, loglik=held_out(model, test, states), params=k, seconds=secs,
                                         em_iter=0, structure_steps=0))  # fmt: skip


#: The paper's best stratified graph of the heart data (Nyman et al. 2014, Figure 3), as in the tests.
PAPER_EDGES = {frozenset(e) for e in [
    ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"), ("smoking", "lipoprotein_ratio"),
    ("smoking", "physical_work"), ("smoking", "systolic_bp"), ("systolic_bp", "lipoprotein_ratio")]}  # fmt: skip
PAPER_STRATA = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
                ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}  # fmt: skip
PAPER_LABELS = {("lipoprotein_ratio", "systolic_bp"): [{"smoking": 0}],
                ("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}]}  # fmt: skip


def run_heart(args, path: str | None) -> None:
    """Heart data, ``args.heart`` maskings of ``args.heart_rate`` of cells (MCAR): paper graph and labels found?"""
    from pgmpy_sgm import LDAGSearch, load_heart_disease
    from pgmpy_sgm.causal_discovery import NonReversibleMCMC

    heart = load_heart_disease()
    learners = args.learners.split(",")
    done = set()
    if path and Path(path).exists():
        done = {(r["learner"], r["masking_seed"], r["method"]) for r in pd.read_csv(path).to_dict("records")}
    for masking in range(args.heart):
        masked = heart.astype(object).mask(np.random.default_rng(masking).random(heart.shape) < args.heart_rate)
        for kind in learners:
            for method in ("em", "complete_cases", "full"):
                if (kind, masking, method) in done or (method == "full" and masking > 0):
                    continue
                data = heart if method == "full" else masked
                tic = time.perf_counter()
                if kind == "sgm":
                    est = NonReversibleMCMC(seed=0, show_progress=False,
                                            missing="error" if method == "full" else method).fit(data)  # fmt: skip
                    edges, ok_labels = {frozenset(e) for e in est.model_.edges()}, est.model_.strata == PAPER_STRATA
                else:
                    est = LDAGSearch(seed=0, show_progress=False,
                                     missing="error" if method == "full" else method).fit(data)  # fmt: skip
                    edges, ok_labels = {frozenset(e) for e in est.model_.edges()}, est.model_.labels() == PAPER_LABELS
                row = dict(learner=kind, masking_seed=masking, rate=args.heart_rate, method=method,
                           rows_used=len(data.dropna()) if method == "complete_cases" else len(data),
                           paper_graph=edges == PAPER_EDGES, paper_labels=bool(ok_labels),
                           both=edges == PAPER_EDGES and bool(ok_labels), n_edges=len(edges),
                           paper_edges_found=len(edges & PAPER_EDGES), extra_edges=len(edges - PAPER_EDGES),
                           seconds=round(time.perf_counter() - tic, 2))  # fmt: skip
                print(row, flush=True)
                if path:
                    append_row(path, row)


def summarise_heart(rows: pd.DataFrame) -> None:
    print("| learner | data | maskings | paper graph | paper labels/strata | both | paper edges found (of 6) | "
          "other edges | seconds (mean) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (kind, method), g in rows.groupby(["learner", "method"]):
        print(f"| {kind} | {method} | {len(g)} | {int(g['paper_graph'].sum())}/{len(g)} | "
              f"{int(g['paper_labels'].sum())}/{len(g)} | {int(g['both'].sum())}/{len(g)} | "
              f"{g['paper_edges_found'].mean():.1f} | {g['extra_edges'].mean():.1f} | {g['seconds'].mean():.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default="asia,child")
    parser.add_argument("--n", default="2000")
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--rates", default="0.1,0.2,0.3")
    parser.add_argument("--mar", action="store_true", help="also the missing-at-random variant")
    parser.add_argument("--mar-only", action="store_true", help="only the missing-at-random variant")
    parser.add_argument("--learners", default="ldag,sgm")
    parser.add_argument("--out", help="CSV file the raw rows are appended to (rows already there are skipped)")
    parser.add_argument("--summary", help="only summarise the raw rows of these CSV files (comma-separated)")
    parser.add_argument("--heart", type=int, default=0, help="instead: this many maskings of the heart data")
    parser.add_argument("--heart-rate", type=float, default=0.2)
    parser.add_argument("--heart-summary", help="only summarise the heart rows of this CSV file")
    args = parser.parse_args()
    if args.summary:  # one file or several, comma-separated
        summarise(pd.concat([pd.read_csv(path) for path in args.summary.split(",")], ignore_index=True))
        return
    if args.heart_summary:
        summarise_heart(pd.read_csv(args.heart_summary))
        return
    from bench_mcmc import machine

    print(machine())
    print(f"start {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()}", flush=True)
    if args.heart:
        run_heart(args, args.out)
    else:
        run_grid(args, Rows(args.out))
    print(f"end {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
