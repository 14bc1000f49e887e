"""Drawing a stratified graph with matplotlib, in the style of Nyman et al.'s figures.

Unlabelled edges are thin black lines; labelled edges are thick red lines carrying their
strata as text (see :mod:`pgmpy_sgm.plotting._format` for the compact and full forms).

Every artist drawn for the graph has a ``gid`` saying what it is, and edges and strata texts
have a matplotlib label ``"_u -- v"`` (the leading underscore keeps them out of legends):

================== ===================================================
gid                artist
================== ===================================================
``sgm-edge``       Line2D of an unlabelled edge
``sgm-labelled``   Line2D of a labelled edge
``sgm-strata``     Text holding the stratum of a labelled edge
``sgm-node``       Text holding a node name (drawn as the node)
``sgm-strata-key`` Text stating the variable order of compact strata
``sgm-legend``     Legend saying what a red edge and its text mean
================== ===================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from pgmpy_sgm.plotting._format import as_stratified_graph, check_style, display_names, stratum_text

__all__ = ["graph_layout", "plot_stratified_graph", "artists_by_gid", "LAYOUTS"]

LAYOUTS = ("circular", "spring", "kamada_kawai", "shell")

GID_EDGE = "sgm-edge"
GID_LABELLED = "sgm-labelled"
GID_STRATA = "sgm-strata"
GID_NODE = "sgm-node"
GID_KEY = "sgm-strata-key"
GID_LEGEND = "sgm-legend"

#: Legend entries of the two kinds of edges.
LEGEND_LABELLED = "labelled edge u–v: u and v are independent given each context written on it"
LEGEND_EDGE = "edge u–v without labels: no independence of u and v is stated"


def graph_layout(sg, layout: str | Callable = "circular", seed: int = 0) -> dict:
    """Deterministic node positions for drawing.

    Parameters
    ----------
    sg : StratifiedGraph
        The graph (any networkx graph works).
    layout : {"circular", "spring", "kamada_kawai", "shell"} or callable, default="circular"
        ``"circular"`` puts the nodes on the unit circle in node order, clockwise from the top,
        as in the paper's figures. ``"spring"`` uses ``networkx.spring_layout`` with ``seed``.
        A callable receives the graph and returns ``{node: (x, y)}``.
    seed : int, default=0
        Seed of the spring layout (the other layouts are not random).

    Returns
    -------
    dict
        ``{node: numpy.ndarray of shape (2,)}``.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import paper_synthetic_graph
    >>> pos = graph_layout(paper_synthetic_graph())
    >>> [round(float(c), 3) for c in pos["X1"]]
    [0.0, 1.0]
    """
    if not isinstance(sg, nx.Graph):
        raise TypeError(f"sg must be a graph (a StratifiedGraph or a networkx graph). Got: {type(sg).__name__}")
    nodes = list(sg.nodes())
    if callable(layout):
        pos = layout(sg)
    elif layout == "circular":
        n = max(len(nodes), 1)
        angles = [math.pi / 2 - 2 * math.pi * i / n for i in range(len(nodes))]
        pos = {v: (math.cos(a), math.sin(a)) for v, a in zip(nodes, angles, strict=True)}
    elif layout == "spring":
        pos = nx.spring_layout(sg, seed=seed)
    elif layout == "kamada_kawai":
        pos = nx.kamada_kawai_layout(sg) if len(nodes) > 1 else {v: (0.0, 0.0) for v in nodes}
    elif layout == "shell":
        pos = nx.shell_layout(sg)
    else:
        raise ValueError(f"layout must be one of: {', '.join(LAYOUTS)}, or a callable. Got: {layout!r}")
    return check_positions(sg, pos)


def check_positions(sg, pos) -> dict:
    """``pos`` as ``{node: array([x, y])}`` for every node of ``sg``, or an error naming the node at fault.

    Examples
    --------
    >>> check_positions(nx.Graph([("a", "b")]), {"a": (0, 0)})
    Traceback (most recent call last):
        ...
    ValueError: pos has no position for nodes: ['b']
    """
    if not isinstance(pos, Mapping):
        raise TypeError(f"pos must be a dict {{node: (x, y)}}. Got: {type(pos).__name__}")
    missing = [v for v in sg.nodes() if v not in pos]
    if missing:
        raise ValueError(f"pos has no position for nodes: {missing!r}")
    out = {}
    for v in sg.nodes():
        xy = np.asarray(pos[v], dtype=float)
        if xy.shape != (2,) or not np.all(np.isfinite(xy)):
            raise ValueError(f"pos[{v!r}] must be a finite (x, y) pair. Got: {pos[v]!r}")
        out[v] = xy
    return out


def artists_by_gid(ax: Axes, gid: str) -> list:
    """The artists of ``ax`` drawn by :func:`plot_stratified_graph` with the given ``gid``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pgmpy_sgm.datasets import paper_synthetic_graph
    >>> ax = plot_stratified_graph(paper_synthetic_graph())
    >>> len(artists_by_gid(ax, "sgm-labelled")), len(artists_by_gid(ax, "sgm-edge"))
    (5, 6)
    """
    return [a for a in ax.get_children() if a.get_gid() == gid]


def _renderer(fig):
    try:
        return fig.canvas.get_renderer()
    except AttributeError:  # backends without a renderer: skip text-aware adjustments
        return None


def _overlap(a, b) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w * h if w > 0 and h > 0 else 0.0


def _segment_hits_box(a, b, box) -> bool:
    """Whether the segment ``a``-``b`` (display coordinates) passes through ``box`` (Liang-Barsky)."""
    lo, hi = 0.0, 1.0
    d = b - a
    for delta, start, low, high in ((d[0], a[0], box.x0, box.x1), (d[1], a[1], box.y0, box.y1)):
        if abs(delta) < 1e-12:
            if start < low or start > high:
                return False
            continue
        t0, t1 = sorted(((low - start) / delta, (high - start) / delta))
        lo, hi = max(lo, t0), min(hi, t1)
        if lo > hi:
            return False
    return True


def _place_strata(ax: Axes, texts: list, own: list, segments: list, node_texts: list, renderer) -> None:
    """Slide each strata text along its edge to where it covers the fewest texts and other edges.

    ``own[i]`` is the edge of ``texts[i]``; ``segments`` lists ``(edge, p, q, is_labelled)`` for
    every edge, in data coordinates. A text must not hide an edge crossing: any other edge
    passing through it (with a margin of a few pixels) costs ten times the text's area, more
    than any overlap with another text (counted with a margin too, a hundred times the overlap
    area). When every position on the edge is crossed, the text moves just beside its edge;
    among equal positions the one nearest the edge's midpoint wins.
    """
    if renderer is None:
        return
    to_display = ax.transData.transform
    to_data = ax.transData.inverted().transform
    lines = [(edge, to_display(p), to_display(q), labelled) for edge, p, q, labelled in segments]
    margin = 6.0
    obstacles = [t.get_window_extent(renderer).padded(margin) for t in node_texts]
    candidates = sorted(np.linspace(0.12, 0.88, 39).tolist(), key=lambda t: abs(t - 0.5))
    for text, edge in zip(texts, own, strict=True):
        p, q = next((to_display(p), to_display(q)) for e, p, q, _ in segments if e == edge)
        size = text.get_window_extent(renderer)
        area = size.width * size.height
        direction = (q - p) / max(float(np.hypot(*(q - p))), 1e-9)
        normal = np.array([-direction[1], direction[0]])
        beside = (size.width * abs(normal[0]) + size.height * abs(normal[1])) / 2 + 2.0
        best, best_cost = (p + q) / 2, math.inf
        for side in (0.0, 1.0, -1.0):  # on the edge, else just beside it
            for t in candidates:
                centre = p + t * (q - p) + side * beside * normal
                text.set_position(tuple(to_data(centre)))
                box = text.get_window_extent(renderer)
                cost = 100.0 * sum(_overlap(box, o) for o in obstacles) + 0.01 * area * abs(t - 0.5)
                cost += 0.3 * area * abs(side)
                padded = box.padded(3.0)
                for other, a, b, labelled in lines:
                    if other != edge and _segment_hits_box(a, b, padded):
                        cost += (12.0 if labelled else 10.0) * area
                if cost < best_cost:
                    best, best_cost = centre, cost
        text.set_position(tuple(to_data(best)))
        obstacles.append(text.get_window_extent(renderer).padded(margin))


def _fit_limits(ax: Axes, pos: dict, texts: list, renderer, pad: float = 0.05) -> None:
    """Set equal-aspect limits that contain every node and text."""
    xy = np.array(list(pos.values())) if pos else np.zeros((1, 2))
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    span = max(float((hi - lo).max()), 1.0)
    lo, hi = lo - pad * span, hi + pad * span
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    if renderer is None:
        return
    for _ in range(3):  # the aspect adjustment changes the transform; converge in a few rounds
        ax.apply_aspect()
        inv = ax.transData.inverted()
        new_lo, new_hi = lo.copy(), hi.copy()
        for t in texts:
            box = inv.transform(t.get_window_extent(renderer).get_points())
            new_lo = np.minimum(new_lo, box.min(axis=0))
            new_hi = np.maximum(new_hi, box.max(axis=0))
        if np.allclose(new_lo, lo) and np.allclose(new_hi, hi):
            break
        margin = 0.02 * span
        lo, hi = new_lo - margin, new_hi + margin
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1], hi[1])


def plot_stratified_graph(
    sg,
    ax: Axes | None = None,
    pos: Mapping | None = None,
    layout: str | Callable = "circular",
    seed: int = 0,
    label_style: str = "compact",
    node_labels: Mapping | None = None,
    show_strata: bool = True,
    labelled_edge_color: str = "red",
    edge_color: str = "black",
    labelled_width: float = 3.0,
    edge_width: float = 1.5,
    font_size: float = 10.0,
    strata_per_line: int | None = None,
    title: str | None = None,
    legend: bool = True,
) -> Axes:
    """Draw a stratified graph: labelled edges in red with their strata as edge text.

    Parameters
    ----------
    sg : StratifiedGraph or fitted estimator
        The graph, or an estimator whose ``model_`` is one.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made when omitted.
    pos : dict, optional
        ``{node: (x, y)}``; overrides ``layout``.
    layout : {"circular", "spring", "kamada_kawai", "shell"} or callable, default="circular"
        See :func:`graph_layout`. The default puts nodes in node order on a circle.
    seed : int, default=0
        Seed of the spring layout; the same input always gives the same drawing.
    label_style : {"compact", "full"}, default="compact"
        ``"full"`` writes every context as ``X2=1, X4=0``. ``"compact"`` writes only states,
        ``(1, 0), (1, 1)``, for edges with two or more common neighbours, and adds one caption
        under the graph stating the order of the variables (e.g. ``X1–X3: (X2, X4)``);
        strata with a single common neighbour stay in full form (``smoking=0``).
    node_labels : dict, optional
        ``{node: shown name}``, e.g. ``{"smoking": "X1"}``; used for nodes and strata alike.
    show_strata : bool, default=True
        Write the strata on the labelled edges (the red colour is drawn regardless).
    labelled_edge_color, edge_color : color, default="red", "black"
        Colours of labelled and unlabelled edges.
    labelled_width, edge_width : float, default=3.0, 1.5
        Line widths of labelled and unlabelled edges.
    font_size : float, default=10.0
        Size of node names; strata texts are one point smaller.
    strata_per_line : int, optional
        Contexts per line of strata text (default: 1 in full form, 4 in compact form).
    title : str, optional
        Axes title.
    legend : bool, default=True
        When some edge is labelled, add a legend under the graph saying what a red edge and
        the text on it mean (gid ``"sgm-legend"``).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on. Artists carry a ``gid`` (``"sgm-edge"``, ``"sgm-labelled"``,
        ``"sgm-strata"``, ``"sgm-node"``, ``"sgm-strata-key"``) and edges and strata texts the
        label ``"_u -- v"``; :func:`artists_by_gid` collects them.

    Raises
    ------
    TypeError
        If ``sg`` is not a stratified graph, or ``pos``/``node_labels`` are not dicts.
    ValueError
        For an unknown ``layout`` or ``label_style``, or positions missing for some nodes.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pgmpy_sgm.datasets import paper_synthetic_graph
    >>> ax = plot_stratified_graph(paper_synthetic_graph())
    >>> sorted(t.get_text() for t in artists_by_gid(ax, "sgm-strata"))
    ['(1, 0)', '(1, 0), (1, 1)', 'X3=0', 'X5=1', 'X6=0']
    >>> artists_by_gid(ax, "sgm-strata-key")[0].get_text()
    'Order of states: X1–X2: (X3, X4); X1–X3: (X2, X4)'
    """
    sg = as_stratified_graph(sg)
    check_style(label_style)
    names = display_names(sg, node_labels)
    pos = check_positions(sg, pos) if pos is not None else graph_layout(sg, layout, seed)
    ax = _axes_for(ax, sg.number_of_nodes())
    fig = ax.figure
    strata = sg.strata
    per_line = _strata_per_line(strata_per_line, label_style)

    style = _EdgeStyle(labelled_edge_color, edge_color, labelled_width, edge_width, font_size)
    strata_texts, strata_edges, segments, orders = _draw_edges(ax, sg, pos, style, show_strata, label_style, names,
                                                               per_line)  # fmt: skip
    node_texts = _draw_nodes(ax, sg, pos, names, font_size)
    renderer = _renderer(fig)
    labelled = bool(strata)
    if legend and labelled:
        _draw_legend(ax, style)
    if title is not None:
        ax.set_title(title)
    ax.set_axis_off()
    _fit_limits(ax, pos, node_texts, renderer)
    _place_strata(ax, strata_texts, strata_edges, segments, node_texts, renderer)
    _fit_limits(ax, pos, node_texts + strata_texts, renderer)
    if orders:
        _draw_state_order_key(ax, orders, legend and labelled, renderer, font_size)
    return ax


def _axes_for(ax, n_nodes: int) -> Axes:
    """``ax``, checked, or the axes of a new figure sized for ``n_nodes``."""
    if ax is None:
        side = min(4.5 + 0.35 * n_nodes, 10.0)
        return plt.subplots(figsize=(side + 1.0, side))[1]
    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes. Got: {type(ax).__name__}")
    return ax


def _strata_per_line(strata_per_line, label_style: str) -> int:
    """Strata per text line: as given, or 4 for compact labels and 1 otherwise."""
    if strata_per_line is not None and (isinstance(strata_per_line, bool) or not isinstance(strata_per_line, int)
                                        or strata_per_line < 1):  # fmt: skip
        raise ValueError(f"strata_per_line must be a positive integer or None. Got: {strata_per_line!r}")
    return strata_per_line if strata_per_line is not None else (4 if label_style == "compact" else 1)


@dataclass(frozen=True)
class _EdgeStyle:
    labelled_color: str
    color: str
    labelled_width: float
    width: float
    font_size: float


def _draw_edges(ax: Axes, sg, pos: dict, style: _EdgeStyle, show_strata: bool, label_style: str, names: dict,
                per_line: int) -> tuple[list, list, list, dict]:  # fmt: skip
    """Draw the edges, unlabelled first so that red lines lie on top where they cross, and the strata texts.

    Returns the strata texts, their edges, every edge's segment and the state orders of the key.
    """
    strata = sg.strata
    ordered = sorted(sg.edges(), key=lambda e: e in strata or (e[1], e[0]) in strata)
    strata_texts, strata_edges, segments, orders = [], [], [], {}
    for u, v in ordered:
        key = (u, v) if (u, v) in strata else (v, u) if (v, u) in strata else None
        p, q = pos[u], pos[v]
        is_labelled = key is not None
        (line,) = ax.plot(
            [p[0], q[0]],
            [p[1], q[1]],
            color=style.labelled_color if is_labelled else style.color,
            linewidth=style.labelled_width if is_labelled else style.width,
            solid_capstyle="round",
            zorder=2 if is_labelled else 1,
            label=f"_{u} -- {v}",
        )
        line.set_gid(GID_LABELLED if is_labelled else GID_EDGE)
        segments.append(((u, v), p, q, is_labelled))
        if is_labelled and show_strata:
            text, order = stratum_text(sg, *key, label_style=label_style, names=names, per_line=per_line)
            if order is not None:
                orders[f"{names[key[0]]}–{names[key[1]]}"] = order
            strata_texts.append(_strata_text(ax, (p + q) / 2, text, style, f"_{u} -- {v}"))
            strata_edges.append((u, v))
    return strata_texts, strata_edges, segments, orders


def _strata_text(ax: Axes, where, text: str, style: _EdgeStyle, label: str):
    box = {"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.9}
    return ax.text(where[0], where[1], text, ha="center", va="center", fontsize=style.font_size - 1,
                   color=style.labelled_color, zorder=4, bbox=box, label=label, gid=GID_STRATA)  # fmt: skip


def _draw_nodes(ax: Axes, sg, pos: dict, names: dict, font_size: float) -> list:
    box = {"boxstyle": "round,pad=0.4", "facecolor": "#f2f2f2", "edgecolor": "black", "linewidth": 1.2}
    return [ax.text(pos[v][0], pos[v][1], names[v], ha="center", va="center", fontsize=font_size, zorder=5, bbox=box,
                    gid=GID_NODE) for v in sg.nodes()]  # fmt: skip


def _draw_legend(ax: Axes, style: _EdgeStyle) -> None:
    handles = [
        Line2D([], [], color=style.labelled_color, linewidth=style.labelled_width, label=LEGEND_LABELLED),
        Line2D([], [], color=style.color, linewidth=style.width, label=LEGEND_EDGE),
    ]
    box = ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), fontsize=style.font_size - 1,
                    frameon=False, borderaxespad=0.2)  # fmt: skip
    box.set_gid(GID_LEGEND)


def _draw_state_order_key(ax: Axes, orders: dict, under_legend: bool, renderer, font_size: float) -> None:
    """The order of the states in the compact strata texts, under the legend when there is one."""
    key_y = 0.0
    if under_legend:
        ax.apply_aspect()
        legend_box = ax.get_legend().get_window_extent(renderer) if renderer is not None else None
        key_y = ax.transAxes.inverted().transform(legend_box.p0)[1] if legend_box is not None else -0.12
    key_text = "Order of states: " + "; ".join(f"{edge}: ({', '.join(o)})" for edge, o in orders.items())
    ax.text(0.5, key_y, key_text, transform=ax.transAxes, ha="center", va="top", fontsize=font_size - 1,
            color="dimgray", wrap=True, gid=GID_KEY)  # fmt: skip
