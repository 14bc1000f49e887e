"""Parameter EM's start when complete cases are too few: the Chow-Liu tree against independent variables.

Run:  python benchmarks/bench_parameter_em_start.py [--rate 0.2] [--seed 0] [NETWORK ...]

For each network (default child, insurance and alarm; n = 2,000, the data and masking of
``bench_missing.py``), each learner's structure is learned on the full data, then its
parameters are fitted to the masked rows by parameter EM (``fit(..., missing="em")``) from
each start, in the same process: the labelled network (``LDAGSearch``), the contextual network
(``MPLSearch``) and the stratified graphical model (``NonReversibleMCMC``). The baseline,
independent variables, was the start before 2026-11-27 and is restored here by replacing the
tree in ``pgmpy_sgm.core.missing`` for its runs. Printed: iterations, seconds, the final
observed-data log-likelihood and the held-out log-likelihood per row.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()
sys.path.insert(0, str(HERE))

from bench_missing import held_out, mask, network, simulate, string_states  # noqa: E402

warnings.filterwarnings("ignore")


def structures(train, states: dict, seed: int) -> dict:
    from pgmpy_sgm import LDAGSearch
    from pgmpy_sgm.causal_discovery import MPLSearch, NonReversibleMCMC

    return {"ldag": LDAGSearch(seed=seed, show_progress=False, state_names=states).fit(train).model_,
            "mpl": MPLSearch(seed=seed, state_names=states).fit(train).model_,
            "sgm": NonReversibleMCMC(seed=seed, show_progress=False, state_names=states).fit(train).model_}  # fmt: skip


def parameter_em(kind: str, structure, masked, states: dict):
    from pgmpy_sgm.models import StratifiedGraphicalModel

    if kind == "ldag":
        model = structure.copy()
        model.fit(masked, missing="em", state_names=states)
        return model
    if kind == "mpl":
        return structure.copy().fit(masked, missing="em")
    return StratifiedGraphicalModel(structure).fit(masked, state_names=states, missing="em")


def main() -> None:
    from pgmpy_sgm.core import missing
    from pgmpy_sgm.core.missing import independent_log_probability

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("networks", nargs="*", default=["child", "insurance", "alarm"])
    args = parser.parse_args()
    tree = missing.chow_liu_log_probability
    for name in args.networks:
        bn = network(name)
        states = string_states(bn)
        train, test = simulate(bn, 2000, args.seed), simulate(bn, 10_000, 1000 + args.seed)
        masked = mask(train, args.rate, False, args.seed)
        for kind, structure in structures(train, states, args.seed).items():
            for start in ("independent", "tree"):
                missing.chow_liu_log_probability = tree if start == "tree" else (
                    lambda codes, counts, cards: independent_log_probability(SimpleNamespace(codes=codes, counts=counts,
                                                                                             cards=cards)))  # fmt: skip
                tic = time.perf_counter()
                model = parameter_em(kind, structure, masked, states)
                seconds = time.perf_counter() - tic
                history = model.em_history_
                print(f"{name} {args.rate:.0%} {kind:4s} {start:11s}: {len(history)} iterations, {seconds:.2f} s, "
                      f"observed log-likelihood {history['log_likelihood'].iloc[-1]:.2f}, "
                      f"held out {held_out(model, test, states):.4f}", flush=True)
        missing.chow_liu_log_probability = tree


if __name__ == "__main__":
    main()
