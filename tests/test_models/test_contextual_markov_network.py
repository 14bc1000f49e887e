"""Tests of ContextualMarkovNetwork's structure: contexts, checks, closure, dimension."""

from itertools import combinations, product

import networkx as nx
import numpy as np
import pytest

from pgmpy_sgm.models import StratifiedGraph
from pgmpy_sgm.models.contextual_markov_network import ContextualMarkovNetwork

CHORDED_CYCLE = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")]


def _implied_by_brute_force(cmn):
    """Contexts whose interaction contrasts (over the joint table) follow from the given ones, in the clique span."""
    nodes = list(cmn.nodes())
    cards = [len(cmn.node_states(v)) for v in nodes]
    cells = list(product(*(range(k) for k in cards)))
    pos = {v: i for i, v in enumerate(nodes)}
    span = np.array([[float(all(c[pos[w]] == s for w, s in zip(clique, values, strict=True))) for c in cells]
                     for clique in nx.find_cliques(cmn)
                     for values in product(*(range(cards[pos[w]]) for w in clique))]).T

    def rows(u, v, context):
        out = []
        for c in cells:
            if c[pos[u]] and c[pos[v]] and all(cmn.node_states(w).index(s) == c[pos[w]] for w, s in context.items()):
                row = np.zeros(len(cells))
                for a, b, sign in ((c[pos[u]], c[pos[v]], 1), (0, c[pos[v]], -1), (c[pos[u]], 0, -1), (0, 0, 1)):
                    moved = list(c)
                    moved[pos[u]], moved[pos[v]] = a, b
                    row[cells.index(tuple(moved))] += sign
                out.append(row)
        return out

    given = [r for (u, v), found in cmn.contexts.items() for context in found for r in rows(u, v, context)]
    base = np.linalg.matrix_rank(np.array(given) @ span)
    implied = {}
    for u, v in cmn.edges():
        shared = cmn.common_neighbours(u, v)
        for context in ContextualMarkovNetwork.complete_contexts(shared, cmn.state_names) if shared else []:
            if np.linalg.matrix_rank(np.array(given + rows(u, v, context)) @ span) == base:
                implied.setdefault((u, v), []).append(context)
    return implied


def _log_linear_dimension_by_brute_force(cmn):
    """Dimension of {log p: sums of clique functions meeting the context constraints}, less the constants.

    Built over the whole joint table: a spanning set of the clique functions (indicators of
    clique cells), the constraints as rows of interaction contrasts, the dimension of the null
    space of the constraints within the span.
    """
    nodes = list(cmn.nodes())
    cards = [len(cmn.node_states(v)) for v in nodes]
    cells = list(product(*(range(k) for k in cards)))
    index = {c: i for i, c in enumerate(cells)}
    pos = {v: i for i, v in enumerate(nodes)}
    span = []
    for clique in nx.find_cliques(cmn):
        for values in product(*(range(cards[pos[w]]) for w in clique)):
            span.append([float(all(c[pos[w]] == s for w, s in zip(clique, values, strict=True))) for c in cells])
    basis = np.array(span).T  # joint cells x spanning functions
    rows = []
    for (u, v), found in cmn.contexts.items():
        for context in found:
            for c in cells:
                if c[pos[u]] == 0 or c[pos[v]] == 0:
                    continue
                if any(cmn.node_states(w).index(s) != c[pos[w]] for w, s in context.items()):
                    continue
                row = np.zeros(len(cells))
                for a, b, sign in ((c[pos[u]], c[pos[v]], 1), (0, c[pos[v]], -1), (c[pos[u]], 0, -1), (0, 0, 1)):
                    cell = list(c)
                    cell[pos[u]], cell[pos[v]] = a, b
                    row[index[tuple(cell)]] += sign
                rows.append(row)
    span_rank = np.linalg.matrix_rank(basis)
    if not rows:
        return span_rank - 1
    # the functions B w with C B w = 0 form a space of dimension rank(B) - rank(C B)
    return span_rank - np.linalg.matrix_rank(np.array(rows) @ basis) - 1


def _random_chordal_sg(rng, n_nodes):
    while True:
        g = nx.gnp_random_graph(n_nodes, 0.6, seed=int(rng.integers(1 << 30)))
        if nx.is_chordal(g) and g.number_of_edges():
            break
    states = {v: list(range(int(rng.integers(2, 4)))) for v in g.nodes()}
    sg = StratifiedGraph(list(g.edges()), nodes=list(g.nodes()), state_names=states)
    for u, v in sg.free_edges:
        shared = sg.common_neighbours(u, v)
        if shared and rng.random() < 0.9:
            options = StratifiedGraph.complete_contexts(shared, states)
            for k in rng.choice(len(options), size=int(rng.integers(1, len(options))), replace=False):
                sg.add_label(u, v, options[int(k)])
    return sg, states


class TestConstruction:
    def test_either_orientation_and_sorted_contexts(self):
        cmn = ContextualMarkovNetwork(CHORDED_CYCLE, contexts={("c", "a"): [{"d": 1, "b": 1}, {"b": 0, "d": 1}]})
        assert cmn.contexts == {("a", "c"): [{"b": 0, "d": 1}, {"b": 1, "d": 1}]}
        assert cmn.n_contexts() == 2

    def test_is_a_pgmpy_markov_network(self):
        from pgmpy.models import DiscreteMarkovNetwork

        cmn = ContextualMarkovNetwork(CHORDED_CYCLE, nodes=["e"], state_names={"a": ["x", "y", "z"]})
        assert isinstance(cmn, DiscreteMarkovNetwork)
        assert sorted(cmn.nodes()) == ["a", "b", "c", "d", "e"]
        assert cmn.states["a"] == ["x", "y", "z"] and cmn.states["e"] == [0, 1]
        assert cmn.factors == []

    def test_copy_of_a_network_keeps_contexts_and_states(self):
        cmn = ContextualMarkovNetwork(CHORDED_CYCLE, contexts={("a", "c"): [{"b": 0, "d": 1}]},
                                      state_names={"b": [0, 1, 2]})
        assert ContextualMarkovNetwork(cmn) == cmn
        assert cmn.copy() == cmn
        other = cmn.copy()
        other.remove_contexts("a", "c")
        assert other != cmn and other.contexts == {}

    def test_from_a_stratified_graph(self):
        sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(3, 2): [{1: "y"}]}, state_names={1: ["x", "y"]})
        cmn = ContextualMarkovNetwork(sg)
        assert cmn.contexts == sg.strata and cmn.state_names == sg.state_names

    def test_independencies_are_readable(self):
        cmn = ContextualMarkovNetwork(CHORDED_CYCLE, contexts={("a", "c"): [{"b": 0, "d": 1}]})
        assert [str(s) for s in cmn.independencies()] == ["a ⟂ c | b=0, d=1"]


class TestBadInput:
    @pytest.mark.parametrize(("contexts", "error", "match"), [
        ({("a", "x"): [{"b": 0}]}, ValueError, r"\('a', 'x'\): it is not an edge"),
        ({("a", "b"): [{"d": 0}]}, ValueError, r"exactly the common neighbours \['c'\]"),
        ({("a", "c"): [{"b": 0}]}, ValueError, r"exactly the common neighbours \['b', 'd'\]"),
        ({("a", "c"): [{"b": 0, "d": 2}]}, ValueError, r"state 2 of 'd', which has states \(0, 1\)"),
        ({("a", "c"): {"b": 0, "d": 1}}, TypeError, "Got a single dict"),
        ({("a", "c"): [("b", 0)]}, TypeError, r"must be a dict \{variable: state\}"),
        ({"ac": [{"b": 0}]}, ValueError, "keys must be edges"),
        ([("a", "c")], TypeError, "contexts must be a dict"),
    ])
    def test_bad_contexts(self, contexts, error, match):
        with pytest.raises(error, match=match):
            ContextualMarkovNetwork(CHORDED_CYCLE, contexts=contexts)

    def test_edge_without_common_neighbours(self):
        with pytest.raises(ValueError, match=r"Edge \(1, 2\) has no common neighbours"):
            ContextualMarkovNetwork([(1, 2), (2, 3), (3, 4), (4, 1)], contexts={(1, 2): [{}]})

    def test_bad_edges_and_states(self):
        with pytest.raises(ValueError, match="Self-loop on 'a'"):
            ContextualMarkovNetwork([("a", "a")])
        with pytest.raises(ValueError, match="Each edge must be a pair"):
            ContextualMarkovNetwork([("a", "b", "c")])
        with pytest.raises(TypeError, match="not the string 'xy'"):
            ContextualMarkovNetwork([("a", "b")], state_names={"a": "xy"})
        with pytest.raises(ValueError, match=r"state_names\['a'\] must list distinct states"):
            ContextualMarkovNetwork([("a", "b")], state_names={"a": [1, 1]})

    def test_whole_outcome_space_is_irregular(self):
        cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 0}, {1: 1}]})
        with pytest.raises(ValueError, match=r"edge \(2, 3\) .* cover every outcome"):
            cmn.check_model()
        assert not cmn.is_maximal_regular()

    def test_context_made_stale_by_a_new_edge(self):
        cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3), (3, 4)], contexts={(2, 3): [{1: 0}]})
        cmn.add_edge(2, 4)
        with pytest.raises(ValueError, match=r"exactly the common neighbours \[1, 4\]"):
            cmn.check_model()


class TestAgainstStratifiedGraphs:
    """On decomposable graphs a CMN is an SG: the same closure and the same number of parameters."""

    @pytest.mark.parametrize("seed", range(20))
    def test_random_decomposable(self, seed):
        rng = np.random.default_rng(seed)
        sg, states = _random_chordal_sg(rng, int(rng.integers(3, 6)))
        cmn = ContextualMarkovNetwork(list(sg.edges()), contexts=sg.strata, nodes=list(sg.nodes()),
                                      state_names=states)
        if not sg.is_decomposable():  # labelled edges without a common node: a CMN, not an SG
            assert cmn.n_free_parameters() == _log_linear_dimension_by_brute_force(cmn)
            return
        assert cmn.n_free_parameters() == sg.n_free_parameters()
        assert cmn.n_free_parameters(contexts=False) == sg.n_free_parameters(strata=False)
        assert cmn.closure().contexts == sg.closure().strata
        assert cmn.is_maximal_regular() == sg.is_maximal_regular()


class TestDimension:
    @pytest.mark.parametrize(("edges", "contexts", "states"), [
        (CHORDED_CYCLE, {("a", "c"): [{"b": 0, "d": 1}]}, {}),
        (CHORDED_CYCLE, {("a", "c"): [{"b": 1, "d": 1}, {"b": 0, "d": 0}]}, {"b": [0, 1, 2]}),
        ([(1, 2), (2, 3), (3, 4), (4, 1), (1, 5), (2, 5)], {(1, 2): [{5: "v"}]}, {5: ["u", "v", "w"]}),
        ([(1, 2), (1, 3), (2, 3), (2, 4), (3, 4), (1, 4)], {(2, 3): [{1: 0, 4: 1}], (1, 4): [{2: 1, 3: 1}]}, {}),
    ])
    def test_against_the_joint_table(self, edges, contexts, states):
        cmn = ContextualMarkovNetwork(edges, contexts=contexts, state_names=states)
        assert cmn.n_free_parameters() == _log_linear_dimension_by_brute_force(cmn)
        assert cmn.n_free_parameters(contexts=False) == _log_linear_dimension_by_brute_force(
            ContextualMarkovNetwork(edges, state_names=states))

    @pytest.mark.parametrize("seed", range(8))
    def test_closure_against_the_joint_table(self, seed):
        rng = np.random.default_rng(seed)
        while True:
            g = nx.gnp_random_graph(int(rng.integers(3, 5)), 0.8, seed=int(rng.integers(1 << 30)))
            if any(nx.common_neighbors(g, u, v) for u, v in g.edges()):
                break
        states = {v: list(range(int(rng.integers(2, 4)))) for v in g.nodes()}
        cmn = ContextualMarkovNetwork(list(g.edges()), nodes=list(g.nodes()), state_names=states)
        for u, v in g.edges():
            shared = cmn.common_neighbours(u, v)
            if shared and rng.random() < 0.7:
                options = ContextualMarkovNetwork.complete_contexts(shared, states)
                for k in rng.choice(len(options), size=int(rng.integers(1, len(options) + 1)), replace=False):
                    cmn.add_context(u, v, options[int(k)])
        assert cmn.closure().contexts == _implied_by_brute_force(cmn)

    def test_closure_adds_implied_contexts_only(self):
        edges = list(combinations([1, 2, 3, 4], 2))
        cmn = ContextualMarkovNetwork(edges, contexts={(2, 3): [{1: 0, 4: 0}], (3, 4): [{1: 0, 2: 0}, {1: 0, 2: 1}]})
        closed = cmn.closure()
        assert closed.n_contexts() > cmn.n_contexts()
        assert closed.n_free_parameters() == cmn.n_free_parameters()
        assert closed.is_maximal_regular() and not cmn.is_maximal_regular()
