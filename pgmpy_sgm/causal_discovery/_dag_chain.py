"""Non-reversible Metropolis search over DAGs under a decomposable score, with a posterior over visited DAGs.

As in the stratified-graph search of this package (and Pensar et al. for labelled DAGs), the chain
proposes a local change and accepts it with the Metropolis probability, but the posterior is
not estimated from visit frequencies: every distinct DAG the chain visits is kept with its
score, and the posterior of a visited DAG is its score normalised over the visited set.

A proposal picks an unordered pair of nodes uniformly; the pair's three states (no edge, ``u -> v``,
``v -> u``) are symmetric, and the chain proposes one of the two states it is not in, uniformly.
A proposal that would close a cycle or exceed ``max_indegree`` is rejected, which keeps the
proposal symmetric.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from pgmpy_sgm.causal_discovery._chain import metropolis_accepts

__all__ = ["DagChainResult", "dag_chain", "visited_posterior"]


class DagChainResult:
    """Visited DAGs (edge sets) with their scores, the best one, and the acceptance rate.

    Examples
    --------
    >>> r = DagChainResult({frozenset(): -1.0}, frozenset(), -1.0, 0.0, [-1.0])
    >>> r.best_score
    -1.0
    """

    def __init__(self, visited: dict, best: frozenset, best_score: float, acceptance_rate: float, trace: list):
        self.visited = visited
        self.best = best
        self.best_score = best_score
        self.acceptance_rate = acceptance_rate
        self.trace = trace


def _reaches(children: dict, start, target, skip: tuple | None = None) -> bool:
    """True when ``target`` is reachable from ``start`` (optionally ignoring the edge ``skip``)."""
    stack, seen = [start], {start}
    while stack:
        a = stack.pop()
        for b in children[a]:
            if skip is not None and (a, b) == skip:
                continue
            if b == target:
                return True
            if b not in seen:
                seen.add(b)
                stack.append(b)
    return False


def _proposed_parents(parents: dict, children: dict, u, w, state: int, target: int,
                      max_indegree: int | None) -> tuple[set, set] | None:  # fmt: skip
    """The parent sets of ``u`` and ``w`` after moving their pair from ``state`` to ``target``, or None if illegal.

    States: 0 no edge, 1 ``u -> w``, 2 ``w -> u``. The move is illegal when it exceeds
    ``max_indegree`` or closes a directed cycle.
    """
    pu, pw = set(parents[u]), set(parents[w])
    if state == 1:
        pw.discard(u)
    elif state == 2:
        pu.discard(w)
    if target == 1:
        pw.add(u)
        if (max_indegree is not None and len(pw) > max_indegree) or _reaches(
                children, w, u, skip=(w, u) if state == 2 else None):  # fmt: skip
            return None
    elif target == 2:
        pu.add(w)
        if (max_indegree is not None and len(pu) > max_indegree) or _reaches(
                children, u, w, skip=(u, w) if state == 1 else None):  # fmt: skip
            return None
    return pu, pw


def dag_chain(
    local_score: Callable,
    nodes: list,
    edges,
    n_iter: int,
    rng: np.random.Generator,
    max_indegree: int | None = None,
    deadline: float | None = None,
) -> DagChainResult:
    """Run the chain from the DAG ``edges`` for ``n_iter`` proposals.

    Parameters
    ----------
    local_score : callable
        ``local_score(node, parents_tuple)``; parents are passed in ``nodes`` order.
    nodes : list
    edges : iterable of (u, v)
        Starting DAG.
    n_iter : int
    rng : numpy.random.Generator
    max_indegree : int, optional
    deadline : float, optional
        A ``time.time()`` value at which the chain stops, even before ``n_iter``.

    Returns
    -------
    DagChainResult

    Examples
    --------
    >>> score = lambda v, ps: -float(len(ps))  # every edge costs 1
    >>> r = dag_chain(score, ["a", "b"], [("a", "b")], 200, np.random.default_rng(0))
    >>> r.best, r.best_score
    (frozenset(), 0.0)
    >>> sorted(len(k) for k in r.visited)
    [0, 1, 1]
    """
    order = {v: i for i, v in enumerate(nodes)}
    parents, children = _adjacency(nodes, edges)

    def family(v, ps) -> float:
        return float(local_score(v, tuple(sorted(ps, key=order.__getitem__))))

    fam = {v: family(v, parents[v]) for v in nodes}
    current = sum(fam.values())
    key = frozenset((u, v) for v in nodes for u in parents[v])
    visited = {key: current}
    best, best_score = key, current
    trace = [current]
    n_accepted = 0
    n = len(nodes)
    if n < 2:
        return DagChainResult(visited, best, best_score, 0.0, trace)
    for step in range(int(n_iter)):
        if deadline is not None and step % 64 == 0 and time.time() >= deadline:
            break
        i, j = rng.choice(n, 2, replace=False)
        u, w = nodes[int(i)], nodes[int(j)]
        state = 1 if w in children[u] else (2 if u in children[w] else 0)
        target = (state + 1 + int(rng.integers(0, 2))) % 3
        proposal = _proposed_parents(parents, children, u, w, state, target, max_indegree)
        feasible = proposal is not None
        log_u = math.log(rng.random()) if feasible else 0.0
        if feasible:
            pu, pw = proposal
            new_u = fam[u] if pu == parents[u] else family(u, pu)
            new_w = fam[w] if pw == parents[w] else family(w, pw)
            delta = new_u + new_w - fam[u] - fam[w]
            if metropolis_accepts(delta, log_u):
                _move(parents, children, u, w, pu, pw)
                fam[u], fam[w] = new_u, new_w
                current += delta
                n_accepted += 1
                key = frozenset((a, b) for b in nodes for a in parents[b])
                if key not in visited:
                    visited[key] = current
                if current > best_score:
                    best, best_score = key, current
        trace.append(current)
    return DagChainResult(visited, best, best_score, n_accepted / max(len(trace) - 1, 1), trace)


def _adjacency(nodes: list, edges) -> tuple[dict, dict]:
    """Parent and child sets of every node of the DAG ``edges``."""
    parents = {v: set() for v in nodes}
    children = {v: set() for v in nodes}
    for u, v in edges:
        parents[v].add(u)
        children[u].add(v)
    return parents, children


def _move(parents: dict, children: dict, u, w, new_u: set, new_w: set) -> None:
    """Give ``u`` and ``w`` the parent sets ``new_u`` and ``new_w`` (the edge between them added, removed, reversed)."""
    for a, b in ((u, w), (w, u)):
        children[a].discard(b)
    parents[u], parents[w] = new_u, new_w
    for p in new_u:
        children[p].add(u)
    for p in new_w:
        children[p].add(w)


def visited_posterior(visited: dict, nodes: list, top: int = 50) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Posterior over visited DAGs (scores normalised over the visited set) and edge probabilities.

    The same forms as :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC`'s ``posterior_`` and
    ``edge_probabilities_``.

    Parameters
    ----------
    visited : dict
        ``{frozenset of (parent, child) edges: log unnormalized posterior}``.
    nodes : list
        Rows and columns of the edge probabilities, in this order.
    top : int, default=50
        Rows of the posterior table.

    Returns
    -------
    models : pandas.DataFrame
        The ``top`` most probable DAGs: ``edges`` (sorted tuple), ``log_posterior``,
        ``probability`` and ``n_edges``.
    edges : pandas.DataFrame of shape (n_nodes, n_nodes)
        Posterior probability of each directed edge, row ``u`` column ``v`` for ``u -> v``
        (diagonal 0); an undirected learner's matrix is the symmetric sum of both directions.

    Examples
    --------
    >>> models, edges = visited_posterior({frozenset(): 0.0, frozenset({("a", "b")}): 0.0}, ["a", "b"])
    >>> models["probability"].tolist(), edges.to_numpy().tolist()
    ([0.5, 0.5], [[0.0, 0.5], [0.0, 0.0]])
    """
    keys = list(visited)
    scores = np.array([visited[k] for k in keys], dtype=float)
    weights = np.exp(scores - scores.max())
    weights /= weights.sum()
    order = np.argsort(-weights, kind="stable")
    models = pd.DataFrame(
        {
            "edges": [tuple(sorted(keys[i], key=repr)) for i in order[:top]],
            "log_posterior": scores[order[:top]],
            "probability": weights[order[:top]],
            "n_edges": [len(keys[i]) for i in order[:top]],
        }
    )
    position = {v: i for i, v in enumerate(nodes)}
    matrix = np.zeros((len(nodes), len(nodes)))
    for key, weight in zip(keys, weights, strict=True):
        for u, v in key:
            matrix[position[u], position[v]] += float(weight)
    return models, pd.DataFrame(matrix, index=list(nodes), columns=list(nodes))
