"""Greedy equivalence search: the package's implementation against pgmpy's ``GES``, same score, same data.

Run: ``PYTHONHASHSEED=0 python benchmarks/bench_equivalence_search.py [--networks insurance alarm] [--n 10000]``

For each network, data are simulated with seed 0 (columns sorted, category dtype), and both
searches run under ``LDAGScore(labels=False)`` (BDeu, ESS 5): the package's
``greedy_equivalence_search`` (forward and backward phases, the start of ``LDAGSearch``) and
pgmpy's ``GES`` (forward, backward and turning phases). Printed: seconds for each, their ratio,
and the BDeu score of the DAG each returns.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

from pgmpy.base import DAG
from pgmpy.causal_discovery import GES
from predictive import as_categories, load_network, network_states

from pgmpy_sgm.causal_discovery._equivalence_search import greedy_equivalence_search
from pgmpy_sgm.core.bitsets import iter_bits
from pgmpy_sgm.structure_score import LDAGScore

warnings.filterwarnings("ignore", category=FutureWarning)
warnings.filterwarnings("ignore", category=UserWarning)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="*", default=["insurance", "alarm"])
    parser.add_argument("--n", type=int, default=10_000)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}")
    for name in args.networks:
        bn = load_network(name)
        states = network_states(bn)
        data = bn.simulate(args.n, seed=0, show_progress=False)
        data = as_categories(data[sorted(data.columns)], states)
        columns = list(data.columns)
        ours_score = LDAGScore(data, state_names=states, labels=False)
        tic = time.perf_counter()
        def family_score(y, m, s=ours_score, c=columns):
            return s.unlabelled_score(c[y], tuple(c[i] for i in iter_bits(m)))

        found = greedy_equivalence_search(family_score, len(columns))
        ours_s = time.perf_counter() - tic
        theirs_score = LDAGScore(data, state_names=states, labels=False)  # a fresh cache for pgmpy
        tic = time.perf_counter()
        dag = GES(scoring_method=theirs_score, return_type="dag").fit(data).causal_graph_
        theirs_s = time.perf_counter() - tic
        ours_dag = DAG([(columns[p], columns[y]) for y, m in enumerate(found.parents) for p in iter_bits(m)])
        ours_dag.add_nodes_from(columns)
        dag.add_nodes_from(columns)
        print(f"{name} n={args.n}: package {ours_s:.2f} s (score {ours_score.score(ours_dag):.2f}), "
              f"pgmpy GES {theirs_s:.2f} s (score {ours_score.score(dag):.2f}), ratio {theirs_s / ours_s:.0f}x; "
              f"load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
