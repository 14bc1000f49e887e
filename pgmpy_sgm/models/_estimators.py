"""pgmpy's parameter estimators read as pooled-count rules, so that tied distributions stay tied.

pgmpy's ``DiscreteMLE`` and ``DiscreteBayesianEstimator`` estimate one distribution per
parent configuration. The models of this package tie configurations (the classes of a
labelled DAG, the groups of a stratified graph); they read an estimator's settings here and
estimate each tied distribution from the pooled counts of its configurations, plus the
pseudo-counts of those configurations summed (zero for maximum likelihood).

============== ===========================================================================
term           meaning
============== ===========================================================================
kind           ``"mle"``, ``"k2"`` (1 per cell), ``"bdeu"`` (``ESS / (r q)`` per cell) or
               ``"dirichlet"`` (the estimator's ``pseudo_counts``)
alias          ``"mle"``, ``"bayes"`` or ``"bayesian"``: strings kept from earlier versions
============== ===========================================================================
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

__all__ = [
    "EstimatorSpec",
    "read_estimator",
    "merge_weights",
    "node_pseudo_counts",
    "pgmpy_parent_order",
    "pooled_distributions",
    "reorder_columns",
]

_ALIASES = ("mle", "bayes", "bayesian")
_PRIORS = ("bdeu", "k2", "dirichlet")


@dataclass(frozen=True)
class EstimatorSpec:
    """What a parameter estimator asks for, read from a pgmpy estimator or an alias.

    Attributes
    ----------
    kind : {"mle", "bayes", "k2", "bdeu", "dirichlet"}
        ``"bayes"`` is the model's own Bayesian default (see the model's ``fit``).
    equivalent_sample_size : float, dict or None
        Of ``"bdeu"``.
    pseudo_counts : float, dict or None
        Of ``"dirichlet"``.
    state_names : dict
        The estimator's ``state_names`` (empty when it has none).
    """

    kind: str
    equivalent_sample_size: object = None
    pseudo_counts: object = None
    state_names: dict | None = None


def read_estimator(estimator) -> EstimatorSpec:
    """The settings of ``estimator``: a pgmpy estimator instance or class, or an alias string.

    Raises
    ------
    TypeError
        For anything else than an alias, ``DiscreteMLE`` or ``DiscreteBayesianEstimator``.
    ValueError
        For an unknown alias or prior type, or a pgmpy estimator that cannot keep ties
        (``DiscreteEM``).

    Examples
    --------
    >>> from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE
    >>> read_estimator(DiscreteMLE).kind, read_estimator("bayesian").kind
    ('mle', 'bayes')
    >>> read_estimator(DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=2))
    EstimatorSpec(kind='bdeu', equivalent_sample_size=2, pseudo_counts=None, state_names={})
    """
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE
    from pgmpy.parameter_estimator.base import BaseParameterEstimator

    if isinstance(estimator, str):
        if estimator.lower() not in _ALIASES:
            raise ValueError(f"estimator must be one of: {', '.join(_ALIASES)}, or a pgmpy DiscreteMLE or "
                             f"DiscreteBayesianEstimator. Got: {estimator!r}")
        return EstimatorSpec("mle" if estimator.lower() == "mle" else "bayes", state_names={})
    if isinstance(estimator, type) and issubclass(estimator, (DiscreteMLE, DiscreteBayesianEstimator)):
        estimator = estimator()
    names = dict(getattr(estimator, "state_names", None) or {})
    if isinstance(estimator, DiscreteMLE):
        return EstimatorSpec("mle", state_names=names)
    if isinstance(estimator, DiscreteBayesianEstimator):
        prior = str(estimator.prior_type).lower()
        if prior not in _PRIORS:
            raise ValueError(f"prior_type of the DiscreteBayesianEstimator must be one of: BDeu, K2, dirichlet. "
                             f"Got: {estimator.prior_type!r}")
        return EstimatorSpec(prior, estimator.equivalent_sample_size, estimator.pseudo_counts, names)
    if isinstance(estimator, BaseParameterEstimator) or (
        isinstance(estimator, type) and issubclass(estimator, BaseParameterEstimator)
    ):
        name = estimator.__name__ if isinstance(estimator, type) else type(estimator).__name__
        raise ValueError(f"estimator {name} cannot keep tied distributions; use DiscreteMLE or "
                         "DiscreteBayesianEstimator (or fit a plain pgmpy DiscreteBayesianNetwork).")
    raise TypeError(f"estimator must be an alias string ({', '.join(_ALIASES)}) or a pgmpy DiscreteMLE or "
                    f"DiscreteBayesianEstimator (instance or class). Got: {type(estimator).__name__}")


def merge_weights(weights, sample_weight):
    """The one weights argument from pgmpy's ``sample_weight`` and this package's ``weights``.

    Examples
    --------
    >>> merge_weights(None, [1, 2])
    [1, 2]
    >>> merge_weights("n", [1, 2])
    Traceback (most recent call last):
        ...
    ValueError: Give sample_weight or weights, not both
    """
    if sample_weight is not None and weights is not None:
        raise ValueError("Give sample_weight or weights, not both")
    if isinstance(sample_weight, str):
        raise TypeError("sample_weight must hold one weight per row; a count column's name goes in weights=")
    return sample_weight if sample_weight is not None else weights


def reorder_columns(values, parents, cards, new_parents) -> np.ndarray:
    """A ``(r, q)`` table whose columns follow ``parents`` (C order) re-laid for ``new_parents``.

    Examples
    --------
    >>> reorder_columns(np.array([[0, 1, 2, 3]]), ["a", "b"], [2, 2], ["b", "a"]).tolist()
    [[0.0, 2.0, 1.0, 3.0]]
    """
    values = np.asarray(values, dtype=np.float64)
    parents, new_parents = list(parents), list(new_parents)
    if parents == new_parents or len(parents) < 2:
        return values
    r = values.shape[0]
    axes = [0] + [1 + parents.index(p) for p in new_parents]
    return np.transpose(values.reshape([r, *cards]), axes).reshape(r, -1)


def pgmpy_parent_order(parents) -> list:
    """The parent order of pgmpy's estimated tables: sorted (the given order when names do not sort).

    Examples
    --------
    >>> pgmpy_parent_order(["b", "a"]), pgmpy_parent_order([1, "a"])
    (['a', 'b'], [1, 'a'])
    """
    try:
        return sorted(parents)
    except TypeError:
        return list(parents)


def _positive(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value) or value < 0:
        raise ValueError(f"{what} must be a non-negative number. Got: {value!r}")
    return float(value)


def node_pseudo_counts(spec: EstimatorSpec, node, parents, cards, r: int, pgmpy_parents) -> np.ndarray:
    """Pseudo-counts ``(r, q)`` of ``node``'s configurations (columns in ``parents`` C order), as pgmpy sets them.

    ``pgmpy_parents`` is the parent order of pgmpy's tables (``sorted(parents)``), in which
    a Dirichlet ``pseudo_counts`` array is read.

    Examples
    --------
    >>> node_pseudo_counts(EstimatorSpec("bdeu", 4.0), "y", ["a"], [2], 2, ["a"]).tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    q = int(np.prod(cards, dtype=np.int64))
    if spec.kind == "mle":
        return np.zeros((r, q))
    if spec.kind == "k2":
        return np.ones((r, q))
    if spec.kind == "bdeu":
        ess = spec.equivalent_sample_size
        ess = ess.get(node, 0) if isinstance(ess, dict) else ess
        return np.full((r, q), _positive(ess, f"equivalent_sample_size of {node!r}") / (r * q))
    given = spec.pseudo_counts.get(node) if isinstance(spec.pseudo_counts, dict) else spec.pseudo_counts
    if given is None:
        return np.zeros((r, q))
    if isinstance(given, numbers.Real) and not isinstance(given, bool):
        return np.full((r, q), _positive(given, f"pseudo_counts of {node!r}"))
    array = np.asarray(given, dtype=np.float64)
    if array.shape != (r, q):
        raise ValueError(f"The shape of pseudo_counts for the node {node!r} must be {(r, q)}. Got: {array.shape}")
    if not np.isfinite(array).all() or (array < 0).any():
        raise ValueError(f"pseudo_counts of {node!r} must be finite and non-negative")
    order = dict(zip(parents, cards, strict=True))
    return reorder_columns(array, pgmpy_parents, [order[p] for p in pgmpy_parents], parents)


def pooled_distributions(counts, pseudo, group_ids) -> np.ndarray:
    """``(r, n_groups)``: per group, (pooled counts + summed pseudo-counts), normalised.

    ``counts`` has one row per configuration and one column per state; ``pseudo`` is
    ``(r, q)``. A group with nothing to normalise gets the uniform distribution (as
    pgmpy's ``DiscreteMLE`` gives an unobserved configuration).

    Examples
    --------
    >>> pooled_distributions(np.array([[3.0, 1.0], [1.0, 3.0], [0.0, 0.0]]), np.zeros((2, 3)), [0, 0, 1]).tolist()
    [[0.5, 0.5], [0.5, 0.5]]
    """
    ids = np.asarray(group_ids, dtype=np.int64)
    n_groups = int(ids.max()) + 1
    pooled = np.zeros((n_groups, np.shape(counts)[1]))
    np.add.at(pooled, ids, np.asarray(counts, dtype=np.float64) + np.asarray(pseudo, dtype=np.float64).T)
    totals = pooled.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(totals > 0, pooled / np.where(totals > 0, totals, 1.0), 1.0 / pooled.shape[1])
    return out.T
