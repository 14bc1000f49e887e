"""Recovery of the paper's synthetic SG (Appendix B) as the data grow (paper section 5).

Run: ``python benchmarks/paper/synthetic_recovery.py``

For n in {100, 500, 1000, 2000, 5000, 20000} and 20 seeds, simulates the Appendix B model, learns
with ``NonReversibleMCMC`` (2 chains x 3000 iterations from the empty graph) and records whether
the best SG found has the generating graph's edges ("graph") and is the generating SG with all its
labels ("full SG"), the edge and label differences, and whether the search's optimum scores at
least as high as the generating SG (if so, a miss is the posterior's, not the search's).
Writes ``benchmarks/figures/synthetic_recovery.png``.
"""

from __future__ import annotations

import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from pgmpy_sgm import SGMScore  # noqa: E402
from pgmpy_sgm.causal_discovery import NonReversibleMCMC  # noqa: E402
from pgmpy_sgm.datasets import paper_synthetic_graph, simulate_paper_synthetic  # noqa: E402

SIZES = (100, 500, 1000, 2000, 5000, 20_000)
SEEDS = range(20)
FIGURE = Path(__file__).resolve().parents[1] / "figures" / "synthetic_recovery.png"


def label_set(sg) -> set:
    return {(frozenset(e), frozenset(c.items())) for e, cs in sg.strata.items() for c in cs}


def main() -> None:
    truth = paper_synthetic_graph()
    true_edges = {frozenset(e) for e in truth.edges()}
    true_labels = label_set(truth)
    rows = []
    for n in SIZES:
        for seed in SEEDS:
            data = simulate_paper_synthetic(n, seed=seed)
            start = time.perf_counter()
            est = NonReversibleMCMC(n_iter=3000, n_chains=2, seed=seed, show_progress=False).fit(data)
            elapsed = time.perf_counter() - start
            sg = est.model_
            edges = {frozenset(e) for e in sg.edges()}
            labels = label_set(sg)
            true_score = SGMScore(data).score(truth)
            rows.append({"n": n, "seed": seed, "graph": edges == true_edges,
                         "full_sg": edges == true_edges and labels == true_labels,
                         "edge_diff": len(edges ^ true_edges), "label_diff": len(labels ^ true_labels),
                         "n_labels": len(labels), "found_ge_true": est.best_score_ >= true_score - 1e-9,
                         "seconds": elapsed})
    df = pd.DataFrame(rows)
    table = df.groupby("n").agg(graph=("graph", "mean"), full_sg=("full_sg", "mean"),
                                edge_diff=("edge_diff", "mean"), label_diff=("label_diff", "mean"),
                                n_labels=("n_labels", "mean"), found_ge_true=("found_ge_true", "mean"),
                                seconds=("seconds", "median"))
    print(f"Appendix B model: {len(true_edges)} edges, {len(true_labels)} labels; {len(SEEDS)} seeds per n; "
          "NonReversibleMCMC 2 chains x 3000 iterations\n")
    print("| n | graph recovered | full SG recovered | edge differences (mean) | label differences (mean) "
          "| labels found (mean) | optimum found >= generating SG's score | fit s (median) |")
    print("|---|---|---|---|---|---|---|---|")
    for n, r in table.iterrows():
        se_g = np.sqrt(r.graph * (1 - r.graph) / len(SEEDS))
        se_f = np.sqrt(r.full_sg * (1 - r.full_sg) / len(SEEDS))
        print(f"| {n} | {r.graph:.2f} ± {se_g:.2f} | {r.full_sg:.2f} ± {se_f:.2f} | {r.edge_diff:.2f} | "
              f"{r.label_diff:.2f} | {r.n_labels:.1f} | {r.found_ge_true:.2f} | {r.seconds:.2f} |")
    print("\n(± is the binomial standard error over seeds)")

    fig, ax = plt.subplots(figsize=(6, 4))
    for col, label, marker in (("graph", "underlying graph", "o"), ("full_sg", "full SG (graph + labels)", "s")):
        p = table[col].to_numpy()
        se = np.sqrt(p * (1 - p) / len(SEEDS))
        ax.errorbar(table.index, p, yerr=se, marker=marker, capsize=3, label=label)
    ax.set_xscale("log")
    ax.set_xlabel("n (rows)")
    ax.set_ylabel(f"share of {len(SEEDS)} data sets recovered")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("Paper's synthetic SG (Appendix B): recovery vs n")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    FIGURE.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(FIGURE, dpi=120)
    print(f"figure: {FIGURE}")


if __name__ == "__main__":
    main()
