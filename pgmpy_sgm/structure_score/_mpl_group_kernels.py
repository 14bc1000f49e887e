"""Compiled classes of a node's blanket configurations under edge contexts (numba); see ``_mpl_groups``."""

from __future__ import annotations

import numpy as np
from numba import njit

from pgmpy_sgm.core._count_kernels import c_order_strides

__all__ = ["merged_classes", "uniform_line_states"]


@njit(cache=True, nogil=True)
def _root(parent, c):  # pragma: no cover - compiled
    """The root of ``c`` in the union-find forest ``parent`` (halving the path on the way)."""
    while parent[c] != c:
        parent[c] = parent[parent[c]]
        c = parent[c]
    return c


@njit(cache=True, nogil=True)
def merged_classes(shape, rules, axes):  # pragma: no cover - compiled
    """Class of every configuration of ``shape`` (C order), numbered by first appearance.

    Rule ``j`` merges every configuration agreeing with ``rules[j]`` (one required state per
    axis, -1 for any) with the other configurations of its line along axis ``axes[j]``: the
    classes are the connected components of these merges (a union-find forest).
    """
    k = shape.shape[0]
    n, strides = c_order_strides(shape)
    parent = np.arange(n)
    for j in range(rules.shape[0]):
        axis = axes[j]
        for c in range(n):
            agrees = True
            for a in range(k):
                want = rules[j, a]
                if want >= 0 and (c // strides[a]) % shape[a] != want:
                    agrees = False
                    break
            if not agrees:
                continue
            base = c - ((c // strides[axis]) % shape[axis]) * strides[axis]  # the line's configuration at state 0
            first, second = _root(parent, c), _root(parent, base)
            if first < second:
                parent[second] = first
            elif second < first:
                parent[first] = second
    labels = np.full(n, -1, dtype=np.int64)
    out = np.empty(n, dtype=np.int64)
    following = 0
    for c in range(n):
        r = _root(parent, c)
        if labels[r] < 0:
            labels[r] = following
            following += 1
        out[c] = labels[r]
    return out


@njit(cache=True, nogil=True)
def uniform_line_states(classes, shape, axis, kept):  # pragma: no cover - compiled
    """States of the axes ``kept`` at the lines along ``axis`` lying inside one class, distinct, in lexicographic order.

    ``classes`` holds the class of every configuration of ``shape`` (C order). One row per distinct
    tuple of states of ``kept`` (in that order) at which some line along ``axis`` has all its
    configurations in one class.
    """
    n = classes.shape[0]
    strides = c_order_strides(shape)[1]
    m = kept.shape[0]
    radix = np.empty(m, dtype=np.int64)
    n_codes = 1
    for j in range(m - 1, -1, -1):
        radix[j] = n_codes
        n_codes *= shape[kept[j]]
    seen = np.zeros(n_codes, dtype=np.bool_)
    for c in range(n):
        if (c // strides[axis]) % shape[axis] != 0:
            continue  # each line once, from its configuration at state 0
        uniform = True
        for s in range(1, shape[axis]):
            if classes[c + s * strides[axis]] != classes[c]:
                uniform = False
                break
        if uniform:
            code = 0
            for j in range(m):
                code += ((c // strides[kept[j]]) % shape[kept[j]]) * radix[j]
            seen[code] = True
    count = 0
    for code in range(n_codes):
        if seen[code]:
            count += 1
    out = np.empty((count, m), dtype=np.int64)
    row = 0
    for code in range(n_codes):
        if seen[code]:
            for j in range(m):
                out[row, j] = (code // radix[j]) % shape[kept[j]]
            row += 1
    return out
