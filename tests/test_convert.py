"""Tests of the conversion of stratified graphical models to pgmpy Bayesian networks."""

from __future__ import annotations

import itertools
import warnings

import networkx as nx
import numpy as np
import pytest
from pgmpy.factors import factor_product
from pgmpy.factors.discrete import TabularCPD
from pgmpy.inference import BeliefPropagation, VariableElimination
from pgmpy.models import DiscreteMarkovNetwork, JunctionTree

from pgmpy_sgm.convert import (
    LINK_VARIABLE,
    network_free_parameters,
    to_bayesian_network,
    to_junction_tree,
    to_markov_network,
)
from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.datasets.synthetic import random_stratified_graph
from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models import StrataNotShownWarning, StratifiedGraph, StratifiedGraphicalModel
from pgmpy_sgm.structure_score import SGMScore

HEART_EDGES = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
               ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
               ("systolic_bp", "lipoprotein_ratio")]
COMPETING_EDGES = [("a", "b"), ("a", "v"), ("b", "v"), ("v", "c"), ("v", "d"), ("c", "d")]
COMPETING_STRATA = {("a", "v"): [{"b": 0}], ("b", "v"): [{"a": 0}], ("c", "v"): [{"d": 0}], ("d", "v"): [{"c": 0}]}


def bn_brute_joint(bn, model) -> np.ndarray:
    """The network's joint (model node order) as explicit products of CPD entries."""
    nodes = list(model.nodes())
    card = {v: len(model.states(v)) for v in nodes}
    cpds = bn.get_cpds()
    out = np.zeros([card[v] for v in nodes])
    for combo in itertools.product(*[range(card[v]) for v in nodes]):
        x = dict(zip(nodes, combo, strict=True))
        p = 1.0
        for cpd in cpds:
            values = cpd.get_values()
            column = 0
            for w in cpd.variables[1:]:
                column = column * card[w] + x[w]
            p *= float(values[x[cpd.variable], column])
        out[combo] = p
    return out


def cases():
    found = 0
    for seed in range(200):  # 14 labelled graphs of 3..8 variables, binary or 3-state
        n = 3 + found % 6
        sg = random_stratified_graph(n, seed=100 + seed, max_states=2 + found % 2, edge_prob=0.8, label_prob=1.0)
        if sg.n_labels() and found < 14:
            found += 1
            yield pytest.param(sg, seed, id=f"r{seed}-{n}vars-{sg.n_labels()}labels")
    yield pytest.param(StratifiedGraph(COMPETING_EDGES, strata=COMPETING_STRATA), 0, id="competing")


@pytest.mark.parametrize(("sg", "seed"), list(cases()))
def test_network_is_exact_and_answers_queries(sg, seed, brute_sgm_joint):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrataNotShownWarning)
        model = StratifiedGraphicalModel.random(sg, seed=seed)
        bn = to_bayesian_network(model)
    assert bn.check_model()
    nodes = list(model.nodes())
    assert list(bn.nodes()) == nodes
    expected = brute_sgm_joint(model)
    assert abs(expected.sum() - 1) < 1e-12
    np.testing.assert_allclose(bn_brute_joint(bn, model), expected, rtol=0, atol=1e-12)
    # free parameters: groups counted once
    assert network_free_parameters(bn) == model.n_free_parameters()
    if not model.strata_not_shown:
        assert network_free_parameters(bn) == sg.n_free_parameters()
    # every shown center has a TreeCPD on C \ {center} with the SG's groups
    labels = {cl.clique: cl for cl in sg.clique_labels()}
    for f in model.clique_factors:
        if f.center is not None:
            cpd = bn.get_cpds(f.center)
            assert isinstance(cpd, TreeCPD) and set(cpd.variables[1:]) == set(f.clique) - {f.center}
            if labels[f.clique].center == f.center:
                assert tuple(cpd.groups) == labels[f.clique].group_ids
    for cpd in bn.get_cpds():
        for v in cpd.variables:
            assert tuple(cpd.state_names[v]) == model.states(v)
    # inference: a marginal and a conditional query against brute force
    rng = np.random.default_rng(seed)
    infer = VariableElimination(bn)
    target = nodes[int(rng.integers(len(nodes)))]
    axis = nodes.index(target)
    marginal = expected.sum(axis=tuple(i for i in range(len(nodes)) if i != axis))
    q = infer.query([target], show_progress=False)
    np.testing.assert_allclose(q.values, marginal, atol=1e-12)
    others = [v for v in nodes if v != target]
    if others:
        given = list(rng.choice(others, size=min(2, len(others)), replace=False))
        states = {v: model.states(v)[int(rng.integers(len(model.states(v))))] for v in given}
        index = [slice(None)] * len(nodes)
        for v in given:
            index[nodes.index(v)] = model.states(v).index(states[v])
        sub = expected[tuple(index)]
        keep = [v for v in nodes if v not in given]
        conditional = sub.sum(axis=tuple(i for i, v in enumerate(keep) if v != target))
        conditional = conditional / conditional.sum()
        q = infer.query([target], evidence=states, show_progress=False)
        np.testing.assert_allclose(q.values, conditional, atol=1e-12)


def test_competing_centers_warn_on_conversion():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrataNotShownWarning)
        model = StratifiedGraphicalModel.random(StratifiedGraph(COMPETING_EDGES, strata=COMPETING_STRATA), seed=3)
    with pytest.warns(StrataNotShownWarning, match=r"\('v', 'c'\)"):
        bn = model.to_bayesian_network()
    assert sum(isinstance(c, TreeCPD) for c in bn.get_cpds()) == 1


def test_heart_network_shows_the_two_groups_of_systolic_bp():
    data = load_heart_disease()
    sg = SGMScore(data).optimal_strata(HEART_EDGES)
    model = StratifiedGraphicalModel(sg).fit(data)
    bn = model.to_bayesian_network()
    cpd = bn.get_cpds("systolic_bp")
    assert isinstance(cpd, TreeCPD)
    assert set(cpd.variables[1:]) == {"smoking", "lipoprotein_ratio"}
    alone = cpd.group_of({"smoking": 1, "lipoprotein_ratio": 0})
    rest = {cpd.group_of({"smoking": s, "lipoprotein_ratio": r}) for s, r in [(0, 0), (0, 1), (1, 1)]}
    assert cpd.n_groups == 2 and rest == {1 - alone}
    text = cpd.to_text()
    assert text.splitlines()[0] == "P(systolic_bp | smoking, lipoprotein_ratio)"
    assert "smoking = 0 -> leaf A" in text
    assert "    lipoprotein_ratio = 0 -> leaf B" in text
    assert "    lipoprotein_ratio = 1 -> leaf A (tied)" in text
    assert "B [1 configuration]: (1, 0)" in text
    assert "A [3 configurations, 2 tied leaves]: (0, 0), (0, 1), (1, 1)" in text
    # free parameters: 12 with strata, 14 for the underlying graph
    assert network_free_parameters(bn) == 12 == model.n_free_parameters()
    assert model.n_free_parameters(strata=False) == 14
    others = [c for c in bn.get_cpds() if c.variable != "systolic_bp"]
    assert all(type(c) is TabularCPD for c in others)
    np.testing.assert_allclose(VariableElimination(bn).query(["systolic_bp"], show_progress=False).values,
                               data["systolic_bp"].value_counts(normalize=True).sort_index().to_numpy(), atol=0.01)


def test_conversion_needs_parameters():
    with pytest.raises(ValueError, match="no parameters"):
        to_bayesian_network(StratifiedGraphicalModel([("a", "b")]))


def _junction_cases():
    yield pytest.param(StratifiedGraph([("a", "b")]), 0, id="one-edge")
    yield pytest.param(StratifiedGraph(nodes=["a", "b", "c"]), 1, id="no-edges")
    yield pytest.param(StratifiedGraph([("a", "b"), ("c", "d")], nodes=["e", "a", "b", "c", "d"]), 2, id="three-parts")
    yield pytest.param(StratifiedGraph(COMPETING_EDGES, strata=COMPETING_STRATA), 3, id="competing")
    for seed in range(6):
        sg = random_stratified_graph(4 + seed % 3, seed=300 + seed, max_states=3, edge_prob=0.5)
        yield pytest.param(sg, seed, id=f"r{seed}-{len(sg)}vars-{nx.number_connected_components(sg)}parts")


def _aligned(factor, variables) -> np.ndarray:
    return np.transpose(factor.values, [factor.variables.index(v) for v in variables])


def _brute_marginal(joint: np.ndarray, nodes: list, variables: list, evidence: dict) -> np.ndarray:
    index = tuple(evidence.get(v, slice(None)) for v in nodes)
    kept = [v for v in nodes if v not in evidence]
    sub = joint[index]
    table = sub.sum(axis=tuple(i for i, v in enumerate(kept) if v not in variables))
    order = [v for v in kept if v in variables]
    table = np.transpose(table, [order.index(v) for v in variables])
    return table / table.sum()


@pytest.mark.parametrize(("sg", "seed"), list(_junction_cases()))
def test_junction_tree_belief_propagation_equals_variable_elimination(sg, seed, brute_sgm_joint):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrataNotShownWarning)
        model = StratifiedGraphicalModel.random(sg, seed=seed)
        bn = to_bayesian_network(model)
    tree = to_junction_tree(model)
    assert isinstance(tree, JunctionTree) and tree.check_model() and nx.is_tree(tree)
    joint = brute_sgm_joint(model)
    nodes = list(model.nodes())
    bp, ve = BeliefPropagation(tree), VariableElimination(bn)
    rng = np.random.default_rng(seed)
    worst = 0.0
    for size in (1, 2):
        for variables in itertools.combinations(nodes, size):
            others = [v for v in nodes if v not in variables]
            given = list(rng.choice(others, size=min(1, len(others)), replace=False)) if seed % 2 else []
            evidence = {v: model.states(v)[int(rng.integers(len(model.states(v))))] for v in given}
            a = bp.query(list(variables), evidence=evidence or None, show_progress=False)
            b = ve.query(list(variables), evidence=evidence or None, show_progress=False)
            codes = {v: model.states(v).index(s) for v, s in evidence.items()}
            expected = _brute_marginal(joint, nodes, list(variables), codes)
            worst = max(worst, np.abs(_aligned(a, variables) - _aligned(b, variables)).max())
            np.testing.assert_allclose(_aligned(a, variables), expected, rtol=0, atol=1e-10)
    assert worst <= 1e-10


def test_heart_junction_tree_answers_what_belief_propagation_on_the_network_cannot(heart_rows):
    model = StratifiedGraphicalModel(SGMScore(heart_rows).optimal_strata(HEART_EDGES), nodes=heart_rows.columns)
    model.fit(heart_rows)
    bn = model.to_bayesian_network()
    with pytest.raises(ValueError, match="sepset"):  # pgmpy's limitation: family_history is isolated
        BeliefPropagation(bn).query(["family_history"], show_progress=False)
    bp, ve = BeliefPropagation(model.to_junction_tree()), VariableElimination(bn)
    nodes = list(model.nodes())
    for pair in itertools.combinations(nodes, 2):
        for evidence in (None, {"smoking": 1}, {"family_history": 0}):
            if evidence and set(evidence) & set(pair):
                continue
            a = bp.query(list(pair), evidence=evidence, show_progress=False)
            b = ve.query(list(pair), evidence=evidence, show_progress=False)
            np.testing.assert_allclose(_aligned(a, pair), _aligned(b, pair), rtol=0, atol=1e-10)


def test_junction_tree_link_variable_avoids_a_clash():
    model = StratifiedGraphicalModel.random(StratifiedGraph([(LINK_VARIABLE, "b")], nodes=[LINK_VARIABLE, "b", "c"]))
    tree = to_junction_tree(model)
    assert (LINK_VARIABLE + "_") in {v for clique in tree.nodes() for v in clique}


@pytest.mark.parametrize(("sg", "seed"), list(_junction_cases()))
def test_markov_network_has_the_clique_factors_and_the_joint(sg, seed, brute_sgm_joint):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrataNotShownWarning)
        model = StratifiedGraphicalModel.random(sg, seed=seed)
    network = to_markov_network(model)
    assert isinstance(network, DiscreteMarkovNetwork) and network.check_model()
    assert list(network.nodes()) == list(model.nodes())
    assert {frozenset(e) for e in network.edges()} == {frozenset(e) for e in model.edges()}
    assert sorted(map(sorted, (f.variables for f in network.get_factors()))) == sorted(map(sorted, sg.cliques))
    nodes = list(model.nodes())
    product = factor_product(*network.get_factors())
    np.testing.assert_allclose(_aligned(product, nodes), brute_sgm_joint(model), rtol=0, atol=1e-12)
    assert abs(network.get_partition_function() - 1.0) < 1e-12


def test_markov_network_and_junction_tree_need_parameters():
    for convert in (to_markov_network, to_junction_tree):
        with pytest.raises(ValueError, match="no parameters"):
            convert(StratifiedGraphicalModel([("a", "b")]))


def test_conversion_does_not_import_the_models():
    """The models use the conversion, not the other way round: no import of pgmpy_sgm.models anywhere in it."""
    import ast
    import inspect

    import pgmpy_sgm.convert as convert

    tree = ast.parse(inspect.getsource(convert))
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert not [m for m in imported if m and m.startswith("pgmpy_sgm.models")]
    assert StrataNotShownWarning is convert.StrataNotShownWarning
