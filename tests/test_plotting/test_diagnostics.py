"""Trace and edge-probability plots on synthetic inputs."""

from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.image import AxesImage

from pgmpy_sgm.plotting import plot_edge_probabilities, plot_top_edges, plot_trace, top_edges

NAMES = ["smoking", "mental_work", "physical_work", "systolic_bp", "lipoprotein_ratio", "family_history"]


@pytest.fixture
def trace():
    rng = np.random.default_rng(0)
    return -6760 + np.minimum(np.cumsum(rng.exponential(2.0, (3, 101)), axis=1), 44.1)


@pytest.fixture
def probs():
    rng = np.random.default_rng(1)
    values = rng.random((6, 6))
    values = (values + values.T) / 2
    np.fill_diagonal(values, 0.0)
    return pd.DataFrame(values, index=NAMES, columns=NAMES)


def _chain_lines(ax):
    return [line for line in ax.get_lines() if line.get_label().startswith("chain")]


class TestTrace:
    def test_one_line_per_chain_with_legend_and_labels(self, trace):
        ax = plot_trace(trace)
        lines = _chain_lines(ax)
        assert [line.get_label() for line in lines] == ["chain 1", "chain 2", "chain 3"]
        for line, chain in zip(lines, trace, strict=True):
            assert np.array_equal(line.get_ydata(), chain)
            assert np.array_equal(line.get_xdata(), np.arange(101))
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["chain 1", "chain 2", "chain 3"]
        assert ax.get_xlabel() == "iteration"
        assert "log" in ax.get_ylabel() and "posterior" in ax.get_ylabel()

    def test_one_dimensional_is_one_chain(self, trace):
        assert len(_chain_lines(plot_trace(trace[0]))) == 1
        assert len(_chain_lines(plot_trace(trace[0].tolist()))) == 1

    def test_estimator_and_best_score(self, trace):
        ax = plot_trace(SimpleNamespace(trace_=trace, best_score_=-6715.9))
        assert len(_chain_lines(ax)) == 3
        best = [line for line in ax.get_lines() if line.get_label().startswith("best")]
        assert len(best) == 1 and np.allclose(best[0].get_ydata(), -6715.9)
        low, high = ax.get_ylim()
        assert low < trace.min() + 5 and high > -6715.9

    def test_given_ax(self, trace):
        fig, ax = plt.subplots()
        assert plot_trace(trace, ax=ax) is ax
        assert len(fig.axes) == 1

    def test_zoom_off_shows_everything(self, trace):
        trace = trace.copy()
        trace[:, 0] = -9000.0
        assert plot_trace(trace, zoom=False).get_ylim()[0] <= -9000.0
        assert plot_trace(trace).get_ylim()[0] > -9000.0

    @pytest.mark.parametrize(
        ("bad", "error", "match"),
        [
            (np.zeros((2, 3, 4)), ValueError, "shape"),
            (np.zeros((2, 0)), ValueError, "empty"),
            ([[1.0, 2.0], [3.0]], ValueError, "equal length"),
            (np.array([[0.0, np.nan]]), ValueError, "NaN"),
            (["a", "b"], TypeError, "numbers"),
            ("trace", TypeError, "fitted estimator"),
            ({"trace": [1, 2]}, TypeError, "fitted estimator"),
        ],
    )
    def test_bad_inputs(self, bad, error, match):
        with pytest.raises(error, match=match):
            plot_trace(bad)

    def test_unfitted_estimator(self):
        with pytest.raises(ValueError, match="not fitted"):
            plot_trace(SimpleNamespace(fit=lambda X: None))


class TestEdgeProbabilities:
    def test_heatmap_ticks_colorbar_and_values(self, probs):
        ax = plot_edge_probabilities(probs)
        assert [t.get_text() for t in ax.get_xticklabels()] == NAMES
        assert [t.get_text() for t in ax.get_yticklabels()] == NAMES
        (image,) = [a for a in ax.get_children() if isinstance(a, AxesImage)]
        data = image.get_array()
        assert np.ma.getmaskarray(data).diagonal().all()
        off = ~np.eye(6, dtype=bool)
        assert np.allclose(np.ma.getdata(data)[off], probs.to_numpy()[off])
        assert image.get_clim() == (0.0, 1.0)
        assert len(ax.figure.axes) == 2  # the heatmap and its colorbar
        assert "probability" in ax.figure.axes[1].get_ylabel()
        assert len(ax.texts) == 30  # one annotation per off-diagonal cell

    def test_columns_reordered_to_index(self, probs):
        shuffled = probs[NAMES[::-1]]
        ax = plot_edge_probabilities(shuffled)
        (image,) = [a for a in ax.get_children() if isinstance(a, AxesImage)]
        assert np.allclose(np.ma.getdata(image.get_array())[0, 1], probs.iloc[0, 1])

    def test_estimator(self, probs):
        ax = plot_edge_probabilities(SimpleNamespace(edge_probabilities_=probs))
        assert [t.get_text() for t in ax.get_yticklabels()] == NAMES

    @pytest.mark.parametrize(
        ("mutate", "error", "match"),
        [
            (lambda p: p.iloc[:, :5], ValueError, "square"),
            (lambda p: p.set_axis(["a", "b", "c", "d", "e", "f"], axis=1), ValueError, "same variables"),
            (lambda p: p.to_numpy(), TypeError, "DataFrame"),
            (lambda p: p.assign(smoking=np.r_[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]), ValueError, "symmetric"),
            (lambda p: p * 2 + 0.5, ValueError, r"\[0, 1\]"),
            (lambda p: p.astype(str).replace("0.0", "x"), TypeError, "numeric"),
            (lambda p: p.iloc[:1, :1], ValueError, "at least two"),
        ],
    )
    def test_bad_inputs(self, probs, mutate, error, match):
        with pytest.raises(error, match=match):
            plot_edge_probabilities(mutate(probs))

    def test_top_edges(self, probs):
        top = top_edges(probs, top=4)
        assert len(top) == 4
        assert list(top) == sorted(top, reverse=True)
        values = probs.to_numpy()[np.triu_indices(6, 1)]
        assert top.iloc[0] == values.max()
        u, v = top.index[0].split(" -- ")
        assert probs.loc[u, v] == values.max()

    def test_plot_top_edges(self, probs):
        ax = plot_top_edges(probs, top=5)
        assert len(ax.patches) == 5
        assert [t.get_text() for t in ax.get_yticklabels()] == list(top_edges(probs, top=5).index)
        with pytest.raises(ValueError, match="positive integer"):
            plot_top_edges(probs, top=0)
