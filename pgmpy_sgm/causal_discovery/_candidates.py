"""Candidate parents per node for wide data: the partners of largest single-parent BDeu gain.

The searches of :class:`~pgmpy_sgm.causal_discovery.LDAGSearch` (the greedy equivalence search
and the tabu climbs) score every possible new edge; over ``d`` variables that is ``d - 1``
families per node and step. Beyond :data:`SCREEN_ABOVE` variables the new edges are
restricted to candidate pairs: each node keeps the ``k`` partners whose single-parent BDeu
term gains most over the empty family (the pairwise gain, symmetric under BDeu and the same
under the labelled score, since one parent carries no label), and a pair is a candidate when
either end keeps the other. The gains of all pairs come from one product of one-hot
matrices (the joint counts of every pair of variables), not from ``d^2`` contingency tables.

A pair's gain alone misses a parent that matters only beside others (a variable that is a
logical function of several). After a climb, :func:`widened_candidates` screens again given the
DAG reached (the sparse candidate algorithm of Friedman, Nachman and Pe'er, 1999): every
non-candidate ``x`` of a node whose BDeu term rises when ``x`` joins the node's current parents
becomes a candidate, and the climb goes on with the wider candidates.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.special import gammaln

from pgmpy_sgm.core._pair_terms import weighted_cross_product
from pgmpy_sgm.core.bdeu_groups import dirichlet_class_weights

__all__ = ["SCREEN_ABOVE", "candidate_limit", "candidate_parents", "pairwise_gains", "screened_candidates",
           "conditional_gains", "widened_candidates"]

#: Cells of the extension tables counted at once by :func:`conditional_gains` (memory).
EXTENSION_CELLS = 2**22

#: Cells of the joint counts that :func:`pairwise_gains` holds at once (128 MB of float64; three such arrays).
BLOCK_CELLS = 2**24

#: Up to this many variables every pair is a candidate (no screening).
SCREEN_ABOVE = 64


def candidate_limit(n_variables: int) -> int | None:
    """Partners kept per node: None (all) up to :data:`SCREEN_ABOVE` variables, else ``ceil(4 log2 d)``.

    Examples
    --------
    >>> candidate_limit(37), candidate_limit(223), candidate_limit(1041)
    (None, 32, 41)
    """
    if n_variables <= SCREEN_ABOVE:
        return None
    return min(n_variables - 1, math.ceil(4 * math.log2(n_variables)))


def pairwise_gains(codes: np.ndarray, cards: list[int], weights: np.ndarray, ess: float,
                   block_cells: int = BLOCK_CELLS) -> np.ndarray:  # fmt: skip
    """``G[x, y]``: BDeu term of ``y`` with the one parent ``x`` minus that of ``y`` alone (diagonal -inf).

    The joint counts of every pair are blocks of the weighted product of one-hot codes,
    counted in chunks of rows
    (:func:`~pgmpy_sgm.core._pair_terms.weighted_cross_product`), so memory does not grow with the
    rows: the one-hot codes of all rows at once would take ``8 n`` bytes per state (8 GB at
    10^6 rows of 500 binary variables).

    Parameters
    ----------
    codes : numpy.ndarray of shape (n_rows, d)
        State codes ``0 .. cards[j] - 1`` of each variable.
    cards : list of int
    weights : numpy.ndarray of shape (n_rows,)
        Count of each row.
    ess : float
        Equivalent sample size of the BDeu prior.
    block_cells : int, default=BLOCK_CELLS
        Cells of the joint counts held at once (memory): as many variables ``x`` are taken
        together as keep their states times all states within it (at least one), so that
        the rows' one-hot codes are built once per chunk for as many variables as fit.

    Returns
    -------
    numpy.ndarray of shape (d, d)

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.structure_score import BDeu
    >>> df = pd.DataFrame({"a": [0, 1, 1, 0, 1, 1], "b": [0, 1, 1, 0, 1, 0], "c": [2, 0, 1, 1, 0, 2]})
    >>> g = pairwise_gains(df.to_numpy(), [2, 2, 3], np.ones(6), 5.0)
    >>> s = BDeu(df, equivalent_sample_size=5)
    >>> bool(abs(g[0, 2] - (s.local_score("c", ("a",)) - s.local_score("c", ()))) < 1e-9)
    True
    """
    codes, weights = np.asarray(codes), np.asarray(weights, dtype=float)
    d = codes.shape[1]
    cards_a = np.asarray(cards, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(cards_a)])
    marginal = np.concatenate([np.bincount(codes[:, j], weights=weights, minlength=cards[j]) for j in range(d)])
    owner = np.repeat(np.arange(d), cards_a)
    total = float(np.sum(weights))
    # the empty family of y, and the configurations' part of y | x (depends on x only)
    alone = np.add.reduceat(gammaln(ess / cards_a[owner] + marginal) - gammaln(ess / cards_a[owner]), offsets[:-1])
    alone += gammaln(ess) - gammaln(ess + total)
    configs = np.add.reduceat(gammaln(ess / cards_a[owner]) - gammaln(ess / cards_a[owner] + marginal), offsets[:-1])
    gains = np.empty((d, d))
    start = 0
    while start < d:
        stop = start + 1
        while stop < d and (offsets[stop + 1] - offsets[start]) * offsets[-1] <= block_cells:
            stop += 1
        # (states of x in the block, states of every y)
        joint = weighted_cross_product(codes, weights, offsets[:-1], int(offsets[-1]), offsets[start], offsets[stop])
        prior = ess / np.outer(cards_a[owner[offsets[start]:offsets[stop]]], cards_a[owner])
        cells = gammaln(prior + joint) - gammaln(prior)
        summed = np.add.reduceat(np.add.reduceat(cells, offsets[start:stop] - offsets[start], axis=0),
                                 offsets[:-1], axis=1)  # fmt: skip
        gains[start:stop] = configs[start:stop, None] + summed - alone[None, :]
        start = stop
    np.fill_diagonal(gains, -np.inf)
    return gains


def candidate_parents(gains: np.ndarray, limit: int | None) -> list[int] | None:
    """Candidate-parent masks: ``x`` for ``y`` when either is among the other's ``limit`` best partners.

    None when ``limit`` is None or at least ``d - 1`` (no screening).

    Examples
    --------
    >>> g = np.array([[-np.inf, 5.0, 1.0], [5.0, -np.inf, 2.0], [1.0, 2.0, -np.inf]])
    >>> [bin(m) for m in candidate_parents(g, 1)]  # 0 and 1 keep each other, 2 keeps 1
    ['0b10', '0b101', '0b10']
    """
    d = gains.shape[0]
    if limit is None or limit >= d - 1:
        return None
    # partners of each node by decreasing gain, ties by index (a stable sort of the negated gains)
    best = np.argsort(-np.maximum(gains, gains.T), axis=1, kind="stable")[:, :limit]
    masks = [0] * d
    for y in range(d):
        for x in best[y].tolist():
            masks[y] |= 1 << x
            masks[x] |= 1 << y
    return masks


def screened_candidates(score, limit: int | None) -> list[int] | None:
    """Candidate-parent masks for the searches under ``score`` (an ``LDAGScore``), or None below the limit.

    The pairwise gains use the score's data, counts and equivalent sample size; nodes are
    the score's variables in order.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import LDAGScore
    >>> df = pd.DataFrame({"a": [0, 1] * 20, "b": [0, 1] * 20, "c": [0, 0, 1, 1] * 10})
    >>> screened_candidates(LDAGScore(df), None) is None
    True
    >>> [bin(m) for m in screened_candidates(LDAGScore(df), 1)]  # a and b keep each other; c keeps a
    ['0b110', '0b1', '0b1']
    """
    d = len(score.variables)
    if limit is None or limit >= d - 1:
        return None
    encoded = score.encoded
    cards = [encoded.cardinality[v] for v in score.variables]
    gains = pairwise_gains(encoded.codes, cards, encoded.weights, score.equivalent_sample_size)
    return candidate_parents(gains, limit)


def conditional_gains(encoded, variable: str, parents: list, others: list, ess: float) -> np.ndarray:
    """BDeu term of ``variable`` given ``parents`` plus each of ``others``, minus that given ``parents``.

    The tables of every extension are counted in one pass over the rows
    (:meth:`~pgmpy_sgm.core.data.EncodedData.extension_counts`, in chunks of at most
    :data:`EXTENSION_CELLS` cells) and scored with the BDeu hyperparameters of each extended
    family (``ess`` spread over its configurations and states).

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.structure_score import BDeu
    >>> from pgmpy_sgm.core.data import EncodedData
    >>> df = pd.DataFrame({"a": [0, 1, 1, 0, 1, 1], "b": [0, 1, 1, 0, 1, 0], "c": [2, 0, 1, 1, 0, 2]})
    >>> gains = conditional_gains(EncodedData(df), "c", ["a"], ["b"], 5.0)
    >>> s = BDeu(df, equivalent_sample_size=5)
    >>> bool(abs(gains[0] - (s.local_score("c", ("a", "b")) - s.local_score("c", ("a",)))) < 1e-9)
    True
    """
    cards = encoded.cardinality
    r = cards[variable]
    n_base = math.prod(cards[p] for p in parents)
    base = encoded.family_bdeu(variable, list(parents), ess)
    chunks, chunk, cells = [], [], 0
    for w in others:
        size = n_base * cards[w] * r
        if chunk and cells + size > EXTENSION_CELLS:
            chunks.append(chunk)
            chunk, cells = [], 0
        chunk.append(w)
        cells += size
    if chunk:
        chunks.append(chunk)
    out = []
    for chunk in chunks:
        counts = encoded.extension_counts(variable, list(parents), chunk)
        configs = np.array([n_base * cards[w] for w in chunk], dtype=np.int64)
        per_row = np.repeat(configs, configs)  # configurations of each row's family
        rows = dirichlet_class_weights(counts, ess / (per_row * r), np.ones(per_row.size), 0.0)
        starts = np.concatenate([[0], np.cumsum(configs)[:-1]])
        out.append(np.add.reduceat(rows, starts) - base)
    return np.concatenate(out) if out else np.empty(0)


def widened_candidates(score, parents: list[int], candidates: list[int], fits, nodes: list[int] | None = None,
                       out_of_time: Callable[[], bool] | None = None) -> tuple[list[int], int]:  # fmt: skip
    """The candidate masks widened given a DAG: a pair joins when the BDeu term of one end gains from the other.

    For every node ``y`` and every ``x`` that is not yet a candidate partner of ``y``, the gain
    of adding ``x`` to ``y``'s current parents (``parents``, masks over the score's variables)
    is computed by :func:`conditional_gains` under the score's equivalent sample size; where
    it is positive, ``x`` and ``y`` become candidates of each other. Families refused by
    ``fits(y, mask)`` are not counted. ``nodes`` limits the ``y`` screened: after a round,
    a node whose parents did not change gains from none of its non-candidates (else they
    would have joined), so only the nodes whose parents changed need screening again.
    ``out_of_time()``, asked before each node, ends the screening early (a search's
    ``max_time``: on wide data with many rows one round takes minutes); the pairs added so
    far are kept.

    Returns
    -------
    (list of int, int)
        The widened masks and the number of pairs added.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.structure_score import LDAGScore
    >>> from pgmpy_sgm.causal_discovery._dag_moves import mask_fits
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.integers(0, 2, 500), rng.integers(0, 2, 500)
    >>> df = pd.DataFrame({"a": a, "b": b, "c": a ^ b})  # c is the XOR of a and b: no pair alone depends
    >>> score = LDAGScore(df)
    >>> only_ab = [0b010, 0b001, 0b000]  # a and b partners; c has none
    >>> widened, added = widened_candidates(score, [0, 0, 0b001], only_ab, mask_fits(score, score.variables))
    >>> [bin(m) for m in widened], added  # given its parent a, c gains from b
    (['0b10', '0b101', '0b10'], 1)
    """
    variables = score.variables
    d = len(variables)
    out = list(candidates)
    added = 0
    for y in range(d) if nodes is None else nodes:  # a pair added from one end is not scored again from the other
        if out_of_time is not None and out_of_time():
            break
        others = [x for x in range(d) if x != y and not out[y] >> x & 1 and not parents[y] >> x & 1
                  and fits(y, parents[y] | (1 << x))]  # fmt: skip
        if not others:
            continue
        gains = conditional_gains(score.encoded, variables[y], [variables[p] for p in range(d) if parents[y] >> p & 1],
                                  [variables[x] for x in others], score.equivalent_sample_size)  # fmt: skip
        for x, gain in zip(others, gains.tolist(), strict=True):
            if gain > 0:
                out[y] |= 1 << x
                out[x] |= 1 << y
                added += 1
    return out, added
