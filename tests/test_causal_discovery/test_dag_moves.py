"""Moves of LDAGSearch over pgmpy DAGs: kicks, one climb from a DAG, and the family-size guard."""

import math

import networkx as nx
import numpy as np
import pandas as pd
from pgmpy.base import DAG

from pgmpy_sgm.causal_discovery._dag_moves import climb_dag, mask_family, perturb, table_cells
from pgmpy_sgm.structure_score import LDAGScore


def test_perturb_keeps_acyclic_and_indegree():
    rng = np.random.default_rng(0)
    dag = DAG([("a", "b"), ("b", "c"), ("c", "d")])
    for _ in range(20):
        out = perturb(dag, 4, 2, rng)
        assert nx.is_directed_acyclic_graph(out) and max(d for _, d in out.in_degree()) <= 2
        assert set(out.nodes()) == set(dag.nodes())


def test_kicks_add_edges_only_between_candidate_partners():
    nodes = list("abcde")
    dag = DAG()
    dag.add_nodes_from(nodes)
    candidates = [0b00010, 0b00001, 0, 0, 0]  # a may take b as a parent, b may take a; nothing else
    for seed in range(10):
        kicked = perturb(dag, 3, None, np.random.default_rng(seed), candidates)
        assert set(kicked.edges()) <= {("a", "b"), ("b", "a")}


def test_table_cells_and_mask_family_read_the_score():
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"a": rng.integers(0, 3, 200), "b": rng.integers(0, 2, 200), "c": rng.integers(0, 4, 200)})
    score = LDAGScore(data)
    assert table_cells(score, ["a", "b", "c"]) == math.prod(data[v].nunique() for v in "abc")
    family = mask_family(score, list(data.columns))
    assert family(2, 0b011) == score.local_score("c", ("a", "b"))


def test_a_climb_from_a_dag_returns_a_dag_over_the_columns_and_its_score():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2, 500)
    data = pd.DataFrame({"a": a, "b": a ^ (rng.random(500) < 0.1), "c": rng.integers(0, 2, 500)})
    score = LDAGScore(data)
    start = DAG()
    start.add_nodes_from(data.columns)
    dag, value, _, _, n_moves = climb_dag(score, data, start, 100, None, 1000)
    assert list(dag.nodes()) == list(data.columns) and nx.is_directed_acyclic_graph(dag)
    assert {frozenset(e) for e in dag.edges()} == {frozenset("ab")} and n_moves > 0
    assert value == score.score(dag)
