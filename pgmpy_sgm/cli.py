"""Command line: learn a stratified graphical model from a CSV file and report it.

Examples
--------
::

    pgmpy-sgm learn                              # the bundled heart-disease data
    pgmpy-sgm learn data.csv --counts-column n --iterations 5000 --plot sg.png --json sg.json
    pgmpy-sgm learn data.csv --ldag --json ldag.json --bif ldag.bif   # a labelled DAG
    pgmpy-sgm learn data.csv --mpl --json cmn.json --plot cmn.png     # a contextual Markov network
    pgmpy-sgm score data.csv sg.json
    pgmpy-sgm convert sg.json --bif sg.bif --data data.csv
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import networkx as nx
import pandas as pd
from pgmpy.readwrite import BIFWriter, XMLBIFWriter

from pgmpy_sgm._cli_parser import DEFAULT_CHAINS, DEFAULT_RESTARTS, build_parser
from pgmpy_sgm.causal_discovery import ConvergenceWarning, LDAGSearch, MPLSearch, NonReversibleMCMC
from pgmpy_sgm.causal_discovery._convergence import SPREAD_WARNING
from pgmpy_sgm.core.missing import EMOptions
from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.models import LabeledBayesianNetwork, StratifiedGraph, StratifiedGraphicalModel
from pgmpy_sgm.readwrite import from_json_dict, ldag_from_json_dict, write_bif, write_json, write_xmlbif
from pgmpy_sgm.readwrite._fields import atomic_write_text
from pgmpy_sgm.readwrite.cmn_json import write_cmn_json
from pgmpy_sgm.readwrite.data_file import CountsLikeColumnWarning, read_data_file
from pgmpy_sgm.readwrite.json_io import load_json_document
from pgmpy_sgm.readwrite.ldag_json import write_ldag_json
from pgmpy_sgm.structure_score import LDAGScore, SGMScore
from pgmpy_sgm.structure_score.ldag_score import DEFAULT_KAPPA

__all__ = ["main", "build_parser"]

_DEFAULT_ITERATIONS = "auto"  # NonReversibleMCMC's default: until the search settles
_SG_ONLY = ("iterations", "chains", "method")  # options of the stratified-graph search (default None)
_LDAG_ONLY = ("restarts", "restart_budget", "turn_budget", "no_parent_swaps", "no_screen_moves")
_SUFFIXES = {"--json": (".json",), "--bif": (".bif",), "--xmlbif": (".xml", ".xmlbif")}
_SG_SCORE = "log unnormalized posterior (SG prior)"
_EXPLAIN_SCORE = (f"{_SG_SCORE} = log marginal likelihood of the data given the graph + log of the paper's prior of "
                  "stratified graphs, (d - f(G)) log 2 for d variables and f(G) free parameters of the underlying "
                  "graph (higher is better)")
_LDAG_SCORE = "log unnormalized posterior (LDAG prior, kappa {kappa:g})"
_EXPLAIN_LDAG_SCORE = ("{score} = BDeu log marginal likelihood (equivalent sample size {ess:g}) of the data given "
                       "the labelled DAG + log of its prior, log {kappa:g} per free parameter the labels remove "
                       "(higher is better); the likelihood and the prior are not those of a stratified graph, so the "
                       "two scores are not comparable")
_EXPLAIN_STRATUM = ("a stratum of an edge is a context (values of the edge's common neighbours) in which its two "
                    "ends are independent, written 'u ⟂ v | context'")


class CommandLineError(Exception):
    """A problem with the user's files or arguments, reported as one line."""


#: How the file reader's messages name its options: by the command's flags.
_READER_OPTIONS = {
    "sep": "--sep {!r}",
    "sep_name": "--sep",
    "keep_na_strings": "--keep-na-strings",
    "counts_column": "--counts-column {}",
    "missing": "--missing complete_cases, em or state",
    "dask": "--dask",
}


def read_data(path: str | None, counts_column: str | None, sep: str = ",", keep_na_strings: bool = False,
              show_progress: bool = False, dask: str | None = None,
              keep_missing: bool = False) -> tuple[pd.DataFrame, object, str]:
    """:func:`~pgmpy_sgm.readwrite.read_data_file` with the command's flags in its messages (the bundled data for None).

    A column that looks like counts is reported as ``pgmpy-sgm: warning: ...`` on stderr.

    Examples
    --------
    >>> frame, weights, name = read_data(None, None)
    >>> frame.shape, weights, name
    ((64, 7), 'count', 'bundled heart-disease data (1841 men)')
    """
    if path is None:
        if counts_column is not None:
            raise CommandLineError("--counts-column needs a DATA.csv (the bundled data has its own counts)")
        return load_heart_disease(as_counts=True), "count", "bundled heart-disease data (1841 men)"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CountsLikeColumnWarning)
        result = read_data_file(path, counts_column, sep=sep, keep_na_strings=keep_na_strings,
                                show_progress=show_progress, dask=dask, keep_missing=keep_missing,
                                option_names=_READER_OPTIONS)  # fmt: skip
    for warning in caught:
        if issubclass(warning.category, CountsLikeColumnWarning):
            print(f"pgmpy-sgm: warning: {warning.message}", file=sys.stderr)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return result


def _check_outputs(outputs: dict, inputs: Sequence) -> None:
    """Refuse, before any work, outputs that would destroy an input, clash, or cannot be written."""
    seen: dict = {}
    for flag, out in outputs.items():
        if not out:
            continue
        target = Path(out)
        for source in inputs:
            if source and _same_file(target, Path(source)):
                raise CommandLineError(f"{flag} {out} is also an input file; it would be overwritten")
        suffix = target.suffix.lower()
        if flag == "--plot":
            from matplotlib.backend_bases import FigureCanvasBase

            allowed = tuple(f".{s}" for s in sorted(FigureCanvasBase.get_supported_filetypes()))
        else:
            allowed = _SUFFIXES[flag]
        if suffix not in allowed:
            raise CommandLineError(f"{flag} {out}: unknown suffix {suffix or '(none)'!r}; use one of {list(allowed)}")
        if target.is_dir():
            raise CommandLineError(f"{flag} {out}: is a directory; give a file name")
        folder = target.absolute().parent
        if not folder.is_dir():
            raise CommandLineError(f"cannot write {out}: directory {str(target.parent)!r} does not exist")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise CommandLineError(f"cannot write {out}: directory {str(target.parent)!r} is not writable")
        key = target.resolve()
        if key in seen:
            raise CommandLineError(f"{seen[key]} and {flag} both write {out}")
        seen[key] = flag


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _format_edges(sg) -> str:
    return ", ".join(f"{u} - {v}" for u, v in sg.edges()) or "(none)"


def _print_statements(model) -> None:
    statements = [str(s) for s in model.independencies()]
    if not statements:
        print("  no context-specific independencies (no labels)")
        return
    print(f"  context-specific independencies ({len(statements)}):")
    for line in statements:
        print(f"    {line}")


def _check_search_options(args) -> None:
    """Refuse options of the other search than the one asked for, then fill in the defaults."""
    wrong = _SG_ONLY + ("no_strata",) if args.ldag else _LDAG_ONLY
    given = [name for name in wrong if getattr(args, name) not in (None, False)]
    if given:
        flag = "--" + given[0].replace("_", "-")
        if args.ldag:
            raise CommandLineError(f"{flag} applies to the stratified-graph search, not to --ldag")
        raise CommandLineError(f"{flag} applies to the labelled-DAG search; add --ldag")
    defaults = {"iterations": _DEFAULT_ITERATIONS, "chains": DEFAULT_CHAINS, "method": "informed",
                "restarts": DEFAULT_RESTARTS}
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)


def _learn(args) -> int:
    _missing(args)  # refuse --em-start without --missing em before reading the data
    if args.mpl:
        return _learn_mpl(args)
    _check_search_options(args)
    if args.ldag:
        return _learn_ldag(args)
    _check_outputs({"--json": args.json, "--plot": args.plot, "--bif": args.bif}, [args.data])
    frame, weights, description = read_data(args.data, args.counts_column, args.sep, args.keep_na_strings,
                                            show_progress=not args.quiet, dask=args.dask,
                                            keep_missing=args.missing != "error")
    common = dict(n_iter=args.iterations, n_chains=args.chains, seed=args.seed, n_jobs=args.jobs,
                  weights=weights, show_progress=not args.quiet, max_time=args.max_time, method=args.method,
                  missing=_missing(args))
    print(f"Data: {description}", flush=True)
    with warnings.catch_warnings():  # the spread is reported below, in words
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = NonReversibleMCMC(strata=not args.no_strata, **common).fit(frame)
    sg = est.model_
    print(f"Search: {args.chains} chain(s) x {est.n_iter_} iterations, seed {args.seed}, stopped: "
          f"{_STOP_REASONS.get(est.stop_reason_, est.stop_reason_)}; "
          f"{est.n_visited_} distinct models visited, acceptance rate {est.acceptance_rate_:.2f}")
    _print_em(est)
    spread = est.convergence_.attrs["spread"]
    verdict = "they agree" if spread <= SPREAD_WARNING else "they disagree: run longer (--iterations, --max-time)"
    print(f"Chains' best scores spread over {spread:.2f} log-units ({verdict})")
    print()
    kind = "ordinary decomposable graphical model" if args.no_strata else "stratified graph"
    print(f"Best {kind}: {_SG_SCORE} {est.best_score_:.2f}")
    print(f"  edges ({sg.number_of_edges()}): {_format_edges(sg)}")
    if not args.no_strata or sg.strata:
        _print_statements(sg)
    print(f"  free parameters: {sg.n_free_parameters()} (underlying graph: {sg.n_free_parameters(strata=False)})")
    if not args.no_strata:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            gm = NonReversibleMCMC(strata=False, **common).fit(frame)
        log_bf = est.best_score_ - gm.best_score_
        print()
        print(f"Best ordinary decomposable graphical model (same budget): {_SG_SCORE} {gm.best_score_:.2f}")
        print(f"  edges ({gm.model_.number_of_edges()}): {_format_edges(gm.model_)}")
        print(f"  free parameters: {gm.model_.n_free_parameters()}")
        bf = f"{math.exp(log_bf):.3g}" if log_bf < 700 else "> 1e300"
        print(f"Log Bayes factor, stratified vs ordinary: {log_bf:.2f} (Bayes factor {bf})")
    print()
    print(f"Note: {_EXPLAIN_SCORE}; {_EXPLAIN_STRATUM}.")
    _write_outputs(args, est, frame, weights)
    return 0


def _learn_ldag(args) -> int:
    if args.plot:
        raise CommandLineError("--plot is not available with --ldag; save --json and draw the model in Python")
    _check_outputs({"--json": args.json, "--bif": args.bif}, [args.data])
    frame, weights, description = read_data(args.data, args.counts_column, args.sep, args.keep_na_strings,
                                            show_progress=not args.quiet, dask=args.dask,
                                            keep_missing=args.missing != "error")
    print(f"Data: {description}", flush=True)
    budget = {name: None if value == "none" else value
              for name, value in (("restart_budget", args.restart_budget), ("turn_budget", args.turn_budget))
              if value is not None}
    est = LDAGSearch(n_restarts=args.restarts, seed=args.seed, n_jobs=args.jobs, show_progress=not args.quiet,
                     max_time=args.max_time, weights=weights, missing=_missing(args),
                     parent_swaps=not args.no_parent_swaps, screen_moves=not args.no_screen_moves,
                     **budget).fit(frame)
    model = est.model_
    firsts = [f"from {_START_NAMES.get(where, where)} {value:.2f}"
              for where, value in zip(est.climb_starts_, est.climb_scores_, strict=True)
              if where not in ("restart", "turn", "swaps")]
    print(f"Search: tabu hill climbing, seed {args.seed}; first climbs {', '.join(firsts)}; best {est.best_score_:.2f}")
    print(f"Turns: {_turn_summary(est)}")
    print(f"Parent swaps: {_swap_summary(est)}")
    print(f"Restarts: {_restart_summary(est, args)}")
    _print_em(est)
    print()
    score_name = _LDAG_SCORE.format(kappa=est.kappa_)
    print(f"Best labelled DAG: {score_name} {est.best_score_:.2f}")
    edges = ", ".join(f"{u} -> {v}" for u, v in model.edges()) or "(none)"
    print(f"  edges ({model.number_of_edges()}): {edges}")
    _print_statements(model)
    plain = sum((len(model.label_states(v)) - 1) * math.prod(len(model.label_states(p)) for p in model.get_parents(v))
                for v in model.nodes())
    print(f"  free parameters: {model.n_free_parameters()} (unlabelled DAG: {plain})")
    print()
    print(f"Note: {_EXPLAIN_LDAG_SCORE.format(score=score_name, ess=est.ess_, kappa=est.kappa_)}.")
    if args.json:
        write_ldag_json(model, args.json, overwrite=True)
        print(f"Saved the model to {args.json}")
    _write_pgmpy_network(model, args.bif, None)
    return 0


_MPL_REFUSED = ("iterations", "chains", "method", "restarts", "restart_budget", "turn_budget", "no_parent_swaps",
                "no_screen_moves", "no_strata", "ldag", "bif")
_EXPLAIN_MPL_SCORE = ("log marginal pseudo-likelihood = sum over the variables of the log marginal likelihood of each "
                      "given its Markov blanket (Dirichlet alpha {alpha:g}, blanket outcomes merged by the contexts) "
                      "+ log structure prior (kappa {kappa:g} per free parameter a context removes)")


def _learn_mpl(args) -> int:
    """``learn --mpl``: a contextual Markov network by :class:`~pgmpy_sgm.causal_discovery.MPLSearch`."""
    given = [name for name in _MPL_REFUSED if getattr(args, name) not in (None, False)]
    if given or args.jobs != 1:
        flag = "--" + (given[0] if given else "jobs").replace("_", "-")
        raise CommandLineError(f"{flag} does not apply to --mpl (options: --seed, --max-time, --missing, "
                               "--em-start, --json, --plot)")
    _check_outputs({"--json": args.json, "--plot": args.plot}, [args.data])
    frame, weights, description = read_data(args.data, args.counts_column, args.sep, args.keep_na_strings,
                                            show_progress=not args.quiet, dask=args.dask,
                                            keep_missing=args.missing != "error")
    print(f"Data: {description}", flush=True)
    est = MPLSearch(seed=args.seed, max_time=args.max_time, weights=weights, missing=_missing(args)).fit(frame)
    model = est.model_
    print(f"Search: pre-screened blankets, hill climbing over {len(est.candidate_edges_)} candidate edges "
          f"({_plural(est.n_edge_moves_, 'move')}), contexts ({_plural(est.n_context_moves_, 'move')}), "
          f"seed {args.seed}, "
          f"{est.fit_time_:.1f} s{' (stopped by --max-time)' if est.stopped_by_ == 'max_time' else ''}")
    _print_em(est)
    print()
    chordal = "chordal" if nx.is_chordal(nx.Graph(model.edges())) else "not chordal"
    print(f"Best contextual Markov network: log marginal pseudo-likelihood {est.best_score_:.2f} ({chordal})")
    print(f"  edges ({model.number_of_edges()}): {_format_edges(model)}")
    _print_statements(model)
    print(f"  free parameters: {model.n_free_parameters()} "
          f"(without contexts: {model.n_free_parameters(contexts=False)})")
    print()
    print(f"Note: {_EXPLAIN_MPL_SCORE.format(alpha=est.scorer_.alpha, kappa=est.scorer_.kappa)}.")
    if args.json:
        write_cmn_json(model, args.json, overwrite=True)
        print(f"Saved the model to {args.json}")
    if args.plot:
        _draw(model, args.plot, f"log marginal pseudo-likelihood {est.best_score_:.2f}")
    return 0


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


_START_NAMES = {"ges": "the equivalence search's DAG", "empty": "the empty graph", "given": "the given DAG",
                "widened": "the best DAG with widened partners"}


def _turn_summary(est) -> str:
    """How many turns were climbed, and why no more were."""
    done = est.climb_starts_.count("turn")
    if est.turn_budget_ == 0:
        if est.turn_budget == "auto":
            return "none (by default only up to 64 variables; --turn-budget B turns at any width)"
        return "none (--turn-budget 0)"
    if est.turns_stopped_by_ == "converged":
        return f"{done}, until no turn improved the DAG"
    if est.turns_stopped_by_ == "max_time":
        return f"{done}: stopped when --max-time was reached"
    return (f"{done}: stopped when the turn budget was spent ({est.turn_budget_:g} x the candidate moves of the "
            "longest first climb; raise --turn-budget, or pass --turn-budget none to turn until nothing improves)")


def _swap_summary(est) -> str:
    """How many climbs with parent swaps ran, and how many of them improved the best DAG."""
    if not est.parent_swaps:
        return "none (--no-parent-swaps)"
    done, improved, best = 0, 0, -math.inf
    for where, value in zip(est.climb_starts_, est.climb_scores_, strict=True):
        if where == "swaps":
            done, improved = done + 1, improved + (value > best + 1e-9)
        best = max(best, value)
    if not done:
        return "none (the time ran out first)"
    return f"{_plural(done, 'climb')} from the best DAG, {improved} improving it"


def _restart_summary(est, args) -> str:
    """How many restarts ran, and why no more did."""
    done = est.climb_starts_.count("restart")
    if est.restarts_stopped_by_ == "n_restarts":
        return f"{done}, all of --restarts {args.restarts}"
    if est.restarts_stopped_by_ == "max_time":
        return f"{done} of at most {args.restarts}: stopped when --max-time {args.max_time:g} s was reached"
    return (f"{done} of at most {args.restarts}: stopped when the restart budget was spent (restarts may score "
            f"{est.restart_budget:g} x the candidate moves of the longest first climb; raise --restart-budget, or "
            f"pass --restart-budget none to run all {args.restarts})")


_STOP_REASONS = {
    "settled": "settled (every chain's best polished and unchanged for a while, the chains agree)",
    "n_iter": "ran --iterations",
    "max_time": "time limit reached before the chains settled",
    "interrupted": "interrupted",
}


def _missing(args):
    """The learners' ``missing=``: ``--missing``, with ``--em-start`` and ``--no-em-revisit`` for EM."""
    if args.missing == "em":
        return EMOptions(start=args.em_start, revisit=not args.no_em_revisit)
    for flag, given in (("--em-start", args.em_start != "auto"), ("--no-em-revisit", args.no_em_revisit)):
        if given:
            raise CommandLineError(f"{flag} applies to --missing em only. Got: --missing {args.missing}")
    return args.missing


def _print_em(est) -> None:
    """The structural EM lines of a report (nothing when the data had no missing cells or EM was not asked)."""
    history = getattr(est, "em_history_", None)
    if history is None:
        return
    gaps = ", ".join(f"{c!r} ({n})" for c, n in est.missing_cells_.items())
    start = history.attrs["start"]
    criteria = history.attrs.get("start_criteria")
    if criteria:
        start += " (observed-data criterion of each start's result: " + ", ".join(
            f"{name} {value:.2f}" for name, value in criteria.items()) + ")"  # fmt: skip
    print(f"Missing cells: {gaps}; structural EM from the {start}, {len(history)} iteration(s), "
          f"{est.n_completed_exactly_:,.0f} incomplete rows completed exactly, "
          f"{est.n_completed_by_draws_:,.0f} by draws; the result is iteration {history.attrs['best_iteration']}'s "
          "search (best observed-data criterion)")
    for iteration, row in history.iterrows():
        print(f"  EM iteration {iteration}: expected score {row['expected_score']:.2f}, "
              f"+{row['added']} -{row['removed']} structure elements")
    revisit = history.attrs.get("revisit")
    if revisit:
        added = ", ".join(f"{u} -> {v}" for u, v in revisit["parents_added"])
        verdict = "kept" if revisit["kept"] else f"not kept (it must rise by more than {revisit['margin']:.2f})"
        print(f"EM's second look, from the settled DAG with {added}: observed-data criterion "
              f"{revisit['criterion_before']:.2f} -> {revisit['criterion_after']:.2f}, {verdict}")


def _write_outputs(args, est, frame, weights) -> None:
    if args.json:
        write_json(est.model_, args.json, overwrite=True)
        print(f"Saved the model to {args.json}")
    if args.plot:
        _draw(est.model_, args.plot, f"{_SG_SCORE} {est.best_score_:.2f}")
    if args.bif:
        _write_network(_fit_model(est.model_, frame, weights, args.missing), args.bif, None)


def _draw(model, path, title: str) -> None:
    """Draw a stratified graph or a contextual Markov network with its labels to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pgmpy_sgm.models import ContextualMarkovNetwork
    from pgmpy_sgm.plotting import (  # matplotlib only when drawing
        plot_contextual_markov_network,
        plot_stratified_graph,
        save_figure,
    )

    draw = plot_contextual_markov_network if isinstance(model, ContextualMarkovNetwork) else plot_stratified_graph
    fig, ax = plt.subplots(figsize=(7, 6))
    draw(model, ax=ax)
    ax.set_title(title)
    save_figure(fig, path)
    plt.close(fig)
    print(f"Saved the drawing to {path}")


def _fit_model(sg, frame, weights, missing="error"):
    return StratifiedGraphicalModel(sg).fit(frame, weights=weights, missing=missing)


def _write_network(model, bif: str | None, xmlbif: str | None) -> None:
    if bif:
        write_bif(model, bif, overwrite=True)
        print(f"Saved the Bayesian network to {bif}")
    if xmlbif:
        write_xmlbif(model, xmlbif, overwrite=True)
        print(f"Saved the Bayesian network to {xmlbif}")


def _read_model(path: str):
    """The stratified graph or model, or the labelled DAG, that ``path`` holds (by the document's type)."""
    if not Path(path).is_file():
        raise CommandLineError(f"model file not found: {path}")
    document = load_json_document(path)
    if isinstance(document, dict) and document.get("type") == "LabeledBayesianNetwork":
        return ldag_from_json_dict(document)
    return from_json_dict(document)


def _score(args) -> int:
    frame, weights, description = read_data(args.data, args.counts_column, args.sep, args.keep_na_strings,
                                            dask=args.dask)
    model = _read_model(args.model)
    if isinstance(model, LabeledBayesianNetwork):
        return _score_ldag(args, model, frame, weights, description)
    sg = StratifiedGraph(model)
    scorer = SGMScore(frame, weights=weights)
    lml = scorer.log_marginal_likelihood(sg)
    prior = scorer.log_prior(sg)
    print(f"Data: {description}")
    print(f"Model: {args.model} ({sg.number_of_edges()} edges, {sg.n_labels()} labels)")
    print(f"log marginal likelihood {lml:.4f}")
    print(f"log prior (SG prior) {prior:.4f}")
    print(f"{_SG_SCORE} {lml + prior:.4f}")
    print(f"Note: {_EXPLAIN_SCORE}.")
    return 0


def _score_ldag(args, model, frame, weights, description) -> int:
    """The LDAG score of a saved labelled DAG under its own labels, with ``LDAGSearch``'s default ESS and kappa."""
    ess = 5.0  # LDAGSearch's default, which 'learn --ldag' uses
    states = {v: model.label_states(v) for v in model.nodes()}
    likelihood = LDAGScore(frame, equivalent_sample_size=ess, kappa=1.0, weights=weights, state_names=states)
    lml, removed = 0.0, 0
    for node in model.nodes():
        parents, ids = model.get_classes(node)
        lml += likelihood.family_score(node, parents, ids)
        removed += (ids.size - (int(ids.max(initial=0)) + 1)) * (len(states[node]) - 1)
    prior = removed * math.log(DEFAULT_KAPPA)
    name = _LDAG_SCORE.format(kappa=DEFAULT_KAPPA)
    print(f"Data: {description}")
    print(f"Model: {args.model} ({model.number_of_edges()} edges, {model.n_labels()} labels)")
    print(f"log marginal likelihood (BDeu, equivalent sample size {ess:g}) {lml:.4f}")
    print(f"log prior (LDAG prior, kappa {DEFAULT_KAPPA:g}) {prior:.4f}")
    print(f"{name} {lml + prior:.4f}")
    print(f"Note: {_EXPLAIN_LDAG_SCORE.format(score=name, ess=ess, kappa=DEFAULT_KAPPA)}.")
    return 0


def _convert(args) -> int:
    if not args.bif and not args.xmlbif:
        raise CommandLineError("convert needs --bif OUT.bif and/or --xmlbif OUT.xml")
    _check_outputs({"--bif": args.bif, "--xmlbif": args.xmlbif}, [args.model, args.data])
    model = _read_model(args.model)
    if isinstance(model, LabeledBayesianNetwork):
        if not model.get_cpds():
            if args.data is None:
                raise CommandLineError(f"{args.model} holds a labelled DAG without parameters; give --data DATA.csv "
                                       "to fit them")
            frame, weights, _ = read_data(args.data, args.counts_column, args.sep, args.keep_na_strings,
                                          dask=args.dask)
            model.fit(frame, equivalent_sample_size=5.0, weights=weights)  # as learn --ldag fits them
        _write_pgmpy_network(model, args.bif, args.xmlbif)
        return 0
    if not getattr(model, "has_parameters", False):
        if args.data is None:
            raise CommandLineError(f"{args.model} holds a graph without parameters; give --data DATA.csv to fit them")
        frame, weights, _ = read_data(args.data, args.counts_column, args.sep, args.keep_na_strings, dask=args.dask)
        model = _fit_model(StratifiedGraph(model), frame, weights)
    _write_network(model, args.bif, args.xmlbif)
    return 0


def _write_pgmpy_network(model, bif: str | None, xmlbif: str | None) -> None:
    """A pgmpy network (a labelled DAG's TreeCPDs are TabularCPDs for pgmpy's writers) as BIF and XMLBIF."""
    for path, writer in ((bif, BIFWriter), (xmlbif, XMLBIFWriter)):
        if path:
            atomic_write_text(path, str(writer(model)), overwrite=True)
            print(f"Saved the Bayesian network to {path}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pgmpy-sgm`` command; returns the exit status.

    Examples
    --------
    >>> main(["learn", "--iterations", "300", "--chains", "1", "--quiet", "--no-strata"])  # doctest: +ELLIPSIS
    Data: bundled heart-disease data (1841 men)
    ...
    0
    """
    args = build_parser().parse_args(argv)
    commands = {"learn": _learn, "score": _score, "convert": _convert}
    try:
        return commands[args.command](args)
    except BrokenPipeError:  # the reader of the report went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (CommandLineError, ValueError, TypeError, OSError) as err:
        message = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        print(f"pgmpy-sgm: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pgmpy-sgm: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
