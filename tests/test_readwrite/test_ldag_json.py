"""Labelled-DAG model files: bad files give one-line errors naming the file."""

import pytest

from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.readwrite.ldag_json import read_ldag_json, write_ldag_json


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
