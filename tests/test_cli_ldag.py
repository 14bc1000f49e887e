"""``pgmpy-sgm learn --ldag``: a labelled DAG from a CSV file, saved as JSON and BIF."""

import math
import re

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
    assert "Best labelled DAG: log unnormalized posterior (LDAG prior, kappa 0.2)" in out
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


def _learn(heart_csv, *extra):
    return main(["learn", str(heart_csv), "--counts-column", "count", "--ldag", *extra])


def test_learn_ldag_prints_the_data_line_once_even_quiet(heart_csv, capsys):
    assert _learn(heart_csv, "--restarts", "0", "--quiet") == 0
    captured = capsys.readouterr()
    assert (captured.out + captured.err).count(str(heart_csv)) == 1 and captured.err == ""


def test_restart_message_says_why_the_restarts_stopped(heart_csv, capsys):
    assert _learn(heart_csv, "--restarts", "10", "--quiet") == 0  # the default budget allows 1 restart here
    out = capsys.readouterr().out
    assert "Restarts: 1 of at most 10: stopped when the restart budget was spent" in out
    assert "--restart-budget none to run all 10" in out
    assert _learn(heart_csv, "--restarts", "2", "--restart-budget", "none", "--quiet") == 0
    assert "Restarts: 2, all of --restarts 2" in capsys.readouterr().out
    # the first climbs take longer than a microsecond, so no restart starts
    assert _learn(heart_csv, "--restarts", "2", "--max-time", "1e-6", "--quiet") == 0
    assert "Restarts: 0 of at most 2: stopped when --max-time 1e-06 s was reached" in capsys.readouterr().out


def test_turn_message_says_how_many_turns_ran_and_why_no_more(heart_csv, capsys):
    assert _learn(heart_csv, "--restarts", "0", "--turn-budget", "none", "--quiet") == 0
    assert re.search(r"Turns: \d+, until no turn improved the DAG", capsys.readouterr().out)
    assert _learn(heart_csv, "--restarts", "0", "--turn-budget", "0", "--quiet") == 0
    assert "Turns: none (--turn-budget 0)" in capsys.readouterr().out
    assert main(["learn", "--turn-budget", "1", "--quiet"]) == 2
    assert "--turn-budget applies to the labelled-DAG search; add --ldag" in capsys.readouterr().err


def test_parent_swap_message_counts_the_climbs_and_the_flag_turns_them_off(heart_csv, capsys):
    assert _learn(heart_csv, "--restarts", "0", "--quiet") == 0
    assert re.search(r"Parent swaps: \d+ climbs? from the best DAG, \d+ improving it", capsys.readouterr().out)
    assert _learn(heart_csv, "--restarts", "0", "--no-parent-swaps", "--quiet") == 0
    assert "Parent swaps: none (--no-parent-swaps)" in capsys.readouterr().out
    assert main(["learn", "--no-parent-swaps", "--quiet"]) == 2
    assert "--no-parent-swaps applies to the labelled-DAG search; add --ldag" in capsys.readouterr().err


def test_progress_bar_ends_at_the_climbs_run(heart_csv, capsys):
    assert _learn(heart_csv, "--restarts", "10") == 0
    err = capsys.readouterr().err.replace("\r", "\n")
    finals = [line for line in err.splitlines() if "LDAG climbs" in line][-1]
    # two first climbs and one restart: the bar ends full at 3 of 3, not at 3 of 12
    assert "3/3" in finals and "stopped by restart_budget" in finals


def test_options_of_the_other_search_are_refused(heart_csv, capsys):
    assert _learn(heart_csv, "--iterations", "10", "--quiet") == 2
    assert "--iterations applies to the stratified-graph search, not to --ldag" in capsys.readouterr().err
    assert main(["learn", "--restarts", "3", "--quiet"]) == 2
    assert "--restarts applies to the labelled-DAG search; add --ldag" in capsys.readouterr().err


def test_score_and_convert_read_a_saved_labelled_dag(heart_csv, tmp_path, capsys):
    out_json = tmp_path / "m.json"
    assert _learn(heart_csv, "--restarts", "0", "--quiet", "--json", str(out_json)) == 0
    learned = capsys.readouterr().out
    best = float(learned.split("Best labelled DAG: log unnormalized posterior (LDAG prior, kappa 0.2) ")[1].split()[0])
    assert main(["score", str(heart_csv), str(out_json), "--counts-column", "count"]) == 0
    out = capsys.readouterr().out
    lines = dict(line.rsplit(" ", 1) for line in out.splitlines() if line.startswith("log "))
    lml = float(lines["log marginal likelihood (BDeu, equivalent sample size 5)"])
    prior = float(lines["log prior (LDAG prior, kappa 0.2)"])
    total = float(lines["log unnormalized posterior (LDAG prior, kappa 0.2)"])
    model = read_ldag_json(out_json)
    removed = 14 - model.n_free_parameters()  # 14: the free parameters of the unlabelled DAG printed by learn
    assert "(unlabelled DAG: 14)" in learned
    assert prior == pytest.approx(removed * math.log(0.2), abs=1e-4)
    assert total == pytest.approx(lml + prior, abs=2e-4) and total == pytest.approx(best, abs=0.006)
    bif = tmp_path / "m.bif"
    assert main(["convert", str(out_json), "--bif", str(bif)]) == 0
    assert sorted(BIFReader(str(bif)).get_model().edges()) == sorted(model.edges())


def test_convert_fits_a_labelled_dag_saved_without_parameters(heart_csv, tmp_path, capsys):
    from pgmpy_sgm.models import LabeledBayesianNetwork
    from pgmpy_sgm.readwrite import write_ldag_json

    names = {v: [0, 1] for v in ("smoking", "systolic_bp", "lipoprotein_ratio")}
    edges = [("smoking", "systolic_bp"), ("lipoprotein_ratio", "systolic_bp")]
    graph = LabeledBayesianNetwork(edges, state_names=names)
    graph.set_classes("systolic_bp", ("smoking", "lipoprotein_ratio"), [0, 1, 2, 1])  # smoking irrelevant if lr=1
    write_ldag_json(graph, tmp_path / "g.json")
    assert main(["convert", str(tmp_path / "g.json"), "--bif", str(tmp_path / "x.bif")]) == 2
    assert "without parameters; give --data DATA.csv" in capsys.readouterr().err
    bif = tmp_path / "g.bif"
    assert main(["convert", str(tmp_path / "g.json"), "--bif", str(bif), "--data", str(heart_csv),
                 "--counts-column", "count"]) == 0
    cpd = BIFReader(str(bif)).get_model().get_cpds("systolic_bp")
    values = cpd.get_values()  # columns: (smoking, lipoprotein_ratio) = 00, 01, 10, 11
    assert values[:, 1].tolist() == pytest.approx(values[:, 3].tolist())  # the tie of the label is kept


def test_no_screen_moves_labels_every_move_and_needs_ldag(heart_csv, capsys):
    assert _learn(heart_csv, "--restarts", "0", "--quiet") == 0
    screened = re.search(r"Best labelled DAG: .* (-?[\d.]+)\n", capsys.readouterr().out)
    assert _learn(heart_csv, "--restarts", "0", "--no-screen-moves", "--quiet") == 0
    every = re.search(r"Best labelled DAG: .* (-?[\d.]+)\n", capsys.readouterr().out)
    assert screened and every and screened.group(1) == every.group(1)  # the heart data: the same DAG either way
    assert main(["learn", "--no-screen-moves", "--quiet"]) == 2
    assert "--no-screen-moves applies to the labelled-DAG search; add --ldag" in capsys.readouterr().err
