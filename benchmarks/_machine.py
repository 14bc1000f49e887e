"""What every benchmark shares: its first line (the machine, its load, the library versions) and alternated timings."""

from __future__ import annotations

import os
import platform

import numpy as np


def machine_line(extra: str = "") -> str:
    """Processor, CPUs, load, Python and numpy versions (and ``extra``), for the head of a benchmark's output.

    Examples
    --------
    >>> "CPUs, load" in machine_line("note")
    True
    """
    line = (f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, "
            f"Python {platform.python_version()}, numpy {np.__version__}")
    return f"{line}, {extra}" if extra else line


def alternated(run, variants: tuple, repeats: int) -> tuple[dict, dict]:
    """Time variants in turn, ``repeats`` rounds: each variant's median seconds and its last output.

    ``run(variant)`` returns ``(seconds, output)``; the variants alternate within each round, so
    a change of the machine's load falls on both.

    Examples
    --------
    >>> medians, outputs = alternated(lambda v: (float(v), v * 10), (1, 2), repeats=3)
    >>> medians, outputs
    ({1: 1.0, 2: 2.0}, {1: 10, 2: 20})
    """
    times: dict = {v: [] for v in variants}
    outputs: dict = {}
    for _ in range(repeats):
        for variant in variants:
            seconds, outputs[variant] = run(variant)
            times[variant].append(seconds)
    return {v: float(np.median(t)) for v, t in times.items()}, outputs
