"""Moves of LDAGSearch over pgmpy DAGs: kicks, one climb from a DAG, and the family-size guard."""

import math

import networkx as nx
import numpy as np
import pandas as pd
from pgmpy.base import DAG

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.causal_discovery._dag_moves import (
    climb_dag,
    mask_family,
    perturb,
    table_cells,
    turn_candidates,
    turn_edges,
)
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


def test_turns_make_a_node_a_sink_or_a_source_and_keep_the_graph_acyclic():
    rng = np.random.default_rng(5)
    for _ in range(30):
        dag = perturb(DAG(), 0, None, rng)
        dag.add_nodes_from(range(7))
        dag = perturb(dag, 12, None, rng)
        for node in dag.nodes():
            for into in (True, False):
                turned = turn_edges(dag, node, into)
                assert nx.is_directed_acyclic_graph(turned)
                assert set(map(frozenset, turned.edges())) == set(map(frozenset, dag.edges()))  # same skeleton
                assert (turned.out_degree(node) if into else turned.in_degree(node)) == 0
                untouched = {e for e in dag.edges() if node not in e}
                assert untouched <= set(turned.edges())


def test_turns_refuse_families_too_large():
    dag = DAG([("c", "a"), ("c", "b"), ("d", "c")])
    assert turn_edges(dag, "c", into=True, max_indegree=2) is None
    assert turn_edges(dag, "c", into=True, max_indegree=3) is not None
    assert turn_edges(dag, "c", into=True, fits=lambda child, parents: len(parents) < 3) is None
    # turned out of c, each former parent gains c: d -> c becomes c -> d, d's family is (d, c)
    seen = []
    assert turn_edges(dag, "c", into=False, fits=lambda child, parents: seen.append((child, parents)) or True)
    assert seen == [("d", ["c"])]


def test_turn_candidates_need_two_edges_and_come_largest_first():
    dag = DAG([("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("d", "c")])
    # a has 3 children; c has 3 parents; b and d have one edge each way
    assert turn_candidates(dag, list("abcd")) == [("a", True), ("c", False)]
    assert turn_candidates(DAG([("a", "b")]), ["a", "b"]) == []


def test_no_learned_family_has_more_than_16_cells_per_observation():
    """Sparse data of 20-state variables: BDeu alone grew a family of 8,000 cells from 100 rows."""
    rng = np.random.default_rng(1)
    n, states = 100, 20
    columns = [rng.integers(0, states, n)]
    for i in range(1, 6):  # each variable copies an earlier one half of the time
        copied = columns[rng.integers(0, i)]
        columns.append(np.where(rng.random(n) < 0.5, copied, rng.integers(0, states, n)))
    data = pd.DataFrame({f"x{i}": c for i, c in enumerate(columns)})
    model = LDAGSearch(seed=0, n_restarts=0, show_progress=False).fit(data).model_
    largest = max(cpd.get_values().size for cpd in model.get_cpds())
    assert largest <= 16 * n
    assert any(cpd.get_evidence() for cpd in model.get_cpds())  # the copies are still found
