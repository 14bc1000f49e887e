"""Files of a labelled DAG (pgmpy_sgm.models._ldag_files): the format rule, no silent overwrite, JSON lossless."""

import pytest

from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.models._ldag_files import file_type, read_json_network, save_network


def test_a_known_extension_wins_and_an_unknown_format_is_named():
    assert file_type("net.BIF", "json") == "bif"
    assert file_type("network", "uai") == "uai"
    with pytest.raises(ValueError, match="'csv'"):
        file_type("net", "csv")


def test_json_keeps_the_labels_and_an_existing_file_is_kept(tmp_path):
    model = LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
                                   state_names={"a": [0, 1], "b": [0, 1], "y": [0, 1]})
    path = tmp_path / "net.json"
    save_network(model, path, "json", overwrite=False)
    assert read_json_network(path).labels() == {("a", "y"): [{"b": 0}]}
    with pytest.raises(FileExistsError):
        save_network(model, path, "json", overwrite=False)
