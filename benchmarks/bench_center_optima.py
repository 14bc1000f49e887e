"""The cost of one center's optimal labelling in the score engine, two source trees in one run.

A structure search labels every new clique it proposes: for each of the clique's nodes as the
center, the best groups of the other nodes' configurations given the forbidden (separator) pairs
(``ScoreEngine._center_groups``, cached per clique, center and forbidden flags). A wide chain
solves many of them, nearly all by the exact search on 4-16 configurations.

For each data set of bench_search (``d200``, ``d500``, ``d1000``: binary; ``child``: 2-6
states) the cliques are every 3-, 4- and 5-subset of the generating graph's cliques (for the
bnlearn data sets, of the moral graph's), up to 600 of them, each with every center and three
random choices of forbidden flags (seeded). Every optimum is found once to fill the data's count
cache, then timed three times with the engine's cache of optima cleared before each pass (the
fastest pass reported). Each tree runs in its own subprocess; both must find the same groups and
gains within 1e-9 (checked).

Usage::

    python benchmarks/bench_center_optima.py OLD_TREE NEW_TREE [DATASETS]
"""

from __future__ import annotations

import sys

from _two_trees import run_in_tree

TIMING = r"""
import itertools, json, random, sys, time
import networkx as nx
import pgmpy_sgm
assert pgmpy_sgm.__file__.startswith(sys.argv[3]), pgmpy_sgm.__file__
sys.path.insert(0, sys.argv[2])
from bench_search import load_data
from pgmpy_sgm import SGMScore

name = sys.argv[1]
data, edges = load_data(name)
if edges is None:  # a bnlearn network: its moral graph, made chordal
    import gzip
    from pgmpy.readwrite import BIFReader
    with gzip.open(f"{sys.argv[2]}/data/{name}.bif.gz", "rt") as handle:
        bn = BIFReader(string=handle.read()).get_model()
    graph = nx.Graph(bn.moralize().edges())
    graph, _ = nx.complete_to_chordal_graph(graph)
    edges = list(graph.edges())
engine = SGMScore(data).engine
index = {name: k for k, name in enumerate(data.columns)}
graph = nx.Graph([(index[a], index[b]) for a, b in edges])
subsets = set()
for clique in nx.find_cliques(graph):
    for size in (3, 4, 5):
        subsets.update(itertools.combinations(sorted(clique), size))
rng = random.Random(0)
subsets = sorted(subsets)
rng.shuffle(subsets)
tasks = []
for nodes in subsets[:600]:
    clique = sum(1 << v for v in nodes)
    for center in range(len(nodes)):
        for _ in range(3):
            tasks.append((clique, center, tuple(rng.random() < 0.3 for _ in range(len(nodes) - 1))))
method = engine.label_method
def solve_all():
    engine._center_cache.clear()
    engine._center_base.clear()
    return [engine._center_groups(*task, method) for task in tasks]
solve_all()
best = float("inf")
for _ in range(3):
    tic = time.perf_counter()
    found = solve_all()
    best = min(best, time.perf_counter() - tic)
print(json.dumps({"cliques": min(len(subsets), 600), "optima": len(tasks), "us": 1e6 * best / len(tasks),
                  "groups": [res.group_ids.tolist() for res, _ in found],
                  "gains": [res.value - base for res, base in found],
                  "exact": sum(bool(res.exact) for res, _ in found)}))
"""


def main() -> None:
    old, new = sys.argv[1], sys.argv[2]
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else ["d200", "d500", "d1000", "child"]
    print("| data | cliques | optima | exact | old (us/optimum) | new (us/optimum) | speed-up "
          "| largest gain difference |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        before, after = run_in_tree(old, TIMING, name), run_in_tree(new, TIMING, name)
        if before["groups"] != after["groups"]:
            raise AssertionError(f"{name}: the trees find different groups")
        gap = max((abs(a - b) for a, b in zip(before["gains"], after["gains"], strict=True)), default=0.0)
        if gap > 1e-9:
            raise AssertionError(f"{name}: gains differ by {gap:.3g}")
        print(f"| {name} | {after['cliques']} | {after['optima']} | {after['exact']} | {before['us']:.1f} "
              f"| {after['us']:.1f} | {before['us'] / after['us']:.2f}x | {gap:.1e} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
