"""The first line a benchmark prints: the machine, its load and the library versions behind the figures."""

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
