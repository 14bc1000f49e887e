"""Structural EM with the warm M-steps' turns varied: held-out gap and CPU against the full-data fit.

Run: ``python benchmarks/bench_em_turns.py child:2000:0.2:mcar:0 ... alarm:2000:0.2:mcar:4``

Each setting (``network:n:rate:masking:seed``, masked as ``bench_ldag_optima.py`` masks it) is fitted by
``LDAGSearch`` on the full data, then by ``LDAGSearch(missing="em")`` three times: with the warm-started M-steps'
turns unbounded (``turn_budget=None``, the default), off (``turn_budget=0``) and at 4 times the warm climb's moves
(``turn_budget=4.0``). The variants are made by intercepting the M-step's ``set_params`` (the learner has no
setting for it). Printed per run: the held-out gap to the full fit (nats/row), the ratio of CPU seconds to the full
fit's (same process), and EM's iterations.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_ldag_optima  # noqa: E402

from pgmpy_sgm import LDAGSearch  # noqa: E402

#: ``turn_budget`` of the warm M-steps in each variant.
VARIANTS = {"unbounded": None, "none": 0.0, "auto4": 4.0}
_WARM_TURNS = {"budget": None}
_set_params = LDAGSearch.set_params


def _set_params_with_warm_turns(self, **params):
    if "start" in params and params.get("turn_budget", "unset") is None:  # a warm M-step of structural EM
        params["turn_budget"] = _WARM_TURNS["budget"]
    return _set_params(self, **params)


def run(spec: str) -> None:
    _, _, _, _, seed, _, states, train, test, masked = bench_ldag_optima.masked_setting(spec)
    tic = time.process_time()
    full = LDAGSearch(seed=seed, show_progress=False, state_names=states).fit(train)
    full_cpu = time.process_time() - tic
    reference = bench_ldag_optima.held_out(full.model_, test, states)
    for label, budget in VARIANTS.items():
        _WARM_TURNS["budget"] = budget
        tic = time.process_time()
        est = LDAGSearch(seed=seed, show_progress=False, state_names=states, missing="em").fit(masked)
        cpu = time.process_time() - tic
        gap = bench_ldag_optima.held_out(est.model_, test, states) - reference
        print(f"{spec} {label}: gap {gap:+.4f} cpu-ratio {cpu / full_cpu:.2f} iters {len(est.em_history_)} "
              f"full {full_cpu:.1f}s em {cpu:.1f}s", flush=True)


if __name__ == "__main__":
    LDAGSearch.set_params = _set_params_with_warm_turns
    for spec in sys.argv[1:]:
        run(spec)
