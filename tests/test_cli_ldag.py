"""``pgmpy-sgm learn --ldag``: a labelled DAG from a CSV file, saved as JSON and BIF."""

import pytest
from pgmpy.readwrite import BIFReader

from pgmpy_sgm.cli import main
from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.readwrite import read_ldag_json


@pytest.fixture(scope="module")
def heart_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("data") / "heart.csv"
    load_heart_disease(as_counts=True).to_csv(path, index=False)
    return path


def test_learn_ldag_reports_labels_and_saves(heart_csv, tmp_path, capsys):
    out_json, out_bif = tmp_path / "m.json", tmp_path / "m.bif"
    code = main(
        [
            "learn",
            str(heart_csv),
            "--counts-column",
            "count",
            "--ldag",
            "--restarts",
            "3",
            "--quiet",
            "--json",
            str(out_json),
            "--bif",
            str(out_bif),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "Best labelled DAG: log unnormalized posterior" in out
    model = read_ldag_json(out_json)
    assert model.number_of_edges() > 0
    for statement in model.independencies():
        assert str(statement) in out
    # the printed parameter count is the model's
    assert f"free parameters: {model.n_free_parameters()} " in out
    assert sorted(BIFReader(str(out_bif)).get_model().edges()) == sorted(model.edges())


def test_learn_ldag_rejects_plot(capsys):
    assert main(["learn", "--ldag", "--quiet", "--plot", "x.png"]) == 2
    assert "--plot is not available with --ldag" in capsys.readouterr().err
