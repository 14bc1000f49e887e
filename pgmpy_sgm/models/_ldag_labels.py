"""Structure of a labelled DAG: its edges checked acyclic, its class tables checked, and the labels read from them."""

from __future__ import annotations

from collections.abc import Mapping

import networkx as nx
import numpy as np

from pgmpy_sgm.core.arguments import check_mapping, edge_pairs
from pgmpy_sgm.core.lines import canonical_groups, groups_from_labels, is_regular, labels_from_groups

__all__ = ["acyclic_edges", "class_entries", "checked_classes", "classes_with_added_states", "edge_contexts"]


def acyclic_edges(ebunch) -> list[tuple]:
    """The edges of ``ebunch`` as pairs, refused when they hold a directed cycle (named).

    Examples
    --------
    >>> acyclic_edges([("a", "b")])
    [('a', 'b')]
    >>> acyclic_edges([("a", "b"), ("b", "a")])
    Traceback (most recent call last):
        ...
    ValueError: The edges have the cycle ['a', 'b']; a Bayesian network is acyclic
    """
    edges = edge_pairs(ebunch, "ebunch")
    try:
        cycle = [u for u, _ in nx.find_cycle(nx.DiGraph(edges))]
    except nx.NetworkXNoCycle:
        return edges
    raise ValueError(f"The edges have the cycle {cycle}; a Bayesian network is acyclic")


def class_entries(classes: Mapping | None) -> dict:
    """``classes`` (``{node: (parents, group_ids)}`` or None) checked to map nodes to pairs.

    Examples
    --------
    >>> class_entries({"y": (("a", "b"), [0, 1, 0, 2])})
    {'y': (('a', 'b'), [0, 1, 0, 2])}
    >>> class_entries({"y": [0, 1, 2]})
    Traceback (most recent call last):
        ...
    TypeError: classes['y'] must be a pair (parents, group_ids). Got: [0, 1, 2]
    """
    entries = check_mapping(classes or {}, "classes", "{node: (parents, group_ids)}")
    for node, entry in entries.items():
        if not isinstance(entry, tuple | list) or len(entry) != 2:
            raise TypeError(f"classes[{node!r}] must be a pair (parents, group_ids). Got: {entry!r}")
    return dict(entries)


def checked_classes(node, cards: tuple[int, ...], group_ids) -> np.ndarray:
    """The class ids of ``node``'s parent configurations (parents with ``cards`` states), canonical and
    read-only, refused unless they are those of a maximal regular labelling.

    Examples
    --------
    >>> checked_classes("y", (2, 2), [3, 1, 3, 2]).tolist()
    [0, 1, 0, 2]
    >>> checked_classes("y", (2, 2), [0, 0, 0, 0])
    Traceback (most recent call last):
    ...
    ValueError: Classes of 'y' delete an edge: some parent has every line inside one class (not regular)
    """
    q = int(np.prod(cards, dtype=np.int64))
    ids = np.asarray(group_ids)
    if ids.shape != (q,) or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"Classes of {node!r}: need {q} integer class ids, got {ids.tolist()}")
    ids = canonical_groups(ids)
    # single-state parents do not change the configuration index and can carry no label
    cards = tuple(k for k in cards if k > 1)
    if len(cards) and not is_regular(cards, ids):
        raise ValueError(
            f"Classes of {node!r} delete an edge: some parent has every line inside one class (not regular)"
        )
    if ids.max(initial=0) + 1 < q:
        labels = labels_from_groups(cards, ids)
        if not np.array_equal(groups_from_labels(cards, {d: list(r) for d, r in labels.items()}), ids):
            raise ValueError(
                f"Classes of {node!r} are not made by labels: a class is not joined by lines inside it"
            )
    ids.setflags(write=False)
    return ids


def classes_with_added_states(old_cards: tuple[int, ...], new_cards: tuple[int, ...], group_ids) -> np.ndarray:
    """The classes of the same labels once some parents gained states (appended after their old ones).

    A label says the node does not depend on one parent in a context of the others; it keeps
    that meaning, so its line now also holds the parent's new states, and a configuration
    with a new state of a parent in a label's context joins that label's class. Other new
    configurations are classes of their own.

    Examples
    --------
    >>> classes_with_added_states((2, 2), (3, 2), [0, 1, 0, 2]).tolist()  # a gains a state; y _|_ a | b=0
    [0, 1, 0, 2, 0, 3]
    >>> classes_with_added_states((2, 2), (2, 3), [0, 1, 0, 2]).tolist()  # b gains one: its new context unlabelled
    [0, 1, 2, 0, 3, 4]
    """
    labels = labels_from_groups(tuple(old_cards), np.asarray(group_ids))
    moved = {}
    for direction, rows in labels.items():
        old_others = [k for i, k in enumerate(old_cards) if i != direction]
        new_others = [k for i, k in enumerate(new_cards) if i != direction]
        if not old_others or len(rows) == 0:
            moved[direction] = np.asarray(rows, dtype=np.int64)
            continue
        contexts = np.unravel_index(np.asarray(rows, dtype=np.int64), old_others)
        moved[direction] = np.ravel_multi_index(contexts, new_others)
    return groups_from_labels(tuple(new_cards), moved)


def edge_contexts(node, parents: tuple, group_ids: np.ndarray, states: Mapping) -> dict:
    """The labels of ``node``'s incoming edges, ``{(parent, node): [context dict, ...]}`` (labelled edges
    only), from the classes ``group_ids`` of its ``parents`` (each with more than one of its ``states``).

    Examples
    --------
    >>> edge_contexts("y", ("a", "b"), np.array([0, 1, 0, 2]), {"a": [0, 1], "b": [0, 1]})
    {('a', 'y'): [{'b': 0}]}
    """
    cards = tuple(len(states[p]) for p in parents)
    out = {}
    for d, rows in labels_from_groups(cards, group_ids).items():
        if not len(rows):
            continue
        others = [p for i, p in enumerate(parents) if i != d]
        other_cards = [k for i, k in enumerate(cards) if i != d]
        contexts = []
        for row in rows:
            idx = np.unravel_index(int(row), other_cards)
            contexts.append({p: states[p][int(s)] for p, s in zip(others, idx, strict=True)})
        out[(parents[d], node)] = contexts
    return out
