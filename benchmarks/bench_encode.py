"""Encoding categorical columns: from their own codes against the general path (pandas' factorisation).

Run: ``python benchmarks/bench_encode.py [--repeats 20]``

Data: asia simulated (8 variables of string categories; n = 500, 2,000 and 10,000, as ``bench_mpl.py`` makes them),
and ``bench_scale.chunk(100_000, 50, 0)`` turned into categories of strings (as a survey table read with
``dtype="category"`` is). For each, in one process: ``EncodedData(frame, state_names=...)`` with the categorical
fast path (``EncodedData._encode_categorical``) and with it switched off (the baseline: every categorical column
through ``pd.unique`` and ``pd.Categorical``, as the code before did). Printed: milliseconds (median of
``--repeats``), the ratio, and whether the codes, weights and state names are identical.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_scale import chunk  # noqa: E402
from predictive import as_categories, load_network, network_states  # noqa: E402

from pgmpy_sgm.core.data import EncodedData  # noqa: E402


def datasets() -> list[tuple[str, pd.DataFrame, dict]]:
    bn = load_network("asia")
    states = network_states(bn)
    out = []
    for n in (500, 2000, 10_000):
        train = as_categories(bn.simulate(n, seed=0, show_progress=False), states)
        out.append((f"asia n={n}", train[sorted(train.columns)], states))
    wide = chunk(100_000, 50, 0).astype(str).astype("category")
    out.append(("chunk 100,000 x 50", wide, {c: sorted(wide[c].cat.categories) for c in wide.columns}))
    return out


def timed(frame: pd.DataFrame, states: dict, repeats: int) -> tuple[float, EncodedData]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        encoded = EncodedData(frame, state_names=states)
        times.append(time.perf_counter() - start)
    return 1000 * float(np.median(times)), encoded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, "
          f"Python {platform.python_version()}, pandas {pd.__version__}, numpy {np.__version__}")
    print("| data | general path ms | from the codes ms | ratio | identical |")
    print("|---|---|---|---|---|")
    fast_path = EncodedData._encode_categorical
    for name, frame, states in datasets():
        EncodedData(frame, state_names=states)  # warm-up
        EncodedData._encode_categorical = lambda *args: None  # the baseline: the general path for every column
        try:
            general_ms, general = timed(frame, states, args.repeats)
        finally:
            EncodedData._encode_categorical = fast_path
        fast_ms, fast = timed(frame, states, args.repeats)
        same = (np.array_equal(general.codes, fast.codes) and np.array_equal(general.weights, fast.weights)
                and general.state_names == fast.state_names and general.codes.dtype == fast.codes.dtype)
        print(f"| {name} | {general_ms:.2f} | {fast_ms:.2f} | {general_ms / fast_ms:.1f}x | {same} |", flush=True)


if __name__ == "__main__":
    main()
