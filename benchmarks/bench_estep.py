"""One E-step of EM on a bnlearn network (child by default) under its full-data network: time, table size, memory.

Run:  python benchmarks/bench_estep.py N RATE capped|exact [NETWORK]
      PYTHONPATH=<checkout of other code> python benchmarks/bench_estep.py N RATE capped|exact [NETWORK]

Data: NETWORK (``child``, ``insurance``, ``alarm``, ...) simulated with ``N`` rows (seed 0), cells masked MCAR
at ``RATE`` (seed 0), as in ``bench_missing.py``. The model: the network's own graph fitted on the rows before
masking (BDeu, equivalent sample size 1). ``capped``: structural EM's E-step (``max_kept=8, n_tail_draws=2,
tail_mass=0.01``); ``exact``: parameter EM's exact E-step (every completion where the code has no split parts;
the parts coupled on the model's families where it has). Prints the median of 3 E-steps, the completed table's
rows, the observed-data log-likelihood (the same in both codes when both are exact), the rows completed
exactly / capped / drawn, the time of ``observed_log_likelihood`` and the process's peak resident size.
"""

import resource
import sys
import time
from pathlib import Path

from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from bench_missing import mask, network, simulate, string_states  # noqa: E402

from pgmpy_sgm import LabeledBayesianNetwork  # noqa: E402
from pgmpy_sgm.core import missing  # noqa: E402


def main() -> None:
    n, rate, kind = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    name = sys.argv[4] if len(sys.argv) > 4 else "child"
    bn = network(name)
    states = string_states(bn)
    train = simulate(bn, n, 0)
    net = LabeledBayesianNetwork(bn.edges())
    net.add_nodes_from(train.columns)
    net.fit(train, state_names=states, equivalent_sample_size=1)
    table = missing.IncompleteTable.from_frame(mask(train, rate, False, 0), None, states)
    f = net.log_probability_function(table.variables, table.state_names)
    split = hasattr(f, "scopes")
    times = []
    for _ in range(3):
        tic = time.perf_counter()
        if kind == "exact":
            coupled = {"coupled_scopes": f.scopes} if split else {}
            done = missing.complete_rows(table, f, **coupled)
        else:
            done = missing.complete_rows(table, f, tail_mass=0.01, max_kept=8, n_tail_draws=2)
        times.append(time.perf_counter() - tic)
    tic = time.perf_counter()
    observed = missing.observed_log_likelihood(table, f, missing.MAX_COMPLETIONS)
    seconds = time.perf_counter() - tic
    print(f"{name} {'split' if split else 'whole rows'} n={n} rate={rate} {kind}: "
          f"E-step median {np.median(times):.2f} s, "
          f"table rows {len(done.counts)}, log-lik {done.log_likelihood:.4f}, exact/capped/drawn "
          f"{done.n_exact:.0f}/{done.n_capped:.0f}/{done.n_drawn:.0f}; observed_log_likelihood {observed:.4f} in "
          f"{seconds:.2f} s; peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.2f} GB", flush=True)


if __name__ == "__main__":
    main()
