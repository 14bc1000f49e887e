"""Seeded fits of two source trees compared, each tree run in its own subprocess of one script run.

For each tree the same seeded fits run on heart disease and a sample of the asia network:
NonReversibleMCMC in both methods, with and without strata, sequential and with two parallel
chains; LDAGSearch; a StratifiedGraphicalModel fit and a seeded sample. ``best_score_``, the
edge probabilities, the traces, the posterior's top rows, the fitted CPDs and the sample
must be identical between the trees (compared exactly, no tolerance).

Usage::

    python benchmarks/compare_seeded.py OLD_TREE NEW_TREE
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

FITS = r"""
import json, sys, warnings
import numpy as np
import pgmpy_sgm
from pgmpy.readwrite import BIFReader
from pgmpy_sgm.causal_discovery import LDAGSearch, NonReversibleMCMC
from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.models import StratifiedGraphicalModel

warnings.simplefilter("ignore")
heart = load_heart_disease()
import gzip
with gzip.open(sys.argv[1] + "/benchmarks/data/asia.bif.gz", "rt") as handle:
    asia_net = BIFReader(string=handle.read()).get_model()
from pgmpy.sampling import BayesianModelSampling
asia = BayesianModelSampling(asia_net).forward_sample(1000, seed=3, show_progress=False)
out = {"file": pgmpy_sgm.__file__}
settings = [
    ("heart-paper-strata", heart, dict(n_iter=2000, method="paper", strata=True)),
    ("heart-informed-strata", heart, dict(n_iter=3000, method="informed", strata=True)),
    ("heart-auto-2jobs", heart, dict(n_iter="auto", max_time=None, n_chains=2, n_jobs=2)),
    ("asia-informed-strata", asia, dict(n_iter=3000, method="informed", strata=True)),
    ("asia-paper-nostrata", asia, dict(n_iter=2000, method="paper", strata=False)),
]
for name, data, params in settings:
    est = NonReversibleMCMC(seed=7, show_progress=False, **params).fit(data)
    out[name] = {
        "best_score": float(est.best_score_),
        "edges": sorted(map(sorted, est.model_.edges())),
        "strata": repr(est.model_.strata),
        "edge_probabilities": est.edge_probabilities_.to_json(double_precision=15),
        "trace": est.trace_.tolist(),
        "chain_best_scores": est.chain_best_scores_.tolist(),
        "posterior_top": est.posterior_.head(10).to_json(default_handler=str, double_precision=15),
        "stop_reason": getattr(est, "stop_reason_", None),
    }
for name, data in (("heart-ldag", heart), ("asia-ldag", asia)):
    est = LDAGSearch(seed=3, n_restarts=3, show_progress=False).fit(data)
    out[name] = {"best_score": float(est.best_score_), "edges": sorted(est.model_.edges()),
                 "climb_scores": [float(x) for x in est.climb_scores_]}
best = NonReversibleMCMC(n_iter=1500, seed=1, show_progress=False).fit(heart).model_
model = StratifiedGraphicalModel(list(best.edges()), strata=best.strata, nodes=list(best.nodes()))
model.fit(heart)
out["sgm-cpds"] = [repr(cpd.values.tolist()) for cpd in model.get_cpds()]
out["sgm-sample"] = model.simulate(200, seed=5).to_json()
print(json.dumps(out))
"""


def run(tree: str) -> dict:
    # -S: no site processing, so that an editable install of either tree cannot shadow ``tree``
    site_packages = [p for p in sys.path if p.endswith("site-packages")]
    env = {"PYTHONPATH": os.pathsep.join([tree, *site_packages]), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-S", "-c", FITS, tree], capture_output=True, text=True, env=env, cwd=tree, check=False
    )
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(old: str, new: str) -> int:
    before, after = run(old), run(new)
    print(f"old: {before.pop('file')}\nnew: {after.pop('file')}")
    differ = 0
    for name in before:
        same = before[name] == after.get(name)
        differ += not same
        score = before[name].get("best_score") if isinstance(before[name], dict) else ""
        fields = "" if same or not isinstance(before[name], dict) else " in " + ", ".join(
            field for field in before[name] if before[name][field] != after[name].get(field)
        )
        print(f"{name:24s} {'identical' if same else 'DIFFERENT'} {score}{fields}")
    print(f"{len(before) - differ} of {len(before)} fits identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
