"""A blanket's classes under edge contexts and the contexts they imply: compiled loops against numpy, in one process.

Run: ``python benchmarks/bench_blanket_classes.py [--repeats 5]``

The context search of ``MPLSearch`` asks, for every proposal, which of a node's blanket configurations its edges'
contexts merge (``_mpl_groups._groups``). The calls are recorded from ``MPLSearch(seed=0).fit`` on grid-12 at
n = 500 and on asia, child, insurance and alarm at n = 2,000 (data as ``bench_mpl.py`` makes them), then replayed
through the compiled union-find (``_mpl_group_kernels.merged_classes``, the code now) and through the baseline
reproduced below: the numpy version of the code before (boolean masks per context, connected components by
repeated minima over the merged pairs and pointer jumping, then classes renumbered by first appearance with
``np.unique``). Printed per data set: calls, milliseconds for all of them with each (median of ``--repeats``), the
ratio, and whether every call's classes are identical. The same for the contexts that the classes imply
(``_mpl_groups._implied``: the lines of the blanket lying inside one class, through
``_mpl_group_kernels.uniform_line_states``) against the numpy version of the code before, reproduced below too.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _cmn_data  # noqa: E402
from _machine import machine_line  # noqa: E402
from predictive import as_categories, load_network, network_states  # noqa: E402

import pgmpy_sgm.structure_score._mpl_groups as groups  # noqa: E402
from pgmpy_sgm.causal_discovery import MPLSearch  # noqa: E402

COMPILED = groups._groups
COMPILED_IMPLIED = groups._implied


def numpy_classes(blanket: tuple, shape: tuple, stated: tuple) -> np.ndarray:
    """The baseline: the numpy computation of the code before."""
    n = math.prod(shape)
    coords = np.stack(np.unravel_index(np.arange(n, dtype=np.int64), shape), axis=1)
    strides = np.array([math.prod(shape[i + 1 :]) for i in range(len(shape))], dtype=np.int64)
    position = {w: i for i, w in enumerate(blanket)}
    rows, cols = [], []
    for axis, found in stated:
        for context in found:
            mask = np.ones(n, dtype=bool)
            for w, s in context:
                mask &= coords[:, position[w]] == s
            members = np.flatnonzero(mask)
            rows.append(members)
            cols.append(members - coords[members, axis] * strides[axis])
    if not rows:
        return np.arange(n, dtype=np.int64)
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    labels = np.arange(n, dtype=np.int64)
    while True:
        low = np.minimum(labels[rows], labels[cols])
        new = labels.copy()
        np.minimum.at(new, rows, low)
        np.minimum.at(new, cols, low)
        new = new[new]
        if np.array_equal(new, labels):
            break
        labels = new
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[inverse]


def numpy_implied(node, blanket: tuple, cards: dict, classes: np.ndarray, graph, order: dict) -> list:
    """The baseline of ``_implied``: the numpy computation of the code before."""
    shape = tuple(int(cards[w]) for w in blanket)
    classes = np.asarray(classes).reshape(-1)
    found = []
    for axis, other in enumerate(blanket):
        shared = groups.common_neighbours(graph, node, other, order)
        if not shared:
            continue
        rest = tuple(w for w in blanket if w != other)
        lines = classes[np.moveaxis(np.arange(math.prod(shape)).reshape(shape), axis, -1).reshape(-1, shape[axis])]
        inside = np.flatnonzero((lines == lines[:, :1]).all(axis=1))
        if inside.size == 0:
            continue
        rest_shape = tuple(int(cards[w]) for w in rest)
        rest_coords = np.stack(np.unravel_index(np.arange(math.prod(rest_shape)), rest_shape), axis=1)[inside]
        keep = [rest.index(w) for w in shared]
        for row in sorted(set(map(tuple, rest_coords[:, keep].tolist()))):
            found.append((frozenset((node, other)), frozenset(zip(shared, row, strict=True))))
    return found


def datasets():
    model = _cmn_data.grid(3, 4, 0)
    yield "grid-12 n=500", _cmn_data.sample(model, 500, seed=0)[0], {v: [0, 1] for v in sorted(model[0].nodes())}
    for name in ("asia", "child", "insurance", "alarm"):
        bn = load_network(name)
        states = network_states(bn)
        train = as_categories(bn.simulate(2000, seed=0, show_progress=False), states)
        yield f"{name} n=2000", train[sorted(train.columns)], states


def recorded_calls(train, states) -> tuple[list, list]:
    calls, implied_calls = [], []

    def recording(blanket, shape, stated):
        calls.append((blanket, shape, stated))
        return COMPILED(blanket, shape, stated)

    def recording_implied(*args):
        implied_calls.append(args)
        return COMPILED_IMPLIED(*args)

    groups._groups, groups._implied = recording, recording_implied
    groups._cached_groups.cache_clear()
    try:
        MPLSearch(seed=0, state_names=states).fit(train)
    finally:
        groups._groups, groups._implied = COMPILED, COMPILED_IMPLIED
    return calls, implied_calls


def _equal(a, b) -> bool:
    return bool(np.array_equal(a, b)) if isinstance(a, np.ndarray) else a == b


def replay(function, calls: list) -> tuple[float, list]:
    start = time.perf_counter()
    out = [function(*call) for call in calls]
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(machine_line())
    COMPILED(("a", "b"), (2, 2), ((1, frozenset({frozenset({("a", 1)})})),))  # the kernels loaded
    COMPILED_IMPLIED("c", ("a", "b"), dict.fromkeys("abc", 2), np.array([0, 1, 2, 2]),
                     __import__("networkx").complete_graph("abc"), {"a": 0, "b": 1, "c": 2})  # fmt: skip
    print("| data | step | calls | numpy ms | compiled ms | ratio | identical |\n|---|---|---|---|---|---|---|")
    for label, train, states in datasets():
        recorded = recorded_calls(train, states)
        for step, calls, baseline, compiled in (("classes", recorded[0], numpy_classes, COMPILED),
                                                ("implied", recorded[1], numpy_implied, COMPILED_IMPLIED)):  # fmt: skip
            times: dict = {"numpy": [], "compiled": []}
            for _ in range(args.repeats):
                seconds, old = replay(baseline, calls)
                times["numpy"].append(seconds)
                seconds, new = replay(compiled, calls)
                times["compiled"].append(seconds)
            same = all(_equal(a, b) for a, b in zip(old, new, strict=True))
            slow, fast = 1000 * np.median(times["numpy"]), 1000 * np.median(times["compiled"])
            print(f"| {label} | {step} | {len(calls)} | {slow:.1f} | {fast:.1f} | {slow / fast:.1f}x | {same} |",
                  flush=True)


if __name__ == "__main__":
    main()
