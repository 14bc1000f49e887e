"""Compiled loops of :class:`~pgmpy_sgm.models._cmn_dense.DenseJoint` (numba): one pass over the joint table each."""

from __future__ import annotations

import numpy as np
from numba import njit

from pgmpy_sgm.core._count_kernels import c_order_strides

__all__ = ["marginal_cells", "scale_cells", "sum_cells"]


@njit(cache=True, nogil=True)
def scale_cells(table, cells, factor):  # pragma: no cover - compiled
    """Multiply each cell ``i`` of ``table`` by ``factor[cells[i]]`` in place; return the new total."""
    total = 0.0
    for i in range(table.shape[0]):
        value = table[i] * factor[cells[i]]
        table[i] = value
        total += value
    return total


@njit(cache=True, nogil=True)
def sum_cells(table, cells, n_cells):  # pragma: no cover - compiled
    """``out[c]``: the sum of the cells ``i`` of ``table`` with ``cells[i] == c``."""
    out = np.zeros(n_cells)
    for i in range(table.shape[0]):
        out[cells[i]] += table[i]
    return out


@njit(cache=True, nogil=True)
def marginal_cells(shape, axes):  # pragma: no cover - compiled
    """Each cell of a C-ordered table of ``shape``: its flat index in the table over ``axes`` (in that order).

    The cells are visited in order as an odometer turns, each axis's step adding its weight in
    the marginal table (0 for the axes summed out), so no division is needed.
    """
    k = shape.shape[0]
    n = c_order_strides(shape)[0]
    weight = np.zeros(k, dtype=np.int64)
    step = 1
    for j in range(axes.shape[0] - 1, -1, -1):
        weight[axes[j]] = step
        step *= shape[axes[j]]
    out = np.empty(n, dtype=np.int64)
    state = np.zeros(k, dtype=np.int64)
    index = 0
    for c in range(n):
        out[c] = index
        a = k - 1
        while a >= 0:  # the next cell: the last axis turns, carrying into the ones before
            state[a] += 1
            index += weight[a]
            if state[a] < shape[a]:
                break
            index -= weight[a] * shape[a]
            state[a] = 0
            a -= 1
    return out
