"""Wide data: peak RSS of SGMScore on 10^6 rows x 500 binary int8 columns; family-term throughput against pgmpy's BDeu.

Run: ``python benchmarks/bench_wide_data.py STEP ROWS VARIABLES`` with ``STEP`` ``sgm`` (``SGMScore(frame)``, then
40 random families of 2-4 parents scored from scratch, the count cache cleared before each) or ``bdeu`` (pgmpy's
``BDeu`` on the frame as categories, 10 of the same families through ``_local_score``); prints one JSON line
with the times, families per second and the process's peak RSS. Each step in its own process, so that
peaks do not mix. Data: ``bench_scale.chunk(ROWS, VARIABLES, 0)`` (int8 columns; every variable copies one
of the three before it with probability 0.8, every fifth only in one context of a neighbour).
"""
import json, resource, sys, time, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, "benchmarks")
import numpy as np
from bench_scale import chunk
step = sys.argv[1]; rows = int(sys.argv[2]); d = int(sys.argv[3])
t = time.perf_counter()
frame = chunk(rows, d, 0)
out = {"step": step, "simulate_s": time.perf_counter() - t, "frame_mb": frame.memory_usage(deep=True).sum() / 2**20}
rng = np.random.default_rng(1)
cols = list(frame.columns)
families = [(cols[c], tuple(cols[p] for p in rng.choice([x for x in range(d) if x != c], size=int(rng.integers(2, 5)), replace=False)))
            for c in rng.integers(0, d, 40)]
if step == "sgm":
    from pgmpy_sgm import SGMScore
    t = time.perf_counter(); score = SGMScore(frame); out["encode_s"] = time.perf_counter() - t
    out["distinct_rows"] = int(score.engine.encoded.codes.shape[0])
    t = time.perf_counter()
    for v, pa in families:
        score.engine.encoded._cache.clear()
        score._local_score(v, pa)
    out["families_per_s"] = len(families) / (time.perf_counter() - t)
elif step == "bdeu":
    from pgmpy.structure_score import BDeu
    cat = frame.astype("category")
    t = time.perf_counter(); s = BDeu(cat); out["setup_s"] = time.perf_counter() - t
    t = time.perf_counter()
    for v, pa in families[:10]:
        s._local_score(v, tuple(pa))
    out["families_per_s"] = 10 / (time.perf_counter() - t)
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
