"""Graphviz DOT export: statements, labelled-edge attributes and quoting."""

import re

import pytest

from pgmpy_sgm import StratifiedGraph
from pgmpy_sgm.plotting import to_dot
from pgmpy_sgm.plotting.dot import dot_quote

QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unquote(text):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def _statements(dot):
    lines = dot.strip().splitlines()
    assert lines[0].startswith("graph ") and lines[0].endswith("{")
    assert lines[-1] == "}"
    return [line.strip() for line in lines[1:-1]]


def test_heart_labelled_edges(heart_sg):
    dot = to_dot(heart_sg)
    statements = _statements(dot)
    red = "color=red, penwidth=2, fontcolor=red"
    assert f'"smoking" -- "systolic_bp" [{red}, label="lipoprotein_ratio=1"];' in statements
    assert f'"systolic_bp" -- "lipoprotein_ratio" [{red}, label="smoking=0"];' in statements
    edges = [s for s in statements if " -- " in s]
    assert len(edges) == 6
    assert sum("color=red" in s for s in edges) == 2
    assert '"mental_work" -- "physical_work";' in statements
    assert '"family_history";' in statements  # isolated node kept


def test_synthetic_full_and_compact(synthetic_sg):
    full = to_dot(synthetic_sg)
    assert '"X1" -- "X3" [color=red, penwidth=2, fontcolor=red, label="X2=1, X4=0; X2=1, X4=1"];' in full
    compact = to_dot(synthetic_sg, label_style="compact")
    assert 'label="(X2, X4): (1, 0), (1, 1)"' in compact
    assert 'label="X3=0"' in compact


def test_names_with_spaces_quotes_and_backslashes_round_trip():
    names = ['blood "pressure"', "family history", "a\\b", "two\nlines"]
    sg = StratifiedGraph([(names[0], names[1]), (names[0], names[2]), (names[1], names[2]), (names[2], names[3])])
    sg.add_label(names[0], names[1], {names[2]: 1})
    dot = to_dot(sg, name='my "graph"')
    assert dot.startswith('graph "my \\"graph\\"" {')
    assert '"blood \\"pressure\\"" -- "family history" [color=red' in dot
    assert 'label="a\\\\b=1"' in dot
    for line in _statements(dot)[1:]:
        # everything outside quoted strings is plain DOT syntax (no stray quote or newline)
        outside = QUOTED.sub("ID", line)
        assert re.fullmatch(r"ID( -- ID)?( \[[^\]\"]*\])?;", outside), line
    ids = {_unquote(m) for line in _statements(dot)[1:] for m in QUOTED.findall(line.split("[")[0])}
    assert ids == set(names)


def test_dot_quote():
    assert dot_quote(3) == '"3"'
    assert dot_quote('say "hi"') == '"say \\"hi\\""'


def test_node_labels():
    sg = StratifiedGraph([("smoking", "systolic_bp")])
    assert '"smoking" [label="X1"];' in to_dot(sg, node_labels={"smoking": "X1"})


def test_errors(heart_sg):
    with pytest.raises(ValueError, match="label_style"):
        to_dot(heart_sg, label_style="tiny")
    with pytest.raises(TypeError, match="StratifiedGraph"):
        to_dot("graph {}")
