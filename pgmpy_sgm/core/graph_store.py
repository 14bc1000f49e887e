"""Graphs by key, stored by their edges: a mapping whose memory follows the graphs, not all pairs.

A graph key is an int whose bits are the pairs of variables joined by an edge
(:mod:`pgmpy_sgm.core.moves`). Over d variables it is d(d-1)/2 bits wide whatever the
graph: 15.6 kB at 500 variables, 62 kB at 1,000. A search at that width visits thousands of
sparse graphs, so :class:`GraphStore` keeps a wide key as the positions of its edges (four
bytes per edge) and gives the int back when asked. Narrow keys are kept as they are.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, MutableMapping

import numpy as np

from pgmpy_sgm.core.bitsets import WIDE_MASK_BITS, bit_positions

__all__ = ["GraphStore"]


class GraphStore(MutableMapping):
    """A dict from graph keys (non-negative ints) to values, keeping wide keys as their edge positions.

    It behaves as a dict with int keys (insertion order, lookups, iteration yielding the
    int keys). A key wider than :data:`~pgmpy_sgm.core.bitsets.WIDE_MASK_BITS` bits is
    stored as the little-endian uint32 positions of its set bits, so memory grows with the
    edges of the graphs held rather than with every pair of variables.

    Parameters
    ----------
    items : mapping or iterable of (int, value), optional
        Initial entries.

    Examples
    --------
    >>> store = GraphStore({0b101: -3.5})
    >>> wide = 1 << 10_000 | 1 << 7
    >>> store[wide] = -1.0
    >>> list(store) == [0b101, wide], store[wide], wide in store, 1 << 10_000 in store
    (True, -1.0, True, False)
    >>> store.edge_positions()[1].tolist()
    [7, 10000]
    """

    #: The last wide key packed and its packed form: a key is often looked up in several
    #: stores in a row (visited graphs, the chains that saw them), and ints are immutable,
    #: so the same object packs the same way.
    _last_packed: tuple = (None, None)

    def __init__(self, items: Iterable | None = None):
        self._data: dict = {}
        if items is not None:
            self.update(items)

    @classmethod
    def _packed(cls, key: int):
        if not isinstance(key, int) or key < 0:
            raise TypeError(f"A graph key must be a non-negative int (a bit mask over pairs). Got: {key!r}")
        if key.bit_length() <= WIDE_MASK_BITS:
            return key
        last_key, last_packed = cls._last_packed
        if key is last_key:
            return last_packed
        packed = bit_positions(key).astype("<u4").tobytes()
        cls._last_packed = (key, packed)
        return packed

    @staticmethod
    def _unpacked(stored) -> int:
        if isinstance(stored, int):
            return stored
        positions = np.frombuffer(stored, dtype="<u4")  # never empty: a wide key has its highest bit set
        bits = np.zeros(int(positions[-1]) + 1, dtype=bool)
        bits[positions] = True
        return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")

    @staticmethod
    def _positions(stored) -> np.ndarray:
        if isinstance(stored, int):
            return bit_positions(stored)
        return np.frombuffer(stored, dtype="<u4").astype(np.int64)

    def __getitem__(self, key: int):
        return self._data[self._packed(key)]

    def __setitem__(self, key: int, value) -> None:
        self._data[self._packed(key)] = value

    def __delitem__(self, key: int) -> None:
        del self._data[self._packed(key)]

    def __contains__(self, key) -> bool:
        return isinstance(key, int) and key >= 0 and self._packed(key) in self._data

    def __iter__(self) -> Iterator[int]:
        return map(self._unpacked, self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"GraphStore({len(self)} graphs)"

    def values(self):
        """The values in insertion order (read without unpacking any key).

        Examples
        --------
        >>> list(GraphStore({0b11: -2.0, 0b1: -1.0}).values())
        [-2.0, -1.0]
        """
        return self._data.values()

    def get(self, key: int, default=None):
        """The value of ``key``, or ``default`` when absent (as :meth:`dict.get`).

        Examples
        --------
        >>> store = GraphStore({0b11: -2.0})
        >>> store.get(0b11), store.get(1 << 5000, "absent")
        (-2.0, 'absent')
        """
        return self._data.get(self._packed(key), default)

    def setdefault(self, key: int, default=None):
        """The value of ``key``, set to ``default`` first when absent (as :meth:`dict.setdefault`).

        Examples
        --------
        >>> store = GraphStore({0b11: -2.0})
        >>> store.setdefault(0b11, 0.0), store.setdefault(0b1, -1.0), len(store)
        (-2.0, -1.0, 2)
        """
        return self._data.setdefault(self._packed(key), default)

    def copy(self) -> GraphStore:
        """A shallow copy (the stored keys are shared, not unpacked).

        Examples
        --------
        >>> store = GraphStore({0b11: -2.0})
        >>> other = store.copy()
        >>> other[0b1] = -1.0
        >>> len(store), len(other)
        (1, 2)
        """
        new = GraphStore()
        new._data = dict(self._data)
        return new

    def keys_from(self, start: int) -> Iterator[int]:
        """The keys in insertion order from the ``start``-th on.

        Examples
        --------
        >>> list(GraphStore({1: 0.0, 2: 0.0, 4: 0.0}).keys_from(1))
        [2, 4]
        """
        return map(self._unpacked, itertools.islice(self._data, start, None))

    def sorted_keys(self, reverse: bool = False) -> Iterator[int]:
        """The keys ordered by their values (equal values in insertion order), unpacked one at a time.

        Examples
        --------
        >>> list(GraphStore({1: 0.5, 2: 2.0, 4: 0.5}).sorted_keys(reverse=True))
        [2, 1, 4]
        """
        stored, values = list(self._data), list(self._data.values())
        order = sorted(range(len(stored)), key=values.__getitem__, reverse=reverse)
        return (self._unpacked(stored[i]) for i in order)

    def keys_at(self, rows) -> list[int]:
        """The keys at these insertion positions.

        Examples
        --------
        >>> GraphStore({1: 0.0, 2: 0.0, 4: 0.0}).keys_at([2, 0])
        [4, 1]
        """
        stored = list(self._data)
        return [self._unpacked(stored[i]) for i in rows]

    def values_for(self, other: GraphStore, default=None) -> list:
        """This store's value for each key of ``other``, in ``other``'s order (``default`` where absent).

        Examples
        --------
        >>> masks, scores = GraphStore({2: 0b01, 1: 0b11}), GraphStore({1: -1.0, 2: -2.0, 4: -3.0})
        >>> masks.values_for(scores, 0)
        [3, 1, 0]
        """
        return [self._data.get(stored, default) for stored in other._data]

    def edge_positions(self) -> list[np.ndarray]:
        """Each graph's edges as sorted pair indices (int64 arrays), in insertion order, without unpacking keys.

        Examples
        --------
        >>> [p.tolist() for p in GraphStore({0b110: 0.0, 0: 1.0}).edge_positions()]
        [[1, 2], []]
        """
        return [self._positions(stored) for stored in self._data]
