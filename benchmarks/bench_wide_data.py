"""Wide data: peak RSS of SGMScore on 10^6 rows x 500 binary int8 columns; family-term throughput against BDeu.

Run: ``python benchmarks/bench_wide_data.py STEP ROWS VARIABLES [MAX_TIME|none] [SEED]`` with ``STEP`` ``sgm``
(``SGMScore(frame)``, then 40 random families of 2-4 parents scored from scratch, the count cache cleared before
each) or ``bdeu`` (pgmpy's ``BDeu`` on the frame as categories, the first 10 of the same families through
``_local_score``), ``ldag`` (a whole ``LDAGSearch`` fit, defaults and ``seed=0``, with ``max_time=MAX_TIME``
when given) or ``sgm-search`` (the same with ``NonReversibleMCMC``, and the generating graph's score with its
optimal strata beside it); ``SEED`` (default 0) seeds the search; prints one JSON line with the times,
families per second and the process's peak RSS.
Run each step in its own process, so that peaks do not mix. Data: ``bench_scale.chunk(ROWS, VARIABLES, 0)``
(int8 columns; every variable copies one of the three before it with probability 0.8, every fifth only
in one context of a neighbour).
"""

from __future__ import annotations

import json
import resource
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import chunk, structure_edges  # noqa: E402


def families(columns: list, n_families: int = 40, seed: int = 1) -> list[tuple[str, tuple[str, ...]]]:
    """Random ``(child, parents)`` with 2-4 parents."""
    rng = np.random.default_rng(seed)
    d = len(columns)
    out = []
    for c in rng.integers(0, d, n_families):
        others = [x for x in range(d) if x != c]
        parents = rng.choice(others, size=int(rng.integers(2, 5)), replace=False)
        out.append((columns[c], tuple(columns[p] for p in parents)))
    return out


def learn(step: str, frame, max_time: float | None, seed: int = 0) -> dict:
    """A whole search on the frame: ``LDAGSearch`` or ``NonReversibleMCMC`` (defaults, ``seed``, ``max_time``).

    For ``NonReversibleMCMC`` also the score of the generating graph with its optimal strata
    (``generating_score``) and the search's best minus it (``vs_generating``).
    """
    from pgmpy_sgm.causal_discovery import LDAGSearch, NonReversibleMCMC

    learner = LDAGSearch if step == "ldag" else NonReversibleMCMC
    tic, cpu = time.perf_counter(), time.process_time()
    est = learner(seed=seed, show_progress=False, max_time=max_time).fit(frame)
    out = {"seed": seed, "fit_s": time.perf_counter() - tic, "fit_cpu_s": time.process_time() - cpu,
           "max_time": max_time, "edges": len(est.model_.edges()), "best_score": float(est.best_score_)}  # fmt: skip
    if step == "ldag":
        out.update(labels=est.model_.n_labels(), stopped_by=est.restarts_stopped_by_)
    else:
        scorer = est.scorer_
        generating = float(scorer.score(scorer.optimal_strata(structure_edges(frame.shape[1]))))
        out.update(generating_score=generating, vs_generating=float(est.best_score_) - generating,
                   chain_bests=[float(v) for v in est.convergence_["best_score"]])  # fmt: skip
    return out


def main() -> None:
    warnings.filterwarnings("ignore")
    step, rows, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    tic = time.perf_counter()
    frame = chunk(rows, d, 0)
    out = {"step": step, "simulate_s": time.perf_counter() - tic,
           "frame_mb": frame.memory_usage(deep=True).sum() / 2**20}  # fmt: skip
    todo = families(list(frame.columns))
    if step == "sgm":
        from pgmpy_sgm import SGMScore

        tic = time.perf_counter()
        score = SGMScore(frame)
        out["encode_s"] = time.perf_counter() - tic
        out["distinct_rows"] = int(score.engine.encoded.codes.shape[0])
        score._local_score(*todo[0])  # the compiled kernels loaded once, before the timing
        tic = time.perf_counter()
        for child, parents in todo:
            score.engine.encoded._cache.clear()
            score._local_score(child, parents)
        out["families_per_s"] = len(todo) / (time.perf_counter() - tic)
    elif step == "bdeu":
        from pgmpy.structure_score import BDeu

        tic = time.perf_counter()
        bdeu = BDeu(frame.astype("category"))
        out["setup_s"] = time.perf_counter() - tic
        bdeu._local_score(*todo[0])
        tic = time.perf_counter()
        for child, parents in todo[:10]:
            bdeu._local_score(child, parents)
        out["families_per_s"] = 10 / (time.perf_counter() - tic)
    elif step in ("ldag", "sgm-search"):
        max_time = float(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] != "none" else None
        out.update(learn(step, frame, max_time, int(sys.argv[5]) if len(sys.argv) > 5 else 0))
    else:
        raise SystemExit(f"STEP must be 'sgm', 'bdeu', 'ldag' or 'sgm-search'. Got: {step!r}")
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


if __name__ == "__main__":
    main()
