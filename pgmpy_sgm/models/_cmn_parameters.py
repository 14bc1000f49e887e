r"""Maximum-likelihood parameters of a contextual Markov network by cyclical projection.

The model is ``log p(x) = sum_C theta_C(x_C) - log Z`` over the maximal cliques ``C``, with
every context of an edge ``{u, v}`` a linear constraint: the interaction contrasts
``theta(x_u, x_v) - theta(x_u', x_v) - theta(x_u, x_v') + theta(x_u', x_v')`` (summed over the
cliques holding the edge) vanish where the common neighbours take the context's states. It is
a linear exponential family, and its maximum-likelihood estimate matches the data's
expectations of the functions it is made of.

Cyclical projection (Nyman et al. 2016) updates one block of parameters at a time to match its
part of those expectations, the others fixed:

* a clique none of whose edges has contexts is one block, updated in closed form (iterative
  proportional fitting): ``theta_C += log(data marginal / model marginal)``;
* cliques sharing an edge with contexts form one block (the constraint ties them); its update
  is the one-block maximum-likelihood problem over the functions of the block's cliques that
  meet its constraints (a basis from the null space of the constraints), solved by Newton's
  method. Every update stays inside the constraints, so the context-tied parameters stay tied.

Each block's model marginal comes from an exact junction tree (one whose cliques cover the
blocks). Smoothing adds a pseudo-sample of total weight ``pseudo_count`` spread uniformly
over all joint outcomes (its marginal on any block is uniform), so the targets stay consistent.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from itertools import product

import networkx as nx
import numpy as np

from pgmpy_sgm.core.unionfind import DisjointSets
from pgmpy_sgm.models._cmn_dense import DenseJoint, propagation_for
from pgmpy_sgm.models._cmn_inference import JunctionTreeEngine, align

__all__ = ["Block", "plan_blocks", "cyclical_projection", "fit_plan", "FitResult"]

NEWTON_STEPS = 100
#: Largest joint table (cells) of the cliques tied together by contexts that a fit accepts.
MAX_BLOCK_CELLS = 2**16


@dataclass
class Block:
    """Cliques updated together, with the basis of their admissible updates (None: a plain clique).

    ``functions`` holds the basis as functions on the cells of ``variables`` (C order), and
    ``pieces[k]`` the same basis split into one table per clique (``cliques[k]``).
    """

    cliques: list
    variables: tuple
    functions: np.ndarray | None = None
    pieces: list = field(default_factory=list)


def _cells(cards: list) -> np.ndarray:
    return np.array(list(product(*(range(k) for k in cards))), dtype=np.int64).reshape(-1, len(cards))


def _constraint_rows(variables: tuple, cards: list, contexts: dict, edges: list) -> np.ndarray:
    """Interaction contrasts (rows over the cells of ``variables``) that the contexts set to zero."""
    cells = _cells(cards)
    position = {v: i for i, v in enumerate(variables)}
    rows = []
    for u, v in edges:
        for context in contexts[frozenset((u, v))]:
            match = np.ones(len(cells), dtype=bool)
            for w, s in context:
                match &= cells[:, position[w]] == s
            match &= (cells[:, position[u]] > 0) & (cells[:, position[v]] > 0)
            for cell in cells[match]:
                row = np.zeros(len(cells))
                for a, b, sign in ((cell[position[u]], cell[position[v]], 1.0), (0, cell[position[v]], -1.0),
                                   (cell[position[u]], 0, -1.0), (0, 0, 1.0)):
                    moved = cell.copy()
                    moved[position[u]], moved[position[v]] = a, b
                    row[np.ravel_multi_index(tuple(moved), cards)] += sign
                rows.append(row)
    return np.array(rows)


def _block_basis(cliques: list, variables: tuple, cards: dict, contexts: dict, edges: list):
    """Functions on the block's cells spanned by clique tables and meeting the constraints."""
    sizes = [cards[v] for v in variables]
    cells = _cells(sizes)
    position = {v: i for i, v in enumerate(variables)}
    columns = []
    for clique in cliques:
        local = np.ravel_multi_index(tuple(cells[:, position[w]] for w in clique), [cards[w] for w in clique])
        indicator = np.zeros((len(cells), int(np.prod([cards[w] for w in clique]))))
        indicator[np.arange(len(cells)), local] = 1.0
        columns.append(indicator)
    spanning = np.hstack(columns)
    constrained = _constraint_rows(variables, sizes, contexts, edges) @ spanning
    _, singular, vt = np.linalg.svd(constrained)
    rank = int((singular > 1e-10 * max(1.0, singular.max(initial=0.0))).sum())
    null = vt[rank:].T  # coefficients on the clique cells
    splits = np.cumsum([c.shape[1] for c in columns])[:-1]
    pieces = [part.reshape([cards[w] for w in clique] + [null.shape[1]])
              for part, clique in zip(np.split(null, splits, axis=0), cliques, strict=True)]
    return spanning @ null, pieces


def plan_blocks(graph: nx.Graph, cards: dict, contexts: dict) -> list[Block]:
    """The blocks of cyclical projection: maximal cliques joined by shared edges with contexts.

    Parameters
    ----------
    graph : networkx.Graph
    cards : dict
        ``{node: number of states}``.
    contexts : dict
        ``{frozenset({u, v}): {frozenset((w, state index), ...)}}``.

    Examples
    --------
    >>> g = nx.Graph([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c"), ("d", "e")])
    >>> blocks = plan_blocks(g, dict.fromkeys(g, 2), {frozenset("ac"): {frozenset({("b", 0), ("d", 1)})}})
    >>> [(b.variables, b.functions is None) for b in blocks]
    [(('a', 'b', 'c', 'd'), False), (('d', 'e'), True)]
    """
    order = {v: i for i, v in enumerate(graph.nodes())}
    cliques = [tuple(sorted(c, key=order.__getitem__)) for c in nx.find_cliques(graph)]
    cliques.sort(key=lambda c: [order[v] for v in c])
    sets = DisjointSets(len(cliques))
    tied = [e for e, found in contexts.items() if found]
    for edge in tied:
        holding = [i for i, c in enumerate(cliques) if edge <= set(c)]
        for i in holding[1:]:
            sets.union(holding[0], i)
    blocks = []
    for members in sets.components():
        group = [cliques[i] for i in members]
        variables = tuple(sorted({v for c in group for v in c}, key=order.__getitem__))
        edges = [tuple(sorted(e, key=order.__getitem__)) for e in tied if any(e <= set(c) for c in group)]
        block = Block(group, variables)
        size = float(np.prod([cards[v] for v in variables], dtype=float))
        if edges and size > MAX_BLOCK_CELLS:
            raise ValueError(f"The contexts of edge {edges[0]} tie cliques over {len(variables)} variables "
                             f"({size:,.0f} outcomes), more than {MAX_BLOCK_CELLS:,}: too many to fit together.")
        if edges:
            block.functions, block.pieces = _block_basis(group, variables, cards, contexts, edges)
        blocks.append(block)
    return blocks


@dataclass
class FitResult:
    """Log-potentials per maximal clique, the junction tree used, and how the iterations ended."""

    log_potentials: dict
    engine: JunctionTreeEngine
    log_z: float
    n_iter: int
    converged: bool
    max_gap: float


def _newton(functions: np.ndarray, model: np.ndarray, target: np.ndarray, tol: float) -> tuple[np.ndarray, float]:
    """Coefficients ``z`` maximising ``target . F z - log sum model exp(F z)``; and the starting gap."""
    live = model > 0
    f, q, t = functions[live], model[live], target[live]
    z = np.zeros(functions.shape[1])

    def objective(z):
        h = f @ z
        top = h.max()
        return float(t @ h - top - np.log(q @ np.exp(h - top)))

    first_gap = None
    for _ in range(NEWTON_STEPS):
        h = f @ z
        r = q * np.exp(h - h.max())
        r /= r.sum()
        gradient = f.T @ (t - r)
        gap = float(np.abs(gradient).max(initial=0.0))
        first_gap = gap if first_gap is None else first_gap
        if gap < tol:
            break
        hessian = (f * r[:, None]).T @ f - np.outer(f.T @ r, f.T @ r)
        step = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
        base, size = objective(z), 1.0
        while size > 1e-10 and objective(z + size * step) < base + 1e-4 * size * float(gradient @ step):
            size /= 2
        z = z + size * step
    return z, float(first_gap or 0.0)


#: Plans of :func:`cyclical_projection` kept for the graphs fitted most recently (the search fits one
#: graph on several row subsets, e.g. the folds of a cross-validation).
PLAN_CACHE_SIZE = 16
_PLANS: OrderedDict = OrderedDict()


def fit_plan(graph: nx.Graph, cards: dict, contexts: dict) -> tuple[list, JunctionTreeEngine, list]:
    """The blocks, the junction tree and the order of the block updates of a fit (cached per structure).

    The key holds everything they are made from: the nodes in order, the edges, the numbers of
    states and the contexts.

    Examples
    --------
    >>> g = nx.Graph([("a", "b"), ("b", "c")])
    >>> blocks, engine, order = fit_plan(g, dict.fromkeys(g, 2), {})
    >>> [b.cliques for b in blocks], engine.cliques, fit_plan(g.copy(), dict.fromkeys(g, 2), {})[1] is engine
    ([[('a', 'b')], [('b', 'c')]], [('a', 'b'), ('b', 'c')], True)
    """
    nodes = tuple(graph.nodes())
    key = (nodes, frozenset(frozenset(e) for e in graph.edges()), tuple(int(cards[v]) for v in nodes),
           frozenset((frozenset(e), frozenset(found)) for e, found in contexts.items()))  # fmt: skip
    found = _PLANS.get(key)
    if found is not None:
        _PLANS.move_to_end(key)
        return found
    blocks = plan_blocks(graph, cards, contexts)
    engine = JunctionTreeEngine(graph, cards, cover=[b.variables for b in blocks])
    homes = [engine.home(b.variables) for b in blocks]
    visit = {i: k for k, i in enumerate(engine.downward)}
    order = sorted(range(len(blocks)), key=lambda k: visit[homes[k]])  # neighbours in the tree come together
    _PLANS[key] = (blocks, engine, order)
    if len(_PLANS) > PLAN_CACHE_SIZE:
        _PLANS.popitem(last=False)
    return blocks, engine, order


def cyclical_projection(graph: nx.Graph, cards: dict, contexts: dict, counts, pseudo_count: float,
                        tol: float, max_iter: int, start: dict | None = None) -> FitResult:  # fmt: skip
    """Fit the log-potentials by cyclical projection (see the module).

    Parameters
    ----------
    counts : callable
        ``counts(variables)`` returns the data's contingency table (axes in that order).
    pseudo_count : float
        Total weight of the uniform pseudo-sample (0 for maximum likelihood).
    tol : float
        Stop when, over a whole sweep, no block's expectations differ from the data's by more.
    max_iter : int
        Maximum number of sweeps over the blocks.
    start : dict, optional
        Log-potentials to start from (``log_potentials`` of an earlier fit of the same graph and
        contexts, e.g. on other rows); zeros by default.

    Examples
    --------
    >>> g = nx.Graph([("a", "b")])
    >>> table = np.array([[3.0, 1.0], [0.0, 4.0]])
    >>> fit = cyclical_projection(g, {"a": 2, "b": 2}, {}, lambda vs: table, 0.0, 1e-10, 100)
    >>> fit.converged, np.exp(fit.engine.calibrate(list(fit.log_potentials.items()))[1][0]).round(3).tolist()
    (True, [[0.375, 0.125], [0.0, 0.5]])
    """
    blocks, engine, order = fit_plan(graph, cards, contexts)
    log_potentials = {c: np.zeros([cards[v] for v in c]) if start is None else np.array(start[c], dtype=float)
                      for b in blocks for c in b.cliques}  # fmt: skip
    propagation = propagation_for(engine, [] if start is None else list(log_potentials.items()))
    targets = []
    for b in blocks:
        table = np.asarray(counts(b.variables), dtype=float)
        table = table + pseudo_count / table.size
        targets.append(table / table.sum())
    n_iter, gap = 0, np.inf
    positive = [target > 0 for target in targets]
    with np.errstate(divide="ignore", invalid="ignore"):  # log 0 of impossible cells: their step is -inf
        log_targets = [np.log(target) for target in targets]
        for n_iter in range(1, max_iter + 1):  # noqa: B007 (n_iter is reported)
            gap = 0.0
            for k in order:
                block, target = blocks[k], targets[k]
                model = propagation.marginal(block.variables)
                if block.functions is None:
                    (clique,) = block.cliques
                    gap = max(gap, float(np.abs(model - target).max()))
                    step = np.where(positive[k], log_targets[k] - np.log(model), -np.inf)
                    log_potentials[clique] = log_potentials[clique] + step
                    propagation.add(clique, step)
                    continue
                z, first_gap = _newton(block.functions, model.ravel(), target.ravel(), tol / 10)
                gap = max(gap, first_gap)
                for clique, piece in zip(block.cliques, block.pieces, strict=True):
                    step = piece @ z
                    log_potentials[clique] = log_potentials[clique] + step
                    propagation.add(clique, step)
            if gap < tol:
                break
    if isinstance(propagation, DenseJoint):  # the whole table's log Z, kept step by step
        log_z = propagation.log_z
    else:
        log_z = engine.log_partition(list(log_potentials.items()))
    return FitResult(log_potentials, engine, log_z, n_iter, bool(gap < tol), gap)


def log_probabilities(log_potentials: dict, log_z: float, codes: np.ndarray, nodes: list) -> np.ndarray:
    """``log p`` of complete rows of codes (one column per node, in ``nodes`` order).

    Examples
    --------
    >>> log_probabilities({("a",): np.log(np.array([1.0, 3.0]))}, np.log(4.0), np.array([[1], [0]]), ["a"]).round(4)
    array([-0.2877, -1.3863])
    """
    position = {v: i for i, v in enumerate(nodes)}
    out = np.full(len(codes), -float(log_z))
    for clique, table in log_potentials.items():
        out = out + table[tuple(codes[:, position[v]] for v in clique)]
    return out


def broadcast_sum(log_potentials: dict, nodes: list) -> np.ndarray:
    """The unnormalised log joint table over ``nodes`` (small models only).

    Examples
    --------
    >>> broadcast_sum({("b",): np.zeros(2), ("a", "b"): np.ones((2, 2))}, ["a", "b"]).tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    total = np.zeros(())
    for clique, table in log_potentials.items():
        total = total + align(table, clique, nodes)
    return total
