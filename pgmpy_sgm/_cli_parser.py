"""The command line's argument parser: its commands, their options and the types of the options' values."""

from __future__ import annotations

import argparse

from pgmpy_sgm.core.missing import EM_STARTS, MISSING_CHOICES

__all__ = ["build_parser", "DEFAULT_CHAINS", "DEFAULT_RESTARTS", "DEFAULT_RESTART_BUDGET", "DEFAULT_TURN_BUDGET"]

#: Chains of ``learn`` (the stratified-graph search) when ``--chains`` is not given.
DEFAULT_CHAINS = 2

#: Restarts of ``learn --ldag`` when ``--restarts`` is not given.
DEFAULT_RESTARTS = 10

#: ``--restart-budget`` of ``learn --ldag`` when not given (LDAGSearch's default).
DEFAULT_RESTART_BUDGET = 0.25
#: ``LDAGSearch``'s default ``turn_budget`` ("auto"), in words.
DEFAULT_TURN_BUDGET = "4 up to 64 variables, no turns beyond"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``pgmpy-sgm``.

    Examples
    --------
    >>> args = build_parser().parse_args(["learn", "--iterations", "100"])
    >>> args.command, args.iterations, args.data
    ('learn', 100, None)
    """
    parser = argparse.ArgumentParser(
        prog="pgmpy-sgm",
        description="Stratified graphical models: learn context-specific independence from discrete data.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    learn = sub.add_parser("learn", help="learn a stratified graph from a CSV file (default: bundled heart data)")
    _add_learn_arguments(learn)
    _add_ldag_arguments(learn)
    _add_score_command(sub)
    _add_convert_command(sub)
    return parser


def _add_learn_arguments(learn: argparse.ArgumentParser) -> None:
    """The options of ``learn``: the data, the stratified-graph search and the outputs."""
    learn.add_argument("data", nargs="?", help="CSV or Parquet file of discrete columns, read in chunks "
                       "(default: bundled heart-disease data)")
    learn.add_argument("--counts-column", metavar="COL", help="column holding the count of each row")
    _add_csv_arguments(learn)
    learn.add_argument("--iterations", type=_positive_int, default=None, metavar="N",
                       help="MCMC iterations per chain (default: until the search settles, within 600 s or "
                       "--max-time; not with --ldag)")
    learn.add_argument("--chains", type=_positive_int, default=None, metavar="K",
                       help=f"independent chains (default {DEFAULT_CHAINS}; not with --ldag)")
    learn.add_argument("--jobs", type=_jobs, default=1, metavar="J",
                       help="parallel jobs for the chains, or the restarts with --ldag (default 1)")
    learn.add_argument("--max-time", type=_positive_float, default=None, metavar="SECONDS",
                       help="stop every chain after this many seconds of search; with --ldag, start no restart "
                            "after this many seconds (default: no limit)")
    learn.add_argument("--method", choices=("informed", "paper"), default=None,
                       help="search: informed moves (default) or the paper's algorithm as published (not with --ldag)")
    learn.add_argument("--seed", type=_non_negative_int, default=0, metavar="S", help="random seed (default 0)")
    learn.add_argument("--no-strata", action="store_true",
                       help="learn an ordinary decomposable graphical model (not with --ldag)")
    learn.add_argument("--json", metavar="OUT.json", help="save the learned model as JSON")
    learn.add_argument("--plot", metavar="OUT.png", help="draw the learned stratified graph")
    learn.add_argument("--bif", metavar="OUT.bif", help="fit parameters and save the Bayesian network as BIF")
    learn.add_argument("--quiet", action="store_true", help="no progress bar")
    learn.add_argument("--missing", choices=MISSING_CHOICES, default="error",
                       help="missing cells: error (default), complete_cases (drop incomplete rows), em (structural "
                       "EM: fill them in by the model's posterior), state (missing as a state of its own)")
    learn.add_argument("--em-start", choices=EM_STARTS, default="auto",
                       help="with --missing em, the model of EM's first E-step: auto (default: the measured best "
                       "for the learner: bdeu for --ldag, pnal otherwise), bdeu (DAG of the node-average BDeu "
                       "score of the available cases), pnal (DAG of their penalised node-average likelihood), "
                       "tree (Chow-Liu tree of the pairwise available cases), complete_cases, independent, "
                       "or best (EM from bdeu, pnal, tree and complete_cases, the best by the observed-data "
                       "criterion; four times the time)")
    learn.add_argument("--no-em-revisit", action="store_true",
                       help="with --missing em, skip EM's second look (after EM settles, one more E-step from the "
                       "settled DAG plus the parents the available cases support, kept only when the "
                       "observed-data criterion rises by more than 2 log n)")


def _add_ldag_arguments(learn: argparse.ArgumentParser) -> None:
    """The options of ``learn`` choosing another model: a labelled DAG (with its restarts) or an MPL network."""
    learn.add_argument("--ldag", action="store_true",
                       help="learn a labelled DAG (context-specific Bayesian network) by tabu hill climbing with "
                            "restarts instead of a stratified graph")
    learn.add_argument("--restarts", type=_non_negative_int, default=None, metavar="R",
                       help=f"with --ldag: most restarts after the first climbs (default {DEFAULT_RESTARTS})")
    learn.add_argument("--restart-budget", type=_budget, default=None, metavar="B",
                       help="with --ldag: the restarts may score B times the candidate moves of the longest first "
                            f"climb ('none': no limit, run all --restarts; default {DEFAULT_RESTART_BUDGET})")
    learn.add_argument("--turn-budget", type=_budget, default=None, metavar="B",
                       help="with --ldag: the turns (every edge at a node turned into it or out of it, then a climb) "
                            "may score B times the candidate moves of the longest first climb ('none': until no "
                            f"turn improves the DAG; 0: no turns; default {DEFAULT_TURN_BUDGET})")
    learn.add_argument("--no-parent-swaps", action="store_true",
                       help="with --ldag: no climb with parent swaps (one parent replaced by another in one step) "
                            "after the turns")
    learn.add_argument("--no-screen-moves", action="store_true",
                       help="with --ldag: label the family of every move the climbs score (slower), not only of "
                            "moves whose family's term without labels shows they may gain")
    learn.add_argument("--mpl", action="store_true",
                       help="learn a contextual Markov network (any undirected graph, chordal or not, with edge "
                            "contexts) by marginal pseudo-likelihood instead of a stratified graph")


def _add_score_command(sub) -> None:
    score = sub.add_parser("score", help="log unnormalized posterior (SG prior) of a saved stratified graph on a "
                                         "CSV file")
    score.add_argument("data", help="CSV file of discrete columns")
    score.add_argument("model", help="model JSON written by 'pgmpy-sgm learn --json'")
    score.add_argument("--counts-column", metavar="COL", help="column holding the count of each row")
    _add_csv_arguments(score)


def _add_convert_command(sub) -> None:
    convert = sub.add_parser("convert", help="convert a saved model to a Bayesian network file")
    convert.add_argument("model", help="model JSON (a fitted model, or a graph together with --data)")
    convert.add_argument("--bif", metavar="OUT.bif", help="write BIF")
    convert.add_argument("--xmlbif", metavar="OUT.xml", help="write XMLBIF")
    convert.add_argument("--data", metavar="DATA.csv", help="fit parameters from this CSV if the JSON holds a graph")
    convert.add_argument("--counts-column", metavar="COL", help="column holding the count of each row")
    _add_csv_arguments(convert)


def _add_csv_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--sep", default=",", metavar="SEP", help="field separator of the CSV file (default ',')")
    sub.add_argument("--keep-na-strings", action="store_true",
                     help="read NA, None, null, NaN, ... as states; only empty cells are missing values")
    sub.add_argument("--dask", nargs="?", const="local", metavar="ADDRESS",
                     help="pool the file with Dask, partition by partition: on Dask's local scheduler, or on the "
                          'distributed scheduler at ADDRESS (needs pip install "pgmpy-sgm[dask]")')


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
    if value == 0:
        raise argparse.ArgumentTypeError("must not be 0 (1: no parallelism; -1: all CPUs; -2: all but one, ...)")
    return value


def _budget(text: str) -> float | str:
    if text.strip().lower() == "none":
        return "none"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative number or 'none', got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a non-negative number or 'none', got {text!r}")
    return value


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text!r}")
    return value
