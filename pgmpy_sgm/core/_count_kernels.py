"""Compiled counting loops for :class:`~pgmpy_sgm.core.data.EncodedData` (numba)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["cell_index", "count_cells", "count_extensions", "family_log_ml", "family_bdeu", "c_order_strides"]


@njit(cache=True, nogil=True)
def c_order_strides(shape):  # pragma: no cover - compiled
    """``(cells, strides)`` of a C-ordered table of ``shape``: its number of cells and each axis's step."""
    k = shape.shape[0]
    strides = np.empty(k, dtype=np.int64)
    step = 1
    for a in range(k - 1, -1, -1):
        strides[a] = step
        step *= shape[a]
    return step, strides


@njit(cache=True, nogil=True)
def cell_index(codes_t, cols, cards):  # pragma: no cover - compiled
    """Each row's cell of the variables ``cols`` (mixed radix, the last fastest; ``cards`` may run longer),
    built a variable at a time: one pass over a contiguous row of ``codes_t`` each, which the compiler vectorises."""
    n_rows = codes_t.shape[1]
    index = np.zeros(n_rows, dtype=np.int64)
    for j in range(cols.shape[0]):
        card = cards[j]
        codes = codes_t[cols[j]]
        for r in range(n_rows):
            index[r] = index[r] * card + codes[r]
    return index


@njit(cache=True, nogil=True)
def count_cells(codes_t, weights, cols, cards, n_cells):  # pragma: no cover - compiled
    """Weighted cell counts of the variables ``cols`` (mixed radix, the last variable fastest).

    The cell of every row is built a variable at a time (:func:`cell_index`), then the weights
    are added row by row, so each cell's sum is taken in row order.
    """
    index = cell_index(codes_t, cols, cards)
    counts = np.zeros(n_cells)
    for r in range(codes_t.shape[1]):
        counts[index[r]] += weights[r]
    return counts


@njit(cache=True, nogil=True)
def count_extensions(codes_t, weights, cols, cards, own, extra, extra_cards, offsets, n_cells):  # pragma: no cover
    """Cell counts of ``cols + (extra[j], own)`` for every ``j``, table ``j`` from ``offsets[j]`` (each cell
    summed row by row, as :func:`count_cells` sums it)."""
    counts = np.zeros(n_cells)
    n_rows = codes_t.shape[1]
    m = cols.shape[0]
    r = cards[m]
    base = cell_index(codes_t, cols, cards)
    state = codes_t[own]
    for j in range(extra.shape[0]):  # table j's cells are its own, each summed in row order
        codes = codes_t[extra[j]]
        card, offset = extra_cards[j], offsets[j]
        for row in range(n_rows):
            counts[offset + (base[row] * card + codes[row]) * r + state[row]] += weights[row]
    return counts


@njit(cache=True, nogil=True)
def family_log_ml(codes_t, weights, cols, cards, n_cells):  # pragma: no cover - compiled
    """``D(family) - D(parents)`` with 1 per cell, the child being the last of ``cols``."""
    counts = count_cells(codes_t, weights, cols, cards, n_cells)
    k = cards[cards.shape[0] - 1]
    n_parent_cells = n_cells // k
    total = 0.0
    full = 0.0
    parents = 0.0
    for p in range(n_parent_cells):
        row = 0.0
        for i in range(k):
            c = counts[p * k + i]
            row += c
            full += math.lgamma(c + 1.0)
        parents += math.lgamma(row + 1.0)
        total += row
    return (math.lgamma(n_cells) - math.lgamma(total + n_cells) + full) - (
        math.lgamma(n_parent_cells) - math.lgamma(total + n_parent_cells) + parents
    )


@njit(cache=True, nogil=True)
def family_bdeu(codes_t, weights, cols, cards, n_cells, ess):  # pragma: no cover - compiled
    """BDeu family term with equivalent sample size ``ess``, the child being the last of ``cols``; empty
    cells and parent configurations contribute nothing, so only the occupied ones are summed."""
    counts = count_cells(codes_t, weights, cols, cards, n_cells)
    k = cards[cards.shape[0] - 1]
    n_parent_cells = n_cells // k
    a_cell = ess / n_cells
    a_row = ess / n_parent_cells
    lg_cell = math.lgamma(a_cell)
    lg_row = math.lgamma(a_row)
    total = 0.0
    for p in range(n_parent_cells):
        row = 0.0
        for i in range(k):
            c = counts[p * k + i]
            if c > 0.0:
                row += c
                total += math.lgamma(c + a_cell) - lg_cell
        if row > 0.0:
            total += lg_row - math.lgamma(row + a_row)
    return total
