"""Benchmarks simulate with pgmpy, whose sampler orders nodes by hash: each run pins ``PYTHONHASHSEED=0``."""

import os
import sys


def pin_hash_seed() -> None:
    """Re-run this process with ``PYTHONHASHSEED=0`` unless it already has it (the same data on every run)."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])
