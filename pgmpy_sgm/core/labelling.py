"""One clique's labelling, and its translation between groups and named contexts.

A labelled clique is described two ways:

* by *groups*: the center and a partition of the configurations of its parents
  (``clique \\ {center}``, C order), as scored (:mod:`pgmpy_sgm.core.lines`);
* by *contexts*: for each parent ``u``, the outcomes ``{w: state}`` of the other parents
  in which ``X_u ⟂ X_center`` holds, as drawn on the edges of a
  :class:`~pgmpy_sgm.models.StratifiedGraph`.

:func:`contexts_from_groups` and :func:`groups_from_contexts` translate between them;
every part of the package goes through this one pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from pgmpy_sgm.core.lines import groups_from_labels, labels_from_groups

__all__ = ["Groups", "CliqueLabelling", "contexts_from_groups", "groups_from_contexts"]


class Groups(tuple):
    """The group of every parent configuration: an immutable tuple of ints.

    Hashable and comparable like a tuple; ``tolist()`` and ``numpy.asarray`` work as for arrays.

    Examples
    --------
    >>> g = Groups([0, 1, 1])
    >>> g == (0, 1, 1), g.tolist(), np.asarray(g).shape
    (True, [0, 1, 1], (3,))
    """

    __slots__ = ()

    def __new__(cls, values: Iterable = ()):
        return super().__new__(cls, (int(v) for v in values))

    def tolist(self) -> list[int]:
        """The groups as a list.

        Examples
        --------
        >>> Groups((0, 0)).tolist()
        [0, 0]
        """
        return list(self)


@dataclass(frozen=True)
class CliqueLabelling:
    """One clique with its center and the groups of the center's parent configurations.

    Attributes
    ----------
    center : hashable or None
        The center, a member of ``clique``; None when the clique carries no labels. When
        ``clique`` is not given (labellings computed from a contingency table), the center
        is the position of its axis.
    group_ids : Groups or None
        Group of every configuration of :attr:`parents` (C order, the last parent fastest).
    gain : float or None
        Score gain of this labelling over the unlabelled clique, when an optimizer found it.
    exact : bool
        True when the labelling is proven optimal (or was given, not searched).
    method : str
        What produced it: ``"exact"``, ``"heuristic"``, ``"mcmc"``, ``"unlabelled"``
        (a clique too small or too large to label) or ``"given"`` (read from strata).
    capped : bool
        True when the work cap stopped the search of some center.
    clique : tuple
        The clique's members, in order; empty when they are axis positions.

    Examples
    --------
    >>> cl = CliqueLabelling("c", [0, 1, 2, 2], clique=("a", "b", "c"))
    >>> cl.parents, cl.group_ids
    (('a', 'b'), (0, 1, 2, 2))
    >>> CliqueLabelling(None, None, 0.0, True, "exact").parents
    ()
    """

    center: object = None
    group_ids: Groups | None = None
    gain: float | None = None
    exact: bool = True
    method: str = "given"
    capped: bool = False
    clique: tuple = ()

    def __post_init__(self):
        if self.group_ids is not None and not isinstance(self.group_ids, Groups):
            object.__setattr__(self, "group_ids", Groups(np.asarray(self.group_ids).ravel()))
        if not isinstance(self.clique, tuple):
            object.__setattr__(self, "clique", tuple(self.clique))

    @property
    def parents(self) -> tuple:
        """``clique \\ {center}`` in clique order; () without center or without ``clique``.

        Examples
        --------
        >>> CliqueLabelling("b", [0, 0, 1, 0], clique=("a", "b", "c")).parents
        ('a', 'c')
        """
        if self.center is None:
            return ()
        return tuple(w for w in self.clique if w != self.center)


def contexts_from_groups(parents: Sequence, group_ids, states: Mapping) -> dict:
    """The contexts of the closed labelling made by ``group_ids``, per parent.

    Parameters
    ----------
    parents : sequence
        The center's parents, in the C order of ``group_ids``.
    group_ids : sequence of int
        Group of every parent configuration.
    states : mapping
        ``states[w]`` lists the states of each parent ``w``.

    Returns
    -------
    dict
        ``{u: [context, ...]}`` for every parent ``u`` with a label on the edge ``{u, center}``;
        each context is ``{w: state}`` over the other parents (in parents order), contexts in
        C order.

    Examples
    --------
    >>> states = {"a": [0, 1], "b": ["x", "y"]}
    >>> contexts_from_groups(("a", "b"), [0, 1, 2, 1], states)  # configurations (1, y) and (0, y) merged
    {'a': [{'b': 'y'}]}
    """
    parents = tuple(parents)
    cards = tuple(len(states[w]) for w in parents)
    out = {}
    for direction, rows in labels_from_groups(cards, np.asarray(group_ids, dtype=np.int64)).items():
        if len(rows) == 0:
            continue
        u = parents[direction]
        others = [w for w in parents if w != u]
        other_cards = [len(states[w]) for w in others]
        contexts = []
        for row in rows:
            index = np.unravel_index(int(row), other_cards) if others else ()
            contexts.append({w: states[w][int(i)] for w, i in zip(others, index, strict=True)})
        out[u] = contexts
    return out


def groups_from_contexts(parents: Sequence, contexts: Mapping, states: Mapping) -> Groups:
    """The groups made by labels given as contexts (the inverse of :func:`contexts_from_groups`).

    Parameters
    ----------
    parents : sequence
        The center's parents (the C order of the result).
    contexts : mapping
        ``{u: [context, ...]}``: the labels of the edge ``{u, center}`` for some parents ``u``,
        each context a mapping ``{w: state}`` over the other parents.
    states : mapping
        ``states[w]`` lists the states of each parent ``w``.

    Returns
    -------
    Groups
        Canonical group of every parent configuration.

    Raises
    ------
    ValueError
        If a context names a state that ``states`` does not list.

    Examples
    --------
    >>> states = {"a": [0, 1], "b": ["x", "y"]}
    >>> groups_from_contexts(("a", "b"), {"a": [{"b": "y"}]}, states)
    (0, 1, 2, 1)
    """
    parents = tuple(parents)
    cards = tuple(len(states[w]) for w in parents)
    lines = []
    for u, listed in contexts.items():
        direction = parents.index(u)
        others = [w for w in parents if w != u]
        other_cards = [len(states[w]) for w in others]
        for context in listed:
            index = []
            for w in others:
                known = list(states[w])
                if context[w] not in known:
                    given = f"The context {dict(context)} gives {w!r} the state {context[w]!r}"
                    raise ValueError(f"{given}; its states are {known}")
                index.append(known.index(context[w]))
            lines.append((direction, int(np.ravel_multi_index(index, other_cards)) if others else 0))
    return Groups(groups_from_labels(cards, lines))
