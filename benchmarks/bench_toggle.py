"""The cost of a toggle proposal, a state copy and a relocation at width, two source trees in one run.

For each data set of bench_search (``d100``, ``d200``, ``d500``) the generating decomposable graph,
its components joined into one by an edge between each component and the first (so that every
pair lies in one component, as in the chain's graphs), is the state; ``DecomposableState.propose``
runs on every pair of variables twice to fill the score caches, then three times more, timed (the
fastest pass reported), separately over the pairs whose toggle is illegal (the added edge would
close a chordless cycle) and the legal ones. Then ``DecomposableState.copy`` of that state (the
fastest of three passes of 200 copies) and ``core.search.relocate`` of the first 40 nodes (the
fastest of two passes; caches filled by a first pass). Each tree runs in its own subprocess. Both
trees must find the same legal pairs, and the same scores and relocated scores within 1e-6 (checked: codes that
sum the same terms in another order differ by rounding).

Usage::

    python benchmarks/bench_toggle.py OLD_TREE NEW_TREE [DATASETS]
"""

from __future__ import annotations

import sys

from _two_trees import run_in_tree

TIMING = r"""
import json, sys, time
import pgmpy_sgm
assert pgmpy_sgm.__file__.startswith(sys.argv[3]), pgmpy_sgm.__file__
sys.path.insert(0, sys.argv[2])
from bench_search import load_data
from pgmpy_sgm import SGMScore
from pgmpy_sgm.core.moves import DecomposableState

data, edges = load_data(sys.argv[1])
engine = SGMScore(data).engine
index = {name: k for k, name in enumerate(data.columns)}
edges = [(index[a], index[b]) for a, b in edges]
parent = list(range(engine.n))
def root(v):
    while parent[v] != v:
        v = parent[v]
    return v
for a, b in edges:
    parent[root(a)] = root(b)
roots = sorted({root(v) for v in range(engine.n)})
edges += [(roots[0], r) for r in roots[1:]]
state = DecomposableState(engine, engine.pairs_key(edges))
pairs = engine.pairs
for _ in range(2):
    moves = [state.propose(i, j) for i, j in pairs]
legal = [p for p, m in zip(pairs, moves) if m is not None]
illegal = [p for p, m in zip(pairs, moves) if m is None]
def per_call(selection):
    best = float("inf")
    for _ in range(3):  # the fastest of three passes (the machine is shared)
        tic = time.perf_counter()
        for i, j in selection:
            state.propose(i, j)
        best = min(best, time.perf_counter() - tic)
    return 1e6 * best / max(len(selection), 1)
def fastest(call, passes):
    best = float("inf")
    for _ in range(passes):
        tic = time.perf_counter()
        out = call()
        best = min(best, time.perf_counter() - tic)
    return best, out
from pgmpy_sgm.core.search import relocate
nodes = range(min(40, engine.n))
relocate_all = lambda: [r.score if r is not None else None for r in (relocate(state, v) for v in nodes)]
relocated = relocate_all()
copy_s, _ = fastest(lambda: [state.copy() for _ in range(200)], 3)
relocate_s, again = fastest(relocate_all, 2)
assert again == relocated
scores = [m.score for m in moves if m is not None]
print(json.dumps({"components": len(roots), "pairs": len(pairs), "legal": len(legal), "illegal_us": per_call(illegal),
                  "legal_us": per_call(legal), "all_us": per_call(pairs), "scores": scores,
                  "copy_us": 1e6 * copy_s / 200, "relocate_ms": 1e3 * relocate_s / len(nodes),
                  "relocated": relocated}))
"""


def main() -> None:
    old, new = sys.argv[1], sys.argv[2]
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else ["d100", "d200", "d500"]
    print(
        "| data | pairs | legal | code | illegal (us/call) | legal (us/call) | all pairs (us/call) | copy (us) "
        "| relocation (ms) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        results = {label: run_in_tree(tree, TIMING, name) for label, tree in (("old", old), ("new", new))}
        old_r, new_r = results["old"], results["new"]
        if old_r["legal"] != new_r["legal"] or [r is None for r in old_r["relocated"]] != [
                r is None for r in new_r["relocated"]]:  # fmt: skip
            raise AssertionError(f"{name}: the trees disagree on the legal pairs or the relocations")
        pairs = [*zip(old_r["scores"], new_r["scores"], strict=True),
                 *((a, b) for a, b in zip(old_r["relocated"], new_r["relocated"], strict=True) if a is not None)]
        if any(abs(a - b) > 1e-6 for a, b in pairs):
            raise AssertionError(f"{name}: the trees' scores differ by more than 1e-6")
        for label, r in results.items():
            print(f"| {name} | {r['pairs']} | {r['legal']} | {label} | {r['illegal_us']:.1f} | {r['legal_us']:.1f} "
                  f"| {r['all_us']:.1f} | {r['copy_us']:.0f} | {r['relocate_ms']:.1f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
