"""Time one NonReversibleMCMC fit in a fresh process (driver of ``bench_labelling.py``).

Usage: ``python benchmarks/_fit_once.py NETWORK N STRATA N_ITER N_CHAINS [METHOD]`` prints one JSON
line with the wall-clock and CPU seconds of the fit (data simulated with seed 0 from
``benchmarks/data/NETWORK.bif.gz``, or from pgmpy's random network of 20 3-state variables and
30 edges, seed 0, for ``NETWORK`` = ``random3``; ``METHOD`` is NonReversibleMCMC's ``method``, default its
default), the seconds spent importing (pgmpy and this package) and simulating the data, the
best score and the number of distinct states visited.
The simulated data depend on the network's node order, which follows the hash seed: run with
``PYTHONHASHSEED=0`` (as ``bench_labelling.py`` does) to fit the same data in every process.
"""

from __future__ import annotations

import time

_T0 = time.perf_counter()

import gzip  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from pgmpy.models import DiscreteBayesianNetwork  # noqa: E402
from pgmpy.readwrite import BIFReader  # noqa: E402

from pgmpy_sgm.causal_discovery import NonReversibleMCMC  # noqa: E402

_IMPORTED = time.perf_counter() - _T0

HERE = Path(__file__).resolve().parent

#: Network name of a random 3-state network (pgmpy's ``get_random``: 20 nodes, 30 edges, seed 0).
RANDOM3 = "random3"


def main() -> None:
    t = time.perf_counter()
    name, n, strata, n_iter, n_chains = sys.argv[1:6]
    options = {"method": sys.argv[6]} if len(sys.argv) > 6 else {}
    if name == RANDOM3:
        bn = DiscreteBayesianNetwork.get_random(n_nodes=20, n_edges=30, n_states=3, seed=0)
    else:
        with gzip.open(HERE / "data" / f"{name}.bif.gz", "rt") as fh:
            bn = BIFReader(string=fh.read()).get_model()
    data = bn.simulate(int(n), seed=0, show_progress=False)
    data.columns = [f"X{c}" if name == RANDOM3 else c for c in data.columns]
    simulated = time.perf_counter() - t
    est = NonReversibleMCMC(
        n_iter=int(n_iter), n_chains=int(n_chains), strata=strata == "on", seed=0, show_progress=False, **options
    )
    t, cpu = time.perf_counter(), time.process_time()
    est.fit(data)
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu_seconds": cpu,
                "import_seconds": _IMPORTED,
                "simulate_seconds": simulated,
                "best_score": float(est.best_score_),
                "n_visited": int(est.n_visited_),
            }
        )
    )


if __name__ == "__main__":
    main()
