"""CPT trees of unlabelled families: built directly against the split search, in one process.

Run: ``python benchmarks/bench_cpt_tree.py [--parents 6 7 8] [--repeats 3]``

For families of 4-state parents whose configurations are all in different groups (what an
unlabelled family of a wide ``LDAGSearch`` gets), ``factors._cpt_tree.build_index_tree`` is
timed as it is (a block whose configurations are all apart is split on its free variables in
order) and with the split search forced (``_all_apart`` replaced by ``False``: the baseline, the
code before that path); the two trees must be equal. Printed per size: the median seconds of
each over ``--repeats`` runs, their ratio, and whether the trees agree.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from pgmpy_sgm.factors import _cpt_tree


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


if __name__ == "__main__":
    main()
