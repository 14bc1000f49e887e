"""Best label classes of one node of a labelled DAG, under BDeu hyperparameters and a class penalty.

A node ``X_j`` with ``r`` states and parents of cardinalities ``cards`` (``q`` configurations)
has its parent configurations partitioned into *classes* by its labels (terminology of
:mod:`pgmpy_sgm.core.lines`: a class is a *group*). With BDeu hyperparameters
``a = ess / (q r)`` per configuration and state, a class ``B`` of ``lam`` configurations
pools ``lam * a`` per state, and contributes

``w(B) = lgamma(r a lam) - lgamma(n_B + r a lam) + sum_k [lgamma(n_Bk + a lam) - lgamma(a lam)]
+ (lam - 1) (r - 1) log_kappa``

to the node's log score; the last term is the structure prior's charge for the
``(lam - 1)(r - 1)`` free parameters the class removes. The score is a sum of block weights,
so the partition search of :mod:`pgmpy_sgm.core.optimize` applies with these weights: its
valid blocks, regularity masks and dynamic programme (up to :data:`MAX_EXACT_CONFIGS`
configurations) are reused as they are;
above that, its greedy line merges and local moves run on these weights, compiled
(:func:`~pgmpy_sgm.core._local_search_kernels.compiled_local_search`, the search of
``_label_search.local_search``). A DAG has no separators, so no direction is forbidden.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

from pgmpy_sgm.core._exact_partition import best_regular_partition, valid_blocks
from pgmpy_sgm.core._local_search_kernels import compiled_local_search, mask_weights
from pgmpy_sgm.core.bitsets import iter_bits
from pgmpy_sgm.core.lines import canonical_groups
from pgmpy_sgm.core.optimize import (
    GroupsResult,
    partition_space,
)

__all__ = ["bdeu_class_weights", "optimal_bdeu_groups", "dirichlet_class_weights", "CachedBlockWeights"]

_METHODS = ("auto", "exact", "heuristic")

#: Largest number of parent configurations whose classes are found exactly.
MAX_EXACT_CONFIGS = 16


def bdeu_class_weights(counts2d, group_ids, ess: float = 1.0, log_kappa: float = 0.0) -> float:
    """Log score of a node whose parent configurations fall into the given classes.

    Parameters
    ----------
    counts2d : array_like, shape (q, r)
        Counts of the node's ``r`` states (columns) per parent configuration (rows).
    group_ids : array_like of int, shape (q,)
        Class of every configuration.
    ess : float, default=1.0
        Equivalent sample size; ``ess / (q r)`` per configuration and state.
    log_kappa : float, default=0.0
        Log of the structure prior's factor per removed free parameter (``<= 0``).

    Returns
    -------
    float
        Sum over classes of ``w(B)`` (module docstring). With every configuration in its
        own class this is pgmpy's BDeu family term.

    Examples
    --------
    >>> counts = np.array([[3, 1], [2, 2]])
    >>> round(bdeu_class_weights(counts, [0, 1], ess=4.0), 5)  # one per cell: K2 terms
    -6.39693
    >>> round(bdeu_class_weights(counts, [0, 0], ess=4.0), 5)
    -5.95324
    """
    counts = np.asarray(counts2d, dtype=np.float64)
    groups = np.asarray(group_ids, dtype=np.int64)
    q, r = counts.shape
    a = float(ess) / (q * r)
    n_groups = int(groups.max()) + 1
    lam = np.bincount(groups, minlength=n_groups).astype(np.float64)
    pooled = np.zeros((n_groups, r))
    np.add.at(pooled, groups, counts)
    return float(_weights(pooled, lam, a, log_kappa).sum())


def dirichlet_class_weights(pooled: np.ndarray, alphas: np.ndarray | float, sizes: np.ndarray,
                            log_kappa: float) -> np.ndarray:  # fmt: skip
    """Log marginal likelihood of every class plus its label charge, one value per class.

    ``pooled`` holds the counts of each class (classes x states), ``alphas`` the Dirichlet
    hyperparameter of each state in each class (or one number for every class: the same values,
    with the hyperparameter's own terms computed once), ``sizes`` the configurations each class
    holds; a class of ``s`` configurations is charged ``(s - 1)(r - 1) log_kappa``.

    Examples
    --------
    >>> w = dirichlet_class_weights(np.array([[1.0, 1.0]]), np.array([0.5]), np.array([1.0]), 0.0)
    >>> round(float(w[0]), 6) == round(math.log(0.5 * 0.5 / (1.0 * 2.0)), 6)  # Beta(1/2, 1/2)
    True
    >>> pooled = np.array([[3.0, 1.0], [0.0, 2.0]])
    >>> np.array_equal(dirichlet_class_weights(pooled, 0.5, np.ones(2), 0.1),
    ...                dirichlet_class_weights(pooled, np.full(2, 0.5), np.ones(2), 0.1))
    True
    """
    r = pooled.shape[1]
    per_state = alphas if np.ndim(alphas) == 0 else alphas[:, None]  # one number: its gamma terms once
    return (
        gammaln(r * alphas)
        - gammaln(pooled.sum(axis=1) + r * alphas)
        + (gammaln(pooled + per_state) - gammaln(per_state)).sum(axis=1)
        + (sizes - 1.0) * (r - 1) * log_kappa
    )


def _weights(pooled: np.ndarray, lam: np.ndarray, a: float, log_kappa: float) -> np.ndarray:
    return dirichlet_class_weights(pooled, a * lam, lam, log_kappa)


def _one_class_weight(pooled: list[float], size: int, a: float, log_kappa: float) -> float:
    """``w(B)`` of the module docstring for one class, in scalar arithmetic (the Python twin of the
    compiled search's weight, for checks and baselines).

    ``pooled`` holds the class's count of each state, ``size`` its configurations (``lam``) and
    ``a`` the BDeu hyperparameter per configuration and state.

    Examples
    --------
    >>> w = _one_class_weight([3.0, 1.0], 2, 0.5, 0.0)
    >>> bool(abs(w - _weights(np.array([[3.0, 1.0]]), np.array([2.0]), 0.5, 0.0)[0]) < 1e-12)
    True
    """
    alpha = a * size
    r = len(pooled)
    total = math.lgamma(r * alpha) - math.lgamma(sum(pooled) + r * alpha) - r * math.lgamma(alpha)
    for n in pooled:
        total += math.lgamma(n + alpha)
    return total + (size - 1) * (r - 1) * log_kappa


class CachedBlockWeights:
    """``weights`` of a block of configurations (a bitmask), cached; callable as ``local_search`` expects.

    ``weights(pooled, sizes)`` gives one value per class from the pooled counts and the sizes;
    ``one_class(pooled_list, size)``, when given, gives the same value for a single class without
    numpy (a block is one class: the search asks for many small blocks).

    Examples
    --------
    >>> counts = np.array([[3.0, 1.0], [2.0, 2.0]])
    >>> block = CachedBlockWeights(counts, lambda pooled, sizes: pooled[:, 0] + sizes)
    >>> block(0b11), block(0b01)
    (7.0, 4.0)
    """

    def __init__(self, counts: np.ndarray, weights, one_class=None):
        self.rows = counts
        self.weights = weights
        self.one_class = one_class
        self._cache: dict[int, float] = {}

    def __call__(self, block: int) -> float:
        w = self._cache.get(block)
        if w is None:
            members = list(iter_bits(block))
            pooled = self.rows[members].sum(axis=0)
            if self.one_class is not None:
                w = float(self.one_class(pooled.tolist(), len(members)))
            else:
                w = float(self.weights(pooled[None, :], np.array([float(len(members))]))[0])
            self._cache[block] = w
        return w


def _exact(cards: tuple[int, ...], counts: np.ndarray, a: float, log_kappa: float) -> np.ndarray:
    forbidden = (False,) * len(cards)
    weights = mask_weights(valid_blocks(cards, forbidden), counts, a, log_kappa)
    return best_regular_partition(cards, forbidden, weights, counts.shape[0])


def optimal_bdeu_groups(
    counts2d, cards, ess: float = 1.0, log_kappa: float = 0.0, method: str = "auto"
) -> GroupsResult:
    """Best maximal regular classes of one node's parent configurations.

    Parameters
    ----------
    counts2d : array_like, shape (prod(cards), r)
        Counts of the node's states per parent configuration (C order, last parent fastest).
    cards : sequence of int
        Parent cardinalities (each >= 2); empty for a node without parents.
    ess : float, default=1.0
        Equivalent sample size (> 0).
    log_kappa : float, default=0.0
        Log structure-prior factor per removed free parameter (``<= 0``; 0 is a flat prior).
    method : {"auto", "exact", "heuristic"}
        ``"exact"``: dynamic programme over all valid classes (at most
        :data:`MAX_EXACT_CONFIGS` configurations); ``"heuristic"``:
        greedy merges along lines, then best-improvement merges, detachments and splits,
        keeping every partition maximal and regular; ``"auto"``: exact when allowed.

    Returns
    -------
    GroupsResult
        ``value`` is :func:`bdeu_class_weights` of the classes found.

    Raises
    ------
    ValueError
        On a shape mismatch, negative counts, ``ess <= 0``, ``log_kappa > 0`` or an unknown method.

    Examples
    --------
    >>> counts = np.array([[40, 10], [39, 11], [5, 45], [41, 9]])  # parents (2, 2)
    >>> res = optimal_bdeu_groups(counts, (2, 2))
    >>> res.group_ids.tolist(), res.exact
    ([0, 0, 1, 0], True)
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    if not (isinstance(ess, int | float | np.number) and math.isfinite(ess) and ess > 0):
        raise ValueError(f"ess must be a positive number, got {ess!r}")
    if not (isinstance(log_kappa, int | float | np.number) and log_kappa <= 0):
        raise ValueError(f"log_kappa must be a number <= 0, got {log_kappa!r}")
    cards = tuple(int(k) for k in cards)
    if any(k < 2 for k in cards):
        raise ValueError(f"every cardinality in cards must be >= 2, got {cards}")
    counts = np.asarray(counts2d, dtype=np.float64)
    q = math.prod(cards)
    if counts.ndim != 2 or counts.shape[0] != q:
        raise ValueError(f"counts2d must have shape ({q}, r) for cards {cards}, got {counts.shape}")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError("counts2d must hold finite non-negative counts")
    a = float(ess) / (q * counts.shape[1])
    if method == "exact" and q > MAX_EXACT_CONFIGS:
        raise ValueError(f"method='exact' handles at most {MAX_EXACT_CONFIGS} parent configurations, got {q}")
    if len(cards) < 2:  # no line lies in a context of other parents: labels would delete the edge
        group_ids, exact, used = np.arange(q, dtype=np.int64), True, "exact"
    elif method == "heuristic" or (method == "auto" and q > MAX_EXACT_CONFIGS):
        space = partition_space(cards, (False,) * len(cards))
        blocks = compiled_local_search(space, counts, a, float(log_kappa))
        group_ids, exact, used = space.group_ids(blocks), False, "heuristic"
    else:
        group_ids, exact, used = _exact(cards, counts, a, float(log_kappa)), True, "exact"
    group_ids = canonical_groups(group_ids)
    group_ids.setflags(write=False)
    return GroupsResult(group_ids, bdeu_class_weights(counts, group_ids, ess, log_kappa), exact, used)
