"""The README's code runs as written: its ``python`` blocks, in order, in one namespace.

The printed results the README's comments announce are checked too.
"""

import contextlib
import io
import re
from pathlib import Path

import matplotlib

README = Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"^```python\n(.*?)^```", flags=re.S | re.M)


def python_blocks(text):
    return FENCE.findall(text)


def test_python_blocks_are_found():
    blocks = python_blocks("intro\n```python\na = 1\n```\ntext\n```bash\nls\n```\n```python\nb = a\n```\n")
    assert blocks == ["a = 1\n", "b = a\n"]


def test_readme_python_blocks_run_in_order_and_print_what_their_comments_say():
    matplotlib.use("Agg")
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "the README has no python block"
    namespace, out = {"__name__": "__readme__"}, io.StringIO()
    with contextlib.redirect_stdout(out):
        for number, block in enumerate(blocks, 1):
            exec(compile(block, f"README.md python block {number}", "exec"), namespace)
    lines = out.getvalue().splitlines()
    assert "-6715.90" in lines  # "the paper's optimum"
    assert "systolic_bp ⟂ lipoprotein_ratio | smoking=0" in lines
    assert "smoking ⟂ systolic_bp | lipoprotein_ratio=1" in lines
    assert "    lipoprotein_ratio = 1 -> leaf A (tied)" in lines
    assert "systolic_bp ⟂ smoking | lipoprotein_ratio=1" in lines  # the labelled DAG's statement


def test_readme_links_to_files_that_exist():
    text = README.read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in t]
    assert any(t.startswith("docs/") for t in targets), "the README links into the documentation"
    missing = [t for t in targets if not (README.parent / t.split("#")[0]).exists()]
    assert not missing, missing
