"""Seeded MPLSearch fits of two source trees compared, each tree run in its own subprocess of one script run.

For each tree the same fits run on every data set of ``bench_mpl.py`` (blocks-10, grid-12,
grid-20, blocks-50 and asia, child at n = 500, 2000, 10000; insurance and alarm at n = 2000;
grid-100 at n = 500; the data built by this script's own ``bench_mpl`` helpers, so both trees see
the same rows): ``MPLSearch(seed=0)`` with its defaults, and with ``contexts=False``,
``graph_choice="bic"`` and ``graph_choice="cv"`` on the small ones. The graph, the contexts,
``best_score_``, ``graph_score_``, the stage-2 choice and its values (``graph_aic_``,
``graph_cv_``, ``graph_bic_``), the added edges, the blankets and the move counts are compared
exactly, no tolerance (a change of a default changes the "default" fits where it matters; the
fits with the setting given must stay identical). The seconds of each fit are printed too (one
run each, the trees one after the other: a rough comparison only); with ``--repeat K``, also the median CPU seconds
(``time.process_time``) of K more fits of each, less sensitive to other jobs on the machine.
``--quick`` leaves out grid-100, insurance and alarm.

Usage::

    python benchmarks/compare_mpl_seeded.py OLD_TREE NEW_TREE [--quick] [--repeat K]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

FITS = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[2])
import _cmn_data
import bench_mpl
from predictive import as_categories, load_network, network_states
import pgmpy_sgm
from pgmpy_sgm.causal_discovery import MPLSearch

quick = sys.argv[3] == "quick"
repeat = int(sys.argv[4])
sets = []
for kind, size in bench_mpl.cmn_settings(False):
    model = bench_mpl.make_cmn(kind, size, seed=0)
    nodes = sorted(model[0].nodes())
    if len(nodes) >= 100 and quick:
        continue
    for n in ((500,) if len(nodes) >= 100 else (500, 2000, 10000)):
        sets.append((f"{kind}-{len(nodes)}", n, _cmn_data.sample(model, n, seed=0)[0], {v: [0, 1] for v in nodes}))
for name, sizes in (("asia", (500, 2000, 10000)), ("child", (500, 2000, 10000)), ("insurance", (2000,)),
                    ("alarm", (2000,))):
    if quick and name in ("insurance", "alarm"):
        continue
    bn = load_network(name)
    states = network_states(bn)
    for n in sizes:
        train = as_categories(bn.simulate(n, seed=0, show_progress=False), states)
        sets.append((name, n, train[sorted(train.columns)], states))
MPLSearch(seed=0).fit(sets[0][2])  # imports and compilation out of the timings
out = {"file": pgmpy_sgm.__file__, "fits": {}}
for name, n, train, states in sets:
    variants = [("default", {})]
    if train.shape[1] <= 20:
        variants += [("plain", {"contexts": False}), ("bic", {"graph_choice": "bic"}), ("cv", {"graph_choice": "cv"})]
    for label, params in variants:
        start = time.perf_counter()
        est = MPLSearch(seed=0, state_names=states, **params).fit(train)
        seconds = time.perf_counter() - start
        cpu = []
        for _ in range(repeat):  # CPU seconds of more fits (the first, timed above, is not among them)
            start = time.process_time()
            MPLSearch(seed=0, state_names=states, **params).fit(train)
            cpu.append(time.process_time() - start)
        out["fits"][f"{name} n={n} {label}"] = {"seconds": seconds, "cpu": sorted(cpu), "result": {
            "edges": [list(e) for e in est.graph_.edges()],
            "contexts": repr(sorted((k, v) for k, v in est.contexts_.items())),
            "best_score": float(est.best_score_),
            "graph_score": float(est.graph_score_),
            "graph_rule": est.graph_rule_,
            "graph_aic": {k: float(v) for k, v in getattr(est, "graph_aic_", {}).items()},
            "graph_cv": {k: float(v) for k, v in est.graph_cv_.items()},
            "graph_bic": {k: float(v) for k, v in est.graph_bic_.items()},
            "added_edges": [list(e) for e in est.added_edges_],
            "candidate_edges": [list(e) for e in est.candidate_edges_],
            "blankets": {v: list(b) for v, b in est.blankets_.items()},
            "moves": [est.n_edge_moves_, est.n_context_moves_],
            "stopped_by": est.stopped_by_,
            "model_edges": sorted(map(sorted, est.model_.edges())),
        }}
print(json.dumps(out))
"""


def run(tree: str, quick: bool, repeat: int = 0) -> dict:
    # -S: no site processing, so that an editable install of either tree cannot shadow ``tree``
    site_packages = [p for p in sys.path if p.endswith("site-packages")]
    env = {"PYTHONPATH": os.pathsep.join([tree, *site_packages]), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1",
           "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", "/tmp/numba-cache")}  # fmt: skip
    done = subprocess.run([sys.executable, "-S", "-c", FITS, tree, str(HERE), "quick" if quick else "all", str(repeat)],
                          capture_output=True, text=True, env=env, cwd=tree, check=False)  # fmt: skip
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _median(values: list) -> float:
    return float("nan") if not values else (values[(len(values) - 1) // 2] + values[len(values) // 2]) / 2


def main(old: str, new: str, quick: bool = False, repeat: int = 0) -> int:
    before, after = run(old, quick, repeat), run(new, quick, repeat)
    print(f"old: {before['file']}\nnew: {after['file']}")
    differ = 0
    for name, fit in before["fits"].items():
        other = after["fits"].get(name, {"result": {}, "seconds": float("nan")})
        same = fit["result"] == other["result"]
        differ += not same
        changed = [f for f in fit["result"] if fit["result"][f] != other["result"].get(f)]
        fields = "" if same else " in " + ", ".join(changed)
        cpu = (f"   median CPU of {repeat}: {_median(fit['cpu']) * 1000:8.1f} ms -> "
               f"{_median(other.get('cpu', [])) * 1000:8.1f} ms") if repeat else ""
        print(f"{name:28s} {'identical' if same else 'DIFFERENT'}{fields:24s} "
              f"{fit['seconds']:7.3f} s -> {other['seconds']:7.3f} s{cpu}")
    print(f"{len(before['fits']) - differ} of {len(before['fits'])} fits identical")
    return 1 if differ else 0


if __name__ == "__main__":
    options = sys.argv[3:]
    sys.exit(main(sys.argv[1], sys.argv[2], "--quick" in options,
                  int(options[options.index("--repeat") + 1]) if "--repeat" in options else 0))
