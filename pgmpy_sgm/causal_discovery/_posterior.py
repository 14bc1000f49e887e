"""Posterior tables from scored graphs: strata, normalized probabilities and edge marginals."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pgmpy_sgm.core.lines import labels_from_groups
from pgmpy_sgm.core.moves import DecomposableState, ScoreTables, iter_bits

__all__ = ["POSTERIOR_COLUMNS", "graph_strata", "posterior_frame", "pair_probabilities", "edge_probability_frame"]

POSTERIOR_COLUMNS = ["edges", "strata", "log_posterior", "probability", "n_edges", "n_labels"]


def _clique_strata(tables: ScoreTables, state_names: dict, clique: int, forbidden: int) -> tuple[dict, int]:
    """Strata (as in ``StratifiedGraph.strata``) of one clique's best labelling, and its number of labels."""
    cache = tables.__dict__.setdefault("_strata_fragments", {})
    key = (clique, forbidden)
    hit = cache.get(key)
    if hit is not None:
        return hit
    labelling = tables.labelling(clique, forbidden)
    strata: dict = {}
    n_labels = 0
    if labelling.center is not None:
        nodes = list(iter_bits(clique))
        names = tables.variables
        center = nodes[labelling.center]
        parents = [w for w in nodes if w != center]
        cards = tuple(tables.cards[w] for w in parents)
        for direction, rows in labels_from_groups(cards, np.asarray(labelling.group_ids)).items():
            if len(rows) == 0:
                continue
            u = parents[direction]
            others = [w for w in parents if w != u]
            other_cards = [tables.cards[w] for w in others]
            contexts = []
            for row in rows:
                index = np.unravel_index(int(row), other_cards) if others else ()
                contexts.append({names[w]: state_names[names[w]][int(s)] for w, s in zip(others, index, strict=True)})
            a, b = min(u, center), max(u, center)
            strata[(names[a], names[b])] = contexts
            n_labels += len(contexts)
    cache[key] = (strata, n_labels)
    return strata, n_labels


def graph_strata(tables: ScoreTables, state_names: dict, key: int) -> tuple[dict, int]:
    """Optimal strata of the graph ``key`` (edge orientation and context order of ``StratifiedGraph.strata``).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> score = SGMScore(load_heart_disease(as_counts=True), weights="count")
    >>> tables = ScoreTables(score)
    >>> key = sum(1 << tables.pair_index[i][j] for i, j in [(0, 2), (0, 3), (0, 4), (1, 2), (2, 4), (3, 4)])
    >>> strata, n_labels = graph_strata(tables, score.state_names, key)
    >>> strata
    {('smoking', 'systolic_bp'): [{'lipoprotein_ratio': 1}], ('systolic_bp', 'lipoprotein_ratio'): [{'smoking': 0}]}
    >>> n_labels
    2
    """
    state = DecomposableState(tables, key, strata=True)
    strata: dict = {}
    n_labels = 0
    for clique, gain in state.gains.items():
        if gain:
            part, count = _clique_strata(tables, state_names, clique, state._forbidden(clique, {}))
            strata.update(part)
            n_labels += count
    return dict(sorted(strata.items(), key=lambda item: tuple(tables.variables.index(v) for v in item[0]))), n_labels


def _key_bits(keys: list[int], n_pairs: int) -> np.ndarray:
    n_bytes = max(1, (n_pairs + 7) // 8)
    raw = b"".join(k.to_bytes(n_bytes, "little") for k in keys)
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8).reshape(len(keys), n_bytes), axis=1, bitorder="little")
    return bits[:, :n_pairs]


def pair_probabilities(scores: dict, n_pairs: int) -> np.ndarray:
    """Posterior probability of each pair index being an edge, normalizing ``{key: log posterior}``.

    Examples
    --------
    >>> import math
    >>> pair_probabilities({0b01: 0.0, 0b11: math.log(3.0)}, 2).round(3).tolist()
    [1.0, 0.75]
    """
    if not scores:
        return np.zeros(n_pairs)
    keys = list(scores)
    log_post = np.array([scores[k] for k in keys], dtype=np.float64)
    weights = np.exp(log_post - log_post.max())
    return (weights / weights.sum()) @ _key_bits(keys, n_pairs)


def posterior_frame(
    tables: ScoreTables,
    state_names: dict,
    scores: dict,
    strata: bool = True,
    n_strata_rows: int | None = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """The posterior table of scored graphs and the pair-probability vector.

    Parameters
    ----------
    tables : ScoreTables
    state_names : dict
    scores : dict
        ``{key: log unnormalized posterior}``.
    strata : bool
        Whether the graphs carry their optimal strata.
    n_strata_rows : int or (int, float, int), optional
        Fill ``strata`` and ``n_labels`` only for this many top rows; a triple
        ``(at_least, mass, at_most)`` fills the top rows holding ``mass`` of the
        probability, but at least ``at_least`` and at most ``at_most`` rows (None: all rows).

    Returns
    -------
    (pandas.DataFrame, numpy.ndarray)
        Rows sorted by ``log_posterior`` (then fewer edges, then key); and the posterior
        probability of each pair index being an edge.
    """
    keys = sorted(scores, key=lambda k: (-scores[k], k.bit_count(), k))
    n_pairs = len(tables.pairs)
    log_post = np.array([scores[k] for k in keys], dtype=np.float64)
    if len(keys):
        weights = np.exp(log_post - log_post[0])
        prob = weights / weights.sum()
    else:
        prob = np.zeros(0)
    bits = _key_bits(keys, n_pairs) if keys else np.zeros((0, n_pairs), dtype=np.uint8)
    pair_prob = prob @ bits if keys else np.zeros(n_pairs)
    names = tables.variables
    pairs = tables.pairs
    edges = [tuple((names[pairs[p][0]], names[pairs[p][1]]) for p in iter_bits(k)) for k in keys]
    if n_strata_rows is None:
        limit = len(keys)
    elif isinstance(n_strata_rows, tuple):
        at_least, mass, at_most = n_strata_rows
        holding = int(np.searchsorted(np.cumsum(prob), mass)) + 1 if len(keys) else 0
        limit = min(len(keys), max(at_least, min(holding, at_most)))
    else:
        limit = min(len(keys), n_strata_rows)
    strata_col: list = [None] * len(keys)
    labels_col: list = [pd.NA] * len(keys)
    for r in range(limit):
        if strata:
            strata_col[r], labels_col[r] = graph_strata(tables, state_names, keys[r])
        else:
            strata_col[r], labels_col[r] = {}, 0
    frame = pd.DataFrame(
        {
            "edges": pd.Series(edges, dtype=object),
            "strata": pd.Series(strata_col, dtype=object),
            "log_posterior": log_post,
            "probability": prob,
            "n_edges": np.array([k.bit_count() for k in keys], dtype=np.int64),
            "n_labels": pd.array(labels_col, dtype="Int64"),
        },
        columns=POSTERIOR_COLUMNS,
    )
    return frame, np.asarray(pair_prob, dtype=np.float64)


def edge_probability_frame(tables: ScoreTables, pair_prob: np.ndarray) -> pd.DataFrame:
    """Square symmetric DataFrame of edge posterior probabilities (diagonal 0)."""
    n = tables.n
    matrix = np.zeros((n, n))
    for p, (i, j) in enumerate(tables.pairs):
        matrix[i, j] = matrix[j, i] = pair_prob[p]
    return pd.DataFrame(matrix, index=list(tables.variables), columns=list(tables.variables))
