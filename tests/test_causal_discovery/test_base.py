"""pgmpy's causal-discovery contract: causal_graph_, adjacency_matrix_, score with pgmpy's metrics."""

import itertools
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG, PDAG

from pgmpy_sgm.causal_discovery import LDAGSearch, NonReversibleMCMC
from pgmpy_sgm.causal_discovery._base import (
    CausalDiscoveryMixin,
    check_return_type,
    cpdag,
    equivalence_class,
    perfect_orientation,
)
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
    with pytest.raises(ValueError, match="return_type must be one of"):
        NonReversibleMCMC(n_iter=10, return_type="graph", show_progress=False).fit(heart)
    with pytest.raises(ValueError, match="Got: 3"):
        check_return_type(3)
    assert [check_return_type(v) for v in ("PDAG", "cpdag", "Dag")] == ["pdag", "cpdag", "dag"]


def test_cpdag_return_type_is_the_pdag_of_a_decomposable_graph(fitted, heart):
    # the perfect orientations have no immoralities: their CPDAG has every edge undirected
    est = NonReversibleMCMC(n_iter=300, seed=0, show_progress=False, return_type="cpdag").fit(heart)
    pdag = fitted["pdag"].causal_graph_
    assert isinstance(est.causal_graph_, PDAG) and list(est.causal_graph_.nodes()) == list(pdag.nodes())
    assert est.causal_graph_.undirected_edges == pdag.undirected_edges and not est.causal_graph_.directed_edges
    pd.testing.assert_frame_equal(est.adjacency_matrix_, fitted["pdag"].adjacency_matrix_)
    of_perfect = cpdag(fitted["dag"].causal_graph_)  # pgmpy's CPDAG of the perfect orientation
    assert of_perfect.directed_edges == set()
    assert {frozenset(e) for e in of_perfect.undirected_edges} == {frozenset(e) for e in pdag.undirected_edges}


def _brute_force_cpdag(dag: nx.DiGraph) -> tuple[set, set]:
    """Directed and undirected edges of the class: every orientation of the skeleton with the
    same immoralities (Verma and Pearl) is a member; an edge is directed when all members agree."""
    skeleton = [tuple(e) for e in dag.edges()]
    target = set(_immoralities(dag))
    members = []
    for flips in itertools.product((False, True), repeat=len(skeleton)):
        other = nx.DiGraph()
        other.add_nodes_from(dag.nodes())
        other.add_edges_from((v, u) if f else (u, v) for (u, v), f in zip(skeleton, flips, strict=True))
        if nx.is_directed_acyclic_graph(other) and set(_immoralities(other)) == target:
            members.append(set(other.edges()))
    directed = set.intersection(*members)
    undirected = {tuple(sorted(e)) for m in members for e in m} - {tuple(sorted(e)) for e in directed}
    return directed, undirected


def test_cpdag_agrees_with_the_class_enumerated_by_brute_force():
    rng = np.random.default_rng(5)
    for _ in range(40):
        n = int(rng.integers(2, 7))
        order = list(rng.permutation(n))
        dag = DAG()
        dag.add_nodes_from(order)
        pairs = [(order[i], order[j]) for i in range(n) for j in range(i + 1, n)]
        dag.add_edges_from(p for p in pairs if rng.random() < 0.45)
        nodes = list(rng.permutation(n))
        found = cpdag(dag, nodes)
        directed, undirected = _brute_force_cpdag(dag)
        assert list(found.nodes()) == nodes
        assert found.directed_edges == directed
        assert {tuple(sorted(e)) for e in found.undirected_edges} == undirected
        position = {v: i for i, v in enumerate(nodes)}
        assert all(position[u] < position[v] for u, v in found.undirected_edges)  # oriented by `nodes`


def test_both_learners_score_data_by_their_own_log_posterior(heart):
    # score(X) without a metric: the learner's log unnormalized posterior of its fitted model,
    # so on the training data it is best_score_ for both learners (see CausalDiscoveryMixin)
    mcmc = NonReversibleMCMC(n_iter=200, seed=0, show_progress=False).fit(heart)
    ldag = LDAGSearch(n_restarts=1, seed=0, show_progress=False).fit(heart)
    for est in (mcmc, ldag):
        assert isinstance(est, CausalDiscoveryMixin)
        assert est.score(heart) == pytest.approx(est.best_score_, abs=1e-8)
        assert est.score(heart.head(400)) > est.score(heart)  # fewer rows, a smaller negative log-probability
        assert est.score(X=heart, metric="correlation_score") == est.score(heart, None, None, "correlation_score")


def test_numpy_input_gets_a_causal_graph_over_x_columns():
    X = simulate_paper_synthetic(300, seed=1).to_numpy()
    est = NonReversibleMCMC(n_iter=100, seed=0, show_progress=False).fit(X)
    assert list(est.causal_graph_.nodes()) == [f"x{i}" for i in range(7)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an array scored after a fit on an array has the fitted names
        assert est.score(X) == pytest.approx(est.best_score_, abs=1e-8)
    assert isinstance(est.adjacency_matrix_, pd.DataFrame)
    assert paper_synthetic_graph().number_of_nodes() == 7


def test_feature_check_does_not_copy_a_frame_of_categories():
    import tracemalloc

    from pgmpy_sgm.causal_discovery._base import check_features

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({f"x{i}": pd.Categorical(rng.integers(0, 3, 200_000)) for i in range(20)})
    est = LDAGSearch()
    tracemalloc.start()
    check_features(est, frame, reset=True)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < frame.memory_usage(deep=True).sum()  # an object array of the cells: 8 bytes a cell, 8 times more
    assert est.n_features_in_ == 20 and est.feature_names_in_.tolist() == list(frame.columns)
