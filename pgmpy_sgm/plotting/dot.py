"""Graphviz DOT source for a stratified graph.

Labelled edges get ``color=red``, ``penwidth=2`` and their stratum as ``label`` (in the forms
of :func:`pgmpy_sgm.plotting._format.stratum_text`). Node names are always double-quoted, with
backslashes, double quotes and newlines escaped, so any hashable node survives. Render with
``dot -Tpng`` or ``circo -Tpng`` (circular, like the paper's figures).
"""

from __future__ import annotations

from collections.abc import Mapping

from pgmpy_sgm.plotting._format import as_stratified_graph, check_style, display_names, stratum_text

__all__ = ["to_dot", "dot_quote"]


def dot_quote(value) -> str:
    """``str(value)`` as a double-quoted DOT string.

    Examples
    --------
    >>> print(dot_quote('blood "pressure"'))
    "blood \\"pressure\\""
    """
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\r\n", "\n").replace("\n", "\\n")
    return f'"{text}"'


def to_dot(sg, name: str = "SG", label_style: str = "full", node_labels: Mapping | None = None) -> str:
    """Graphviz DOT source of a stratified graph (an undirected ``graph``).

    Parameters
    ----------
    sg : StratifiedGraph or fitted estimator
        The graph, or an estimator whose ``model_`` is one.
    name : str, default="SG"
        Name of the DOT graph.
    label_style : {"full", "compact"}, default="full"
        Form of the edge labels. In compact form the order of the variables is written in front
        of the tuples: ``(X2, X4): (1, 0), (1, 1)``.
    node_labels : dict, optional
        ``{node: shown name}``; node identifiers stay ``str(node)``.

    Returns
    -------
    str
        The DOT source, one statement per line, nodes in node order, edges in edge order.

    Examples
    --------
    >>> from pgmpy_sgm import StratifiedGraph
    >>> sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 0}]})
    >>> print(to_dot(sg), end="")
    graph "SG" {
      node [shape=ellipse];
      "a";
      "b";
      "c";
      "a" -- "b";
      "a" -- "c";
      "b" -- "c" [color=red, penwidth=2, fontcolor=red, label="a=0"];
    }
    """
    sg = as_stratified_graph(sg)
    check_style(label_style)
    names = display_names(sg, node_labels)
    strata = sg.strata
    lines = [f"graph {dot_quote(name)} {{", "  node [shape=ellipse];"]
    for v in sg.nodes():
        attrs = f" [label={dot_quote(names[v])}]" if names[v] != str(v) else ""
        lines.append(f"  {dot_quote(v)}{attrs};")
    for u, v in sg.edges():
        key = (u, v) if (u, v) in strata else (v, u) if (v, u) in strata else None
        if key is None:
            lines.append(f"  {dot_quote(u)} -- {dot_quote(v)};")
            continue
        text, order = stratum_text(sg, *key, label_style=label_style, names=names)
        if order is not None:
            text = f"({', '.join(order)}): {text}"
        lines.append(
            f"  {dot_quote(u)} -- {dot_quote(v)} [color=red, penwidth=2, fontcolor=red, label={dot_quote(text)}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"
