"""Set masks read back as members: iter_bits and bit_positions against a plain bit test."""

import random

import numpy as np
import pytest

from pgmpy_sgm.core.bitsets import WIDE_MASK_BITS, bit_positions, iter_bits


def members_by_test(mask: int) -> list[int]:
    return [b for b in range(mask.bit_length()) if mask >> b & 1]


@pytest.mark.parametrize("width", [1, 63, 64, 65, 200, WIDE_MASK_BITS, WIDE_MASK_BITS + 1, 130_000])
def test_members_equal_a_plain_bit_test(width):
    rng = random.Random(width)
    for density in (0.0, 0.001, 0.05, 0.5, 1.0):
        mask = sum(1 << b for b in range(width) if rng.random() < density) | 1 << (width - 1)
        expected = members_by_test(mask)
        assert list(iter_bits(mask)) == expected
        positions = bit_positions(mask)
        assert positions.dtype == np.int64
        assert positions.tolist() == expected


def test_empty_mask_has_no_members():
    assert list(iter_bits(0)) == []
    assert bit_positions(0).tolist() == []


def test_negative_mask_is_refused_with_its_value():
    with pytest.raises(ValueError, match="-5"):
        bit_positions(-5)


@pytest.mark.parametrize("mask", [1.0, "3", True, None])
def test_a_mask_that_is_not_an_int_is_refused_with_its_value(mask):
    with pytest.raises(TypeError, match="must be an int"):
        bit_positions(mask)
