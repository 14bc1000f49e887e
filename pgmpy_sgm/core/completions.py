"""Completions of incomplete rows: enumeration, a row's posterior, its kept head and tail draws, Gibbs draws.

The E-step's arithmetic on code rows (``-1`` marks a missing cell) under a model's
``log_probability``; :func:`~pgmpy_sgm.core.missing.complete_rows` chooses, row by row, between
these whole-row completions and the part-by-part ones of :mod:`~pgmpy_sgm.core.posterior_parts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from pgmpy_sgm.core.posterior_parts import (
    local_log_probability,
    part_sizes,
    row_log_probability,
    scopes_of,
    split_rows,
    splittable,
)

__all__ = ["MAX_COMPLETIONS", "BURN_IN_SWEEPS", "Head", "Segments", "count_completions", "enumerated_completions",
           "posterior_weights", "segment_posterior", "complete_exactly", "head_and_tail", "tail_draws",
           "complete_by_draws", "gibbs_chains", "marginal_log_probability"]

#: A row with at most this many completions is completed exactly (by enumeration).
MAX_COMPLETIONS = 131_072

#: Gibbs sweeps discarded before the draws are kept.
BURN_IN_SWEEPS = 20


def posterior_weights(log_p: np.ndarray) -> np.ndarray:
    """Normalised ``exp(log_p)`` along the last axis; uniform where every entry is ``-inf``.

    Examples
    --------
    >>> posterior_weights(np.array([[0.0, np.log(3.0)], [-np.inf, -np.inf]])).tolist()
    [[0.25, 0.75], [0.5, 0.5]]
    """
    top = log_p.max(axis=-1, keepdims=True)
    dead = ~np.isfinite(top)
    weights = np.exp(np.where(dead, 0.0, log_p - np.where(dead, 0.0, top)))
    weights = np.where(dead, 1.0, weights)
    return weights / weights.sum(axis=-1, keepdims=True)


class Head(NamedTuple):
    """How much of a row's posterior structural EM keeps (see :class:`~pgmpy_sgm.core.missing.EMOptions`).

    Examples
    --------
    >>> Head(tail_mass=0.01, max_kept=8, n_tail_draws=2).max_kept
    8
    """

    tail_mass: float
    max_kept: int | None
    n_tail_draws: int


class Segments(NamedTuple):
    """Completions of several rows laid end to end: ``owner[t]`` is the row of completion ``t``, ``starts[i]``
    the first completion of row ``i``.

    Examples
    --------
    >>> Segments(np.array([0, 0, 1]), np.array([0, 2])).total(np.array([1.0, 2.0, 5.0])).tolist()
    [3.0, 5.0]
    """

    owner: np.ndarray
    starts: np.ndarray

    def total(self, values: np.ndarray) -> np.ndarray:
        """Per row, the sum of ``values`` over its completions."""
        return np.add.reduceat(values, self.starts)


def count_completions(rows: np.ndarray, cards: Sequence[int]) -> np.ndarray:
    """Completions of each row (``-1`` = missing), as floats (they can pass the integers' range).

    Examples
    --------
    >>> count_completions(np.array([[0, -1, -1], [1, 0, 2]]), [2, 3, 3]).tolist()
    [9.0, 1.0]
    """
    return np.where(rows < 0, np.asarray(cards, dtype=np.float64), 1.0).prod(axis=1)


def enumerated_completions(rows: np.ndarray, cards: Sequence[int], chunk_cells: int = 4_000_000):
    """Every completion of every row, in chunks of rows: yields ``(first, last, block, segments)``.

    ``block`` holds the completions of rows ``first:last`` one after the other (a row's
    missing cells in mixed radix, the last missing column fastest); at most about
    ``chunk_cells`` cells per chunk (at least one row).

    Examples
    --------
    >>> [(a, b, block.tolist()) for a, b, block, _ in enumerated_completions(np.array([[0, -1], [-1, -1]]), [2, 2])]
    [(0, 2, [[0, 0], [0, 1], [0, 0], [0, 1], [1, 0], [1, 1]])]
    """
    hidden = rows < 0
    sizes = np.where(hidden, np.asarray(cards, dtype=np.int64), 1)
    strides = np.ones_like(sizes)  # product of the sizes of the later columns
    strides[:, :-1] = np.cumprod(sizes[:, :0:-1], axis=1)[:, ::-1]
    n_completions = sizes.prod(axis=1)
    ends = np.cumsum(n_completions * max(rows.shape[1], 1))
    first = 0
    while first < len(rows):
        last = max(int(np.searchsorted(ends, ends[first] - n_completions[first] * rows.shape[1] + chunk_cells,
                                       side="right")), first + 1)  # fmt: skip
        counts = n_completions[first:last]
        owner = np.repeat(np.arange(last - first), counts)
        starts = np.cumsum(counts) - counts
        local = np.arange(len(owner)) - starts[owner]
        block = np.empty((len(owner), rows.shape[1]), dtype=np.int64, order="F")  # models read it by column
        for j in range(rows.shape[1]):
            block[:, j] = rows[first:last, j][owner]
            if hidden[first:last, j].any():
                where = hidden[first:last, j][owner]
                block[where, j] = (local[where] // strides[first:last, j][owner[where]]) % cards[j]
        yield first, last, block, Segments(owner, starts)
        first = last


def segment_posterior(values: np.ndarray, segments: Segments) -> tuple[np.ndarray, np.ndarray]:
    """Each row's posterior over its completions (uniform where all are ``-inf``) and its log summed probability.

    Examples
    --------
    >>> weights, log_sum = segment_posterior(np.log([1.0, 3.0, 2.0]), Segments(np.array([0, 0, 1]), np.array([0, 2])))
    >>> weights.tolist(), np.exp(log_sum).round(6).tolist()
    ([0.25, 0.75, 1.0], [4.0, 2.0])
    """
    top = np.maximum.reduceat(values, segments.starts)
    dead = ~np.isfinite(top)
    safe = np.where(dead, 0.0, top)
    weights = np.exp(values - safe[segments.owner])
    weights[dead[segments.owner]] = 1.0
    sums = segments.total(weights)
    with np.errstate(divide="ignore"):
        log_sum = np.where(dead, -np.inf, safe + np.log(sums))
    return weights / sums[segments.owner], log_sum


def complete_exactly(rows: np.ndarray, counts: np.ndarray, cards: list[int], log_probability,
                      head: Head | None = None,
                      uniforms: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, float, float]:  # fmt: skip
    """Every completion of incomplete rows (``-1`` = missing), with its expected count, by enumeration.

    With ``head`` (structural EM), each row keeps only part of its posterior
    (:func:`head_and_tail`, ``uniforms``: one random number per row for the tail draws);
    completions of expected count 0 are left out. Also returns the rows' observed-data
    log-likelihood (their counts times the log of their completions' summed probabilities,
    before any is dropped) and the count of the rows whose completions were capped.
    """
    out_rows, out_counts, log_likelihood, n_capped = [], [], 0.0, 0.0
    for first, last, block, segments in enumerated_completions(rows, cards):
        values = log_probability(block)
        weights, log_sum = segment_posterior(values, segments)
        chunk_counts = counts[first:last]
        if head is not None:
            chunk_uniforms = None if uniforms is None else uniforms[first:last]
            weights, capped = head_and_tail(weights, segments, head, chunk_uniforms)
            n_capped += float(chunk_counts[capped].sum())
        expected = weights * chunk_counts[segments.owner]
        keep = expected > 0
        out_rows.append(block[keep])
        out_counts.append(expected[keep])
        log_likelihood += float(np.dot(log_sum, chunk_counts))
    if not out_rows:
        return np.zeros((0, rows.shape[1]), dtype=np.int64), np.zeros(0), 0.0, 0.0
    return np.concatenate(out_rows), np.concatenate(out_counts), log_likelihood, n_capped


def head_and_tail(weights: np.ndarray, segments: Segments, head: Head,
                   uniforms: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Each row's posterior weights reduced to its head (see :class:`EMOptions`), and which rows were capped.

    The head: the most probable completions until they hold ``1 - tail_mass``, at most
    ``max_kept`` of them (ties cut by position). When the rest holds at most ``tail_mass``
    it is dropped and the head renormalised; otherwise (the row is *capped*) it is carried
    by ``n_tail_draws`` systematic draws from the rest (:func:`tail_draws`), or, with no
    draws, dropped too.

    Examples
    --------
    >>> weights = np.array([0.5, 0.3, 0.2, 0.995, 0.004, 0.001])  # two rows of three completions
    >>> segments = Segments(np.repeat([0, 1], 3), np.array([0, 3]))
    >>> kept, capped = head_and_tail(weights, segments, Head(0.01, 1, 1), np.array([0.9, 0.5]))
    >>> kept.round(4).tolist(), capped.tolist()  # row 0 keeps 0.5, the rest (0.5) drawn once: the third
    ([0.5, 0.0, 0.5, 1.0, 0.0, 0.0], [True, False])
    """
    owner, starts = segments
    order = np.argsort(2.0 * owner - weights, kind="stable")  # by row, most probable first, ties by position
    ranked = weights[order]
    held = np.cumsum(ranked)
    before = held - ranked - (held[starts] - ranked[starts])[owner]  # mass of the row's more probable ones
    in_head = before < 1.0 - head.tail_mass
    if head.max_kept is not None:
        in_head &= np.arange(len(owner)) - starts[owner] < head.max_kept
    kept = np.zeros_like(weights)
    kept[order] = np.where(in_head, ranked, 0.0)
    rest_weights = weights - kept
    capped = segments.total(rest_weights) > head.tail_mass
    drawn = capped & (head.n_tail_draws > 0) if uniforms is not None else np.zeros_like(capped)
    renormalise = ~drawn[owner]
    kept[renormalise] /= segments.total(kept)[owner][renormalise]
    if drawn.any():
        picks, shares = tail_draws(rest_weights, segments, np.flatnonzero(drawn), head.n_tail_draws, uniforms)
        np.add.at(kept, picks, shares)
    return kept, capped


def tail_draws(rest_weights: np.ndarray, segments: Segments, rows: np.ndarray, n_draws: int,
                uniforms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``n_draws`` systematic draws from each of ``rows``' rest weights: the completions picked, and their shares.

    Row ``i``'s targets are ``(k + uniforms[i]) / n_draws`` of its rest mass ``r``
    (``k = 0 .. n_draws - 1``), each draw carrying ``r / n_draws``: every completion of the
    rest is picked with probability proportional to its weight, so the shares are an
    unbiased estimate of the rest.

    Examples
    --------
    >>> segments = Segments(np.zeros(3, dtype=int), np.array([0]))
    >>> picks, shares = tail_draws(np.array([0.0, 0.1, 0.3]), segments, np.array([0]), 2, np.array([0.25]))
    >>> picks.tolist(), shares.round(4).tolist()  # targets 0.05 and 0.25 of 0.4
    ([1, 2], [0.2, 0.2])
    """
    held = np.cumsum(rest_weights)
    base = held[segments.starts[rows]] - rest_weights[segments.starts[rows]]  # mass before each row
    ends = np.append(segments.starts[1:], len(rest_weights))[rows] - 1
    rest = held[ends] - base
    targets = (np.arange(n_draws)[None, :] + uniforms[rows, None]) / n_draws * rest[:, None]
    targets = np.minimum(base[:, None] + targets, np.nextafter(held[ends], -np.inf)[:, None])
    picks = np.minimum(np.searchsorted(held, targets.ravel(), side="right"), np.repeat(ends, n_draws))
    return picks, np.repeat(rest / n_draws, n_draws)


def complete_by_draws(rows: np.ndarray, counts: np.ndarray, cards: list[int], log_probability,
                       rng: np.random.Generator, n_draws: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``n_draws`` Gibbs draws of the rows' missing entries (``-1``) from the posterior, each ``count / n_draws``.

    All rows are updated together: a sweep resamples each variable in the rows where it is
    missing, from its conditional given the row's other (current) values, which reads only
    the terms of ``log_probability`` around the variable when it declares them
    (:func:`~pgmpy_sgm.core.posterior_parts.local_log_probability`). Each row runs
    :func:`gibbs_chains` independent chains from random states, each burnt in for
    :data:`BURN_IN_SWEEPS` sweeps and then drawn once per sweep; a few rows thus share each
    sweep's fixed cost over many chains instead of paying it for every draw.

    Raises
    ------
    ValueError
        If ``n_draws`` is not a positive integer.

    Examples
    --------
    >>> joint = np.log(np.array([[0.1, 0.2], [0.3, 0.4]]))
    >>> codes, counts = complete_by_draws(np.array([[-1, -1]]), np.array([2.0]), [2, 2],
    ...                                   lambda x: joint[x[:, 0], x[:, 1]], np.random.default_rng(0), 1000)
    >>> codes.shape, round(float(counts.sum()), 9), round(float(counts[(codes == [1, 1]).all(axis=1)].sum() / 2), 1)
    ((1000, 2), 2.0, 0.4)
    """
    hidden = rows < 0
    around = [local_log_probability(log_probability, j) for j in range(rows.shape[1])]
    n_chains = gibbs_chains(len(rows), n_draws)
    per_chain = -(-n_draws // n_chains)
    current = np.tile(rows, (n_chains, 1))  # chain-major: chain c of row i is row c * len(rows) + i
    hidden_chains = np.tile(hidden, (n_chains, 1))
    for j in range(rows.shape[1]):
        current[hidden_chains[:, j], j] = rng.integers(cards[j], size=int(hidden_chains[:, j].sum()))
    draws = []
    for sweep in range(BURN_IN_SWEEPS + per_chain):
        for j in range(rows.shape[1]):
            who = np.flatnonzero(hidden_chains[:, j])
            if not who.size:
                continue
            options = np.repeat(current[who], cards[j], axis=0)
            options[:, j] = np.tile(np.arange(cards[j]), len(who))
            weights = posterior_weights(around[j](options).reshape(len(who), cards[j]))
            u = rng.random(len(who))[:, None]
            current[who, j] = np.minimum((weights.cumsum(axis=1) < u).sum(axis=1), cards[j] - 1)
        if sweep >= BURN_IN_SWEEPS:
            draws.append(current.reshape(n_chains, len(rows), rows.shape[1]).copy())
    kept = np.concatenate(draws)[:n_draws]  # (draw, row, column): the chains' draws, the first n_draws per row
    return kept.reshape(-1, rows.shape[1]), np.tile(counts / n_draws, n_draws)


#: Chains advanced side by side in :func:`complete_by_draws` (at most; rows times chains per row).
GIBBS_BATCH_ROWS = 512

#: Draws each Gibbs chain gives at least (so at most ``n_draws / 10`` chains per row).
DRAWS_PER_CHAIN = 10


def gibbs_chains(n_rows: int, n_draws: int) -> int:
    """Chains per row of the Gibbs draws: enough for about :data:`GIBBS_BATCH_ROWS` side by side, each
    giving at least :data:`DRAWS_PER_CHAIN` draws (one chain for many rows or few draws).

    Raises
    ------
    ValueError
        If ``n_draws`` is not a positive integer or ``n_rows`` is negative.

    Examples
    --------
    >>> gibbs_chains(5, 200), gibbs_chains(100, 200), gibbs_chains(5000, 200), gibbs_chains(5, 15)
    (20, 5, 1, 1)
    """
    if isinstance(n_draws, bool) or not isinstance(n_draws, int | np.integer) or n_draws < 1:
        raise ValueError(f"n_draws must be a positive integer. Got: {n_draws!r}")
    if n_rows < 0:
        raise ValueError(f"n_rows must be at least 0. Got: {n_rows!r}")
    return int(max(1, min(GIBBS_BATCH_ROWS // max(n_rows, 1), n_draws // DRAWS_PER_CHAIN)))


def marginal_log_probability(codes: np.ndarray, cards: Sequence[int], log_probability,
                             max_completions: int = MAX_COMPLETIONS, beyond: str = "raise") -> np.ndarray:  # fmt: skip
    """Log probability of the observed part of every row (``-1`` = missing): its completions' probabilities summed.

    Rows with more than ``max_completions`` completions raise (``beyond="raise"``) or get NaN
    (``beyond="nan"``).

    Raises
    ------
    ValueError
        If a row has more than ``max_completions`` completions and ``beyond="raise"``.

    Examples
    --------
    >>> joint = np.log(np.array([[0.1, 0.2], [0.3, 0.4]]))
    >>> log_p = lambda codes: joint[codes[:, 0], codes[:, 1]]
    >>> np.exp(marginal_log_probability(np.array([[0, -1], [-1, 1], [1, 0]]), [2, 2], log_p)).round(3).tolist()
    [0.3, 0.6, 0.3]
    """
    if beyond not in ("raise", "nan"):
        raise ValueError(f"beyond must be 'raise' or 'nan'. Got: {beyond!r}")
    codes = np.asarray(codes, dtype=np.int64)
    out = np.full(len(codes), np.nan)
    n_completions = count_completions(codes, cards)
    too_many = n_completions > max_completions
    if too_many.any() and beyond == "raise":
        worst = int(np.argmax(n_completions))
        raise ValueError(f"{int(too_many.sum())} row(s) have more completions than max_completions="
                         f"{max_completions:,}: the most, {n_completions[worst]:,.0f}, for a row missing "
                         f"{int((codes[worst] < 0).sum())} values")  # fmt: skip
    ok = np.flatnonzero(~too_many)
    scopes = scopes_of(log_probability)
    if scopes is not None and ok.size:  # rows of several independent parts: each part enumerated on its own
        n_parts, _ = part_sizes(codes[ok], cards, scopes)
        split = ok[n_parts > 0]
        if split.size:
            parts = split_rows(codes[split], cards, scopes, log_probability)
            good = splittable(parts)
            out[split[good]] = row_log_probability(parts)[good]
            ok = np.setdiff1d(ok, split[good])
    for first, last, block, segments in enumerated_completions(codes[ok], cards):
        out[ok[first:last]] = segment_posterior(log_probability(block), segments)[1]
    return out
