"""Compiled loops of :mod:`pgmpy_sgm.core.graph_store`: a set mask's members as LEB128 gaps, and back (numba).

A gap is the distance from the previous member (the first counted from -1), written seven bits per
byte, low bits first, with the high bit set on every byte but the gap's last.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["pack_mask_words", "pack_sorted_positions", "unpack_gaps", "mask_bytes"]

_ONE = np.uint64(1)
_MOST_BYTES = 10  # a gap below 2**63 takes at most ten bytes of seven bits


@njit(cache=True, nogil=True)
def _emit(out, k, gap):  # pragma: no cover - compiled
    """Write ``gap`` at ``out[k:]``; returns the next free index."""
    while gap >= 128:
        out[k] = (gap & 127) | 128
        k += 1
        gap >>= 7
    out[k] = gap
    return k + 1


@njit(cache=True, nogil=True)
def _lowest_bit(word):  # pragma: no cover - compiled
    """The index of the lowest set bit of a non-zero uint64."""
    index = 0
    for width in (32, 16, 8, 4, 2, 1):
        low_half = (_ONE << np.uint64(width)) - _ONE
        if word & low_half == 0:
            word >>= np.uint64(width)
            index += width
    return index


@njit(cache=True, nogil=True)
def pack_mask_words(words):  # pragma: no cover - compiled
    """The gaps of the set bits of a mask given as its little-endian uint64 words."""
    n_bits = 0
    for w in range(words.shape[0]):
        word = words[w]
        while word:
            word &= word - _ONE
            n_bits += 1
    out = np.empty(_MOST_BYTES * n_bits, dtype=np.uint8)
    k, previous = 0, -1
    for w in range(words.shape[0]):
        word = words[w]
        while word:
            position = 64 * w + _lowest_bit(word)
            word &= word - _ONE
            k = _emit(out, k, position - previous)
            previous = position
    return out[:k]


@njit(cache=True, nogil=True)
def pack_sorted_positions(positions):  # pragma: no cover - compiled
    """The gaps of strictly increasing non-negative positions (int64)."""
    out = np.empty(_MOST_BYTES * positions.shape[0], dtype=np.uint8)
    k, previous = 0, -1
    for i in range(positions.shape[0]):
        k = _emit(out, k, positions[i] - previous)
        previous = positions[i]
    return out[:k]


@njit(cache=True, nogil=True)
def unpack_gaps(raw, lengths):  # pragma: no cover - compiled
    """The positions of gap strings laid end to end in ``raw`` (``lengths`` bytes each), and their counts."""
    n_gaps = 0
    for i in range(raw.shape[0]):
        if raw[i] < 128:
            n_gaps += 1
    positions = np.empty(n_gaps, dtype=np.int64)
    counts = np.zeros(lengths.shape[0], dtype=np.int64)
    i = k = 0
    for g in range(lengths.shape[0]):
        end, previous = i + lengths[g], -1
        while i < end:
            gap, shift, ended = 0, 0, False
            while i < end and not ended:  # the bound guards against a string cut inside a gap
                byte = raw[i]
                i += 1
                gap |= np.int64(byte & 127) << shift
                shift += 7
                ended = byte < 128
            if not ended:
                break
            previous += gap
            positions[k] = previous
            k += 1
            counts[g] += 1
    return positions, counts


@njit(cache=True, nogil=True)
def mask_bytes(positions):  # pragma: no cover - compiled
    """The little-endian bytes of the mask whose set bits are ``positions`` (increasing; at least one)."""
    out = np.zeros(positions[-1] // 8 + 1, dtype=np.uint8)
    for i in range(positions.shape[0]):
        p = positions[i]
        out[p >> 3] |= np.uint8(1 << (p & 7))
    return out
