"""A row's missing cells in independent parts, when the model's factors are known.

=========== ======================================================================
term        meaning
=========== ======================================================================
scope       the columns one factor of the model reads (a family of a Bayesian
            network, a clique of a decomposable model)
part        a set of a row's missing columns joined through scopes; given the
            observed cells, the parts of a row are independent
unit        a part's completions and their posterior, shared by the parts of every
            row that read the same cells (the part's columns and the observed
            cells of the scopes touching it)
=========== ======================================================================

A model whose log probability is a sum of terms, each over one scope, makes the posterior of
an incomplete row's missing cells a product over its parts: two missing cells in no common
scope, not even through other missing cells, interact only through observed cells. Each part
is then completed on its own, with the other missing cells fixed at a reference state (state
0): its completions' log probabilities differ from the joint ones only by a constant. A row
whose reference completion has probability zero cannot be split this way (the constant is
``-inf``); the caller completes it whole.

On the parts this module finds, exactly:

- the observed-data log probability of a row: its reference completion's, plus for each part
  the log of its summed probabilities over that of its reference completion
  (:func:`row_log_probability`);
- the ``k`` most probable completions of a row (a beam over the parts, exact for the top ``k``)
  and systematic draws from the rest of its posterior (:func:`head_and_tail_rows`);
- a small table of completions that has the exact posterior of every part, so the exact
  expected counts of any set of variables inside one scope (:func:`coupled_rows`): the parts'
  posteriors coupled on one uniform number instead of crossed, at most the sum of the parts'
  completions per row instead of their product.

A ``log_probability`` callable declares its scopes with :func:`with_scopes`; without them every
missing cell of a row is one part (the whole-row enumeration). With its terms declared too, a
unit's completions are scored by the terms that read its part only. The parts and the units
depend on the rows and the scopes only; :func:`split_rows` can keep them in a cache for EM's
next E-step under the same structure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

__all__ = ["with_scopes", "scopes_of", "local_log_probability", "Parts", "part_sizes", "split_rows", "splittable",
           "row_log_probability", "head_and_tail_rows", "coupled_rows"]  # fmt: skip


LogProbability = Callable[[np.ndarray], np.ndarray]


def with_scopes(log_probability: LogProbability, scopes, terms: Sequence[LogProbability] | None = None,
                ) -> LogProbability:  # fmt: skip
    """``log_probability`` with its factor scopes (column positions) declared, for the E-step.

    The declaration promises that the log probability of a complete row is a sum of terms
    each reading only the columns of one scope; a column in no scope is read by no term.
    ``terms``, when given, are those terms (one callable per scope, each taking complete
    rows of codes): their sum may differ from ``log_probability`` by a constant. A Gibbs
    update of one column then reads only the terms around it (:func:`local_log_probability`).

    Examples
    --------
    >>> f = with_scopes(lambda codes: np.zeros(len(codes)), [(0, 1), [2]])
    >>> scopes_of(f)
    ((0, 1), (2,))
    """
    log_probability.scopes = tuple(tuple(int(j) for j in scope) for scope in scopes)
    if terms is not None:
        terms = tuple(terms)
        if len(terms) != len(log_probability.scopes):
            raise ValueError(f"One term per scope: got {len(terms)} terms for {len(log_probability.scopes)} scopes.")
    log_probability.terms = terms
    return log_probability


def scopes_of(log_probability) -> tuple | None:
    """The scopes declared by :func:`with_scopes`, or None.

    Examples
    --------
    >>> scopes_of(lambda codes: codes) is None
    True
    """
    return getattr(log_probability, "scopes", None)


def local_log_probability(log_probability: LogProbability, column: int) -> LogProbability:
    """The sum of ``log_probability``'s terms that read ``column``: equal to it up to terms that do not.

    Differences between rows that agree outside ``column`` are the same as with the whole
    ``log_probability`` (what a Gibbs update of ``column`` needs) wherever the other terms
    are finite; where one of them is ``-inf`` the whole model gives every state ``-inf``,
    and this still gives the conditional of ``column``. Without declared terms
    (:func:`with_scopes`), ``log_probability`` itself.

    Examples
    --------
    >>> a, b = np.log([[0.5, 0.5], [0.1, 0.9]]), np.log([0.2, 0.8])
    >>> terms = [lambda x: b[x[:, 0]], lambda x: a[x[:, 0], x[:, 1]], lambda x: np.zeros(len(x))]
    >>> f = with_scopes(lambda x: sum(t(x) for t in terms), [(0,), (0, 1), (2,)], terms)
    >>> local_log_probability(f, 1)(np.array([[1, 0], [1, 1]])).round(4).tolist()  # only a's term reads column 1
    [-2.3026, -0.1054]
    """
    terms, scopes = getattr(log_probability, "terms", None), scopes_of(log_probability)
    if terms is None:
        return log_probability
    around = [term for term, scope in zip(terms, scopes, strict=True) if column in scope]

    def local(codes: np.ndarray) -> np.ndarray:
        total = np.zeros(len(codes))
        for term in around:
            total = total + term(codes)
        return total

    return local


def _part_labels(hidden: np.ndarray, scopes: Sequence | None) -> np.ndarray:
    """Per row and column, the part of a missing cell (its part's first column), ``-1`` where observed.

    Examples
    --------
    >>> hidden = np.array([[True, True, True], [True, False, True]])
    >>> _part_labels(hidden, [(0, 1), (1, 2)]).tolist()  # row 1: columns 0 and 2 meet only through column 1
    [[0, 0, 0], [0, -1, 2]]
    """
    n_columns = hidden.shape[1]
    if scopes is None:
        first = np.argmax(hidden, axis=1)
        return np.where(hidden, first[:, None], -1)
    big = n_columns
    labels = np.where(hidden, np.arange(n_columns)[None, :], big)
    wide = [list(s) for s in scopes if len(s) > 1]
    changed = True
    while changed:
        changed = False
        for scope in wide:
            least = labels[:, scope].min(axis=1)
            new = np.where(hidden[:, scope], least[:, None], big)
            if (new != labels[:, scope]).any():
                labels[:, scope] = new
                changed = True
    return np.where(hidden, labels, -1)


class Parts(NamedTuple):
    """Incomplete rows split into independent parts, each part's completions with their posterior.

    Parts of different rows that read the same cells (their own columns and the observed cells
    of every scope touching them) have the same posterior: they share one *unit*.

    Examples
    --------
    >>> cpt = np.log(np.array([[0.9, 0.1], [0.2, 0.8]]))  # a -> b, a -> c, uniform a
    >>> log_p = with_scopes(lambda x: np.log(0.5) + cpt[x[:, 0], x[:, 1]] + cpt[x[:, 0], x[:, 2]], [(0, 1), (0, 2)])
    >>> parts = split_rows(np.array([[1, -1, -1], [-1, 0, 1]]), [2, 2, 2], scopes_of(log_p), log_p)
    >>> parts.n_parts.tolist(), parts.unit_of.tolist()  # units in the order of their cells: row 1's part (a) first
    ([2, 1], [[1, 2], [0, -1]])

    Attributes
    ----------
    rows : ndarray (n_rows, n_columns)
        The rows, ``-1`` where missing.
    rank : ndarray (n_rows, n_columns)
        Which of its row's parts a missing cell is in (0, 1, ...; ``-1`` where observed).
    stride : ndarray (n_rows, n_columns)
        A missing cell's place value in its part's completion index (mixed radix over the
        part's columns, the last fastest).
    unit_of : ndarray (n_rows, max_parts)
        The unit of each part of a row (``-1`` past its parts).
    n_parts : ndarray (n_rows,)
    unit_start : ndarray (n_units,)
        Position of a unit's first completion in ``weights`` (units laid end to end).
    weights : ndarray
        Every unit's posterior over its completions.
    log_ratio : ndarray (n_units,)
        Log of a unit's summed probabilities over that of its first completion (state 0).
    reference : ndarray (n_rows,)
        Log probability of the row's reference completion (every missing cell in state 0).
    """

    rows: np.ndarray
    rank: np.ndarray
    stride: np.ndarray
    unit_of: np.ndarray
    n_parts: np.ndarray
    unit_start: np.ndarray
    weights: np.ndarray
    log_ratio: np.ndarray
    reference: np.ndarray

    @property
    def unit_size(self) -> np.ndarray:
        """Completions of every unit.

        Examples
        --------
        >>> log_p = with_scopes(lambda x: np.zeros(len(x)), [(0, 1), (2,)])
        >>> split_rows(np.array([[-1, -1, -1]]), [2, 3, 2], scopes_of(log_p), log_p).unit_size.tolist()
        [6, 2]
        """
        return np.diff(np.append(self.unit_start, len(self.weights)))

    def subset(self, keep: np.ndarray) -> Parts:
        """The same parts for the rows ``keep`` (a boolean mask) only; the units are kept whole.

        Examples
        --------
        >>> log_p = with_scopes(lambda x: np.zeros(len(x)), [(0,), (1,)])
        >>> parts = split_rows(np.array([[-1, 0], [-1, -1]]), [2, 2], scopes_of(log_p), log_p)
        >>> parts.subset(np.array([False, True])).n_parts.tolist()
        [2]
        """
        return self._replace(rows=self.rows[keep], rank=self.rank[keep], stride=self.stride[keep],
                             unit_of=self.unit_of[keep], n_parts=self.n_parts[keep], reference=self.reference[keep])


def part_sizes(rows: np.ndarray, cards: Sequence[int], scopes: Sequence | None) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the number of its parts and the completions of its largest part (as floats).

    Examples
    --------
    >>> part_sizes(np.array([[-1, 0, -1], [-1, -1, -1]]), [2, 3, 4], [(0, 1), (1, 2)])
    (array([2, 1]), array([ 4., 24.]))
    """
    labels = _part_labels(rows < 0, scopes)
    logs = np.log(np.asarray(cards, dtype=np.float64))
    n_parts = np.zeros(len(rows), dtype=np.int64)
    largest = np.zeros(len(rows))
    for j in range(rows.shape[1]):
        own = labels == j
        if own.any():
            n_parts += own[:, j]
            size = (own * logs[None, :]).sum(axis=1)
            largest = np.maximum(largest, np.where(own[:, j], size, 0.0))
    return n_parts, np.round(np.exp(largest))


def _unit_cells(unit_rows: np.ndarray, scopes: Sequence | None) -> np.ndarray:
    """Unit rows with the observed cells their part's posterior does not read set to 0 (the reference).

    A part's posterior reads its own cells and the observed cells of the scopes touching it;
    without scopes, every cell.
    """
    if scopes is None:
        return unit_rows
    own = unit_rows < 0
    read = own.copy()
    for scope in scopes:
        scope = list(scope)
        touches = own[:, scope].any(axis=1)
        read[np.ix_(touches, scope)] = True
    return np.where(read, unit_rows, 0)


class _Layout(NamedTuple):
    """What :func:`split_rows` finds from the rows and scopes alone (no model values): reusable."""

    rows: np.ndarray
    rank: np.ndarray
    stride: np.ndarray
    unit_of: np.ndarray
    n_parts: np.ndarray
    base: np.ndarray  # the rows with every missing cell at the reference state 0
    unit_cells: np.ndarray  # (n_units, n_columns): a unit's cells, -1 at its part's (missing) cells
    unit_stride: np.ndarray  # (n_units, n_columns): a part cell's place value in the unit's completion index
    unit_start: np.ndarray
    unit_size: np.ndarray  # completions of every unit


def _layout(rows: np.ndarray, cards: Sequence[int], scopes: Sequence | None) -> _Layout:
    """The parts of ``rows`` and their distinct units (see :func:`split_rows`)."""
    from pgmpy_sgm.core.data import pool_codes

    rows = np.asarray(rows, dtype=np.int64)
    hidden = rows < 0
    labels = _part_labels(hidden, scopes)
    n_rows, n_columns = rows.shape
    starts = labels == np.arange(n_columns)[None, :]  # a part's first column
    n_parts = starts.sum(axis=1)
    earlier = np.cumsum(starts, axis=1) - starts  # parts starting before each column: a part's rank
    rank = np.where(hidden, np.take_along_axis(earlier, np.maximum(labels, 0), axis=1), -1)
    max_parts = max(int(n_parts.max(initial=0)), 1)
    stride = np.zeros(rows.shape, dtype=np.int64)
    running = np.ones((n_rows, max_parts), dtype=np.int64)
    for j in range(n_columns - 1, -1, -1):
        who = np.flatnonzero(hidden[:, j])
        stride[who, j] = running[who, rank[who, j]]
        running[who, rank[who, j]] *= cards[j]
    base = np.where(hidden, 0, rows)
    first_unit = np.cumsum(n_parts) - n_parts
    unit_row = np.repeat(np.arange(n_rows), n_parts)
    unit_rank = np.arange(len(unit_row)) - first_unit[unit_row]
    unit_rows = base[unit_row]
    unit_rows[rank[unit_row] == unit_rank[:, None]] = -1
    distinct, _, inverse = pool_codes(_unit_cells(unit_rows, scopes) + 1, [k + 1 for k in cards],
                                      np.ones(len(unit_rows)))  # fmt: skip
    unit_of = np.full((n_rows, max_parts), -1, dtype=np.int64)
    unit_of[unit_row, unit_rank] = inverse
    unit_cells = np.asarray(distinct, dtype=np.int64) - 1
    sizes = np.where(unit_cells < 0, np.asarray(cards, dtype=np.int64), 1)
    unit_stride = np.ones_like(sizes)  # the product of the sizes of the later columns, as enumeration orders them
    if n_columns > 1:
        unit_stride[:, :-1] = np.cumprod(sizes[:, :0:-1], axis=1)[:, ::-1]
    n_completions = sizes.prod(axis=1)
    unit_start = np.cumsum(n_completions) - n_completions
    return _Layout(rows, rank, stride, unit_of, n_parts, base, unit_cells, np.where(unit_cells < 0, unit_stride, 0),
                   unit_start, n_completions)  # fmt: skip


#: Completions decoded at a time when small units' completions are scored term by term.
CHUNK_COMPLETIONS = 1 << 20

#: Units of at least this many completions are scored by adding up each term's table over the unit's part
#: cells (broadcast over the unit's completion grid) instead of decoding every completion.
BROADCAST_COMPLETIONS = 256


def _unit_values(layout: _Layout, cards: Sequence[int], log_probability) -> np.ndarray:
    """The log probability of every unit's completions, up to a constant per unit.

    Only the terms that read one of a unit's part cells are summed (every term when
    ``log_probability`` declares none: :func:`with_scopes`): the others are the same for all
    of the unit's completions. Units of at least :data:`BROADCAST_COMPLETIONS` completions
    add up their terms' tables (:func:`_broadcast_values`); the others are decoded a chunk at
    a time, each term given the completions it reads in its scope's columns (other columns 0).
    """
    n_columns = layout.unit_cells.shape[1]
    terms, scopes = getattr(log_probability, "terms", None), scopes_of(log_probability)
    if terms is None:
        terms, scopes = (log_probability,), (tuple(range(n_columns)),)
    scopes = [list(scope) for scope in scopes]
    sizes = layout.unit_size
    values = np.zeros(int(sizes.sum()))
    part = layout.unit_cells < 0
    reads = np.zeros((len(sizes), len(scopes)), dtype=bool)  # (unit, term): the term reads a cell of the part
    for t, scope in enumerate(scopes):
        reads[:, t] = part[:, scope].any(axis=1)
    large = sizes >= BROADCAST_COMPLETIONS
    for t, (term, scope) in enumerate(zip(terms, scopes, strict=True)):
        _add_decoded(values, layout, cards, term, scope, np.flatnonzero(reads[:, t] & ~large))
    for unit in np.flatnonzero(large):
        start, around = layout.unit_start[unit], np.flatnonzero(reads[unit])
        values[start:start + sizes[unit]] = _broadcast_values(layout.unit_cells[unit], cards,
                                                              [terms[t] for t in around], [scopes[t] for t in around])
    return values


def _add_decoded(values: np.ndarray, layout: _Layout, cards: Sequence[int], term, scope: list,
                 units: np.ndarray) -> None:  # fmt: skip
    """Add ``term`` to ``values`` over the completions of ``units``, decoded a chunk of units at a time."""
    sizes = layout.unit_size
    n_columns = layout.unit_cells.shape[1]
    ends = np.cumsum(sizes[units])
    first = 0
    while first < len(units):
        last = max(int(np.searchsorted(ends, ends[first] - sizes[units[first]] + CHUNK_COMPLETIONS,
                                       side="right")), first + 1)  # fmt: skip
        chunk = units[first:last]
        owner = np.repeat(chunk, sizes[chunk])
        local = np.arange(len(owner)) - np.repeat(np.cumsum(sizes[chunk]) - sizes[chunk], sizes[chunk])
        codes = np.zeros((len(owner), n_columns), dtype=np.int64, order="F")  # models read it by column
        for j in scope:
            place = layout.unit_stride[owner, j]
            codes[:, j] = np.where(place > 0, local // np.maximum(place, 1) % cards[j], layout.unit_cells[owner, j])
        values[layout.unit_start[owner] + local] += term(codes)
        first = last


def _broadcast_values(cells: np.ndarray, cards: Sequence[int], terms, scopes) -> np.ndarray:
    """One unit's completions' values (mixed radix over its part cells, the last fastest): the sum of its terms.

    Each term reading the part is evaluated once per state of the part cells it reads, and
    its table is broadcast over the others.
    """
    own = np.flatnonzero(cells < 0).tolist()
    total = np.zeros([cards[j] for j in own])
    for term, scope in zip(terms, scopes, strict=True):
        inner = sorted(set(scope).intersection(own))  # in column order, as the unit's completions are
        if not inner:
            continue
        grid = np.indices([cards[j] for j in inner]).reshape(len(inner), -1)
        codes = np.zeros((grid.shape[1], len(cells)), dtype=np.int64, order="F")
        for j in scope:
            codes[:, j] = cells[j]
        codes[:, inner] = grid.T
        inner_set = set(inner)
        total += term(codes).reshape([cards[j] if j in inner_set else 1 for j in own])
    return total.ravel()


def split_rows(rows: np.ndarray, cards: Sequence[int], scopes: Sequence | None, log_probability,
               cache: dict | None = None) -> Parts:  # fmt: skip
    """Split incomplete ``rows`` into parts and find every distinct unit's posterior by enumerating it.

    Each unit is enumerated as a row whose missing cells in other parts, and observed cells
    its part does not read, are in state 0; only the terms of ``log_probability`` that read
    the unit's part are evaluated (:func:`with_scopes`). With ``cache`` (a dict), the parts
    and the units, which depend on the rows and the scopes only, are kept there for the next
    call with the same rows and scopes (one entry: EM's E-steps between two changes of
    structure).

    Examples
    --------
    >>> cpt = np.log(np.array([[0.9, 0.1], [0.2, 0.8]]))  # a -> b, a -> c, uniform a
    >>> log_p = with_scopes(lambda x: np.log(0.5) + cpt[x[:, 0], x[:, 1]] + cpt[x[:, 0], x[:, 2]], [(0, 1), (0, 2)])
    >>> parts = split_rows(np.array([[1, -1, -1]]), [2, 2, 2], scopes_of(log_p), log_p)
    >>> parts.n_parts.tolist(), parts.weights.round(2).tolist()  # b and c: two parts, each 0.2 / 0.8
    ([2], [0.2, 0.8, 0.2, 0.8])
    """
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    key = (None if scopes is None else tuple(scopes), tuple(int(k) for k in cards), rows.shape, hash(rows.tobytes()))
    layout = None if cache is None else cache.get(key)
    if layout is None or not np.array_equal(layout.rows, rows):
        layout = _layout(rows, cards, scopes)
        if cache is not None:
            cache.clear()
            cache[key] = layout
    values = _unit_values(layout, cards, log_probability)
    weights, log_sum = _posterior(values, layout.unit_start)
    with np.errstate(invalid="ignore"):
        log_ratio = log_sum - values[layout.unit_start] if len(values) else np.zeros(0)
    reference = log_probability(layout.base) if len(rows) else np.zeros(0)
    return Parts(rows, layout.rank, layout.stride, layout.unit_of, layout.n_parts, layout.unit_start, weights,
                 log_ratio, reference)  # fmt: skip


def _posterior(values: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per segment: normalised ``exp(values)`` (uniform where all are ``-inf``) and the log of the sum."""
    if not len(values):
        return values, np.zeros(0)
    owner = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(values))))
    top = np.maximum.reduceat(values, starts)
    dead = ~np.isfinite(top)
    safe = np.where(dead, 0.0, top)
    weights = np.exp(values - safe[owner])
    weights[dead[owner]] = 1.0
    sums = np.add.reduceat(weights, starts)
    with np.errstate(divide="ignore"):
        log_sum = np.where(dead, -np.inf, safe + np.log(sums))
    return weights / sums[owner], log_sum


def row_log_probability(parts: Parts) -> np.ndarray:
    """Every row's observed-data log probability: its reference completion's, times each part's summed
    probability over that of its reference (state 0) completion (exact for :func:`splittable` rows).

    Examples
    --------
    >>> cpt = np.log(np.array([[0.9, 0.1], [0.2, 0.8]]))  # a -> b, a -> c, uniform a
    >>> log_p = with_scopes(lambda x: np.log(0.5) + cpt[x[:, 0], x[:, 1]] + cpt[x[:, 0], x[:, 2]], [(0, 1), (0, 2)])
    >>> parts = split_rows(np.array([[1, -1, -1], [-1, 0, 1]]), [2, 2, 2], scopes_of(log_p), log_p)
    >>> np.exp(row_log_probability(parts)).round(3).tolist()  # P(a=1) = 0.5; P(b=0, c=1) = 0.5 * 0.09 + 0.5 * 0.16
    [0.5, 0.125]
    """
    ratios = np.where(parts.unit_of >= 0, parts.log_ratio[np.maximum(parts.unit_of, 0)], 0.0)
    return parts.reference + ratios.sum(axis=1)


def splittable(parts: Parts) -> np.ndarray:
    """Rows whose parts are exact: the reference completion of the row and of each of its units is possible.

    Examples
    --------
    >>> cpt = np.log(np.array([[0.9, 0.1], [0.2, 0.8]]))  # a -> b, a -> c, uniform a
    >>> log_p = with_scopes(lambda x: np.log(0.5) + cpt[x[:, 0], x[:, 1]] + cpt[x[:, 0], x[:, 2]], [(0, 1), (0, 2)])
    >>> parts = split_rows(np.array([[1, -1, -1], [-1, 0, 1]]), [2, 2, 2], scopes_of(log_p), log_p)
    >>> splittable(parts).tolist()
    [True, True]
    """
    finite = np.where(parts.unit_of >= 0, np.isfinite(parts.log_ratio[np.maximum(parts.unit_of, 0)]), True)
    return np.isfinite(parts.reference) & finite.all(axis=1)


def _decode(parts: Parts, rows: np.ndarray, choice: np.ndarray, cards: Sequence[int]) -> np.ndarray:
    """Complete code rows: row ``rows[i]`` with each part ``k`` in its completion ``choice[i, k]``."""
    out = parts.rows[rows].copy()
    for j in range(out.shape[1]):
        who = np.flatnonzero(out[:, j] < 0)
        if who.size:
            k = parts.rank[rows[who], j]
            out[who, j] = (choice[who, k] // parts.stride[rows[who], j]) % cards[j]
    return out


class _Units(NamedTuple):
    """Lookups over the units' completions: a unit's cumulative posterior as one sorted key array."""

    key: np.ndarray  # unit index + inclusive cumulative weight within the unit (last one exactly 1)
    inclusive: np.ndarray  # inclusive cumulative weight within the unit
    before: np.ndarray  # exclusive cumulative weight within the unit
    end: np.ndarray  # last completion of each unit


def _units(parts: Parts) -> _Units:
    sizes = parts.unit_size
    owner = np.repeat(np.arange(len(sizes)), sizes)
    inclusive = np.cumsum(parts.weights)
    inclusive -= np.repeat(inclusive[parts.unit_start] - parts.weights[parts.unit_start], sizes)
    end = parts.unit_start + sizes - 1
    inclusive[end] = 1.0
    return _Units(owner + inclusive, inclusive, inclusive - parts.weights, end)


def _invert(parts: Parts, units: _Units, unit: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The completion (global index) of ``unit`` whose cumulative interval holds ``s`` in [0, 1)."""
    found = np.searchsorted(units.key, unit + s, side="right")
    return np.clip(found, parts.unit_start[unit], units.end[unit])


def _unit_of(parts: Parts, rows: np.ndarray, k: int) -> np.ndarray:
    """The unit of part ``k`` of each of ``rows`` (of the last part for rows with fewer)."""
    return parts.unit_of[rows, np.minimum(k, parts.n_parts[rows] - 1)]


def _top_per_unit(parts: Parts, k: int, padded: int = 256) -> tuple[np.ndarray, np.ndarray]:
    """Each unit's ``k`` most probable completions (global indices, -1 padded) and weights (0 padded).

    Ties are cut by position. Units of up to ``k`` completions keep them all; units of up to
    ``padded`` are sorted as rows of one padded matrix; larger ones one at a time.
    """
    sizes = parts.unit_size
    index = np.full((len(sizes), k), -1, dtype=np.int64)
    small = np.flatnonzero(sizes <= k)
    place = np.arange(k)[None, :]
    index[small] = np.where(place < sizes[small, None], parts.unit_start[small, None] + place, -1)
    medium = np.flatnonzero((sizes > k) & (sizes <= padded))
    if medium.size:
        width = int(sizes[medium].max())
        at = parts.unit_start[medium, None] + np.arange(width)[None, :]
        inside = np.arange(width)[None, :] < sizes[medium, None]
        negated = np.where(inside, -parts.weights[np.where(inside, at, 0)], np.inf)
        best = np.argsort(negated, axis=1, kind="stable")[:, :k]
        index[medium] = np.take_along_axis(at, best, axis=1)
    for unit in np.flatnonzero(sizes > padded):
        w = parts.weights[parts.unit_start[unit]:parts.unit_start[unit] + sizes[unit]]
        cut = np.partition(w, len(w) - k)[len(w) - k]  # the k-th largest weight
        candidates = np.flatnonzero(w >= cut)
        top = candidates[np.argsort(-w[candidates], kind="stable")[:k]]
        index[unit] = parts.unit_start[unit] + top
    weight = np.where(index >= 0, parts.weights[np.maximum(index, 0)], 0.0)
    return index, weight


def _beam(parts: Parts, rows: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` most probable completions of each of ``rows``: weights (descending) and per-part choices.

    Exact: a completion among a row's top ``k`` has its first parts' completion among the top
    ``k`` of those parts alone, so keeping ``k`` after each part loses none. Ties are cut by
    the order of the parts' completions.
    """
    top_index, top_weight = _top_per_unit(parts, k)
    max_parts = int(parts.n_parts[rows].max(initial=1))
    first = parts.unit_of[rows, 0]
    weight = top_weight[first].copy()
    choice = np.full((len(rows), k, max_parts), -1, dtype=np.int64)
    choice[:, :, 0] = top_index[first]
    order = np.argsort(-weight, axis=1, kind="stable")  # a small unit's completions come in position order
    weight = np.take_along_axis(weight, order, axis=1)
    choice[:, :, 0] = np.take_along_axis(choice[:, :, 0], order, axis=1)
    for r in range(1, max_parts):
        who = np.flatnonzero(parts.n_parts[rows] > r)
        if not who.size:
            break
        unit = parts.unit_of[rows[who], r]
        crossed = (weight[who][:, :, None] * top_weight[unit][:, None, :]).reshape(len(who), k * k)
        best = np.argsort(-crossed, axis=1, kind="stable")[:, :k]
        weight[who] = np.take_along_axis(crossed, best, axis=1)
        choice[who] = np.take_along_axis(choice[who], (best // k)[:, :, None], axis=1)
        choice[who, :, r] = np.take_along_axis(top_index[unit], best % k, axis=1)
    return weight, choice


def _before(parts: Parts, units: _Units, rows: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """Posterior mass before a completion of each row (order: first part slowest) and its probability."""
    mass_before = np.zeros(choice.shape[:-1])
    prob = np.ones(choice.shape[:-1])
    for r in range(choice.shape[-1]):
        c = choice[..., r]
        live = (c >= 0) & (parts.n_parts[rows] > r)[:, None]
        safe = np.maximum(c, 0)
        mass_before += np.where(live, prob * units.before[safe], 0.0)
        prob *= np.where(live, parts.weights[safe], 1.0)
    return mass_before, prob


def _draw(parts: Parts, units: _Units, rows: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The completion of each row (per-part global indices) at cumulative posterior mass ``s``."""
    max_parts = int(parts.n_parts[rows].max(initial=1))
    choice = np.full((*s.shape, max_parts), -1, dtype=np.int64)
    s = np.clip(s, 0.0, np.nextafter(1.0, 0.0))
    for r in range(max_parts):
        live = (parts.n_parts[rows] > r)[:, None] & np.ones(s.shape, dtype=bool)
        unit = np.broadcast_to(_unit_of(parts, rows, r)[:, None], s.shape)
        picked = _invert(parts, units, unit[live], s[live])
        choice[live, r] = picked
        w = parts.weights[picked]
        rescaled = np.where(w > 0, (s[live] - units.before[picked]) / np.where(w > 0, w, 1.0), 0.0)
        s[live] = np.clip(rescaled, 0.0, np.nextafter(1.0, 0.0))
    return choice


def _local(parts: Parts, rows: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """Per-part global completion indices made unit-local (position within the unit)."""
    local = np.zeros_like(choice)
    for r in range(choice.shape[-1]):
        unit = _unit_of(parts, rows, r)
        local[..., r] = np.where(choice[..., r] >= 0, choice[..., r] - parts.unit_start[unit][:, None], 0)
    return local


def head_and_tail_rows(parts: Parts, cards: Sequence[int], counts: np.ndarray, tail_mass: float, max_kept: int,
                       n_tail_draws: int, uniforms: np.ndarray | None) -> tuple[np.ndarray, ...]:  # fmt: skip
    """Structural EM's capped completions of split rows: ``(codes, expected counts, capped)``.

    As :func:`~pgmpy_sgm.core.completions.head_and_tail` on the whole-row enumeration: the head
    is a row's most probable completions holding ``1 - tail_mass``, at most ``max_kept`` (from
    :func:`_beam`); a row whose rest holds more than ``tail_mass`` is *capped* and its rest is
    carried by ``n_tail_draws`` systematic draws (targets ``(i + u) / n`` of the rest, ``u``
    the row's uniform number), found by walking the posterior's cumulative mass (first part
    slowest) past the head's completions; otherwise the head is renormalised.

    Examples
    --------
    >>> cpt = np.log(np.array([[0.9, 0.1], [0.2, 0.8]]))  # a -> b, a -> c, uniform a
    >>> log_p = with_scopes(lambda x: np.log(0.5) + cpt[x[:, 0], x[:, 1]] + cpt[x[:, 0], x[:, 2]], [(0, 1), (0, 2)])
    >>> parts = split_rows(np.array([[1, -1, -1], [-1, 0, 1]]), [2, 2, 2], scopes_of(log_p), log_p)
    >>> codes, counts, capped = head_and_tail_rows(parts, [2, 2, 2], np.ones(2), 0.0, 1, 0, None)
    >>> codes.tolist(), counts.tolist(), capped.tolist()  # each row's most probable completion, renormalised
    ([[1, 1, 1], [1, 0, 1]], [1.0, 1.0], [True, True])
    """
    rows = np.arange(len(parts.rows))
    weight, choice = _beam(parts, rows, max_kept)
    held = np.cumsum(weight, axis=1)
    in_head = (held - weight < 1.0 - tail_mass) & (weight > 0)
    kept = np.where(in_head, weight, 0.0)
    head_mass = kept.sum(axis=1)
    sizes = np.where(parts.unit_of >= 0, parts.unit_size[np.maximum(parts.unit_of, 0)], 1)
    whole = in_head.sum(axis=1) >= np.prod(sizes.astype(np.float64), axis=1)  # every completion in the head
    rest = np.where(whole, 0.0, np.maximum(1.0 - head_mass, 0.0))
    capped = rest > tail_mass
    drawn = capped & (n_tail_draws > 0) & (uniforms is not None)
    shares = np.where(drawn[:, None], kept, kept / head_mass[:, None])
    out_codes = [_decode(parts, np.repeat(rows, max_kept), _local(parts, rows, choice).reshape(-1, choice.shape[-1]),
                         cards)]  # fmt: skip
    out_counts = [(shares * counts[:, None]).ravel()]
    who = np.flatnonzero(drawn)
    if who.size:
        units = _units(parts)
        targets = (np.arange(n_tail_draws)[None, :] + uniforms[who, None]) / n_tail_draws * rest[who, None]
        mass_before, prob = _before(parts, units, who, choice[who])
        order = np.argsort(np.where(in_head[who], mass_before, np.inf), axis=1, kind="stable")
        mass_before = np.take_along_axis(mass_before, order, axis=1)
        prob = np.take_along_axis(np.where(in_head[who], prob, 0.0), order, axis=1)
        s = targets.copy()
        for i in range(max_kept):  # skip the head's completions at or before the target
            step = (mass_before[:, i, None] <= s) & (prob[:, i, None] > 0)
            s = s + np.where(step, prob[:, i, None], 0.0)
        picks = _draw(parts, units, who, s)
        out_codes.append(_decode(parts, np.repeat(who, n_tail_draws),
                                 _local(parts, who, picks).reshape(-1, picks.shape[-1]), cards))  # fmt: skip
        out_counts.append(np.repeat(rest[who] / n_tail_draws * counts[who], n_tail_draws))
    codes, expected = np.concatenate(out_codes), np.concatenate(out_counts)
    keep = expected > 0
    return codes[keep], expected[keep], capped


def coupled_rows(parts: Parts, cards: Sequence[int], counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Completions of split rows with each part's exact posterior, the parts coupled on one uniform number.

    Each row's interval [0, 1) is cut at every part's cumulative posterior; each piece is one
    completion (every part at the completion whose interval holds the piece) with the piece's
    length as its share. Every part (so every set of variables inside one scope, with the
    observed cells) then has its exact expected counts; sets spanning two parts do not.

    Examples
    --------
    >>> cpt = np.log(np.array([[0.9, 0.1], [0.2, 0.8]]))
    >>> log_p = with_scopes(lambda x: np.log(0.5) + cpt[x[:, 0], x[:, 1]] + cpt[x[:, 0], x[:, 2]], [(0, 1), (0, 2)])
    >>> parts = split_rows(np.array([[0, -1, -1]]), [2, 2, 2], scopes_of(log_p), log_p)
    >>> codes, shares = coupled_rows(parts, [2, 2, 2], np.array([1.0]))
    >>> codes.tolist(), shares.round(2).tolist()  # b and c each 0.9 / 0.1, as two rows instead of four
    ([[0, 0, 0], [0, 1, 1]], [0.9, 0.1])
    """
    units = _units(parts)
    sizes = parts.unit_size
    part_row, part_rank = np.nonzero(parts.unit_of >= 0)
    unit = parts.unit_of[part_row, part_rank]
    n_cuts = sizes[unit]
    cut_entry = np.repeat(parts.unit_start[unit] - np.cumsum(n_cuts) + n_cuts, n_cuts) + np.arange(n_cuts.sum())
    cut_row = np.concatenate([np.repeat(part_row, n_cuts), np.arange(len(parts.rows))])
    cut_at = np.concatenate([units.inclusive[cut_entry], np.zeros(len(parts.rows))])
    order = np.lexsort((cut_at, cut_row))
    cut_row, cut_at = cut_row[order], cut_at[order]
    same = cut_row[1:] == cut_row[:-1]
    width = np.where(same, cut_at[1:] - cut_at[:-1], 0.0)
    piece = np.flatnonzero(width > 0)
    rows, mid, width = cut_row[piece], (cut_at[piece] + cut_at[piece + 1]) / 2, width[piece]
    max_parts = parts.unit_of.shape[1]
    choice = np.zeros((len(rows), max_parts), dtype=np.int64)
    for r in range(max_parts):
        live = parts.n_parts[rows] > r
        unit = parts.unit_of[rows[live], r]
        choice[live, r] = _invert(parts, units, unit, mid[live]) - parts.unit_start[unit]
    return _decode(parts, rows, choice, cards), width * counts[rows]
