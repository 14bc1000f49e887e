"""Drawing labelled DAGs: arrows, labelled edges in colour with their contexts as edge text."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import FancyArrowPatch

from pgmpy_sgm.plotting.stratified_graph import check_positions, graph_layout

__all__ = ["plot_labeled_dag", "label_text"]


def label_text(contexts: list[dict], per_line: int = 1) -> str:
    """The contexts of one labelled edge as text, ``per_line`` contexts per line.

    Examples
    --------
    >>> label_text([{"b": 0}, {"b": 2}])
    'b=0;\\nb=2'
    >>> label_text([{"b": 0, "c": 1}], per_line=2)
    'b=0, c=1'
    """
    pieces = [", ".join(f"{w}={s}" for w, s in ctx.items()) for ctx in contexts]
    lines = ["; ".join(pieces[i : i + per_line]) for i in range(0, len(pieces), max(per_line, 1))]
    return ";\n".join(lines)


def plot_labeled_dag(
    model,
    ax: Axes | None = None,
    pos: Mapping | None = None,
    layout: str | Callable = "circular",
    seed: int = 0,
    show_labels: bool = True,
    labelled_edge_color: str = "red",
    edge_color: str = "black",
    font_size: float = 10.0,
    title: str | None = None,
) -> Axes:
    """Draw a labelled DAG: labelled edges in ``labelled_edge_color`` with their contexts as text.

    Parameters
    ----------
    model : LabeledBayesianNetwork or fitted LDAGSearch
        The labelled DAG, or an estimator whose ``model_`` is one.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made when omitted.
    pos : dict, optional
        ``{node: (x, y)}``; overrides ``layout``.
    layout : {"circular", "spring", "kamada_kawai", "shell"} or callable, default="circular"
        As in :func:`~pgmpy_sgm.plotting.graph_layout`.
    seed : int, default=0
        Seed of the spring layout.
    show_labels : bool, default=True
        Write the contexts on the labelled edges.
    labelled_edge_color, edge_color : color
        Colours of labelled and unlabelled edges.
    font_size : float, default=10.0
        Size of node names; label texts are one point smaller.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        Artists carry the ``gid`` ``"ldag-edge"``, ``"ldag-labelled"``, ``"ldag-labels"`` or ``"ldag-node"``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pgmpy_sgm.models import LabeledBayesianNetwork
    >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
    >>> m.set_classes("y", ("a", "b"), [0, 1, 0, 2])
    >>> ax = plot_labeled_dag(m)
    >>> [t.get_text() for t in ax.get_children() if t.get_gid() == "ldag-labels"]
    ['b=0']
    """
    model = _the_network(model)
    pos = _positions(model, pos, layout, seed)
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 5))
    labels = model.labels()
    colors = (labelled_edge_color, edge_color)
    for u, v in model.edges():
        _draw_arrow(ax, pos, (u, v), labels.get((u, v)), colors, show_labels, font_size)
    for v in model.nodes():
        ax.text(
            *pos[v],
            str(v),
            fontsize=font_size,
            ha="center",
            va="center",
            gid="ldag-node",
            bbox={"boxstyle": "round,pad=0.3", "fc": "#e8eef7", "ec": "#4a6fa5"},
        )
    _fit_view(ax, pos, title)
    return ax


def _the_network(model):
    """``model`` itself, or the ``model_`` of a fitted learner; refused unless a labelled DAG."""
    from pgmpy_sgm.models import LabeledBayesianNetwork

    if not isinstance(model, LabeledBayesianNetwork):
        inner = getattr(model, "model_", None)
        if not isinstance(inner, LabeledBayesianNetwork):
            raise TypeError(f"Expected a LabeledBayesianNetwork (or a fitted LDAGSearch). Got: {type(model).__name__}")
        model = inner
    return model


def _positions(model, pos: Mapping | None, layout: str | Callable, seed: int) -> dict:
    """The given positions, checked, or those of ``layout``."""
    if pos is not None:
        return check_positions(model, pos)
    skeleton = nx.Graph()  # plain copy: pgmpy's edge attributes (weight=None) upset spring layouts
    skeleton.add_nodes_from(model.nodes())
    skeleton.add_edges_from(model.edges())
    return graph_layout(skeleton, layout, seed)


def _draw_arrow(ax: Axes, pos: dict, edge: tuple, contexts: list | None, colors: tuple, show_labels: bool,
                font_size: float) -> None:
    """One edge as an arrow; a labelled one (``contexts`` not None) in the first of ``colors``, with its text."""
    u, v = edge
    labelled = contexts is not None
    labelled_edge_color, edge_color = colors
    arrow = FancyArrowPatch(
        pos[u],
        pos[v],
        arrowstyle="-|>",
        mutation_scale=15,
        shrinkA=18,
        shrinkB=18,
        color=labelled_edge_color if labelled else edge_color,
        linewidth=2.5 if labelled else 1.3,
        gid="ldag-labelled" if labelled else "ldag-edge",
        label=f"_{u} -> {v}",
    )
    ax.add_patch(arrow)
    if labelled and show_labels:
        mid = (pos[u] + pos[v]) / 2
        ax.text(
            *mid,
            label_text(contexts),
            fontsize=font_size - 1,
            color=labelled_edge_color,
            ha="center",
            va="center",
            gid="ldag-labels",
            bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.8},
        )


def _fit_view(ax: Axes, pos: dict, title: str | None) -> None:
    """Limits around the nodes, equal aspect, no axes, and the title."""
    xy = np.array(list(pos.values())) if pos else np.zeros((1, 2))
    pad = 0.35
    ax.set_xlim(xy[:, 0].min() - pad, xy[:, 0].max() + pad)
    ax.set_ylim(xy[:, 1].min() - pad, xy[:, 1].max() + pad)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title)
