"""Optimal labellings of one clique: best groups of the center's parent configurations.

For a center ``v`` with ``k`` states and parents with cardinalities ``cards``, the
labelled clique score is, up to a term that does not depend on the labels, the sum
over groups of :func:`~pgmpy_sgm.core.lines.group_weights`. The groups must be those
of a maximal regular labelling that avoids forbidden directions (terminology in
:mod:`pgmpy_sgm.core.lines`):

* every group is one configuration, or the lines inside it cover and connect it;
* no line of a forbidden direction lies inside a group;
* every direction has a line that is not inside one group (regularity).

The optimum is found exactly by a dynamic programme over sets of configurations
(``_dp_kernels``) that carries regularity as a direction mask. Its size is set by the
*valid blocks* of the parents' space (unions of lines that connect them; every group of
a labelling is one): structure depending only on ``(cards, forbidden)`` -- the valid
blocks, their leak masks and the DP transitions -- is built once and cached, at a cost
that grows with the number of valid blocks. The default (``method="auto"``) is therefore
exact when the space has at most :data:`MAX_EXACT_CONFIGS` configurations and at most
:data:`MAX_EXACT_BLOCKS` valid blocks (counted with an early stop); this covers every
space of at most 18 configurations, e.g. four binary parents (37,293 blocks) or parents
with 3, 3 and 2 states (21,480), but not 3, 4 and 2 states (323,740 blocks) nor 2, 2, 2
and 3 states (4,670,228). ``method="exact"`` accepts up to
:data:`MAX_EXACT_BLOCKS_ON_REQUEST` valid blocks (and :data:`MAX_EXACT_CONFIGS`
configurations). Spaces with three 3-state parents or more configurations than
:data:`MAX_EXACT_CONFIGS` (every center of a 4-variable clique of 3-state variables, of a
5-variable clique of multi-state variables) are beyond the exact search.

Beyond it the default heuristic has a deterministic *work cap* (:data:`DEFAULT_MAX_WORK`
work units per center, see ``_agglomerate.WorkBudget``): best-first merging along lines,
then large-neighbourhood search with exact sub-problems of at most 14 atoms (sub-grids,
pairs of groups, all groups, and large groups cut along one parent), then random
restarts, until no move gains or the cap is reached. The paper's stochastic search with
our split deletions (``_label_search``) is available as ``method="mcmc"``.
The result is the best valid regular partition found; ``GroupsResult.capped`` records
that the cap stopped the search. The cost of one center is thus bounded whatever its
size and state counts, and the result does not depend on the machine's load.

Parents with one state (a variable observed in a single state) have no lines: they are
dropped before the search (the flat configuration indices do not change). A center with
one state has nothing to label: every partition has the value 0, and the singletons are
returned.

Ties: among partitions within about ``1e-9`` of the optimum, more groups (fewer labels)
win; then a fixed enumeration order decides.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from pgmpy_sgm.core._agglomerate import WorkBudget
from pgmpy_sgm.core._exact_partition import (
    GAIN_TOL,
    MAX_EXACT_BLOCKS,
    MAX_EXACT_CONFIGS,
    best_partition_by_block,
    exact_groups,
    exact_search_fits,
    partition_space,
)
from pgmpy_sgm.core._label_search import BlockScorer, label_mcmc
from pgmpy_sgm.core._lns import bounded_heuristic
from pgmpy_sgm.core.labelling import CliqueLabelling
from pgmpy_sgm.core.lines import canonical_groups, group_weights

__all__ = [
    "GroupsResult",
    "CliqueLabelling",
    "optimal_groups",
    "solved_exactly",
    "cached_solved_exactly",
    "optimal_clique_labelling",
    "combine_centers",
    "MAX_EXACT_CONFIGS",
    "MAX_EXACT_BLOCKS",
    "MAX_EXACT_BLOCKS_ON_REQUEST",
    "DEFAULT_MAX_WORK",
    "FAST_EXACT_CONFIGS",
    "FAST_EXACT_BLOCKS",
    "FAST_MAX_WORK",
    "FAST_MAX_ATOMS",
    "partition_space",
    "exact_search_fits",
    "best_partition_by_block",
]

#: Largest number of valid blocks of a space that ``method="exact"`` accepts.
MAX_EXACT_BLOCKS_ON_REQUEST = 400_000

#: Default number of iterations of ``method="mcmc"`` (Algorithm 1 of Nyman et al.).
DEFAULT_MCMC_ITER = 4000

#: Length of each independent chain of ``method="mcmc"`` (the first from the empty label set,
#: the others from the closure of a random label set).
MCMC_CHAIN_LENGTH = 1000

#: Random restarts of ``method="heuristic"`` (within its work cap) after the first search.
DEFAULT_BOUNDED_RESTARTS = 4

#: ``method="fast"``: exact up to this many parent configurations, heuristic beyond (but see
#: :data:`FAST_EXACT_BLOCKS`).
FAST_EXACT_CONFIGS = 16

#: ``method="fast"``: exact also for spaces of 17 or 18 configurations with at most this many valid
#: blocks (two parents, e.g. 3 and 6 states: 400 blocks; not 3, 3 and 2 states: 21,480).
FAST_EXACT_BLOCKS = 2_000

#: ``method="fast"``: work units per center of its heuristic (no restarts).
FAST_MAX_WORK = 10_000_000

#: ``method="fast"``: largest number of atoms of one sub-problem of its heuristic.
FAST_MAX_ATOMS = 10

#: Work units one center's ``method="heuristic"`` may spend (a unit is about one transition of a
#: sub-problem's compiled dynamic programme, see ``_agglomerate.WorkBudget``).
DEFAULT_MAX_WORK = 200_000_000

_METHODS = ("auto", "fast", "exact", "heuristic", "mcmc")

#: Methods that were removed, with what to use instead.
_REMOVED_METHODS = {
    "lns": "method='lns' (the earlier unbounded heuristic) was removed; method='heuristic' "
    "searches the same neighbourhoods with restarts under a work cap",
}


@dataclass(frozen=True)
class GroupsResult:
    """Best groups of one center's parent configurations.

    Attributes
    ----------
    group_ids : numpy.ndarray
        Canonical group of every configuration (:func:`~pgmpy_sgm.core.lines.canonical_groups`).
    value : float
        ``group_weights(counts2d, group_ids)``.
    exact : bool
        True when the groups are proven optimal.
    method : str
        ``"exact"``, ``"heuristic"`` or ``"mcmc"``.
    capped : bool
        True when the work cap of ``"heuristic"`` stopped the search before it had
        converged: the groups are the best found by then.

    Examples
    --------
    >>> res = GroupsResult(np.array([0, 1]), -6.4, True, "exact")
    >>> res.method
    'exact'
    """

    group_ids: np.ndarray
    value: float
    exact: bool
    method: str
    capped: bool = False


# ----------------------------------------------------------------------------- input checks


def _check_method(method) -> None:
    if method in _REMOVED_METHODS:
        raise ValueError(_REMOVED_METHODS[method])
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")


def _check_cards(cards) -> tuple[int, ...]:
    try:
        out = tuple(int(k) for k in cards)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"cards must be a sequence of integers, got {cards!r}") from exc
    if any(k < 1 for k in out):
        raise ValueError(f"every cardinality in cards must be >= 1, got {out}")
    return out


def _check_counts2d(counts2d, cards: tuple[int, ...]) -> np.ndarray:
    counts = np.asarray(counts2d, dtype=np.float64)
    n_configs = int(np.prod(cards, dtype=np.int64))
    if counts.ndim != 2 or counts.shape[0] != n_configs or counts.shape[1] < 1:
        raise ValueError(
            f"counts2d must have shape (prod(cards), k) = ({n_configs}, k) for cards {cards}, got {counts.shape}"
        )
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError("counts2d must hold finite non-negative counts")
    return counts


def _check_forbidden(forbidden, n_dirs: int) -> tuple[bool, ...]:
    if forbidden is None:
        return (False,) * n_dirs
    arr = np.asarray(list(forbidden))
    if arr.size == 0:
        return (False,) * n_dirs
    if arr.dtype == bool:
        if arr.shape != (n_dirs,):
            raise ValueError(f"forbidden flags must have one entry per direction ({n_dirs}), got {arr.shape[0]}")
        return tuple(bool(x) for x in arr)
    if not np.issubdtype(arr.dtype, np.integer) or arr.ndim != 1:
        raise TypeError(f"forbidden must be bool flags or direction indices, got {forbidden!r}")
    if np.any(arr < 0) or np.any(arr >= n_dirs):
        raise ValueError(f"forbidden direction out of range 0..{n_dirs - 1}: {arr.tolist()}")
    flags = [False] * n_dirs
    for d in arr:
        flags[int(d)] = True
    return tuple(flags)


# ----------------------------------------------------------------------------- public API


def optimal_groups(
    counts2d,
    cards,
    forbidden=None,
    method: str = "auto",
    seed: int | None = 0,
    n_iter: int | None = None,
    max_work: int | None = DEFAULT_MAX_WORK,
) -> GroupsResult:
    """Best maximal regular groups of one center's parent configurations.

    Parameters
    ----------
    counts2d : array_like, shape (prod(cards), k)
        Counts of the center's ``k`` states (columns) for every parent configuration
        (rows, flat C order as in :mod:`pgmpy_sgm.core.lines`).
    cards : sequence of int
        Parent cardinalities (each >= 1; a parent with one state has no lines).
    forbidden : sequence of bool, or iterable of int, optional
        Per-direction flags, or the indices of the directions whose lines may not be labels.
    method : {"auto", "fast", "exact", "heuristic", "mcmc"}
        ``"auto"`` is exact when the space has at most :data:`MAX_EXACT_CONFIGS`
        configurations and :data:`MAX_EXACT_BLOCKS` valid blocks
        (:func:`exact_search_fits`), heuristic beyond. ``"fast"`` is the cheaper schedule that
        structure searches use for the many cliques they try: exact up to
        :data:`FAST_EXACT_CONFIGS` configurations (18 with at most :data:`FAST_EXACT_BLOCKS`
        valid blocks), beyond it the heuristic with sub-problems
        of at most :data:`FAST_MAX_ATOMS` atoms, no restarts and at most
        :data:`FAST_MAX_WORK` work units (or ``max_work`` if smaller); its value never
        exceeds the optimum, and is often below ``"auto"``'s beyond 16 configurations.
        ``"exact"`` accepts spaces of up to :data:`MAX_EXACT_BLOCKS_ON_REQUEST` valid blocks
        (a structure ten times larger to build).
        ``"heuristic"``: best-first merging along lines (the merge of the groups met by one
        line that gains most and keeps the partition valid and regular, until none gains),
        then large-neighbourhood search that re-solves exactly (by a dynamic programme) one
        sub-grid of at most 8 configurations, two adjacent groups, the merging of all
        groups, or a large group cut along one parent's values at a time (sub-problems of
        at most 14 atoms), with validity and regularity
        checked on the whole partition; then random restarts (groups grown at random from
        a few configurations), all within ``max_work`` work units. (``"lns"``, the earlier
        unbounded heuristic, was removed: asking for it raises ValueError.)
        ``"mcmc"``: the stochastic search of Nyman et al.
        (Algorithm 1) with two additions of ours: a deletion that the closure would undo
        proposes deleting the set of labels that splits the group through the chosen
        line, and the iterations are split into restarted chains of
        :data:`MCMC_CHAIN_LENGTH` (see ``_label_search.label_mcmc``).
    seed : int or None
        Seed of the random choices of ``"heuristic"`` and ``"mcmc"``.
    n_iter : int, optional
        Iterations of ``"mcmc"`` (default :data:`DEFAULT_MCMC_ITER`), random restarts of
        ``"heuristic"`` (default :data:`DEFAULT_BOUNDED_RESTARTS`).
    max_work : int or None
        Work cap of ``"heuristic"`` (default :data:`DEFAULT_MAX_WORK`; None for no cap).
        Deterministic: the same input gives the same groups on any machine and load.

    Returns
    -------
    GroupsResult

    Raises
    ------
    ValueError
        If the shape of ``counts2d`` does not match ``cards``, a count is negative, the
        method is unknown or removed (``"lns"``), or ``method="exact"`` is asked for a space
        beyond the exact search (see :func:`exact_search_fits`).

    Examples
    --------
    >>> counts = np.array([[40, 10], [39, 11], [5, 45], [41, 9]])  # parents (2, 2)
    >>> res = optimal_groups(counts, (2, 2))
    >>> res.group_ids.tolist(), res.exact
    ([0, 0, 1, 0], True)
    >>> optimal_groups(counts, (2, 2), forbidden=[True, False]).group_ids.tolist()
    [0, 0, 1, 2]
    """
    _check_method(method)
    if max_work is not None and (not isinstance(max_work, int | np.integer) or max_work < 0):
        raise ValueError(f"max_work must be a non-negative integer or None, got {max_work!r}")
    cards = _check_cards(cards)
    counts = _check_counts2d(counts2d, cards)
    flags = _check_forbidden(forbidden, len(cards))
    # one-state parents have no lines; dropping them keeps every flat configuration index
    flags = tuple(f for f, k in zip(flags, cards, strict=True) if k > 1)
    cards = tuple(k for k in cards if k > 1)
    n_configs = counts.shape[0]
    trivial = n_configs == 1 or counts.shape[1] == 1
    method, n_iter, max_atoms, max_work = _schedule(method, cards, flags, n_configs, trivial, n_iter, max_work)
    capped = False
    if trivial:
        # nothing to label: one configuration, or a one-state center (every partition scores 0)
        group_ids = np.arange(n_configs, dtype=np.int64)
        method = "exact"
    elif method == "exact":
        group_ids = exact_groups(cards, flags, counts)
    else:
        group_ids, capped = _inexact_groups(method, cards, flags, counts, seed, n_iter, max_work, max_atoms)
    group_ids = canonical_groups(group_ids)
    group_ids.setflags(write=False)
    return GroupsResult(group_ids, group_weights(counts, group_ids), method == "exact", method, capped)


def solved_exactly(cards, flags, method: str, n_states: int) -> bool:
    """Whether :func:`optimal_groups` solves a center's space by the exact search (with default settings).

    True for a space that is not trivial (at least two configurations, a center of at least
    two states, every parent of at least two states) when ``method`` resolves to
    ``"exact"`` there; :func:`~pgmpy_sgm.core._exact_partition.exact_center` then finds the
    same groups without the input checks.

    Parameters
    ----------
    cards : sequence of int
        Parent cardinalities.
    flags : sequence of bool, or iterable of int
        As ``forbidden`` of :func:`optimal_groups`.
    method : str
        As in :func:`optimal_groups`.
    n_states : int
        The center's number of states.

    Raises
    ------
    ValueError
        For an unknown method, a cardinality or ``n_states`` below 1, or flags that do not
        match the parents.

    Examples
    --------
    >>> solved_exactly((2, 2), (False, False), "fast", 2), solved_exactly((2, 1), (False, False), "fast", 2)
    (True, False)
    """
    _check_method(method)
    cards = _check_cards(cards)
    if isinstance(n_states, bool) or not isinstance(n_states, int | np.integer) or n_states < 1:
        raise ValueError(f"n_states must be a positive int (the center's states), got {n_states!r}")
    return cached_solved_exactly(cards, _check_forbidden(flags, len(cards)), method, int(n_states))


@functools.lru_cache(maxsize=4096)
def cached_solved_exactly(cards: tuple[int, ...], flags: tuple[bool, ...], method: str, n_states: int) -> bool:
    """:func:`solved_exactly` on checked arguments (tuples), cached: for callers that built them themselves.

    Examples
    --------
    >>> cached_solved_exactly((2, 2, 2), (False, True, False), "fast", 3)
    True
    """
    if n_states < 2 or any(k < 2 for k in cards):
        return False
    n_configs = math.prod(cards)
    return n_configs > 1 and _schedule(method, cards, flags, n_configs, False, None, None)[0] == "exact"


def _schedule(method: str, cards: tuple, flags: tuple, n_configs: int, trivial: bool, n_iter, max_work):
    """The search that :func:`optimal_groups` runs for ``method`` on a space: the method resolved to
    ``"exact"``, ``"heuristic"`` or ``"mcmc"``, its iterations, largest sub-problem and work cap."""
    if method == "exact" and not trivial and not exact_search_fits(cards, flags, MAX_EXACT_BLOCKS_ON_REQUEST):
        raise ValueError(
            f"method='exact' handles at most {MAX_EXACT_CONFIGS} parent configurations and "
            f"{MAX_EXACT_BLOCKS_ON_REQUEST} valid blocks; parents with cards {cards} (P={n_configs}) have more"
        )
    max_atoms = None
    if method == "fast":
        few_blocks = n_configs <= 18 and exact_search_fits(cards, flags, FAST_EXACT_BLOCKS)
        small = n_configs <= FAST_EXACT_CONFIGS or few_blocks
        method = "exact" if trivial or small else "heuristic"
        if method == "heuristic":
            n_iter, max_atoms = 0, FAST_MAX_ATOMS
            max_work = FAST_MAX_WORK if max_work is None else min(int(max_work), FAST_MAX_WORK)
    if method == "auto":
        method = "exact" if trivial or exact_search_fits(cards, flags) else "heuristic"
    if n_iter is not None and (not isinstance(n_iter, int | np.integer) or n_iter < 0):
        raise ValueError(f"n_iter must be a non-negative integer, got {n_iter!r}")
    return method, n_iter, max_atoms, max_work


def _inexact_groups(method: str, cards: tuple, flags: tuple, counts: np.ndarray, seed, n_iter, max_work, max_atoms):
    """Groups found by ``"heuristic"`` or ``"mcmc"``, and whether the work cap stopped the search."""
    space = partition_space(cards, flags)
    scorer = BlockScorer(counts)
    rng = np.random.default_rng(seed)
    if method == "heuristic":
        restarts = DEFAULT_BOUNDED_RESTARTS if n_iter is None else int(n_iter)
        budget = WorkBudget(None if max_work is None else int(max_work), scorer)
        blocks = bounded_heuristic(space, scorer, counts, budget, rng, restarts, max_atoms)
        return space.group_ids(blocks), budget.exhausted
    n_total = DEFAULT_MCMC_ITER if n_iter is None else int(n_iter)
    return space.group_ids(label_mcmc(space, scorer, n_total, rng, MCMC_CHAIN_LENGTH)), False


def check_pairs(forbidden_pairs, n_vars: int) -> set[frozenset]:
    """``forbidden_pairs`` as a set of index pairs, checked to be pairs of distinct indices below ``n_vars``.

    Examples
    --------
    >>> check_pairs([(0, 2), (2, 0)], 3) == {frozenset({0, 2})}
    True
    >>> check_pairs([(0, 3)], 3)
    Traceback (most recent call last):
        ...
    ValueError: forbidden pair (0, 3) is not a pair of distinct indices in 0..2
    """
    out = set()
    for pair in forbidden_pairs:
        try:
            i, j = (int(x) for x in pair)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"forbidden_pairs must hold (i, j) index pairs, got {pair!r}") from exc
        if not (0 <= i < n_vars and 0 <= j < n_vars) or i == j:
            raise ValueError(f"forbidden pair {pair!r} is not a pair of distinct indices in 0..{n_vars - 1}")
        out.add(frozenset((i, j)))
    return out


def optimal_clique_labelling(
    counts,
    forbidden_pairs: Iterable[tuple[int, int]] = (),
    method: str = "auto",
    seed: int | None = 0,
    max_work: int | None = DEFAULT_MAX_WORK,
) -> CliqueLabelling:
    """Best center and groups of a clique, over every choice of center.

    Parameters
    ----------
    counts : array_like
        Contingency table of the clique (axis ``i`` = variable ``i``, shape = cardinalities).
    forbidden_pairs : iterable of (int, int)
        Index pairs whose edge lies in a separator; such an edge carries no label.
    method, seed, max_work
        As in :func:`optimal_groups`, used for every center (``max_work`` per center).

    Returns
    -------
    CliqueLabelling
        The center with the largest gain over the unlabelled clique (lowest index on
        ties); unlabelled (``center=None``, gain 0) unless some gain exceeds ``1e-9``.
        Cliques of fewer than 3 variables are never labelled; a variable with one
        state has no lines and is never the center of a labelling.

    Raises
    ------
    ValueError
        If ``counts`` has a negative entry, an empty axis, or a bad pair, or the method is
        unknown or removed.

    Examples
    --------
    >>> counts = np.array([[[249, 255], [482, 0]], [[257, 247], [0, 510]]])  # axes X0, X1, X2
    >>> # X2 copies X0 when X1 = 1 and is independent of it when X1 = 0
    >>> lab = optimal_clique_labelling(counts)
    >>> lab.center, lab.group_ids.tolist()  # center X0, parents (X1, X2): configs with X1=0 merged
    (0, [0, 0, 1, 2])
    """
    arr = np.asarray(counts, dtype=np.float64)
    if arr.ndim >= 1 and any(k < 1 for k in arr.shape):
        raise ValueError(f"every axis of counts must have length >= 1, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError("counts must hold finite non-negative counts")
    _check_method(method)
    n_vars = arr.ndim
    pairs = check_pairs(forbidden_pairs, n_vars)
    if n_vars < 3:
        return CliqueLabelling(None, None, 0.0, True, "exact")
    candidates = []
    for center in range(n_vars):
        parents = [u for u in range(n_vars) if u != center]
        cards = tuple(arr.shape[u] for u in parents)
        counts2d = np.moveaxis(arr, center, -1).reshape(-1, arr.shape[center])
        flags = [frozenset((center, u)) in pairs for u in parents]
        res = optimal_groups(counts2d, cards, flags, method=method, seed=seed, max_work=max_work)
        candidates.append((center, res, res.value - group_weights(counts2d, np.arange(counts2d.shape[0]))))
    return combine_centers(candidates)


def combine_centers(candidates) -> CliqueLabelling:
    """The clique's labelling from the optimum at each center: the largest gain wins.

    Parameters
    ----------
    candidates : iterable of (center, GroupsResult, gain)
        In increasing center order; ``gain`` is the result's value minus the value of
        the all-singletons partition at that center.

    Returns
    -------
    CliqueLabelling
        The lowest center among those within ``1e-9`` of the largest gain; unlabelled
        unless some gain exceeds ``1e-9``.

    Examples
    --------
    >>> a = GroupsResult(np.array([0, 0, 1, 2]), -5.0, True, "exact")
    >>> b = GroupsResult(np.array([0, 1, 2, 2]), -4.0, True, "exact")
    >>> combine_centers([(0, a, 0.5), (1, b, 0.5)]).center
    0
    >>> combine_centers([(0, a, 0.0)]).center is None
    True
    """
    best: tuple[int, GroupsResult, float] | None = None
    all_exact, capped, methods = True, False, set()
    for center, res, gain in candidates:
        all_exact &= res.exact
        capped |= bool(getattr(res, "capped", False))
        methods.add(res.method)
        if gain > GAIN_TOL and (best is None or gain > best[2] + GAIN_TOL):
            best = (center, res, gain)
    if best is None:
        name = "exact" if methods <= {"exact"} else sorted(methods - {"exact"})[0]
        return CliqueLabelling(None, None, 0.0, all_exact, name, capped)
    center, res, gain = best
    return CliqueLabelling(center, res.group_ids, float(gain), all_exact, res.method, capped)
