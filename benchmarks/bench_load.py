"""Model-file loading time against the number of nodes, with networkx's chordality steps as baseline.

Run:  python benchmarks/bench_load.py [--sizes 2000 4000 8000]

For graphs of isolated nodes and of paths, prints the time of ``read_json`` on a written model
file, of the package's ``is_chordal`` + ``decompose`` on the graph, and of networkx's
``is_chordal`` + ``chordal_graph_cliques`` on the same graph (the steps the loader used before),
all in this process. Linear growth shows as a constant time per node.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mcmc import machine  # noqa: E402

from pgmpy_sgm import StratifiedGraph  # noqa: E402
from pgmpy_sgm.core.decomposition import decompose, is_chordal  # noqa: E402
from pgmpy_sgm.readwrite import read_json, write_json  # noqa: E402


def timed(fn) -> float:
    tic = time.perf_counter()
    fn()
    return time.perf_counter() - tic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[2000, 4000, 8000])
    args = parser.parse_args()
    print(f"machine: {machine()}; load average {os.getloadavg()}")
    print("| graph | nodes | read_json (s) | package chordality + cliques (s) | networkx (s) | ratio |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("isolated", "path"):
            for n in args.sizes:
                nodes = [f"v{i}" for i in range(n)]
                graph = nx.Graph()
                graph.add_nodes_from(nodes)
                if kind == "path":
                    graph.add_edges_from(zip(nodes, nodes[1:], strict=False))
                path = os.path.join(folder, f"{kind}{n}.json")
                write_json(StratifiedGraph(graph.edges(), nodes=nodes), path)
                t_read = timed(lambda path=path: read_json(path))
                t_ours = timed(lambda graph=graph: (is_chordal(graph), decompose(graph)))
                t_nx = timed(lambda graph=graph: (nx.is_chordal(graph), list(nx.chordal_graph_cliques(graph))))
                print(f"| {kind} | {n} | {t_read:.2f} | {t_ours:.3f} | {t_nx:.2f} | {t_nx / t_ours:.0f}x |",
                      flush=True)


if __name__ == "__main__":
    main()
