"""Clique labelling benchmark.

Run from the repository root:  python benchmarks/bench_labelling.py

Median time per whole clique (every center) after warm-up for 3, 4 and 5 binary variables
(n = 2000 rows simulated from random SG-like distributions), exact against the paper's
label MCMC (time and rate of reaching the exact optimum), and the heuristic's rate on
5-variable cliques.
"""

from __future__ import annotations

import time

import numpy as np

from pgmpy_sgm.core import optimize
from pgmpy_sgm.core._label_search import BlockScorer, PartitionSpace, label_mcmc
from pgmpy_sgm.core.lines import group_weights
from pgmpy_sgm.core.optimize import optimal_clique_labelling, optimal_groups


def sg_clique(rng: np.random.Generator, n_vars: int, n: int) -> np.ndarray:
    """Counts of a binary clique whose last variable depends on grouped parent configurations."""
    m = n_vars - 1
    p = 2**m
    group = list(range(p))
    for c in range(p):
        for d in range(m):
            if rng.random() < 0.2:
                a, b = group[c], group[c ^ (1 << d)]
                group = [a if g == b else g for g in group]
    probs = {g: rng.beta(1, 1) for g in set(group)}
    parents = rng.multinomial(n, rng.dirichlet(np.ones(p)))
    ones = np.array([rng.binomial(parents[c], probs[group[c]]) for c in range(p)])
    return np.stack([parents - ones, ones], axis=1).reshape((2,) * n_vars).astype(float)


def median_ms(fn, items) -> float:
    fn(items[0])  # warm-up: compiled kernels and cached structures
    times = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - t)
    return 1000 * float(np.median(times))


def main() -> None:
    rng = np.random.default_rng(2024)
    print("median ms per whole clique (all centers), n=2000, exact")
    exact_ms = {}
    for n_vars in (3, 4, 5):
        tables = [sg_clique(rng, n_vars, 2000) for _ in range(40)]
        exact_ms[n_vars] = median_ms(optimal_clique_labelling, tables)
        print(f"  {n_vars} binary variables: {exact_ms[n_vars]:.3f} ms")

    print(f"\nexact vs label MCMC ({optimize.DEFAULT_MCMC_ITER} iterations) on one center, 4 binary variables")
    cards = (2, 2, 2)
    tables = [sg_clique(rng, 4, int(rng.integers(200, 5001))).reshape(8, 2) for _ in range(100)]
    t_exact = median_ms(lambda c: optimal_groups(c, cards), tables)
    exact_values = [optimal_groups(c, cards).value for c in tables]
    t_mcmc = median_ms(lambda c: optimal_groups(c, cards, method="mcmc"), tables)
    hits = np.mean(
        [
            optimal_groups(c, cards, method="mcmc", seed=i).value >= v - 1e-9
            for i, (c, v) in enumerate(zip(tables, exact_values, strict=True))
        ]
    )
    space = PartitionSpace(cards, (False,) * 3)
    plain = []
    for i, (c, v) in enumerate(zip(tables, exact_values, strict=True)):
        blocks = label_mcmc(space, BlockScorer(c), optimize.DEFAULT_MCMC_ITER, np.random.default_rng(i))
        plain.append(group_weights(c, space.group_ids(blocks)) >= v - 1e-9)
    print(
        f"  exact: {t_exact:.3f} ms   mcmc (restarted chains + local search): {t_mcmc:.1f} ms"
        f"   ratio {t_mcmc / t_exact:.0f}x"
    )
    print(f"  hit rate of the exact optimum: mcmc {hits:.2f}; one chain of Algorithm 1 alone {np.mean(plain):.2f}")

    print("\nheuristic on one center, 5 binary variables")
    cards = (2, 2, 2, 2)
    tables = [sg_clique(rng, 5, int(rng.integers(200, 5001))).reshape(16, 2) for _ in range(60)]
    t_exact = median_ms(lambda c: optimal_groups(c, cards), tables)
    t_heur = median_ms(lambda c: optimal_groups(c, cards, method="heuristic"), tables)
    hits = np.mean(
        [
            optimal_groups(c, cards, method="heuristic", seed=i).value >= optimal_groups(c, cards).value - 1e-9
            for i, c in enumerate(tables)
        ]
    )
    print(
        f"  exact: {t_exact:.2f} ms   heuristic: {t_heur:.1f} ms   ratio {t_heur / t_exact:.1f}x   hit rate {hits:.2f}"
    )
    st = optimize._exact_structure(cards, (False,) * 4)
    print(
        f"\nstructure for 4 binary parents: {st.blocks.size} valid blocks, {st.ptr.size - 1} DP states, "
        f"{st.t_block.size} transitions"
    )


if __name__ == "__main__":
    main()
