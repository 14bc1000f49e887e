"""Every pair's log marginal likelihood at once, from one weighted cross-product of one-hot codes.

A search over d variables starts from the gain of every single edge: d(d-1)/2 two-way
tables, each a pass over the pooled rows when counted one by one (about 500,000 passes at
1,000 variables). All of them are blocks of one matrix, ``O' W O``, where ``O`` holds the
rows' states one-hot (one column per state of every variable) and ``W`` their weights: one
matrix product, done in row blocks so that memory stays bounded.

With whole-number weights every count is an exact integer, so the terms equal
:func:`~pgmpy_sgm.core.lines.dirichlet_log_ml` of the tables counted one by one, bit for
bit (same arithmetic on the same counts). Fractional weights (EM's completed tables) are
left to the one-by-one path, whose sums they would not reproduce exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.special import gammaln

__all__ = ["pair_set_terms", "pair_count_matrix", "weighted_cross_product", "checked_code_table", "MAX_TOTAL_STATES"]

#: The cross-product is a square matrix over all states of all variables (float64): beyond
#: this many states in total (512 MB) the pairs are counted one by one instead.
MAX_TOTAL_STATES = 8192

#: Cells of the one-hot codes of one chunk of rows in :func:`weighted_cross_product` (32 MB of float64).
CHUNK_CELLS = 2**22


def pair_set_terms(codes: np.ndarray, weights: np.ndarray, cards: Sequence[int]) -> dict | None:
    """``{(i, j): D({i, j})}`` for every pair ``i < j`` (1 per cell), or None when it cannot be exact or small.

    Parameters
    ----------
    codes : numpy.ndarray of shape (n_rows, n_variables)
        State codes.
    weights : numpy.ndarray of shape (n_rows,)
        Row weights (counts).
    cards : sequence of int
        States per variable.

    Returns
    -------
    dict or None
        None when a weight is not a whole number, or the states number more than
        :data:`MAX_TOTAL_STATES`.

    Raises
    ------
    ValueError
        If ``codes`` does not have one row per weight and one column per variable.

    Examples
    --------
    >>> codes = np.array([[0, 0], [1, 0], [1, 1]])
    >>> terms = pair_set_terms(codes, np.array([2.0, 1.0, 1.0]), [2, 2])
    >>> round(terms[(0, 1)], 6)  # cells 2, 0, 1, 1: lgamma(4) - lgamma(8) + lgamma(3) + lgamma(1) + 2 lgamma(2)
    -6.040255
    """
    codes, weights = checked_code_table(codes, weights, cards)
    cards = np.asarray(cards, dtype=np.int64)
    if not np.all(np.isfinite(weights)) or np.any(weights != np.round(weights)):
        return None
    counted = pair_count_matrix(codes, weights, cards)
    if counted is None:
        return None
    gram, offsets = counted
    out: dict = {}
    for i, card_i in enumerate(cards.tolist()):
        rows = gram[offsets[i] : offsets[i] + card_i]
        later = np.arange(i + 1, len(cards))
        for card_j in np.unique(cards[later]).tolist():
            partners = later[cards[later] == card_j]
            columns = offsets[partners][:, None] + np.arange(card_j)[None, :]
            tables = np.ascontiguousarray(rows[:, columns].transpose(1, 0, 2)).reshape(len(partners), -1)
            out.update(zip(((i, int(j)) for j in partners), _dirichlet_terms(tables), strict=True))
    return out


def checked_code_table(codes, weights, cards: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(codes, weights)`` as arrays, or a ``ValueError`` unless there is one row per weight and one column per card.

    Examples
    --------
    >>> checked_code_table([[0, 1]], [2], [2, 2])[1].dtype
    dtype('float64')
    >>> checked_code_table([[0, 1]], [2, 3], [2, 2])
    Traceback (most recent call last):
        ...
    ValueError: codes must have one row per weight (2) and one column per variable (2). Got shape (1, 2).
    """
    weights = np.asarray(weights, dtype=np.float64)
    codes = np.asarray(codes)
    if codes.ndim != 2 or codes.shape != (len(weights), len(cards)):
        raise ValueError(f"codes must have one row per weight ({len(weights)}) and one column per variable "
                         f"({len(cards)}). Got shape {codes.shape}.")  # fmt: skip
    return codes, weights


def pair_count_matrix(codes, weights, cards: Sequence[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """``(gram, starts)``: every pair's weighted counts as blocks of one matrix; None beyond ``MAX_TOTAL_STATES``.

    ``gram[starts[i] + a, starts[j] + b]`` is the weight of the rows with ``codes[:, i] == a``
    and ``codes[:, j] == b``; a negative code is a missing cell and counts nowhere, so a
    block holds the rows where both variables are observed.

    Raises
    ------
    ValueError
        If ``codes`` does not have one row per weight and one column per variable.

    Examples
    --------
    >>> gram, starts = pair_count_matrix([[0, 1], [1, 1], [-1, 0]], [2.0, 1.0, 5.0], [2, 2])
    >>> gram[starts[0]:starts[0] + 2, starts[1]:starts[1] + 2].tolist()
    [[0.0, 2.0], [0.0, 1.0]]
    """
    codes, weights = checked_code_table(codes, weights, cards)
    starts = np.concatenate(([0], np.cumsum(np.asarray(cards, dtype=np.int64))))
    if starts[-1] > MAX_TOTAL_STATES:
        return None
    return weighted_cross_product(codes, weights, starts[:-1], int(starts[-1])), starts[:-1]


def weighted_cross_product(codes: np.ndarray, weights: np.ndarray, starts: np.ndarray, total: int, first: int = 0,
                           last: int | None = None, chunk_cells: int = CHUNK_CELLS) -> np.ndarray:  # fmt: skip
    """Rows ``first .. last - 1`` of ``O' W O`` over all states (``starts[v]``: the first column of variable ``v``).

    ``O`` holds the rows' states one-hot; a negative code (a missing cell) has no one in its
    row of ``O``. The product is summed over chunks of rows whose one-hot codes hold at most
    about ``chunk_cells`` cells, so memory does not grow with the rows. A chunk of
    whole-number weights summing to less than ``2**24`` is multiplied in float32 (its counts
    are then exact integers, and BLAS is faster), any other in float64; the chunks are summed
    in float64.

    Examples
    --------
    >>> codes = np.array([[0, 1], [1, 1], [0, 0]])
    >>> weighted_cross_product(codes, np.array([2.0, 1.0, 5.0]), np.array([0, 2]), 4, 0, 2, chunk_cells=4).tolist()
    [[7.0, 0.0, 5.0, 2.0], [0.0, 1.0, 0.0, 1.0]]
    """
    last = total if last is None else last
    chunk = max(1, chunk_cells // max(total, 1))
    gram = np.zeros((last - first, total))
    whole = bool(np.all(weights == np.round(weights)))
    for begin in range(0, codes.shape[0], chunk):
        block, block_weights = codes[begin : begin + chunk].astype(np.int64), weights[begin : begin + chunk]
        exact32 = whole and float(block_weights.sum()) < 2**24
        onehot = np.zeros((block.shape[0], total), dtype=np.float32 if exact32 else np.float64)
        seen = block >= 0
        if seen.all():
            onehot[np.arange(block.shape[0])[:, None], starts[None, :] + block] = 1.0
        else:
            rows, columns = np.nonzero(seen)
            onehot[rows, starts[columns] + block[rows, columns]] = 1.0
        gram += (onehot[:, first:last] * block_weights.astype(onehot.dtype)[:, None]).T @ onehot
    return gram


def _dirichlet_terms(tables: np.ndarray) -> list[float]:
    """:func:`~pgmpy_sgm.core.lines.dirichlet_log_ml` (1 per cell) of each row, in its order of operations."""
    k = tables.shape[1]
    cells = gammaln(tables + 1.0).sum(axis=1)
    sizes = tables.sum(axis=1)
    log_k = math.lgamma(k)
    return [log_k - math.lgamma(float(n) + k) + float(s) for n, s in zip(sizes.tolist(), cells.tolist(), strict=True)]
