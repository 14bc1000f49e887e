"""LabeledBayesianNetwork: labels, TreeCPD fitting, pgmpy tools, JSON/BIF round trips."""

import math

import numpy as np
import pandas as pd
import pytest
from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader, BIFWriter, XMLBIFReader, XMLBIFWriter

from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.readwrite import ldag_from_json_dict, ldag_to_json_dict, read_ldag_json, write_ldag_json

STATES = {"a": [0, 1], "b": [0, 1, 2], "y": [0, 1]}


def _model():
    m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names=STATES)
    # configs (a, b) in C order: (0,0) (0,1) (0,2) (1,0) (1,1) (1,2); y ignores a when b = 0 or b = 2
    m.set_classes("y", ("a", "b"), [0, 1, 2, 0, 3, 2])
    return m


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, n), rng.integers(0, 3, n)
    p = np.where(b == 0, 0.2, np.where(b == 2, 0.7, np.where(a == 1, 0.9, 0.1)))
    return pd.DataFrame({"a": a, "b": b, "y": (rng.random(n) < p).astype(int)})


def test_labels_and_statements():
    m = _model()
    assert m.labels() == {("a", "y"): [{"b": 0}, {"b": 2}]}
    assert [str(s) for s in m.independencies()] == ["y ⟂ a | b=0", "y ⟂ a | b=2"]
    assert m.n_labels() == 2
    assert m.n_free_parameters() == 1 + 2 + 4  # a, b, and four classes of y


def test_fit_gives_tied_treecpds_with_bdeu_posterior_means():
    df = _data()
    m = _model().fit(df, equivalent_sample_size=2.0)
    cpd = m.get_cpds("y")
    assert isinstance(cpd, TreeCPD) and cpd.n_groups == 4
    # independent check of class 0 = configs (0,0) and (1,0): alpha per cell 2 / (6 * 2)
    sel = df["b"] == 0
    n1 = int(df.loc[sel, "y"].sum())
    n = int(sel.sum())
    expected = (n1 + 2 * 2 / 12) / (n + 2 * 2 * 2 / 12)
    values = cpd.get_values()
    assert values[1, 0] == pytest.approx(expected) and values[1, 3] == pytest.approx(expected)
    assert m.get_cpds("a").get_values()[:, 0].sum() == pytest.approx(1.0)


def test_pgmpy_inference_and_simulation_accept_the_model():
    m = _model().fit(_data())
    q = VariableElimination(m).query(["y"], evidence={"b": 0}, show_progress=False)
    assert q.values.sum() == pytest.approx(1.0)
    # P(y | a, b=0) does not depend on a: the label
    p0 = VariableElimination(m).query(["y"], evidence={"a": 0, "b": 0}, show_progress=False).values
    p1 = VariableElimination(m).query(["y"], evidence={"a": 1, "b": 0}, show_progress=False).values
    np.testing.assert_allclose(p0, p1)
    sample = m.simulate(50, seed=0, show_progress=False)
    assert set(sample.columns) == {"a", "b", "y"} and len(sample) == 50


def test_bif_and_xmlbif_writers(tmp_path):
    m = _model().fit(_data())
    BIFWriter(m).write(str(tmp_path / "m.bif"))
    back = BIFReader(str(tmp_path / "m.bif")).get_model(state_name_type=int)
    np.testing.assert_allclose(back.get_cpds("y").get_values(), m.get_cpds("y").get_values())
    XMLBIFWriter(m).write(str(tmp_path / "m.xml"))
    assert sorted(XMLBIFReader(str(tmp_path / "m.xml")).get_model().edges()) == [("a", "y"), ("b", "y")]


def test_json_round_trip_unfitted_and_fitted(tmp_path):
    m = _model()
    assert ldag_from_json_dict(ldag_to_json_dict(m)).labels() == m.labels()
    m.fit(_data())
    path = tmp_path / "m.json"
    write_ldag_json(m, path)
    back = read_ldag_json(path)
    assert back.labels() == m.labels()
    for v in m.nodes():
        np.testing.assert_array_equal(back.get_cpds(v).get_values(), m.get_cpds(v).get_values())
    with pytest.raises(FileExistsError):
        write_ldag_json(m, path)
    write_ldag_json(m, path, overwrite=True)


def test_json_bad_documents():
    d = ldag_to_json_dict(_model())
    with pytest.raises(ValueError, match="type"):
        ldag_from_json_dict({**d, "type": "StratifiedGraph"})
    with pytest.raises(ValueError, match="unknown node 'z'"):
        ldag_from_json_dict({**d, "edges": [["z", "y"]]})
    bad = {**d, "classes": [{"node": "y", "parents": ["a", "b"], "group_ids": [0, 0, 0, 0, 0, 0]}]}
    with pytest.raises(ValueError, match="not regular"):
        ldag_from_json_dict(bad)


def test_bad_classes():
    m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names=STATES)
    with pytest.raises(ValueError, match="parents"):
        m.set_classes("y", ("a",), [0, 1])
    with pytest.raises(ValueError, match="6 integer class ids"):
        m.set_classes("y", ("a", "b"), [0, 1, 2])
    with pytest.raises(ValueError, match="not made by labels"):
        m.set_classes("y", ("a", "b"), [0, 1, 2, 3, 4, 0])  # (0,0) with (1,2): no line joins them
    with pytest.raises(ValueError, match="'q'"):
        m.set_classes("q", (), [0])


def test_classes_dropped_when_parents_change():
    m = _model()
    m.add_edge("a", "b")
    assert m.labels() == {("a", "y"): [{"b": 0}, {"b": 2}]}
    m.remove_edge("a", "y")
    assert m.labels() == {}
    assert m.get_classes("y")[1].tolist() == [0, 1, 2]


def test_fit_missing_column():
    with pytest.raises(ValueError, match=r"\['y'\]"):
        _model().fit(_data().drop(columns="y"))


def test_copy_keeps_labels_and_cpds():
    m = _model().fit(_data())
    c = m.copy()
    assert isinstance(c, LabeledBayesianNetwork) and c.labels() == m.labels()
    assert math.isclose(float(c.get_cpds("y").get_values()[0, 0]), float(m.get_cpds("y").get_values()[0, 0]))


def test_single_state_parent_carries_no_label():
    m = LabeledBayesianNetwork(
        [("a", "y"), ("k", "y"), ("b", "y")], state_names={"a": [0, 1], "k": ["only"], "b": [0, 1], "y": [0, 1]}
    )
    m.set_classes("y", ("a", "k", "b"), [0, 1, 0, 2])
    assert m.labels() == {("a", "y"): [{"b": 0}]}
    m.set_classes("y", ("a", "k", "b"), [0, 1, 2, 3])  # unlabelled: still valid
    assert m.labels() == {}


def test_pgmpy_metrics_accept_the_model():
    from pgmpy.base import DAG
    from pgmpy.metrics import SHD

    m = _model().fit(_data())
    assert SHD().evaluate(true_causal_graph=DAG([("a", "y"), ("b", "y")]), est_causal_graph=m) == 0


# -- incomplete data ------------------------------------------------------------------------
def _labelled_network_and_data(rate, seed, n=3000):
    """y depends on a and b except that y ⟂ a | b=0 (the classes {(0,0),(1,0)}, {(0,1)}, {(1,1)})."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    p_y = np.array([0.2, 0.7, 0.2, 0.9])[2 * a + b]
    frame = pd.DataFrame({"a": a, "b": b, "y": (rng.random(n) < p_y).astype(int)})
    network = LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
                                     state_names={"a": [0, 1], "b": [0, 1], "y": [0, 1]})  # fmt: skip
    return network, frame, frame.astype(object).mask(rng.random(frame.shape) < rate)


@pytest.mark.parametrize("rate", [0.1, 0.4, 0.8])
def test_em_keeps_the_classes_tied_and_never_lowers_the_observed_likelihood(rate):
    from pgmpy_sgm.core.missing import EMOptions

    network, _, masked = _labelled_network_and_data(rate, seed=1)
    network.fit(masked, missing=EMOptions(max_iter=6, tol=0.0))
    exact = network.em_history_[network.em_history_["e_step"] == "exact"]
    # the first gain is NaN from the tree start (not one of the network's fits), a number from the complete cases
    assert (exact["gain"].drop(index=1, errors="ignore") >= -1e-9).all()
    assert network.em_history_["e_step"].iloc[-1] == "exact"
    assert np.isnan(network.em_history_["gain"].iloc[0]) == (network.em_history_.attrs["start"] != "complete cases")
    values = network.get_cpds("y").get_values()
    np.testing.assert_allclose(values[:, 0], values[:, 2])  # (a, b) = (0, 0) and (1, 0) share one distribution
    # brute force: the observed-data log-likelihood from the fitted CPDs, row by row
    cpds = {v: network.get_cpds(v) for v in ("a", "b", "y")}
    total = 0.0
    for row in masked.itertuples(index=False):
        options = [[x] if x == x and x is not None else [0, 1] for x in row]
        p = sum(cpds["a"].get_values()[a, 0] * cpds["b"].get_values()[b, 0] * values[y, 2 * a + b]
                for a in options[0] for b in options[1] for y in options[2])  # fmt: skip
        total += np.log(p)
    assert network.em_history_["log_likelihood"].iloc[-1] == pytest.approx(total, abs=1e-6)


def test_em_without_missing_cells_is_the_plain_fit():
    network, frame, _ = _labelled_network_and_data(0.0, seed=2)
    plain = network.copy().fit(frame).get_cpds("y").get_values()
    em = network.copy().fit(frame, missing="em")
    np.testing.assert_array_equal(plain, em.get_cpds("y").get_values())
    assert not hasattr(em, "em_history_")


def test_log_likelihood_of_rows_with_gaps_sums_out_the_missing_cells():
    network, frame, masked = _labelled_network_and_data(0.3, seed=3, n=400)
    network.fit(frame)
    cpds = {v: network.get_cpds(v).get_values() for v in ("a", "b", "y")}
    got = network.log_likelihood(masked.head(30), per_row=True)
    for value, row in zip(got, masked.head(30).itertuples(index=False), strict=True):
        options = [[x] if x == x and x is not None else [0, 1] for x in row]
        p = sum(cpds["a"][a, 0] * cpds["b"][b, 0] * cpds["y"][y, 2 * a + b]
                for a in options[0] for b in options[1] for y in options[2])  # fmt: skip
        assert value == pytest.approx(np.log(p), abs=1e-9)
    assert network.log_likelihood(frame) == pytest.approx(network.log_likelihood(frame, per_row=True).sum())


def test_edge_views_of_networkx_graphs_are_edges():
    """pgmpy's habit: a model built from another graph's ``edges()`` view (a Mapping in networkx)."""
    import networkx as nx

    from pgmpy_sgm import StratifiedGraph

    dag = nx.DiGraph([("a", "y"), ("b", "y")])
    assert sorted(LabeledBayesianNetwork(dag.edges()).edges()) == [("a", "y"), ("b", "y")]
    assert sorted(StratifiedGraph(nx.Graph([("a", "b")]).edges()).edges()) == [("a", "b")]


# -- missing="state" ---------------------------------------------------------------------------
def _gappy_frame():
    import pandas as pd

    return pd.DataFrame({"a": [0, 0, 1, 1, None, 1, None, 0], "b": [0, 1, 0, 1, 1, 0, 0, 1],
                         "y": [0, 1, 0, 0, 1, 1, 0, 1]})  # fmt: skip


def _declared():
    return {"a": [0, 1], "b": [0, 1], "y": [0, 1]}


def test_missing_state_with_declared_states_adds_the_state_and_counts_it():
    data = _gappy_frame()
    network = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names=_declared()).fit(data, missing="state")
    cpd = network.get_cpds("a")
    assert cpd.state_names["a"] == ["0", "1", "missing"]
    seen = data["a"].map(lambda x: "missing" if x != x else str(int(x)))
    expected = [float((seen == s).mean()) for s in ["0", "1", "missing"]]  # maximum likelihood by counting
    np.testing.assert_allclose(cpd.get_values().ravel(), expected)
    assert network.get_cpds("b").state_names["b"] == [0, 1]  # a column without gaps keeps its states


def test_missing_state_keeps_a_label_over_a_parent_with_gaps():
    data = _gappy_frame()
    network = LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
                                     state_names=_declared())  # fmt: skip
    network.fit(data, missing="state")
    parents, ids = network.get_classes("y")
    assert parents == ("a", "b") and ids.tolist() == [0, 1, 0, 2, 0, 3]  # (missing, b=0) joins the label's class
    values = network.get_cpds("y").get_values()
    at_b0 = data[data["b"] == 0]
    share = float((at_b0["y"] == 0).mean())  # the class pools every row with b = 0, a missing or not
    np.testing.assert_allclose(values[0, [0, 2, 4]], share)
    only = data[data["a"].isna() & (data["b"] == 1)]
    assert values[0, 5] == float((only["y"] == 0).mean())  # (missing, b=1): a class of its own
    assert [c.context for c in network.independencies()] == [(("b", 0),)]


def test_missing_state_restores_states_and_classes_when_the_fit_fails():
    data = _gappy_frame()
    data.loc[0, "b"] = 7  # not a declared state of b: the fit must fail
    network = LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
                                     state_names=_declared())  # fmt: skip
    with pytest.raises(ValueError, match="'b'"):
        network.fit(data, missing="state")
    assert network.label_states("a") == [0, 1]
    assert network.get_classes("y")[1].tolist() == [0, 1, 0, 2]
