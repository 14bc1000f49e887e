"""The exact labelling search: the valid blocks of a configuration space, cached per space, and the
dynamic programme that picks the best regular partition of them (see :mod:`pgmpy_sgm.core.optimize`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from pgmpy_sgm.core._dp_kernels import dominated_blocks, groups_of_blocks, reachable_states, regular_partition
from pgmpy_sgm.core._label_search import PartitionSpace
from pgmpy_sgm.core._local_search_kernels import _mask_weights

__all__ = [
    "MAX_EXACT_CONFIGS",
    "MAX_EXACT_BLOCKS",
    "GAIN_TOL",
    "partition_space",
    "exact_search_fits",
    "exact_groups",
    "exact_center",
    "best_regular_partition",
    "best_partition_by_block",
    "valid_blocks",
]

#: Largest number of parent configurations solved exactly (the DP's tables have ``2**P`` entries).
MAX_EXACT_CONFIGS = 24

#: Largest number of valid blocks of a space that ``method="auto"`` solves exactly.
MAX_EXACT_BLOCKS = 40_000

#: Gain below which two partitions' values tie.
GAIN_TOL = 1e-9

#: Largest number of configurations whose valid blocks get a lookup table by mask (4 MB at 20), so that the
#: programme can skip the blocks that peeling one configuration beats.
MAX_POSITION_CONFIGS = 20


@lru_cache(maxsize=512)
def _space(cards: tuple[int, ...], forbidden: tuple[bool, ...]) -> PartitionSpace:
    return PartitionSpace(cards, forbidden)


@dataclass(frozen=True)
class _ExactStructure:
    blocks: np.ndarray  # int64 bitmasks, sorted by lowest configuration
    member: np.ndarray  # (n_blocks, n_configs) 0/1 float64
    lam: np.ndarray  # block sizes, float64
    leak: np.ndarray  # int64 direction masks
    ptr: np.ndarray
    t_block: np.ndarray
    t_next: np.ndarray
    position: np.ndarray  # int32: each valid block's index by its mask (-1 elsewhere); empty beyond 20 configurations
    singletons: np.ndarray  # int64: the index of each configuration's own block, in configuration order
    n_masks: int
    n_dirs: int


def _valid_blocks(space: PartitionSpace, limit: int | None = None) -> list[int] | None:
    """Singletons, and the unions of allowed lines that are connected and contain no forbidden line;
    None as soon as more than ``limit`` unions of lines are found."""
    lines = [space.line_masks[i] for i in space.allowed]
    seen = set(lines)
    frontier = list(lines)
    while frontier:
        grown = []
        for block in frontier:
            for line in lines:
                if line & block and line & ~block:
                    union = block | line
                    if union not in seen:
                        seen.add(union)
                        grown.append(union)
            if limit is not None and len(seen) > limit:
                return None
        frontier = grown
    valid = [b for b in seen if space.allowed_block(b)]
    return valid + [1 << c for c in range(space.n_configs)]


@lru_cache(maxsize=512)
def exact_search_fits(cards: tuple[int, ...], forbidden: tuple[bool, ...], max_blocks: int = MAX_EXACT_BLOCKS) -> bool:
    """Whether the exact search handles a space: at most :data:`MAX_EXACT_CONFIGS` configurations
    and at most ``max_blocks`` connected unions of lines (counted with an early stop, so the
    check costs at most about ``max_blocks`` unions).

    Parameters
    ----------
    cards : tuple of int
        Parent cardinalities (each >= 2).
    forbidden : tuple of bool
        One flag per direction.
    max_blocks : int
        Bound on the number of valid blocks.

    Returns
    -------
    bool

    Examples
    --------
    >>> exact_search_fits((3, 3, 2), (False,) * 3), exact_search_fits((3, 3, 3), (False,) * 3)
    (True, False)
    """
    if int(np.prod(cards, dtype=np.int64)) > MAX_EXACT_CONFIGS:
        return False
    return _valid_blocks(_space(cards, forbidden), max_blocks) is not None


@lru_cache(maxsize=64)
def _exact_structure(cards: tuple[int, ...], forbidden: tuple[bool, ...]) -> _ExactStructure:
    space = _space(cards, forbidden)
    p = space.n_configs
    blocks = np.array(_valid_blocks(space), dtype=np.int64)
    lowest = np.array([(int(b) & -int(b)).bit_length() - 1 for b in blocks])
    order = np.lexsort((blocks, lowest))
    blocks, lowest = blocks[order], lowest[order]
    bymin_ptr = np.searchsorted(lowest, np.arange(p + 1)).astype(np.int64)
    member = ((blocks[:, None] >> np.arange(p, dtype=np.int64)) & 1).astype(np.float64)
    line_masks = np.array(space.line_masks, dtype=np.int64)
    line_dirs = np.array(space.line_dirs, dtype=np.int64)
    crossing = ((blocks[:, None] & line_masks) != 0) & ((line_masks & ~blocks[:, None]) != 0)
    leak = np.zeros(blocks.size, dtype=np.int64)
    for d in range(space.n_dirs):
        leak |= np.any(crossing[:, line_dirs == d], axis=1).astype(np.int64) << d
    _, ptr, t_block, t_next = reachable_states(p, blocks, bymin_ptr)
    position = np.full(1 << p if p <= MAX_POSITION_CONFIGS else 0, -1, dtype=np.int32)
    if position.size:
        position[blocks] = np.arange(blocks.size, dtype=np.int32)
    singletons = np.flatnonzero(member.sum(axis=1) == 1)  # 1 << c sorts first among the blocks starting at c
    arrays = (blocks, member, member.sum(axis=1), leak, ptr, t_block, t_next, position, singletons)
    for a in arrays:
        a.setflags(write=False)
    return _ExactStructure(*arrays, n_masks=1 << space.n_dirs, n_dirs=space.n_dirs)


def valid_blocks(cards: tuple[int, ...], forbidden: tuple[bool, ...]) -> np.ndarray:
    """The valid blocks of a space as bitmasks, in the order whose weights :func:`best_regular_partition` reads.

    Examples
    --------
    >>> [bin(b) for b in valid_blocks((2, 2), (False, False))][:7]
    ['0b1', '0b11', '0b101', '0b111', '0b1011', '0b1101', '0b1111']
    """
    return _exact_structure(tuple(int(k) for k in cards), tuple(bool(f) for f in forbidden)).blocks


def best_regular_partition(cards, forbidden, weights: np.ndarray, n_rows: int) -> np.ndarray:
    """Exact best regular partition for given block weights (the valid blocks of ``(cards, forbidden)``).

    The weights are per valid block (:func:`_exact_structure`); any objective that is a sum
    over groups of a block weight can use it (the SGM clique score, the BDeu node score of
    labelled DAGs). Returns the group of every configuration, numbered in order of first
    appearance.

    Examples
    --------
    >>> counts = np.array([[30.0, 1.0], [29.0, 2.0], [1.0, 30.0], [2.0, 29.0]])
    >>> cards, forbidden = (2, 2), (False, False)
    >>> # merging both lines of the last parent would delete its edge: regularity keeps one apart
    >>> weights = _mask_weights(valid_blocks(cards, forbidden), counts, 1.0, 0.0)  # the SGM clique score's
    >>> best_regular_partition(cards, forbidden, weights, 4).tolist()
    [0, 1, 2, 2]
    """
    st = _exact_structure(cards, forbidden)
    return groups_of_blocks(st.blocks, _best_blocks(st, weights, n_rows)[0], st.member.shape[1])


def _best_blocks(st: _ExactStructure, weights: np.ndarray, n_rows: int) -> tuple[np.ndarray, float]:
    """The blocks of the best regular partition (each holding the lowest configuration the earlier ones
    leave) and their summed weight.

    Blocks that peeling one configuration beats are skipped (:func:`dominated_blocks`); the
    programme imposes regularity only on the directions its relaxed optimum fails to leak in
    (:func:`~pgmpy_sgm.core._dp_kernels.regular_partition`).
    """
    scale = float(np.abs(weights[st.singletons]).sum())
    tol = max(GAIN_TOL / (n_rows + 1), 1e-14 * scale)
    skip = dominated_blocks(st.blocks, weights, st.position, tol)
    return regular_partition(st.ptr, st.t_block, st.t_next, weights, st.leak, st.n_dirs, tol, skip)


def exact_center(cards: tuple[int, ...], forbidden: tuple[bool, ...], counts: np.ndarray
                 ) -> tuple[np.ndarray, float, float]:  # fmt: skip
    """The exact best groups of one center, their value and the value of every configuration apart.

    The search of :func:`exact_groups` in compiled steps, without input checks (for callers
    that built ``counts`` themselves, such as the score engine). Both values are sums of
    block weights in the programme's order, so the gain of a labelling that keeps every
    configuration apart is exactly 0.

    Parameters
    ----------
    cards, forbidden, counts
        As in :func:`exact_groups`; ``counts`` float64 and C-contiguous.

    Returns
    -------
    group_ids : numpy.ndarray
        The group of every configuration, numbered in order of first appearance.
    value : float
        ``group_weights(counts, group_ids)`` (up to rounding).
    unlabelled : float
        ``group_weights(counts, arange(len(counts)))`` (up to rounding).

    Examples
    --------
    >>> counts = np.array([[40.0, 10.0], [39.0, 11.0], [5.0, 45.0], [41.0, 9.0]])
    >>> group_ids, value, unlabelled = exact_center((2, 2), (False, False), counts)
    >>> group_ids.tolist(), bool(value > unlabelled)
    ([0, 0, 1, 0], True)
    """
    st = _exact_structure(cards, forbidden)
    weights = _mask_weights(st.blocks, counts, 1.0, 0.0)
    chosen, value = _best_blocks(st, weights, counts.shape[0])
    unlabelled = 0.0
    for b in st.singletons[::-1]:  # summed as the programme sums a partition: the last block first
        unlabelled = float(weights[b]) + unlabelled
    return groups_of_blocks(st.blocks, chosen, counts.shape[0]), float(value), unlabelled


def exact_groups(cards, forbidden, counts: np.ndarray) -> np.ndarray:
    """Exact best regular partition for the SGM clique score: the group of every configuration.

    Parameters
    ----------
    cards : tuple of int
        Parent cardinalities (each >= 2; a space for which :func:`exact_search_fits` holds).
    forbidden : tuple of bool
        One flag per direction.
    counts : numpy.ndarray, shape (prod(cards), k)
        Counts of the center's states per configuration (float64).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> counts = np.array([[40.0, 10.0], [39.0, 11.0], [5.0, 45.0], [41.0, 9.0]])
    >>> exact_groups((2, 2), (False, False), counts).tolist()
    [0, 0, 1, 0]
    """
    return exact_center(cards, forbidden, np.ascontiguousarray(counts, dtype=np.float64))[0]


def partition_space(cards, forbidden) -> PartitionSpace:
    """The lines of a configuration space as bitmasks (cached), for heuristic partition searches.

    Parameters
    ----------
    cards : sequence of int
        Cardinalities of the variables other than the center (each >= 2).
    forbidden : sequence of bool
        One flag per variable: no line in that direction may lie inside a block.

    Returns
    -------
    PartitionSpace
        Shared between calls with the same arguments; do not modify.

    Examples
    --------
    >>> partition_space((2, 2), (False, False)).n_configs
    4
    """
    return _space(tuple(int(k) for k in cards), tuple(bool(f) for f in forbidden))


def best_partition_by_block(cards, forbidden, counts, block_weight) -> np.ndarray:
    """Exact best regular partition when the objective is a sum over groups of ``block_weight``.

    Every valid block's counts are pooled (summed over its configurations) and
    ``block_weight(pooled, sizes)`` returns the weight of every valid block, ``pooled``
    of shape ``(n_blocks, r)`` and ``sizes`` the number of configurations per block;
    the dynamic programme of :func:`best_regular_partition` then picks the partition.
    This is how scores other than the SGM clique score (e.g. the BDeu node score of
    labelled DAGs) reuse the exact search.

    Parameters
    ----------
    cards : sequence of int
        Cardinalities (a space for which :func:`exact_search_fits` holds with
        :data:`~pgmpy_sgm.core.optimize.MAX_EXACT_BLOCKS_ON_REQUEST`).
    forbidden : sequence of bool
        One flag per direction.
    counts : numpy.ndarray, shape (prod(cards), r)
        Counts per configuration (C order) and state.
    block_weight : callable
        ``(pooled, sizes) -> weights``, vectorised over blocks.

    Returns
    -------
    numpy.ndarray
        The group of every configuration.

    Examples
    --------
    >>> counts = np.array([[30.0, 1.0], [29.0, 2.0], [1.0, 30.0], [2.0, 29.0]])
    >>> from scipy.special import gammaln
    >>> def weight(pooled, sizes):  # the SGM clique score's block weight, for comparison
    ...     k = pooled.shape[1]
    ...     return (gammaln(k * sizes) - k * gammaln(sizes) - gammaln(pooled.sum(axis=1) + k * sizes)
    ...             + gammaln(pooled + sizes[:, None]).sum(axis=1))
    >>> best_partition_by_block((2, 2), (False, False), counts, weight).tolist()
    [0, 1, 2, 2]
    """
    cards = tuple(int(k) for k in cards)
    forbidden = tuple(bool(f) for f in forbidden)
    counts = np.asarray(counts, dtype=np.float64)
    st = _exact_structure(cards, forbidden)
    pooled = np.einsum("bc,ck->bk", st.member, counts)  # no BLAS threads for this small product
    weights = np.ascontiguousarray(block_weight(pooled, st.lam), dtype=np.float64)
    if weights.shape != st.lam.shape:
        raise ValueError(f"block_weight must return one weight per valid block ({st.lam.size}), got {weights.shape}")
    return best_regular_partition(cards, forbidden, weights, counts.shape[0])
