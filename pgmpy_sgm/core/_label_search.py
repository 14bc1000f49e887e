"""Partitions of parent configurations as bitmasks, and the inexact labelling searches.

A partition is a list of *blocks*, each an ``int`` bitmask over the flat configuration
indices of :mod:`pgmpy_sgm.core.lines`. A block is *valid* when it is one configuration,
or when the lines lying inside it cover and connect it and none of them is in a
forbidden direction. Used by :mod:`pgmpy_sgm.core.optimize`:

* :class:`PartitionSpace` -- lines, leak masks and the connected components of a set;
* :class:`BlockScorer` -- the group weight ``w(B)`` of :func:`~pgmpy_sgm.core.lines.group_weights`;
* :func:`local_search` -- greedy merging of groups joined by a line, then best-improvement
  moves (merge, move one configuration, split along a parent value);
* :func:`random_start` -- the closure of a random label set;
* :func:`label_mcmc` -- the non-reversible Metropolis-Hastings search over maximal regular
  label sets of Nyman et al. (Algorithm 1), with our split deletions and restarts.

The heuristic built on these is in :mod:`pgmpy_sgm.core._lns`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from pgmpy_sgm.core.bitsets import iter_bits
from pgmpy_sgm.core.lines import line_table

__all__ = ["PartitionSpace", "BlockScorer", "local_search", "random_start", "grow_parts", "label_mcmc", "bits"]

#: Smallest gain that counts as an improvement in the local searches.
_MIN_GAIN = 1e-10


@lru_cache(maxsize=1 << 15)
def bits(mask: int) -> tuple[int, ...]:
    """Configurations (bit positions) of a block, in increasing order (memoized: the searches
    ask for the same blocks and lines again and again).

    Examples
    --------
    >>> bits(0b1010)
    (1, 3)
    """
    return tuple(iter_bits(mask))


class PartitionSpace:
    """Lines of a configuration space as bitmasks, with a forbidden flag per direction.

    Parameters
    ----------
    cards : tuple of int
        Parent cardinalities.
    forbidden : tuple of bool
        One flag per direction; a forbidden direction may have no line inside a block.

    Examples
    --------
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> [bin(m) for m in space.line_masks]
    ['0b101', '0b1010', '0b11', '0b1100']
    >>> space.components(0b0111)  # configs 0, 1, 2: joined through config 0
    [7]
    """

    def __init__(self, cards: tuple[int, ...], forbidden: tuple[bool, ...]):
        self.cards = cards
        self.forbidden = forbidden
        self.n_configs = int(np.prod(cards, dtype=np.int64))
        self.n_dirs = len(cards)
        self.full_dirs = (1 << self.n_dirs) - 1
        self.line_masks: list[int] = []
        self.line_dirs: list[int] = []
        for direction, table in enumerate(line_table(cards)):
            for row in table:
                self.line_masks.append(sum(1 << int(c) for c in row))
                self.line_dirs.append(direction)
        self.line_configs = [bits(m) for m in self.line_masks]
        self.allowed = [i for i, d in enumerate(self.line_dirs) if not forbidden[d]]
        self.forbidden_masks = [m for m, d in zip(self.line_masks, self.line_dirs, strict=True) if forbidden[d]]
        self.lines_of_config: list[list[int]] = [[] for _ in range(self.n_configs)]
        for i, mask in enumerate(self.line_masks):
            for c in bits(mask):
                self.lines_of_config[c].append(i)
        # half-spaces {x_d = value} for the split moves
        grid = np.arange(self.n_configs).reshape(cards) if cards else np.zeros(1, dtype=np.int64)
        self.slices = []
        for d, k in enumerate(cards):
            for value in range(k):
                self.slices.append(sum(1 << int(c) for c in np.take(grid, value, axis=d).ravel()))
        self._leak: dict[int, int] = {}
        self._line_arrays: tuple | None = None
        self._kernel_arrays: tuple | None = None
        self._components: dict[int, tuple[int, ...]] = {}
        self._allowed_flags = [not forbidden[d] for d in self.line_dirs]

    def line_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The lines as arrays for compiled kernels (built once).

        Returns
        -------
        line_ptr, line_cfg : int64 arrays
            The configurations of line ``i`` are ``line_cfg[line_ptr[i]:line_ptr[i + 1]]``.
        line_dir : int64 array
            Direction of every line.
        dir_forb : bool array
            Whether each direction is forbidden.

        Examples
        --------
        >>> ptr, cfg, dirs, forb = PartitionSpace((2, 2), (True, False)).line_arrays()
        >>> ptr.tolist(), cfg.tolist(), dirs.tolist(), forb.tolist()
        ([0, 2, 4, 6, 8], [0, 2, 1, 3, 0, 1, 2, 3], [0, 0, 1, 1], [True, False])
        """
        if self._line_arrays is None:
            ptr = np.zeros(len(self.line_configs) + 1, dtype=np.int64)
            ptr[1:] = np.cumsum([len(c) for c in self.line_configs])
            cfg = np.array([c for configs in self.line_configs for c in configs], dtype=np.int64)
            arrays = (ptr, cfg, np.array(self.line_dirs, dtype=np.int64), np.array(self.forbidden, dtype=np.bool_))
            for a in arrays:
                a.setflags(write=False)
            self._line_arrays = arrays
        return self._line_arrays

    def kernel_arrays(self) -> tuple:
        """The space as the compiled local search reads it (built once).

        Returns
        -------
        tuple
            ``line_ptr, line_cfg`` (the configurations of line ``i`` are
            ``line_cfg[line_ptr[i]:line_ptr[i + 1]]``), ``line_dirs``, ``line_allowed`` (False on
            forbidden directions), ``config_ptr, config_lines`` (the lines through each
            configuration), ``slice_ptr, slice_cfg`` (the half-spaces ``{x_d = value}`` of the
            split moves, in :func:`local_search`'s order) and ``full_dirs`` (the mask of every
            direction).

        Examples
        --------
        >>> arrays = PartitionSpace((2, 2), (False, True)).kernel_arrays()
        >>> arrays[1].tolist(), arrays[3].tolist(), arrays[7].tolist(), int(arrays[8])
        ([0, 2, 1, 3, 0, 1, 2, 3], [True, True, False, False], [0, 1, 2, 3, 0, 2, 1, 3], 3)
        """
        if self._kernel_arrays is None:
            config_ptr = np.zeros(self.n_configs + 1, dtype=np.int64)
            config_ptr[1:] = np.cumsum([len(lines) for lines in self.lines_of_config])
            halves = [list(bits(mask)) for mask in self.slices]
            slice_ptr = np.zeros(len(halves) + 1, dtype=np.int64)
            slice_ptr[1:] = np.cumsum([len(h) for h in halves])
            line_ptr, line_cfg, line_dirs, _ = self.line_arrays()
            arrays = (
                line_ptr,
                line_cfg,
                line_dirs,
                np.array(self._allowed_flags, dtype=np.bool_),
                config_ptr,
                np.array([i for lines in self.lines_of_config for i in lines], dtype=np.int64),
                slice_ptr,
                np.array([c for h in halves for c in h], dtype=np.int64),
                np.int64(self.full_dirs),
            )
            for array in arrays[3:8]:
                array.setflags(write=False)
            self._kernel_arrays = arrays
        return self._kernel_arrays

    def leak(self, block: int) -> int:
        """Direction mask of the lines that meet ``block`` without lying inside it."""
        out = self._leak.get(block)
        if out is None:
            out = 0
            seen = set()
            for c in bits(block):
                for i in self.lines_of_config[c]:
                    if i not in seen:
                        seen.add(i)
                        if self.line_masks[i] & ~block:
                            out |= 1 << self.line_dirs[i]
            self._leak[block] = out
        return out

    def allowed_block(self, block: int) -> bool:
        """True when no line of a forbidden direction lies inside ``block``."""
        return all(m & ~block for m in self.forbidden_masks)

    def components(self, subset: int, skip_line: int = -1) -> list[int]:
        """Connected components of ``subset`` through allowed lines inside it (singletons for the rest),
        in increasing order of their masks; ``skip_line`` (a line index) does not connect.

        Components are grown from the lines through each configuration reached; those of
        ``skip_line=-1`` are memoized per subset.

        Examples
        --------
        >>> space = PartitionSpace((2, 2), (False, False))
        >>> space.components(0b1111, skip_line=0), space.components(0b1001)
        ([15], [1, 8])
        """
        if skip_line < 0:
            hit = self._components.get(subset)
            if hit is not None:
                return list(hit)
        line_masks, lines_of_config, allowed = self.line_masks, self.lines_of_config, self._allowed_flags
        comps = []
        left = subset
        while left:
            comp = frontier = left & -left
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                for i in lines_of_config[low.bit_length() - 1]:
                    if allowed[i] and i != skip_line:
                        m = line_masks[i]
                        if m & ~subset == 0 and m & ~comp:
                            frontier |= m & ~comp
                            comp |= m
            comps.append(comp)
            left &= ~comp
        comps.sort()
        if skip_line < 0:
            self._components[subset] = tuple(comps)
        return comps

    def regular(self, blocks: Sequence[int]) -> bool:
        """True when the blocks leak in every direction."""
        acc = 0
        for b in blocks:
            acc |= self.leak(b)
        return acc == self.full_dirs

    def group_ids(self, blocks: Sequence[int]) -> np.ndarray:
        """Group id of every configuration (block order)."""
        out = np.empty(self.n_configs, dtype=np.int64)
        for g, b in enumerate(blocks):
            out[list(bits(b))] = g
        return out


class BlockScorer:
    """Cached group weight ``w(B)`` (see :func:`pgmpy_sgm.core.lines.group_weights`).

    Examples
    --------
    >>> scorer = BlockScorer(np.array([[3, 1], [2, 2]]))
    >>> round(scorer(0b01) + scorer(0b10), 5)
    -6.39693
    """

    def __init__(self, counts2d: np.ndarray):
        self.rows = [tuple(row) for row in np.asarray(counts2d, dtype=np.float64).tolist()]
        self.k = len(self.rows[0]) if self.rows else 0
        self._cache: dict[int, float] = {}
        #: Number of count cells read so far (the work of the weights computed).
        self.work = 0

    def __call__(self, block: int) -> float:
        try:
            return self._cache[block]
        except KeyError:
            pass
        configs = bits(block)
        k = self.k
        self.work += (len(configs) + 1) * (k + 1)
        lam = float(len(configs))
        rows = self.rows
        if len(configs) == 1:
            pooled = rows[configs[0]]
        else:
            pooled = [sum(col) for col in zip(*[rows[c] for c in configs], strict=True)]
        lgamma = math.lgamma
        w = lgamma(k * lam) - lgamma(sum(pooled) + k * lam) - k * lgamma(lam)
        w += sum([lgamma(x + lam) for x in pooled])
        self._cache[block] = w
        return w


def _owner(space: PartitionSpace, blocks: Sequence[int]) -> list[int]:
    owner = [0] * space.n_configs
    for g, b in enumerate(blocks):
        for c in bits(b):
            owner[c] = g
    return owner


def _merge_moves(space: PartitionSpace, blocks: list[int]):
    """(removed block indices, added blocks) for every merge of the groups met by one line."""
    owner = _owner(space, blocks)
    seen = set()
    for i in space.allowed:
        touched = frozenset(owner[c] for c in bits(space.line_masks[i]))
        if len(touched) > 1 and touched not in seen:
            seen.add(touched)
            union = 0
            for g in touched:
                union |= blocks[g]
            if space.allowed_block(union):
                yield touched, [union]


def _detach_moves(space: PartitionSpace, blocks: list[int]):
    """Move one configuration out of its group, alone or into the groups met by one of its lines."""
    for g, block in enumerate(blocks):
        if block & (block - 1) == 0:
            continue
        for c in bits(block):
            single = 1 << c
            rest = space.components(block & ~single)
            yield frozenset([g]), rest + [single]
            after = [b for h, b in enumerate(blocks) if h != g] + rest
            owner = _owner(space, after)
            for i in space.lines_of_config[c]:
                if space.forbidden[space.line_dirs[i]]:
                    continue
                absorbed = {owner[o] for o in bits(space.line_masks[i] & ~single)}
                union = single
                for h in absorbed:
                    union |= after[h]
                if not space.allowed_block(union):
                    continue
                kept = [b for h, b in enumerate(after) if h not in absorbed and b & block]
                removed = {g} | {blocks.index(after[h]) for h in absorbed if not after[h] & block}
                yield frozenset(removed), kept + [union]


def _split_moves(space: PartitionSpace, blocks: list[int]):
    """Cut one group along a parent value (both sides split into their components)."""
    for g, block in enumerate(blocks):
        if block & (block - 1) == 0:
            continue
        for half in space.slices:
            inside = block & half
            if inside and inside != block:
                yield frozenset([g]), space.components(inside) + space.components(block & ~inside)


def _best_move(space, scorer, blocks, generators):
    best_gain, best = _MIN_GAIN, None
    for gen in generators:
        for removed, added in gen(space, blocks):
            gain = sum(scorer(b) for b in added) - sum(scorer(blocks[g]) for g in removed)
            if gain <= best_gain:
                continue
            candidate = [b for h, b in enumerate(blocks) if h not in removed] + list(added)
            if space.regular(candidate):
                best_gain, best = gain, candidate
    return best


def local_search(space: PartitionSpace, scorer: BlockScorer, start: list[int] | None = None) -> list[int]:
    """Greedy line merges from ``start`` (default: singletons), then best-improvement local moves.

    Every partition visited is valid, avoids forbidden lines and is regular.

    Examples
    --------
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25]])
    >>> sorted(local_search(space, BlockScorer(counts)))  # merges configs 0 and 2
    [2, 5, 8]
    """
    blocks = list(start) if start is not None else [1 << c for c in range(space.n_configs)]
    while (nxt := _best_move(space, scorer, blocks, (_merge_moves,))) is not None:
        blocks = nxt
    while (nxt := _best_move(space, scorer, blocks, (_merge_moves, _detach_moves, _split_moves))) is not None:
        blocks = nxt
    return sorted(blocks)


def _closure_blocks(n_configs: int, masks: list[int]) -> list[int]:
    """Groups made by the given lines (connected components of their merges)."""
    blocks = [1 << c for c in range(n_configs)]
    for mask in masks:
        merged = [b for b in blocks if b & mask]
        if len(merged) > 1:
            union = 0
            for b in merged:
                union |= b
            blocks = [b for b in blocks if not b & mask] + [union]
    return blocks


def random_start(space: PartitionSpace, rng: np.random.Generator) -> list[int]:
    """Closure of a random label set (each allowed line with a random probability), if regular.

    Falls back to the singletons after 20 irregular or forbidden draws.

    Examples
    --------
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> space.regular(random_start(space, np.random.default_rng(0)))
    True
    """
    for _ in range(20):
        rate = rng.random() * 0.6
        chosen = [space.line_masks[i] for i in space.allowed if rng.random() < rate]
        blocks = _closure_blocks(space.n_configs, chosen)
        if space.regular(blocks) and all(space.allowed_block(b) for b in blocks):
            return blocks
    return [1 << c for c in range(space.n_configs)]


def grow_parts(space: PartitionSpace, block: int, seeds: list[int], rng: np.random.Generator) -> list[int]:
    """Cut ``block`` into parts grown at random from the configurations ``seeds``.

    Each seed starts a part; the parts grow in turn, each by the free configurations of a
    random allowed line inside ``block`` that meets it, until the block is covered (the
    block must be connected through such lines). Returns the connected components of the
    parts.

    Examples
    --------
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> sorted(grow_parts(space, 0b1111, [0, 3], np.random.default_rng(0)))
    [3, 12]
    """
    inner = [m for m in (space.line_masks[i] for i in space.allowed) if m & ~block == 0]
    parts = [1 << c for c in seeds]
    free = block
    for part in parts:
        free &= ~part
    turn = stuck = 0
    while free and stuck < len(parts):
        frontier = [m & free for m in inner if m & parts[turn] and m & free]
        if frontier:
            pick = frontier[rng.integers(len(frontier))]
            parts[turn] |= pick
            free &= ~pick
            stuck = 0
        else:
            stuck += 1
        turn = (turn + 1) % len(parts)
    out = [1 << c for c in bits(free)]  # unreachable configurations (only if block is not connected)
    for part in parts:
        out.extend(space.components(part))
    return out


def _split_through(space: PartitionSpace, block: int, line: int, rng: np.random.Generator) -> list[int]:
    """Cut ``block`` so that the configurations of ``line`` end in different parts
    (:func:`grow_parts` seeded with them): the labels joining two parts are deleted."""
    return grow_parts(space, block, bits(space.line_masks[line]), rng)


def label_mcmc(
    space: PartitionSpace,
    scorer: BlockScorer,
    n_iter: int,
    rng: np.random.Generator,
    chain_length: int = 0,
    split_deletions: bool = True,
) -> list[int]:
    """Non-reversible Metropolis-Hastings over maximal regular label sets; the best state visited.

    **The paper's Algorithm 1** (Nyman et al.): from the empty label set, each iteration
    proposes to add a random addable label or delete a random label (probability 0.5
    each when both are possible), expands the candidate to its closure (every line
    inside a group is a label), redraws while the candidate is not regular or labels a
    forbidden direction, and accepts it with probability ``min(1, exp(delta))``.

    **Our extensions.** Deleting one label of a group that stays connected without it
    is undone by the closure, so Algorithm 1 is absorbed in states whose additions are
    all worse or irregular and whose deletions are all undone. With ``split_deletions``
    such a deletion instead proposes deleting the whole set of labels that separates
    the configurations of the chosen line into different parts of the group (parts
    grown at random from them, see ``_split_through``); the candidate is the closure
    of what remains, as for any proposal. With ``chain_length > 0`` the ``n_iter``
    iterations are split into independent chains of that length, the first from the
    empty label set and the others from the closure of a random label set
    (:func:`random_start`). The result is the best state visited by any chain; no
    local search is applied to it.

    Examples
    --------
    >>> space = PartitionSpace((2, 2), (False, False))
    >>> counts = np.array([[50, 0], [0, 50], [50, 0], [25, 25]])
    >>> sorted(label_mcmc(space, BlockScorer(counts), 200, np.random.default_rng(0)))
    [2, 5, 8]
    """
    empty = [1 << c for c in range(space.n_configs)]
    blocks, value = empty, sum(scorer(b) for b in empty)
    best, best_value = list(blocks), value
    line_configs = [bits(m) for m in space.line_masks]
    stale = True  # labels and addable lines are recomputed only when the state changes
    for it in range(n_iter):
        if chain_length > 0 and it % chain_length == 0 and it:
            blocks = random_start(space, rng)
            value, stale = sum(scorer(b) for b in blocks), True
        if stale:
            owner, labels, addable = _labels_and_addable(space, blocks, line_configs)
            stale = False
        if not labels and not addable:
            break
        candidate = _propose(space, blocks, owner, (labels, addable), line_configs, rng, split_deletions)
        if candidate is None:
            continue
        cand_value = sum(scorer(b) for b in candidate)
        delta = cand_value - value
        if delta >= 0 or rng.random() < math.exp(delta):
            blocks, value, stale = candidate, cand_value, True
            if value > best_value + _MIN_GAIN or (value > best_value - _MIN_GAIN and len(blocks) > len(best)):
                best, best_value = list(blocks), value
    return sorted(best)


def _labels_and_addable(space: PartitionSpace, blocks: list[int], line_configs: list[list[int]]):
    """The group of every configuration, and the allowed lines inside one group (labels) and across groups."""
    owner = _owner(space, blocks)
    labels, addable = [], []
    for i in space.allowed:
        configs = line_configs[i]
        g = owner[configs[0]]
        (labels if all(owner[c] == g for c in configs) else addable).append(i)
    return owner, labels, addable


def _propose(space: PartitionSpace, blocks: list[int], owner: list[int], lines: tuple, line_configs, rng,
             split_deletions: bool) -> list[int] | None:
    """Up to 100 draws of a proposal of :func:`label_mcmc`; the first regular candidate, or None."""
    for _attempt in range(100):
        cand = _draw_proposal(space, blocks, owner, lines, line_configs, rng, split_deletions)
        if cand is not None and space.regular(cand):
            return cand
    return None


def _draw_proposal(space: PartitionSpace, blocks: list[int], owner: list[int], lines: tuple, line_configs, rng,
                   split_deletions: bool) -> list[int] | None:
    """One proposal: delete a random label (or the labels splitting its group) or add a random addable line
    (``lines`` = (labels, addable)); None when the added union holds a forbidden line."""
    labels, addable = lines
    delete = bool(labels) and (not addable or rng.random() < 0.5)
    if delete:
        line = labels[rng.integers(len(labels))]
        g = owner[line_configs[line][0]]
        removed, added = {g}, space.components(blocks[g], skip_line=line)
        if len(added) == 1 and split_deletions:
            added = _split_through(space, blocks[g], line, rng)
    else:
        line = addable[rng.integers(len(addable))]
        removed = {owner[c] for c in line_configs[line]}
        union = 0
        for g in removed:
            union |= blocks[g]
        if not space.allowed_block(union):
            return None
        added = [union]
    return [b for h, b in enumerate(blocks) if h not in removed] + added
