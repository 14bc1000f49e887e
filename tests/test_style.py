"""The code base stays lint-clean (ruff, with the settings in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_reports_nothing():
    ruff = shutil.which("ruff")
    if ruff is None:  # the test extras install ruff; a bare environment may lack it
        pytest.skip("ruff is not installed")
    result = subprocess.run(
        [ruff, "check", "--quiet", "pgmpy_sgm", "tests", "benchmarks", "tutorials"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_module_imports_without_side_effects():
    code = "import pgmpy_sgm, pgmpy_sgm.cli, pgmpy_sgm.plotting, pgmpy_sgm.readwrite, pgmpy_sgm.convert"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout == "", result.stderr
