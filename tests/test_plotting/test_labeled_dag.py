"""plot_labeled_dag: every edge drawn once, labelled edges coloured with their contexts."""

import matplotlib.pyplot as plt
import pytest

from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.plotting import plot_labeled_dag
from pgmpy_sgm.plotting.labeled_dag import label_text


def _model():
    m = LabeledBayesianNetwork(
        [("a", "y"), ("b", "y"), ("y", "c")], state_names={"a": [0, 1], "b": [0, 1, 2], "y": [0, 1], "c": [0, 1]}
    )
    m.set_classes("y", ("a", "b"), [0, 1, 2, 0, 3, 2])
    return m


def _gid(ax, gid):
    return [a for a in ax.get_children() if a.get_gid() == gid]


def test_edges_labels_and_nodes_are_drawn():
    ax = plot_labeled_dag(_model())
    assert len(_gid(ax, "ldag-labelled")) == 1 and len(_gid(ax, "ldag-edge")) == 2
    assert [t.get_text() for t in _gid(ax, "ldag-labels")] == ["b=0;\nb=2"]
    assert sorted(t.get_text() for t in _gid(ax, "ldag-node")) == ["a", "b", "c", "y"]
    plt.close(ax.figure)


def test_show_labels_off_and_bad_input():
    ax = plot_labeled_dag(_model(), show_labels=False, layout="spring")
    assert _gid(ax, "ldag-labels") == []
    plt.close(ax.figure)
    with pytest.raises(TypeError, match="LabeledBayesianNetwork"):
        plot_labeled_dag("not a model")


def test_label_text_lines():
    assert label_text([{"b": 0}, {"b": 1}, {"b": 2}], per_line=2) == "b=0; b=1;\nb=2"
