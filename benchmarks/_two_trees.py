"""Run a timing snippet against one source tree of the package in its own subprocess (for benchmarks that
compare two trees in one run).

The snippet gets ``sys.argv[1:] == [dataset, benchmarks folder, tree]``, runs with the tree first on
``PYTHONPATH`` and ``PYTHONHASHSEED=0`` from the benchmarks folder (so not the current folder's package),
and prints one JSON line last.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_in_tree(tree: str, snippet: str, name: str) -> dict:
    """The JSON line the snippet prints for data set ``name`` with the package from ``tree``."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), PYTHONHASHSEED="0")
    args = [sys.executable, "-c", snippet, name, str(HERE), os.path.abspath(tree)]
    out = subprocess.run(args, env=env, capture_output=True, text=True, cwd=HERE)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])
