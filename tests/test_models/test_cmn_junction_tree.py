"""The junction tree's cached plans (homes, layouts, stale messages, fit plans) against brute force."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from pgmpy_sgm.models._cmn_inference import JunctionTreeEngine, Propagation
from pgmpy_sgm.models._cmn_parameters import cyclical_projection, fit_plan


def _random_factors(graph: nx.Graph, cards: dict, seed: int) -> list:
    rng = np.random.default_rng(seed)
    return [(tuple(c), rng.normal(size=[cards[v] for v in c])) for c in nx.find_cliques(graph)]


def _assert_edge_marginals(propagation: Propagation, graph: nx.Graph, joint: np.ndarray) -> None:
    """Every edge's propagated marginal equals the one summed from ``joint`` (axes in ``graph``'s node order)."""
    nodes = list(graph.nodes())
    for a, b in graph.edges():
        expected = joint.sum(axis=tuple(i for i, v in enumerate(nodes) if v not in (a, b)))
        if nodes.index(a) > nodes.index(b):
            expected = expected.T
        np.testing.assert_allclose(propagation.marginal([a, b]), expected, atol=1e-12)


GRAPHS = {
    "cycle": (nx.cycle_graph(["a", "b", "c", "d", "e"]), {"a": 2, "b": 3, "c": 2, "d": 2, "e": 3}),
    "two parts": (nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("d", "e")]), {"a": 2, "b": 2, "c": 3, "d": 2, "e": 2}),
    "grid": (nx.relabel_nodes(nx.grid_2d_graph(2, 3), lambda v: f"x{v[0]}{v[1]}"), None),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_log_partition_and_propagated_marginals_equal_brute_force(name, brute_log_joint):
    graph, cards = GRAPHS[name]
    cards = cards or dict.fromkeys(graph, 2)
    nodes = list(graph.nodes())
    factors = _random_factors(graph, cards, seed=len(name))
    log_joint = brute_log_joint(nodes, cards, factors)
    log_z = float(np.log(np.exp(log_joint).sum()))
    engine = JunctionTreeEngine(graph, cards)
    assert engine.log_partition(factors) == pytest.approx(log_z, abs=1e-10)
    assert engine.log_partition(factors) == engine.calibrate(factors)[0]  # the same pass, the same number
    propagation = Propagation(engine, factors[:1])
    for scope, table in factors[1:]:  # added one by one: stale messages must be renewed
        propagation.add(scope, table)
    joint = np.exp(log_joint - log_z)
    _assert_edge_marginals(propagation, graph, joint)


def test_layout_and_away_agree_with_their_definitions():
    engine = JunctionTreeEngine(nx.path_graph(["a", "b", "c", "d"]), dict.fromkeys("abcd", 2))
    axes, permutation, shape = engine.layout(("b", "c"), ("c", "d"))
    assert axes == (0,) and permutation == [0] and shape == [2, 1]
    for i in range(len(engine.cliques)):  # every directed tree edge pointing away from i, each once
        expected = {(a, b) for a, b in itertools.permutations(range(len(engine.cliques)), 2)
                    if b in engine.neighbours[a] and nx.shortest_path_length(nx.Graph(engine.tree_edges), i, a)
                    < nx.shortest_path_length(nx.Graph(engine.tree_edges), i, b)}
        assert sorted(engine.away(i)) == sorted(expected)
    with pytest.raises(ValueError, match="No clique"):
        engine.home(["a", "d"])


def test_fit_plan_is_shared_by_equal_structures_only():
    graph = nx.Graph([("a", "b"), ("b", "c")])
    cards = dict.fromkeys("abc", 2)
    first = fit_plan(graph, cards, {})[1]
    assert fit_plan(graph.copy(), cards, {})[1] is first
    assert fit_plan(graph, {**cards, "c": 3}, {})[1] is not first
    triangle = nx.complete_graph("abc")
    plain = fit_plan(triangle, cards, {})
    tied = fit_plan(triangle, cards, {frozenset(("a", "b")): {frozenset({("c", 0)})}})
    assert tied[1] is not plain[1] and tied[0][0].functions is not None and plain[0][0].functions is None
    reordered = nx.Graph()
    reordered.add_nodes_from(["c", "b", "a"])
    reordered.add_edges_from(graph.edges())
    assert fit_plan(reordered, cards, {})[1] is not first  # node order names the cliques' axes


def test_fits_from_a_cached_plan_equal_fresh_ones():
    graph, cards = GRAPHS["cycle"]
    table = np.random.default_rng(0).integers(1, 9, size=[cards[v] for v in graph.nodes()]).astype(float)
    nodes = list(graph.nodes())

    def counts(scope):
        return table.sum(axis=tuple(i for i, v in enumerate(nodes) if v not in scope)).transpose(
            np.argsort(np.argsort([nodes.index(v) for v in scope])))

    first = cyclical_projection(graph, cards, {}, counts, 1.0, 1e-8, 200)
    again = cyclical_projection(graph.copy(), cards, {}, counts, 1.0, 1e-8, 200)
    assert again.engine is first.engine
    assert again.log_z == first.log_z
    for clique, potential in first.log_potentials.items():
        np.testing.assert_array_equal(again.log_potentials[clique], potential)


@pytest.mark.parametrize("spread", [1.0, 700.0], ids=["moderate", "beyond exp's range"])
def test_propagated_marginals_with_ruled_out_cells_and_extreme_potentials(spread, brute_log_joint):
    graph, cards = GRAPHS["cycle"]
    nodes = list(graph.nodes())
    factors = [(scope, table * spread) for scope, table in _random_factors(graph, cards, seed=11)]
    factors[0][1].flat[0] = -np.inf  # a ruled-out cell, as a zero target of cyclical projection gives
    log_joint = brute_log_joint(nodes, cards, factors)
    finite = log_joint[np.isfinite(log_joint)]
    top = finite.max()
    log_z = float(top + np.log(np.exp(finite - top).sum()))
    propagation = Propagation(JunctionTreeEngine(graph, cards), factors)
    joint = np.exp(log_joint - log_z)
    _assert_edge_marginals(propagation, graph, joint)
    belief_z, _ = propagation.belief(0)
    assert belief_z == pytest.approx(log_z, rel=1e-12, abs=1e-9)


def test_a_forked_propagation_leaves_its_origin_unchanged():
    graph, cards = GRAPHS["two parts"]
    factors = _random_factors(graph, cards, seed=3)
    base = Propagation(JunctionTreeEngine(graph, cards), factors)
    before = [base.marginal([v]) for v in graph.nodes()]
    forked = base.fork()
    forked.add(("a",), np.log(np.array([0.1, 10.0])))
    assert not np.allclose(forked.marginal(["a"]), before[0])
    for v, expected in zip(graph.nodes(), before, strict=True):
        np.testing.assert_array_equal(base.marginal([v]), expected)
