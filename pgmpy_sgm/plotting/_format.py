"""Text of the strata drawn on labelled edges, shared by the matplotlib and DOT writers.

============ ====================================================================
form         text of the stratum of an edge ``{u, v}``
============ ====================================================================
full         every context spelled out, ``w=state`` joined by ``", "`` within a
             context and contexts joined by ``"; "``: ``X2=1, X4=0; X2=1, X4=1``
compact      used when the edge has two or more common neighbours and every
             context gives a state to each of them: the states only, one tuple
             per context, in the node order of the common neighbours
             (``sg.common_neighbours(u, v)``): ``(1, 0), (1, 1)``. The order of
             the variables, ``(X2, X4)``, is stated once in a caption. An edge
             with a single common neighbour is always written in full form
             (``smoking=0``), which is as short and needs no caption.
============ ====================================================================
"""

from __future__ import annotations

from collections.abc import Mapping

import networkx as nx

__all__ = ["LABEL_STYLES", "as_stratified_graph", "check_style", "display_names", "stratum_text"]

LABEL_STYLES = ("compact", "full")


def display_names(sg, node_labels: Mapping | None = None) -> dict:
    """Map every node to the name shown for it (``str(node)`` unless ``node_labels`` renames it).

    Examples
    --------
    >>> from pgmpy_sgm import StratifiedGraph
    >>> display_names(StratifiedGraph([(1, 2)]), {1: "X1"})
    {1: 'X1', 2: '2'}
    """
    if node_labels is not None and not isinstance(node_labels, Mapping):
        raise TypeError(f"node_labels must be a dict {{node: name}}. Got: {type(node_labels).__name__}")
    node_labels = node_labels or {}
    unknown = [n for n in node_labels if n not in sg]
    if unknown:
        raise ValueError(f"node_labels names nodes that are not in the graph: {unknown!r}")
    return {n: str(node_labels.get(n, n)) for n in sg.nodes()}


def check_style(label_style: str) -> None:
    """A ValueError naming ``label_style`` unless it is one of :data:`LABEL_STYLES`.

    Examples
    --------
    >>> check_style("compact")
    >>> check_style("short")
    Traceback (most recent call last):
        ...
    ValueError: label_style must be one of: compact, full. Got: 'short'
    """
    if label_style not in LABEL_STYLES:
        raise ValueError(f"label_style must be one of: {', '.join(LABEL_STYLES)}. Got: {label_style!r}")


def stratum_text(sg, u, v, label_style: str = "compact", names: Mapping | None = None, per_line: int | None = None):
    """The text of the stratum of edge ``{u, v}`` and, in compact form, the order of its variables.

    Parameters
    ----------
    sg : StratifiedGraph
        The graph.
    u, v : hashable
        A labelled edge, in either orientation.
    label_style : {"compact", "full"}, default="compact"
        See the module docstring for the rule that decides when the compact form is used.
    names : dict, optional
        ``{node: shown name}`` (see :func:`display_names`).
    per_line : int, optional
        Break the text into lines of at most this many contexts (default: no breaks).

    Returns
    -------
    text : str
        The stratum as text.
    order : tuple of str or None
        The shown names of the common neighbours in the order used by the compact tuples,
        or None when the full form was used.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import paper_synthetic_graph
    >>> sg = paper_synthetic_graph()
    >>> stratum_text(sg, "X1", "X3")
    ('(1, 0), (1, 1)', ('X2', 'X4'))
    >>> stratum_text(sg, "X1", "X3", label_style="full")
    ('X2=1, X4=0; X2=1, X4=1', None)
    >>> stratum_text(sg, "X4", "X5")
    ('X3=0', None)
    """
    check_style(label_style)
    names = names if names is not None else display_names(sg)
    strata = sg.strata
    contexts = strata.get((u, v), strata.get((v, u)))
    if not contexts:
        raise ValueError(f"Edge ({u!r}, {v!r}) carries no stratum.")
    common = sg.common_neighbours(u, v)
    compact = label_style == "compact" and len(common) >= 2 and all(list(context) == common for context in contexts)
    if compact:
        pieces = ["(" + ", ".join(str(context[w]) for w in common) + ")" for context in contexts]
        sep, order = ", ", tuple(names[w] for w in common)
    else:
        pieces = [", ".join(f"{names.get(w, str(w))}={s}" for w, s in context.items()) for context in contexts]
        sep, order = "; ", None
    if per_line is None or per_line < 1:
        return sep.join(pieces), order
    lines = [sep.join(pieces[i : i + per_line]) for i in range(0, len(pieces), per_line)]
    return (sep.rstrip() + "\n").join(lines), order


def as_stratified_graph(sg):
    """The stratified graph to draw: ``sg`` itself, a plain undirected graph as one, or a fitted estimator's ``model_``.

    Examples
    --------
    >>> import networkx as nx
    >>> type(as_stratified_graph(nx.Graph([("a", "b")]))).__name__
    'StratifiedGraph'
    >>> as_stratified_graph(nx.DiGraph())
    Traceback (most recent call last):
        ...
    TypeError: Expected a StratifiedGraph (or a fitted estimator). Got: DiGraph
    """
    if isinstance(sg, nx.Graph) and not sg.is_directed():
        if hasattr(sg, "strata"):
            return sg
        from pgmpy_sgm.models import StratifiedGraph

        return StratifiedGraph(sg)
    model = getattr(sg, "model_", None)
    if model is not None and hasattr(model, "strata"):
        return model
    if hasattr(sg, "fit"):
        raise ValueError(f"{type(sg).__name__} is not fitted (no model_). Call fit first.")
    raise TypeError(f"Expected a StratifiedGraph (or a fitted estimator). Got: {type(sg).__name__}")
