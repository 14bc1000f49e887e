"""``pgmpy-sgm learn --mpl``: a contextual Markov network from a CSV file, saved as JSON and drawn."""

import pytest

from pgmpy_sgm.cli import main
from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.readwrite import read_cmn_json


@pytest.fixture(scope="module")
def heart_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("data") / "heart.csv"
    load_heart_disease(as_counts=True).to_csv(path, index=False)
    return path


def test_learn_mpl_reports_contexts_and_saves(heart_csv, tmp_path, capsys):
    out_json, out_png = tmp_path / "m.json", tmp_path / "m.png"
    code = main(["learn", str(heart_csv), "--counts-column", "count", "--mpl", "--quiet",
                 "--json", str(out_json), "--plot", str(out_png)])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "Best contextual Markov network: log marginal pseudo-likelihood" in out
    model = read_cmn_json(out_json)
    assert model.number_of_edges() > 0
    statements = [str(s) for s in model.independencies()]
    assert statements, "the heart data's network carries contexts"
    for statement in statements:
        assert statement in out
    assert f"free parameters: {model.n_free_parameters()} " in out
    assert out_png.stat().st_size > 0


def test_learn_mpl_gives_the_learner_s_result(heart_csv, capsys):
    from pgmpy_sgm.causal_discovery import MPLSearch

    assert main(["learn", str(heart_csv), "--counts-column", "count", "--mpl", "--quiet", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    counts = load_heart_disease(as_counts=True)
    est = MPLSearch(seed=3, weights="count").fit(counts)
    assert f"log marginal pseudo-likelihood {est.best_score_:.2f}" in out


@pytest.mark.parametrize("extra", [["--ldag"], ["--iterations", "10"], ["--bif", "x.bif"], ["--jobs", "2"],
                                   ["--restarts", "1"], ["--no-strata"]])  # fmt: skip
def test_learn_mpl_refuses_options_of_other_searches(extra, capsys):
    assert main(["learn", "--mpl", "--quiet", *extra]) == 2
    err = capsys.readouterr().err
    assert "does not apply to --mpl" in err
    assert extra[0] in err


def test_learn_mpl_with_missing_cells_runs_structural_em(tmp_path, capsys):
    data = load_heart_disease().astype(object)
    data.iloc[::7, 0] = None
    path = tmp_path / "gaps.csv"
    data.to_csv(path, index=False)
    assert main(["learn", str(path), "--mpl", "--quiet", "--missing", "em"]) == 0
    out = capsys.readouterr().out
    assert "structural EM from the DAG of the penalised node-average likelihood" in out
    assert "Best contextual Markov network" in out
