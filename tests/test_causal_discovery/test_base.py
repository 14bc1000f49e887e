"""pgmpy's causal-discovery contract: causal_graph_, adjacency_matrix_, score with pgmpy's metrics."""

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG, PDAG

from pgmpy_sgm.causal_discovery import NonReversibleMCMC
from pgmpy_sgm.causal_discovery._base import equivalence_class, perfect_orientation
from pgmpy_sgm.datasets import load_heart_disease, paper_synthetic_graph, simulate_paper_synthetic


@pytest.fixture(scope="module")
def heart():
    return load_heart_disease()


@pytest.fixture(scope="module")
def fitted(heart):
    return {
        kind: NonReversibleMCMC(n_iter=300, seed=0, show_progress=False, return_type=kind).fit(heart)
        for kind in ("pdag", "dag")
    }


def _immoralities(dag) -> list:
    """Brute force: pairs of non-adjacent parents of a common child."""
    out = []
    for child in dag.nodes():
        for a, b in itertools.combinations(sorted(dag.predecessors(child)), 2):
            if not (dag.has_edge(a, b) or dag.has_edge(b, a)):
                out.append((a, child, b))
    return out


def test_pdag_is_the_undirected_equivalence_class(fitted, heart):
    est = fitted["pdag"]
    graph = est.causal_graph_
    assert isinstance(graph, PDAG) and not graph.directed_edges
    assert list(graph.nodes()) == list(heart.columns)
    assert {frozenset(e) for e in graph.undirected_edges} == {frozenset(e) for e in est.model_.edges()}
    adjacency = est.adjacency_matrix_
    assert list(adjacency.index) == list(adjacency.columns) == list(heart.columns)
    expected = nx.to_numpy_array(est.model_.to_graph(), nodelist=list(heart.columns), dtype=int)
    np.testing.assert_array_equal(adjacency.to_numpy(), expected)
    assert adjacency.dtypes.unique().tolist() == [np.dtype(int)]


def test_dag_is_a_perfect_orientation(fitted):
    est = fitted["dag"]
    dag = est.causal_graph_
    assert isinstance(dag, DAG) and nx.is_directed_acyclic_graph(dag)
    assert {frozenset(e) for e in dag.edges()} == {frozenset(e) for e in est.model_.edges()}
    assert _immoralities(dag) == []
    assert int(est.adjacency_matrix_.to_numpy().sum()) == est.model_.number_of_edges()


def test_perfect_orientation_of_random_chordal_graphs_has_no_immoralities():
    rng = np.random.default_rng(0)
    for _ in range(30):
        n = int(rng.integers(2, 9))
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        for v in range(1, n):  # join each node to a subset of a clique of the earlier ones: chordal
            cliques = [c for c in nx.find_cliques(graph.subgraph(range(v)))]
            clique = cliques[int(rng.integers(len(cliques)))]
            graph.add_edges_from((v, w) for w in clique if rng.random() < 0.7)
        order = list(rng.permutation(n))
        dag = perfect_orientation(graph, order)
        assert list(dag.nodes()) == order and nx.is_directed_acyclic_graph(dag)
        assert {frozenset(e) for e in dag.edges()} == {frozenset(e) for e in graph.edges()}
        assert _immoralities(dag) == []
    with pytest.raises(ValueError, match="not decomposable"):
        perfect_orientation(nx.cycle_graph(4))
    with pytest.raises(ValueError, match="not in nodes"):
        perfect_orientation(nx.Graph([(0, 1)]), [0])


def test_equivalence_class_keeps_isolated_nodes_in_order():
    pdag = equivalence_class(nx.Graph([("b", "c")]), ["c", "a", "b"])
    assert list(pdag.nodes()) == ["c", "a", "b"]
    assert pdag.undirected_edges == {("c", "b")} and pdag.directed_edges == set()


def test_score_keeps_the_log_posterior_and_takes_pgmpy_metrics(fitted, heart):
    est, dag_est = fitted["pdag"], fitted["dag"]
    assert est.score(heart) == est.score(X=heart) == pytest.approx(-6715.90, abs=0.005)
    true = paper_dag = dag_est.causal_graph_
    # against a true graph: pgmpy's default (SHD) and named metrics; positional (X, true_graph) as in pgmpy
    assert est.score(true_graph=true) == 0
    assert est.score(None, true) == 0
    cm = est.score(true_graph=true, metric="adjacency_confusion_matrix")
    assert cm["precision"] == cm["recall"] == 1.0
    missing = DAG([e for e in paper_dag.edges() if set(e) != {"smoking", "systolic_bp"}])
    missing.add_nodes_from(paper_dag.nodes())
    assert est.score(true_graph=missing, metric="SHD") == 1
    # on data: a DAG-only metric is evaluated on the perfect orientation
    expected = dag_est.score(X=heart, metric="structure_score")
    assert est.score(X=heart, metric="structure_score") == expected
    with pytest.raises(ValueError, match="No scoring method"):
        est.score(X=heart, metric="no_such_metric")
    with pytest.raises(ValueError, match="Either"):
        est.score()


def test_return_type_is_checked_before_the_search(heart):
    with pytest.raises(ValueError, match="return_type"):
        NonReversibleMCMC(n_iter=10, return_type="cpdag", show_progress=False).fit(heart)


def test_numpy_input_gets_a_causal_graph_over_x_columns():
    X = simulate_paper_synthetic(300, seed=1).to_numpy()
    est = NonReversibleMCMC(n_iter=100, seed=0, show_progress=False).fit(X)
    assert list(est.causal_graph_.nodes()) == [f"x{i}" for i in range(7)]
    assert isinstance(est.adjacency_matrix_, pd.DataFrame)
    assert paper_synthetic_graph().number_of_nodes() == 7
