"""A DAG climbed on the available cases of every family: a start for structural EM.

The Chow-Liu tree (:mod:`~pgmpy_sgm.core.tree_start`) gives each variable one partner; where a
variable depends on several, the first completed table still dilutes the other dependences,
and EM's fixed points stay near their start. This start scores every family ``(y, parents)``
on the rows where all of its variables are observed: its *penalised node-average
log-likelihood* (Balov 2013; bnlearn's ``score = "pnal"``),

    n * (1 / n_F) * sum over those rows of log p(y | parents) - (log n / 2) * (free parameters),

``n_F`` the weight of those rows, ``n`` of all rows, the probabilities their maximum-likelihood
estimates. The sum over families is consistent for the structure when cells are missing
completely at random; at a finite ``n`` two families are scored on different rows, and the
noise of that comparison can add spurious edges, which EM's searches on completed tables can
drop. The DAG climbed on it (pgmpy's tabu climb,
:func:`~pgmpy_sgm.causal_discovery._dag_climb.tabu_climb`) is fitted family by family on
the same rows, smoothed, and completes the first E-step.

The *node-average BDeu* variant (``bdeu_ess``) scores each family by BDeu instead: its
available-case table scaled to the weight of all rows, under BDeu with equivalent sample
size ``bdeu_ess`` (:data:`START_ESS` and at most :data:`START_MAX_INDEGREE` parents for
``LDAGSearch``'s start). At a few thousand rows BIC's penalty keeps out dependences of
multi-state variables that BDeu, the learner's own score, keeps, and EM's fixed points stay
near the start they are given.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import numpy as np

from pgmpy_sgm.core._pair_terms import checked_code_table
from pgmpy_sgm.core.arguments import check_number
from pgmpy_sgm.core.bdeu_groups import bdeu_class_weights
from pgmpy_sgm.core.bitsets import iter_bits
from pgmpy_sgm.core.posterior_parts import with_scopes

from ._dag_climb import tabu_climb

__all__ = ["available_family_table", "node_average_family_score", "pnal_parents", "pnal_log_probability",
           "available_case_dag", "conditional_log_likelihood", "too_wide", "PNAL_MAX_INDEGREE",
           "START_ESS", "START_MAX_INDEGREE"]  # fmt: skip

#: Most parents a variable gets in the start's DAG.
PNAL_MAX_INDEGREE = 4

#: Equivalent sample size of the node-average BDeu start (``EMOptions(start="bdeu")``), chosen
#: among 2, 5 and 10 on seeds 0-2 of ``benchmarks/bench_em_start.py`` and checked on seeds 3-4
#: (``benchmarks/RESULTS.md``, "A start scored by BDeu").
START_ESS = 5.0

#: Most parents a variable gets in the node-average BDeu start: with 4 its DAG on alarm had 132
#: edges and its first E-step took 3.8 times the PNAL start's (``bench_em_start.py --first-estep``);
#: 3 gave as good a held-out fit (same RESULTS section).
START_MAX_INDEGREE = 3


def available_family_table(codes: np.ndarray, weights: np.ndarray, cards: Sequence[int],
                           family: Sequence[int]) -> np.ndarray:  # fmt: skip
    """Weighted counts of ``family``'s joint states over the rows where all of it is observed.

    Axis ``k`` of the result is ``family[k]``; a negative code is a missing cell.

    Examples
    --------
    >>> codes = np.array([[0, 1], [1, 1], [-1, 0], [1, -1]])
    >>> available_family_table(codes, np.array([2.0, 1.0, 5.0, 5.0]), [2, 2], [1, 0]).tolist()
    [[0.0, 0.0], [2.0, 1.0]]
    """
    family = list(family)
    seen = (codes[:, family] >= 0).all(axis=1)
    shape = [int(cards[v]) for v in family]
    flat = np.ravel_multi_index(tuple(codes[seen, v] for v in family), shape)
    return np.bincount(flat, weights=weights[seen], minlength=math.prod(shape)).reshape(shape)


def conditional_log_likelihood(table: np.ndarray) -> float:
    """Maximised log-likelihood of axis 0 of the counts ``table`` given its other axes.

    Examples
    --------
    >>> round(conditional_log_likelihood(np.array([[3.0, 0.0], [1.0, 2.0]])), 4)  # 3 log(3/4) + log(1/4)
    -2.2493
    """
    given = np.broadcast_to(table.sum(axis=0, keepdims=True), table.shape)
    seen = table > 0
    return float(np.sum(table[seen] * np.log(table[seen] / given[seen])))


def too_wide(cells: int, n: float) -> bool:
    """Whether a family table of ``cells`` cells is too wide to estimate from rows of weight ``n``.

    Examples
    --------
    >>> too_wide(64, 2.0), too_wide(65, 2.0), too_wide(8000, 2000.0), too_wide(8001, 2000.0)
    (False, True, False, True)
    """
    return cells > max(4.0 * n, 64)


def node_average_family_score(codes: np.ndarray, weights: np.ndarray, cards: Sequence[int],
                              max_indegree: int = PNAL_MAX_INDEGREE,
                              bdeu_ess: float | None = None) -> Callable[[int, int], float]:  # fmt: skip
    """``family(y, parent_mask)``: a family's node-average score on its available cases (cached).

    With ``bdeu_ess=None`` the penalised node-average log-likelihood (module docstring); else
    the BDeu score, with equivalent sample size ``bdeu_ess``, of the family's available-case
    table scaled to the weight of all rows. ``-inf`` for more than ``max_indegree`` parents, a
    family never observed whole, or a table of more cells than four times the rows' weight.

    Examples
    --------
    >>> codes = np.array([[0, 0], [1, 1], [0, 0], [1, 1], [0, -1], [-1, 1]] * 5)
    >>> family = node_average_family_score(codes, np.ones(len(codes)), [2, 2])
    >>> family(1, 0b1) > family(1, 0)  # b follows a wherever both are seen
    True
    >>> bdeu = node_average_family_score(codes, np.ones(len(codes)), [2, 2], bdeu_ess=5.0)
    >>> bdeu(1, 0b1) > bdeu(1, 0)
    True
    """
    codes, weights = checked_code_table(codes, weights, cards)
    if bdeu_ess is not None:
        check_number(bdeu_ess, "bdeu_ess", 0.0, strict=True)
    n = float(weights.sum())
    penalty = 0.5 * math.log(max(n, 2.0))

    @functools.cache
    def family(y: int, parent_mask: int) -> float:
        members = [y, *iter_bits(parent_mask)]
        cells = math.prod(int(cards[v]) for v in members)
        if len(members) - 1 > max_indegree or too_wide(cells, n):
            return -math.inf
        table = available_family_table(codes, weights, cards, members)
        available = float(table.sum())
        if available <= 0:
            return -math.inf
        if bdeu_ess is not None:  # configurations as rows, y's states as columns
            scaled = table.reshape(int(cards[y]), -1).T * (n / available)
            return bdeu_class_weights(scaled, np.arange(len(scaled)), bdeu_ess)
        log_likelihood = conditional_log_likelihood(table)
        free = (int(cards[y]) - 1) * (cells // int(cards[y]))
        return n * log_likelihood / available - penalty * free

    return family


def pnal_parents(codes: np.ndarray, weights: np.ndarray, cards: Sequence[int],
                 max_indegree: int = PNAL_MAX_INDEGREE, bdeu_ess: float | None = None) -> list[list[int]]:  # fmt: skip
    """Each variable's parents in the DAG climbed from the empty graph on the node-average score.

    ``bdeu_ess``: see :func:`node_average_family_score`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 300)
    >>> codes = np.column_stack([a, a ^ (rng.random(300) < 0.1), rng.integers(0, 2, 300)])
    >>> codes[rng.random(codes.shape) < 0.2] = -1
    >>> parents = pnal_parents(codes, np.ones(300), [2, 2, 2])
    >>> sorted(map(len, parents)), parents[2]  # one edge, between the first two
    ([0, 0, 1], [])
    """
    family = node_average_family_score(codes, weights, cards, max_indegree, bdeu_ess)
    found = tabu_climb(family, [0] * len(cards))
    return [list(iter_bits(mask)) for mask in found.parents]


def pnal_log_probability(codes: np.ndarray, weights: np.ndarray, cards: Sequence[int], ess: float = 1.0,
                         max_indegree: int = PNAL_MAX_INDEGREE,
                         bdeu_ess: float | None = None) -> Callable[[np.ndarray], np.ndarray]:  # fmt: skip
    """Log probability of complete code rows under the DAG of :func:`pnal_parents`, fitted on available cases.

    The DAG is fitted by :func:`available_case_dag` (``ess``: its smoothing); ``bdeu_ess``
    picks the families' score (:func:`node_average_family_score`).

    Raises
    ------
    ValueError
        If ``ess`` is not a finite number >= 0, ``bdeu_ess`` is neither None nor a finite
        number > 0, or the table is malformed.

    Examples
    --------
    >>> codes = np.array([[0, 0], [1, 1], [0, 0], [1, 1], [0, -1], [-1, 1]] * 5)
    >>> log_p = pnal_log_probability(codes, np.ones(len(codes)), [2, 2])
    >>> log_p.parents, np.exp(log_p(np.array([[0, 0], [0, 1]]))).round(3).tolist()  # (15.5 / 26) (10.25 / 10.5)
    ([[], [0]], [0.582, 0.014])
    """
    check_number(ess, "ess", 0.0)
    codes, weights = checked_code_table(codes, weights, cards)
    return available_case_dag(codes, weights, cards, pnal_parents(codes, weights, cards, max_indegree, bdeu_ess),
                              ess)  # fmt: skip


def available_case_dag(codes: np.ndarray, weights: np.ndarray, cards: Sequence[int], parents: Sequence[Sequence[int]],
                       ess: float = 1.0) -> Callable[[np.ndarray], np.ndarray]:  # fmt: skip
    """Log probability of complete code rows under the DAG ``parents``, each family fitted on its available cases.

    Variable ``y``'s distribution given its parents ``parents[y]`` is the family's
    available-case table (:func:`available_family_table`) plus ``ess`` spread evenly over its
    cells, normalised. The result declares its factor scopes and terms
    (:func:`~pgmpy_sgm.core.posterior_parts.with_scopes`) and its ``parents``.

    Examples
    --------
    >>> codes = np.array([[0, 0], [1, 1], [0, -1]])
    >>> log_p = available_case_dag(codes, np.ones(3), [2, 2], [[], [0]], ess=0.0)
    >>> np.exp(log_p(np.array([[0, 0], [1, 1]]))).round(3).tolist()  # (2/3)(1/1), (1/3)(1/1)
    [0.667, 0.333]
    """
    parents = [list(ps) for ps in parents]
    families = [[y, *ps] for y, ps in enumerate(parents)]
    log_tables = []
    for members in families:
        table = available_family_table(codes, weights, cards, members)
        smoothed = table + ess / table.size
        with np.errstate(divide="ignore", invalid="ignore"):
            log_tables.append(np.log(smoothed / smoothed.sum(axis=0, keepdims=True)))

    def family_term(rows: np.ndarray, members: list, log_table: np.ndarray) -> np.ndarray:
        return log_table[tuple(rows[:, v] for v in members)]

    terms = [functools.partial(family_term, members=m, log_table=t) for m, t in zip(families, log_tables, strict=True)]

    def log_probability(rows: np.ndarray) -> np.ndarray:
        total = np.zeros(len(rows))
        for term in terms:
            total = total + term(rows)
        return total

    log_probability.parents = parents
    return with_scopes(log_probability, families, terms)
