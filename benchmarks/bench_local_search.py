"""The compiled labelling searches against the Python and numpy code they replace, family by family.

Run from the repository root:  python benchmarks/bench_local_search.py [--tables 8] [--repeats 3]

Families of a labelled DAG beyond the exact search (more than 16 parent configurations), with
counts drawn as a node of ``r`` states over parents of the given cardinalities whose rows follow
a few distributions (so that classes are worth finding), ``n`` rows in all; the BDeu class weight
with ESS 5 and the default kappa (0.2), as ``LDAGScore`` labels a family. Baseline:
``_label_search.local_search`` with the scalar class weight (``bdeu_groups._one_class_weight``),
which is what ``optimal_bdeu_groups`` ran before; new: ``compiled_local_search``, in the same
process. Printed per parent space: median CPU milliseconds of each (best of ``--repeats`` per
table), their ratio, how many tables end in the same partition, and the largest difference of
the classes' summed weight (the compiled search's C ``lgamma`` differs from Python's in the last
bits, so equal gains may be broken either way).

A second table does the same for the exact search of up to 16 configurations. Before: the weights of
all valid blocks from the blocks-by-configurations membership matrix (``np.einsum``, then scipy's
``gammaln``; ``best_partition_by_block``), then the dynamic programme over every block (the skipping of
dominated blocks switched off, as before it existed). After: one compiled pass over the blocks' bitmasks
(``mask_weights``), then the programme without the blocks that peeling one configuration beats
(``_dp_kernels.dominated_blocks``), which is what ``optimal_bdeu_groups`` runs.
"""

from __future__ import annotations

import argparse
import math
import platform
import time

import numpy as np

from pgmpy_sgm.core import _exact_partition
from pgmpy_sgm.core._exact_partition import best_regular_partition, valid_blocks
from pgmpy_sgm.core._label_search import local_search
from pgmpy_sgm.core._local_search_kernels import compiled_local_search, mask_weights
from pgmpy_sgm.core.bdeu_groups import CachedBlockWeights, _one_class_weight, _weights
from pgmpy_sgm.core.optimize import best_partition_by_block, partition_space
from pgmpy_sgm.structure_score.ldag_settings import DEFAULT_KAPPA

#: (parent cardinalities, states of the node, rows)
SPACES = (((2, 2, 2, 2, 2), 2, 2000), ((2, 2, 2, 2, 2, 2), 2, 5000), ((4, 4, 2), 3, 2000), ((3, 3, 3), 4, 2000),
          ((4, 4, 4), 3, 5000), ((9, 9), 4, 5000), ((5, 5, 4), 3, 5000))


def family_counts(rng, cards, r: int, n: int) -> np.ndarray:
    q = math.prod(cards)
    protos = rng.dirichlet(np.full(r, 0.7), size=4)
    rows = rng.multinomial(n, rng.dirichlet(np.ones(q)))
    return np.array([rng.multinomial(m, protos[rng.integers(4)]) for m in rows], dtype=float)

#: Spaces of the exact search: (parent cardinalities, states of the node, rows)
EXACT_SPACES = (((2, 2, 2), 2, 2000), ((2, 2, 2, 2), 2, 5000), ((4, 4), 3, 5000), ((2, 2, 3), 3, 2000),
                ((2, 2, 4), 2, 5000))


def python_search(space, counts, a: float, log_kappa: float) -> tuple[list[int], CachedBlockWeights]:
    weights = CachedBlockWeights(counts, lambda pooled, lam: _weights(pooled, lam, a, log_kappa),
                                 lambda pooled, size: _one_class_weight(pooled, size, a, log_kappa))
    return sorted(local_search(space, weights)), weights


def cpu_ms(search, repeats: int, *arguments) -> tuple[float, object]:
    """Best CPU milliseconds of ``repeats`` calls of ``search(*arguments)``, and its result."""
    best, result = math.inf, None
    for _ in range(repeats):
        tic = time.process_time()
        result = search(*arguments)
        best = min(best, time.process_time() - tic)
    return 1000 * best, result


def _nothing_dominated(blocks, *_):
    return np.zeros(blocks.size, dtype=bool)


def numpy_exact(cards, counts, a: float, log_kappa: float) -> np.ndarray:
    pruning = _exact_partition.dominated_blocks
    _exact_partition.dominated_blocks = _nothing_dominated
    try:
        return best_partition_by_block(cards, (False,) * len(cards), counts,
                                       lambda pooled, lam: _weights(pooled, lam, a, log_kappa))
    finally:
        _exact_partition.dominated_blocks = pruning


def compiled_exact(cards, counts, a: float, log_kappa: float) -> np.ndarray:
    forbidden = (False,) * len(cards)
    weights = mask_weights(valid_blocks(cards, forbidden), counts, a, log_kappa)
    return best_regular_partition(cards, forbidden, weights, counts.shape[0])


def exact_table(rng, tables: int, repeats: int, log_kappa: float) -> None:
    print("\n| parents | states | rows | configurations | valid blocks | before ms | after ms "
          "| ratio | same classes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for cards, r, n in EXACT_SPACES:
        q = math.prod(cards)
        a = 5.0 / (q * r)
        before, after, same = [], [], 0
        for _ in range(tables):
            counts = family_counts(rng, cards, r, n)
            ms_before, expected = cpu_ms(numpy_exact, repeats, cards, counts, a, log_kappa)
            ms_after, found = cpu_ms(compiled_exact, repeats, cards, counts, a, log_kappa)
            before.append(ms_before)
            after.append(ms_after)
            same += found.tolist() == expected.tolist()
        b, c = float(np.median(before)), float(np.median(after))
        n_blocks = valid_blocks(cards, (False,) * len(cards)).size
        print(f"| {cards} | {r} | {n} | {q} | {n_blocks} | {b:.3f} | {c:.3f} | {b / c:.1f} | {same} of {tables} |",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{platform.machine()}, {platform.python_version()}")
    rng = np.random.default_rng(2026)
    log_kappa = math.log(DEFAULT_KAPPA)
    compiled_local_search(partition_space((2, 2), (False, False)), np.ones((4, 2)), 1.0)  # compile or load
    print("| parents | states | rows | configurations | Python ms | compiled ms | ratio | same partition | "
          "largest value difference |")
    print("|---|---|---|---|---|---|---|---|---|")
    for cards, r, n in SPACES:
        q = math.prod(cards)
        space = partition_space(cards, (False,) * len(cards))
        a = 5.0 / (q * r)
        python_ms, compiled_ms, same, gap = [], [], 0, 0.0
        for _ in range(args.tables):
            counts = family_counts(rng, cards, r, n)
            ms_python, (expected, weights) = cpu_ms(python_search, args.repeats, space, counts, a, log_kappa)
            ms_compiled, found = cpu_ms(compiled_local_search, args.repeats, space, counts, a, log_kappa)
            python_ms.append(ms_python)
            compiled_ms.append(ms_compiled)
            same += found == expected
            gap = max(gap, abs(sum(map(weights, found)) - sum(map(weights, expected))))
        p, c = float(np.median(python_ms)), float(np.median(compiled_ms))
        print(f"| {cards} | {r} | {n} | {q} | {p:.2f} | {c:.3f} | {p / c:.1f} | {same} of {args.tables} | {gap:.1e} |",
              flush=True)
    exact_table(rng, args.tables, args.repeats, log_kappa)


if __name__ == "__main__":
    main()
