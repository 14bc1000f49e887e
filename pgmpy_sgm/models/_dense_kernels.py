"""Compiled loops of :class:`~pgmpy_sgm.models._cmn_dense.DenseJoint` (numba): one pass over the joint table each."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["scale_cells", "sum_cells"]


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
