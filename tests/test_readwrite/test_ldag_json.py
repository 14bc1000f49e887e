"""Labelled-DAG model files: bad files give one-line errors naming the file."""

import pytest

from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.readwrite.ldag_json import read_ldag_json, write_ldag_json
from pgmpy_sgm.structure_score import LDAGScoreSettings


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\xff\xfe{}", r"is not a JSON model file: it is not UTF-8 text"),
        (b'{"format": ', r"is not valid JSON"),
        (b"[" * 100_000 + b"]" * 100_000, r"nested too deeply|is not valid JSON"),
    ],
)
def test_damaged_files_name_the_file(tmp_path, content, message):
    path = tmp_path / "model.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message) as info:
        read_ldag_json(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_size_limit_names_the_file(tmp_path):
    path = tmp_path / "model.json"
    write_ldag_json(LabeledBayesianNetwork([("a", "b")]), path)
    with pytest.raises(ValueError, match=r"more than max_bytes=10"):
        read_ldag_json(path, max_bytes=10)


def test_the_learned_equivalent_sample_size_survives_a_round_trip(tmp_path):
    import pandas as pd

    from pgmpy_sgm.causal_discovery import LDAGSearch

    data = pd.DataFrame({"a": [0, 1, 1, 0, 1, 1, 0, 1], "b": [0, 1, 1, 0, 1, 0, 0, 1]})
    model = LDAGSearch(scoring_method=LDAGScoreSettings(equivalent_sample_size=2.0),
                       n_restarts=0, show_progress=False).fit(data).model_
    write_ldag_json(model, tmp_path / "m.json")
    back = read_ldag_json(tmp_path / "m.json")
    assert back.equivalent_sample_size == 2.0
    # a later fit without an estimator uses it, as on the model that was saved
    fitted, refitted = model.copy(), back.copy()
    fitted.fit(data)
    refitted.fit(data)
    for node in data.columns:
        assert (fitted.get_cpds(node).get_values() == refitted.get_cpds(node).get_values()).all()


@pytest.mark.parametrize("value", [0, -1.0, "5", True])
def test_a_bad_equivalent_sample_size_is_named(tmp_path, value):
    import json

    model = LabeledBayesianNetwork([("a", "b")], state_names={"a": [0, 1], "b": [0, 1]})
    write_ldag_json(model, tmp_path / "m.json")
    document = json.loads((tmp_path / "m.json").read_text())
    document["equivalent_sample_size"] = value
    (tmp_path / "bad.json").write_text(json.dumps(document))
    with pytest.raises(ValueError, match="equivalent_sample_size"):
        read_ldag_json(tmp_path / "bad.json")
