"""Evaluating and sampling a stratified graphical model along its steps (see ``_factor_plan`` for the terms)."""

from __future__ import annotations

import numpy as np

from pgmpy_sgm.models._factor_plan import cell_count

__all__ = ["log_probabilities", "forward_sample"]


def log_probabilities(factors, codes: np.ndarray, nodes: list, states) -> np.ndarray:
    """Log probability of every row of ``codes`` (state indices, columns in ``nodes`` order).

    ``states(v)`` gives the states of ``v``; rows of probability zero get ``-inf``.
    """
    index = {v: j for j, v in enumerate(nodes)}
    total = np.zeros(len(codes))
    with np.errstate(divide="ignore"):
        for f in factors:
            total += np.log(f.table[tuple(codes[:, index[w]] for w in f.table_variables)])
            if f.center is not None:
                cards = [len(states(w)) for w in f.parents]
                configs = np.ravel_multi_index([codes[:, index[w]] for w in f.parents], cards)
                groups = np.asarray(f.group_ids)[configs]
                total += np.log(f.group_values[codes[:, index[f.center]], groups])
    return total


def forward_sample(factors, states, n: int, rng: np.random.Generator) -> dict:
    """``{variable: state indices}`` of ``n`` rows drawn clique by clique along the perfect ordering."""
    codes: dict = {}

    def draw(probabilities: np.ndarray) -> np.ndarray:
        if not n:
            return np.zeros(0, dtype=np.int64)
        cdf = np.cumsum(probabilities, axis=1)
        u = rng.random(len(probabilities)) * cdf[:, -1]
        return np.minimum((u[:, None] >= cdf).sum(axis=1), probabilities.shape[1] - 1)

    for f in factors:
        sep_cards = [len(states(w)) for w in f.separator]
        rest = list(f.table_variables[len(f.separator):])
        rows = np.ravel_multi_index([codes[w] for w in f.separator], sep_cards) if f.separator else np.zeros(n, int)
        drawn = draw(f.table.reshape(cell_count(sep_cards), -1)[rows])
        for w, c in zip(rest, np.unravel_index(drawn, [len(states(w)) for w in rest]) if rest else [], strict=True):
            codes[w] = np.asarray(c, dtype=np.int64)
        if f.center is not None:
            configs = np.ravel_multi_index([codes[w] for w in f.parents], [len(states(w)) for w in f.parents])
            codes[f.center] = draw(f.group_values.T[np.asarray(f.group_ids)[configs]])
    return codes
