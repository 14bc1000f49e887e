"""Candidate partners per node, screened from pair gains, for searches over many variables.

A search move that rebuilds the edges of a few nodes (a relocation, a clique insertion, a
relocating insertion) climbs over the pairs touching those nodes. Over all pairs that is
``d`` pairs per node, almost all of them between nodes with no evidence of dependence; the
climb then costs ``O(d)`` toggle proposals per node, and a sweep over every node ``O(d^2)``.

:class:`CandidatePairs` keeps, for every node, its ``k`` *partners* with the largest pair
gains (:func:`~pgmpy_sgm.core.search.pair_gains`: the score gain of the single edge added
to the empty graph) and looks at the current graph for the rest: the pairs a move climbs
over are those from a touched node to its partners, to its neighbours and to its
neighbours' neighbours (an edge with no marginal evidence, such as between two parents of a
common child, closes a triangle of edges that have it), and every pair among the touched
nodes. As the graph changes, so do the neighbourhoods: the screening follows the graph.

With ``k >= d - 1`` the screening cannot bind and every pair touching a node is a
candidate (:attr:`CandidatePairs.screened` is False), so that searches behave exactly as
over all pairs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["CandidatePairs", "default_partners", "MIN_PARTNERS", "PARTNERS_PER_SQRT_D"]

#: Partners per node by pair gain: ``max(MIN_PARTNERS, PARTNERS_PER_SQRT_D * sqrt(d))``.
MIN_PARTNERS = 30
PARTNERS_PER_SQRT_D = 2.0


def default_partners(n_nodes: int) -> int:
    """The number of partners per node kept by default: ``max(30, 2 sqrt(d))`` (all pairs below 32 nodes).

    Examples
    --------
    >>> default_partners(25), default_partners(200), default_partners(1000)
    (30, 30, 64)
    """
    if isinstance(n_nodes, bool) or not isinstance(n_nodes, int | np.integer) or n_nodes < 0:
        raise ValueError(f"n_nodes must be a non-negative integer. Got: {n_nodes!r}")
    return max(MIN_PARTNERS, math.ceil(PARTNERS_PER_SQRT_D * math.sqrt(n_nodes)))


class CandidatePairs:
    """Every node's partners by pair gain, and the candidate pairs of a move in a given graph.

    Parameters
    ----------
    pairs : sequence of (int, int)
        All pairs ``i < j`` in pair-index order (``ScoreEngine.pairs``).
    n_nodes : int
        Number of variables ``d``.
    gains : numpy.ndarray of shape (n_pairs,)
        Pair gains in the order of ``pairs``.
    k : int, optional
        Partners per node (default :func:`default_partners`); ``k >= d - 1`` screens nothing.

    Attributes
    ----------
    k : int
    screened : bool
        Whether some pair is left out (``k < d - 1``).
    partners : tuple of frozenset of int
        The ``k`` nodes with the largest pair gains with each node (ties to the lower index).

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer or ``gains`` does not hold one value per pair.

    Examples
    --------
    >>> pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    >>> cands = CandidatePairs(pairs, 4, np.array([5.0, -1.0, 2.0, -3.0, -2.0, 4.0]), k=1)
    >>> cands.screened, [sorted(p) for p in cands.partners]
    (True, [[1], [0], [3], [2]])
    >>> adj = [0b0000, 0b0000, 0b1000, 0b0100]  # the graph 2 - 3
    >>> cands.touching(adj, [0])  # to 0's partner 1 (not to 2 or 3: weak and not near 0 in the graph)
    [(0, 1)]
    >>> cands.touching(adj, [1])  # 1's partner 0
    [(0, 1)]
    >>> CandidatePairs(pairs, 4, np.zeros(6), k=3).touching(adj, [0]) == [(0, 1), (0, 2), (0, 3)]
    True
    """

    def __init__(self, pairs: Sequence[tuple[int, int]], n_nodes: int, gains, k: int | None = None):
        if isinstance(n_nodes, bool) or not isinstance(n_nodes, int | np.integer) or n_nodes < 0:
            raise ValueError(f"n_nodes must be a non-negative integer. Got: {n_nodes!r}")
        n = int(n_nodes)
        if k is None:
            k = default_partners(n)
        if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
            raise ValueError(f"k (partners per node) must be a positive integer. Got: {k!r}")
        gains = np.asarray(gains, dtype=np.float64)
        if gains.shape != (len(pairs),):
            raise ValueError(f"gains must hold one value per pair ({len(pairs)}). Got shape {gains.shape}.")
        self.n = n
        self.k = int(k)
        self.screened = self.k < n - 1
        self.partners = _top_partners(pairs, n, gains, self.k) if self.screened else None

    def touching(self, adj: Sequence[int], nodes: Iterable[int]) -> list[tuple[int, int]]:
        """Candidate pairs touching ``nodes`` in the graph of adjacency masks ``adj``, in pair-index order.

        Unscreened: every pair touching ``nodes``. Screened: the pairs from each of
        ``nodes`` to its partners, its neighbours and its neighbours' neighbours in
        ``adj``, and the pairs among ``nodes``.
        """
        touched = set(nodes)
        out: set[tuple[int, int]] = set()
        for v in touched:
            if self.screened:
                others = self.partners[v] | touched | _bits(_two_hop(adj, v))
            else:
                others = range(self.n)
            out.update((v, u) if v < u else (u, v) for u in others if u != v)
        return sorted(out)


def _two_hop(adj: Sequence[int], v: int) -> int:
    """The neighbours of ``v`` and theirs, as a set mask."""
    near = m = adj[v]
    while m:
        low = m & -m
        near |= adj[low.bit_length() - 1]
        m ^= low
    return near


def _bits(mask: int) -> set[int]:
    out = set()
    while mask:
        low = mask & -mask
        out.add(low.bit_length() - 1)
        mask ^= low
    return out


def _top_partners(pairs: Sequence[tuple[int, int]], n: int, gains: np.ndarray, k: int) -> tuple[frozenset, ...]:
    """For every node, the ``k`` others with the largest pair gains (ties to the lower index)."""
    matrix = np.full((n, n), -np.inf)
    index = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    matrix[index[:, 0], index[:, 1]] = gains
    matrix[index[:, 1], index[:, 0]] = gains
    out = []
    for v in range(n):
        row = np.where(np.isfinite(matrix[v]), matrix[v], -np.inf)
        order = np.lexsort((np.arange(n), -row))  # largest gain first, then the lower index
        out.append(frozenset(int(u) for u in order[order != v][:k]))
    return tuple(out)
