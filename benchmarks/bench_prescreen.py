"""MPLSearch's blanket pre-screen with each candidate's family checked at once against one by one, in one process.

Run: ``python benchmarks/bench_prescreen.py [--repeats 5]``

Each step of the pre-screen scores every candidate's extension of a node's blanket in one pass over the rows
(``MPLScore.extension_terms``). Before, it first checked each candidate's family on its own twice: the score's
``_check_family`` and the data's ``_resolve`` (known columns, no repeats, at most ``max_cells`` cells), two
Python calls per candidate, per step, per node. Both are now one check of all candidates
(``_check_family(variable, blanket + candidates)``, ``EncodedData._extensions_allowed``; a refused candidate still
gets the per-candidate error). The baseline puts the per-candidate checks back in front of ``extension_terms``.
Data as ``bench_mpl.py`` makes them: grid-100 at n = 500, blocks-50 at 2,000, alarm at 2,000. Printed: median
seconds of the pre-screen of every node (``prescreen_blanket``, a fresh score each time) with each, the ratio and
whether the blankets are identical.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _cmn_data  # noqa: E402
from _machine import alternated, machine_line  # noqa: E402
from predictive import as_categories, load_network, network_states  # noqa: E402

from pgmpy_sgm.causal_discovery._mpl_steps import Deadline, prescreen_blanket  # noqa: E402
from pgmpy_sgm.structure_score import MPLScore  # noqa: E402

AT_ONCE = MPLScore.extension_terms


def one_by_one(self, variable, blanket, candidates):
    """The baseline: every candidate's family checked on its own first, as the code before did."""
    blanket, candidates = tuple(blanket), list(candidates)
    for w in candidates:
        self._check_family(variable, (*blanket, w))
    for w in candidates:
        self.encoded._resolve((*blanket, w, variable))
    return AT_ONCE(self, variable, blanket, candidates)


def datasets():
    model = _cmn_data.grid(10, 10, 0)
    yield "grid-100 n=500", _cmn_data.sample(model, 500, seed=0)[0], {v: [0, 1] for v in sorted(model[0].nodes())}
    model = _cmn_data.blocks(10, 0)
    yield "blocks-50 n=2000", _cmn_data.sample(model, 2000, seed=0)[0], {v: [0, 1] for v in sorted(model[0].nodes())}
    bn = load_network("alarm")
    states = network_states(bn)
    train = as_categories(bn.simulate(2000, seed=0, show_progress=False), states)
    yield "alarm n=2000", train[sorted(train.columns)], states


def screen(train, states, at_once: bool) -> tuple[float, dict]:
    MPLScore.extension_terms = AT_ONCE if at_once else one_by_one
    try:
        score = MPLScore(train, state_names=states)
        start = time.perf_counter()
        blankets = {v: prescreen_blanket(score, v, None, Deadline(None)) for v in train.columns}
        return time.perf_counter() - start, blankets
    finally:
        MPLScore.extension_terms = AT_ONCE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(machine_line())
    print("| data | one by one s | at once s | ratio | blankets identical |\n|---|---|---|---|---|")
    for label, train, states in datasets():
        medians, found = alternated(functools.partial(screen, train, states), (False, True), args.repeats)
        slow, fast = medians[False], medians[True]
        print(f"| {label} | {slow:.3f} | {fast:.3f} | {slow / fast:.2f}x | {found[True] == found[False]} |", flush=True)


if __name__ == "__main__":
    main()
