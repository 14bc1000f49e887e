"""Column-order invariance: fit in a canonical variable order, report in the data's column order.

A search draws pairs of variables by their index, so the same data with permuted columns
would follow another path for the same seed. Estimators therefore fit on the columns
sorted by :func:`canonical_order` and then present their results (graphs, posterior
tables, edge probabilities) in the data's column order with :func:`in_column_order`.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from pgmpy_sgm.models import StratifiedGraph

__all__ = ["canonical_order", "in_column_order", "reorder_edges", "reorder_posterior", "reorder_strata"]


def canonical_order(columns: Iterable) -> list:
    """The columns sorted by ``str`` of the name, then the name's type (mixed types allowed).

    Examples
    --------
    >>> canonical_order(["b", "a", 10, 2])
    [10, 2, 'a', 'b']
    """
    return sorted(columns, key=lambda c: (str(c), type(c).__name__))


def reorder_edges(edges, position: dict, oriented: dict | None = None) -> tuple:
    """Edges ``(u, v)`` with ``u`` before ``v`` in ``position``, sorted as pair indices are.

    ``oriented`` (a dict kept by the caller) makes each oriented edge one tuple shared by every
    call: a posterior table holds a row per visited graph, and a new tuple per edge and row
    costs hundreds of megabytes at 200 variables.

    Examples
    --------
    >>> reorder_edges([("a", "c"), ("c", "b")], {"c": 0, "b": 1, "a": 2})
    (('c', 'b'), ('c', 'a'))
    """
    if oriented is None:
        oriented = {}
    shared = []
    for edge in edges:
        found = oriented.get(edge)
        if found is None:
            u, v = edge
            found = oriented[edge] = (u, v) if position[u] < position[v] else (v, u)
        shared.append(found)
    return tuple(sorted(shared, key=lambda e: (position[e[0]], position[e[1]])))


def reorder_strata(strata: dict, position: dict, state_names: dict) -> dict:
    """Strata in the orientation and context order of :attr:`StratifiedGraph.strata` for ``position``.

    Examples
    --------
    >>> reorder_strata({("a", "b"): [{"c": 1}, {"c": 0}]}, {"b": 0, "a": 1, "c": 2}, {"c": (0, 1)})
    {('b', 'a'): [{'c': 0}, {'c': 1}]}
    """
    out = {}
    for (u, v), contexts in strata.items():
        edge = (u, v) if position[u] < position[v] else (v, u)
        ordered = [dict(sorted(c.items(), key=lambda item: position[item[0]])) for c in contexts]
        ordered.sort(key=lambda c: [list(state_names[w]).index(s) for w, s in c.items()])
        out[edge] = ordered
    return dict(sorted(out.items(), key=lambda item: (position[item[0][0]], position[item[0][1]])))


def reorder_posterior(frame: pd.DataFrame, order: list, state_names: dict) -> pd.DataFrame:
    """A posterior table (``edges`` and ``strata`` columns) with edges and strata oriented by ``order``.

    Examples
    --------
    >>> frame = pd.DataFrame({"edges": [(("a", "b"),)], "strata": [None]})
    >>> reorder_posterior(frame, ["b", "a"], {}).loc[0, "edges"]
    (('b', 'a'),)
    """
    position = {v: i for i, v in enumerate(order)}
    out = frame.copy()
    oriented: dict = {}  # each edge oriented once, its tuple shared by every row
    edges = [reorder_edges(e, position, oriented) for e in frame["edges"]]
    strata = [None if s is None else reorder_strata(s, position, state_names) for s in frame["strata"]]
    out["edges"] = pd.Series(edges, index=frame.index, dtype=object)
    out["strata"] = pd.Series(strata, index=frame.index, dtype=object)
    return out


def in_column_order(est, columns: Iterable) -> None:
    """Show a fitted estimator's model, posterior, edge probabilities and variables in ``columns`` order.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from pgmpy_sgm.models import StratifiedGraph
    >>> est = SimpleNamespace(model_=StratifiedGraph([("a", "b")], nodes=["a", "b"]), variables_=["a", "b"])
    >>> in_column_order(est, ["b", "a"])
    >>> list(est.model_.nodes()), list(est.model_.edges()), est.variables_
    (['b', 'a'], [('b', 'a')], ['b', 'a'])
    """

    order = [c for c in columns if c in set(est.variables_)]
    position = {v: i for i, v in enumerate(order)}
    model = est.model_
    names = model.state_names
    est.model_ = StratifiedGraph(
        reorder_edges(model.edges(), position),
        strata=model.strata,
        nodes=order,
        state_names={v: list(s) for v, s in names.items()},
    )
    posterior = getattr(est, "posterior_", None)
    if isinstance(posterior, pd.DataFrame):
        est.posterior_ = reorder_posterior(posterior, order, names)
    probabilities = getattr(est, "edge_probabilities_", None)
    if isinstance(probabilities, pd.DataFrame):
        est.edge_probabilities_ = probabilities.loc[order, order]
    est.variables_ = order
