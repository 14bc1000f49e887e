"""Benchmark results are appended to a CSV row by row, so a run stopped half-way keeps what it measured."""

import csv
import os


def append_row(path: str, row: dict, fieldnames: list | None = None) -> None:
    """Append ``row`` to the CSV file ``path``, writing the header first when the file does not exist yet.

    ``fieldnames`` fixes the columns (keys of ``row`` outside them are left out); by default the keys of ``row``.
    """
    new = not os.path.exists(path)
    with open(path, "a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fieldnames or list(row), extrasaction="ignore")
        if new:
            writer.writeheader()
        writer.writerow(row)
