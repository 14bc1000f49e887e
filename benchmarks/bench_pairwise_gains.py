"""Pairwise BDeu gains of the LDAG screen: counted in chunks of rows against the dense one-hot product.

Run: ``python benchmarks/bench_pairwise_gains.py [--rows 10000 100000] [--variables 500] [--repeats 2]``

Data: ``bench_scale.chunk(ROWS, VARIABLES, 0)`` (binary int8 columns with strong dependences). For each
size, in one process: the baseline (the counting of the code before: the one-hot codes of all rows at once,
in float32, ``DenseJointCounts`` below, in place of the package's ``weighted_cross_product``) and
``pgmpy_sgm.causal_discovery._candidates.pairwise_gains`` (row chunks of at most ``_pair_terms.CHUNK_CELLS`` one-hot
cells). Printed per size: seconds (best of ``--repeats``), peak memory of the call (``tracemalloc``), and
whether the two gain matrices are identical.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import chunk  # noqa: E402

from pgmpy_sgm.causal_discovery import _candidates  # noqa: E402
from pgmpy_sgm.causal_discovery._candidates import pairwise_gains  # noqa: E402


class DenseJointCounts:
    """The baseline's joint counts: the one-hot codes of all rows held at once (float32), built once per call.

    Used in place of ``weighted_cross_product`` in ``_candidates``, so that the gains are computed from the
    counts as the package computes them and only the counting differs.
    """

    def __init__(self) -> None:
        self.key, self.onehot, self.weighted = None, None, None

    def __call__(self, codes, weights, starts, total, first=0, last=None, chunk_cells=None):
        if self.key is not codes:  # a new call of pairwise_gains: build the dense one-hot codes once
            n_rows, d = codes.shape
            self.onehot = np.zeros((n_rows, int(total)), dtype=np.float32)
            for j in range(d):
                self.onehot[np.arange(n_rows), starts[j] + codes[:, j].astype(np.int64)] = 1.0
            self.weighted = self.onehot * np.asarray(weights, dtype=np.float32)[:, None]
            self.key = codes
        rows = slice(int(first), int(total if last is None else last))
        return (self.weighted[:, rows].T @ self.onehot).astype(float)


def pairwise_gains_dense(codes: np.ndarray, cards: list[int], weights: np.ndarray, ess: float) -> np.ndarray:
    """``pairwise_gains`` with the baseline's dense counting."""
    original, _candidates.weighted_cross_product = _candidates.weighted_cross_product, DenseJointCounts()
    try:
        return pairwise_gains(codes.copy(), cards, weights, ess)  # a new array: a fresh one-hot each call
    finally:
        _candidates.weighted_cross_product = original


def measure(function, codes, cards, weights, repeats: int) -> tuple[float, float, np.ndarray]:
    """Best seconds of ``repeats`` calls, peak traced MB of the first, and the result."""
    tracemalloc.start()
    result = function(codes, cards, weights, 5.0)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    best = np.inf
    for _ in range(repeats):
        tic = time.perf_counter()
        function(codes, cards, weights, 5.0)
        best = min(best, time.perf_counter() - tic)
    return best, peak, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--variables", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    print(f"{platform.node()} {platform.machine()}, numpy {np.__version__}")
    print("| rows | variables | dense s | chunked s | ratio | dense peak MB | chunked peak MB | identical |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.rows:
        codes = chunk(n, args.variables, 0).to_numpy()
        cards, weights = [2] * args.variables, np.ones(n)
        dense_s, dense_mb, dense = measure(pairwise_gains_dense, codes, cards, weights, args.repeats)
        chunked_s, chunked_mb, chunked = measure(pairwise_gains, codes, cards, weights, args.repeats)
        print(f"| {n:,} | {args.variables} | {dense_s:.2f} | {chunked_s:.2f} | {dense_s / chunked_s:.2f}x | "
              f"{dense_mb:,.0f} | {chunked_mb:,.0f} | {np.array_equal(dense, chunked)} |", flush=True)


if __name__ == "__main__":
    main()
