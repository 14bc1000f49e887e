"""Sets of small integers (nodes, pairs, configurations) as the bits of an int: the one bit iterator."""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["iter_bits"]


def iter_bits(mask: int) -> Iterator[int]:
    """The members of a set mask, in increasing order.

    Examples
    --------
    >>> list(iter_bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
