"""Edge contexts of a contextual Markov network as merges of each node's blanket configurations.

Internal layout: ``contexts`` is ``{frozenset({u, v}): set of contexts}``, a context being a
``frozenset`` of ``(common neighbour, state index)`` pairs, one per common neighbour of ``u``
and ``v`` (the layout of :mod:`pgmpy_sgm.models`' contextual Markov networks).

In a positive distribution Markov to a graph, ``X_u ⟂ X_v`` given the rest in context ``x`` of
the common neighbours ``L_uv`` means that the conditional distribution of ``X_u`` given its
Markov blanket does not depend on ``X_v`` at any blanket configuration agreeing with ``x`` on
``L_uv``: every *line* in direction ``v`` (configurations differing only in ``X_v``) through such
a configuration lies in one class. The classes of a node are the connected components of these
merges. A line in direction ``v`` lying inside one class states the independence at its
configuration, hence in the context it gives ``L_uv``: :func:`close_contexts` adds those implied
contexts until nothing changes (a *maximal* set).
"""

from __future__ import annotations

import math
from functools import lru_cache

import networkx as nx
import numpy as np

from pgmpy_sgm.structure_score._mpl_group_kernels import merged_classes, uniform_line_states

__all__ = ["blanket_groups", "close_contexts", "common_neighbours"]


def common_neighbours(graph: nx.Graph, u, v, order: dict) -> tuple:
    """Nodes adjacent to both ``u`` and ``v``, sorted by ``order`` (``{node: position}``).

    Examples
    --------
    >>> g = nx.Graph([("a", "b"), ("a", "c"), ("b", "c")])
    >>> common_neighbours(g, "a", "b", {"a": 0, "b": 1, "c": 2})
    ('c',)
    """
    shared = set(graph.adj[u]) & set(graph.adj[v])
    return tuple(sorted(shared, key=order.__getitem__))


def blanket_groups(node, blanket: tuple, cards: dict, contexts: dict) -> np.ndarray:
    """Class of every configuration of ``node``'s blanket (C order over ``blanket``) under the contexts.

    Parameters
    ----------
    node : hashable
    blanket : tuple
        The node's neighbours, in the order that numbers the configurations.
    cards : dict
        ``{variable: number of states}``.
    contexts : dict
        ``{frozenset({u, v}): set of frozensets of (variable, state index)}``.

    Returns
    -------
    numpy.ndarray of int64
        Canonical class ids (first appearance order).

    Examples
    --------
    Node ``c`` with blanket ``(a, b)``; the edge ``{c, b}`` has the context ``a = 1``: the
    configurations ``(1, 0)`` and ``(1, 1)`` merge.

    >>> ctx = {frozenset(("c", "b")): {frozenset({("a", 1)})}}
    >>> blanket_groups("c", ("a", "b"), {"a": 2, "b": 2, "c": 2}, ctx).tolist()
    [0, 1, 2, 2]
    """
    shape = tuple(int(cards[w]) for w in blanket)
    stated = tuple((axis, frozenset(contexts[frozenset((node, other))])) for axis, other in enumerate(blanket)
                   if contexts.get(frozenset((node, other))))  # fmt: skip
    if not stated:
        return np.arange(math.prod(shape), dtype=np.int64)
    if math.prod(shape) > _CACHED_CONFIGURATIONS:
        return _groups(blanket, shape, stated)
    return _cached_groups(blanket, shape, stated)


#: Blankets with at most this many configurations have their classes cached (the context search asks for the
#: same node under the same contexts once to close a proposal and once to score it).
_CACHED_CONFIGURATIONS = 4096


def _groups(blanket: tuple, shape: tuple, stated: tuple) -> np.ndarray:
    """Classes of the configurations under ``stated`` (``(axis, contexts of the edge to blanket[axis])``).

    Each context merges the lines along its edge's axis through the configurations agreeing
    with it (:func:`~pgmpy_sgm.structure_score._mpl_group_kernels.merged_classes`).

    Examples
    --------
    >>> _groups(("a", "b"), (2, 2), ((1, frozenset({frozenset({("a", 1)})})),)).tolist()
    [0, 1, 2, 2]
    """
    position = {w: i for i, w in enumerate(blanket)}
    rules, axes = [], []
    for axis, found in stated:
        for context in found:
            rule = [-1] * len(shape)
            for w, s in context:
                rule[position[w]] = s
            rules.append(rule)
            axes.append(axis)
    if not rules:
        return np.arange(math.prod(shape), dtype=np.int64)
    return merged_classes(np.array(shape, dtype=np.int64), np.array(rules, dtype=np.int64),
                          np.array(axes, dtype=np.int64))  # fmt: skip


@lru_cache(maxsize=256)
def _cached_groups(blanket: tuple, shape: tuple, stated: tuple) -> np.ndarray:
    out = _groups(blanket, shape, stated)
    out.setflags(write=False)
    return out


def _implied(node, blanket: tuple, cards: dict, groups: np.ndarray, graph: nx.Graph, order: dict) -> list:
    """``(edge, context)`` pairs stated by lines of ``node``'s blanket lying inside one class.

    Examples
    --------
    Node ``c`` with blanket ``(a, b)``, both adjacent; the configurations with ``a = 1`` form one
    class, so the line along ``b`` at ``a = 1`` states the context ``a = 1`` on the edge ``{c, b}``:

    >>> g = nx.complete_graph("abc")
    >>> found = _implied("c", ("a", "b"), dict.fromkeys("abc", 2), np.array([0, 1, 2, 2]), g, {"a": 0, "b": 1, "c": 2})
    >>> [(sorted(edge), sorted(context)) for edge, context in found]
    [(['b', 'c'], [('a', 1)])]
    """
    shape = np.array([int(cards[w]) for w in blanket], dtype=np.int64)
    groups = np.ascontiguousarray(groups, dtype=np.int64).reshape(-1)
    position = {w: i for i, w in enumerate(blanket)}
    found = []
    for axis, other in enumerate(blanket):
        shared = common_neighbours(graph, node, other, order)
        if not shared:
            continue
        kept = np.array([position[w] for w in shared], dtype=np.int64)
        edge = frozenset((node, other))
        for row in uniform_line_states(groups, shape, axis, kept).tolist():
            found.append((edge, frozenset(zip(shared, row, strict=True))))
    return found


def close_contexts(graph: nx.Graph, cards: dict, contexts: dict, order: dict, memo: dict | None = None) -> dict:
    """Add every context the given ones imply (see the module), until nothing changes.

    ``memo``, a dict kept between calls on the same ``graph``, ``cards`` and ``order``, holds the
    contexts each node's classes imply, per node and contexts of its edges (a search closing many
    proposals that differ at a few edges computes each once).

    Examples
    --------
    On the complete graph of four binary variables, the contexts ``1=0, 4=0`` on ``{2, 3}`` and
    ``1=0, 2=0`` and ``1=0, 2=1`` on ``{3, 4}`` put node 3's blanket configurations with
    ``X_1 = 0`` into one class, which states ``X_2 ⟂ X_3`` in context ``1=0, 4=1`` too:

    >>> g = nx.complete_graph([1, 2, 3, 4])
    >>> ctx = {frozenset((2, 3)): {frozenset({(1, 0), (4, 0)})},
    ...        frozenset((3, 4)): {frozenset({(1, 0), (2, 0)}), frozenset({(1, 0), (2, 1)})}}
    >>> closed = close_contexts(g, dict.fromkeys(g, 2), ctx, {1: 0, 2: 1, 3: 2, 4: 3})
    >>> sorted(sorted(c) for c in closed[frozenset((2, 3))])
    [[(1, 0), (4, 0)], [(1, 0), (4, 1)]]
    """
    closed = {edge: set(found) for edge, found in contexts.items() if found}
    changed = True
    while changed:
        changed = False
        touched = {w for edge in closed for w in edge}
        for node in sorted(touched, key=order.__getitem__):
            blanket = tuple(sorted(graph.adj[node], key=order.__getitem__))
            key = None if memo is None else (node, tuple(frozenset(closed.get(frozenset((node, w)), ()))
                                                         for w in blanket))  # fmt: skip
            implied = None if key is None else memo.get(key)
            if implied is None:
                implied = _implied(node, blanket, cards, blanket_groups(node, blanket, cards, closed), graph, order)
                if key is not None:
                    memo[key] = implied
            for edge, context in implied:
                found = closed.setdefault(edge, set())
                if context not in found:
                    found.add(context)
                    changed = True
    return closed
