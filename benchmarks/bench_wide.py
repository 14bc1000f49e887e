"""LDAGSearch against pgmpy's HillClimbSearch (BDeu and BIC) on the large networks shipped with pgmpy.

Run: ``python benchmarks/bench_wide.py [--networks andes diabetes] [--cap 3600] [--ldag-max-time S]
[--parallel] [--out FILE.csv]``

Networks: hepar2 (70 variables), win95pts (76), pathfinder (109), munin1 (186), andes (223), diabetes
(413), pigs (441), link (724), munin (1,041), read with
pgmpy's ``BIFReader`` from the files in pgmpy's wheel (``pgmpy/utils/example_models``; no download).
Data: n = 5000 training rows simulated with seed 0 and 10,000 fresh test rows with seed 1 (columns
sorted, category dtype with the network's states).

Learners, each in its own process (so that peak memory is its own and a time cap can stop it):

* ``LDAG``: ``LDAGSearch`` with its defaults (``seed=0``; ``--ldag-max-time`` adds a ``max_time``);
  ``LDAG-noswaps``: the same with ``parent_swaps=False`` (the search before parent swaps);
  ``LDAG-nowiden``: the same with ``widen_candidates=False`` (the screening of pairs alone);
  ``LDAG-noscreen``: the same with ``screen_moves=False``; ``LDAG-turns``: with ``turn_budget=4.0`` (the
  turns of up to 64 variables, off beyond by default); ``LDAG-pylabels``: the defaults with the labellings of 17-64
  parent configurations found by the Python local search (``_label_search.local_search``, with the scalar class
  weight ``bdeu_groups._one_class_weight``) instead of its compiled twin: the baseline of the compiled search;
  ``LDAG-labels512``: families of up to 512 parent configurations labelled
  (``LDAGScoreSettings(max_labelled_configs=512)``; the default labels families of at most 64);
  ``LDAG-table<K>n``: families of at most ``K n`` cells (the default is ``16 n``); ``LDAG-oldtable``: families of
  at most ``max(2**22, 16 n)`` cells, the limit before 2026-11-28;
* ``HC-BDeu`` / ``HC-BIC``: pgmpy's ``HillClimbSearch`` with pgmpy's ``BDeu`` (ESS 10, its default) /
  ``BIC``, parameters by pgmpy's ``DiscreteBayesianEstimator`` (BDeu prior, ESS 5), as in
  ``predictive.py``.

A learner still running after ``--cap`` seconds (wall clock) is stopped and reported as capped.
Printed per learner: wall and CPU seconds of the fit (structure and parameters), held-out
log-likelihood per test row (nats), free parameters, peak resident memory of its process (MB, from
``getrusage``), and the ratios of LDAG's wall and CPU time to the faster hill climb's.
``--parallel`` runs the three learners at once (the CPU times stay comparable; wall times then
share the cores). ``--hc-progress`` shows the hill climbs' progress bars (iterations, one per edge change) on
stderr, to follow a climb that runs for hours.
"""

from __future__ import annotations

import argparse
import gzip
import math
import multiprocessing as mp
import os
import platform
import resource
import time
import warnings
from pathlib import Path

import bench_local_search
import pandas as pd
import pgmpy
from pgmpy.causal_discovery import HillClimbSearch
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.parameter_estimator import DiscreteBayesianEstimator
from pgmpy.readwrite import BIFReader
from pgmpy.structure_score import BIC, BDeu
from predictive import as_categories, bn_free_parameters, bn_log_likelihood, network_states

from pgmpy_sgm.causal_discovery import LDAGSearch, _dag_moves
from pgmpy_sgm.core import bdeu_groups
from pgmpy_sgm.structure_score import LDAGScoreSettings

warnings.filterwarnings("ignore", category=FutureWarning)
warnings.filterwarnings("ignore", category=UserWarning)

MODELS = Path(pgmpy.__file__).resolve().parent / "utils" / "example_models"
NETWORKS = ("hepar2", "win95pts", "pathfinder", "munin1", "andes", "diabetes", "pigs", "link", "munin")


def load_shipped(name: str) -> DiscreteBayesianNetwork:
    """A network from pgmpy's wheel, read with its BIF reader."""
    with gzip.open(MODELS / f"{name}.bif.gz", "rt") as fh:
        return BIFReader(string=fh.read()).get_model()


def simulate(name: str, n_train: int, n_test: int) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    bn = load_shipped(name)
    states = network_states(bn)
    train = bn.simulate(n_train, seed=0, show_progress=False)
    test = bn.simulate(n_test, seed=1, show_progress=False)
    columns = sorted(train.columns)
    return as_categories(train[columns], states), as_categories(test[columns], states), states


#: Whether the hill climbs show pgmpy's progress bar (``--hc-progress``; set before the learners' processes fork).
HC_PROGRESS = {"show": False}


def _fit_hc(score_name: str, train: pd.DataFrame, states: dict) -> tuple[DiscreteBayesianNetwork, dict]:
    score = BDeu(train, state_names=states) if score_name == "bdeu" else BIC(train, state_names=states)
    climb = HillClimbSearch(scoring_method=score, return_type="dag", show_progress=HC_PROGRESS["show"])
    dag = climb.fit(train).causal_graph_
    bn = DiscreteBayesianNetwork(dag.edges())
    bn.add_nodes_from(train.columns)
    estimator = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=5, state_names=states)
    bn.add_cpds(*estimator.fit(bn, train).parameters_)
    return bn, {"n_edges": len(dag.edges())}


#: ``LDAGSearch`` keywords of each LDAG learner.
LDAG_VARIANTS = {"LDAG": {}, "LDAG-noswaps": {"parent_swaps": False}, "LDAG-nowiden": {"widen_candidates": False},
                 "LDAG-noscreen": {"screen_moves": False}, "LDAG-turns": {"turn_budget": 4.0}, "LDAG-pylabels": {},
                 "LDAG-labels512": {"scoring_method": LDAGScoreSettings(max_labelled_configs=512)}}


def _python_local_search(space, counts, a: float, log_kappa: float = 0.0) -> list[int]:
    """The Python search that ``compiled_local_search`` compiles, with the same class weight."""
    return bench_local_search.python_search(space, counts, a, log_kappa)[0]


def _fit_ldag(train: pd.DataFrame, states: dict, max_time: float | None, variant: str = "LDAG"):
    settings = dict(LDAG_VARIANTS.get(variant, {}))
    if max_time is not None:
        settings["max_time"] = max_time
    if variant == "LDAG-pylabels":  # each learner runs in its own forked process: the change stays there
        bdeu_groups.compiled_local_search = _python_local_search
    if variant == "LDAG-oldtable":  # the family limit before 2026-11-28: max(2**22, 16 n) cells
        _dag_moves.largest_table = lambda score: max(2**22, 16 * int(math.ceil(score.encoded.n)))
    elif variant.startswith("LDAG-table"):  # LDAG-table<K>n: families of at most K n cells
        multiple = float(variant.removeprefix("LDAG-table").removesuffix("n"))
        _dag_moves.largest_table = lambda score: int(multiple * score.encoded.n)
    est = LDAGSearch(seed=0, state_names=states, show_progress=False, **settings).fit(train)
    extra = {"n_edges": len(est.causal_graph_.edges()), "n_labels": est.model_.n_labels(),
             "n_climbs": len(est.climb_scores_), "stopped_by": est.restarts_stopped_by_, "score": est.best_score_,
             "n_candidates_added": est.n_candidates_added_,
             "climb_seconds": [round(s, 1) for s in est.climb_seconds_]}  # fmt: skip
    return est.model_, extra


def _child(learner: str, train, test, states, max_time, queue) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    if learner.startswith("LDAG"):
        model, extra = _fit_ldag(train, states, max_time, learner)
    else:
        model, extra = _fit_hc("bdeu" if learner == "HC-BDeu" else "bic", train, states)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n_params = model.n_free_parameters() if hasattr(model, "n_free_parameters") else bn_free_parameters(model)
    queue.put({"learner": learner, "fit_s": wall, "cpu_s": cpu, "ll": float(bn_log_likelihood(model, test).mean()),
               "n_params": int(n_params), "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
               **extra})  # fmt: skip


def run_learners(learners: list[str], train, test, states, cap: float, max_time, parallel: bool) -> list[dict]:
    """Each learner in a forked process, stopped after ``cap`` seconds; one row per learner."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    rows = {}
    batches = [learners] if parallel else [[name] for name in learners]
    for batch in batches:
        procs = {name: ctx.Process(target=_child, args=(name, train, test, states, max_time, queue)) for name in batch}
        start = time.perf_counter()
        for proc in procs.values():
            proc.start()
        while len([r for r in rows if r in procs]) < len(procs) and time.perf_counter() - start < cap:
            try:
                row = queue.get(timeout=5)
                rows[row["learner"]] = row
            except Exception:  # queue.Empty: check the cap again
                if all(not p.is_alive() for p in procs.values()) and queue.empty():
                    break
        for name, proc in procs.items():
            if name not in rows:
                failed = proc.exitcode not in (None, 0)
                proc.kill()
                rows[name] = {"learner": name, "capped_at_s": cap, "failed": failed}
            proc.join()
    return [rows[name] for name in learners]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="*", default=["andes", "diabetes"], choices=NETWORKS)
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--n-test", type=int, default=10_000)
    parser.add_argument("--cap", type=float, default=3600.0, help="wall-clock cap per learner (s)")
    parser.add_argument("--ldag-max-time", type=float, default=None)
    parser.add_argument("--learners", nargs="*", default=["LDAG", "HC-BDeu", "HC-BIC"])
    parser.add_argument("--parallel", action="store_true")
    parser.add_argument("--hc-progress", action="store_true", help="show the hill climbs' progress bars on stderr")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    HC_PROGRESS["show"] = args.hc_progress
    print(f"{platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"pgmpy {pgmpy.__version__}, load average {os.getloadavg()}", flush=True)  # fmt: skip
    out = []
    for name in args.networks:
        train, test, states = simulate(name, args.n, args.n_test)
        print(f"{name}: {train.shape[1]} variables, n = {len(train)}, test {len(test)}", flush=True)
        rows = run_learners(args.learners, train, test, states, args.cap, args.ldag_max_time, args.parallel)
        done = [r for r in rows if "fit_s" in r and not r["learner"].startswith("LDAG")]
        fastest = min(done, key=lambda r: r["cpu_s"]) if done else None
        for row in rows:
            row.update(network=name, d=train.shape[1], load1=os.getloadavg()[0])
            if "fit_s" not in row:
                what = "failed (see stderr)" if row["failed"] else f"capped at {row['capped_at_s']:.0f} s (no result)"
                print(f"  {row['learner']:8s} {what}", flush=True)
                continue
            ratio = ""
            if row["learner"].startswith("LDAG") and fastest is not None:
                ratio = (f"; vs {fastest['learner']}: wall x{row['fit_s'] / fastest['fit_s']:.2f}, "
                         f"CPU x{row['cpu_s'] / fastest['cpu_s']:.2f}, "
                         f"held out {row['ll'] - fastest['ll']:+.4f} nats/row")  # fmt: skip
            score = f"score {row['score']:.2f}  " if "score" in row else ""
            print(f"  {row['learner']:8s} wall {row['fit_s']:8.1f} s  CPU {row['cpu_s']:8.1f} s  {score}"
                  f"ll/row {row['ll']:.4f}  params {row['n_params']:6d}  edges {row['n_edges']:4d}  "
                  f"peak {row['peak_mb']:.0f} MB{ratio}", flush=True)  # fmt: skip
        out.extend(rows)
        if args.out:
            pd.DataFrame(out).to_csv(args.out, index=False)
    print(f"load average at the end {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
