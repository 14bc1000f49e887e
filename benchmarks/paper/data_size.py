"""The paper's data-size experiment (section 5, Figures 4-5): how many rows a clique's labels need.

Run: ``python benchmarks/paper/data_size.py`` (``--replicates 1000`` for the paper's count)

For cliques of 3, 4 and 5 binary variables, one random maximal regular labelling per size (fixed
seed; every other variable's edge to the center carries labels, each line included with
probability 0.35, then closed; the paper's Figure 4 graphs are not in its source, so their shape
- a complete clique with labels on edges sharing one center - is what is reproduced) gets random
parameters (a Dirichlet(5) table of the other variables and P(center = 1 | group) evenly spaced
in [0.15, 0.85] in random order, fixed seed). For each n, data sets
are simulated from it; LML_gen is the log marginal likelihood under the generating SG, LML_opt under
the optimal labelling of the complete graph (``SGMScore.optimal_strata``), and

    y = exp(mean(LML_gen) / n) - exp(mean(LML_opt) / n)

(<= 0; it tends to 0 when the optimal labelling becomes the generating one). Also printed: the
share of data sets whose optimal labelling is exactly the generating one. Writes
``benchmarks/figures/data_size.png`` (three panels, as the paper's Figure 5).
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from pgmpy.factors.discrete import DiscreteFactor  # noqa: E402

from pgmpy_sgm import SGMScore, StratifiedGraph  # noqa: E402
from pgmpy_sgm.models import StratifiedGraphicalModel  # noqa: E402

SIZES = (25, 50, 100, 150, 200, 300, 500, 700, 1000, 1500, 2500)
FIGURE = Path(__file__).resolve().parents[1] / "figures" / "data_size.png"


def random_labelled_clique(k: int, seed: int, p_line: float = 0.35) -> StratifiedGraph:
    """A maximal regular labelling of the complete graph on X1..Xk with center Xk (at least one label)."""
    rng = np.random.default_rng(seed)
    nodes = [f"X{i}" for i in range(1, k + 1)]
    center, parents = nodes[-1], nodes[:-1]
    edges = list(itertools.combinations(nodes, 2))
    while True:
        sg = StratifiedGraph(edges, nodes=nodes)
        for u in parents:
            others = [w for w in parents if w != u]
            for values in itertools.product((0, 1), repeat=len(others)):
                if rng.random() < p_line:
                    sg.add_label(u, center, dict(zip(others, values, strict=True)))
        if sg.n_labels() == 0:
            continue
        sg = sg.closure()
        if sg.is_maximal_regular():
            return sg


def clique_model(sg: StratifiedGraph, seed: int) -> StratifiedGraphicalModel:
    """Parameters for ``sg``: Dirichlet(5) parent table; P(center = 1 | group) evenly spaced in [0.15, 0.85].

    Evenly spaced group probabilities (in random order) keep every group distinguishable, so the
    generating labelling is identifiable at a data size that depends on the clique, not on a
    near-tie drawn by chance.
    """
    rng = np.random.default_rng(seed)
    step = StratifiedGraphicalModel.random(sg, seed=seed).clique_factors[0]
    k = len(step.clique)
    nodes = list(sg.nodes())
    assert list(step.parents) + [step.center] == nodes, (step.parents, step.center, nodes)
    n_groups = max(step.group_ids) + 1
    p_group = rng.permutation(np.linspace(0.15, 0.85, n_groups))
    p_parents = rng.dirichlet(np.full(2 ** (k - 1), 5.0))
    p_one = p_group[np.asarray(step.group_ids)]
    values = np.stack([p_parents * (1 - p_one), p_parents * p_one], axis=-1).reshape((2,) * k)
    joint = DiscreteFactor(nodes, [2] * k, values, state_names={v: [0, 1] for v in nodes})
    return StratifiedGraphicalModel.from_joint(sg, joint)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=100)
    args = parser.parse_args()
    reps = args.replicates
    results = {}
    for k in (3, 4, 5):
        sg = random_labelled_clique(k, seed=10 + k)
        model = clique_model(sg, seed=20 + k)
        complete = sg.to_graph()
        print(f"clique of {k}: {sg.n_labels()} labels on {len(sg.labelled_edges())} edges, "
              f"{model.n_free_parameters()} free parameters (complete table: {2 ** k - 1})")
        for stmt in sg.independencies():
            print(f"    {stmt}")
        ys, exact = [], []
        start = time.perf_counter()
        for n in SIZES:
            gen, opt, same = [], [], 0
            for r in range(reps):
                data = model.simulate(n, seed=1_000_000 * k + 1000 * n + r)
                score = SGMScore(data, state_names={v: [0, 1] for v in sg.nodes()})
                best = score.optimal_strata(complete)
                gen.append(score.log_marginal_likelihood(sg))
                opt.append(score.log_marginal_likelihood(best))
                same += best == sg
            y = np.exp(np.mean(gen) / n) - np.exp(np.mean(opt) / n)
            ys.append(y)
            exact.append(same / reps)
        results[k] = (sg, ys, exact, time.perf_counter() - start)
    print(f"\n{reps} replicates per point\n")
    print("| n | " + " | ".join(f"y, {k} variables | exact, {k}" for k in results) + " |")
    print("|---|" + "---|---|" * len(results))
    for i, n in enumerate(SIZES):
        print(f"| {n} | " + " | ".join(f"{results[k][1][i]:.2e} | {results[k][2][i]:.2f}" for k in results) + " |")
    print("\n" + ", ".join(f"{k} variables: {results[k][3]:.0f} s" for k in results))

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for ax, (k, (sg, ys, _, _)) in zip(axes, results.items(), strict=True):
        ax.plot(SIZES, ys, marker="o")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("n (rows)")
        ax.set_title(f"{'abc'[k - 3]}) clique of {k} variables, {sg.n_labels()} labels")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("y = exp(mean LML_gen / n) - exp(mean LML_opt / n)")
    fig.suptitle(f"Data-size experiment ({reps} data sets per point)")
    fig.tight_layout()
    FIGURE.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(FIGURE, dpi=120)
    print(f"figure: {FIGURE}")


if __name__ == "__main__":
    main()
