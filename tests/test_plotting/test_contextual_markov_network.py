"""Drawing contextual Markov networks: contexts on the edges, every edge drawn, bad input refused."""

import pytest

from pgmpy_sgm.models import ContextualMarkovNetwork
from pgmpy_sgm.plotting import artists_by_gid, cmn_to_dot, plot_contextual_markov_network

EDGES = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c"), ("d", "e")]


@pytest.fixture
def cmn():
    return ContextualMarkovNetwork(EDGES, contexts={("c", "a"): [{"b": 0, "d": 1}, {"b": 1, "d": 1}]})


def test_edges_and_contexts_are_drawn(cmn):
    ax = plot_contextual_markov_network(cmn)
    assert len(artists_by_gid(ax, "sgm-labelled")) == 1
    assert len(artists_by_gid(ax, "sgm-edge")) == len(EDGES) - 1
    assert [t.get_text() for t in artists_by_gid(ax, "sgm-strata")] == ["(0, 1), (1, 1)"]
    assert artists_by_gid(ax, "sgm-strata-key")[0].get_text() == "Order of states: a–c: (b, d)"
    assert sorted(t.get_text() for t in artists_by_gid(ax, "sgm-node")) == ["a", "b", "c", "d", "e"]


def test_full_labels_and_renamed_nodes(cmn):
    ax = plot_contextual_markov_network(cmn, label_style="full", node_labels={"b": "B"})
    assert [t.get_text() for t in artists_by_gid(ax, "sgm-strata")] == ["B=0, d=1;\nB=1, d=1"]


def test_dot(cmn):
    text = cmn_to_dot(cmn)
    assert '"a" -- "c" [color=red, penwidth=2, fontcolor=red, label="b=0, d=1; b=1, d=1"];' in text
    assert '"d" -- "e";' in text


def test_refuses_other_objects():
    with pytest.raises(TypeError, match="Expected a ContextualMarkovNetwork"):
        plot_contextual_markov_network([("a", "b")])

    class Unfitted:
        def fit(self):
            pass

    with pytest.raises(ValueError, match="Unfitted is not fitted"):
        cmn_to_dot(Unfitted())
