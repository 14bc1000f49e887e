"""Graphs by key, stored by their edges: a mapping whose memory follows the graphs, not all pairs.

A graph key is an int whose bits are the pairs of variables joined by an edge
(:mod:`pgmpy_sgm.core.moves`). Over d variables it is d(d-1)/2 bits wide whatever the
graph: 15.6 kB at 500 variables, 62 kB at 1,000. A search at that width visits thousands of
sparse graphs, so :class:`GraphStore` keeps a wide key as the gaps between the positions of
its edges, each a variable-length unsigned integer (LEB128: seven bits per byte, the high bit
set on every byte but a number's last), and gives the int back when asked: one or two bytes
per edge where the edges are hundreds of pairs apart. Narrow keys are kept as they are.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, MutableMapping

import numpy as np

from pgmpy_sgm.core._gap_kernels import mask_bytes, pack_mask_words, pack_sorted_positions, unpack_gaps
from pgmpy_sgm.core.bitsets import WIDE_MASK_BITS, bit_positions

__all__ = ["GraphStore", "PAIR_SUM_CHUNK_EDGES", "pack_positions", "unpack_positions"]

#: Edges read at a time by :meth:`GraphStore.weighted_pair_sums` (8 MB of positions as int64).
PAIR_SUM_CHUNK_EDGES = 1 << 20

#: The bytes with the high bit set: every byte of a packed gap but its last.
_CONTINUATION_BYTES = bytes(range(0x80, 0x100))


def pack_positions(positions: np.ndarray) -> bytes:
    """Increasing non-negative positions as the LEB128 bytes of their gaps (the first gap counted from -1).

    Examples
    --------
    >>> pack_positions(np.array([0, 5, 300])).hex()  # gaps 1, 5 and 295 = 0b10_0100111
    '0105a702'
    """
    positions = np.asarray(positions)
    if positions.ndim != 1 or (len(positions) and not np.issubdtype(positions.dtype, np.integer)):
        raise TypeError(f"positions must be a 1-D array of integers. Got shape {positions.shape}, "
                        f"dtype {positions.dtype}")  # fmt: skip
    positions = np.ascontiguousarray(positions, dtype=np.int64)
    if len(positions) and np.diff(positions, prepend=-1).min() < 1:
        raise ValueError("positions must be non-negative and increase strictly")
    return pack_sorted_positions(positions).tobytes()


def unpack_positions(packed: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """The positions held by :func:`pack_positions` strings: all in one int64 array, and how many each holds.

    Examples
    --------
    >>> flat, counts = unpack_positions([pack_positions(np.array([0, 5, 300])), b"", pack_positions(np.array([7]))])
    >>> flat.tolist(), counts.tolist()
    ([0, 5, 300, 7], [3, 0, 1])
    """
    packed = list(packed)
    for k, string in enumerate(packed):
        if not isinstance(string, bytes) or (string and string[-1] & 0x80):
            raise ValueError(f"packed[{k}] is not a string of pack_positions (bytes whose last byte ends a gap): "
                             f"{string!r:.60}")  # fmt: skip
    lengths = np.fromiter(map(len, packed), dtype=np.int64, count=len(packed))
    return unpack_gaps(np.frombuffer(b"".join(packed), dtype=np.uint8), lengths)


def _pack_key(key: int) -> bytes:
    """:func:`pack_positions` of a key's set bits, read from its 64-bit words."""
    n_words = (key.bit_length() + 63) // 64
    return pack_mask_words(np.frombuffer(key.to_bytes(8 * n_words, "little"), dtype="<u8")).tobytes()


class GraphStore(MutableMapping):
    """A dict from graph keys (non-negative ints) to values, keeping wide keys as the gaps between their edges.

    It behaves as a dict with int keys (insertion order, lookups, iteration yielding the
    int keys). A key wider than :data:`~pgmpy_sgm.core.bitsets.WIDE_MASK_BITS` bits is
    stored as the gaps between the positions of its set bits (:func:`pack_positions`), so
    memory grows with the edges of the graphs held rather than with every pair of variables.

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
        packed = _pack_key(key)
        cls._last_packed = (key, packed)
        return packed

    @staticmethod
    def _unpacked(stored) -> int:
        if isinstance(stored, int):
            return stored
        positions = unpack_positions([stored])[0]  # never empty: a wide key has its highest bit set
        return int.from_bytes(mask_bytes(positions).tobytes(), "little")

    @staticmethod
    def _positions(stored) -> np.ndarray:
        if isinstance(stored, int):
            return bit_positions(stored)
        return unpack_positions([stored])[0]

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

    def edge_positions(self, rows=None) -> list[np.ndarray]:
        """Each graph's edges as sorted pair indices (int64 arrays), without unpacking keys.

        Parameters
        ----------
        rows : sequence of int, optional
            Insertion positions of the graphs wanted, in the order wanted (default: every
            graph, in insertion order).

        Examples
        --------
        >>> store = GraphStore({0b110: 0.0, 0: 1.0})
        >>> [p.tolist() for p in store.edge_positions()], [p.tolist() for p in store.edge_positions([1, 0])]
        ([[1, 2], []], [[], [1, 2]])
        """
        if rows is None:
            return [self._positions(stored) for stored in self._data]
        stored = list(self._data)
        return [self._positions(stored[r]) for r in rows]

    def edge_counts(self) -> np.ndarray:
        """Each graph's number of edges, in insertion order, read from the stored form (no arrays built).

        Examples
        --------
        >>> GraphStore({0b110: 0.0, 0: 1.0, 1 << 5000 | 1: 2.0}).edge_counts().tolist()
        [2, 0, 2]
        """
        return np.fromiter(map(_edge_count, self._data), dtype=np.int64, count=len(self._data))

    def weighted_pair_sums(self, weights, n_pairs: int, rows=None) -> np.ndarray:
        """For each pair index, the sum of the weights of the graphs holding it as an edge.

        The graphs are read in chunks of at most :data:`PAIR_SUM_CHUNK_EDGES` edges, so the
        memory used follows one chunk, not every visited graph's edges at once (the wide
        graphs' edges of a chunk are unpacked together). Within a chunk the weights
        are added in the order of ``rows``; a store that fits one chunk gives the sums of a
        single ``numpy.bincount`` over all its graphs' edges.

        Parameters
        ----------
        weights : array-like of float
            One weight per graph of ``rows`` (or per graph, in insertion order); or a 2-D
            array, one such row of weights per sum wanted (the graphs are then read once for
            all of them).
        n_pairs : int
            Length of the result (pair indices must be below it).
        rows : sequence of int, optional
            Insertion positions of the graphs to sum over, in order (default: every graph).

        Examples
        --------
        >>> store = GraphStore({0b011: 0.0, 0b110: 0.0, 1 << 3000 | 0b1: 0.0})
        >>> sums = store.weighted_pair_sums([0.5, 0.25, 0.25], 3001)
        >>> sums[[0, 1, 2, 3000]].tolist()
        [0.75, 0.75, 0.25, 0.25]
        >>> store.weighted_pair_sums([1.0], 3001, rows=[1])[:3].tolist()
        [0.0, 1.0, 1.0]
        >>> store.weighted_pair_sums([[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]], 3001)[:, [0, 1, 2, 3000]].tolist()
        [[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]]
        """
        weights = np.asarray(weights, dtype=np.float64)
        n_graphs = len(self) if rows is None else len(rows)
        if weights.ndim not in (1, 2) or weights.shape[-1] != n_graphs:
            raise ValueError(f"weights must hold one weight per graph summed over ({n_graphs}), in one row or a 2-D "
                             f"array of rows. Got shape {weights.shape}.")  # fmt: skip
        if rows is not None:
            outside = [r for r in rows if not 0 <= r < len(self)]
            if outside:
                raise ValueError(f"rows must be insertion positions below {len(self)}. Got: {outside[0]!r}")
        stored = list(self._data) if rows is not None else None
        graphs = (stored[r] for r in rows) if rows is not None else iter(self._data)
        total, chunk, counts, size, start = None, [], [], 0, 0
        for i, item in enumerate(graphs):
            chunk.append(item)
            counts.append(_edge_count(item))
            size += counts[-1]
            if size >= PAIR_SUM_CHUNK_EDGES:
                total = _add_pair_sums(total, chunk, weights[..., start : i + 1], counts, n_pairs)
                chunk, counts, size, start = [], [], 0, i + 1
        if chunk or total is None:
            total = _add_pair_sums(total, chunk, weights[..., start:], counts, n_pairs)
        return total


def _edge_count(stored) -> int:
    """The edges of a stored key: its bits, or its packed gaps (bytes without the high bit)."""
    if isinstance(stored, int):
        return stored.bit_count()
    return len(stored.translate(None, _CONTINUATION_BYTES))


def _stored_positions(chunk: list) -> np.ndarray:
    """The edges of stored keys, concatenated in order (packed ones unpacked together)."""
    if all(isinstance(stored, bytes) for stored in chunk):
        return unpack_positions(chunk)[0]
    arrays = [GraphStore._positions(stored) for stored in chunk]
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)


def _add_pair_sums(total, chunk: list, weights: np.ndarray, counts: list, n_pairs: int) -> np.ndarray:
    """``total`` (None: nothing yet) plus the weighted pair counts of one chunk of stored keys (rows of weights)."""
    flat = _stored_positions(chunk) if chunk and sum(counts) else np.zeros(0, dtype=np.int64)
    if len(flat) and flat.max() >= n_pairs:
        raise ValueError(f"A graph holds pair index {int(flat.max())}, but n_pairs is {n_pairs}.")

    def summed(row: np.ndarray) -> np.ndarray:
        return np.bincount(flat, weights=np.repeat(row, counts), minlength=n_pairs)[:n_pairs]

    if weights.ndim == 1:
        sums = summed(weights)
    else:
        sums = np.zeros((len(weights), n_pairs))
        for r, row in enumerate(weights):
            sums[r] = summed(row)
    return sums if total is None else total + sums
