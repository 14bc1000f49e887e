"""StratifiedGraph: construction, validation, closure, CSI statements, parameters."""

import itertools

import networkx as nx
import pytest

from pgmpy_sgm import StratifiedGraph

K4 = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
TRIANGLE = [(1, 2), (1, 3), (2, 3)]


def test_strata_are_reported_once_per_edge_in_edge_orientation():
    sg = StratifiedGraph(TRIANGLE, strata={(3, 2): [{1: 1}], (2, 3): [{1: 1}]})
    assert sg.strata == {(2, 3): [{1: 1}]}
    assert sg.n_labels() == 1


def test_subclasses_pgmpy_undirected_graph_and_copies_keep_the_class():
    from pgmpy.base import UndirectedGraph

    sg = StratifiedGraph(TRIANGLE, strata={(2, 3): [{1: 1}]}, state_names={1: ["a", "b"]})
    assert isinstance(sg, UndirectedGraph)
    copied = sg.copy()
    assert type(copied) is StratifiedGraph and copied == sg and copied.states(1) == ("a", "b")
    copied.remove_labels()
    assert sg.strata  # the original is untouched


def test_heart_best_sg_statements_and_parameters(heart_reference_models):
    sg, _ = heart_reference_models["best"]
    assert [str(s) for s in sg.independencies()] == [
        "smoking ⟂ systolic_bp | lipoprotein_ratio=1",
        "systolic_bp ⟂ lipoprotein_ratio | smoking=0",
    ]
    assert sg.n_free_parameters(strata=False) == 14
    assert sg.n_free_parameters() == 12
    assert sg.is_maximal_regular()
    assert sorted(map(sorted, sg.separators)) == [["lipoprotein_ratio", "smoking"], ["physical_work"]]


def test_free_edges_exclude_separator_edges():
    sg = StratifiedGraph([(1, 2), (1, 3), (2, 3), (2, 4), (3, 4)])
    assert (2, 3) not in sg.free_edges
    assert set(sg.free_edges) == {(1, 2), (1, 3), (2, 4), (3, 4)}


# --- every invalid stratified graph is rejected with a message naming what is wrong ----------


def test_rejects_non_chordal_graph_naming_the_cycle():
    sg = StratifiedGraph([(1, 2), (2, 3), (3, 4), (4, 1)])
    with pytest.raises(ValueError, match=r"not decomposable.*cycle \[.*\] has no chord"):
        sg.check_model()
    assert not sg.is_decomposable()


def test_rejects_label_on_separator_edge():
    sg = StratifiedGraph([(1, 2), (1, 3), (2, 3), (2, 4), (3, 4)], strata={(2, 3): [{1: 0, 4: 0}]})
    with pytest.raises(ValueError, match=r"Edge \(2, 3\) lies in a separator"):
        sg.check_model()


def test_rejects_labelled_edges_without_common_node():
    sg = StratifiedGraph(K4, strata={(1, 2): [{3: 0, 4: 0}], (3, 4): [{1: 0, 2: 0}]})
    with pytest.raises(ValueError, match=r"clique \(1, 2, 3, 4\).*share no node"):
        sg.check_model()


def test_rejects_three_labelled_edges_of_a_triangle():
    sg = StratifiedGraph(TRIANGLE, strata={(1, 2): [{3: 0}], (2, 3): [{1: 0}], (1, 3): [{2: 0}]})
    with pytest.raises(ValueError, match="share no node"):
        sg.check_model()


def test_rejects_stratum_equal_to_whole_outcome_space():
    sg = StratifiedGraph(TRIANGLE, strata={(2, 3): [{1: 0}, {1: 1}]})
    with pytest.raises(ValueError, match=r"stratum of edge \(2, 3\) is the whole outcome space"):
        sg.check_model()


def test_rejects_context_over_wrong_variables():
    sg = StratifiedGraph(K4, strata={(1, 2): [{3: 0}]})
    with pytest.raises(ValueError, match=r"Edge \(1, 2\) has the context \{3: 0\}.*common neighbours \[3, 4\]"):
        sg.check_model()


def test_rejects_unknown_state():
    sg = StratifiedGraph(TRIANGLE, strata={(2, 3): [{1: "yes"}]}, state_names={1: ["no", "maybe"]})
    with pytest.raises(ValueError, match=r"state 'yes' of 1, which has states \('no', 'maybe'\)"):
        sg.check_model()


def test_rejects_label_on_edge_without_common_neighbours():
    sg = StratifiedGraph([(1, 2), (2, 3)], strata={(1, 2): [{}]})
    with pytest.raises(ValueError, match=r"Edge \(1, 2\) has no common neighbours"):
        sg.check_model()


def test_construction_errors_name_the_culprit():
    with pytest.raises(ValueError, match="Self-loop on 1"):
        StratifiedGraph([(1, 1)])
    with pytest.raises(ValueError, match=r"Cannot label \(1, 4\)"):
        StratifiedGraph(TRIANGLE, strata={(1, 4): [{2: 0}]})
    with pytest.raises(TypeError, match="must be a list of contexts"):
        StratifiedGraph(TRIANGLE, strata={(2, 3): {1: 0}})
    with pytest.raises(ValueError, match="pair"):
        StratifiedGraph([(1, 2, 3)])


# --- closure ---------------------------------------------------------------------------------


def test_closure_adds_the_paper_example_label():
    # Nyman et al., Figure 4a discussion: labels (0,0) on {2,3}, (0,0) and (0,1) on {3,4} imply (0,1) on {2,3}
    sg = StratifiedGraph(K4, strata={(2, 3): [{1: 0, 4: 0}], (3, 4): [{1: 0, 2: 0}, {1: 0, 2: 1}]})
    assert not sg.is_maximal_regular()
    closed = sg.closure()
    assert closed.strata[(2, 3)] == [{1: 0, 4: 0}, {1: 0, 4: 1}]
    assert closed.strata[(3, 4)] == sg.strata[(3, 4)]
    assert closed.is_maximal_regular()
    assert closed.closure() == closed  # idempotent


def test_closure_can_reveal_irregularity():
    # two labels on {1,3} and {2,3} in a triangle merge 3 of 4 configurations: still regular
    sg = StratifiedGraph(TRIANGLE, strata={(1, 3): [{2: 0}], (2, 3): [{1: 0}, {1: 1}][:1]})
    assert sg.closure().is_maximal_regular()


def test_equality_and_repr():
    a = StratifiedGraph(TRIANGLE, strata={(2, 3): [{1: 1}]})
    b = StratifiedGraph([(3, 2), (1, 2), (1, 3)], strata={(3, 2): [{1: 1}]})
    assert a == b
    assert a != StratifiedGraph(TRIANGLE)
    assert repr(a) == "<StratifiedGraph with 3 nodes, 3 edges, 1 labelled edges (1 labels)>"
    assert StratifiedGraph(nx.Graph(TRIANGLE)) == StratifiedGraph(TRIANGLE)


def test_three_state_free_parameters():
    sg = StratifiedGraph(TRIANGLE, strata={(2, 3): [{1: "b"}]}, state_names={1: ["a", "b", "c"]})
    # |X_C| - 1 = 11 unlabelled; center 3 (binary) with parents (1, 2): 6 configs, 5 groups -> one less
    assert sg.n_free_parameters(strata=False) == 11
    assert sg.n_free_parameters() == 10


def _separates(graph, a, b, given) -> bool:
    rest = graph.to_graph()
    rest.remove_nodes_from(given)
    return not nx.has_path(rest, a, b)


@pytest.mark.parametrize("seed", range(8))
def test_get_independencies_are_minimal_separations_of_every_non_adjacent_pair(seed):
    from pgmpy.independencies import Independencies

    from pgmpy_sgm.datasets.synthetic import random_stratified_graph

    sg = random_stratified_graph(4 + seed % 4, seed=seed, edge_prob=0.5)
    found = sg.get_independencies(reduce=False)
    assert isinstance(found, Independencies)
    pairs = set()
    for assertion in found.get_assertions():
        (a,), (b,), given = (sorted(x, key=str) for x in (assertion.event1, assertion.event2, assertion.event3))
        assert not sg.has_edge(a, b) and _separates(sg, a, b, given)
        assert all(not _separates(sg, a, b, [w for w in given if w != drop]) for drop in given)  # minimal
        pairs.add(frozenset((a, b)))
    non_adjacent = {frozenset(p) for p in itertools.combinations(sg.nodes(), 2) if not sg.has_edge(*p)}
    assert pairs == non_adjacent
    reduced = sg.get_independencies()
    assert reduced.entails(found) and found.entails(reduced)


def test_get_independencies_of_the_heart_model_keeps_csi_apart(heart_reference_models):
    sg, _ = heart_reference_models["best"]
    others = ["smoking", "mental_work", "physical_work", "systolic_bp", "lipoprotein_ratio"]
    expected = {f"({v} ⟂ family_history)" for v in others} | {  # worked out by hand from the graph
        "(smoking ⟂ mental_work | physical_work)",
        "(mental_work ⟂ systolic_bp | physical_work)",
        "(mental_work ⟂ lipoprotein_ratio | physical_work)",
        "(physical_work ⟂ systolic_bp | lipoprotein_ratio, smoking)",
    }
    found = sg.get_independencies(reduce=False)
    assert {str(a) for a in found.get_assertions()} == expected
    assert sg.get_independencies().entails(found)
    assert [str(s) for s in sg.independencies()] == [
        "smoking ⟂ systolic_bp | lipoprotein_ratio=1",
        "systolic_bp ⟂ lipoprotein_ratio | smoking=0",
    ]


def test_labels_whose_closure_removes_an_edge_are_refused():
    import itertools

    strata = {("a", "d"): [{"b": 0, "c": 0}, {"b": 0, "c": 1}, {"b": 1, "c": 0}],
              ("b", "d"): [{"a": 0, "c": 1}, {"a": 1, "c": 1}]}
    sg = StratifiedGraph(list(itertools.combinations("abcd", 2)), strata=strata,
                         state_names={v: [0, 1] for v in "abcd"})
    # by hand: the (b, d) labels join (a,b,c) = (0,0,1)-(0,1,1) and (1,0,1)-(1,1,1), the (a, d) label at
    # (b, c) = (0, 1) joins (0,0,1)-(1,0,1), so the line of (a, d) at (b, c) = (1, 1) lies in one group
    assert not sg.is_maximal_regular() and not sg.is_decomposable()
    with pytest.raises(ValueError, match=r"^The labels of clique \('a', 'b', 'c', 'd'\) imply \(by closure\) a label "
                                         r"on edge \('a', 'd'\) in every context"):
        sg.check_model()
    del strata[("b", "d")][1]  # without the last join the closure leaves (a, d) a context
    assert StratifiedGraph(list(itertools.combinations("abcd", 2)), strata=strata,
                           state_names={v: [0, 1] for v in "abcd"}).check_model()


def test_networkx_views_and_pandas_indexes_are_accepted_where_pgmpy_takes_them():
    import networkx as nx
    import pandas as pd

    graph = nx.Graph([("a", "b")])
    graph.add_node("c")
    sg = StratifiedGraph(graph.edges(), nodes=graph.nodes(), state_names={"a": pd.Index(["lo", "hi"])})
    assert sorted(sg.nodes()) == ["a", "b", "c"] and sg.states("a") == ("lo", "hi")
