"""Tests of JSON save/load and BIF/XMLBIF export."""

from __future__ import annotations

import copy
import json
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pgmpy.readwrite import BIFReader, XMLBIFReader

from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.datasets.synthetic import random_stratified_graph
from pgmpy_sgm.models import StrataNotShownWarning, StratifiedGraph, StratifiedGraphicalModel
from pgmpy_sgm.readwrite import from_json_dict, read_json, to_json_dict, write_bif, write_json, write_xmlbif

HEART_EDGES = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
               ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
               ("systolic_bp", "lipoprotein_ratio")]
HEART_STRATA = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
                ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}


def heart_model():
    data = load_heart_disease()
    return StratifiedGraphicalModel(HEART_EDGES, strata=HEART_STRATA, nodes=data.columns).fit(data)


def assert_same_graph(a, b):
    assert type(a) is type(b)
    assert list(a.nodes()) == list(b.nodes())
    assert {frozenset(e) for e in a.edges()} == {frozenset(e) for e in b.edges()}
    assert a.strata == b.strata
    assert a.graph["state_names"] == b.graph["state_names"]
    for v in a.nodes():
        assert [(type(s), s) for s in a.states(v)] == [(type(s), s) for s in b.states(v)]


def assert_same_parameters(a, b):
    assert len(a.clique_factors) == len(b.clique_factors)
    for fa, fb in zip(a.clique_factors, b.clique_factors, strict=True):
        assert fa.same_structure(fb)
        assert fa.table.tobytes() == fb.table.tobytes()  # bit for bit
        if fa.center is not None:
            assert fa.group_values.tobytes() == fb.group_values.tobytes()


KINDS = st.lists(st.sampled_from(["int", "str", "bool", "float"]), min_size=1, max_size=4, unique=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 7), states=st.integers(2, 3), kinds=KINDS,
       fitted=st.booleans())
def test_json_round_trip_is_lossless(tmp_path, seed, n, states, kinds, fitted):
    sg = random_stratified_graph(n, seed=seed, max_states=states, edge_prob=0.8, label_prob=0.8,
                                 state_kinds=tuple(kinds))
    if fitted:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", StrataNotShownWarning)
            obj = StratifiedGraphicalModel.random(sg, seed=seed)
    else:
        obj = sg
    path = tmp_path / f"model-{seed}-{n}.json"
    write_json(obj, path, overwrite=True)
    back = read_json(path)
    assert_same_graph(obj, back)
    assert back == obj
    if fitted:
        assert_same_parameters(obj, back)
        assert back.has_parameters and back.check_model()
    # the dictionary form survives a JSON text round trip unchanged too
    assert json.loads(json.dumps(to_json_dict(obj))) == to_json_dict(obj)


def test_fitted_heart_model_round_trip(tmp_path):
    model = heart_model()
    path = tmp_path / "heart.json"
    write_json(model, path)
    back = read_json(path)
    assert_same_parameters(model, back)
    data = load_heart_disease()
    assert back.log_likelihood(data) == model.log_likelihood(data)
    assert StratifiedGraphicalModel(HEART_EDGES) == from_json_dict(to_json_dict(StratifiedGraphicalModel(HEART_EDGES)))


def test_unsupported_names_are_refused_on_write(tmp_path):
    with pytest.raises(TypeError, match=r"node names must be str or int.*\('a', 1\)"):
        to_json_dict(StratifiedGraph([(("a", 1), "b")]))
    with pytest.raises(TypeError, match="states must be"):
        to_json_dict(StratifiedGraph([("a", "b")], state_names={"a": [(0,), (1,)]}))


def test_overwrite_is_refused_and_failed_writes_keep_the_file(tmp_path, monkeypatch):
    sg = StratifiedGraph([("a", "b")])
    path = tmp_path / "g.json"
    write_json(sg, path)
    before = path.read_bytes()
    with pytest.raises(FileExistsError, match="overwrite=True"):
        write_json(StratifiedGraph([("a", "c")]), path)
    assert path.read_bytes() == before

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_json(StratifiedGraph([("a", "c")]), path, overwrite=True)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]  # no temporary file left behind
    write_json(StratifiedGraph([("a", "c")]), path, overwrite=True)
    assert read_json(path) == StratifiedGraph([("a", "c")])


def _model_dict():
    return to_json_dict(StratifiedGraphicalModel.random(StratifiedGraph(HEART_EDGES, strata=HEART_STRATA), seed=0))


def _set(path, value):
    def edit(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return d

    return edit


def _labelled(d):
    return next(i for i, f in enumerate(d["parameters"]) if f["center"] is not None)


MALFORMED = [
    ("not-an-object", lambda d: [d], TypeError, "must be an object"),
    ("unknown-key", lambda d: {**d, "extra": 1}, ValueError, r"Unknown field\(s\) \['extra'\]"),
    ("missing-key", lambda d: {k: v for k, v in d.items() if k != "edges"}, ValueError, r"Missing field.*'edges'"),
    ("wrong-format", _set(["format"], "pickle"), ValueError, "Field 'format'"),
    ("future-version", _set(["version"], 99), ValueError, "Field 'version' 99"),
    ("version-type", _set(["version"], "1"), TypeError, "Field 'version'"),
    ("wrong-type", _set(["type"], "BayesianNetwork"), ValueError, "Field 'type'"),
    ("nodes-type", _set(["nodes"], {"a": 1}), TypeError, "Field 'nodes' must be a list"),
    ("node-type", _set(["nodes", 0], 1.5), TypeError, r"Field 'nodes\[0\]'"),
    ("unknown-edge-node", _set(["edges", 0], ["smoking", "weather"]), ValueError, r"edges\[0\].*'weather'"),
    ("self-loop", _set(["edges", 0], ["smoking", "smoking"]), ValueError, "self-loop"),
    ("not-chordal", lambda d: {**d, "edges": [["a", "b"], ["b", "c"], ["c", "d"], ["d", "a"]],
                               "nodes": ["a", "b", "c", "d"], "strata": [], "state_names": [], "parameters": None},
     ValueError, "Field 'edges'.*chord"),
    ("state-type", _set(["state_names"], [["smoking", [[0], [1]]]]), TypeError, r"state_names\[0\]\[1\]\[0\]"),
    ("duplicate-states", _set(["state_names"], [["smoking", [0, 0]]]), ValueError, r"state_names\[0\]"),
    ("huge-states", lambda d: {**d, "state_names": [[v, list(range(400))] for v in d["nodes"]], "parameters": None},
     ValueError, "max_cells"),
    ("bad-stratum", _set(["strata", 0, "contexts", 0], [["smoking", 7]]), ValueError, "Field 'strata'"),
    ("table-size", lambda d: _set(["parameters", 0, "table"], d["parameters"][0]["table"][:-1])(d), ValueError,
     r"parameters\[0\]\.table' must hold \d+ probabilities"),
    ("negative", lambda d: _set(["parameters", 0, "table", 0], -0.25)(d), ValueError,
     r"parameters\[0\]\.table' holds negative"),
    ("non-finite", lambda d: _set(["parameters", 0, "table", 0], float("nan"))(d), ValueError,
     r"parameters\[0\]\.table' holds non-finite"),
    ("not-normalized", lambda d: _set(["parameters", 0, "table", 0], 0.999)(d), ValueError,
     "Field 'parameters'.*summing to"),
    ("probability-type", lambda d: _set(["parameters", 0, "table", 0], "0.5")(d), TypeError,
     r"parameters\[0\]\.table' must hold numbers"),
    ("group-ids-size", lambda d: _set(["parameters", _labelled(d), "group_ids"], [0, 1])(d), ValueError,
     r"group_ids' must hold 4 group ids"),
    ("group-values-rows", lambda d: _set(["parameters", _labelled(d), "group_values"], [[1.0, 1.0]])(d), ValueError,
     r"group_values' must have 2 rows"),
    ("factor-unknown-key", lambda d: _set(["parameters", 0, "weights"], 1)(d), ValueError,
     r"parameters\[0\]' has unknown keys \['weights'\]"),
    ("factor-node", lambda d: _set(["parameters", 0, "clique"], ["nobody"])(d), ValueError,
     r"parameters\[0\]\.clique' names the unknown node 'nobody'"),
    ("wrong-plan", lambda d: {**d, "parameters": d["parameters"][::-1]}, ValueError, "Field 'parameters'"),
    ("graph-with-parameters", _set(["type"], "StratifiedGraph"), ValueError, "only allowed"),
]


@pytest.mark.parametrize(("edit", "error", "match"), [pytest.param(*m[1:], id=m[0]) for m in MALFORMED])
def test_malformed_documents_raise_naming_the_culprit(edit, error, match):
    document = edit(copy.deepcopy(_model_dict()))
    with pytest.raises(error, match=match):
        from_json_dict(document)


def test_malformed_files(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nest"):
        read_json(path)
    path.write_text('{"format": "pgmpy-sgm", ')
    with pytest.raises(ValueError, match="not valid JSON"):
        read_json(path)
    path.write_text(json.dumps(_model_dict()))
    with pytest.raises(ValueError, match="more than max_bytes"):
        read_json(path, max_bytes=100)
    deep = _model_dict()
    deep["strata"] = [[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]
    with pytest.raises(ValueError, match="nested deeper"):
        from_json_dict(deep)


def _bif_cases():
    model = heart_model()
    three = StratifiedGraphicalModel.random(
        StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 2}]},
                        state_names={"a": [0, 1, 2], "c": ["lo", "hi"]}), seed=5)
    return [pytest.param(model, int, id="heart-int-states"), pytest.param(three, str, id="mixed-states")]


@pytest.mark.parametrize(("model", "state_type"), _bif_cases())
def test_bif_round_trip_has_identical_probabilities(tmp_path, model, state_type):
    path = tmp_path / "model.bif"
    write_bif(model, path)
    read = BIFReader(str(path)).get_model(state_name_type=state_type)
    bn = model.to_bayesian_network()
    assert set(read.edges()) == set(bn.edges())
    for cpd in bn.get_cpds():
        other = read.get_cpds(cpd.variable)
        assert other.variables == cpd.variables
        for v in cpd.variables:
            assert [str(s) for s in other.state_names[v]] == [str(s) for s in cpd.state_names[v]]
        # BIFWriter writes str(numpy.float64), the shortest repr: probabilities come back bit for bit
        assert np.array_equal(other.get_values(), cpd.get_values())
    with pytest.raises(FileExistsError):
        write_bif(model, path)


def test_xmlbif_round_trip(tmp_path):
    model = heart_model()
    path = tmp_path / "model.xml"
    write_xmlbif(model, path)
    read = XMLBIFReader(str(path)).get_model(state_name_type=int)
    for cpd in model.to_bayesian_network().get_cpds():
        other = read.get_cpds(cpd.variable)
        assert other.variables == cpd.variables
        np.testing.assert_allclose(other.get_values(), cpd.get_values(), rtol=1e-15, atol=0)


def test_bif_refuses_names_it_cannot_represent(tmp_path):
    model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")], state_names={"a": ["x y", "z"]}), seed=0)
    with pytest.raises(ValueError, match="States .* of 'a' cannot be written"):
        write_bif(model, tmp_path / "m.bif")
    assert not (tmp_path / "m.bif").exists()


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_written_files_get_the_umask_mode(tmp_path, umask):
    model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")]), seed=0)
    old = os.umask(umask)
    try:
        write_json(model, tmp_path / "m.json")
        write_bif(model, tmp_path / "m.bif")
        write_xmlbif(model, tmp_path / "m.xml")
    finally:
        os.umask(old)
    for name in ("m.json", "m.bif", "m.xml"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o666 & ~umask, name
