"""pgmpy's own DiscreteBayesianNetwork workflow on the package's labelled networks.

Two networks: a LabeledBayesianNetwork learned by LDAGSearch from data simulated from a
planted labelled DAG, and the network of a stratified graphical model fitted on the heart
data (``StratifiedGraphicalModel(...).fit(...).to_bayesian_network()``). Each goes through
pgmpy's calls as a pgmpy user writes them: fit with every estimator, sample_weight,
fit_update, inference, simulate, copy, do, predict, save/load and BIF.
Every answer is checked against something computed another way (repeated rows, the other
inference engine, the stratified graphical model's own maximum likelihood, ...).
"""

import logging

import numpy as np
import pandas as pd
import pytest
from pgmpy.factors.discrete import TabularCPD
from pgmpy.inference import BeliefPropagation, VariableElimination
from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE
from pgmpy.readwrite import BIFReader, BIFWriter

from pgmpy_sgm import StratifiedGraphicalModel, load_heart_disease
from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models import LabeledBayesianNetwork

HEART_EDGES = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
               ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
               ("systolic_bp", "lipoprotein_ratio")]
HEART_STRATA = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
                ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}

ESTIMATORS = [
    DiscreteMLE(),
    DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=5),
    DiscreteBayesianEstimator(prior_type="K2"),
    DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=2),
]


def _planted_data() -> pd.DataFrame:
    truth = LabeledBayesianNetwork([("a", "y"), ("b", "y"), ("y", "z")], state_names={v: [0, 1] for v in "abyz"})
    truth.add_cpds(
        TabularCPD("a", 2, [[0.5], [0.5]]),
        TabularCPD("b", 2, [[0.4], [0.6]]),
        TreeCPD("y", 2, ["a", "b"], [2, 2], [0, 1, 0, 2], [[0.9, 0.3, 0.1], [0.1, 0.7, 0.9]]),  # y ⟂ a | b = 0
        TabularCPD("z", 2, [[0.8, 0.25], [0.2, 0.75]], ["y"], [2]),
    )
    data = truth.simulate(3000, seed=1, show_progress=False)
    return pd.DataFrame({v: data[v].astype(int) for v in "abyz"})


@pytest.fixture(scope="module", params=["learned_ldag", "converted_sgm"])
def case(request):
    """(network, data, labels) with the network fitted on the data."""
    if request.param == "learned_ldag":
        data = _planted_data()
        network = LDAGSearch(n_restarts=1, seed=0).fit(data).model_
        assert network.labels() == {("a", "y"): [{"b": 0}]}  # the planted label is found
    else:  # family_history, isolated, is left out: pgmpy's BeliefPropagation needs one connected network
        data = load_heart_disease().drop(columns=["family_history"])
        model = StratifiedGraphicalModel(HEART_EDGES, strata=HEART_STRATA, nodes=data.columns).fit(data)
        network = model.to_bayesian_network()
    assert isinstance(network, LabeledBayesianNetwork) and network.labels()
    return network, data, network.labels()


def _assert_ties_kept(network, labels):
    """Labels unchanged and, at every labelled node, the CPD columns of one class equal."""
    assert network.labels() == labels
    network.check_model()
    for node in network.labelled_nodes():
        parents, ids = network.get_classes(node)
        cpd = network.get_cpds(node)
        assert isinstance(cpd, TreeCPD) and cpd.n_groups == int(ids.max()) + 1
        cpd = cpd.copy()
        cpd.reorder_parents(list(parents))
        values = cpd.get_values()
        for g in np.unique(ids):
            members = values[:, ids == g]
            np.testing.assert_array_equal(members, np.repeat(members[:, :1], members.shape[1], axis=1))


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__ + str(getattr(e, "prior_type", "")))
def test_fit_with_every_pgmpy_estimator_keeps_the_ties(case, estimator):
    network, data, labels = case
    fitted = network.copy().fit(data, estimator=estimator)
    _assert_ties_kept(fitted, labels)


def test_maximum_likelihood_of_the_converted_network_is_the_models():
    """Per-node pooled counts (the network's fit) against clique tables (the model's fit)."""
    data = load_heart_disease().drop(columns=["family_history"])
    network = StratifiedGraphicalModel(HEART_EDGES, strata=HEART_STRATA, nodes=data.columns).fit(data)
    refit = network.to_bayesian_network().fit(data, estimator=DiscreteMLE())
    model = StratifiedGraphicalModel(HEART_EDGES, strata=HEART_STRATA, nodes=data.columns).fit(data, estimator="mle")
    joint = model.joint()
    for _, row in data.drop_duplicates().head(10).iterrows():
        p_network = np.prod([cpd.to_factor().get_value(**{v: row[v] for v in cpd.variables})
                             for cpd in refit.get_cpds()])
        assert p_network == pytest.approx(float(joint.get_value(**row.to_dict())), rel=1e-10)


def test_sample_weight_equals_repeated_rows(case):
    network, data, labels = case
    head = data.head(400).reset_index(drop=True)
    weights = np.random.default_rng(0).integers(1, 4, len(head))
    repeated = head.loc[head.index.repeat(weights)].reset_index(drop=True)
    estimator = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=5)
    by_weight = network.copy().fit(head, estimator=estimator, sample_weight=weights)
    by_rows = network.copy().fit(repeated, estimator=estimator)
    _assert_ties_kept(by_weight, labels)
    for node in network.nodes():
        np.testing.assert_allclose(by_weight.get_cpds(node).get_values(), by_rows.get_cpds(node).get_values())


def test_fit_update_keeps_the_ties(case):
    network, data, labels = case
    updated = network.copy()
    before = updated.get_cpds(updated.labelled_nodes()[0]).get_values().copy()
    assert updated.fit_update(data.tail(300), n_prev_samples=1000) is None  # in place, as in pgmpy
    _assert_ties_kept(updated, labels)
    assert not np.array_equal(before, updated.get_cpds(updated.labelled_nodes()[0]).get_values())


def test_inference_agrees_between_pgmpys_engines_and_shows_the_labels(case):
    network, _, labels = case
    (parent, node), contexts = next(iter(labels.items()))
    context = contexts[0]
    other_states = [s for s in network.label_states(parent)]
    answers = []
    for state in other_states:
        evidence = {**context, parent: state}
        ve = VariableElimination(network).query([node], evidence=evidence, show_progress=False)
        bp = BeliefPropagation(network).query([node], evidence=evidence, show_progress=False)
        np.testing.assert_allclose(ve.values, bp.values, atol=1e-12)
        answers.append(ve.values)
    for values in answers[1:]:  # the label: node does not depend on parent in the context
        np.testing.assert_allclose(values, answers[0], atol=1e-12)


def test_simulate_is_seeded_and_follows_the_network(case):
    network, data, _ = case
    a = network.simulate(2000, seed=3, show_progress=False)
    b = network.simulate(2000, seed=3, show_progress=False)
    pd.testing.assert_frame_equal(a, b)
    assert set(a.columns) == set(data.columns) and len(a) == 2000
    root = next(v for v in network.nodes() if not network.get_parents(v))
    p = network.get_cpds(root).get_values()[:, 0]
    states = network.get_cpds(root).state_names[root]
    frequency = (a[root].astype(str) == str(states[0])).mean()
    assert abs(frequency - p[0]) < 4 * np.sqrt(p[0] * (1 - p[0]) / 2000)


def test_copy_is_independent(case):
    network, data, labels = case
    twin = network.copy()
    assert isinstance(twin, LabeledBayesianNetwork) and twin.labels() == labels
    for node in network.nodes():
        assert twin.get_cpds(node).to_factor() == network.get_cpds(node).to_factor()
    twin.fit(data, estimator=DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=500))
    node = network.labelled_nodes()[0]
    assert not twin.get_cpds(node).to_factor() == network.get_cpds(node).to_factor()
    assert network.labels() == labels


def test_do_cuts_the_edges_into_the_labelled_node(case):
    network, _, _ = case
    node = network.labelled_nodes()[0]
    intervened = network.do([node])
    assert isinstance(intervened, LabeledBayesianNetwork) and not intervened.get_parents(node)
    assert node not in intervened.labelled_nodes()  # its labels were about the cut edges
    intervened.check_model()
    for parent in network.get_parents(node):
        q = VariableElimination(intervened).query([node], evidence={parent: network.label_states(parent)[0]},
                                                  show_progress=False)
        assert q.values.sum() == pytest.approx(1.0)


def test_predict_gives_the_most_probable_state(case):
    network, data, _ = case
    node = network.labelled_nodes()[0]
    rows = data.drop(columns=[node]).drop_duplicates().head(4).reset_index(drop=True)
    logging.getLogger("pgmpy").disabled = True
    try:
        predicted = network.predict(rows, n_jobs=1)
    finally:
        logging.getLogger("pgmpy").disabled = False
    for i, row in rows.iterrows():
        query = VariableElimination(network).query([node], evidence=row.to_dict(), show_progress=False)
        best = query.state_names[node][int(np.argmax(query.values))]
        assert str(predicted.loc[i, node]) == str(best)


def test_save_load_json_keeps_labels_bif_keeps_the_probabilities(case, tmp_path):
    network, _, labels = case
    network.save(str(tmp_path / "net.json"))
    back = LabeledBayesianNetwork.load(str(tmp_path / "net.json"))
    assert back.labels() == labels
    for node in network.nodes():
        assert back.get_cpds(node).to_factor() == network.get_cpds(node).to_factor()
    network.save(str(tmp_path / "net.bif"))
    plain = LabeledBayesianNetwork.load(str(tmp_path / "net.bif"), state_name_type=int)
    assert plain.labels() == {}  # BIF holds tables, not labels
    for node in network.nodes():
        np.testing.assert_allclose(
            plain.get_cpds(node).to_factor().get_value(**{v: 0 for v in network.get_cpds(node).variables}),
            network.get_cpds(node).to_factor().get_value(**{v: 0 for v in network.get_cpds(node).variables}),
        )


def test_bif_writer_and_reader(case, tmp_path):
    network, _, _ = case
    path = str(tmp_path / "net.bif")
    BIFWriter(network).write(path)
    read = BIFReader(path).get_model(state_name_type=int)
    assert sorted(read.edges()) == sorted(network.edges())
    node = network.labelled_nodes()[0]
    cpd = read.get_cpds(node)
    cpd.reorder_parents(list(network.get_cpds(node).variables[1:]))
    np.testing.assert_allclose(cpd.get_values(), network.get_cpds(node).get_values())
