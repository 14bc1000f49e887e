"""The whole joint table of a small network against brute force and against the junction tree's messages."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

import pgmpy_sgm.models._cmn_dense as cmn_dense
from pgmpy_sgm.models._cmn_dense import DenseJoint, held_whole, propagation_for
from pgmpy_sgm.models._cmn_inference import JunctionTreeEngine, Propagation
from pgmpy_sgm.models._cmn_parameters import cyclical_projection

GRAPHS = {
    "cycle": (nx.cycle_graph(["a", "b", "c", "d", "e"]), {"a": 2, "b": 3, "c": 2, "d": 2, "e": 3}),
    "two parts": (nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("d", "e")]), {"a": 2, "b": 2, "c": 3, "d": 2, "e": 2}),
    "lone node": (nx.Graph([("a", "b"), ("b", "c")]), {"a": 3, "b": 2, "c": 4}),
}


def _factors(graph: nx.Graph, cards: dict, seed: int, impossible: bool = False) -> list:
    rng = np.random.default_rng(seed)
    factors = [(tuple(c), rng.normal(size=[cards[v] for v in c])) for c in nx.find_cliques(graph)]
    if impossible:  # a cell of the first potential ruled out, as a zero target of cyclical projection rules it out
        factors[0][1].flat[0] = -np.inf
    return factors


def _brute_marginal(log_joint: np.ndarray, nodes: list, keep: list) -> np.ndarray:
    joint = np.exp(log_joint - log_joint.max())
    joint = joint / joint.sum()
    summed = joint.sum(axis=tuple(i for i, v in enumerate(nodes) if v not in keep))
    rest = [v for v in nodes if v in keep]
    return np.transpose(summed, [rest.index(v) for v in keep])


@pytest.mark.parametrize("impossible", [False, True], ids=["positive", "a ruled-out cell"])
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_marginals_and_log_partition_equal_brute_force(name, impossible, brute_log_joint):
    graph, cards = GRAPHS[name]
    nodes = list(graph.nodes())
    factors = _factors(graph, cards, seed=len(name), impossible=impossible)
    log_joint = brute_log_joint(nodes, cards, factors)
    joint = DenseJoint(JunctionTreeEngine(graph, cards), factors[:1])
    for scope, table in factors[1:]:  # added one by one, as cyclical projection adds its steps
        joint.add(scope, table)
    finite = log_joint[np.isfinite(log_joint)]
    assert joint.log_z == pytest.approx(float(finite.max() + np.log(np.exp(finite - finite.max()).sum())), abs=1e-12)
    for keep in [[v] for v in nodes] + [list(e) for e in graph.edges()] + [nodes[::-1][:3]]:
        np.testing.assert_allclose(joint.marginal(keep), _brute_marginal(log_joint, nodes, keep), atol=1e-13)


def test_the_whole_joint_and_the_junction_tree_give_the_same_marginals():
    graph, cards = GRAPHS["cycle"]
    engine = JunctionTreeEngine(graph, cards)
    factors = _factors(graph, cards, seed=5)
    joint, propagation = DenseJoint(engine, factors), Propagation(engine, factors)
    for scope in [("a", "b"), ("e", "a"), ("c",), ("b", "c")]:
        np.testing.assert_allclose(joint.marginal(scope), propagation.marginal(scope), atol=1e-13)
    assert joint.log_z == pytest.approx(engine.log_partition(factors), abs=1e-12)


def test_the_joint_is_held_whole_up_to_the_bound_only():
    bound = cmn_dense.DENSE_JOINT_CELLS
    path = nx.path_graph(13)
    at_bound = JunctionTreeEngine(path, dict.fromkeys(path, 2))  # 2**13 cells
    beyond = JunctionTreeEngine(path, {**dict.fromkeys(path, 2), 0: 3})  # 3 x 2**12 cells
    assert bound == 2**13 and held_whole(at_bound) and not held_whole(beyond)
    assert isinstance(propagation_for(at_bound, []), DenseJoint)
    assert isinstance(propagation_for(beyond, []), Propagation)


@pytest.mark.parametrize("contexts", [{}, {frozenset(("a", "b")): {frozenset({("c", 0)})}}], ids=["plain", "a context"])
def test_cyclical_projection_fits_alike_either_way(contexts, monkeypatch, brute_log_joint):
    graph = nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("c", "d"), ("d", "e"), ("e", "a")])
    cards = {"a": 2, "b": 2, "c": 2, "d": 3, "e": 2}
    nodes = list(graph.nodes())
    table = np.random.default_rng(3).integers(0, 30, size=[cards[v] for v in nodes]).astype(float)

    def counts(scope):
        summed = table.sum(axis=tuple(i for i, v in enumerate(nodes) if v not in scope))
        rest = [v for v in nodes if v in scope]
        return np.transpose(summed, [rest.index(v) for v in scope])

    whole = cyclical_projection(graph, cards, contexts, counts, 0.5, 1e-10, 500)
    monkeypatch.setattr(cmn_dense, "DENSE_JOINT_CELLS", 0)
    tree = cyclical_projection(graph, cards, contexts, counts, 0.5, 1e-10, 500)
    assert whole.converged and tree.converged
    # the potentials are fixed up to constants only (a line search near the optimum may take
    # another path within rounding), so the fitted distributions are compared, cell by cell
    fitted = [brute_log_joint(nodes, cards, list(fit.log_potentials.items())) - fit.log_z for fit in (whole, tree)]
    np.testing.assert_allclose(fitted[0], fitted[1], atol=1e-9)
    np.testing.assert_allclose(np.exp(fitted[0]).sum(), 1.0, atol=1e-12)


@pytest.mark.parametrize("shape", [(2, 3, 4), (3,), (2, 2, 2, 2), (3, 1, 2)])
def test_each_cells_marginal_cell_is_numpys_multi_index(shape):
    from pgmpy_sgm.models._dense_kernels import marginal_cells

    grid = np.indices(shape, sparse=True)
    for size in range(len(shape) + 1):
        for axes in itertools.permutations(range(len(shape)), size):
            dims = [shape[a] for a in axes]
            flat = np.ravel_multi_index([grid[a] for a in axes], dims) if axes else np.zeros((), int)
            expected = np.broadcast_to(flat, shape).ravel()
            np.testing.assert_array_equal(marginal_cells(np.array(shape), np.array(axes, dtype=np.int64)), expected)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_starting_potentials_far_apart_lose_no_cell(name, brute_log_joint):
    graph, cards = GRAPHS[name]
    nodes = list(graph.nodes())
    factors = [(scope, 700.0 * table) for scope, table in _factors(graph, cards, seed=21)]
    log_joint = brute_log_joint(nodes, cards, factors)
    joint = DenseJoint(JunctionTreeEngine(graph, cards), factors)
    top = log_joint.max()
    assert joint.log_z == pytest.approx(float(top + np.log(np.exp(log_joint - top).sum())), rel=1e-12)
    for keep in [list(e) for e in graph.edges()]:
        np.testing.assert_allclose(joint.marginal(keep), _brute_marginal(log_joint, nodes, keep), atol=1e-13)
