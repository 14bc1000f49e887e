"""Estimating the parameters of a stratified graphical model step by step (see ``_factor_plan`` for the terms).

Bayesian estimates of each step's tables from counts (with the pseudo counts of the
model's prior), and the translation between a joint distribution and the steps' tables.
"""

from __future__ import annotations

import numpy as np

from pgmpy_sgm.models._factor_plan import CliqueFactor, cell_count

__all__ = [
    "conditional_table",
    "clique_pseudo_count",
    "pooled_group_values",
    "marginal",
    "broadcast",
    "clique_array",
    "check_distribution",
    "factor_from_joint",
]


def conditional_table(counts: np.ndarray, n_given: int, pseudo: float) -> np.ndarray:
    """``(counts + pseudo) / (row total + pseudo * n_cells)`` per configuration of the first axes.

    Rows whose denominator is zero (maximum likelihood with no data) become uniform.

    Parameters
    ----------
    counts : numpy.ndarray
        Counts over ``given + new`` axes.
    n_given : int
        Number of leading (conditioning) axes.
    pseudo : float
        Pseudo-count added to every cell.

    Examples
    --------
    >>> conditional_table(np.array([[3.0, 1.0], [0.0, 0.0]]), 1, 0.0).tolist()
    [[0.75, 0.25], [0.5, 0.5]]
    >>> conditional_table(np.array([[3.0, 1.0], [0.0, 0.0]]), 1, 1.0).tolist()
    [[0.6666666666666666, 0.3333333333333333], [0.5, 0.5]]
    """
    counts = np.asarray(counts, dtype=np.float64)
    shape = counts.shape
    n_rows = cell_count(shape[:n_given])
    flat = counts.reshape(n_rows, -1) + pseudo
    totals = flat.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(totals > 0, flat / np.where(totals > 0, totals, 1.0), 1.0 / flat.shape[1])
    return out.reshape(shape)


def clique_pseudo_count(spec, n_cells: int) -> float:
    """Pseudo-count per cell of a clique of ``n_cells`` cells under an estimator's settings.

    ``spec`` is an :class:`~pgmpy_sgm.models._estimators.EstimatorSpec`: 0 for maximum
    likelihood, 1 for ``"bayes"`` and K2, ``ESS / n_cells`` for BDeu, the number given for
    a Dirichlet prior (0 without one).

    Examples
    --------
    >>> from pgmpy_sgm.models._estimators import EstimatorSpec
    >>> clique_pseudo_count(EstimatorSpec("bdeu", 8), 4), clique_pseudo_count(EstimatorSpec("k2"), 4)
    (2.0, 1.0)
    """
    import numbers

    if spec.kind == "mle":
        return 0.0
    if spec.kind in ("bayes", "k2"):
        return 1.0
    value, what = (
        (spec.equivalent_sample_size, "equivalent_sample_size")
        if spec.kind == "bdeu"
        else (0 if spec.pseudo_counts is None else spec.pseudo_counts, "pseudo_counts")
    )
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{what} of a StratifiedGraphicalModel's estimator must be one number (per-variable "
                         f"values do not fit clique tables; fit to_bayesian_network() for those). Got: {value!r}")
    if not (np.isfinite(value) and value >= 0):
        raise ValueError(f"{what} must be a non-negative number. Got: {value!r}")
    return float(value) / n_cells if spec.kind == "bdeu" else float(value)


def pooled_group_values(counts2d: np.ndarray, group_ids, pseudo_per_config: float) -> np.ndarray:
    """``P(center = i | group B) = (n_iB + a lambda_B) / (n_B + k a lambda_B)`` with ``a = pseudo_per_config``.

    ``counts2d`` has one row per parent configuration and one column per center state;
    ``lambda_B`` is the number of configurations in ``B``. Groups without data and
    ``a = 0`` get the uniform distribution. Returns shape ``(k, n_groups)``.

    Examples
    --------
    >>> pooled_group_values(np.array([[3.0, 1.0], [1.0, 3.0], [0.0, 0.0]]), [0, 1, 0], 1.0).tolist()
    [[0.625, 0.3333333333333333], [0.375, 0.6666666666666666]]
    """
    group_ids = np.asarray(group_ids, dtype=np.int64)
    counts2d = np.asarray(counts2d, dtype=np.float64)
    k = counts2d.shape[1]
    n_groups = int(group_ids.max()) + 1
    pooled = np.zeros((n_groups, k))
    np.add.at(pooled, group_ids, counts2d)
    lam = np.bincount(group_ids, minlength=n_groups).astype(np.float64)
    return conditional_table(pooled + pseudo_per_config * lam[:, None], 1, 0.0).T


def marginal(values: np.ndarray, nodes: list, variables) -> np.ndarray:
    """Marginal of a joint array (axes in ``nodes`` order) with axes in ``variables`` order.

    Examples
    --------
    >>> marginal(np.arange(8.0).reshape(2, 2, 2), ["a", "b", "c"], ["c", "a"]).tolist()
    [[2.0, 10.0], [4.0, 12.0]]
    """
    keep = [nodes.index(v) for v in variables]
    drop = tuple(i for i in range(len(nodes)) if i not in keep)
    return np.transpose(values.sum(axis=drop), np.argsort(np.argsort(keep)))


def broadcast(array: np.ndarray, variables, nodes) -> np.ndarray:
    """View of ``array`` (axes in ``variables`` order) broadcastable against a joint over ``nodes``.

    Examples
    --------
    >>> broadcast(np.zeros((3, 2)), ["c", "a"], ["a", "b", "c"]).shape
    (2, 1, 3)
    """
    position = [nodes.index(v) for v in variables]
    order = np.argsort(position)
    shape = [1] * len(nodes)
    for axis in order:
        shape[position[axis]] = array.shape[axis]
    return np.transpose(array, order).reshape(shape)


def clique_array(factor: CliqueFactor, states) -> np.ndarray:
    """``P(X_{C \\ S} | X_S)`` of one clique as an array over ``factor.clique`` (its axes in clique order).

    ``states(v)`` gives the states of ``v``. The product of the arrays of all cliques is the joint.

    Examples
    --------
    >>> step = CliqueFactor(("a", "b"), ("a",), ("b",)).with_values([[0.9, 0.1], [0.2, 0.8]])
    >>> clique_array(step, lambda v: (0, 1)).tolist()
    [[0.9, 0.1], [0.2, 0.8]]
    """
    clique = list(factor.clique)
    out = broadcast(factor.table, factor.table_variables, clique)
    if factor.center is not None:
        k = len(states(factor.center))
        parent_cards = [len(states(w)) for w in factor.parents]
        center = factor.group_values[:, list(factor.group_ids)].reshape([k, *parent_cards])
        out = out * broadcast(center, (factor.center, *factor.parents), clique)
    return np.broadcast_to(out, [len(states(w)) for w in clique]).copy()


def check_distribution(array, shape, n_given: int, what: str, tol: float = 1e-8) -> None:
    """Raise ``ValueError`` unless ``array`` has ``shape`` and holds conditionals over its last axes.

    Examples
    --------
    >>> check_distribution(np.array([[0.5, 0.6]]), (1, 2), 1, "table")
    Traceback (most recent call last):
        ...
    ValueError: The table has distributions summing to 1.1, not 1
    """
    if array is None or tuple(array.shape) != tuple(shape):
        got = None if array is None else tuple(array.shape)
        raise ValueError(f"The {what} has shape {got}; expected {tuple(shape)}")
    if not np.isfinite(array).all() or (array < 0).any():
        raise ValueError(f"The {what} holds negative or non-finite probabilities")
    sums = array.reshape(cell_count(shape[:n_given]), -1).sum(axis=1)
    if np.any(np.abs(sums - 1.0) > tol):
        raise ValueError(f"The {what} has distributions summing to {float(sums[np.argmax(np.abs(sums - 1))])!r}, not 1")


def factor_from_joint(step: CliqueFactor, values: np.ndarray, nodes: list, states, atol: float) -> CliqueFactor:
    """The parameters of ``step`` read off a joint array; checks that a center's groups hold.

    ``states(v)`` gives the states of ``v``. Conditioning configurations of probability zero
    get uniform conditionals.
    """
    n_sep = len(step.separator)
    if step.center is None:
        return step.with_values(conditional_table(marginal(values, nodes, step.separator + step.new), n_sep, 0.0))
    table = conditional_table(marginal(values, nodes, step.table_variables), n_sep, 0.0)
    k = len(states(step.center))
    counts = marginal(values, nodes, step.parents + (step.center,)).reshape(-1, k)
    group_values = pooled_group_values(counts, step.group_ids, 0.0)
    mass = counts.sum(axis=1)
    cond = counts / np.where(mass > 0, mass, 1.0)[:, None]
    deviation = np.abs(cond - group_values.T[list(step.group_ids)]).max(axis=1) * (mass > atol)
    if deviation.max() > atol:
        config = int(np.argmax(deviation))
        raise ValueError(
            f"The joint does not satisfy the strata of clique {step.clique}: P({step.center} | {step.parents}) "
            f"at configuration {config} differs by {deviation.max():.3g} from its group's distribution."
        )
    return step.with_values(table, group_values)
