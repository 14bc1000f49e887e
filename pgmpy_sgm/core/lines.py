"""Parent configurations, lines and groups of one labelled clique.

Terminology used throughout :mod:`pgmpy_sgm`:

============== ===================================================================
term           meaning
============== ===================================================================
center         the node ``v`` that every labelled edge of a clique ``C`` contains
parents        the other clique members ``C \\ {v}``, in a fixed order
configuration  one outcome of the parents, stored as a flat index in C order
               (``np.ravel_multi_index``; the last parent varies fastest), the
               same order pgmpy uses for the evidence columns of a CPD
direction      the position ``i`` of a parent ``u`` in the parents tuple
line           the ``k_u`` configurations that differ only in parent ``u``; the
               other parents' values are its *context*
label          a line declared to hold ``X_u ⟂ X_v | context``; it merges the
               configurations of the line into one group
group          a connected component of the merges made by the labels; every
               configuration of a group shares one conditional distribution of
               ``X_v``
closed         every line lying inside one group is a label (maximal labelling)
regular        no direction has all of its lines labelled (no edge deleted); a
               parent with one state has no lines (a line needs two
               configurations), so its direction can never be labelled and
               never breaks regularity
forbidden      a direction whose edge ``{u, v}`` lies in a separator: it may
               carry no label at all
============== ===================================================================

Groups are stored as an integer array ``group_ids`` of length ``prod(cards)``;
:func:`canonical_groups` renumbers them by first appearance so that equal
partitions have equal arrays.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
from scipy.special import gammaln

from pgmpy_sgm.core.arguments import check_number
from pgmpy_sgm.core.unionfind import DisjointSets

__all__ = [
    "line_table",
    "canonical_groups",
    "identity_groups",
    "groups_from_labels",
    "labels_from_groups",
    "leak_directions",
    "is_regular",
    "touches_forbidden",
    "dirichlet_log_ml",
    "group_weights",
    "labelled_clique_term",
]


@cache
def _line_table(cards: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    n_configs = int(np.prod(cards, dtype=np.int64))
    grid = np.arange(n_configs, dtype=np.int64).reshape(cards)
    tables = []
    for i, k in enumerate(cards):
        # move axis i last, then every row is one line (context in C order of the others);
        # a one-state parent has no lines
        table = np.moveaxis(grid, i, -1).reshape(-1, k) if k > 1 else np.empty((0, 1), dtype=np.int64)
        table.setflags(write=False)
        tables.append(table)
    return tuple(tables)


def line_table(cards: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """Lines of the configuration space of parents with cardinalities ``cards``.

    Parameters
    ----------
    cards : tuple of int
        Cardinalities of the parents, in order.

    Returns
    -------
    tuple of numpy.ndarray
        Entry ``i`` has shape ``(n_lines_i, cards[i])``: row ``r`` lists the flat
        configuration indices of the ``r``-th line in direction ``i``. Rows are
        ordered by context, in C order over the other parents; a parent with one
        state has no lines (shape ``(0, 1)``). Read-only, cached.

    Examples
    --------
    >>> tables = line_table((2, 2))
    >>> tables[0].tolist()  # lines in direction 0: contexts x1=0 and x1=1
    [[0, 2], [1, 3]]
    >>> tables[1].tolist()
    [[0, 1], [2, 3]]
    >>> line_table((2, 1))[1].shape  # a one-state parent
    (0, 1)
    """
    return _line_table(tuple(int(k) for k in cards))


def canonical_groups(group_ids: np.ndarray) -> np.ndarray:
    """Renumber groups by order of first appearance (0, 1, 2, ...).

    Examples
    --------
    >>> canonical_groups(np.array([5, 5, 2, 7])).tolist()
    [0, 0, 1, 2]
    """
    group_ids = np.asarray(group_ids)
    _, first, inverse = np.unique(group_ids, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[inverse].astype(np.int64)


_IDENTITY = np.arange(0, dtype=np.int64)
_IDENTITY.setflags(write=False)


def identity_groups(n_configs: int) -> np.ndarray:
    """``0, 1, ..., n_configs - 1`` (every configuration its own group), as a read-only view of one shared array.

    Unlabelled families are most of a wide search's families, and many have thousands of
    configurations: a view costs about a hundred bytes where a new array would cost eight
    per configuration, in every cached result.

    Raises
    ------
    ValueError
        If ``n_configs`` is not an integer >= 0.

    Examples
    --------
    >>> ids = identity_groups(4)
    >>> ids.tolist(), ids.flags.writeable, identity_groups(3).base is ids.base
    ([0, 1, 2, 3], False, True)
    >>> identity_groups(2.5)
    Traceback (most recent call last):
        ...
    ValueError: n_configs must be an integer >= 0. Got: 2.5
    """
    global _IDENTITY
    n_configs = int(check_number(n_configs, "n_configs", 0, integer=True))
    shared = _IDENTITY
    if shared.size < n_configs:  # grown by doubling; views of a smaller array stay valid
        shared = np.arange(max(n_configs, 2 * shared.size), dtype=np.int64)
        shared.setflags(write=False)
        _IDENTITY = shared
    return shared[:n_configs]


def groups_from_labels(cards: tuple[int, ...], labels: dict[int, list[int]] | list[tuple[int, int]]) -> np.ndarray:
    """Groups made by a set of labels (connected components of the merges).

    Parameters
    ----------
    cards : tuple of int
        Parent cardinalities.
    labels : list of (direction, line_row) pairs, or dict direction -> rows
        Each label names a line by its direction and its row in :func:`line_table`.

    Returns
    -------
    numpy.ndarray
        Canonical group id of every configuration.

    Examples
    --------
    >>> groups_from_labels((2, 2), [(0, 1)]).tolist()  # merge configs 1 and 3
    [0, 1, 2, 1]
    """
    tables = line_table(cards)
    n_configs = int(np.prod(cards, dtype=np.int64))
    sets = DisjointSets(n_configs)
    pairs = labels.items() if isinstance(labels, dict) else ((d, [r]) for d, r in labels)
    for direction, rows in pairs:
        for row in rows:
            if not 0 <= direction < len(cards) or not 0 <= int(row) < len(tables[direction]):
                raise ValueError(
                    f"No line {row} in direction {direction} for parent cardinalities {tuple(cards)} "
                    "(a one-state variable has no lines)."
                )
            line = tables[direction][row]
            for config in line[1:]:
                sets.union(int(line[0]), int(config))
    return canonical_groups(np.array(sets.roots(), dtype=np.int64))


def labels_from_groups(cards: tuple[int, ...], group_ids: np.ndarray) -> dict[int, np.ndarray]:
    """All lines lying inside one group: the labels of the closed labelling.

    Returns
    -------
    dict
        direction -> sorted array of line rows (see :func:`line_table`).

    Examples
    --------
    >>> labels_from_groups((2, 2), np.array([0, 1, 2, 1]))
    {0: array([1]), 1: array([], dtype=int64)}
    """
    group_ids = np.asarray(group_ids)
    out = {}
    for direction, table in enumerate(line_table(cards)):
        g = group_ids[table]
        out[direction] = np.flatnonzero(np.all(g == g[:, :1], axis=1))
    return out


def leak_directions(cards: tuple[int, ...], group_ids: np.ndarray) -> np.ndarray:
    """For each direction, whether some line in it is *not* inside one group.

    A direction without lines (a parent with one state) counts as leaking: no label can
    remove its edge.

    Examples
    --------
    >>> leak_directions((2, 2), np.array([0, 0, 0, 0])).tolist()
    [False, False]
    >>> leak_directions((2, 1), np.array([0, 1])).tolist()
    [True, True]
    """
    group_ids = np.asarray(group_ids)
    result = np.zeros(len(cards), dtype=bool)
    for direction, table in enumerate(line_table(cards)):
        if table.shape[0] == 0:
            result[direction] = True
            continue
        g = group_ids[table]
        result[direction] = bool(np.any(g != g[:, :1]))
    return result


def is_regular(cards: tuple[int, ...], group_ids: np.ndarray) -> bool:
    """True when no direction has all its lines inside groups (no edge removed).

    Examples
    --------
    >>> is_regular((2, 2), np.array([0, 1, 2, 1]))
    True
    >>> is_regular((2, 2), np.array([0, 1, 0, 1]))  # both lines of direction 0 merged
    False
    """
    return bool(np.all(leak_directions(cards, group_ids)))


def touches_forbidden(cards: tuple[int, ...], group_ids: np.ndarray, forbidden) -> list[int]:
    """Forbidden directions that would receive a label from ``group_ids``.

    Examples
    --------
    >>> touches_forbidden((2, 2), np.array([0, 1, 2, 1]), [True, False])
    [0]
    """
    labels = labels_from_groups(cards, group_ids)
    return [d for d, flag in enumerate(forbidden) if flag and labels[d].size]


def dirichlet_log_ml(counts: np.ndarray, alpha: float = 1.0) -> float:
    """Log marginal likelihood of cell counts under a symmetric Dirichlet prior.

    ``lgamma(K a) - lgamma(n + K a) + sum_cells [lgamma(n_cell + a) - lgamma(a)]``
    with ``K`` cells and ``a = alpha`` per cell.

    Examples
    --------
    >>> round(dirichlet_log_ml(np.array([1, 0])), 6)  # one draw of two equally likely cells
    -0.693147
    """
    counts = np.asarray(counts, dtype=np.float64).ravel()
    k = counts.size
    n = float(counts.sum())
    if alpha == 1.0:
        return math.lgamma(k) - math.lgamma(n + k) + float(gammaln(counts + 1.0).sum())
    return (
        math.lgamma(k * alpha)
        - math.lgamma(n + k * alpha)
        + float(gammaln(counts + alpha).sum())
        - k * math.lgamma(alpha)
    )


def group_weights(counts2d: np.ndarray, group_ids: np.ndarray) -> float:
    """Sum over groups B of the per-group term of the labelled clique score.

    ``w(B) = lgamma(k lam) - lgamma(n_B + k lam) + sum_i [lgamma(n_iB + lam) - lgamma(lam)]``
    where ``k`` is the center's cardinality and ``lam`` the number of configurations in B.

    Parameters
    ----------
    counts2d : numpy.ndarray, shape (n_configs, k)
        Counts of the center's states (columns) per parent configuration (rows).
    group_ids : numpy.ndarray, shape (n_configs,)
        Group of each configuration.

    Examples
    --------
    >>> counts = np.array([[3, 1], [2, 2]])
    >>> round(group_weights(counts, np.array([0, 1])), 5)
    -6.39693
    """
    counts2d = np.asarray(counts2d, dtype=np.float64)
    group_ids = np.asarray(group_ids, dtype=np.int64)
    k = counts2d.shape[1]
    n_groups = int(group_ids.max()) + 1
    lam = np.bincount(group_ids, minlength=n_groups).astype(np.float64)
    pooled = np.zeros((n_groups, k))
    np.add.at(pooled, group_ids, counts2d)
    n_b = pooled.sum(axis=1)
    return float(
        np.sum(gammaln(k * lam) - gammaln(n_b + k * lam))
        + np.sum(gammaln(pooled + lam[:, None]))
        - k * np.sum(gammaln(lam))
    )


def labelled_clique_term(counts2d: np.ndarray, group_ids: np.ndarray) -> float:
    """Log marginal likelihood of a clique whose center has the given groups.

    The parents' configurations get a Dirichlet prior with ``k`` (the center's
    cardinality) per cell, the center's conditional distributions the pooled
    priors of :func:`group_weights`. With every configuration in its own group this
    equals :func:`dirichlet_log_ml` of the whole clique table with 1 per cell.

    Examples
    --------
    >>> counts = np.array([[3, 1], [2, 2]])
    >>> singletons = labelled_clique_term(counts, np.array([0, 1]))
    >>> bool(np.isclose(singletons, dirichlet_log_ml(counts)))
    True
    """
    counts2d = np.asarray(counts2d, dtype=np.float64)
    k = counts2d.shape[1]
    return dirichlet_log_ml(counts2d.sum(axis=1), alpha=float(k)) + group_weights(counts2d, group_ids)
