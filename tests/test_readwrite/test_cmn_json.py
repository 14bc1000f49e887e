"""JSON files of contextual Markov networks: lossless round trip, atomic writes, schema errors."""

import json

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.models import ContextualMarkovNetwork
from pgmpy_sgm.readwrite import cmn_from_json_dict, cmn_to_json_dict, read_cmn_json, write_cmn_json

EDGES = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")]


def _fitted():
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"a": rng.integers(0, 2, 200), "b": rng.choice(["x", "y", "z"], 200),
                         "c": rng.integers(0, 2, 200), "d": rng.integers(0, 2, 200)})
    cmn = ContextualMarkovNetwork(EDGES, contexts={("a", "c"): [{"b": "y", "d": 1}]},
                                  state_names={"b": ["x", "y", "z"]})
    return cmn.fit(data), data


def test_round_trip_keeps_everything(tmp_path):
    cmn, data = _fitted()
    path = tmp_path / "cmn.json"
    cmn.save(path)
    back = ContextualMarkovNetwork.load(path)
    assert back == cmn and back.contexts == cmn.contexts and back.state_names == cmn.state_names
    assert list(back.nodes()) == list(cmn.nodes())
    for f, g in zip(cmn.get_factors(), back.get_factors(), strict=True):
        assert f.variables == g.variables and np.array_equal(f.values, g.values)
    assert back.log_likelihood(data, per_row=True).tolist() == cmn.log_likelihood(data, per_row=True).tolist()


def test_unfitted_round_trip_and_int_nodes(tmp_path):
    cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: True}]},
                                  state_names={1: [False, True]})
    write_cmn_json(cmn, tmp_path / "g.json")
    back = read_cmn_json(tmp_path / "g.json")
    assert back == cmn and back.factors == [] and back.contexts == {(2, 3): [{1: True}]}


def test_no_silent_overwrite_and_no_partial_file(tmp_path):
    cmn, _ = _fitted()
    path = tmp_path / "cmn.json"
    cmn.save(path)
    before = path.read_text()
    with pytest.raises(FileExistsError, match="pass overwrite=True"):
        ContextualMarkovNetwork([("a", "b")]).save(path)
    assert path.read_text() == before
    ContextualMarkovNetwork([("a", "b")]).save(path, overwrite=True)
    assert json.loads(path.read_text())["edges"] == [["a", "b"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cmn.json"]  # no temporary left


@pytest.mark.parametrize(("change", "error", "match"), [
    (lambda d: d.update(type="StratifiedGraph"), ValueError, "type is 'StratifiedGraph'"),
    (lambda d: d.pop("contexts"), ValueError, r"Missing field\(s\) \['contexts'\]"),
    (lambda d: d.update(extra=1), ValueError, r"Unknown field\(s\) \['extra'\]"),
    (lambda d: d["contexts"][0]["contexts"][0][0].__setitem__(1, "w"), ValueError, "state 'w' of 'b'"),
    (lambda d: d["contexts"][0].__setitem__("edge", ["b", "d"]), ValueError, r"\('b', 'd'\): it is not an edge"),
    (lambda d: d["factors"][0].__setitem__("scope", ["b", "d"]), ValueError, "not a clique of the graph"),
    (lambda d: d["factors"][0]["values"].pop(), ValueError, "must hold 12 probabilities"),
    (lambda d: d["factors"][0]["values"].__setitem__(0, -1.0), ValueError, "negative probabilities"),
    (lambda d: d["edges"].append(["a", "q"]), ValueError, "unknown node 'q'"),
])
def test_bad_documents(change, error, match):
    cmn, _ = _fitted()
    document = cmn_to_json_dict(cmn)
    assert document["factors"][0]["scope"] == ["a", "b", "c"]
    change(document)
    with pytest.raises(error, match=match):
        cmn_from_json_dict(document)
