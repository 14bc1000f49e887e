"""Structural EM's second look: the parents the available cases support that EM's settled DAG lacks.

A dependence missing from the model of an E-step is diluted in the completed table (the
completions of a missing cell ignore it), so EM settles where adding it does not pay on that
table, though it pays on the rows where it is observed. After EM settles, each variable's
strongest such parent is judged on the rows where the variable, its parents and the
candidate are all observed: the gain in log-likelihood there, scaled to all rows, minus
:data:`REVISIT_PENALTY` times BIC's penalty of the extra parameters (a lenient screen; the
observed-data criterion decides). The settled DAG with the parents that pass, each family fitted on
its available cases (:func:`~pgmpy_sgm.causal_discovery._pnal_start.available_case_dag`),
completes one more E-step, and EM runs on from there (see
:func:`~pgmpy_sgm.causal_discovery._structural_em.structural_em`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx
import numpy as np

from ._pnal_start import PNAL_MAX_INDEGREE, available_family_table, conditional_log_likelihood, too_wide

__all__ = ["REVISIT_PENALTY", "common_rows_gain", "supported_parents", "revisit_margin"]

#: The share of BIC's penalty a candidate parent's gain must beat to be looked at again.
REVISIT_PENALTY = 0.5


def common_rows_gain(codes: np.ndarray, weights: np.ndarray, cards: Sequence[int], child: int,
                     parents: Sequence[int], candidate: int, penalty: float = REVISIT_PENALTY) -> float:  # fmt: skip
    """The gain of adding ``candidate`` to ``child``'s ``parents``, judged on the rows where all of them are observed.

    ``n / n_c * (LL(child | parents, candidate) - LL(child | parents)) - penalty * (log n) / 2 * df``
    with both log-likelihoods maximised on the ``n_c`` (weighted) rows where the family and
    the candidate are observed, ``n`` the weight of all rows and ``df`` the extra free
    parameters; ``-inf`` when no row has them all. A negative code is a missing cell.

    Examples
    --------
    >>> codes = np.array([[0, 0], [1, 1], [0, 0], [1, 1], [0, -1]] * 10)
    >>> gain = common_rows_gain(codes, np.ones(50), [2, 2], child=1, parents=[], candidate=0, penalty=1.0)
    >>> round(gain, 3) == round(50 * 40 * math.log(2) / 40 - 0.5 * math.log(50), 3)
    True
    """
    family = [child, *parents, candidate]
    table = available_family_table(codes, weights, cards, family)
    common = float(table.sum())
    if common <= 0:
        return -math.inf
    n = float(weights.sum())
    gain = conditional_log_likelihood(table) - conditional_log_likelihood(table.sum(axis=-1))
    extra = (int(cards[child]) - 1) * math.prod(int(cards[p]) for p in parents) * (int(cards[candidate]) - 1)
    return n * gain / common - penalty * 0.5 * math.log(max(n, 2.0)) * extra


def supported_parents(codes: np.ndarray, weights: np.ndarray, cards: Sequence[int], parents: Sequence[Sequence[int]],
                      max_indegree: int = PNAL_MAX_INDEGREE) -> tuple[list[list[int]], list[tuple]]:  # fmt: skip
    """``parents`` with, for each variable, its best candidate parent of positive :func:`common_rows_gain`.

    Candidates are taken in order of gain; one is skipped when its variable already has one
    new parent or ``max_indegree`` parents, when it would close a directed cycle, or when the
    family's table would have more cells than four times the rows' weight.

    Returns
    -------
    new_parents : list of list of int
    added : list of (parent, child, gain)
        The parents added, in the order taken.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 400)
    >>> codes = np.column_stack([a, a ^ (rng.random(400) < 0.2), rng.integers(0, 2, 400)])
    >>> codes[rng.random(codes.shape) < 0.2] = -1
    >>> new, added = supported_parents(codes, np.ones(400), [2, 2, 2], [[], [], []])
    >>> new, [(u, v) for u, v, _ in added]  # one edge between the dependent pair; the free variable none
    ([[], [0], []], [(0, 1)])
    """
    n = float(weights.sum())
    d = len(cards)
    gains = []
    for child in range(d):
        if len(parents[child]) >= max_indegree:
            continue
        cells = int(cards[child]) * math.prod(int(cards[p]) for p in parents[child])
        for candidate in range(d):
            if candidate == child or candidate in parents[child] or too_wide(cells * int(cards[candidate]), n):
                continue
            gain = common_rows_gain(codes, weights, cards, child, parents[child], candidate)
            if gain > 0:
                gains.append((gain, candidate, child))
    graph = nx.DiGraph()
    graph.add_nodes_from(range(d))
    graph.add_edges_from((p, child) for child in range(d) for p in parents[child])
    new_parents = [list(ps) for ps in parents]
    added: list[tuple[int, int, float]] = []
    for gain, candidate, child in sorted(gains, key=lambda g: (-g[0], g[1], g[2])):
        if len(new_parents[child]) > len(parents[child]) or nx.has_path(graph, child, candidate):
            continue
        graph.add_edge(candidate, child)
        new_parents[child].append(candidate)
        added.append((candidate, child, gain))
    return new_parents, added


def revisit_margin(n: float) -> float:
    """How much the observed-data criterion must rise for EM to keep the second look: ``2 log n``.

    Examples
    --------
    >>> round(revisit_margin(2000.0), 2)
    15.2
    """
    return 2.0 * math.log(max(float(n), 2.0))
