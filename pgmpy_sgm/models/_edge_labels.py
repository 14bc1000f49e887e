"""Checks shared by the graphs whose edges carry contexts (stratified graphs, contextual Markov networks).

Examples
--------
>>> list(edge_label_items({("a", "b"): [{"c": 1}]}, "strata"))
[('a', 'b', {'c': 1})]
>>> all_contexts(["a"], {"a": ["x", "y"]})
[{'a': 'x'}, {'a': 'y'}]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import product

import numpy as np

from pgmpy_sgm.core.arguments import check_mapping, check_node, state_list

__all__ = ["edge_label_items", "check_edge_ends", "merged_state_names", "all_contexts"]


def edge_label_items(mapping, name: str) -> Iterator[tuple]:
    """``(u, v, context)`` for every context of ``{(u, v): [context, ...]}``, with one-line errors.

    Examples
    --------
    >>> list(edge_label_items({("a", "b"): {"c": 1}}, "contexts"))
    Traceback (most recent call last):
    ...
    TypeError: contexts[('a', 'b')] must be a list of contexts (dicts). Got a single dict.
    """
    for edge, contexts in check_mapping(mapping or {}, name, "{(u, v): [context, ...]}").items():
        if not isinstance(edge, tuple | list | frozenset) or len(edge) != 2:
            raise ValueError(f"{name} keys must be edges (u, v). Got: {edge!r}")
        if isinstance(contexts, Mapping):
            raise TypeError(f"{name}[{tuple(edge)!r}] must be a list of contexts (dicts). Got a single dict.")
        if isinstance(contexts, str | bytes) or not isinstance(contexts, Iterable):
            raise TypeError(f"{name}[{tuple(edge)!r}] must be a list of contexts (dicts). Got: {contexts!r}")
        u, v = tuple(edge)
        for context in contexts:
            yield u, v, context


def check_edge_ends(u, v) -> None:
    """Refuse an edge whose ends are not valid nodes, or a self-loop.

    Examples
    --------
    >>> check_edge_ends("a", "a")
    Traceback (most recent call last):
    ...
    ValueError: Self-loop on 'a': an edge joins two different variables.
    """
    check_node(u, f"edge ({u!r}, {v!r})")
    check_node(v, f"edge ({u!r}, {v!r})")
    if u == v:
        raise ValueError(f"Self-loop on {u!r}: an edge joins two different variables.")


def merged_state_names(current: Mapping, state_names) -> dict:
    """``current`` updated with the checked ``state_names`` (``{variable: tuple of states}``).

    Examples
    --------
    >>> merged_state_names({"a": (0, 1)}, {"b": ["x", "y"]})
    {'a': (0, 1), 'b': ('x', 'y')}
    """
    if not isinstance(state_names, Mapping):
        raise TypeError(f"state_names must be a dict {{variable: [states]}}. Got: {type(state_names).__name__}")
    merged = dict(current)
    for var, states in state_names.items():
        if isinstance(states, Sequence | np.ndarray) and not isinstance(states, str | bytes) and (
                len(states) < 1 or len(set(map(repr, states))) != len(states)):  # fmt: skip
            raise ValueError(f"state_names[{var!r}] must list distinct states. Got: {list(states)}")
        merged[check_node(var, "state_names")] = tuple(state_list(states, var))
    return merged


def all_contexts(variables: Iterable, state_names: Mapping) -> list[dict]:
    """Every context over ``variables``, the last variable fastest."""
    variables = list(variables)
    return [dict(zip(variables, combo, strict=True)) for combo in product(*(state_names[v] for v in variables))]
