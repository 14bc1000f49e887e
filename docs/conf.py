"""Sphinx configuration of the pgmpy-sgm documentation.

Build it with ``python -m sphinx -W -b html docs docs/_build/html`` (the ``docs`` extra installs
what it needs; nothing is fetched from the network). The API pages are generated from the
subpackages' ``__all__`` and the tutorials are copied from ``tutorials/`` at every build; the
notebooks are rendered with their stored outputs, never executed.
"""

import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

import pgmpy_sgm  # noqa: E402

project = "pgmpy-sgm"
author = "pgmpy-sgm contributors"
copyright = "2026, pgmpy-sgm contributors"
version = release = pgmpy_sgm.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
root_doc = "index"

# -- API reference ---------------------------------------------------------------------------------
autosummary_generate = True
autodoc_typehints = "none"  # the numpydoc "Parameters" sections give the types
autodoc_default_options = {"members": True, "show-inheritance": True}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = False

# (module, title, what the module holds)
API_MODULES = [
    ("pgmpy_sgm.models", "Models", "Stratified graphs, stratified graphical models and labelled DAGs."),
    ("pgmpy_sgm.structure_score", "Structure scores", "Scores usable wherever pgmpy takes a structure score."),
    ("pgmpy_sgm.causal_discovery", "Structure learning", "Learners following pgmpy's causal-discovery contract."),
    ("pgmpy_sgm.factors", "Factors", "Conditional probability distributions with tied leaves."),
    ("pgmpy_sgm.readwrite", "Reading and writing", "JSON files of models, BIF/XMLBIF export."),
    ("pgmpy_sgm.plotting", "Plotting", "Drawings of graphs and diagnostics of searches."),
    ("pgmpy_sgm.datasets", "Data sets", "Bundled and simulated data."),
]


def _write_if_changed(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _api_pages():
    """One page per subpackage listing its ``__all__``, so new public names appear by themselves."""
    import importlib

    for name, title, summary in API_MODULES:
        module = importlib.import_module(name)
        names = sorted(getattr(module, "__all__", []))
        lines = [
            f"{title}",
            "=" * len(title),
            "",
            f".. currentmodule:: {name}",
            "",
            f"``{name}``: {summary}",
            "",
            ".. autosummary::",
            "   :toctree: generated",
            "   :nosignatures:",
            "",
            *[f"   {item}" for item in names],
            "",
        ]
        _write_if_changed(DOCS / "api" / f"{name}.rst", "\n".join(lines))


def _tutorials():
    """Copy the notebooks (rendered with their stored outputs) next to the documentation sources."""
    target = DOCS / "tutorials"
    target.mkdir(exist_ok=True)
    for notebook in sorted((ROOT / "tutorials").glob("*.ipynb")):
        copy = target / notebook.name
        if not copy.exists() or copy.read_bytes() != notebook.read_bytes():
            shutil.copyfile(notebook, copy)


_api_pages()
_tutorials()

# -- notebooks: render the stored outputs, never execute ---------------------------------------------
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3

# -- HTML ------------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "pgmpy-sgm"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_static_path = []


# -- docstring handling ----------------------------------------------------------------------------
def _join_continued_lines(app, what, name, obj, options, lines):
    """A raw docstring keeps a line-ending backslash: join such a line with the next, as Python would."""
    i = 0
    while i < len(lines) - 1:
        if lines[i].endswith("\\") and not lines[i].endswith("\\\\"):
            lines[i : i + 2] = [lines[i][:-1] + lines[i + 1].lstrip()]
        else:
            i += 1


def _skip_inherited_plumbing(app, what, name, obj, skip, options):
    """scikit-learn's generated metadata-routing setters (``set_score_request``, ...) are not ours."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return skip


def setup(app):
    app.connect("autodoc-process-docstring", _join_continued_lines, priority=100)  # before numpydoc
    app.connect("autodoc-skip-member", _skip_inherited_plumbing)
