"""The MPL score's Dirichlet class weights with one hyperparameter against a full array of it, in one process.

Run: ``python benchmarks/bench_class_weights.py [--repeats 5]``

With a fixed ``alpha`` (the default 0.5), ``MPLScore`` used to pass ``dirichlet_class_weights`` an array of
``alpha`` repeated for every class, so each call evaluated ``gammaln`` of that array twice more; it now passes the
number, and the hyperparameter's gamma terms are computed once (each cell's arithmetic is the same, so the
weights are equal bit for bit). The calls are recorded from ``MPLSearch(seed=0).fit`` on grid-12 at n = 500 and on
asia, child, insurance and alarm at n = 2,000 (data as ``bench_mpl.py`` makes them), then replayed with the number
and with the array (the baseline, the code before). Printed per data set: calls, milliseconds for all of them
with each (median of ``--repeats``), the ratio and whether every call's weights are identical.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import alternated, machine_line  # noqa: E402
from bench_blanket_classes import datasets, replay  # noqa: E402

import pgmpy_sgm.structure_score.mpl_score as mpl_score  # noqa: E402
from pgmpy_sgm.causal_discovery import MPLSearch  # noqa: E402

WEIGHTS = mpl_score.dirichlet_class_weights


def recorded_calls(train, states) -> list:
    calls = []

    def recording(pooled, alphas, sizes, log_kappa):
        calls.append((pooled, alphas, sizes, log_kappa))
        return WEIGHTS(pooled, alphas, sizes, log_kappa)

    mpl_score.dirichlet_class_weights = recording
    try:
        MPLSearch(seed=0, state_names=states).fit(train)
    finally:
        mpl_score.dirichlet_class_weights = WEIGHTS
    return calls


def as_arrays(calls: list) -> list:
    """The baseline's arguments: the hyperparameter repeated per class, made before the clock starts as the caller
    made them before."""
    return [(p, np.full(p.shape[0], a) if np.ndim(a) == 0 else a, s, k) for p, a, s, k in calls]


def replay_as(calls: list, as_array: bool) -> tuple[float, list]:
    """The calls replayed with the hyperparameter as an array per class (the code before) or as the number."""
    return replay(WEIGHTS, as_arrays(calls) if as_array else calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(machine_line())
    print("| data | calls | array ms | number ms | ratio | identical |\n|---|---|---|---|---|---|")
    for label, train, states in datasets():
        calls = recorded_calls(train, states)
        medians, found = alternated(functools.partial(replay_as, calls), (True, False), args.repeats)
        same = all(np.array_equal(a, b) for a, b in zip(found[True], found[False], strict=True))
        slow, fast = 1000 * medians[True], 1000 * medians[False]
        print(f"| {label} | {len(calls)} | {slow:.1f} | {fast:.1f} | {slow / fast:.2f}x | {same} |", flush=True)


if __name__ == "__main__":
    main()
