"""Candidate parents per node for wide data: the partners of largest single-parent BDeu gain.

The searches of :class:`~pgmpy_sgm.causal_discovery.LDAGSearch` (the greedy equivalence search
and the tabu climbs) score every possible new edge; over ``d`` variables that is ``d - 1``
families per node and step. Beyond :data:`SCREEN_ABOVE` variables the new edges are
restricted to candidate pairs: each node keeps the ``k`` partners whose single-parent BDeu
term gains most over the empty family (the pairwise gain, symmetric under BDeu and the same
under the labelled score, since one parent carries no label), and a pair is a candidate when
either end keeps the other. The gains of all pairs come from one product of one-hot
matrices (the joint counts of every pair of variables), not from ``d^2`` contingency tables.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

__all__ = ["SCREEN_ABOVE", "candidate_limit", "candidate_parents", "pairwise_gains", "screened_candidates"]

#: Up to this many variables every pair is a candidate (no screening).
SCREEN_ABOVE = 64


def candidate_limit(n_variables: int) -> int | None:
    """Partners kept per node: None (all) up to :data:`SCREEN_ABOVE` variables, else ``ceil(4 log2 d)``.

    Examples
    --------
    >>> candidate_limit(37), candidate_limit(223), candidate_limit(1041)
    (None, 32, 41)
    """
    if n_variables <= SCREEN_ABOVE:
        return None
    return min(n_variables - 1, math.ceil(4 * math.log2(n_variables)))


def pairwise_gains(codes: np.ndarray, cards: list[int], weights: np.ndarray, ess: float,
                   block: int = 64) -> np.ndarray:  # fmt: skip
    """``G[x, y]``: BDeu term of ``y`` with the one parent ``x`` minus that of ``y`` alone (diagonal -inf).

    Parameters
    ----------
    codes : numpy.ndarray of shape (n_rows, d)
        State codes ``0 .. cards[j] - 1`` of each variable.
    cards : list of int
    weights : numpy.ndarray of shape (n_rows,)
        Count of each row.
    ess : float
        Equivalent sample size of the BDeu prior.
    block : int, default=64
        Variables whose joint counts with all others are held at once (memory).

    Returns
    -------
    numpy.ndarray of shape (d, d)

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.structure_score import BDeu
    >>> df = pd.DataFrame({"a": [0, 1, 1, 0, 1, 1], "b": [0, 1, 1, 0, 1, 0], "c": [2, 0, 1, 1, 0, 2]})
    >>> g = pairwise_gains(df.to_numpy(), [2, 2, 3], np.ones(6), 5.0)
    >>> s = BDeu(df, equivalent_sample_size=5)
    >>> bool(abs(g[0, 2] - (s.local_score("c", ("a",)) - s.local_score("c", ()))) < 1e-9)
    True
    """
    codes = np.asarray(codes)
    n_rows, d = codes.shape
    cards_a = np.asarray(cards, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(cards_a)])
    onehot = np.zeros((n_rows, int(offsets[-1])), dtype=np.float32)  # counts below 2**24 are exact
    for j in range(d):
        onehot[np.arange(n_rows), offsets[j] + codes[:, j].astype(np.int64)] = 1.0
    weighted = onehot * np.asarray(weights, dtype=np.float32)[:, None]
    marginal = (onehot * np.asarray(weights, dtype=float)[:, None]).sum(axis=0)  # counts of every state
    owner = np.repeat(np.arange(d), cards_a)
    total = float(np.sum(weights))
    # the empty family of y, and the configurations' part of y | x (depends on x only)
    alone = np.add.reduceat(gammaln(ess / cards_a[owner] + marginal) - gammaln(ess / cards_a[owner]), offsets[:-1])
    alone += gammaln(ess) - gammaln(ess + total)
    configs = np.add.reduceat(gammaln(ess / cards_a[owner]) - gammaln(ess / cards_a[owner] + marginal), offsets[:-1])
    gains = np.empty((d, d))
    for start in range(0, d, block):
        stop = min(d, start + block)
        rows = slice(offsets[start], offsets[stop])
        joint = (weighted[:, rows].T @ onehot).astype(float)  # (states of x in the block, states of every y)
        prior = ess / np.outer(cards_a[owner[rows]], cards_a[owner])
        cells = gammaln(prior + joint) - gammaln(prior)
        summed = np.add.reduceat(np.add.reduceat(cells, offsets[start:stop] - offsets[start], axis=0),
                                 offsets[:-1], axis=1)  # fmt: skip
        gains[start:stop] = configs[start:stop, None] + summed - alone[None, :]
    np.fill_diagonal(gains, -np.inf)
    return gains


def candidate_parents(gains: np.ndarray, limit: int | None) -> list[int] | None:
    """Candidate-parent masks: ``x`` for ``y`` when either is among the other's ``limit`` best partners.

    None when ``limit`` is None or at least ``d - 1`` (no screening).

    Examples
    --------
    >>> g = np.array([[-np.inf, 5.0, 1.0], [5.0, -np.inf, 2.0], [1.0, 2.0, -np.inf]])
    >>> [bin(m) for m in candidate_parents(g, 1)]  # 0 and 1 keep each other, 2 keeps 1
    ['0b10', '0b101', '0b10']
    """
    d = gains.shape[0]
    if limit is None or limit >= d - 1:
        return None
    # partners of each node by decreasing gain, ties by index (a stable sort of the negated gains)
    best = np.argsort(-np.maximum(gains, gains.T), axis=1, kind="stable")[:, :limit]
    masks = [0] * d
    for y in range(d):
        for x in best[y].tolist():
            masks[y] |= 1 << x
            masks[x] |= 1 << y
    return masks


def screened_candidates(score, limit: int | None) -> list[int] | None:
    """Candidate-parent masks for the searches under ``score`` (an ``LDAGScore``), or None below the limit.

    The pairwise gains use the score's data, counts and equivalent sample size; nodes are
    the score's variables in order.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import LDAGScore
    >>> df = pd.DataFrame({"a": [0, 1] * 20, "b": [0, 1] * 20, "c": [0, 0, 1, 1] * 10})
    >>> screened_candidates(LDAGScore(df), None) is None
    True
    >>> [bin(m) for m in screened_candidates(LDAGScore(df), 1)]  # a and b keep each other; c keeps a
    ['0b110', '0b1', '0b1']
    """
    d = len(score.variables)
    if limit is None or limit >= d - 1:
        return None
    encoded = score.encoded
    cards = [encoded.cardinality[v] for v in score.variables]
    gains = pairwise_gains(encoded.codes, cards, encoded.weights, score.equivalent_sample_size)
    return candidate_parents(gains, limit)
