"""Checks of the arguments users pass: nodes, edges, lists of states, dicts and seeds, each refused by name."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Set
from numbers import Integral, Real

import networkx as nx
import numpy as np

from pgmpy_sgm.core.data import python_scalar

__all__ = ["check_node", "check_nodes", "edge_pairs", "state_list", "check_mapping", "check_number", "random_generator"]


def check_node(node, where: str = "node"):
    """Return ``node`` if it can be a variable: hashable and not None.

    Examples
    --------
    >>> check_node("a")
    'a'
    >>> check_node(["a"], "edge ('x', ['a'])")
    Traceback (most recent call last):
        ...
    TypeError: A node must be hashable (e.g. a str or an int); edge ('x', ['a']) has ['a']
    """
    if node is None:
        raise ValueError(f"None cannot be a node; {where} has None")
    if not isinstance(node, Hashable):
        raise TypeError(f"A node must be hashable (e.g. a str or an int); {where} has {node!r}")
    try:
        hash(node)
    except TypeError:  # a tuple holding a list
        raise TypeError(f"A node must be hashable (e.g. a str or an int); {where} has {node!r}") from None
    return node


def check_nodes(nodes, name: str = "nodes") -> list:
    """A list of nodes, refusing a string (which would be split into characters) and non-iterables.

    Examples
    --------
    >>> check_nodes(["a", "b"])
    ['a', 'b']
    >>> check_nodes("ab")
    Traceback (most recent call last):
        ...
    TypeError: Nodes must be a list of nodes, not the string 'ab' (which would be split into characters)
    """
    label = name[:1].upper() + name[1:]
    if isinstance(nodes, str | bytes):
        raise TypeError(f"{label} must be a list of nodes, not the string {nodes!r} (which would be split into "
                        "characters)")
    if (isinstance(nodes, Mapping) and not isinstance(nodes, nx.classes.reportviews.NodeView)) or not isinstance(
            nodes, Iterable):  # graph.nodes() is a Mapping of nodes
        raise TypeError(f"{label} must be a list of nodes. Got: {nodes!r}")
    return [check_node(v, f"{name}") for v in nodes]


def edge_pairs(edges, name: str = "edges") -> list[tuple]:
    """The ``(u, v)`` pairs of an iterable of edges (a third item, a dict of attributes, is dropped).

    Examples
    --------
    >>> edge_pairs([("a", "b"), ["b", "c", {"w": 1}]])
    [('a', 'b'), ('b', 'c')]
    >>> edge_pairs(nx.DiGraph([("a", "b")]).edges())
    [('a', 'b')]
    >>> edge_pairs(5)
    Traceback (most recent call last):
        ...
    TypeError: edges must be a list of (u, v) pairs. Got: 5
    """
    is_edge_view = isinstance(edges, nx.classes.reportviews.OutEdgeView)  # graph.edges(): a Mapping of edges
    if isinstance(edges, str | bytes) or (isinstance(edges, Mapping) and not is_edge_view) or not isinstance(
            edges, Iterable):
        raise TypeError(f"{name} must be a list of (u, v) pairs. Got: {edges!r}")
    out = []
    for edge in edges:
        if not isinstance(edge, tuple | list) or len(edge) not in (2, 3) or (
                len(edge) == 3 and not isinstance(edge[2], Mapping)):
            raise ValueError(f"Each edge must be a pair (u, v). Got: {edge!r}")
        u, v = edge[0], edge[1]
        where = f"edge {tuple(edge[:2])!r}"
        out.append((check_node(u, where), check_node(v, where)))
    return out


def state_list(states, variable) -> list:
    """The states of ``variable`` as a list: an ordered sequence of distinct hashable states.

    A string is refused (it would be split into characters), and so is a set (its order,
    which numbers the states, is arbitrary).

    Examples
    --------
    >>> import pandas as pd
    >>> state_list(("lo", "hi"), "a"), state_list(pd.Index([0, 1]), "b")
    (['lo', 'hi'], [0, 1])
    >>> state_list("01", "a")
    Traceback (most recent call last):
        ...
    TypeError: The states of 'a' must be a list such as ['0', '1'], not the string '01'
    """
    if isinstance(states, str | bytes):
        raise TypeError(f"The states of {variable!r} must be a list such as {list(states)!r}, not the string "
                        f"{states!r}")
    if isinstance(states, Set | Mapping) or not isinstance(states, Iterable):  # ordered iterables (Index, ...)
        raise TypeError(f"The states of {variable!r} must be a list (ordered). Got: {states!r}")
    states = [python_scalar(x) for x in states]
    for state in states:
        if not isinstance(state, Hashable):
            raise TypeError(f"The states of {variable!r} must be hashable (str, int, ...); got {state!r}")
    if not states or len(set(states)) != len(states) or len(set(map(repr, states))) != len(states):
        raise ValueError(f"The states of {variable!r} must be distinct and at least one. Got: {states}")
    return states


def check_mapping(value, name: str, what: str):
    """Return ``value`` if it is a dict (``what`` describes its entries in the message).

    Examples
    --------
    >>> check_mapping(5, "strata", "{(u, v): [context, ...]}")
    Traceback (most recent call last):
        ...
    TypeError: strata must be a dict {(u, v): [context, ...]}. Got: 5
    """
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a dict {what}. Got: {value!r}")
    return value


def check_number(value, name: str, low: float, integer: bool = False, strict: bool = False):
    """Return ``value`` if it is a finite number (an integer with ``integer``) ``>= low`` (``> low`` with ``strict``).

    Examples
    --------
    >>> check_number(2.5, "ess", 0.0)
    2.5
    >>> check_number(-1, "ess", 0.0)
    Traceback (most recent call last):
        ...
    ValueError: ess must be a finite number >= 0. Got: -1
    >>> check_number(True, "max_iter", 1, integer=True)
    Traceback (most recent call last):
        ...
    ValueError: max_iter must be an integer >= 1. Got: True
    """
    kind = Integral if integer else Real
    if isinstance(value, bool) or not isinstance(value, kind) or not math.isfinite(value) or (
            value <= low if strict else value < low):  # fmt: skip
        bound = f"{'>' if strict else '>='} {low:g}"
        raise ValueError(f"{name} must be a{'n integer' if integer else ' finite number'} {bound}. Got: {value!r}")
    return value


def random_generator(seed, name: str = "seed") -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` for a seed that is None, an integer >= 0 or a Generator.

    Examples
    --------
    >>> int(random_generator(0).integers(10)) == int(np.random.default_rng(0).integers(10))
    True
    >>> random_generator("42")
    Traceback (most recent call last):
        ...
    TypeError: seed must be None, an integer >= 0 or a numpy Generator. Got: '42'
    """
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    if isinstance(seed, bool) or not isinstance(seed, Integral):
        raise TypeError(f"{name} must be None, an integer >= 0 or a numpy Generator. Got: {seed!r}")
    if seed < 0:
        raise ValueError(f"{name} must be an integer >= 0. Got: {seed!r}")
    return np.random.default_rng(int(seed))
