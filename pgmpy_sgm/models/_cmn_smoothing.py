"""The pseudo-count of a contextual Markov network's fit chosen by cross-validation on the training rows."""

from __future__ import annotations

import numpy as np

from pgmpy_sgm.models._cmn_parameters import cyclical_projection, log_probabilities

__all__ = ["CV_PSEUDO_COUNTS", "CV_FOLDS", "fold_weights", "cv_log_likelihoods", "choose_pseudo_count"]

#: Pseudo-counts compared by ``ContextualMarkovNetwork.fit(pseudo_count="cv")``.
CV_PSEUDO_COUNTS = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0)

#: Folds of that cross-validation.
CV_FOLDS = 5


def fold_weights(weights: np.ndarray, n_folds: int, seed: int = 0) -> list[np.ndarray]:
    """Split integer row counts into ``n_folds`` count vectors, each unit row in one fold at random.

    Examples
    --------
    >>> parts = fold_weights(np.array([3.0, 0.0, 7.0]), 2)
    >>> [p.tolist() for p in parts], (parts[0] + parts[1]).tolist()  # doctest: +ELLIPSIS
    ([...], [3.0, 0.0, 7.0])
    """
    counts = np.asarray(weights, dtype=float)
    if np.any(counts < 0) or not np.allclose(counts, np.round(counts)):
        raise ValueError("pseudo_count='cv' needs whole-number row counts (the folds split rows); "
                         "give a number instead")  # fmt: skip
    units = np.repeat(np.arange(len(counts)), np.round(counts).astype(np.int64))
    if len(units) < n_folds:
        raise ValueError(f"pseudo_count='cv' needs at least {n_folds} rows; got {len(units)}")
    fold = np.random.default_rng(seed).permutation(len(units)) % n_folds
    return [np.bincount(units[fold == k], minlength=len(counts)).astype(float) for k in range(n_folds)]


def _counter(codes: np.ndarray, weights: np.ndarray, cards: dict, variables: list, cells: dict | None = None):
    """``counts(scope)``: the weighted table of ``scope``; ``cells`` keeps each scope's cell of every row (shared by
    counters of the same rows with other weights, e.g. the folds of a cross-validation)."""
    position = {v: i for i, v in enumerate(variables)}
    cells = {} if cells is None else cells

    def counts(scope):
        shape = [cards[v] for v in scope]
        key = tuple(scope)
        index = cells.get(key)
        if index is None:
            index = cells[key] = np.ravel_multi_index(tuple(codes[:, position[v]] for v in scope), shape) if scope \
                else np.zeros(len(codes), dtype=np.int64)
        return np.bincount(index, weights=weights, minlength=int(np.prod(shape, dtype=np.int64))).reshape(shape)

    return counts


def cv_log_likelihoods(graph, cards: dict, contexts: dict, codes: np.ndarray, weights: np.ndarray, variables: list,
                       pseudo_counts=CV_PSEUDO_COUNTS, n_folds: int = CV_FOLDS, seed: int = 0,
                       tol: float = 1e-6, max_iter: int = 200) -> dict:  # fmt: skip
    """``{pseudo_count: held-out log-likelihood per row}``, summed over ``n_folds`` folds of the rows.

    Each fold's rows are scored under the network fitted (cyclical projection to ``tol``, at most
    ``max_iter`` sweeps, started from the fit on all rows) on the others.

    Examples
    --------
    >>> import networkx as nx
    >>> codes = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
    >>> scores = cv_log_likelihoods(nx.Graph([("a", "b")]), {"a": 2, "b": 2}, {}, codes,
    ...                             np.array([40.0, 40.0, 10.0, 10.0]), ["a", "b"], (1.0, 1000.0))
    >>> bool(scores[1.0] > scores[1000.0])  # a huge pseudo-sample flattens a strong dependence
    True
    """
    folds = fold_weights(weights, n_folds, seed)
    total = {pc: 0.0 for pc in pseudo_counts}
    cells: dict = {}
    whole = _counter(codes, np.asarray(weights, dtype=float), cards, variables, cells)
    starts = {pc: cyclical_projection(graph, cards, contexts, whole, float(pc), tol, max_iter).log_potentials
              for pc in pseudo_counts}  # each fold's fit starts from the fit on all rows  # fmt: skip
    for k, held in enumerate(folds):
        train = sum(f for j, f in enumerate(folds) if j != k)
        counts = _counter(codes, train, cards, variables, cells)
        for pc in pseudo_counts:
            fit = cyclical_projection(graph, cards, contexts, counts, float(pc), tol, max_iter, starts[pc])
            total[pc] += float(held @ log_probabilities(fit.log_potentials, fit.log_z, codes, variables))
    n = float(np.sum(weights))
    return {pc: value / n for pc, value in total.items()}


def choose_pseudo_count(graph, cards: dict, contexts: dict, codes: np.ndarray, weights: np.ndarray,
                        variables: list) -> tuple[float, dict]:  # fmt: skip
    """The pseudo-count of :data:`CV_PSEUDO_COUNTS` with the best cross-validated likelihood, and every score.

    Ties go to the smaller pseudo-count.

    Examples
    --------
    >>> import networkx as nx
    >>> codes = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
    >>> best, scores = choose_pseudo_count(nx.Graph([("a", "b")]), {"a": 2, "b": 2}, {}, codes,
    ...                                    np.array([40.0, 40.0, 10.0, 10.0]), ["a", "b"])
    >>> best in scores and scores[best] == max(scores.values())
    True
    """
    scores = cv_log_likelihoods(graph, cards, contexts, codes, weights, variables)
    best = max(scores, key=lambda pc: (scores[pc], -pc))
    return best, scores
