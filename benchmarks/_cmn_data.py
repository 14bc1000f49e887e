"""Binary contextual Markov networks for the MPL benchmark: generating graphs, contexts and samples.

A model is a list of log-linear factors ``(variables, table)`` (``table`` indexed by the 0/1 states
of ``variables``), its graph and its contexts ``{(u, v): [{w: state}, ...]}``. Two families:

* ``blocks(k)``: ``k`` independent copies of a 5-variable block, the chordless 4-cycle
  ``a-b-c-d`` plus ``e`` joined to ``a`` and ``b``; every edge carries ``beta * s_u * s_v`` (spins
  +-1), except that the ``a-b`` term is off when ``e = 1`` (context ``a ⟂ b | e=1``). Sampled
  exactly (each block by enumeration).
* ``grid(rows, cols)``: a grid whose squares, in a checkerboard pattern, get one diagonal ``u-w``
  (the other squares stay chordless 4-cycles, so the graph is not chordal). A diagonal with common
  neighbours ``v, x`` carries ``beta * s_u * s_w * ([v = 0] + [x = 0])``, a factor on each triangle,
  so ``u ⟂ w`` exactly in the context ``v=1, x=1``, with ``beta`` from +-U(0.3, 0.5). Every grid
  edge carries ``beta * s_u * s_v`` with ``beta`` from +-U(0.5, 0.8): the three-way terms shift the
  log odds ratio of a grid edge in a triangle by at most ``2 * 0.5``, so none comes close to 0 (no
  near-context besides the planted ones). Sampled exactly by enumeration up to 20 variables, by Gibbs
  sampling beyond (independent chains from uniform states, ``GIBBS_SWEEPS`` sweeps each).
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pandas as pd

GIBBS_SWEEPS = 300
EXACT_MAX_VARIABLES = 20


def _pair_factor(u, v, beta: float):
    s = np.array([-1.0, 1.0])
    return (u, v), beta * np.outer(s, s)


def _block(prefix: str, beta: float):
    a, b, c, d, e = (f"{prefix}{x}" for x in "abcde")
    edges = [(a, b), (b, c), (c, d), (d, a), (a, e), (b, e)]
    factors = [_pair_factor(u, v, beta) for u, v in edges if (u, v) != (a, b)]
    s = np.array([-1.0, 1.0])
    gated = beta * s[:, None, None] * s[None, :, None] * np.array([1.0, 0.0])[None, None, :]  # off when e = 1
    factors.append(((a, b, e), gated))
    return edges, factors, {(a, b): [{e: 1}]}


def blocks(k: int, seed: int):
    """``k`` blocks; returns ``(graph, contexts, factors, block_nodes)``."""
    rng = np.random.default_rng(seed)
    graph, contexts, factors, parts = nx.Graph(), {}, [], []
    for i in range(k):
        edges, fac, ctx = _block(f"B{i:02d}", float(rng.uniform(0.7, 1.0)))
        graph.add_edges_from(edges)
        factors += fac
        contexts.update(ctx)
        parts.append(sorted({v for e in edges for v in e}))
    return graph, contexts, factors, parts


def grid(rows: int, cols: int, seed: int):
    """Checkerboard-diagonal grid; returns ``(graph, contexts, factors, [all nodes])``."""
    rng = np.random.default_rng(seed)
    name = {(i, j): f"G{i:02d}_{j:02d}" for i in range(rows) for j in range(cols)}
    graph, contexts, factors = nx.Graph(), {}, []
    graph.add_nodes_from(name.values())

    def beta(low=0.5, high=0.8):
        return float(rng.choice([-1.0, 1.0]) * rng.uniform(low, high))

    for (i, j), u in name.items():
        for di, dj in ((0, 1), (1, 0)):
            if (i + di, j + dj) in name:
                graph.add_edge(u, name[i + di, j + dj])
                factors.append(_pair_factor(u, name[i + di, j + dj], beta()))
    s = np.array([-1.0, 1.0])
    for i in range(rows - 1):
        for j in range(cols - 1):
            if (i + j) % 2:
                continue
            u, w, v, x = name[i, j], name[i + 1, j + 1], name[i, j + 1], name[i + 1, j]
            graph.add_edge(u, w)
            b = beta(0.3, 0.5)
            off = np.array([1.0, 0.0])  # 1 when the common neighbour is 0
            factors.append(((u, w, v), b * s[:, None, None] * s[None, :, None] * off[None, None, :]))
            factors.append(((u, w, x), b * s[:, None, None] * s[None, :, None] * off[None, None, :]))
            contexts[(u, w)] = [{v: 1, x: 1}]
    return graph, contexts, factors, [sorted(graph.nodes())]


def _log_potential(factors, states: np.ndarray, column: dict) -> np.ndarray:
    out = np.zeros(len(states))
    for variables, table in factors:
        out += table[tuple(states[:, column[v]] for v in variables)]
    return out


def _exact(nodes: list, factors: list, n: int, rng) -> pd.DataFrame:
    states = np.array(list(itertools.product([0, 1], repeat=len(nodes))), dtype=np.int8)
    column = {v: i for i, v in enumerate(nodes)}
    mine = [f for f in factors if set(f[0]) <= set(nodes)]
    logp = _log_potential(mine, states, column)
    p = np.exp(logp - logp.max())
    return pd.DataFrame(states[rng.choice(len(states), size=n, p=p / p.sum())], columns=nodes)


def _gibbs(nodes: list, factors: list, n: int, rng) -> pd.DataFrame:
    column = {v: i for i, v in enumerate(nodes)}
    x = rng.integers(0, 2, (n, len(nodes))).astype(np.int64)
    touching = {v: [f for f in factors if v in f[0]] for v in nodes}
    for _ in range(GIBBS_SWEEPS):
        for v in nodes:
            j = column[v]
            diff = np.zeros(n)
            for variables, table in touching[v]:
                idx = [x[:, column[w]] for w in variables]
                k = variables.index(v)
                idx[k] = np.ones(n, dtype=np.int64)
                diff += table[tuple(idx)]
                idx[k] = np.zeros(n, dtype=np.int64)
                diff -= table[tuple(idx)]
            x[:, j] = (rng.random(n) < 1.0 / (1.0 + np.exp(-diff))).astype(np.int64)
    return pd.DataFrame(x.astype(np.int8), columns=nodes)


def sample(model, n: int, seed: int) -> tuple[pd.DataFrame, str]:
    """``n`` rows of the model (columns sorted by name) and the sampler used (``"exact"`` or ``"gibbs"``)."""
    graph, _, factors, parts = model
    rng = np.random.default_rng(seed)
    frames, how = [], "exact"
    for nodes in parts:
        if len(nodes) <= EXACT_MAX_VARIABLES:
            frames.append(_exact(nodes, factors, n, rng))
        else:
            frames.append(_gibbs(nodes, factors, n, rng))
            how = "gibbs"
    frame = pd.concat(frames, axis=1)
    return frame[sorted(frame.columns)].astype(np.int64), how
