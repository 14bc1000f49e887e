"""Drawing stratified graphs: edge styles, strata texts, layout, options and errors."""

import math
from types import SimpleNamespace

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import pytest
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.text import Text

from pgmpy_sgm import StratifiedGraph
from pgmpy_sgm.plotting import artists_by_gid, graph_layout, plot_stratified_graph
from pgmpy_sgm.plotting._format import stratum_text

RED = to_rgba("red")
BLACK = to_rgba("black")


def _edge_key(artist):
    u, v = artist.get_label().lstrip("_").split(" -- ")
    return frozenset((u, v))


def _edges(ax):
    labelled = {_edge_key(a): a for a in artists_by_gid(ax, "sgm-labelled")}
    plain = {_edge_key(a): a for a in artists_by_gid(ax, "sgm-edge")}
    return labelled, plain


def _strata(ax):
    return {_edge_key(t): t.get_text() for t in artists_by_gid(ax, "sgm-strata")}


def _node_positions(ax):
    return {t.get_text(): t.get_position() for t in artists_by_gid(ax, "sgm-node")}


def _assert_no_overlap(ax):
    renderer = ax.figure.canvas.get_renderer()
    texts = artists_by_gid(ax, "sgm-strata") + artists_by_gid(ax, "sgm-node")
    boxes = [t.get_window_extent(renderer) for t in texts]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            assert not boxes[i].overlaps(boxes[j]), (texts[i].get_text(), texts[j].get_text())


class TestHeart:
    def test_labelled_edges_are_red_and_thick_others_black(self, heart_sg):
        ax = plot_stratified_graph(heart_sg)
        labelled, plain = _edges(ax)
        assert set(labelled) == {frozenset(("smoking", "systolic_bp")), frozenset(("systolic_bp", "lipoprotein_ratio"))}
        assert len(plain) == 4
        assert all(isinstance(a, Line2D) for a in [*labelled.values(), *plain.values()])
        for line in labelled.values():
            assert to_rgba(line.get_color()) == RED
        for line in plain.values():
            assert to_rgba(line.get_color()) == BLACK
        assert min(a.get_linewidth() for a in labelled.values()) > max(a.get_linewidth() for a in plain.values())

    def test_strata_texts_sit_on_their_edges(self, heart_sg):
        ax = plot_stratified_graph(heart_sg)
        assert _strata(ax) == {
            frozenset(("smoking", "systolic_bp")): "lipoprotein_ratio=1",
            frozenset(("systolic_bp", "lipoprotein_ratio")): "smoking=0",
        }
        pos = graph_layout(heart_sg)
        for text in artists_by_gid(ax, "sgm-strata"):
            u, v = text.get_label().lstrip("_").split(" -- ")
            p, q, x = pos[u], pos[v], np.asarray(text.get_position())
            # on the segment between its two nodes
            cross = (q - p)[0] * (x - p)[1] - (q - p)[1] * (x - p)[0]
            assert abs(cross) < 1e-9
            assert 0.2 < np.dot(x - p, q - p) / np.dot(q - p, q - p) < 0.8
        # single common neighbours: no caption about the order of states
        assert artists_by_gid(ax, "sgm-strata-key") == []

    def test_node_names_present_including_isolated(self, heart_sg):
        ax = plot_stratified_graph(heart_sg)
        assert sorted(_node_positions(ax)) == sorted(heart_sg.nodes())

    def test_texts_do_not_overlap(self, heart_sg):
        ax = plot_stratified_graph(heart_sg)
        _assert_no_overlap(ax)
        renderer = ax.figure.canvas.get_renderer()
        texts = artists_by_gid(ax, "sgm-strata") + artists_by_gid(ax, "sgm-node")
        boxes = [t.get_window_extent(renderer) for t in texts]
        # every text lies inside the axes (nothing clipped at the border)
        axes_box = ax.get_window_extent(renderer)
        for box in boxes:
            assert axes_box.x0 - 1 <= box.x0 and box.x1 <= axes_box.x1 + 1
            assert axes_box.y0 - 1 <= box.y0 and box.y1 <= axes_box.y1 + 1

    def test_circular_layout_in_node_order_from_the_top(self, heart_sg):
        pos = graph_layout(heart_sg)
        nodes = list(heart_sg.nodes())
        assert np.allclose(pos[nodes[0]], (0.0, 1.0))
        angles = [math.atan2(pos[v][1], pos[v][0]) for v in nodes]
        steps = np.diff(np.unwrap(angles))
        assert np.allclose(steps, -2 * math.pi / len(nodes))  # clockwise, evenly spaced


class TestSynthetic:
    def test_compact_strata_and_caption(self, synthetic_sg):
        ax = plot_stratified_graph(synthetic_sg)
        assert _strata(ax) == {
            frozenset(("X1", "X2")): "(1, 0)",
            frozenset(("X1", "X3")): "(1, 0), (1, 1)",
            frozenset(("X4", "X5")): "X3=0",
            frozenset(("X5", "X7")): "X6=0",
            frozenset(("X6", "X7")): "X5=1",
        }
        (key,) = artists_by_gid(ax, "sgm-strata-key")
        assert "X1–X2: (X3, X4)" in key.get_text()
        assert "X1–X3: (X2, X4)" in key.get_text()

    def test_full_strata(self, synthetic_sg):
        ax = plot_stratified_graph(synthetic_sg, label_style="full")
        strata = _strata(ax)
        assert strata[frozenset(("X1", "X3"))] == "X2=1, X4=0;\nX2=1, X4=1"  # one context per line
        assert strata[frozenset(("X1", "X2"))] == "X3=1, X4=0"
        assert artists_by_gid(ax, "sgm-strata-key") == []

    def test_red_edges(self, synthetic_sg):
        labelled, plain = _edges(plot_stratified_graph(synthetic_sg))
        assert set(labelled) == {frozenset(e) for e in synthetic_sg.strata}
        assert len(plain) == synthetic_sg.number_of_edges() - 5
        assert all(to_rgba(a.get_color()) == RED for a in labelled.values())
        assert not any(to_rgba(a.get_color()) == RED for a in plain.values())

    @pytest.mark.parametrize("layout", ["circular", "spring", "kamada_kawai"])
    @pytest.mark.parametrize("label_style", ["compact", "full"])
    def test_texts_do_not_overlap(self, synthetic_sg, layout, label_style):
        _assert_no_overlap(plot_stratified_graph(synthetic_sg, layout=layout, label_style=label_style))

    def test_crossing_labelled_edges_get_separate_texts(self):
        sg = StratifiedGraph([("a", "c"), ("b", "d")])
        sg.add_label("a", "c", {"x": 0})
        sg.add_label("b", "d", {"y": 1})
        pos = {"a": (-1, 0), "c": (1, 0), "b": (0, -1), "d": (0, 1)}  # both midpoints at the origin
        _assert_no_overlap(plot_stratified_graph(sg, pos=pos))

    def test_full_form_when_contexts_do_not_cover_all_common_neighbours(self):
        sg = StratifiedGraph([(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)], strata={(1, 2): [{3: 0}]})
        assert stratum_text(sg, 1, 2) == ("3=0", None)

    def test_long_strata_wrap(self):
        sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], state_names={"c": list("pqrst")})
        for s in "pqrs":
            sg.add_label("a", "b", {"c": s})
        text, _ = stratum_text(sg, "a", "b", per_line=2)
        assert text == "c=p; c=q;\nc=r; c=s"


class TestOptions:
    def test_deterministic_positions(self, heart_sg, synthetic_sg):
        for sg in (heart_sg, synthetic_sg):
            for layout in ("circular", "spring", "kamada_kawai", "shell"):
                a = _node_positions(plot_stratified_graph(sg, layout=layout))
                b = _node_positions(plot_stratified_graph(sg.copy(), layout=layout))
                assert a == b

    def test_spring_seed_changes_layout(self, synthetic_sg):
        a = graph_layout(synthetic_sg, "spring", seed=0)
        b = graph_layout(synthetic_sg, "spring", seed=0)
        c = graph_layout(synthetic_sg, "spring", seed=1)
        assert all(np.array_equal(a[v], b[v]) for v in a)
        assert not all(np.allclose(a[v], c[v]) for v in a)

    def test_given_ax_is_used(self, heart_sg):
        fig, (left, right) = plt.subplots(1, 2)
        out = plot_stratified_graph(heart_sg, ax=right)
        assert out is right
        assert artists_by_gid(left, "sgm-node") == []
        assert len(artists_by_gid(right, "sgm-node")) == 6
        assert len(fig.axes) == 2

    def test_given_pos(self, heart_sg):
        pos = {v: (i, i % 2) for i, v in enumerate(heart_sg.nodes())}
        got = _node_positions(plot_stratified_graph(heart_sg, pos=pos))
        assert got == {str(v): (float(x), float(y)) for v, (x, y) in pos.items()}

    def test_node_labels_rename_nodes_and_strata(self, heart_sg):
        ax = plot_stratified_graph(heart_sg, node_labels={"smoking": "X1", "lipoprotein_ratio": "X5"})
        assert {"X1", "X5", "systolic_bp"} <= set(_node_positions(ax))
        assert sorted(_strata(ax).values()) == ["X1=0", "X5=1"]

    def test_hide_strata_keeps_red_edges(self, heart_sg):
        ax = plot_stratified_graph(heart_sg, show_strata=False)
        assert artists_by_gid(ax, "sgm-strata") == []
        assert len(artists_by_gid(ax, "sgm-labelled")) == 2

    def test_fitted_estimator_is_accepted(self, heart_sg):
        ax = plot_stratified_graph(SimpleNamespace(model_=heart_sg, fit=None))
        assert len(artists_by_gid(ax, "sgm-labelled")) == 2

    def test_texts_are_text_artists(self, synthetic_sg):
        ax = plot_stratified_graph(synthetic_sg)
        assert all(isinstance(t, Text) for t in artists_by_gid(ax, "sgm-strata") + artists_by_gid(ax, "sgm-node"))


class TestErrors:
    def test_not_a_graph(self):
        with pytest.raises(TypeError, match="StratifiedGraph"):
            plot_stratified_graph([("a", "b")])
        with pytest.raises(TypeError, match="StratifiedGraph"):
            plot_stratified_graph(nx.DiGraph([("a", "b")]))

    def test_plain_graph_is_drawn_without_labels(self):
        ax = plot_stratified_graph(nx.Graph([("a", "b"), ("b", "c")]))
        assert len(artists_by_gid(ax, "sgm-edge")) == 2 and not artists_by_gid(ax, "sgm-labelled")

    def test_unfitted_estimator(self):
        class Est:
            def fit(self, X):
                return self

        with pytest.raises(ValueError, match="not fitted"):
            plot_stratified_graph(Est())

    def test_bad_layout(self, heart_sg):
        with pytest.raises(ValueError, match="layout must be one of"):
            plot_stratified_graph(heart_sg, layout="hexagonal")

    def test_bad_label_style(self, heart_sg):
        with pytest.raises(ValueError, match="label_style must be one of"):
            plot_stratified_graph(heart_sg, label_style="short")

    def test_missing_positions(self, heart_sg):
        with pytest.raises(ValueError, match="family_history"):
            plot_stratified_graph(heart_sg, pos={v: (0, 0) for v in list(heart_sg.nodes())[:-1]})

    def test_bad_ax(self, heart_sg):
        with pytest.raises(TypeError, match="Axes"):
            plot_stratified_graph(heart_sg, ax="left")

    def test_node_labels_for_unknown_nodes(self, heart_sg):
        with pytest.raises(ValueError, match="not in the graph"):
            plot_stratified_graph(heart_sg, node_labels={"age": "X7"})


def _segment_crosses_box(p, q, box, steps=400) -> bool:
    """Brute force: does any of many points along p-q (display coordinates) fall inside the box?"""
    return any(box.contains(*(p + t * (q - p))) for t in np.linspace(0.0, 1.0, steps))


def _assert_no_edge_under_a_strata_text(ax):
    renderer = ax.figure.canvas.get_renderer()
    lines = artists_by_gid(ax, "sgm-labelled") + artists_by_gid(ax, "sgm-edge")
    for text in artists_by_gid(ax, "sgm-strata"):
        box = text.get_window_extent(renderer)
        for line in lines:
            if _edge_key(line) == _edge_key(text):
                continue
            p, q = ax.transData.transform(np.column_stack(line.get_data()))
            assert not _segment_crosses_box(p, q, box), (text.get_text(), line.get_label())


class TestLegendAndCrossings:
    def test_legend_says_what_a_red_edge_and_its_text_mean(self, heart_sg):
        ax = plot_stratified_graph(heart_sg)
        (legend,) = artists_by_gid(ax, "sgm-legend")
        texts = [t.get_text() for t in legend.get_texts()]
        assert len(texts) == 2 and "independent given each context written on it" in texts[0]
        assert to_rgba(legend.legend_handles[0].get_color()) == RED
        assert to_rgba(legend.legend_handles[1].get_color()) == BLACK

    def test_no_legend_without_labels_or_when_asked(self, heart_sg):
        assert artists_by_gid(plot_stratified_graph(StratifiedGraph([("a", "b")])), "sgm-legend") == []
        assert artists_by_gid(plot_stratified_graph(heart_sg, legend=False), "sgm-legend") == []

    def test_strata_key_sits_under_the_legend(self, synthetic_sg):
        ax = plot_stratified_graph(synthetic_sg)
        renderer = ax.figure.canvas.get_renderer()
        (legend,) = artists_by_gid(ax, "sgm-legend")
        (key,) = artists_by_gid(ax, "sgm-strata-key")
        assert key.get_window_extent(renderer).y1 <= legend.get_window_extent(renderer).y0 + 1

    @pytest.mark.parametrize("layout", ["circular", "kamada_kawai"])
    def test_no_edge_passes_under_a_strata_text(self, heart_sg, synthetic_sg, layout):
        _assert_no_edge_under_a_strata_text(plot_stratified_graph(heart_sg, layout=layout))
        _assert_no_edge_under_a_strata_text(plot_stratified_graph(synthetic_sg, layout=layout))

    def test_text_moves_off_a_crossing_at_its_midpoint(self):
        sg = StratifiedGraph([("a", "c"), ("b", "d")])
        sg.add_label("a", "c", {"x": 0})
        pos = {"a": (-1, 0), "c": (1, 0), "b": (0, -1), "d": (0, 1)}  # b-d crosses a-c at its midpoint
        ax = plot_stratified_graph(sg, pos=pos)
        _assert_no_edge_under_a_strata_text(ax)
