"""The documentation builds without a single warning and without the network, and holds what it promises.

One fresh Sphinx build (``-W``: every warning is an error; ``-E``: no cached environment) into a
temporary folder; the notebooks are rendered from their stored outputs, not executed, and no
extension fetches anything (no intersphinx).
"""

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PUBLIC_SUBPACKAGES = ["models", "structure_score", "causal_discovery", "factors", "readwrite", "plotting", "datasets"]


def build_html(out):
    for package in ("sphinx", "numpydoc", "myst_nb", "pydata_sphinx_theme"):
        pytest.importorskip(package, reason="the docs (or test) extra installs the documentation tools")
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html"]
    result = subprocess.run(
        [*command, "-d", str(out / "doctrees"), str(DOCS), str(out / "html")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    return out / "html"


def test_the_build_fetches_nothing_and_executes_no_notebook():
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert "intersphinx" not in conf
    assert re.search(r'^nb_execution_mode = "off"$', conf, flags=re.M)


def test_docs_build_without_warnings_and_hold_what_they_promise(tmp_path):
    # one test, so that parallel workers never build twice or write the generated sources at once
    html = build_html(tmp_path)

    for subpackage in PUBLIC_SUBPACKAGES:  # the API reference: every exported name has its page
        module = f"pgmpy_sgm.{subpackage}"
        assert (html / "api" / f"{module}.html").exists(), module
        names = importlib.import_module(module).__all__
        missing = [n for n in names if not (html / "api" / "generated" / f"{module}.{n}.html").exists()]
        assert not missing, f"{module}: no API page for {missing}"
    page = (html / "api" / "generated" / "pgmpy_sgm.causal_discovery.NonReversibleMCMC.html").read_text()
    assert "Parameters" in page and "n_iter" in page and "Examples" in page

    pages = sorted((html / "tutorials").glob("*.html"))  # the tutorials, with their stored outputs
    assert [p.stem for p in pages] == sorted(p.stem for p in (ROOT / "tutorials").glob("*.ipynb"))
    heart = (html / "tutorials" / "01_heart_disease.html").read_text()
    assert "best log unnormalized posterior: -6715.90" in heart
    assert heart.count("<img") >= 2

    for guide in ["models", "learners", "scores", "data", "command_line", "benchmarks", "development"]:
        assert (html / "user_guide" / f"{guide}.html").exists(), guide
    assert any((html / "_downloads").rglob("RESULTS.md")), "benchmarks/RESULTS.md offered for download"


def test_readme_images_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme)
    assert targets
    for target in targets:
        assert (ROOT / target).exists(), target
