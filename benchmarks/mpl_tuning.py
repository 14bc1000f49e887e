"""Choice of the MPL structure prior's ``kappa`` by held-out log-likelihood, on data bench_mpl.py does not use.

Run: ``python benchmarks/mpl_tuning.py > benchmarks/results_mpl_tuning.txt`` (about 10 minutes on 2 cores).

Generating models of ``_cmn_data`` with seeds 10 and 11 (the benchmark uses seed 0), training
n = 500 and 2000 (and 10,000 for seed 10), test n = 10,000 (seed 2000 + seed); and the bnlearn
network sachs (not in the benchmark), n = 500 and 2000. For each ``kappa`` in {1, 0.5, 0.2, 0.1}:
``MPLSearch(MPLScoreSettings(kappa=kappa), seed=0)``, its ``ContextualMarkovNetwork.fit`` (pseudo-count 1), and the
held-out log-likelihood per row. One line per fit: family, size, seed, n, kappa, nats/row, contexts.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _cmn_data as cmn  # noqa: E402
from predictive import as_categories, load_network, network_states  # noqa: E402

from pgmpy_sgm.causal_discovery import MPLSearch  # noqa: E402
from pgmpy_sgm.structure_score import MPLScoreSettings  # noqa: E402

warnings.filterwarnings("ignore")
KAPPAS = (1.0, 0.5, 0.2, 0.1)


def one(train, test, kappa, states=None) -> tuple[float, int]:
    est = MPLSearch(MPLScoreSettings(kappa=kappa), seed=0, state_names=states).fit(train)
    model = est.model_.fit(train, state_names=states)
    return model.log_likelihood(test) / len(test), sum(len(c) for c in est.contexts_.values())


def main() -> None:
    shapes = [("blocks", 2), ("grid", (3, 4)), ("grid", (4, 5))]
    for seed in (10, 11):
        for kind, size in shapes:
            model = cmn.blocks(size, seed) if kind == "blocks" else cmn.grid(*size, seed)
            test, _ = cmn.sample(model, 10_000, 2000 + seed)
            for n in (500, 2000) + ((10_000,) if seed == 10 else ()):
                train, _ = cmn.sample(model, n, seed)
                for kappa in KAPPAS[:3] if n == 10_000 else KAPPAS:
                    ll, n_ctx = one(train, test, kappa)
                    print(kind, size, seed, n, kappa, round(ll, 4), n_ctx, flush=True)
        bn = load_network("sachs")
        states = network_states(bn)
        test = as_categories(bn.simulate(10_000, seed=2000 + seed, show_progress=False), states)
        for n in (500, 2000):
            train = as_categories(bn.simulate(n, seed=seed, show_progress=False), states)
            for kappa in KAPPAS:
                ll, n_ctx = one(train, test, kappa, states)
                print("sachs", seed, n, kappa, round(ll, 4), n_ctx, flush=True)


if __name__ == "__main__":
    main()
