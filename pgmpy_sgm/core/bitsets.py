"""Sets of small integers (nodes, pairs, configurations) as the bits of an int: the one bit iterator."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = ["iter_bits", "bit_positions"]

#: Masks wider than this many bits are read word by word with numpy (:func:`bit_positions`):
#: peeling bits one at a time copies the whole int per bit, which is quadratic for a graph
#: key over all pairs of hundreds of variables.
WIDE_MASK_BITS = 2048


def iter_bits(mask: int) -> Iterator[int]:
    """The members of a set mask, in increasing order.

    Examples
    --------
    >>> list(iter_bits(0b10110))
    [1, 2, 4]
    >>> list(iter_bits(1 << 5000 | 1 << 3))
    [3, 5000]
    """
    if mask.bit_length() > WIDE_MASK_BITS:
        yield from bit_positions(mask).tolist()
        return
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_positions(mask: int) -> np.ndarray:
    """The members of a set mask (a non-negative int), in increasing order, as an int64 array.

    The cost follows the mask's 64-bit words and its members, not members times width.

    Examples
    --------
    >>> bit_positions(0b10110).tolist()
    [1, 2, 4]
    >>> bit_positions(0).tolist()
    []
    """
    if isinstance(mask, bool) or not isinstance(mask, int):
        raise TypeError(f"A set mask must be an int. Got: {mask!r}")
    if mask < 0:
        raise ValueError(f"A set mask must be non-negative. Got: {mask}")
    n_words = (mask.bit_length() + 63) // 64
    words = np.frombuffer(mask.to_bytes(n_words * 8, "little"), dtype="<u8")
    occupied = np.flatnonzero(words)
    bits = np.unpackbits(words[occupied].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    rows, cols = np.nonzero(bits)
    return occupied[rows] * 64 + cols
