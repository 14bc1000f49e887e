"""Cost of checkpointing: the same fit with and without the default checkpoint, in one process.

Run:  python benchmarks/bench_checkpoint.py [--iterations 480000] [--repeats 2]

Heart data (counts), two chains in one process, default search, ``checkpoint=Checkpoint(every=1000)`` (the
default); the checkpoint run writes a new file each repeat. Prints the best wall time of each,
the overhead ratio and the checkpoint's size; then checks that a resumed run equals the
uninterrupted one (same seed). Baseline: the same fit without a checkpoint.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_mcmc import machine  # noqa: E402

from pgmpy_sgm import load_heart_disease  # noqa: E402
from pgmpy_sgm.causal_discovery import Checkpoint, ConvergenceWarning, NonReversibleMCMC  # noqa: E402

warnings.filterwarnings("ignore", category=ConvergenceWarning)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=480_000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    data = load_heart_disease(as_counts=True)
    params = {"n_iter": args.iterations, "n_chains": 2, "seed": 0, "weights": "count", "show_progress": False}
    print(f"machine: {machine()}; load average {os.getloadavg()}")
    NonReversibleMCMC(**{**params, "n_iter": 2000}).fit(data)  # compile kernels and fill caches first
    plain, saved = [], []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(args.repeats):
            tic = time.perf_counter()
            reference = NonReversibleMCMC(**params).fit(data)
            plain.append(time.perf_counter() - tic)
            path = os.path.join(folder, f"run{r}.ckpt")
            tic = time.perf_counter()
            NonReversibleMCMC(**params, checkpoint=path).fit(data)
            saved.append(time.perf_counter() - tic)
            size = os.path.getsize(path)
            print(f"repeat {r}: without checkpoint {plain[-1]:.1f} s, with {saved[-1]:.1f} s, file {size / 1e6:.1f} MB")
        ratio = min(saved) / min(plain)
        print(f"{args.iterations} iterations x 2 chains: best without {min(plain):.1f} s, with {min(saved):.1f} s: "
              f"overhead {100 * (ratio - 1):+.1f}% (goal <= 10%)")
        half = NonReversibleMCMC(**{**params, "n_iter": args.iterations // 2}, checkpoint=os.path.join(folder, "h"))
        half.fit(data)
        resumed = NonReversibleMCMC(**params, checkpoint=Checkpoint(os.path.join(folder, "h"), resume=True)).fit(data)
        same = (resumed.trace_ == reference.trace_).all() and resumed.best_score_ == reference.best_score_
        print(f"resumed at {args.iterations // 2} iterations = uninterrupted run: {bool(same)}")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
