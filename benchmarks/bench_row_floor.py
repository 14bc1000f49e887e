"""What dropping a share of the rows costs the full-data fit, held out: references for EM's gap.

Run:  python benchmarks/bench_row_floor.py --learner ldag|sgm [--keep 0.9] [--seeds 0,1,2] [NETWORK ...]

For each network (default child, insurance and alarm) and seed, the data of ``bench_missing.py``
(n = 2,000, 10,000 fresh complete test rows) are fitted whole and on a random ``keep`` share of
their rows, in the same process; printed: each fit's held-out log-likelihood per row and the
difference. With a share r of cells missing completely at random, EM sees 1 - r of every cell,
but a family of k variables is complete in only (1 - r)^k of the rows: a fit on 1 - r of the
rows is an optimistic reference for EM (every dependence is seen in more rows), and a fit on
(1 - r)^2 of them (the rows in which a given pair is complete) a lower one.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()
sys.path.insert(0, str(HERE))

from bench_missing import held_out, network, sgm_model, simulate, string_states  # noqa: E402

warnings.filterwarnings("ignore")


def fit_held_out(kind: str, data, test, states: dict, seed: int) -> float:
    from pgmpy_sgm import LDAGSearch
    from pgmpy_sgm.causal_discovery import NonReversibleMCMC

    if kind == "ldag":
        model = LDAGSearch(seed=seed, show_progress=False, state_names=states).fit(data).model_
    else:
        est = NonReversibleMCMC(seed=seed, show_progress=False, state_names=states).fit(data)
        model = sgm_model(est, data, "error")
    return held_out(model, test, states)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learner", choices=("ldag", "sgm"), required=True)
    parser.add_argument("--keep", type=float, default=0.9, help="share of the rows kept (default 0.9)")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("networks", nargs="*", default=["child", "insurance", "alarm"])
    args = parser.parse_args()
    differences = []
    for name in args.networks:
        bn = network(name)
        states = string_states(bn)
        for seed in map(int, args.seeds.split(",")):
            train, test = simulate(bn, 2000, seed), simulate(bn, 10_000, 1000 + seed)
            whole = fit_held_out(args.learner, train, test, states, seed)
            part = fit_held_out(args.learner, train.sample(frac=args.keep, random_state=seed), test, states, seed)
            differences.append(part - whole)
            print(f"{args.learner} {name} seed {seed}: all rows {whole:.4f}, {args.keep:.0%} of rows {part:.4f}, "
                  f"difference {part - whole:+.4f}", flush=True)  # fmt: skip
    ordered = sorted(differences)
    print(f"{len(ordered)} runs: median difference {ordered[len(ordered) // 2]:+.4f}, "
          f"{sum(d > -0.02 for d in ordered)} within 0.02")


if __name__ == "__main__":
    main()
