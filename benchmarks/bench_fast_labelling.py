"""Labelling quality of the search's fast schedule and of the default, against brute force.

Run from the repository root:  python benchmarks/bench_fast_labelling.py

The random centers of bench_labelling_quality.py (16 tables per parent space, same generator and
seed) and the four MASS housing centers, labelled with ``optimal_groups(method="auto")`` (what
``SGMScore.optimal_strata``, ``model_`` and ``posterior_`` report) and ``method="fast"`` (what the
chains of ``NonReversibleMCMC`` move on); brute force is the exact programme forced with
``method="exact"``. Also the complete housing graph's ``optimal_strata``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_labelling_quality as quality  # noqa: E402

from pgmpy_sgm import SGMScore  # noqa: E402
from pgmpy_sgm.core.lines import group_weights  # noqa: E402
from pgmpy_sgm.core.optimize import optimal_groups  # noqa: E402

SPACES = ((3, 3, 2), (2, 3, 3), (4, 2, 2), (2, 2, 4), (2, 2, 2, 2), (3, 4, 2), (2, 3, 4))


def random_centers(n_tables: int = 16) -> None:
    rng = np.random.default_rng(2026)
    for cards in SPACES:
        tables = quality.centers(rng, cards, n_tables)
        exact = [optimal_groups(c, cards, method="exact").value for c in tables]
        for method in ("auto", "fast"):
            tic = time.process_time()
            gaps = [
                exact[i] - optimal_groups(c, cards, method=method, seed=i).value for i, c in enumerate(tables)
            ]
            ms = 1000 * (time.process_time() - tic) / n_tables
            print(f"{cards} {method}: {quality.summary(gaps)} ({ms:.0f} ms per center)", flush=True)


def housing() -> None:
    frame = pd.read_csv(ROOT / "tests" / "data" / "mass_housing.csv", comment="#")
    axes = ["Sat", "Infl", "Type", "Cont"]
    codes = [pd.Categorical(frame[a]).codes for a in axes]
    table = np.zeros([len(set(frame[a])) for a in axes])
    np.add.at(table, tuple(codes), frame["Freq"].to_numpy(dtype=float))
    for method in ("auto", "fast"):
        gains = []
        for center in range(4):
            parents = tuple(k for i, k in enumerate(table.shape) if i != center)
            counts = np.moveaxis(table, center, -1).reshape(-1, table.shape[center])
            base = group_weights(counts, np.arange(counts.shape[0]))
            gains.append(round(optimal_groups(counts, parents, method=method).value - base, 3))
        print(f"housing {method}: gain per center {gains} (brute force 36.062, 40.544, 40.079, beyond)")
    score = SGMScore(frame, weights="Freq")
    graph = score.optimal_strata([(a, b) for i, a in enumerate(axes) for b in axes[i + 1 :]])
    print("complete housing graph, optimal_strata:", {k: len(v) for k, v in graph.strata.items()})


if __name__ == "__main__":
    random_centers()
    housing()
