"""Structural EM's start: the BDeu and PNAL DAGs, the Chow-Liu tree and the complete cases, measured held out.

Run:  python benchmarks/bench_em_start.py --learner ldag|sgm|mpl [--starts bdeu,pnal,tree,complete_cases]
                                          [--revisit on|off|both] [--start-ess 2,5,10] [--start-indegree 2,3,4]
                                          [--final-refit on|off|both]
                                          --out FILE.csv SPEC [SPEC ...]
      python benchmarks/bench_em_start.py --first-estep [--start-indegree 4,3,2] SPEC [SPEC ...]
      python benchmarks/bench_em_start.py --summary FILE.csv [FILE.csv ...]
      python benchmarks/bench_em_start.py --revisit-summary FILE.csv [FILE.csv ...]

A SPEC is ``network:n:rate:masking:seed`` (``masking`` ``mcar`` or ``mar``), the data of
``bench_missing.py`` (same simulation, masking and 10,000 fresh complete test rows). For each
SPEC the learner is fitted on the rows before masking (the ceiling), then by structural EM on
the masked rows from each start of ``EMOptions.start`` given: ``"complete_cases"`` (the
learner's model of the complete cases, independence when fewer than 30 rows are complete),
``"tree"`` (the Chow-Liu tree of the pairwise available cases), ``"pnal"`` (the DAG of the
penalised node-average likelihood of the available cases) and ``"bdeu"`` (the DAG of their
node-average BDeu score). Reported per run: held-out
log-likelihood per row minus the full fit's ("gap"), the EM time over the full fit's in the
same process ("ratio"), the observed-data criterion of the run's result, free parameters,
iterations and searches, and EM's second look (``EMOptions.revisit``): parents added, whether
it was kept, and the criterion's rise; ``--revisit both`` runs EM without and with it after the
same full fit. ``start="best"`` runs every start and keeps the highest criterion:
the summary reads it off the runs (same seeds, so the same fits) with their summed time.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
from _csv_rows import append_row  # noqa: E402
from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()
sys.path.insert(0, str(HERE))

import pandas as pd  # noqa: E402
from bench_missing import held_out, mask, network, sgm_model, simulate, string_states  # noqa: E402

warnings.filterwarnings("ignore")

STARTS = ("complete_cases", "tree", "pnal")


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


def run(kind: str, out: str, specs: list[str], starts: tuple[str, ...] = STARTS,
        looks: tuple[bool, ...] = (True,), start_esses: tuple[float, ...] = (),
        start_indegrees: tuple[int, ...] = (), refits: tuple[bool, ...] = (True,)) -> None:  # fmt: skip
    """Fit each SPEC fully and by EM from each start; ``start_esses`` and ``start_indegrees``: the ``"bdeu"`` start
    under each of these equivalent sample sizes and most parents instead of ``START_ESS`` and ``START_MAX_INDEGREE``
    (recorded as ``bdeu@ESS/k``); ``refits``: ``LDAGSearch``'s last parameter fit on the rows its network completes,
    on and/or off (off recorded as ``START-norefit``)."""
    from pgmpy_sgm import LDAGSearch
    from pgmpy_sgm.causal_discovery import _structural_em
    from pgmpy_sgm.core.missing import EMOptions

    with_refit = LDAGSearch._refit_on_own_completion

    default = (_structural_em.START_ESS, _structural_em.START_MAX_INDEGREE)
    swept = start_esses or start_indegrees
    variants = [(start, None) for start in starts if not (start == "bdeu" and swept)]
    if swept:
        variants += [("bdeu", setting) for setting in itertools.product(start_esses or default[:1],
                                                                        start_indegrees or default[1:])]  # fmt: skip

    networks = {}
    for spec in specs:
        name, n, rate, masking, seed = spec.split(":")
        n, rate, seed = int(n), float(rate), int(seed)
        if name not in networks:
            bn = network(name)
            networks[name] = (bn, string_states(bn))
        bn, states = networks[name]
        train, test = simulate(bn, n, seed), simulate(bn, 10_000, 1000 + seed)
        masked = mask(train, rate, masking == "mar", seed)
        _, model, full_seconds = fit(kind, train, "error", states, seed)
        full = held_out(model, test, states)
        for (start, setting), revisit, refit in itertools.product(variants, looks, refits):
            # the module constants the start reads, and the learner's last step
            _structural_em.START_ESS, _structural_em.START_MAX_INDEGREE = setting or default
            LDAGSearch._refit_on_own_completion = with_refit if refit else (lambda self, table, result, options: result)
            est, model, seconds = fit(kind, masked, EMOptions(start=start, revisit=revisit), states, seed)
            _structural_em.START_ESS, _structural_em.START_MAX_INDEGREE = default
            LDAGSearch._refit_on_own_completion = with_refit
            history = est.em_history_
            look = history.attrs.get("revisit") or {}
            label = (start if setting is None else f"bdeu@{setting[0]:g}/{setting[1]}") + ("" if refit else "-norefit")
            row = dict(net=name, n=n, rate=rate, masking=masking, seed=seed, learner=kind, start=label,
                       gap=held_out(model, test, states) - full, ratio=seconds / full_seconds, t_full=full_seconds,
                       crit=float(history.loc[history.attrs["best_iteration"], "criterion"]),
                       params=model.n_free_parameters(), iters=len(history),
                       searches=int((history["step"] == "structure").sum()),
                       start_used=history.attrs["start"], revisit=revisit,
                       look_parents=len(look.get("parents_added", ())), look_kept=bool(look.get("kept", False)),
                       look_gain=look.get("criterion_after", math.nan)
                       - look.get("criterion_before", math.nan))  # fmt: skip
            print(row, flush=True)
            append_row(out, row)


def first_e_step(specs: list[str], indegrees: tuple[int, ...]) -> None:
    """Each SPEC's start DAGs (PNAL, then BDeu with each most-parents limit): edges, seconds to build, first E-step.

    The PNAL start is the baseline, built and used in the same process; E-steps as ``EMOptions()`` makes them.
    """
    from pgmpy_sgm.causal_discovery._pnal_start import START_ESS, pnal_log_probability
    from pgmpy_sgm.core.missing import EMOptions, IncompleteTable, complete_rows, e_step_seed

    options = EMOptions()
    for spec in specs:
        name, n, rate, masking, seed = spec.split(":")
        bn = network(name)
        states = string_states(bn)
        masked = mask(simulate(bn, int(n), int(seed)), float(rate), masking == "mar", int(seed))
        table = IncompleteTable.from_frame(masked, None, states)
        for label, settings in [("pnal", {}), *((f"bdeu, {k} parents", {"bdeu_ess": START_ESS, "max_indegree": k})
                                               for k in indegrees)]:  # fmt: skip
            tic = time.perf_counter()
            log_probability = pnal_log_probability(table.codes, table.counts, table.cards, **settings)
            built = time.perf_counter() - tic
            tic = time.perf_counter()
            completed = complete_rows(table, log_probability, options.max_completions, options.n_draws,
                                      e_step_seed(int(seed)), options.tail_mass, options.max_kept,
                                      options.n_tail_draws)  # fmt: skip
            print(f"{spec} {label}: {sum(map(len, log_probability.parents))} edges, built in {built:.2f} s, "
                  f"first E-step {time.perf_counter() - tic:.2f} s, {len(completed.counts)} completed rows",
                  flush=True)  # fmt: skip


def summarise(paths: list[str]) -> None:
    """Per run and per setting: each start's gap, ``best`` (the start of highest criterion), time ratios."""
    rows = pd.concat([pd.read_csv(p) for p in paths])
    rows["start"] = rows["start"].replace({"cc": "complete_cases"})
    keys = ["learner", "net", "n", "masking", "rate", "seed"]
    wide = rows.pivot_table(index=keys, columns="start", values=["gap", "ratio", "crit"]).dropna()
    known = ("bdeu", "pnal", "tree", "complete_cases")  # ties: the earlier, then the other labels (bdeu@ESS)
    others = sorted(s for s in wide["gap"].columns if s not in known)
    starts = [s for s in (*known, *others) if ("gap", s) in wide.columns]
    crit = wide["crit"][starts]
    picked = crit.idxmax(axis=1)
    table = pd.DataFrame({f"gap {s}": wide[("gap", s)] for s in starts})
    table["gap best"] = [wide.loc[i, ("gap", s)] for i, s in zip(wide.index, picked, strict=True)]
    for s in starts:
        table[f"ratio {s}"] = wide[("ratio", s)]
    table["ratio best"] = wide["ratio"][starts].sum(axis=1)
    table["best picks the best gap"] = table["gap best"] >= table[[f"gap {s}" for s in starts]].max(axis=1)
    print(table.round(4).to_markdown())
    print()
    by_setting(table, starts)
    for learner, part in table.groupby(level="learner"):
        means = ", ".join(f"{s} {part[f'gap {s}'].mean():.4f}" for s in [*starts, "best"])
        ratios = ", ".join(f"{s} {part[f'ratio {s}'].median():.1f}x" for s in [*starts, "best"])
        ahead = "; ".join(f"{a} ahead of {b} on {int((part[f'gap {a}'] > part[f'gap {b}']).sum())}"
                          for a, b in zip(starts, starts[1:], strict=False))  # fmt: skip
        print(f"\n{learner}: settings {len(part)}; {ahead}; mean gap {means}; best picked the best start on "
              f"{int(part['best picks the best gap'].sum())}; median time ratio {ratios}")  # fmt: skip
        masking, rate = part.index.get_level_values("masking"), part.index.get_level_values("rate")
        ten, twenty, thirty = (part[(masking == "mcar") & (rate == r)] for r in (0.1, 0.2, 0.3))
        for s in [*starts, "best"]:
            print(f"  {s}: 10% MCAR within 0.02 on {int((ten[f'gap {s}'] > -0.02).sum())} of {len(ten)}; "
                  f"30% MCAR within 0.06 on {int((thirty[f'gap {s}'] > -0.06).sum())} of {len(thirty)}; "
                  f"20% MCAR within 5x on {int((twenty[f'ratio {s}'] <= 5).sum())} of {len(twenty)}")  # fmt: skip


def summarise_revisit(paths: list[str]) -> None:
    """Runs of ``--revisit both``: each run without and with EM's second look, from the same full fit."""
    rows = pd.concat([pd.read_csv(p) for p in paths])
    keys = ["learner", "net", "n", "masking", "rate", "seed", "start"]
    off = rows[~rows["revisit"]].set_index(keys)
    on = rows[rows["revisit"]].set_index(keys)
    both = off.join(on, lsuffix=" off", rsuffix=" on", how="inner")
    both["change"] = both["gap on"] - both["gap off"]
    print("| network | masking | rate | seed | gap without / with | look: parents, criterion rise, kept | "
          "time ratio without / with |")
    print("|---|---|---|---|---|---|---|")
    for (_, net, n, masking, rate, seed, _), r in both.iterrows():
        print(f"| {net} ({n}) | {masking.upper()} | {rate:.0%} | {seed} | {r['gap off']:+.4f} / {r['gap on']:+.4f} | "
              f"{int(r['look_parents on'])}, {r['look_gain on']:+.1f}, {'yes' if r['look_kept on'] else 'no'} | "
              f"{r['ratio off']:.1f}x / {r['ratio on']:.1f}x |")  # fmt: skip
    for learner, part in both.groupby(level="learner"):
        twenty = part.xs(("mcar", 0.2), level=["masking", "rate"], drop_level=False)
        ten = part.xs(0.1, level="rate", drop_level=False)
        print(f"\n{learner}: runs {len(part)}; looks kept {int(part['look_kept on'].sum())}; gap better on "
              f"{int((part['change'] > 1e-4).sum())}, worse on {int((part['change'] < -1e-4).sum())}; mean gap "
              f"{part['gap off'].mean():.4f} -> {part['gap on'].mean():.4f}; median time ratio "
              f"{part['ratio off'].median():.2f}x -> {part['ratio on'].median():.2f}x; 20% MCAR within 5x "
              f"{int((twenty['ratio off'] <= 5).sum())} -> {int((twenty['ratio on'] <= 5).sum())} of {len(twenty)}; "
              f"10% within 0.02 {int((ten['gap off'] > -0.02).sum())} -> {int((ten['gap on'] > -0.02).sum())} "
              f"of {len(ten)}")  # fmt: skip


def by_setting(table: pd.DataFrame, starts: list[str]) -> None:
    """Each setting's mean gaps over its seeds, how many seeds the first start was ahead of the second, median time
    ratios."""
    names = {"bdeu": "BDeu DAG", "pnal": "PNAL DAG", "tree": "tree", "complete_cases": "complete cases"}
    names.update({s: "BDeu DAG, ESS {}, in-degree {}".format(*s.split("@")[1].split("/"))
                  for s in starts if s.startswith("bdeu@") and "/" in s})  # fmt: skip
    names.update({s: f"BDeu DAG, ESS {s.split('@')[1]}" for s in starts if s.startswith("bdeu@") and s not in names})
    names.update({s: f"{names.get(s[:-len('-norefit')], s)} without the last refit" for s in starts
                  if s.endswith("-norefit")})  # fmt: skip
    print("| learner | network (n) | masking | rate | " + " | ".join(f"gap, {names[s]}" for s in starts)
          + f" | gap, best | seeds {names[starts[0]]} ahead of {names[starts[1]]} | time ratio "
          + " / ".join(names[s] for s in starts) + " / best (median) |")  # fmt: skip
    print("|---|---|---|---|" + "---|" * (len(starts) + 3))
    for (learner, net, n, masking, rate), part in table.groupby(level=["learner", "net", "n", "masking", "rate"]):
        ahead = int((part[f"gap {starts[0]}"] > part[f"gap {starts[1]}"]).sum())
        gaps = " | ".join(f"{part[f'gap {s}'].mean():+.4f}" for s in [*starts, "best"])
        ratios = " / ".join(f"{part[f'ratio {s}'].median():.1f}x" for s in [*starts, "best"])
        print(f"| {learner} | {net} ({n}) | {masking.upper()} | {rate:.0%} | {gaps} | {ahead}/{len(part)} | {ratios} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learner", choices=("ldag", "sgm", "mpl"))
    parser.add_argument("--out")
    parser.add_argument("--summary", nargs="+")
    parser.add_argument("--revisit-summary", nargs="+", help="summarise runs of --revisit both")
    parser.add_argument("--starts", default=",".join(STARTS), help="comma-separated EMOptions starts to run")
    parser.add_argument("--revisit", choices=("on", "off", "both"), default="on",
                        help="EMOptions.revisit: on (default), off, or both in the same process (off first)")
    parser.add_argument("--start-ess", default="",
                        help="comma-separated equivalent sample sizes: run the bdeu start under each (bdeu@ESS/k)")
    parser.add_argument("--final-refit", choices=("on", "off", "both"), default="on",
                        help="LDAGSearch's last parameter fit on the rows its network completes: on (default), off, "
                        "or both in the same process (off recorded as START-norefit)")
    parser.add_argument("--start-indegree", default="",
                        help="comma-separated most parents: run the bdeu start under each (bdeu@ESS/k)")
    parser.add_argument("--first-estep", action="store_true",
                        help="time the start DAGs and their first E-step (PNAL, then BDeu under --start-indegree)")
    parser.add_argument("specs", nargs="*")
    args = parser.parse_args()
    if args.first_estep:
        first_e_step(args.specs, tuple(int(value) for value in args.start_indegree.split(",") if value) or (3,))
    elif args.summary:
        summarise(args.summary)
    elif args.revisit_summary:
        summarise_revisit(args.revisit_summary)
    else:
        looks = {"on": (True,), "off": (False,), "both": (False, True)}[args.revisit]
        esses = tuple(float(value) for value in args.start_ess.split(",") if value)
        indegrees = tuple(int(value) for value in args.start_indegree.split(",") if value)
        refits = {"on": (True,), "off": (False,), "both": (False, True)}[args.final_refit]
        run(args.learner, args.out, args.specs, tuple(args.starts.split(",")), looks, esses, indegrees, refits)


if __name__ == "__main__":
    main()
