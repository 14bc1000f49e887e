"""Structural EM's start: the Chow-Liu tree of the pairwise available cases against the complete cases.

Run:  python benchmarks/bench_em_start.py --learner ldag|sgm|mpl --out FILE.csv SPEC [SPEC ...]
      python benchmarks/bench_em_start.py --summary FILE.csv [FILE.csv ...]

A SPEC is ``network:n:rate:masking:seed`` (``masking`` ``mcar`` or ``mar``), the data of
``bench_missing.py`` (same simulation, masking and 10,000 fresh complete test rows). For each
SPEC the learner is fitted on the rows before masking (the ceiling), then by structural EM on
the masked rows from each start of ``EMOptions.start``: ``"complete_cases"`` (the learner's
model of the complete cases, independence when fewer than 30 rows are complete; the earlier
default) and ``"tree"``. Reported per run: held-out log-likelihood per row minus the full fit's
("gap"), the EM time over the full fit's in the same process ("ratio"), the observed-data
criterion of the run's result, free parameters, iterations and searches. ``start="best"`` runs
both and keeps the higher criterion: the summary reads it off the two runs (same seeds, so
the same fits) with their summed time.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
if os.environ.get("PYTHONHASHSEED") != "0":  # pgmpy's sampler orders nodes by hash
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])
sys.path.insert(0, str(HERE))

import pandas as pd  # noqa: E402
from bench_missing import held_out, mask, network, sgm_model, simulate  # noqa: E402

warnings.filterwarnings("ignore")

STARTS = ("complete_cases", "tree")


def fit(kind: str, data: pd.DataFrame, missing, states: dict, seed: int):
    from pgmpy_sgm import LDAGSearch
    from pgmpy_sgm.causal_discovery import MPLSearch, NonReversibleMCMC

    tic = time.perf_counter()
    if kind == "ldag":
        est = LDAGSearch(seed=seed, show_progress=False, state_names=states, missing=missing).fit(data)
        model = est.model_
    elif kind == "mpl":  # the network's factors by parameter EM on the same rows
        est = MPLSearch(seed=seed, state_names=states, missing=missing).fit(data)
        model = est.model_.copy().fit(data, missing="em" if missing != "error" else "error")
    else:
        est = NonReversibleMCMC(seed=seed, show_progress=False, state_names=states, missing=missing).fit(data)
        model = sgm_model(est, data, missing)
    return est, model, time.perf_counter() - tic


def run(kind: str, out: str, specs: list[str]) -> None:
    from pgmpy_sgm.core.missing import EMOptions

    networks = {}
    for spec in specs:
        name, n, rate, masking, seed = spec.split(":")
        n, rate, seed = int(n), float(rate), int(seed)
        if name not in networks:
            bn = network(name)
            networks[name] = (bn, {v: sorted(map(str, bn.get_cpds(v).state_names[v])) for v in bn.nodes()})
        bn, states = networks[name]
        train, test = simulate(bn, n, seed), simulate(bn, 10_000, 1000 + seed)
        masked = mask(train, rate, masking == "mar", seed)
        _, model, full_seconds = fit(kind, train, "error", states, seed)
        full = held_out(model, test, states)
        for start in STARTS:
            est, model, seconds = fit(kind, masked, EMOptions(start=start), states, seed)
            history = est.em_history_
            row = dict(net=name, n=n, rate=rate, masking=masking, seed=seed, learner=kind, start=start,
                       gap=held_out(model, test, states) - full, ratio=seconds / full_seconds, t_full=full_seconds,
                       crit=float(history.loc[history.attrs["best_iteration"], "criterion"]),
                       params=model.n_free_parameters(), iters=len(history),
                       searches=int((history["step"] == "structure").sum()),
                       start_used=history.attrs["start"])  # fmt: skip
            print(row, flush=True)
            new = not os.path.exists(out)
            with open(out, "a", newline="") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(row))
                if new:
                    writer.writeheader()
                writer.writerow(row)


def summarise(paths: list[str]) -> None:
    rows = pd.concat([pd.read_csv(p) for p in paths])
    rows["start"] = rows["start"].replace({"cc": "complete_cases"})
    keys = ["learner", "net", "n", "masking", "rate", "seed"]
    wide = rows.pivot_table(index=keys, columns="start", values=["gap", "ratio", "crit"])
    wide = wide.dropna()
    tree_wins = wide[("crit", "tree")] >= wide[("crit", "complete_cases")]
    best_gap = wide[("gap", "tree")].where(tree_wins, wide[("gap", "complete_cases")])
    table = pd.DataFrame({
        "gap cc": wide[("gap", "complete_cases")], "gap tree": wide[("gap", "tree")], "gap best": best_gap,
        "ratio cc": wide[("ratio", "complete_cases")], "ratio tree": wide[("ratio", "tree")],
        "ratio best": wide[("ratio", "complete_cases")] + wide[("ratio", "tree")],
        "criterion picks the better gap": (wide[("gap", "tree")] >= wide[("gap", "complete_cases")]) == tree_wins,
    })  # fmt: skip
    print(table.round(4).to_markdown())
    print()
    by_setting(table)
    for learner, part in table.groupby(level="learner"):
        print(f"\n{learner}: settings {len(part)}; tree ahead of complete cases on "
              f"{int((part['gap tree'] > part['gap cc']).sum())}; mean gap cc {part['gap cc'].mean():.4f}, "
              f"tree {part['gap tree'].mean():.4f}, best {part['gap best'].mean():.4f}; the criterion picked the "
              f"better start on {int(part['criterion picks the better gap'].sum())}; median time ratio cc "
              f"{part['ratio cc'].median():.1f}x, tree {part['ratio tree'].median():.1f}x, "
              f"best {part['ratio best'].median():.1f}x")  # fmt: skip


def by_setting(table: pd.DataFrame) -> None:
    """Each setting's mean gaps over its seeds, how many seeds the tree was ahead, median time ratios."""
    print("| learner | network (n) | masking | rate | gap, complete cases | gap, tree | gap, best | seeds tree ahead "
          "| time ratio cc / tree / best (median) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (learner, net, n, masking, rate), part in table.groupby(level=["learner", "net", "n", "masking", "rate"]):
        ahead = int((part["gap tree"] > part["gap cc"]).sum())
        print(f"| {learner} | {net} ({n}) | {masking.upper()} | {rate:.0%} | {part['gap cc'].mean():+.4f} | "
              f"{part['gap tree'].mean():+.4f} | {part['gap best'].mean():+.4f} | {ahead}/{len(part)} | "
              f"{part['ratio cc'].median():.1f}x / {part['ratio tree'].median():.1f}x / "
              f"{part['ratio best'].median():.1f}x |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learner", choices=("ldag", "sgm", "mpl"))
    parser.add_argument("--out")
    parser.add_argument("--summary", nargs="+")
    parser.add_argument("specs", nargs="*")
    args = parser.parse_args()
    if args.summary:
        summarise(args.summary)
    else:
        run(args.learner, args.out, args.specs)


if __name__ == "__main__":
    main()
