"""Clique labelling benchmark.

Run from the repository root:  python benchmarks/bench_labelling.py [--only-multistate]
    [--baseline-python PATH] [--no-fits]

* Median time per whole clique (every center) after warm-up for 3, 4 and 5 binary variables
  (n = 2000 rows simulated from random SG-like distributions), exact optimizer.
* One center of 4 binary variables: exact against ``method="mcmc"`` (time, rate of reaching
  the exact optimum), and against one chain of the paper's Algorithm 1 alone and one chain
  with our split deletions, on two table mixes.
* One center of 5 binary variables: ``method="heuristic"`` against exact (time, hit rate).
* One center of 6 and 7 binary variables (32 and 64 configurations, beyond exact): heuristic time.

Multi-state section (``multistate()``):

* 5-variable cliques of 3- and 4-state variables, counts simulated from random conditional
  tables (n = 5000): time per whole clique (every center) of the default labelling
  (``method="auto"``: bounded heuristic with its work cap); hit rates and gaps against
  brute force, with the earlier code in the same run, are in ``bench_labelling_quality.py``;
* the first NonReversibleMCMC fit (2 chains, 2000 iterations) on ``child`` simulated at
  n = 5000 (seed 0) in a fresh process, strata on and off; with ``--baseline-python`` the
  same fits with another interpreter (one whose ``pgmpy_sgm`` is the earlier code);
* a 2-chain, 4000-iteration fit on ``hailfinder`` (56 variables, 2-11 states) at n = 2000.

Table mixes: "sparse SG" merges neighbouring configurations with probability 0.2 and draws
n in 200..5000; "dense SG" is the test suite's mix (probability 0.35 per direction and
configuration, every 20th table uniform).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

from pgmpy_sgm.core import _exact_partition, optimize
from pgmpy_sgm.core._label_search import BlockScorer, PartitionSpace, label_mcmc
from pgmpy_sgm.core.lines import group_weights
from pgmpy_sgm.core.optimize import optimal_clique_labelling, optimal_groups


def sg_clique(rng: np.random.Generator, n_vars: int, n: int, merge: float = 0.2) -> np.ndarray:
    """Counts of a binary clique whose last variable depends on grouped parent configurations."""
    m = n_vars - 1
    p = 2**m
    group = list(range(p))
    for c in range(p):
        for d in range(m):
            if rng.random() < merge:
                a, b = group[c], group[c ^ (1 << d)]
                group = [a if g == b else g for g in group]
    probs = {g: rng.beta(1, 1) for g in set(group)}
    parents = rng.multinomial(n, rng.dirichlet(np.ones(p)))
    ones = np.array([rng.binomial(parents[c], probs[group[c]]) for c in range(p)])
    return np.stack([parents - ones, ones], axis=1).reshape((2,) * n_vars).astype(float)


def table_mix(rng: np.random.Generator, n_vars: int, n_tables: int, dense: bool) -> list[np.ndarray]:
    """One center's counts (configurations x 2) for ``n_tables`` random cliques."""
    p = 2 ** (n_vars - 1)
    out = []
    for t in range(n_tables):
        n = int(rng.integers(200, 5001))
        if dense and t % 20 == 19:
            out.append(rng.multinomial(n, np.full(2 * p, 0.5 / p)).reshape(p, 2).astype(float))
        else:
            out.append(sg_clique(rng, n_vars, n, 0.35 if dense else 0.2).reshape(p, 2))
    return out


def one_chain(space: PartitionSpace, n_iter: int, split: bool, seed: int, counts: np.ndarray) -> float:
    """Value of the best state of one chain (no restarts), with or without split deletions."""
    blocks = label_mcmc(space, BlockScorer(counts), n_iter, np.random.default_rng(seed), 0, split)
    return group_weights(counts, space.group_ids(blocks))


def median_ms(fn, items) -> float:
    fn(items[0])  # warm-up: compiled kernels and cached structures
    times = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - t)
    return 1000 * float(np.median(times))


def timed_hits(fn, tables, exact_values) -> tuple[float, float]:
    """(median ms, share of tables where ``fn(i, counts)`` reaches the exact value)."""
    fn(0, tables[0])
    times, hits = [], []
    for i, (c, v) in enumerate(zip(tables, exact_values, strict=True)):
        t = time.perf_counter()
        value = fn(i, c)
        times.append(time.perf_counter() - t)
        hits.append(value >= v - 1e-9)
    return 1000 * float(np.median(times)), float(np.mean(hits))


HERE = Path(__file__).resolve().parent


def random_cpt_clique(rng: np.random.Generator, cards: tuple[int, ...], n: int) -> np.ndarray:
    """Counts of a clique simulated from random conditional tables (Dirichlet(1) rows) of a
    complete DAG in index order."""
    joint = np.ones(())
    for i, k in enumerate(cards):
        cpt = rng.dirichlet(np.ones(k), size=int(np.prod(cards[:i], dtype=int))).reshape(tuple(cards[:i]) + (k,))
        joint = joint[..., None] * cpt
    return rng.multinomial(n, joint.ravel()).reshape(cards).astype(float)


def fit_seconds(python: str, network: str, n: int, strata: bool, n_iter: int, timeout: int) -> dict:
    """One fit in a fresh process (``_fit_once.py``); None fields if it exceeded ``timeout``."""
    cmd = [python, str(HERE / "_fit_once.py"), network, str(n), "on" if strata else "off", str(n_iter), "2"]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # pgmpy's simulate follows the node order, a set's order
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True, env=env).stdout
    except subprocess.TimeoutExpired:
        return {"seconds": None, "best_score": None, "n_visited": None}
    return json.loads(out.strip().splitlines()[-1])


def multistate(baseline_python: str | None, fits: bool = True) -> None:
    rng = np.random.default_rng(7)
    optimal_groups(np.ones((81, 3)), (3, 3, 3, 3))  # warm-up: compiled kernels
    print("5-variable cliques from random CPTs, n=5000: seconds per whole clique (5 centers)")
    for k, n_cliques in ((3, 6), (4, 4)):
        new_t, capped = [], 0
        for _ in range(n_cliques):
            table = random_cpt_clique(rng, (k,) * 5, 5000)
            t = time.perf_counter()
            capped += optimal_clique_labelling(table).capped
            new_t.append(time.perf_counter() - t)
        print(
            f"  {k} states: default median {np.median(new_t):.2f} s, max {np.max(new_t):.2f} s "
            f"({n_cliques} cliques, {capped} stopped by the work cap)"
        )
    print("\nhit rates against brute force, old and new code in one run: bench_labelling_quality.py")

    if not fits:
        return
    print("\nfirst NonReversibleMCMC fit in a fresh process (2 chains x 2000 iterations), child n=5000 seed 0")
    runs = [("this code", sys.executable)] + ([("baseline", baseline_python)] if baseline_python else [])
    for name, python in runs:
        on = fit_seconds(python, "child", 5000, True, 2000, 1200)
        off = fit_seconds(python, "child", 5000, False, 2000, 1200)
        ratio = on["seconds"] / off["seconds"] if on["seconds"] and off["seconds"] else float("nan")

        def show(res: dict) -> str:
            if res["seconds"] is None:
                return "did not finish within 1200 s"
            return f"{res['seconds']:.1f} s (best {res['best_score']:.1f})"

        print(f"  {name}: strata on {show(on)}, off {show(off)}, ratio {ratio:.1f}")
    print("\nhailfinder (56 variables, 2-11 states), n=2000, 2 chains x 4000 iterations, strata on")
    res = fit_seconds(sys.executable, "hailfinder", 2000, True, 4000, 1800)
    if res["seconds"] is None:
        print("  did not finish within 1800 s")
    else:
        print(f"  {res['seconds']:.1f} s, best {res['best_score']:.1f}, {res['n_visited']} distinct states")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only-multistate", action="store_true", help="run only the multi-state section")
    parser.add_argument("--baseline-python", help="interpreter whose pgmpy_sgm is the earlier code (fits only)")
    parser.add_argument("--no-fits", action="store_true", help="skip the fits (see bench_first_fit.py for those)")
    args = parser.parse_args()
    if not args.only_multistate:
        binary()
        print()
    multistate(args.baseline_python, fits=not args.no_fits)


def binary() -> None:
    rng = np.random.default_rng(2024)
    print("median ms per whole clique (all centers), n=2000, exact")
    for n_vars in (3, 4, 5):
        tables = [sg_clique(rng, n_vars, 2000) for _ in range(40)]
        print(f"  {n_vars} binary variables: {median_ms(optimal_clique_labelling, tables):.3f} ms")

    cards = (2, 2, 2)
    space = PartitionSpace(cards, (False,) * 3)
    n_iter = optimize.DEFAULT_MCMC_ITER
    print(f"\none center, 4 binary variables, 100 tables per mix, {n_iter} iterations per MCMC")
    for dense in (False, True):
        tables = table_mix(rng, 4, 100, dense)
        exact_values = [optimal_groups(c, cards).value for c in tables]
        t_exact = median_ms(lambda c: optimal_groups(c, cards), tables)

        def shipped(i, c):
            return optimal_groups(c, cards, method="mcmc", seed=i).value

        t_mcmc, h_mcmc = timed_hits(shipped, tables, exact_values)
        _, h_plain = timed_hits(partial(one_chain, space, n_iter, False), tables, exact_values)
        _, h_split = timed_hits(partial(one_chain, space, n_iter, True), tables, exact_values)
        name = "dense" if dense else "sparse"
        print(f"  {name} SG: exact {t_exact:.3f} ms, mcmc {t_mcmc:.1f} ms; hit rate: mcmc as shipped {h_mcmc:.2f},")
        print(f"    one chain of Algorithm 1 alone {h_plain:.2f}, one chain with split deletions {h_split:.2f}")

    cards = (2, 2, 2, 2)
    print("\none center, 5 binary variables, 100 tables per mix: heuristic vs exact")
    for dense in (False, True):
        tables = table_mix(rng, 5, 100, dense)
        exact_values = [optimal_groups(c, cards).value for c in tables]
        t_exact = median_ms(lambda c: optimal_groups(c, cards), tables)
        t_heur, h_heur = timed_hits(
            lambda i, c: optimal_groups(c, cards, method="heuristic", seed=i).value, tables, exact_values
        )
        name = "dense" if dense else "sparse"
        print(f"  {name} SG: exact {t_exact:.2f} ms, heuristic {t_heur:.1f} ms, hit rate {h_heur:.2f}")

    for n_vars in (6, 7):
        m = n_vars - 1
        tables = table_mix(rng, n_vars, 20 if n_vars == 6 else 6, False)
        times = []
        optimal_groups(tables[0], (2,) * m)  # warm-up
        for c in tables:
            t = time.perf_counter()
            optimal_groups(c, (2,) * m)
            times.append(time.perf_counter() - t)
        print(
            f"\nheuristic, one center, {n_vars} binary variables ({2**m} configurations): "
            f"median {1000 * np.median(times):.0f} ms, max {1000 * np.max(times):.0f} ms ({len(tables)} tables)"
        )

    st = _exact_partition._exact_structure((2, 2, 2, 2), (False,) * 4)
    print(
        f"\nstructure for 4 binary parents: {st.blocks.size} valid blocks, {st.ptr.size - 1} DP states, "
        f"{st.t_block.size} transitions"
    )


if __name__ == "__main__":
    main()
