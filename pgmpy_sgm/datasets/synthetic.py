"""The seven-variable synthetic model of Nyman et al. (2014), Appendix B."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd

from pgmpy_sgm.core.arguments import random_generator
from pgmpy_sgm.core.decomposition import edge_clique_counts
from pgmpy_sgm.core.lines import groups_from_labels, is_regular, line_table, touches_forbidden

__all__ = ["simulate_paper_synthetic", "paper_synthetic_graph", "PAPER_SYNTHETIC_STRATA", "random_stratified_graph"]

_EDGES = [
    ("X1", "X2"), ("X1", "X3"), ("X1", "X4"), ("X2", "X3"), ("X2", "X4"), ("X3", "X4"),
    ("X3", "X5"), ("X4", "X5"), ("X5", "X6"), ("X5", "X7"), ("X6", "X7"),
]

#: The strata of the generating stratified graph (Appendix B).
PAPER_SYNTHETIC_STRATA = {
    ("X1", "X2"): [{"X3": 1, "X4": 0}],
    ("X1", "X3"): [{"X2": 1, "X4": 0}, {"X2": 1, "X4": 1}],
    ("X4", "X5"): [{"X3": 0}],
    ("X5", "X7"): [{"X6": 0}],
    ("X6", "X7"): [{"X5": 1}],
}


def paper_synthetic_graph():
    """The generating stratified graph: cliques {1,2,3,4}, {3,4,5}, {5,6,7} with five labelled edges.

    Examples
    --------
    >>> sg = paper_synthetic_graph()
    >>> sg.cliques
    [('X1', 'X2', 'X3', 'X4'), ('X3', 'X4', 'X5'), ('X5', 'X6', 'X7')]
    >>> sg.n_labels()
    6
    """
    from pgmpy_sgm.models import StratifiedGraph

    return StratifiedGraph(_EDGES, strata=PAPER_SYNTHETIC_STRATA, nodes=[f"X{i}" for i in range(1, 8)])


def simulate_paper_synthetic(n: int, seed: int | None = None) -> pd.DataFrame:
    """Simulate the paper's Appendix B model (the Matlab ``dataSim``), columns X1 .. X7.

    Parameters
    ----------
    n : int
        Number of rows (>= 1).
    seed : int, optional
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    pandas.DataFrame
        ``n`` rows of binary integers.

    Examples
    --------
    >>> df = simulate_paper_synthetic(1000, seed=0)
    >>> df.shape, sorted(df["X1"].unique().tolist())
    ((1000, 7), [0, 1])
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise ValueError(f"n must be a positive integer. Got: {n!r}")
    rng = random_generator(seed)

    def bern(p):
        return rng.random(n) < p

    x2 = bern(0.5)
    x3 = np.where(x2, bern(0.8), bern(0.3))
    p4 = np.select([x2 & x3, x2 & ~x3, ~x2 & x3], [0.6, 0.8, 0.2], 0.4)
    x4 = bern(p4)
    # P(X1 = 1 | X2, X3, X4), indexed by (x2, x3, x4)
    p1 = np.array([0.5, 0.7, 0.2, 0.4, 0.2, 0.8, 0.2, 0.8])[4 * x2 + 2 * x3 + x4]
    x1 = bern(p1)
    p5 = np.select([~x3, x3 & ~x4], [0.8, 0.2], 0.5)
    x5 = bern(p5)
    x6 = bern(np.where(x5, 0.7, 0.3))
    x7 = bern(np.where(x5 | ~x6, 0.4, 0.8))
    data = np.column_stack([x1, x2, x3, x4, x5, x6, x7]).astype(np.int64)
    return pd.DataFrame(data, columns=[f"X{i}" for i in range(1, 8)])


def random_stratified_graph(n_nodes: int, seed: int | None = None, max_states: int = 2, edge_prob: float = 0.6,
                            label_prob: float = 0.7, state_kinds=("int",)):
    """A random decomposable, maximal regular stratified graph (for tests and benchmarks).

    Nodes ``X0 .. X{n-1}`` are added one at a time, each joined to a random subset of a
    random maximal clique of the earlier nodes (so the graph stays chordal). Each variable
    gets 2..``max_states`` states of a kind drawn from ``state_kinds`` (``"int"``, ``"str"``,
    ``"bool"`` (binary only) or ``"float"``). Each clique of three or more nodes is labelled
    with probability ``label_prob``: a random center and random lines in directions whose
    edge is free; the groups are kept when they are regular and touch no separator edge.

    Examples
    --------
    >>> sg = random_stratified_graph(6, seed=3)
    >>> sg.check_model(), sg.is_maximal_regular()
    (True, True)
    """
    from pgmpy_sgm.models.stratified_graph import StratifiedGraph  # the models import nothing from datasets

    rng = np.random.default_rng(seed)
    nodes = [f"X{i}" for i in range(n_nodes)]
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i in range(1, n_nodes):
        cliques = sorted(sorted(c) for c in nx.find_cliques(graph.subgraph(nodes[:i])))
        chosen = cliques[int(rng.integers(len(cliques)))]
        graph.add_edges_from((nodes[i], w) for w in chosen if rng.random() < edge_prob)
    names = {}
    for v in nodes:
        k = int(rng.integers(2, max_states + 1))
        kind = state_kinds[int(rng.integers(len(state_kinds)))]
        kind = "int" if kind == "bool" and k != 2 else kind
        names[v] = {"int": list(range(k)), "str": [f"s{j}" for j in range(k)], "bool": [False, True],
                    "float": [j + 0.5 for j in range(k)]}[kind]
    sg = StratifiedGraph(graph, nodes=nodes, state_names=names)
    counts = edge_clique_counts(sg.cliques)
    for clique in sg.cliques:
        if len(clique) < 3 or rng.random() > label_prob:
            continue
        center = clique[int(rng.integers(len(clique)))]
        parents = tuple(w for w in clique if w != center)
        cards = tuple(len(names[w]) for w in parents)
        forbidden = [counts[frozenset((u, center))] > 1 for u in parents]
        lines = [(d, r) for d, table in enumerate(line_table(cards)) if not forbidden[d] for r in range(len(table))]
        for _ in range(10):
            picked = [line for line in lines if rng.random() < 0.4]
            groups = groups_from_labels(cards, picked)
            if picked and is_regular(cards, groups) and not touches_forbidden(cards, groups, forbidden):
                sg.set_clique_groups(clique, center, groups)
                break
    return sg
