"""Posterior tables from scored graphs: strata, normalized probabilities and edge marginals."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.graph_store import GraphStore
from pgmpy_sgm.core.moves import DecomposableState

__all__ = [
    "POSTERIOR_COLUMNS", "graph_strata", "posterior_frame", "pair_probabilities", "edge_probabilities_of",
    "edge_probability_frame",
]

POSTERIOR_COLUMNS = ["edges", "strata", "log_posterior", "probability", "n_edges", "n_labels"]


def graph_strata(engine: ScoreEngine, key: int) -> tuple[dict, int]:
    """Optimal strata of the graph ``key`` (edge orientation and context order of ``StratifiedGraph.strata``).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> key = sum(1 << engine.pair_index[i][j] for i, j in [(0, 2), (0, 3), (0, 4), (1, 2), (2, 4), (3, 4)])
    >>> strata, n_labels = graph_strata(engine, key)
    >>> strata
    {('smoking', 'systolic_bp'): [{'lipoprotein_ratio': 1}], ('systolic_bp', 'lipoprotein_ratio'): [{'smoking': 0}]}
    >>> n_labels
    2
    """
    state = DecomposableState(engine, key, strata=True)
    strata: dict = {}
    n_labels = 0
    for clique, gain in state.gains.items():
        if gain:
            part, count = engine.clique_strata(clique, state.forbidden(clique))
            strata.update(part)
            n_labels += count
    return dict(sorted(strata.items(), key=lambda item: tuple(engine.index[v] for v in item[0]))), n_labels


def edge_probabilities_of(store: GraphStore, log_posts: np.ndarray, n_pairs: int, rows=None) -> np.ndarray:
    """Posterior probability of each pair index being an edge, normalizing the graphs of a store.

    Memory follows a chunk of the graphs' edges, not all of them at once
    (:meth:`GraphStore.weighted_pair_sums <pgmpy_sgm.core.graph_store.GraphStore.weighted_pair_sums>`).

    Parameters
    ----------
    store : GraphStore
    log_posts : numpy.ndarray
        The log unnormalized posterior of each graph of ``rows`` (or of every graph, in
        insertion order).
    n_pairs : int
    rows : sequence of int, optional
        Insertion positions of the graphs normalized over (default: all).

    Examples
    --------
    >>> import math
    >>> store = GraphStore({0b01: 0.0, 0b11: math.log(3.0)})
    >>> edge_probabilities_of(store, np.array([0.0, math.log(3.0)]), 2).round(3).tolist()
    [1.0, 0.75]
    """
    if not len(log_posts):
        return np.zeros(n_pairs)
    weights = np.exp(log_posts - log_posts.max())
    return store.weighted_pair_sums(weights / weights.sum(), n_pairs, rows)


def pair_probabilities(scores: Mapping, n_pairs: int) -> np.ndarray:
    """Posterior probability of each pair index being an edge, normalizing ``{key: log posterior}``.

    Examples
    --------
    >>> import math
    >>> pair_probabilities({0b01: 0.0, 0b11: math.log(3.0)}, 2).round(3).tolist()
    [1.0, 0.75]
    """
    store = scores if isinstance(scores, GraphStore) else GraphStore(scores)
    log_posts = np.fromiter(store.values(), dtype=np.float64, count=len(store))
    return edge_probabilities_of(store, log_posts, n_pairs)


def _posterior_order(store: GraphStore, log_posts: np.ndarray, n_edges: np.ndarray) -> list[int]:
    """Rows by decreasing log posterior, then fewer edges, then smaller key (keys unpacked for ties only)."""
    rows = np.lexsort((n_edges, -log_posts))
    tied = ((log_posts[rows][1:] == log_posts[rows][:-1]) & (n_edges[rows][1:] == n_edges[rows][:-1])).tolist()
    order = rows.tolist()
    if not any(tied):
        return order
    runs, start = [], 0
    for i in range(1, len(order) + 1):
        if i == len(order) or not tied[i - 1]:
            if i - start > 1:
                runs.append((start, i))
            start = i
    rows = [r for a, b in runs for r in order[a:b]]
    key_of = dict(zip(rows, store.keys_at(rows), strict=True))
    for a, b in runs:
        order[a:b] = sorted(order[a:b], key=key_of.__getitem__)
    return order


def posterior_frame(
    engine: ScoreEngine,
    scores: dict,
    strata: bool = True,
    n_strata_rows: int | None = None,
    margin: float | None = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """The posterior table of scored graphs and the pair-probability vector.

    Parameters
    ----------
    engine : ScoreEngine
    scores : dict or GraphStore
        ``{key: log unnormalized posterior}``.
    strata : bool
        Whether the graphs carry their optimal strata.
    n_strata_rows : int or (int, float, int), optional
        Fill ``strata`` and ``n_labels`` only for this many top rows; a triple
        ``(at_least, mass, at_most)`` fills the top rows holding ``mass`` of the
        probability, but at least ``at_least`` and at most ``at_most`` rows (None: all rows).
    margin : float, optional
        Leave out the rows of graphs more than ``margin`` log-units below the best (None: keep
        every row). They still count in the normalisation and in the pair probabilities, so
        the rows kept have the probabilities they would have in the whole table.

    Returns
    -------
    (pandas.DataFrame, numpy.ndarray)
        Rows sorted by ``log_posterior`` (then fewer edges, then key); and the posterior
        probability of each pair index being an edge.

    Examples
    --------
    >>> import math
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> scores = {0b1: 0.0, 0b11: math.log(3.0), 0b111: -100.0}  # the last is e^-100 times less likely
    >>> frame, pair_prob = posterior_frame(engine, scores, strata=False, margin=50.0)
    >>> frame["probability"].round(3).tolist(), pair_prob[:3].round(3).tolist()
    ([0.75, 0.25], [1.0, 0.75, 0.0])
    """
    if margin is not None and not margin >= 0:  # NaN too
        raise ValueError(f"margin must be a non-negative number of log-units or None. Got: {margin!r}")
    store = scores if isinstance(scores, GraphStore) else GraphStore(scores)
    n_pairs = len(engine.pairs)
    all_log_posts = np.fromiter(store.values(), dtype=np.float64, count=len(store))
    all_n_edges = store.edge_counts()
    order = _posterior_order(store, all_log_posts, all_n_edges)
    log_post, n_edges = all_log_posts[order], all_n_edges[order]
    if len(order):
        weights = np.exp(log_post - log_post[0])
        prob = weights / weights.sum()
    else:
        prob = np.zeros(0)
    pair_prob = store.weighted_pair_sums(prob, n_pairs, rows=order)
    if margin is not None and len(order):
        kept = int(np.searchsorted(-log_post, margin - log_post[0], side="right"))  # log_post falls row by row
        order = order[:kept]
        log_post, n_edges, prob = log_post[:kept], n_edges[:kept], prob[:kept]
    names = engine.variables
    named_pairs = [(names[i], names[j]) for i, j in engine.pairs]
    edges = [tuple(named_pairs[p] for p in graph.tolist()) for graph in store.edge_positions(order)]
    if n_strata_rows is None:
        limit = len(order)
    elif isinstance(n_strata_rows, tuple):
        at_least, mass, at_most = n_strata_rows
        holding = int(np.searchsorted(np.cumsum(prob), mass)) + 1 if len(order) else 0
        limit = min(len(order), max(at_least, min(holding, at_most)))
    else:
        limit = min(len(order), n_strata_rows)
    strata_col: list = [None] * len(order)
    labels_col: list = [pd.NA] * len(order)
    for r, key in enumerate(store.keys_at(order[:limit])):
        strata_col[r], labels_col[r] = graph_strata(engine, key) if strata else ({}, 0)
    frame = pd.DataFrame(
        {
            "edges": pd.Series(edges, dtype=object),
            "strata": pd.Series(strata_col, dtype=object),
            "log_posterior": log_post,
            "probability": prob,
            "n_edges": n_edges,
            "n_labels": pd.array(labels_col, dtype="Int64"),
        },
        columns=POSTERIOR_COLUMNS,
    )
    return frame, np.asarray(pair_prob, dtype=np.float64)


def edge_probability_frame(engine: ScoreEngine, pair_prob: np.ndarray) -> pd.DataFrame:
    """Square symmetric DataFrame of edge posterior probabilities (diagonal 0)."""
    n = engine.n
    matrix = np.zeros((n, n))
    for p, (i, j) in enumerate(engine.pairs):
        matrix[i, j] = matrix[j, i] = pair_prob[p]
    return pd.DataFrame(matrix, index=list(engine.variables), columns=list(engine.variables))
