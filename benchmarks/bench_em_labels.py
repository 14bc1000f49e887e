"""`LDAGSearch`'s structural EM: the labels searched once at the end against labels in every step, in one run.

Run:  python benchmarks/bench_em_labels.py --out FILE.csv SPEC [SPEC ...]
      python benchmarks/bench_em_labels.py --summary FILE.csv [FILE.csv ...]

A SPEC is ``network:n:rate:masking:seed``, the data of ``bench_missing.py`` (as in
``bench_em_start.py``). For each SPEC, in the same process: the full-data fit (the ceiling and
the time baseline), EM as the package runs it (every step without labels, the labels searched
once on the chosen step's completed table), and EM with the labels searched in every step (the
behaviour before 2026-11-27, restored here by replacing ``LDAGSearch._em_settings`` and
``LDAGSearch._labelled_result`` for that fit). Reported per way: the held-out gap to the full
fit (nats/row) and the EM time over the full fit's.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _csv_rows import append_row  # noqa: E402
from _hash_seed import pin_hash_seed  # noqa: E402

pin_hash_seed()

import pandas as pd  # noqa: E402
from bench_missing import held_out, setting  # noqa: E402

warnings.filterwarnings("ignore")


def labels_every_step(learner_class):
    """Patch ``learner_class`` so that its EM searches the labels in every step; returns an undo."""
    saved = learner_class._em_settings, learner_class._labelled_result
    learner_class._em_settings = lambda self, labels: self._settings
    learner_class._labelled_result = lambda self, table, deadline, result: result

    def undo():
        learner_class._em_settings, learner_class._labelled_result = saved

    return undo


def fit(data, missing, test, states: dict, seed: int) -> tuple[float, float]:
    """``LDAGSearch`` with its defaults on ``data``: held-out log-likelihood per row on ``test``, and seconds."""
    from pgmpy_sgm import LDAGSearch

    tic = time.perf_counter()
    est = LDAGSearch(seed=seed, show_progress=False, state_names=states, missing=missing).fit(data)
    return held_out(est.model_, test, states), time.perf_counter() - tic


def run(out: str, specs: list[str]) -> None:
    from pgmpy_sgm import LDAGSearch

    for spec in specs:
        name, n, rate, masking, seed, _, states, train, test, masked = setting(spec)

        full, full_seconds = fit(train, "error", test, states, seed)
        once, once_seconds = fit(masked, "em", test, states, seed)
        undo = labels_every_step(LDAGSearch)
        try:
            every, every_seconds = fit(masked, "em", test, states, seed)
        finally:
            undo()
        row = dict(net=name, n=n, rate=rate, masking=masking, seed=seed, t_full=full_seconds,
                   gap_once=once - full, ratio_once=once_seconds / full_seconds,
                   gap_every=every - full, ratio_every=every_seconds / full_seconds)  # fmt: skip
        print(row, flush=True)
        append_row(out, row)


def summarise(paths: list[str]) -> None:
    rows = pd.concat([pd.read_csv(p) for p in paths])
    print("| network | rate | seed | gap every step / once | time ratio every step / once |")
    print("|---|---|---|---|---|")
    for _, r in rows.iterrows():
        print(f"| {r['net']} | {r['rate']:.0%} | {r['seed']} | {r['gap_every']:+.4f} / {r['gap_once']:+.4f} | "
              f"{r['ratio_every']:.1f}x / {r['ratio_once']:.1f}x |")  # fmt: skip
    speed = rows["ratio_every"] / rows["ratio_once"]
    print(f"\nruns {len(rows)}; mean gap every step {rows['gap_every'].mean():.4f}, "
          f"once {rows['gap_once'].mean():.4f}; "
          f"median time ratio {rows['ratio_every'].median():.2f}x -> {rows['ratio_once'].median():.2f}x; EM time every "
          f"step / once: median {speed.median():.2f}x (range {speed.min():.2f}-{speed.max():.2f}x); within 5x every "
          f"step {int((rows['ratio_every'] <= 5).sum())}, once {int((rows['ratio_once'] <= 5).sum())} of {len(rows)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out")
    parser.add_argument("--summary", nargs="+")
    parser.add_argument("specs", nargs="*")
    args = parser.parse_args()
    if args.summary:
        summarise(args.summary)
    else:
        run(args.out, args.specs)


if __name__ == "__main__":
    main()
