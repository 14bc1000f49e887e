"""Memory and speed of the visited graphs' store: edge gaps as LEB128 bytes against edge positions as uint32.

Run: ``python benchmarks/bench_graph_store.py [--sizes 200:250:50000 500:600:20000 1000:1200:10000]``

A search at width keeps every distinct graph it visits (``RunState.visited`` and ``seen_by``, the chains' segment
stores), keyed by the graph's edges. Each SIZE is ``VARIABLES:EDGES:GRAPHS``: a random base graph of EDGES edges
over the VARIABLES' pairs, and GRAPHS distinct graphs each 1-20 random toggles away from it (as a chain's visited
graphs are). The code before (reproduced below as the baseline) kept a wide key as the uint32 positions of its
edges, in a plain dict; the package now keeps the gaps between them as variable-length bytes
(``GraphStore``, ``pack_positions``). Both run in one process on the same keys; printed: the peak traced memory
(``tracemalloc``) of filling each store, the seconds to fill it and to look every key up again, and
``weighted_pair_sums`` over all graphs against the baseline's sums (largest difference). The compiled kernels are
loaded before any clock starts.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine_line  # noqa: E402

from pgmpy_sgm.core.bitsets import bit_positions  # noqa: E402
from pgmpy_sgm.core.graph_store import PAIR_SUM_CHUNK_EDGES, GraphStore  # noqa: E402


# -- the code before, as the baseline --------------------------------------------------------------
def old_packed(key: int) -> bytes:
    return bit_positions(key).astype("<u4").tobytes()


def old_store(keys: list[int], scores: list[float]) -> dict:
    return {old_packed(k): s for k, s in zip(keys, scores, strict=True)}


def new_store(keys: list[int], scores: list[float]) -> GraphStore:
    return GraphStore(zip(keys, scores, strict=True))


def old_pair_sums(stored: list, weights: np.ndarray, n_pairs: int) -> np.ndarray:
    total, chunk, counts, size, start = np.zeros(n_pairs), [], [], 0, 0
    for i, item in enumerate(stored):
        edges = np.frombuffer(item, dtype="<u4")
        chunk.append(edges)
        counts.append(len(edges))
        size += len(edges)
        if size >= PAIR_SUM_CHUNK_EDGES or i == len(stored) - 1:
            flat = np.concatenate(chunk)
            total += np.bincount(flat, weights=np.repeat(weights[start : i + 1], counts), minlength=n_pairs)
            chunk, counts, size, start = [], [], 0, i + 1
    return total


# -- the keys ---------------------------------------------------------------------------------------
def key_of(positions: np.ndarray) -> int:
    bits = np.zeros(int(positions.max()) + 1, dtype=bool)
    bits[positions] = True
    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")


def visited_keys(n_variables: int, n_edges: int, n_graphs: int, seed: int = 0) -> tuple[list[int], int]:
    rng = np.random.default_rng(seed)
    n_pairs = n_variables * (n_variables - 1) // 2
    base = set(rng.choice(n_pairs, n_edges, replace=False).tolist())
    keys: dict[int, None] = {}
    while len(keys) < n_graphs:
        graph = set(base)
        for pair in rng.integers(0, n_pairs, rng.integers(1, 21)).tolist():
            graph ^= {pair}
        keys[key_of(np.array(sorted(graph)))] = None
    return list(keys), n_pairs


def traced(fill, *args) -> tuple[object, float, float]:
    """``fill(*args)``'s result, its seconds and the peak memory it traced (MB)."""
    tracemalloc.start()
    tic = time.perf_counter()
    out = fill(*args)
    seconds = time.perf_counter() - tic
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return out, seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["200:250:50000", "500:600:20000", "1000:1200:10000"])
    args = parser.parse_args()
    print(machine_line())
    print("| variables | edges | graphs | store | filled MB | ratio | fill s | look-up s | pair sums s "
          "| largest difference |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        n_variables, n_edges, n_graphs = map(int, size.split(":"))
        keys, n_pairs = visited_keys(n_variables, n_edges, n_graphs)
        warm = GraphStore({keys[0]: 0.0})  # load the compiled kernels before any clock or trace starts
        warm.weighted_pair_sums([1.0], n_pairs), list(warm)
        scores = np.random.default_rng(1).normal(size=len(keys)).tolist()
        weights = np.exp(np.array(scores) - max(scores))

        old, old_fill, old_mb = traced(old_store, keys, scores)
        tic = time.perf_counter()
        assert all(old_packed(k) in old for k in keys)
        old_look = time.perf_counter() - tic
        tic = time.perf_counter()
        old_sums = old_pair_sums(list(old), weights, n_pairs)
        old_sum_s = time.perf_counter() - tic

        new, new_fill, new_mb = traced(new_store, keys, scores)
        tic = time.perf_counter()
        assert all(k in new for k in keys)
        new_look = time.perf_counter() - tic
        tic = time.perf_counter()
        new_sums = new.weighted_pair_sums(weights, n_pairs)
        new_sum_s = time.perf_counter() - tic
        difference = float(np.abs(new_sums - old_sums).max())

        common = f"| {n_variables} | {n_edges} | {len(keys):,} |"
        print(f"{common} uint32 positions (before) | {old_mb:.1f} | | {old_fill:.2f} | {old_look:.2f} "
              f"| {old_sum_s:.2f} | |")  # fmt: skip
        print(f"{common} LEB128 gaps (now) | {new_mb:.1f} | {old_mb / new_mb:.2f}x | {new_fill:.2f} | {new_look:.2f} "
              f"| {new_sum_s:.2f} | {difference:.1e} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
