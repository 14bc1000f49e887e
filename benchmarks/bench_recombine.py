"""Recombination of two local optima: each part's import made toggle by toggle before checking the whole graph.

Run: ``python benchmarks/bench_recombine.py [--sizes 200 500 1000] [--repeats 3]``

A profile of a default 150 s fit on 1,000 variables put a fifth of its time in the chains'
grafts (``core.search.recombine``), most of it in checking the whole graph's chordality once per
part tried (``chordal_families``, about 5 ms a call there), although most parts import through
decomposable graphs toggle by toggle, which proves the result decomposable. For each data set
(``bench_search``'s random decomposable binary data), in one process: two local optima of the
same data, ``A`` (the best forest climbed greedily) and ``B`` (that forest with every third edge
removed, climbed greedily), then ``recombine(A, B)`` and ``recombine(B, A)`` with each part's
import made

* *before*: as ``changed_state`` does it (the whole graph checked first; the code before
  2026-11-29, reproduced here by swapping ``search._imported``);
* *now*: toggle by toggle first (``search._imported``).

The variants alternate (``_machine.alternated``); printed: median seconds of the two
recombinations, their ratio, and whether both variants give the same graphs and scores.
"""

from __future__ import annotations

import argparse
import time
import warnings

from _machine import alternated, machine_line
from bench_search import load_data

from pgmpy_sgm.core import search
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.core.search import best_forest_key, greedy_climb, pair_gains, recombine
from pgmpy_sgm.structure_score import SGMScore

warnings.filterwarnings("ignore")

IMPORTED_NOW = search._imported


def imported_before(state, donor, pairs):
    """The import of a part as before: ``changed_state`` (the whole graph checked first)."""
    mask = 0
    for p in pairs:
        mask |= 1 << p
    return search.changed_state(state, (state.key & ~mask) | (donor & mask))


def local_optima(engine) -> tuple[DecomposableState, DecomposableState]:
    forest = best_forest_key(engine, pair_gains(engine))
    first = DecomposableState(engine, forest)
    greedy_climb(first)
    thinned = DecomposableState(engine, forest)
    for i, j in thinned.edges()[::3]:
        thinned.commit(thinned.propose(i, j))  # removing a forest edge keeps it a forest
    greedy_climb(thinned)
    return first, thinned


def timed_recombinations(variant: str, a: DecomposableState, b: DecomposableState) -> tuple[float, list]:
    """Seconds of ``recombine(a, b)`` and ``recombine(b, a)`` with the variant's import, and their graphs and scores."""
    search._imported = IMPORTED_NOW if variant == "now" else imported_before
    tic = time.perf_counter()
    out = (recombine(a, b.key), recombine(b, a.key))
    return time.perf_counter() - tic, [(s.key, s.score) for s in out]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 500, 1000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(machine_line())
    print("| data | edges A / B | score A / B | recombined scores | before s | now s | ratio | identical |")
    print("|---|---|---|---|---|---|---|---|")
    for d in args.sizes:
        data, _ = load_data(f"d{d}")
        engine = SGMScore(data).engine
        a, b = local_optima(engine)
        medians, outputs = alternated(lambda variant, a=a, b=b: timed_recombinations(variant, a, b), ("before", "now"),
                                      args.repeats)  # fmt: skip
        search._imported = IMPORTED_NOW
        scores = ", ".join(f"{score:.2f}" for _, score in outputs["now"])
        print(f"| d{d} | {len(a.edges())} / {len(b.edges())} | {a.score:.2f} / {b.score:.2f} | {scores} | "
              f"{medians['before']:.2f} | {medians['now']:.2f} | {medians['before'] / medians['now']:.2f}x | "
              f"{outputs['before'] == outputs['now']} |", flush=True)


if __name__ == "__main__":
    main()
