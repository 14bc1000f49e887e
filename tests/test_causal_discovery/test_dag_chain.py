"""The DAG chain: visits only DAGs, respects max_indegree, and its posterior is exact once all are visited."""

import itertools
import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.causal_discovery._dag_chain import dag_chain, visited_posterior
from pgmpy_sgm.structure_score import LDAGScore


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = np.where(rng.random(n) < 0.8, a, 1 - a)
    c = np.where(rng.random(n) < 0.7, b, rng.integers(0, 2, n))
    return pd.DataFrame({"a": a, "b": b, "c": c})


def _all_dags(nodes):
    pairs = list(itertools.permutations(nodes, 2))
    for mask in range(1 << len(pairs)):
        edges = [pairs[i] for i in range(len(pairs)) if mask >> i & 1]
        g = nx.DiGraph(edges)
        g.add_nodes_from(nodes)
        if nx.is_directed_acyclic_graph(g):
            yield frozenset(edges)


def test_posterior_over_all_three_node_dags_is_exact():
    df = _data(n=10)  # weak evidence, so that a short chain visits all 25 DAGs
    score = LDAGScore(df)
    nodes = list(df.columns)
    result = dag_chain(score.local_score, nodes, [], 4000, np.random.default_rng(0))
    dags = list(_all_dags(nodes))
    assert len(dags) == 25 and set(result.visited) == set(dags)
    # independent: every DAG's score from its families, then normalised
    exact = {}
    for g in dags:
        exact[g] = sum(score.local_score(v, tuple(u for u in nodes if (u, v) in g)) for v in nodes)
    for g, value in result.visited.items():
        assert value == pytest.approx(exact[g], rel=1e-9)
    top = max(exact.values())
    z = sum(math.exp(v - top) for v in exact.values())
    models, edges = visited_posterior(result.visited, nodes, top=25)
    for row in models.itertuples():
        assert row.probability == pytest.approx(math.exp(exact[frozenset(row.edges)] - top) / z)
    p_ab = sum(math.exp(v - top) for g, v in exact.items() if ("a", "b") in g) / z
    assert edges.loc["a", "b"] == pytest.approx(p_ab)
    p_ba = sum(math.exp(v - top) for g, v in exact.items() if ("b", "a") in g) / z
    assert edges.loc["b", "a"] == pytest.approx(p_ba) and list(edges.columns) == list(edges.index) == nodes
    assert result.best_score == pytest.approx(top)


def test_max_indegree_and_acyclicity():
    rng = np.random.default_rng(1)
    df = pd.DataFrame(rng.integers(0, 2, (200, 5)), columns=list("abcde"))
    result = dag_chain(LDAGScore(df).local_score, list("abcde"), [], 1500, np.random.default_rng(2), max_indegree=1)
    assert len(result.visited) > 10
    for g in result.visited:
        graph = nx.DiGraph(list(g))
        assert nx.is_directed_acyclic_graph(graph)
        assert max((d for _, d in graph.in_degree()), default=0) <= 1
    assert 0 < result.acceptance_rate <= 1
