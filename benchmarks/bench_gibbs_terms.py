"""The E-step's Gibbs draws: each update from the model's terms around the variable, against the whole model.

Run:  python benchmarks/bench_gibbs_terms.py [--network insurance] [--rate 0.2] [--seed 0] [--repeats 3]

Data of ``bench_missing.py`` (``n = 2000`` rows simulated from the network, cells removed
completely at random). Two models complete the incomplete rows by
:func:`~pgmpy_sgm.core.completions.complete_by_draws` (20 burn-in sweeps, 200 draws): the
network with its own parameters fitted to the complete rows before masking (a
``LabeledBayesianNetwork`` without labels), and the Chow-Liu tree of the masked rows. Each is
run as the package builds it (terms declared, so an update reads only the terms that hold
the variable) and, as the baseline in the same process, wrapped so that it declares its
scopes but no terms (every update evaluates the whole model). The same random numbers are used,
and the draws agree except where a row's current values have probability zero in a term away
from the variable: the whole model then gives every state ``-inf`` and the update falls back
to uniform, while the terms around the variable still give its conditional (the fitted network
has zero cells; the tree is smoothed). The script prints both times (best of ``--repeats``)
and the share of drawn cells that agree.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
from bench_missing import mask, network, simulate, string_states  # noqa: E402

warnings.filterwarnings("ignore")


def whole_model(log_probability):
    """The same function with its scopes but without its terms: every Gibbs update reads the whole model."""
    from pgmpy_sgm.core.posterior_parts import with_scopes

    return with_scopes(lambda codes: log_probability(codes), log_probability.scopes)


def timed_draws(rows, counts, cards, log_probability, repeats: int) -> tuple[float, np.ndarray]:
    from pgmpy_sgm.core.completions import complete_by_draws

    best, drawn = np.inf, None
    for _ in range(repeats):
        tic = time.perf_counter()
        drawn, _ = complete_by_draws(rows, counts, cards, log_probability, np.random.default_rng(0), 200)
        best = min(best, time.perf_counter() - tic)
    return best, drawn


def main() -> None:
    from pgmpy_sgm.core.missing import IncompleteTable
    from pgmpy_sgm.core.tree_start import chow_liu_log_probability
    from pgmpy_sgm.models import LabeledBayesianNetwork

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="insurance")
    parser.add_argument("--rate", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    bn = network(args.network)
    states = string_states(bn)
    train = simulate(bn, 2000, args.seed)
    masked = mask(train, args.rate, False, args.seed)
    table = IncompleteTable.from_frame(masked[list(states)], state_names=states)
    incomplete = (table.codes < 0).any(axis=1)
    rows, counts = table.codes[incomplete], table.counts[incomplete]
    network_model = LabeledBayesianNetwork(bn.edges())
    network_model.add_nodes_from(bn.nodes())
    network_model.fit(train, state_names=states)
    models = {
        "network": network_model.log_probability_function(table.variables, table.state_names),
        "Chow-Liu tree": chow_liu_log_probability(table.codes, table.counts, table.cards),
    }
    print(f"{args.network}, n = 2000, {args.rate:.0%} of cells missing (seed {args.seed}): {len(rows)} distinct "
          f"incomplete rows, {int((rows < 0).sum())} missing cells; 220 sweeps each, best of {args.repeats}")
    print("| model | terms | whole-model updates (s) | updates from the terms around the variable (s) | ratio | "
          "same draws |")
    print("|---|---|---|---|---|---|")
    for name, log_probability in models.items():
        whole, whole_drawn = timed_draws(rows, counts, table.cards, whole_model(log_probability), args.repeats)
        local, local_drawn = timed_draws(rows, counts, table.cards, log_probability, args.repeats)
        same = float(np.mean(whole_drawn == local_drawn))
        print(f"| {name} | {len(log_probability.terms)} | {whole:.2f} | {local:.2f} | {whole / local:.1f}x | "
              f"{same:.4%} of cells |")


if __name__ == "__main__":
    main()
