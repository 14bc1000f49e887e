"""CPT trees of unlabelled families: built directly against the split search, in one process.

Run: ``python benchmarks/bench_cpt_tree.py [--parents 6 7 8] [--repeats 3]``

For families of 4-state parents whose configurations are all in different groups (what an
unlabelled family of a wide ``LDAGSearch`` gets), ``factors._cpt_tree.build_index_tree`` is
timed as it is (a block whose configurations are all apart is split on its free variables in
order) and with the split search forced (``_all_apart`` replaced by ``False``: the baseline, the
code before that path); the two trees must be equal. Printed per size: the median seconds of
each over ``--repeats`` runs, their ratio, and whether the trees agree. Then a whole ``TreeCPD``
of the same family (binary child, uniform values) is timed as it is now (its tree built on first
use, so a fitted network pays for the table only) and with its tree asked for at once (the
baseline: what the constructor did before, ``build_index_tree`` then ``to_named_tree``).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from pgmpy_sgm.factors import TreeCPD, _cpt_tree


def timed(groups: np.ndarray, repeats: int) -> tuple[float, tuple]:
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        tree = _cpt_tree.build_index_tree(groups)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parents", type=int, nargs="+", default=[6, 7, 8])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{platform.machine()}, Python {platform.python_version()}")
    direct = _cpt_tree._all_apart
    for m in args.parents:
        groups = np.arange(4**m).reshape((4,) * m)
        _cpt_tree._all_apart = direct
        fast, fast_tree = timed(groups, args.repeats)
        _cpt_tree._all_apart = lambda block: False
        searched, searched_tree = timed(groups, args.repeats)
        _cpt_tree._all_apart = direct
        print(f"{m} parents, {4**m:,} configurations: direct {fast:.3f} s, searched {searched:.3f} s, "
              f"ratio {searched / fast:.1f}x, same tree: {fast_tree == searched_tree}", flush=True)
    for m in args.parents:
        lazy, eager = cpd_seconds(m, args.repeats, False), cpd_seconds(m, args.repeats, True)
        print(f"{m} parents: TreeCPD {lazy:.3f} s, with its tree at once {eager:.3f} s, ratio {eager / lazy:.1f}x",
              flush=True)  # fmt: skip


def cpd_seconds(m: int, repeats: int, with_tree: bool) -> float:
    """Median seconds to construct the TreeCPD of a binary child of ``m`` 4-state parents, all apart."""
    n = 4**m
    values = np.full((2, n), 0.5)
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        cpd = TreeCPD("y", 2, [f"x{i}" for i in range(m)], [4] * m, np.arange(n), values)
        if with_tree:
            cpd.tree  # noqa: B018
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


if __name__ == "__main__":
    main()
