"""Time one NonReversibleMCMC fit in a fresh process (driver of ``bench_labelling.py``).

Usage: ``python benchmarks/_fit_once.py NETWORK N STRATA N_ITER N_CHAINS`` prints one JSON line
with the wall-clock seconds of the fit (data simulated with seed 0 from
``benchmarks/data/NETWORK.bif.gz``), the best score and the number of distinct states visited.
The simulated data depend on the network's node order, which follows the hash seed: run with
``PYTHONHASHSEED=0`` (as ``bench_labelling.py`` does) to fit the same data in every process.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

from pgmpy.readwrite import BIFReader

from pgmpy_sgm.causal_discovery import NonReversibleMCMC

HERE = Path(__file__).resolve().parent


def main() -> None:
    name, n, strata, n_iter, n_chains = sys.argv[1:6]
    with gzip.open(HERE / "data" / f"{name}.bif.gz", "rt") as fh:
        bn = BIFReader(string=fh.read()).get_model()
    data = bn.simulate(int(n), seed=0, show_progress=False)
    est = NonReversibleMCMC(
        n_iter=int(n_iter), n_chains=int(n_chains), strata=strata == "on", seed=0, show_progress=False
    )
    t = time.perf_counter()
    est.fit(data)
    seconds = time.perf_counter() - t
    print(json.dumps({"seconds": seconds, "best_score": float(est.best_score_), "n_visited": int(est.n_visited_)}))


if __name__ == "__main__":
    main()
