"""Drawing a contextual Markov network: edges with contexts in red, their contexts written on them.

The drawing is that of :func:`~pgmpy_sgm.plotting.plot_stratified_graph` (same keywords, same
artist ``gid`` values): the contexts of an edge are shown as the strata of a stratified graph.
"""

from __future__ import annotations

from collections.abc import Mapping

from matplotlib.axes import Axes

from pgmpy_sgm.plotting.dot import to_dot
from pgmpy_sgm.plotting.stratified_graph import plot_stratified_graph

__all__ = ["plot_contextual_markov_network", "cmn_to_dot"]


def _drawable(cmn):
    """A stratified graph whose strata are the network's contexts (for the shared drawing code)."""
    from pgmpy_sgm.models import ContextualMarkovNetwork, StratifiedGraph

    model = getattr(cmn, "model_", None)
    if not isinstance(cmn, ContextualMarkovNetwork) and isinstance(model, ContextualMarkovNetwork):
        cmn = model
    if not isinstance(cmn, ContextualMarkovNetwork):
        if hasattr(cmn, "fit") and model is None:
            raise ValueError(f"{type(cmn).__name__} is not fitted (no model_). Call fit first.")
        raise TypeError(f"Expected a ContextualMarkovNetwork (or a fitted estimator). Got: {type(cmn).__name__}")
    return StratifiedGraph(list(cmn.edges()), strata=cmn.contexts, nodes=list(cmn.nodes()),
                           state_names=dict(cmn.graph.get("state_names", {})))


def plot_contextual_markov_network(cmn, ax: Axes | None = None, **kwargs) -> Axes:
    """Draw a contextual Markov network: edges with contexts in red, with their contexts as edge text.

    Parameters
    ----------
    cmn : ContextualMarkovNetwork or fitted estimator
        The network, or an estimator whose ``model_`` is one.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made when omitted.
    **kwargs
        The keywords of :func:`~pgmpy_sgm.plotting.plot_stratified_graph` (``pos``, ``layout``,
        ``label_style``, ``node_labels``, ``title``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        Artists carry the ``gid`` values of :func:`~pgmpy_sgm.plotting.plot_stratified_graph`
        (``"sgm-labelled"`` for an edge with contexts, ``"sgm-strata"`` for their text).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pgmpy_sgm.models import ContextualMarkovNetwork
    >>> from pgmpy_sgm.plotting import artists_by_gid
    >>> cmn = ContextualMarkovNetwork([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")],
    ...                               contexts={("a", "c"): [{"b": 0, "d": 1}]})
    >>> ax = plot_contextual_markov_network(cmn, label_style="full")
    >>> [t.get_text() for t in artists_by_gid(ax, "sgm-strata")]
    ['b=0, d=1']
    """
    return plot_stratified_graph(_drawable(cmn), ax=ax, **kwargs)


def cmn_to_dot(cmn, name: str = "CMN", label_style: str = "full", node_labels: Mapping | None = None) -> str:
    """Graphviz DOT source of a contextual Markov network (edges with contexts red and labelled).

    Examples
    --------
    >>> from pgmpy_sgm.models import ContextualMarkovNetwork
    >>> cmn = ContextualMarkovNetwork([("a", "b"), ("a", "c"), ("b", "c")], contexts={("b", "c"): [{"a": 0}]})
    >>> print(cmn_to_dot(cmn).splitlines()[-2])
      "b" -- "c" [color=red, penwidth=2, fontcolor=red, label="a=0"];
    """
    return to_dot(_drawable(cmn), name=name, label_style=label_style, node_labels=node_labels)
