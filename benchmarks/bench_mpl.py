"""Contextual Markov networks learned by marginal pseudo-likelihood (MPLSearch) against the other learners.

Run: ``nohup python benchmarks/bench_mpl.py --out benchmarks/results_mpl.csv &`` (rows are appended as
each fit ends, and a re-run skips the settings already in the file); ``--quick`` for a smoke run;
``--report`` prints the tables of RESULTS.md from the CSV; ``--report --also OTHER.csv --baseline BASE.csv`` adds the
rows of other runs, and the ``MPL`` rows of an earlier version's run (its learners renamed ``MPL@base``,
``MPL-plain@base``) with their own "best other" column.

Data (training n in ``--sizes``, default 500, 2000, 10000; test n = 10000, another seed):

* non-chordal binary contextual Markov networks from ``_cmn_data``: ``blocks`` of 5 variables (a
  chordless 4-cycle plus a triangle carrying one context; d = 10 and 50) and checkerboard-diagonal
  grids (3x4, 4x5 and 10x10: d = 12, 20 and 100; exact samples up to d = 20, Gibbs beyond);
* the bnlearn networks asia and child (all sizes) and insurance and alarm (n = 2000 only, to keep
  the run within an hour on 2 shared cores; ``--all-sizes``: at ``--sizes`` too).

Learners, each timed on its own:

* ``MPL``: :class:`~pgmpy_sgm.causal_discovery.MPLSearch` with its defaults (contexts on), then
  ``ContextualMarkovNetwork.fit`` (cyclical projection, its default pseudo-count; ``MPL-pc1``: pseudo-count 1)
  for the held-out log-likelihood (exact, by a junction tree); ``MPL-plain``: the same with ``contexts=False``;
  ``MPL-cv``: ``MPL``'s graph fitted with ``pseudo_count="cv"`` (the pseudo-count chosen by 5-fold
  cross-validation on the training rows); ``MPL-bic``: ``MPLSearch(graph_choice="bic")`` (stage 2 by BIC);
  ``MPL-aic``: ``graph_choice="aic"`` (by AIC, the default before 2026-12-08);
* ``SGM``: ``NonReversibleMCMC`` (decomposable stratified graphs) under a 30 s budget (``max_time``),
  Bayesian parameters;
* ``LDAG``: ``LDAGSearch(n_restarts=0)`` (the GES and empty-graph climbs, no restarts);
* ``HC``: pgmpy's ``HillClimbSearch`` with BDeu, parameters by pgmpy's ``DiscreteBayesianEstimator``
  (BDeu, ESS 5);
* ``BDgraph``: R's ``BDgraph::bdgraph.mpl(method=..., algorithm="hc")`` (the MPL hill climb without contexts)
  through ``Rscript``, when ``Rscript`` and BDgraph are installed (its time is the R call's, without starting R);
  otherwise a skip message. ``method="dgm-binary"`` when every variable is binary, the same score as
  ``MPLSearch``'s; ``"dgm"`` otherwise, whose local term charges each blanket configuration for one state more
  than the variable has (``--bdgraph-term``). ``BDgraph-dgm``: ``"dgm"`` always, as the runs before 2026-12-08.

``--smoothing``: the choice of ``ContextualMarkovNetwork.fit``'s ``pseudo_count`` on data this benchmark does not
use (generating seeds 10 and 11 of blocks-10, grid-12 and grid-20; the bnlearn networks sachs, child and
insurance with training seeds 10 and 11 and test seed 2010/2011; n = 500 and 2000): the graph of
``MPLSearch()`` fitted with each pseudo-count in ``SMOOTHING_PSEUDO_COUNTS``, one line of held-out nats/row each.

``--diagnose``: on the bnlearn settings, the graphs behind the held-out gap: the MPL score, edge recall and
held-out nats/row (CMN fitted with pseudo-count 1 and 5) of the climb's graph, of the union of the pre-screened
blankets and of the moral graph, and the generating DAG as a Bayesian network (BDeu, ESS 5) on the same data.

``--graph-choice``: on the same kind of data as ``--smoothing`` (plus blocks-50, asia and alarm; seeds 10-13), every
setting where the climb's graph and the union of the blankets differ: held-out nats/row of each, and which one BIC,
AIC and 5-fold cross-validation on the training rows pick (``MPLSearch(graph_choice=...)``), then per criterion
how often it picks the graph that is better held out and the nats/row it loses against that graph in all.

``--f1-seeds``: edge F1 of ``MPLSearch`` with ``graph_choice="aic"`` (the default) and ``"bic"`` against BDgraph's
(``dgm-binary`` and ``dgm``) on the binary data of ``--graph-choice`` (blocks, grids and asia; seeds 10-13, n = 500
and 2000), all in one run.

``--bdgraph-term``: BDgraph's ``dgm`` local term against ``MPLScore``'s and against the formula with ``r`` and
``r + 1`` states.

``--heart``: the heart data instead (5 folds as in ``predictive.py``; the edge scores are against the
graph of ``NonReversibleMCMC`` on all rows), then the graphs and statements of MPL and of the SG on all
rows.

Measures: held-out log-likelihood per row (nats; not for BDgraph, which returns a graph only),
free parameters, fit seconds, and edge precision / recall / F1 against the generating undirected
graph (the moral graph of a bnlearn network; a learned DAG is compared through its moral graph, the
Markov network with its independencies).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd
from pgmpy.causal_discovery import HillClimbSearch
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.parameter_estimator import DiscreteBayesianEstimator
from pgmpy.structure_score import BDeu

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _cmn_data  # noqa: E402
from predictive import as_categories, bn_free_parameters, bn_log_likelihood, load_network, network_states  # noqa: E402

from pgmpy_sgm import load_heart_disease  # noqa: E402
from pgmpy_sgm.causal_discovery import LDAGSearch, MPLSearch, NonReversibleMCMC  # noqa: E402
from pgmpy_sgm.models import ContextualMarkovNetwork, StratifiedGraphicalModel  # noqa: E402

warnings.filterwarnings("ignore")

SGM_SECONDS = 30.0
TEST_N = 10_000
COLUMNS = ["data", "d", "n", "seed", "learner", "ll", "n_params", "fit_s", "precision", "recall", "f1",
           "n_contexts", "sampler", "note"]


# -- data ---------------------------------------------------------------------------------
def cmn_settings(quick: bool) -> list:
    shapes = [("blocks", 2), ("grid", (3, 4)), ("grid", (4, 5)), ("blocks", 10), ("grid", (10, 10))]
    return shapes[:2] if quick else shapes


def make_cmn(kind: str, size, seed: int):
    return _cmn_data.blocks(size, seed) if kind == "blocks" else _cmn_data.grid(*size, seed)


def moral_graph(dag_edges, nodes) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(nodes)
    g.add_edges_from(dag_edges)
    parents: dict = {}
    for u, v in dag_edges:
        parents.setdefault(v, []).append(u)
    for ps in parents.values():
        g.add_edges_from((a, b) for i, a in enumerate(ps) for b in ps[i + 1:])
    return g


def edge_scores(learned: nx.Graph, true: nx.Graph) -> dict:
    got = {frozenset(e) for e in learned.edges()}
    want = {frozenset(e) for e in true.edges()}
    tp = len(got & want)
    precision = tp / len(got) if got else 1.0
    recall = tp / len(want) if want else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


# -- learners -----------------------------------------------------------------------------
#: Above this many variables the CMN's held-out likelihood is not computed: on the 10 x 10 grid its
#: fit and junction-tree likelihood took 494 s (the first run of this benchmark).
MAX_LIKELIHOOD_VARIABLES = 50


def fit_mpl(train, test, states, contexts: bool, pseudo_count: float | str | None = None,
            graph_choice: str | None = None) -> tuple[dict, nx.Graph]:  # fmt: skip
    start = time.perf_counter()
    choice = {} if graph_choice is None else {"graph_choice": graph_choice}  # None: MPLSearch's default
    est = MPLSearch(seed=0, contexts=contexts, state_names=states, **choice).fit(train)
    fit_s = time.perf_counter() - start
    row = {"fit_s": fit_s, "n_contexts": sum(len(c) for c in est.contexts_.values()),
           "note": f"graph={getattr(est, 'graph_rule_', 'global')} added={len(getattr(est, 'added_edges_', []))}"}
    if train.shape[1] > MAX_LIKELIHOOD_VARIABLES:
        return {**row, "ll": np.nan, "n_params": est.model_.n_free_parameters(),
                "note": "likelihood not computed (too slow above 50 variables)"}, est.graph_
    try:
        options = {} if pseudo_count is None else {"pseudo_count": pseudo_count}
        model = est.model_.fit(train, state_names=states, **options)
        row.update(ll=model.log_likelihood(test) / len(test), n_params=model.n_free_parameters())
        if pseudo_count == "cv":
            row["note"] += f" pc={model.pseudo_count_:g}"
    except (MemoryError, ValueError) as err:  # a junction tree too large to build
        row.update(ll=np.nan, n_params=np.nan, note=f"no likelihood: {str(err)[:80]}")
    row["param_fit_s"] = time.perf_counter() - start - fit_s
    return row, est.graph_


def fit_sgm(train, test, states) -> tuple[dict, nx.Graph]:
    start = time.perf_counter()
    est = NonReversibleMCMC(max_time=SGM_SECONDS, n_iter=None, seed=0, state_names=states,
                            show_progress=False).fit(train)  # fmt: skip
    model = StratifiedGraphicalModel(est.model_).fit(train, estimator="bayes", state_names=states)
    row = {"fit_s": time.perf_counter() - start, "ll": model.log_likelihood(test) / len(test),
           "n_params": model.n_free_parameters(), "n_contexts": est.model_.n_labels()}
    return row, nx.Graph(est.model_.edges())


def fit_ldag(train, test, states) -> tuple[dict, nx.Graph]:
    start = time.perf_counter()
    est = LDAGSearch(n_restarts=0, seed=0, state_names=states, show_progress=False).fit(train)
    row = {"fit_s": time.perf_counter() - start, "ll": bn_log_likelihood(est.model_, test).mean(),
           "n_params": est.model_.n_free_parameters(), "n_contexts": est.model_.n_labels()}
    return row, moral_graph(list(est.model_.edges()), list(train.columns))


def fit_hc(train, test, states) -> tuple[dict, nx.Graph]:
    start = time.perf_counter()
    dag = HillClimbSearch(scoring_method=BDeu(train, state_names=states), return_type="dag",
                          show_progress=False).fit(train).causal_graph_  # fmt: skip
    bn = DiscreteBayesianNetwork(dag.edges())
    bn.add_nodes_from(train.columns)
    bn.add_cpds(*DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=5,
                                           state_names=states).fit(bn, train).parameters_)  # fmt: skip
    row = {"fit_s": time.perf_counter() - start, "ll": bn_log_likelihood(bn, test).mean(),
           "n_params": bn_free_parameters(bn), "n_contexts": 0}
    return row, moral_graph(list(dag.edges()), list(train.columns))


_R_SCRIPT = """
suppressMessages(library(BDgraph))
args <- commandArgs(trailingOnly = TRUE)
d <- as.matrix(read.csv(args[1]))
method <- args[4]
t0 <- Sys.time()
r <- tryCatch(bdgraph.mpl(data = d, method = method, algorithm = "hc", verbose = FALSE),
              error = function(e) NULL)
if (is.null(r)) {
  r <- bdgraph.mpl(data = d, method = method, algorithm = "bdmcmc", iter = 5000, verbose = FALSE)
  g <- BDgraph::select(r)
  how <- "bdmcmc"
} else {
  g <- r$selected_graph
  how <- "hc"
}
secs <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
write.csv(data.frame(i = row(g)[g > 0], j = col(g)[g > 0]), args[2], row.names = FALSE)
cat(secs, how, "\\n", file = args[3])
"""


def bdgraph_available() -> bool:
    if shutil.which("Rscript") is None:
        return False
    probe = subprocess.run(["Rscript", "-e", "suppressMessages(library(BDgraph))"], capture_output=True, timeout=120)
    return probe.returncode == 0


def bdgraph_method(states: dict) -> str:
    """``"dgm-binary"`` when every variable is binary, else ``"dgm"``.

    BDgraph 2.72's ``"dgm"`` local term charges each configuration of a blanket for one state more than the
    variable has (``alpha_jl = (r + 1) alpha``; ``--bdgraph-term`` checks this against the formula), a larger
    price per blanket configuration than the pseudo-likelihood's; its ``"dgm-binary"`` term is the formula itself.
    So binary data go to ``"dgm-binary"``, the same score as ``MPLSearch``'s; multi-state data can only go to
    ``"dgm"``.
    """
    return "dgm-binary" if all(len(s) == 2 for s in states.values()) else "dgm"


def fit_bdgraph(train, states, method: str | None = None) -> tuple[dict, nx.Graph]:
    """BDgraph's MPL hill climb through ``Rscript``, with ``method`` (default: :func:`bdgraph_method`)."""
    method = bdgraph_method(states) if method is None else method
    columns = list(train.columns)
    codes = pd.DataFrame({c: train[c].astype(object).map({s: i for i, s in enumerate(states[c])}).astype(int)
                          for c in columns})  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        codes.to_csv(f"{tmp}/data.csv", index=False)
        Path(f"{tmp}/run.R").write_text(_R_SCRIPT)
        proc = subprocess.run(["Rscript", f"{tmp}/run.R", f"{tmp}/data.csv", f"{tmp}/edges.csv", f"{tmp}/time.txt",
                               method], capture_output=True, text=True, timeout=3600)  # fmt: skip
        if proc.returncode != 0:
            raise RuntimeError((proc.stderr.strip().splitlines() or ["?"])[-1][:200])
        secs, how = Path(f"{tmp}/time.txt").read_text().split()[:2]
        edges = pd.read_csv(f"{tmp}/edges.csv")
    g = nx.Graph()
    g.add_nodes_from(columns)
    g.add_edges_from((columns[i - 1], columns[j - 1]) for i, j in zip(edges["i"], edges["j"], strict=True) if i != j)
    return {"fit_s": float(secs), "ll": np.nan, "n_params": np.nan, "note": f"method={method} algorithm={how}"}, g


_TERM_SCRIPT = """
suppressMessages(library(BDgraph))
args <- commandArgs(trailingOnly = TRUE)
d <- as.matrix(read.csv(args[1]))
p <- ncol(d)
t <- BDgraph::transfer(r_data = d)
freq <- t[, p + 1]
x <- t[, 1:p]
ranges <- apply(x, 2, max) + 1
for (k in 1:4) cat(BDgraph:::log_mpl_disrete(1, 2:(k + 1), x, freq, ranges, p, sum(freq), alpha = 0.5), "\\n")
"""


def run_bdgraph_term() -> None:
    """BDgraph's ``"dgm"`` local term against the pseudo-likelihood's formula, with ``r`` and with ``r + 1`` states.

    Binary data of blocks-10 (seed 13, n = 500): the term of the first variable given the next 1, 2, ... variables,
    from ``BDgraph:::log_mpl_disrete`` (what ``method="dgm"`` climbs on), from ``MPLScore.local_score`` and from the
    formula computed here with ``scipy.special.gammaln`` for ``r`` and ``r + 1`` states (alpha 0.5 per state);
    blankets of 1 to 4 variables.
    """
    from scipy.special import gammaln

    from pgmpy_sgm.structure_score import MPLScore

    if not bdgraph_available():
        print("BDgraph: skipped (Rscript or the R package BDgraph is not installed; Debian: r-cran-bdgraph)")
        return
    train = _cmn_data.sample(make_cmn("blocks", 10, 13), 500, 13)[0]
    columns = list(train.columns)
    with tempfile.TemporaryDirectory() as tmp:
        train.astype(int).to_csv(f"{tmp}/data.csv", index=False)
        Path(f"{tmp}/term.R").write_text(_TERM_SCRIPT)
        proc = subprocess.run(["Rscript", f"{tmp}/term.R", f"{tmp}/data.csv"], capture_output=True, text=True,
                              timeout=600, check=True)  # fmt: skip
    theirs = [float(v) for v in proc.stdout.split()]
    score = MPLScore(train)

    def formula(blanket: list, states: int) -> float:
        counts = train.groupby(blanket + [columns[0]]).size().unstack(fill_value=0).to_numpy(float)
        return float(np.sum(gammaln(states * 0.5) - gammaln(counts.sum(axis=1) + states * 0.5)
                            + np.sum(gammaln(counts + 0.5) - gammaln(0.5), axis=1)))  # fmt: skip

    print("| blanket size | BDgraph dgm | MPLScore | formula, r states | formula, r + 1 states |")
    print("|---|---|---|---|---|")
    for k, value in enumerate(theirs, start=1):
        blanket = columns[1:k + 1]
        print(f"| {k} | {value:.6f} | {score.local_score(columns[0], tuple(blanket)):.6f} | {formula(blanket, 2):.6f} "
              f"| {formula(blanket, 3):.6f} |")


# -- driver -------------------------------------------------------------------------------
def run_setting(tag: dict, train, test, states, truth: nx.Graph, learners: list, out: Path) -> None:
    for name, fit in learners:
        try:
            row, graph = fit(train, test, states)
        except Exception as err:  # noqa: BLE001 - a learner's failure is a result, recorded as such
            row, graph = {"note": f"failed: {type(err).__name__}: {str(err)[:120]}"}, None
        if graph is not None:
            row.update(edge_scores(graph, truth))
        full = {**tag, "learner": name, **row}
        pd.DataFrame([full]).reindex(columns=COLUMNS + ["param_fit_s"]).to_csv(
            out, mode="a", header=not out.exists(), index=False)
        ll = full.get("ll", np.nan)
        print(f"  {name:10s} ll={ll:9.4f} f1={full.get('f1', np.nan):.3f} params={full.get('n_params', np.nan)} "
              f"fit={full.get('fit_s', np.nan):.1f}s {full.get('note', '')}", flush=True)


def learners(with_bdgraph: bool, d: int, only: list | None = None) -> list:
    out = [("MPL", lambda tr, te, st: fit_mpl(tr, te, st, True)),
           ("MPL-plain", lambda tr, te, st: fit_mpl(tr, te, st, False)),
           ("MPL-pc1", lambda tr, te, st: fit_mpl(tr, te, st, True, pseudo_count=1.0)),
           ("MPL-cv", lambda tr, te, st: fit_mpl(tr, te, st, True, pseudo_count="cv")),
           ("MPL-bic", lambda tr, te, st: fit_mpl(tr, te, st, True, graph_choice="bic")),
           ("MPL-aic", lambda tr, te, st: fit_mpl(tr, te, st, True, graph_choice="aic")),
           ("SGM", fit_sgm), ("LDAG", fit_ldag), ("HC", fit_hc)]
    if with_bdgraph:
        out.append(("BDgraph", lambda tr, te, st: fit_bdgraph(tr, st)))
        out.append(("BDgraph-dgm", lambda tr, te, st: fit_bdgraph(tr, st, "dgm")))
    return [x for x in out if only is None or x[0] in only]


def run_heart(out: Path, with_bdgraph: bool) -> None:
    """5-fold held-out log-likelihood on the heart data (folds as in predictive.py), then the full-data models."""
    data = load_heart_disease()
    states = {c: [0, 1] for c in data.columns}
    folds = np.array_split(np.random.default_rng(0).permutation(len(data)), 5)
    sgm_graph = nx.Graph(NonReversibleMCMC(n_iter=2000, seed=0, show_progress=False).fit(data).model_.edges())
    for k, test_idx in enumerate(folds):
        train = data.drop(index=data.index[test_idx]).reset_index(drop=True)
        test = data.iloc[test_idx].reset_index(drop=True)
        print(f"heart fold {k}", flush=True)
        tag = {"data": "heart", "d": 6, "n": len(train), "seed": k, "sampler": "5-fold"}
        run_setting(tag, train, test, states, sgm_graph, learners(with_bdgraph, 6), out)
    mpl = MPLSearch(seed=0).fit(data)
    sgm = NonReversibleMCMC(n_iter=2000, seed=0, show_progress=False).fit(data)
    print("heart, all rows: MPL edges", sorted(mpl.graph_.edges()))
    print("  MPL statements:", [str(s) for s in mpl.model_.independencies()])
    print("  SG edges", sorted(sgm.model_.edges()))
    print("  SG statements:", [str(s) for s in sgm.model_.independencies()])


def run_diagnose() -> None:
    """Climb's graph, union of the blankets and moral graph: MPL score, recall, held-out fit; the true DAG as a BN."""
    from pgmpy_sgm.causal_discovery._mpl_steps import Deadline, climb_edges

    print("| data | n | graph | edges | recall | MPL score | nats/row, pc 1 | nats/row, pc 5 |")
    print("|---|---|---|---|---|---|---|---|")
    for name, ns in (("asia", (500, 2000, 10_000)), ("child", (500, 2000, 10_000)), ("insurance", (2000,)),
                     ("alarm", (2000,))):  # fmt: skip
        bn = load_network(name)
        states = network_states(bn)
        moral = moral_graph(list(bn.edges()), list(bn.nodes()))
        test = as_categories(bn.simulate(TEST_N, seed=1000, show_progress=False), states)
        for n in ns:
            train = as_categories(bn.simulate(n, seed=0, show_progress=False), states)
            train, test = train[sorted(train.columns)], test[sorted(test.columns)]
            est = MPLSearch(contexts=False, state_names=states).fit(train)
            climbed, _ = climb_edges(est.scorer_, est.candidate_edges_, Deadline(None))
            union = nx.Graph(est.candidate_edges_)
            union.add_nodes_from(train.columns)
            for label, graph in (("climb", climbed), ("union of blankets", union), ("moral (truth)", moral)):
                cells = []
                for pseudo_count in (1.0, 5.0):
                    model = ContextualMarkovNetwork(list(graph.edges()), nodes=list(train.columns), state_names=states)
                    model.fit(train, state_names=states, pseudo_count=pseudo_count)
                    cells.append(f"{model.log_likelihood(test) / len(test):.4f}")
                recall = edge_scores(graph, moral)["recall"]
                print(f"| {name} | {n} | {label} | {graph.number_of_edges()} | {recall:.2f} "
                      f"| {est.scorer_.score(graph):.1f} | " + " | ".join(cells) + " |", flush=True)
            dag = DiscreteBayesianNetwork(bn.edges())
            dag.add_nodes_from(bn.nodes())
            dag.add_cpds(*DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=5,
                                                    state_names=states).fit(dag, train).parameters_)  # fmt: skip
            print(f"| {name} | {n} | true DAG as a BN (BDeu, ESS 5; {bn_free_parameters(dag)} parameters) | "
                  f"{bn.number_of_edges()} | | | {bn_log_likelihood(dag, test).mean():.4f} | |", flush=True)


SMOOTHING_PSEUDO_COUNTS = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0)


def run_smoothing() -> None:
    """Held-out nats/row of the MPL graph fitted with each pseudo-count, on data the benchmark does not use."""
    sets = []
    for seed in (10, 11):
        for kind, size in (("blocks", 2), ("grid", (3, 4)), ("grid", (4, 5))):
            model = make_cmn(kind, size, seed)
            nodes = sorted(model[0].nodes())
            test, _ = _cmn_data.sample(model, TEST_N, seed=2000 + seed)
            for n in (500, 2000):
                sets.append((f"{kind}-{len(nodes)}", seed, n, _cmn_data.sample(model, n, seed)[0], test,
                             {v: [0, 1] for v in nodes}))  # fmt: skip
        for name in ("sachs", "child", "insurance"):
            bn = load_network(name)
            states = network_states(bn)
            test = as_categories(bn.simulate(TEST_N, seed=2000 + seed, show_progress=False), states)
            for n in (500, 2000):
                train = as_categories(bn.simulate(n, seed=seed, show_progress=False), states)
                sets.append((name, seed, n, train[sorted(train.columns)], test[sorted(test.columns)], states))
    print("| data | seed | n | graph | " + " | ".join(f"pc {c:g}" for c in SMOOTHING_PSEUDO_COUNTS) + " |")
    print("|---|---|---|---|" + "---|" * len(SMOOTHING_PSEUDO_COUNTS))
    for name, seed, n, train, test, states in sets:
        est = MPLSearch(seed=0, state_names=states).fit(train)
        cells = []
        for pseudo_count in SMOOTHING_PSEUDO_COUNTS:
            model = est.model_.copy().fit(train, state_names=states, pseudo_count=pseudo_count)
            cells.append(f"{model.log_likelihood(test) / len(test):.4f}")
        print(f"| {name} | {seed} | {n} | {est.graph_rule_} | " + " | ".join(cells) + " |", flush=True)


#: Generating seeds of ``--graph-choice`` (the main run uses seed 0).
CHOICE_SEEDS = (10, 11, 12, 13)


def run_graph_choice() -> None:
    """Climb's graph or union of the blankets, by BIC, AIC and cross-validation, on data the benchmark does not use."""
    from pgmpy_sgm.causal_discovery._mpl_steps import Deadline, climb_edges, graph_aic, graph_bic, graph_cv

    print("| data | seed | n | edges climb / union | held out, union − climb | BIC, union − climb "
          "| AIC nats/row, union − climb | CV nats/row, union − climb | BIC picks | AIC picks | CV picks |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    tally = {c: [0, 0.0] for c in ("BIC", "AIC", "CV", "auto")}  # picks of the graph better held out, nats/row lost
    compared = 0
    for seed in CHOICE_SEEDS:
        sets = []
        for kind, size in (("blocks", 2), ("grid", (3, 4)), ("grid", (4, 5)), ("blocks", 10)):
            model = make_cmn(kind, size, seed)
            nodes = sorted(model[0].nodes())
            test, _ = _cmn_data.sample(model, TEST_N, seed=2000 + seed)
            sets += [(f"{kind}-{len(nodes)}", n, _cmn_data.sample(model, n, seed)[0], test, {v: [0, 1] for v in nodes})
                     for n in (500, 2000)]  # fmt: skip
        for name in ("asia", "child", "insurance", "sachs", "alarm"):
            bn = load_network(name)
            states = network_states(bn)
            test = as_categories(bn.simulate(TEST_N, seed=2000 + seed, show_progress=False), states)
            for n in (500, 2000):
                train = as_categories(bn.simulate(n, seed=seed, show_progress=False), states)
                sets.append((name, n, train[sorted(train.columns)], test[sorted(test.columns)], states))
        for name, n, train, test, states in sets:
            est = MPLSearch(contexts=False, edge_additions=False, state_names=states).fit(train)
            score = est.scorer_
            climbed, _ = climb_edges(score, est.candidate_edges_, Deadline(None))
            union = nx.Graph(est.candidate_edges_)
            union.add_nodes_from(climbed.nodes())
            if {frozenset(e) for e in union.edges()} == {frozenset(e) for e in climbed.edges()}:
                continue
            held = []
            for graph in (climbed, union):
                model = ContextualMarkovNetwork(list(graph.edges()), nodes=list(train.columns), state_names=states)
                held.append(model.fit(train, state_names=states).log_likelihood(test) / len(test))
            gain = held[1] - held[0]
            diffs = {"BIC": graph_bic(score, union) - graph_bic(score, climbed),
                     "AIC": graph_aic(score, union) - graph_aic(score, climbed),
                     "CV": graph_cv(score, union) - graph_cv(score, climbed)}  # fmt: skip
            diffs["auto"] = diffs[est.graph_criterion_.upper()]  # the criterion MPLSearch's default used on these data
            compared += 1
            for criterion, diff in diffs.items():
                tally[criterion][0] += (diff > 0) == (gain > 0)
                tally[criterion][1] += max(gain, 0.0) - (gain if diff > 0 else 0.0)
            picks = " | ".join("union" if diffs[c] > 0 else "climb" for c in ("BIC", "AIC", "CV"))
            print(f"| {name} | {seed} | {n} | {climbed.number_of_edges()} / {union.number_of_edges()} "
                  f"| {gain:+.4f} | {diffs['BIC']:+.1f} | {diffs['AIC']:+.4f} | {diffs['CV']:+.4f} | {picks} |",
                  flush=True)
    print()
    for criterion, (right, lost) in tally.items():
        print(f"{criterion}: the graph better held out on {right} of {compared}; {lost:.4f} nats/row lost in all")


def run_f1_seeds() -> None:
    """Edge F1 of MPLSearch by AIC and by BIC in stage 2 against BDgraph's, on binary data the main run does not use.

    The data of ``--graph-choice`` that BDgraph runs on without crashing (the non-chordal blocks and grids and
    asia; generating seeds :data:`CHOICE_SEEDS`, n = 500 and 2000): per criterion, the settings where its F1 is
    at least BDgraph's, the mean F1 of each learner and the settings it loses.
    """
    if not bdgraph_available():
        print("BDgraph: skipped (Rscript or the R package BDgraph is not installed; Debian: r-cran-bdgraph)")
        return
    rows = []
    for seed in CHOICE_SEEDS:
        sets = []
        for kind, size in (("blocks", 2), ("grid", (3, 4)), ("grid", (4, 5)), ("blocks", 10)):
            model = make_cmn(kind, size, seed)
            nodes = sorted(model[0].nodes())
            sets += [(f"{kind}-{len(nodes)}", n, _cmn_data.sample(model, n, seed)[0], {v: [0, 1] for v in nodes},
                      model[0]) for n in (500, 2000)]  # fmt: skip
        bn = load_network("asia")
        states, moral = network_states(bn), moral_graph(list(bn.edges()), list(bn.nodes()))
        for n in (500, 2000):
            train = as_categories(bn.simulate(n, seed=seed, show_progress=False), states)
            sets.append(("asia", n, train[sorted(train.columns)], states, moral))
        for name, n, train, states, truth in sets:
            row = {"data": name, "seed": seed, "n": n}
            for criterion in ("aic", "bic"):
                est = MPLSearch(seed=0, graph_choice=criterion, state_names=states).fit(train)
                row[criterion] = edge_scores(est.graph_, truth)["f1"]
            row["BDgraph"] = edge_scores(fit_bdgraph(train, states)[1], truth)["f1"]
            row["BDgraph-dgm"] = edge_scores(fit_bdgraph(train, states, "dgm")[1], truth)["f1"]
            rows.append(row)
            print(f"{name} seed {seed} n={n}: F1 AIC {row['aic']:.3f}, BIC {row['bic']:.3f}, "
                  f"BDgraph {row['BDgraph']:.3f} (dgm: {row['BDgraph-dgm']:.3f})", flush=True)
    frame = pd.DataFrame(rows)
    print(f"\nmean F1: AIC {frame['aic'].mean():.4f}, BIC {frame['bic'].mean():.4f}, "
          f"BDgraph {frame['BDgraph'].mean():.4f} (dgm: {frame['BDgraph-dgm'].mean():.4f}; {len(frame)} settings)")
    for criterion in ("aic", "bic"):
        lost = frame[frame[criterion] < frame["BDgraph"]]
        print(f"graph_choice={criterion!r}: F1 >= BDgraph's on {len(frame) - len(lost)} of {len(frame)}; below on "
              + (", ".join(f"{r.data} seed {r.seed} n={r.n} ({r[criterion]:.3f} / {r.BDgraph:.3f})"
                           for _, r in lost.iterrows()) or "none"))


def done(out: Path) -> set:
    if not out.exists():
        return set()
    frame = pd.read_csv(out)
    return {(r.data, int(r.n), int(r.seed)) for r in frame.itertuples()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "results_mpl.csv")
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 2000, 10_000])
    parser.add_argument("--large-sizes", type=int, nargs="+", default=None,
                        help="training sizes for the 100-variable grid (default: --sizes)")
    parser.add_argument("--learners", nargs="+", default=["MPL", "MPL-plain", "SGM", "LDAG", "HC", "BDgraph"],
                        help="only these learners (names as in the tables; MPL-pc1, the CMN fitted with pseudo-count 1,"
                             " the earlier default, and MPL-cv, pseudo-count by cross-validation, run only when named)")
    parser.add_argument("--data", nargs="+", default=None, help="only these data sets (e.g. grid-100 asia)")
    parser.add_argument("--all-sizes", action="store_true", help="insurance and alarm at --sizes too (else 2000 only)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--also", type=Path, nargs="*", default=[],
                        help="with --report: more result files (a data set, n and learner already read is skipped)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="with --report: results of an earlier version (its MPL rows shown as MPL@base)")
    parser.add_argument("--heart", action="store_true", help="only the heart-data comparison")
    parser.add_argument("--smoothing", action="store_true", help="only the choice of the fit's pseudo-count")
    parser.add_argument("--diagnose", action="store_true", help="only the graphs behind the bnlearn held-out gap")
    parser.add_argument("--bdgraph-term", action="store_true",
                        help="only BDgraph's dgm local term against the formula with r and r + 1 states")
    parser.add_argument("--f1-seeds", action="store_true",
                        help="only F1 of stage 2 by AIC and by BIC against BDgraph's on binary data of other seeds")
    parser.add_argument("--graph-choice", action="store_true",
                        help="only the choice between the climb's graph and the union of the blankets: BIC, AIC, CV")
    args = parser.parse_args()
    if args.report:
        frames = [pd.read_csv(args.out)]
        for extra in args.also:  # rows of a (data, n, learner) already read are not read again
            keys = ["data", "n", "learner"]
            seen = set(pd.concat(frames)[keys].itertuples(index=False, name=None))
            more = pd.read_csv(extra)
            frames.append(more[[k not in seen for k in more[keys].itertuples(index=False, name=None)]])
        if args.baseline is not None:
            base = pd.read_csv(args.baseline)
            frames.append(base[base["learner"].str.startswith("MPL")].assign(learner=lambda f: f["learner"] + "@base"))
        print(report(pd.concat(frames, ignore_index=True)))
        return
    if args.smoothing:
        run_smoothing()
        return
    if args.diagnose:
        run_diagnose()
        return
    if args.graph_choice:
        run_graph_choice()
        return
    if args.f1_seeds:
        run_f1_seeds()
        return
    if args.bdgraph_term:
        run_bdgraph_term()
        return
    with_bdgraph = bdgraph_available()
    if not with_bdgraph:
        print("BDgraph: skipped (Rscript or the R package BDgraph is not installed; Debian: r-cran-bdgraph)")
    if args.heart:
        run_heart(args.out, with_bdgraph)
        return
    sizes = [500] if args.quick else args.sizes
    finished = done(args.out)
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}", flush=True)
    # imports and the compiled kernels' loading out of the first timed fit (R loads BDgraph outside its timing):
    # a fit of two columns loads the counting kernels, one of two blocks of another seed those of the contexts'
    # partitions and of the whole-table fits
    MPLSearch(seed=0).fit(pd.DataFrame({"a": [0, 1, 0, 1, 1, 0] * 5, "b": [0, 1, 1, 1, 1, 0] * 5}))
    MPLSearch(seed=0).fit(_cmn_data.sample(_cmn_data.blocks(2, seed=99), 500, seed=99)[0])
    # and a fit of categorical columns, as the bnlearn data are (their first fit carried a one-time ~0.3 s before)
    categorical = _cmn_data.sample(_cmn_data.blocks(2, seed=98), 500, seed=98)[0].astype(str).astype("category")
    MPLSearch(seed=0).fit(categorical)
    for kind, size in cmn_settings(args.quick):
        model = make_cmn(kind, size, seed=0)
        truth, nodes = model[0], sorted(model[0].nodes())
        name = f"{kind}-{len(nodes)}"
        if args.data and name not in args.data:
            continue
        states = {v: [0, 1] for v in nodes}
        test, _ = _cmn_data.sample(model, TEST_N, seed=1000)
        for n in (args.large_sizes or sizes) if len(nodes) >= 100 else sizes:
            if (name, n, 0) in finished:
                continue
            train, how = _cmn_data.sample(model, n, seed=0)
            print(f"{name} n={n} ({how})", flush=True)
            tag = {"data": name, "d": len(nodes), "n": n, "seed": 0, "sampler": how}
            run_setting(tag, train, test, states, truth, learners(with_bdgraph, len(nodes), args.learners), args.out)
    large = sizes if args.all_sizes else [2000]
    networks = [("asia", sizes), ("child", sizes)] + ([] if args.quick else [("insurance", large), ("alarm", large)])
    for name, ns in networks:
        if args.data and name not in args.data:
            continue
        bn = load_network(name)
        states = network_states(bn)
        truth = moral_graph(list(bn.edges()), list(bn.nodes()))
        test = as_categories(bn.simulate(TEST_N, seed=1000, show_progress=False), states)
        for n in ns:
            if (name, n, 0) in finished:
                continue
            train = as_categories(bn.simulate(n, seed=0, show_progress=False), states)
            train, test = train[sorted(train.columns)], test[sorted(test.columns)]
            print(f"{name} n={n}", flush=True)
            tag = {"data": name, "d": len(states), "n": n, "seed": 0, "sampler": "bnlearn"}
            run_setting(tag, train, test, states, truth, learners(with_bdgraph, len(states), args.learners), args.out)


def _cell(value, fmt: str) -> str:
    return "n/a" if pd.isna(value) else format(value, fmt)


def report(frame: pd.DataFrame) -> str:
    """Markdown: held-out nats/row (free parameters), then edge F1 (fit seconds), one row per data set and n."""
    order = ["MPL@base", "MPL-plain@base", "MPL", "MPL-plain", "MPL-pc1", "MPL-cv", "MPL-bic", "MPL-aic", "SGM", "LDAG",
             "HC", "BDgraph", "BDgraph-dgm"]
    names = [x for x in order if x in set(frame["learner"])]
    frame = frame.assign(key=frame["data"] + " | " + frame["n"].astype(str))
    keys = list(dict.fromkeys(frame["key"]))
    gaps = [x for x in ("MPL@base", "MPL", "MPL-pc1", "MPL-cv", "MPL-bic", "MPL-aic") if x in names]
    shown = [x for x in names if not x.startswith("BDgraph")]
    first = ["| data | n | " + " | ".join(shown) + "".join(f" | {x} − best other" for x in gaps) + " |",
             "|---|---|" + "---|" * (len(shown) + len(gaps))]
    second = ["| data | n | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for key in keys:
        part = frame[frame["key"] == key].groupby("learner").mean(numeric_only=True)
        cells = [f"{_cell(part.loc[x, 'll'], '.4f')} ({_cell(part.loc[x, 'n_params'], '.0f')})" if x in part.index
                 else "–" for x in names if not x.startswith("BDgraph")]  # fmt: skip
        others = [part.loc[x, "ll"] for x in ("SGM", "LDAG", "HC") if x in part.index and pd.notna(part.loc[x, "ll"])]
        gap = [part.loc[x, "ll"] - max(others) if x in part.index and others else np.nan for x in gaps]
        first.append(f"| {key} | " + " | ".join(cells) + "".join(f" | {_cell(g, '+.4f')}" for g in gap) + " |")
        cells = [f"{_cell(part.loc[x, 'f1'], '.3f')} ({_cell(part.loc[x, 'fit_s'], '.1f')} s)" if x in part.index
                 else "–" for x in names]  # fmt: skip
        second.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(first) + "\n\n" + "\n".join(second) + "\n\n" + goal_counts(frame)


def goal_counts(frame: pd.DataFrame) -> str:
    """For each MPL learner: on how many settings with a BDgraph result its F1 is at least BDgraph's at equal or
    lower search seconds (the seconds as recorded, unrounded)."""
    mean = frame.groupby(["data", "n", "learner"])[["f1", "fit_s"]].mean()
    lines = []
    for learner in ("MPL@base", "MPL", "MPL-plain@base", "MPL-plain", "MPL-bic", "MPL-aic"):
        held, total = [], 0
        for (data, n, name), other in mean.iterrows():
            if name != "BDgraph" or pd.isna(other["f1"]) or (data, n, learner) not in mean.index:
                continue
            own = mean.loc[(data, n, learner)]
            total += 1
            if own["f1"] >= other["f1"] and own["fit_s"] <= other["fit_s"]:
                held.append(f"{data} {n}")
        if total:
            lines.append(f"{learner}: F1 >= BDgraph's at <= its seconds on {len(held)} of {total} settings "
                         f"({', '.join(held)})")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
