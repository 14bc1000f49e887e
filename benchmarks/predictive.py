"""Held-out log-likelihood of SGMs against pgmpy's learners (and CStrees) on heart and bnlearn networks.

Run: ``python benchmarks/predictive.py`` (about an hour on 2 cores; ``--quick`` for a smoke run of a
few minutes; ``--out FILE.csv`` to keep the raw rows).

Data: the bundled heart-disease data (5-fold cross-validation, folds shuffled with seed 0) and data
simulated from the bnlearn networks asia, child, insurance and alarm (``benchmarks/data``): training
n in {500, 2000, 10000}, test n = 10000, seeds 0-2 (training data with ``seed``, test data with
``1000 + seed``). Learners, each scored by the mean held-out log-likelihood per row (nats/row):

* ``SGM``: best single stratified graph of ``NonReversibleMCMC`` with its default search (for up
  to 8 variables two chains, otherwise one; ``N_ITER`` iterations, or on the networks a time budget
  with ``--sgm-seconds``), parameters ``fit(estimator="bayes")``;
* ``SGM-avg``: :class:`~pgmpy_sgm.causal_discovery.ModelAverage` of the same run (top models holding
  99% of the estimated posterior, at most 50);
* ``SGM-avg-unif`` (heart and asia only): the model average of a run with the uniform graph prior
  (``prior="uniform"``) instead of the paper's :math:`2^{d - f(G)}`;
* ``GM``: the same estimator with ``strata=False`` (best ordinary decomposable graphical model);
* ``HC-BDeu`` / ``HC-BIC``: pgmpy's ``HillClimbSearch`` with ``BDeu`` (equivalent sample size 10,
  pgmpy's default) / ``BIC``, parameters by pgmpy's ``DiscreteBayesianEstimator`` (BDeu prior, equivalent
  sample size 5, pgmpy's default);
* ``LDAG`` / ``LDAG-1``: :class:`~pgmpy_sgm.causal_discovery.LDAGSearch` (labelled DAGs) with its
  defaults (BDeu ESS 5, ``kappa`` 0.2, tabu climbs from a greedy equivalence search's DAG and from
  the empty graph, then at most 10 perturbed restarts within a restart budget of 0.25x the longer
  first climb's scored moves) / the same without restarts; TreeCPD parameters (BDeu posterior means
  over label classes, ESS 5);
* ``CStree``: the ``cstrees`` package (PC-restricted contexts of at most 2 variables, a Gibbs order
  sampler, BDeu stage parameters) run in its own virtual environment (``--cstrees-python``, default
  ``/tmp/cstrees-venv/bin/python``) through ``_cstrees_driver.py``, with a time limit per fit.

Every learner gets the states of the generating network, so a state absent from a training set
still has probability under every model. Free parameters and fit times are reported with each
figure (for ``SGM-avg``: the posterior-weighted mean of its models' free parameters); the rows of
the hill climbs and LDAG columns also carry the 1-minute load average at the end of each fit
(``load1``), and fit-time ratios are taken between learners fitted one after another in the same
process on the same data.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pgmpy
from pgmpy.causal_discovery import HillClimbSearch
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.parameter_estimator import DiscreteBayesianEstimator
from pgmpy.readwrite import BIFReader
from pgmpy.structure_score import BIC, BDeu

from pgmpy_sgm import load_heart_disease
from pgmpy_sgm.causal_discovery import LDAGSearch, ModelAverage, NonReversibleMCMC
from pgmpy_sgm.models import StratifiedGraphicalModel

warnings.filterwarnings("ignore", category=FutureWarning)
warnings.filterwarnings("ignore", category=UserWarning)

HERE = Path(__file__).resolve().parent
NETWORKS = ("asia", "child", "insurance", "alarm")
#: MCMC iterations per network (one chain), chosen so a fit takes at most ~30-60 s at n = 10000.
N_ITER = {"heart": 2000, "asia": 2000, "child": 600, "insurance": 400, "alarm": 400}


def load_network(name: str) -> DiscreteBayesianNetwork:
    with gzip.open(HERE / "data" / f"{name}.bif.gz", "rt") as fh:
        return BIFReader(string=fh.read()).get_model()


def network_states(bn: DiscreteBayesianNetwork) -> dict:
    return {v: list(bn.get_cpds(v).state_names[v]) for v in bn.nodes()}


def as_categories(df: pd.DataFrame, states: dict) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Categorical(df[c], categories=states[c]) for c in df.columns})


# -- learners ---------------------------------------------------------------------------
def fit_sgm(
    train: pd.DataFrame,
    test: pd.DataFrame,
    states: dict,
    n_iter: int,
    seed: int,
    rows: list,
    tag: dict,
    max_time: float | None = None,
):
    small = train.shape[1] <= 8
    if max_time is not None:
        n_iter = None
    for strata, prior in ((True, "paper"), (False, "paper")) + (((True, "uniform"),) if small else ()):
        start = time.perf_counter()
        est = NonReversibleMCMC(n_iter=n_iter, max_time=max_time, n_chains=2 if small else 1, strata=strata,
                                prior=prior, seed=seed, state_names=states, show_progress=False).fit(train)
        model = StratifiedGraphicalModel(est.model_).fit(train, estimator="bayes", state_names=states)
        fit_time = time.perf_counter() - start
        if prior == "uniform":
            avg = ModelAverage.from_estimator(est, train, mass=0.99, max_models=50)
            params = float(sum(w * m.n_free_parameters() for w, m in zip(avg.weights, avg.models, strict=True)))
            rows.append({**tag, "learner": "SGM-avg-unif", "ll": avg.log_likelihood(test) / len(test),
                         "n_params": params, "fit_s": time.perf_counter() - start, "n_models": avg.n_models,
                         "n_visited": est.n_visited_})
            continue
        name = "SGM" if strata else "GM"
        rows.append({**tag, "learner": name, "ll": model.log_likelihood(test) / len(test),
                     "n_params": model.n_free_parameters(), "fit_s": fit_time, "n_models": 1,
                     "n_visited": est.n_visited_, "score": est.best_score_, "load1": os.getloadavg()[0]})
        if strata:
            start = time.perf_counter()
            avg = ModelAverage.from_estimator(est, train, mass=0.99, max_models=50)
            avg_time = fit_time + time.perf_counter() - start
            params = float(sum(w * m.n_free_parameters() for w, m in zip(avg.weights, avg.models, strict=True)))
            rows.append({**tag, "learner": "SGM-avg", "ll": avg.log_likelihood(test) / len(test),
                         "n_params": params, "fit_s": avg_time, "n_models": avg.n_models,
                         "n_visited": est.n_visited_})


def bn_log_likelihood(bn: DiscreteBayesianNetwork, test: pd.DataFrame) -> np.ndarray:
    total = np.zeros(len(test))
    for cpd in bn.get_cpds():
        variables = cpd.variables  # child first, then evidence
        idx = []
        for v in variables:
            lookup = {s: i for i, s in enumerate(cpd.state_names[v])}
            idx.append(test[v].astype(object).map(lookup).to_numpy(dtype=np.int64))
        total += np.log(cpd.values[tuple(idx)])
    return total


def bn_free_parameters(bn: DiscreteBayesianNetwork) -> int:
    return int(sum((c.cardinality[0] - 1) * int(np.prod(c.cardinality[1:])) for c in bn.get_cpds()))


def fit_hc(train: pd.DataFrame, test: pd.DataFrame, states: dict, rows: list, tag: dict):
    for name, score in (("HC-BDeu", BDeu(train, state_names=states)), ("HC-BIC", BIC(train, state_names=states))):
        start = time.perf_counter()
        dag = HillClimbSearch(scoring_method=score, return_type="dag", show_progress=False).fit(train).causal_graph_
        bn = DiscreteBayesianNetwork(dag.edges())
        bn.add_nodes_from(train.columns)
        estimator = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=5, state_names=states)
        bn.add_cpds(*estimator.fit(bn, train).parameters_)
        fit_time = time.perf_counter() - start
        rows.append({**tag, "learner": name, "ll": bn_log_likelihood(bn, test).mean(),
                     "n_params": bn_free_parameters(bn), "fit_s": fit_time, "n_models": 1, "n_visited": np.nan,
                     "load1": os.getloadavg()[0]})


def fit_ldag(train: pd.DataFrame, test: pd.DataFrame, states: dict, seed: int, rows: list, tag: dict,
             ess: float | None = None):
    settings = {} if ess is None else {"equivalent_sample_size": ess}
    for name, restarts in (("LDAG", 10), ("LDAG-1", 0)):
        start = time.perf_counter()
        est = LDAGSearch(n_restarts=restarts, seed=seed, state_names=states, show_progress=False, **settings).fit(train)
        fit_time = time.perf_counter() - start
        rows.append({**tag, "learner": name, "ll": bn_log_likelihood(est.model_, test).mean(),
                     "n_params": est.model_.n_free_parameters(), "fit_s": fit_time, "n_models": 1,
                     "n_visited": len(est.climb_scores_), "n_labels": est.model_.n_labels(),
                     "score": est.best_score_, "first_climb_score": est.climb_scores_[0],
                     "first_climb_s": est.climb_seconds_[0], "load1": os.getloadavg()[0],
                     **{f"climb_{where}_score": value for where, value in zip(est.climb_starts_, est.climb_scores_,
                                                                               strict=True) if where != "restart"},
                     "kept_start": _kept_start(est)})


def _kept_start(est: LDAGSearch) -> str:
    """Which first climb (``"ges"`` or ``"empty"``) the result descends from."""
    firsts = [(value, where) for where, value in zip(est.climb_starts_, est.climb_scores_, strict=True)
              if where != "restart"]  # fmt: skip
    return max(firsts, key=lambda t: t[0])[1]


def fit_cstree(train, test, states, rows, tag, python: str, timeout: float, status: dict):
    key = tag["data"]
    if status.get(key):  # an earlier, smaller fit of this network failed or timed out
        rows.append({**tag, "learner": "CStree", "ll": np.nan, "n_params": np.nan, "fit_s": np.nan,
                     "n_models": 1, "n_visited": np.nan, "note": f"skipped after: {status[key]}"})
        return

    def codes(df):
        return pd.DataFrame({c: df[c].astype(object).map({s: i for i, s in enumerate(states[c])}).astype(int)
                             for c in df.columns})

    with tempfile.TemporaryDirectory() as tmp:
        cards = pd.DataFrame([[len(states[c]) for c in train.columns]], columns=train.columns)
        pd.concat([cards, codes(train)]).to_csv(f"{tmp}/train.csv", index=False)
        codes(test).to_csv(f"{tmp}/test.csv", index=False)
        start = time.perf_counter()
        try:
            proc = subprocess.run([python, str(HERE / "_cstrees_driver.py"), f"{tmp}/train.csv", f"{tmp}/test.csv",
                                   f"{tmp}/out.json"], capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            status[key] = f"time limit {timeout:.0f} s at n={tag['n']}"
        except OSError as err:
            status[key] = f"cannot start {python}: {err}"
        else:
            if proc.returncode != 0:
                last = (proc.stderr.strip().splitlines() or ["?"])[-1]
                status[key] = f"error at n={tag['n']}: {last[:200]}"
            else:
                out = json.loads(Path(f"{tmp}/out.json").read_text())
                rows.append({**tag, "learner": "CStree", "ll": out["ll_per_row"], "n_params": out["n_params"],
                             "fit_s": out["fit_time"], "n_models": 1, "n_visited": np.nan,
                             "wall_s": time.perf_counter() - start})
                return
    rows.append({**tag, "learner": "CStree", "ll": np.nan, "n_params": np.nan, "fit_s": np.nan, "n_models": 1,
                 "n_visited": np.nan, "note": status[key]})
    print(f"  CStree: {status[key]}", flush=True)


# -- experiments ------------------------------------------------------------------------
def run_heart(rows: list, args) -> None:
    data = load_heart_disease()
    states = {c: [0, 1] for c in data.columns}
    rng = np.random.default_rng(0)
    folds = np.array_split(rng.permutation(len(data)), 5)
    for k, test_idx in enumerate(folds[: args.folds]):
        train = data.drop(index=data.index[test_idx]).reset_index(drop=True)
        test = data.iloc[test_idx].reset_index(drop=True)
        tag = {"data": "heart", "n": "5-fold", "seed": k}
        if args.sgm:
            fit_sgm(train, test, states, N_ITER["heart"], k, rows, tag)
        fit_hc(as_categories(train, states), as_categories(test, states), states, rows, tag)
        if args.ldag:
            fit_ldag(as_categories(train, states), as_categories(test, states), states, k, rows, tag, args.ldag_ess)
        if args.cstrees:
            fit_cstree(train, test, states, rows, tag, args.cstrees_python, args.cstrees_timeout, {})
        print(f"heart fold {k}: " + summary_line(rows, tag), flush=True)


def summary_line(rows, tag) -> str:
    got = [r for r in rows if all(r.get(k) == v for k, v in tag.items())]
    return ", ".join(f"{r['learner']} {r['ll']:.4f} ({r['fit_s']:.0f}s)" for r in got if np.isfinite(r["ll"]))


def run_networks(rows: list, args) -> None:
    status: dict = {}
    for name in args.networks:
        bn = load_network(name)
        states = network_states(bn)
        for seed in range(args.seeds):
            test = bn.simulate(args.test_n, seed=1000 + seed, show_progress=False)
            test = as_categories(test[sorted(test.columns)], states)
            for n in args.sizes:
                train = bn.simulate(n, seed=seed, show_progress=False)
                train = as_categories(train[sorted(train.columns)], states)
                tag = {"data": name, "n": n, "seed": seed}
                n_iter = N_ITER[name] if not args.quick else min(N_ITER[name], 100)
                if args.sgm:
                    fit_sgm(train, test, states, n_iter, seed, rows, tag, args.sgm_seconds)
                fit_hc(train, test, states, rows, tag)
                if args.ldag:
                    fit_ldag(train, test, states, seed, rows, tag, args.ldag_ess)
                if args.cstrees:
                    fit_cstree(train, test, states, rows, tag, args.cstrees_python, args.cstrees_timeout, status)
                print(f"{name} n={n} seed={seed}: " + summary_line(rows, tag), flush=True)
                if args.out:
                    pd.DataFrame(rows).to_csv(args.out, index=False)


def report(frame: pd.DataFrame) -> str:
    """Markdown tables: mean (sd over seeds/folds) of nats/row, difference to the best peer, parameters, time."""
    lines = []
    learners = ["SGM", "SGM-avg", "SGM-avg-unif", "GM", "HC-BDeu", "HC-BIC", "CStree"]
    learners = [x for x in learners if x in set(frame["learner"])]
    lines.append("| data | n | " + " | ".join(learners) + " |")
    lines.append("|---|---|" + "---|" * len(learners))
    for (data, n), grp in frame.groupby(["data", "n"], sort=False):
        cells = []
        for learner in learners:
            g = grp[grp["learner"] == learner]["ll"].dropna()
            cells.append(f"{g.mean():.4f} ± {g.std(ddof=1):.4f}" if len(g) > 1 else
                         (f"{g.mean():.4f}" if len(g) else "n/a"))
        lines.append(f"| {data} | {n} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Paired differences (same seed/fold) in nats/row, mean ± sd; free parameters and fit seconds (means):")
    lines.append("")
    lines.append("| data | n | SGM-avg − SGM | SGM-avg − best peer | best peer | params SGM / avg / GM / peer "
                 "| fit s SGM / GM / peer | goal |")
    lines.append("|---|---|---|---|---|---|---|---|")
    peers = [x for x in ("HC-BDeu", "HC-BIC", "CStree") if x in learners]
    for (data, n), grp in frame.groupby(["data", "n"], sort=False):
        wide = grp.pivot_table(index="seed", columns="learner", values="ll")
        params = grp.groupby("learner")["n_params"].mean()
        fit = grp.groupby("learner")["fit_s"].mean()
        peer_means = {p: wide[p].mean() for p in peers if p in wide and wide[p].notna().all()}
        best = max(peer_means, key=peer_means.get)
        d_avg = wide["SGM-avg"] - wide["SGM"]
        d_peer = wide["SGM-avg"] - wide[best]
        fewer = params["SGM-avg"] < params[best]
        goal = d_peer.mean() >= 0 or (d_peer.mean() >= -0.005 and fewer)
        lines.append(
            f"| {data} | {n} | {d_avg.mean():+.4f} ± {d_avg.std(ddof=1):.4f} | {d_peer.mean():+.4f} ± "
            f"{d_peer.std(ddof=1):.4f} | {best} | {params['SGM']:.0f} / {params['SGM-avg']:.0f} / "
            f"{params['GM']:.0f} / {params[best]:.0f} | {fit['SGM']:.1f} / {fit['GM']:.1f} / {fit[best]:.1f} "
            f"| {'met' if goal else 'missed'} |")
    return "\n".join(lines)


def kept_from_ges(ldag: pd.DataFrame) -> str:
    """How many fits kept the climb from the equivalence search's DAG (of those that recorded it)."""
    if "kept_start" not in ldag:
        return "n/a"
    known = ldag["kept_start"].dropna()
    return f"{int((known == 'ges').sum())}/{len(known)}"


def report_ldag(frame: pd.DataFrame) -> str:
    """Markdown table of the LDAG columns: nats/row, paired difference to the best pgmpy learner, parameters, time."""
    lines = ["| data | n | LDAG | LDAG-1 | HC-BDeu | HC-BIC | LDAG − best HC | params LDAG / best HC "
             "| fit s LDAG / LDAG-1 / best HC | fit ratio LDAG / best HC (max) | climbs | kept from GES | labels |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (data, n), grp in frame.groupby(["data", "n"], sort=False):
        wide = grp.pivot_table(index="seed", columns="learner", values="ll")
        if "LDAG" not in wide:
            continue
        params = grp.groupby("learner")["n_params"].mean()
        fit = grp.groupby("learner")["fit_s"].mean()
        fit_wide = grp.pivot_table(index="seed", columns="learner", values="fit_s")
        best = max(("HC-BDeu", "HC-BIC"), key=lambda p: wide[p].mean())
        diff = wide["LDAG"] - wide[best]
        ratio = fit_wide["LDAG"] / fit_wide[best]
        cells = [f"{wide[x].mean():.4f}" if x in wide else "n/a" for x in ("LDAG", "LDAG-1", "HC-BDeu", "HC-BIC")]
        ldag = grp[grp["learner"] == "LDAG"]
        lines.append(f"| {data} | {n} | " + " | ".join(cells) + f" | {diff.mean():+.4f} ± {diff.std(ddof=1):.4f} "
                     f"({best}) | {params['LDAG']:.0f} / {params[best]:.0f} | {fit['LDAG']:.1f} / "
                     f"{fit.get('LDAG-1', np.nan):.1f} / {fit[best]:.1f} | {ratio.mean():.2f} ({ratio.max():.2f}) "
                     f"| {ldag['n_visited'].mean():.1f} | {kept_from_ges(ldag)} | {ldag['n_labels'].mean():.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="asia and child, n=500, one seed, 2 folds")
    parser.add_argument("--out", default=None, help="write the raw rows to this CSV")
    parser.add_argument("--no-cstrees", dest="cstrees", action="store_false")
    parser.add_argument("--cstrees-python", default="/tmp/cstrees-venv/bin/python")
    parser.add_argument("--cstrees-timeout", type=float, default=90.0)
    parser.add_argument("--networks", nargs="*", default=list(NETWORKS))
    parser.add_argument("--skip-heart", action="store_true")
    parser.add_argument("--no-sgm", dest="sgm", action="store_false", help="skip the SGM/GM columns")
    parser.add_argument("--no-ldag", dest="ldag", action="store_false", help="skip the LDAG columns")
    parser.add_argument("--sizes", nargs="*", type=int, default=[500, 2000, 10_000])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--ldag-ess", type=float, default=None,
                        help="equivalent sample size of the LDAG columns (default: LDAGSearch's)")
    parser.add_argument(
        "--sgm-seconds",
        type=float,
        default=None,
        help="on the networks, each SGM/GM fit runs for this many seconds (n_iter=None) instead of N_ITER iterations",
    )
    args = parser.parse_args()
    args.test_n, args.folds = 10_000, 5
    if args.quick:
        args.sizes, args.seeds, args.test_n, args.folds = (500,), 1, 2000, 2
        args.networks = [n for n in args.networks if n in ("asia", "child")]
    print(f"{platform.node()}: nproc {os.cpu_count()}, Python {platform.python_version()}, pgmpy {pgmpy.__version__}, "
          f"numpy {np.__version__}, pandas {pd.__version__}; {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    if args.cstrees and not Path(args.cstrees_python).exists():
        print(f"CStree: {args.cstrees_python} not found; create it with `python -m venv /tmp/cstrees-venv && "
              "/tmp/cstrees-venv/bin/pip install cstrees` (skipped)", flush=True)
        args.cstrees = False
    rows: list = []
    start = time.perf_counter()
    if not args.skip_heart:
        run_heart(rows, args)
    run_networks(rows, args)
    frame = pd.DataFrame(rows)
    if args.out:
        frame.to_csv(args.out, index=False)
    print()
    if args.sgm:
        print(report(frame))
    if args.ldag:
        print(report_ldag(frame))
    notes = frame[frame.get("note", pd.Series(dtype=object)).notna()] if "note" in frame else frame.iloc[:0]
    for _, r in notes.drop_duplicates(["data", "note"]).iterrows():
        print(f"note: {r['data']} n={r['n']}: CStree {r['note']}")
    print(f"\ntotal {time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
