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


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    for package in ("sphinx", "numpydoc", "myst_nb", "pydata_sphinx_theme"):
        pytest.importorskip(package, reason="the docs (or test) extra installs the documentation tools")
    out = tmp_path_factory.mktemp("html")
    doctrees = tmp_path_factory.mktemp("doctrees")
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html"]
    result = subprocess.run(
        [*command, "-d", str(doctrees), str(DOCS), str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    return out


def test_the_build_fetches_nothing_and_executes_no_notebook():
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert "intersphinx" not in conf
    assert re.search(r'^nb_execution_mode = "off"$', conf, flags=re.M)


@pytest.mark.parametrize("subpackage", PUBLIC_SUBPACKAGES)
def test_every_exported_name_has_an_api_page(html, subpackage):
    module = f"pgmpy_sgm.{subpackage}"
    names = importlib.import_module(module).__all__
    assert (html / "api" / f"{module}.html").exists()
    missing = [n for n in names if not (html / "api" / "generated" / f"{module}.{n}.html").exists()]
    assert not missing, f"{module}: no API page for {missing}"


def test_api_pages_show_the_docstrings(html):
    page = (html / "api" / "generated" / "pgmpy_sgm.causal_discovery.NonReversibleMCMC.html").read_text()
    assert "Parameters" in page and "n_iter" in page and "Examples" in page


def test_tutorials_are_rendered_with_their_stored_outputs(html):
    pages = sorted((html / "tutorials").glob("*.html"))
    assert [p.stem for p in pages] == sorted(p.stem for p in (ROOT / "tutorials").glob("*.ipynb"))
    heart = (html / "tutorials" / "01_heart_disease.html").read_text()
    assert "best log unnormalized posterior: -6715.90" in heart  # a stored output
    assert heart.count("<img") >= 2  # the stored figures


def test_user_guide_and_readme_images(html):
    for page in ["models", "learners", "scores", "data", "command_line", "benchmarks", "development"]:
        assert (html / "user_guide" / f"{page}.html").exists(), page
    assert any((html / "_downloads").rglob("RESULTS.md")), "benchmarks/RESULTS.md offered for download"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme):  # images the README shows
        assert (ROOT / target).exists(), target
