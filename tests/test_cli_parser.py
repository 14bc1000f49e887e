"""The command line's argument parser (pgmpy_sgm._cli_parser): commands, defaults and refused values."""

import pytest

from pgmpy_sgm._cli_parser import build_parser


def test_each_command_parses_its_options():
    learn = build_parser().parse_args(["learn", "d.csv", "--ldag", "--restarts", "3", "--restart-budget", "none"])
    assert (learn.command, learn.data, learn.ldag, learn.restarts, learn.restart_budget) == (
        "learn", "d.csv", True, 3, "none")
    assert learn.chains is None and learn.jobs == 1 and learn.seed == 0 and learn.missing == "error"
    score = build_parser().parse_args(["score", "d.csv", "m.json", "--sep", ";"])
    assert (score.command, score.model, score.sep, score.dask) == ("score", "m.json", ";", None)
    convert = build_parser().parse_args(["convert", "m.json", "--bif", "o.bif", "--dask"])
    assert (convert.bif, convert.dask) == ("o.bif", "local")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["learn", "--chains", "0"], "must be a positive integer"),
        (["learn", "--jobs", "0"], "must not be 0"),
        (["learn", "--max-time", "inf"], "positive number of seconds"),
        (["learn", "--seed", "-1"], "must not be negative"),
        (["learn", "--restart-budget", "-0.5"], "non-negative number or 'none'"),
    ],
)
def test_a_bad_value_is_named(argv, message, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(argv)
    assert message in capsys.readouterr().err
