"""Labelling quality against brute force: the earlier code (main at a9e3579) and this code in one process.

Run from the repository root:  python benchmarks/bench_labelling_quality.py [--old-commit a9e3579]

The earlier package is extracted with ``git archive`` into a temporary directory and imported
as ``pgmpy_sgm_old`` (its imports renamed), so both run on the same tables in the same process.

* Random centers of 4- and 5-variable cliques with 3- and 4-state centers whose parents are
  beyond the earlier exact search (16 configurations) but within brute force: parents
  (3, 3, 2), (2, 3, 3), (4, 2, 2), (2, 2, 4) (18 and 16 configurations, 4-variable cliques),
  (2, 2, 2, 2) (5-variable cliques) and (3, 4, 2), (2, 3, 4) (24 configurations). Counts from
  random conditional tables grouped along lines (two thirds) or Dirichlet(1) cells, n 100..5000.
  The brute force is the exact partition programme of this code forced on the space
  (``method="exact"``; it is tested against independent enumerations in the test suite).
  Reported: hit rate (value within 1e-9 of the brute force) and the largest gap, per method.
* MASS housing (tests/data/mass_housing.csv): every center with at most 24 configurations
  against brute force, and the whole clique's labelling.
* House votes 1984 (mlbench ``HouseVotes84``, 435 rows, missing answers as a third state),
  5-cliques: no brute force is possible (54 or 81 configurations per center); the gain of the
  clique labelling by each code, and the best gain found by this code's heuristic with 64
  restarts and no work cap. Skipped when ``--votes CSV`` is not given.
* Time per whole clique of this code's default on random 3- and 4-state cliques of 4 and 5
  variables (every center beyond the exact search).
* Where the exact search ends: valid blocks, transitions and build time of the structure of
  parent spaces of 18 and 24 configurations, and the time of whole cliques whose centers are
  partly within it (``--only-exact-bound`` runs this section alone).
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pgmpy_sgm.core.lines import group_weights  # noqa: E402
from pgmpy_sgm.core.optimize import optimal_clique_labelling, optimal_groups  # noqa: E402


def import_old(commit: str, where: Path):
    """The package at ``commit`` as ``pgmpy_sgm_old`` (extracted and renamed under ``where``)."""
    archive = where / "old.tar"
    subprocess.run(["git", "archive", "-o", str(archive), commit, "pgmpy_sgm"], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(where / "src", filter="data")
    old = where / "src" / "pgmpy_sgm_old"
    (where / "src" / "pgmpy_sgm").rename(old)
    for path in old.rglob("*.py"):
        text = path.read_text()
        path.write_text(
            text.replace("pgmpy_sgm.", "pgmpy_sgm_old.").replace("import pgmpy_sgm\n", "import pgmpy_sgm_old\n")
        )
    sys.path.insert(0, str(where / "src"))
    return importlib.import_module("pgmpy_sgm_old.core.optimize")


def grouped_table(rng, cards, k, n):
    """Counts of one center: parent configurations merged along random lines share a distribution."""
    p = int(np.prod(cards))
    grid = np.arange(p).reshape(cards)
    group = np.arange(p)
    for d in range(len(cards)):
        for line in np.moveaxis(grid, d, -1).reshape(-1, cards[d]):
            if rng.random() < 0.3:
                for c in line[1:]:
                    group[group == group[c]] = group[line[0]]
    probs = {g: rng.dirichlet(np.full(k, 0.7)) for g in set(group.tolist())}
    parents = rng.multinomial(n, rng.dirichlet(np.ones(p)))
    return np.array([rng.multinomial(parents[c], probs[group[c]]) for c in range(p)], dtype=float)


def centers(rng, cards, n_tables):
    out = []
    for t in range(n_tables):
        k = 3 + t % 2
        n = int(rng.integers(100, 5001))
        if t % 3:
            out.append(grouped_table(rng, cards, k, n))
        else:
            p = int(np.prod(cards))
            out.append(rng.multinomial(n, rng.dirichlet(np.ones(p * k))).reshape(p, k).astype(float))
    return out


def summary(gaps) -> str:
    gaps = np.asarray(gaps)
    return f"hit {int(np.sum(gaps < 1e-9))}/{gaps.size}, largest gap {gaps.max():.3f}"


def random_centers(old, n_tables: int) -> None:
    rng = np.random.default_rng(2026)
    print(f"random centers, {n_tables} tables per parent space (3- and 4-state centers): hit rate vs brute force")
    for cards in ((3, 3, 2), (2, 3, 3), (4, 2, 2), (2, 2, 4), (2, 2, 2, 2), (3, 4, 2), (2, 3, 4)):
        tables = centers(rng, cards, n_tables)
        t0 = time.perf_counter()
        exact = [optimal_groups(c, cards, method="exact").value for c in tables]
        t_exact = time.perf_counter() - t0
        rows = {"old default": [], "old lns": [], "new default": []}
        times = {name: 0.0 for name in rows}
        for i, c in enumerate(tables):
            for name, fn in (
                ("old default", lambda c, i, cards=cards: old.optimal_groups(c, cards, seed=i).value),
                ("old lns", lambda c, i, cards=cards: old.optimal_groups(c, cards, method="lns", seed=i).value),
                ("new default", lambda c, i, cards=cards: optimal_groups(c, cards, seed=i).value),
            ):
                t = time.perf_counter()
                rows[name].append(exact[i] - fn(c, i))
                times[name] += time.perf_counter() - t
        parts = "; ".join(f"{name} {summary(g)} ({1000 * times[name] / n_tables:.0f} ms)" for name, g in rows.items())
        print(f"  parents {cards}: brute force {t_exact:.1f} s in all (structure included); {parts}")


def clique_gain(module, table, **kw) -> float:
    lab = module.optimal_clique_labelling(table, **kw)
    return 0.0 if lab.center is None else float(lab.gain)


def housing(old) -> None:
    frame = pd.read_csv(ROOT / "tests" / "data" / "mass_housing.csv", comment="#")
    axes = ["Sat", "Infl", "Type", "Cont"]
    codes = [pd.Categorical(frame[a]).codes for a in axes]
    table = np.zeros([len(set(frame[a])) for a in axes])
    np.add.at(table, tuple(codes), frame["Freq"].to_numpy(dtype=float))
    print("\nMASS housing (Sat 3, Infl 3, Type 4, Cont 2; n = 1681)")
    for center in range(4):
        parents = tuple(k for i, k in enumerate(table.shape) if i != center)
        counts = np.moveaxis(table, center, -1).reshape(-1, table.shape[center])
        base = group_weights(counts, np.arange(counts.shape[0]))
        vals = {
            "old default": old.optimal_groups(counts, parents).value - base,
            "old lns": old.optimal_groups(counts, parents, method="lns").value - base,
            "new default": optimal_groups(counts, parents).value - base,
        }
        try:
            t = time.perf_counter()
            brute = optimal_groups(counts, parents, method="exact").value - base
            bf = f"brute force {brute:.3f} ({time.perf_counter() - t:.1f} s)"
        except ValueError:
            bf = "beyond brute force"
        print(
            f"  center {axes[center]} (parents {parents}): {bf}; " + ", ".join(f"{k} {v:.3f}" for k, v in vals.items())
        )
    for name, module in (("old", old), ("new", sys.modules["pgmpy_sgm.core.optimize"])):
        lab = module.optimal_clique_labelling(table)
        print(f"  whole clique, {name} default: center {axes[lab.center]}, gain {lab.gain:.3f}")


def votes(old, path: str, n_cliques: int) -> None:
    frame = pd.read_csv(path)
    cols = [c for c in frame.columns if c != "Class"]
    codes = {c: frame[c].map({"n": 0, "y": 1}).fillna(2).astype(int).to_numpy() for c in cols}
    codes["Class"] = (frame["Class"] == "republican").astype(int).to_numpy()
    rng = np.random.default_rng(5)
    print(
        f"\nhouse votes 1984 (n = {len(frame)}, answers y / n / missing), {n_cliques} random 5-cliques: gain per code"
    )
    worst = []
    for _ in range(n_cliques):
        members = list(rng.choice(["Class"] + cols, size=5, replace=False))
        shape = tuple(2 if m == "Class" else 3 for m in members)
        table = np.zeros(shape)
        np.add.at(table, tuple(codes[m] for m in members), 1.0)
        t = time.perf_counter()
        new = clique_gain(sys.modules["pgmpy_sgm.core.optimize"], table)
        t_new = time.perf_counter() - t
        t = time.perf_counter()
        prev = clique_gain(old, table)
        t_old = time.perf_counter() - t
        best = max(new, prev, clique_gain(sys.modules["pgmpy_sgm.core.optimize"], table, max_work=None))
        worst.append((best - prev, best - new))
        print(
            f"  {','.join(members)}: old default {prev:.3f} ({t_old:.2f} s), new default {new:.3f} ({t_new:.2f} s), "
            f"best found {best:.3f}"
        )
    gaps = np.array(worst)
    print(f"  largest shortfall from the best found: old {gaps[:, 0].max():.3f}, new {gaps[:, 1].max():.3f}")


def timing() -> None:
    rng = np.random.default_rng(7)
    optimal_groups(np.ones((81, 3)), (3, 3, 3, 3))  # warm-up
    print("\nthis code's default, seconds per whole clique (random conditional tables, n = 5000)")
    for k, n_vars, n_cliques in ((3, 4, 4), (4, 4, 4), (3, 5, 4), (4, 5, 3)):
        times, capped = [], 0
        for _ in range(n_cliques):
            joint = np.ones(())
            for i in range(n_vars):
                joint = joint[..., None] * rng.dirichlet(np.ones(k), size=k**i).reshape((k,) * i + (k,))
            table = rng.multinomial(5000, joint.ravel()).reshape((k,) * n_vars).astype(float)
            t = time.perf_counter()
            capped += optimal_clique_labelling(table).capped
            times.append(time.perf_counter() - t)
        print(
            f"  {n_vars} variables of {k} states: median {np.median(times):.2f} s, max {np.max(times):.2f} s "
            f"({n_cliques} cliques, {capped} with a center stopped by the work cap)"
        )


def exact_bound() -> None:
    """Where the exact search ends: structure sizes and build times, and whole cliques by default."""
    from pgmpy_sgm.core._exact_partition import _exact_structure, exact_search_fits

    print("\nexact search: parent spaces (structure built once per space and cached)")
    _exact_structure.cache_clear()
    exact_search_fits.cache_clear()
    for cards in ((3, 3, 2), (2, 2, 2, 2), (3, 4, 2)):
        t = time.perf_counter()
        st = _exact_structure(cards, (False,) * len(cards))
        built = time.perf_counter() - t
        default = exact_search_fits(cards, (False,) * len(cards))
        print(
            f"  {cards}: {st.blocks.size} valid blocks, {st.t_block.size} transitions, "
            f"built in {built:.2f} s; default exact: {default}"
        )
    rng = np.random.default_rng(1)
    print("whole cliques with the default (random counts, n = 3000): first call, then median of two")
    for cards in ((3, 3, 2, 2), (4, 2, 2, 2), (4, 3, 2, 2), (3, 2, 2, 2, 2), (3, 3, 3, 3)):
        n_exact = sum(
            exact_search_fits(tuple(k for i, k in enumerate(cards) if i != c), (False,) * (len(cards) - 1))
            for c in range(len(cards))
        )
        times = []
        for _ in range(3):
            table = rng.multinomial(3000, rng.dirichlet(np.ones(int(np.prod(cards))))).reshape(cards)
            t = time.perf_counter()
            optimal_clique_labelling(table)
            times.append(time.perf_counter() - t)
        print(
            f"  {cards}: {n_exact} of {len(cards)} centers exact; {times[0]:.2f} s first, "
            f"{np.median(times[1:]):.3f} s after"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-commit", default="a9e3579")
    parser.add_argument("--tables", type=int, default=24, help="tables per parent space")
    parser.add_argument("--votes", help="CSV of mlbench HouseVotes84 (Class, V1..V16; missing cells empty)")
    parser.add_argument("--vote-cliques", type=int, default=8)
    parser.add_argument("--only-exact-bound", action="store_true", help="run only the exact-search section")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}")
    if args.only_exact_bound:
        exact_bound()
        return
    with tempfile.TemporaryDirectory() as tmp:
        old = import_old(args.old_commit, Path(tmp))
        housing(old)
        if args.votes:
            votes(old, args.votes, args.vote_cliques)
        random_centers(old, args.tables)
        timing()
    exact_bound()
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
