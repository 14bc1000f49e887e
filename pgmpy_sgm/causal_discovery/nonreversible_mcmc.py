"""Non-reversible Metropolis-Hastings search over decomposable stratified graphs."""

from __future__ import annotations

import functools
import math
import os
import time
import warnings

import joblib
import networkx as nx
import numpy as np
import pandas as pd
from pgmpy import config
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted
from tqdm.auto import tqdm

from pgmpy_sgm.causal_discovery._base import RETURN_TYPE, DecomposableCausalGraphMixin, check_features
from pgmpy_sgm.causal_discovery._chain import (
    ChainData,
    ChainState,
    SearchPlan,
    greedy_decomposable,
    release,
)
from pgmpy_sgm.causal_discovery._checkpoint import (
    LEGACY_KEYWORDS,
    Checkpoint,
    checkpoint_or_none,
    checkpoint_setting,
)
from pgmpy_sgm.causal_discovery._convergence import ConvergenceWarning, warn_if_unconverged
from pgmpy_sgm.causal_discovery._explore import explore_run
from pgmpy_sgm.causal_discovery._held_out import choose_by_held_out, rows_of
from pgmpy_sgm.causal_discovery._order import canonical_order, in_column_order
from pgmpy_sgm.causal_discovery._parameters import (
    Constraint,
    boolean,
    given_legacy,
    integer,
    n_jobs,
    number,
    one_of,
    seconds,
    seed,
    state_names,
)
from pgmpy_sgm.causal_discovery._run_log import CheckpointWarning, RunLog
from pgmpy_sgm.causal_discovery._run_results import recombine_chains, run_results, visit_starts
from pgmpy_sgm.causal_discovery._run_state import RunState
from pgmpy_sgm.causal_discovery._scoring_method import ScoringMethod
from pgmpy_sgm.causal_discovery._segments import (
    ChainProgress,
    adapted_chunk,
    check_backend,
    merge_segments,
    parallel_segments,
    remaining,
    segment_steps,
    sequential_segments,
)
from pgmpy_sgm.causal_discovery._settle_check import adopt_check, settle_check
from pgmpy_sgm.causal_discovery._structural_em import MStepResult, adopt_em_result, adopt_fitted, structural_em
from pgmpy_sgm.core.candidates import CandidatePairs
from pgmpy_sgm.core.data import check_frame
from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.missing import IncompleteTable, em_options, missing_cells
from pgmpy_sgm.core.moves import DecomposableState, chordal_families
from pgmpy_sgm.core.search import (
    best_forest_key,
    cached_triple_partners,
    climbed_start_key,
    clique_partners,
    pair_gains,
    pair_proposal_weights,
    polish,
)
from pgmpy_sgm.models import ModelAverage, StratifiedGraph, StratifiedGraphicalModel
from pgmpy_sgm.structure_score import SGMScore
from pgmpy_sgm.structure_score.sgm_settings import SGMScoreSettings

__all__ = ["NonReversibleMCMC", "FitInterruptedWarning", "CheckpointWarning", "ConvergenceWarning"]


#: Labelling schedule of the chains' moves (:func:`~pgmpy_sgm.core.optimize.optimal_groups`);
#: the visited graphs are re-scored with ``"auto"`` before the results are formed.
SEARCH_LABEL_METHOD = "fast"

_STARTS = ("auto", "empty", "best_gm", "best_forest", "climbed")

_METHODS = ("informed", "paper")
#: The score settings ``NonReversibleMCMC`` took as keywords before ``scoring_method`` (deprecated until 0.4).
LEGACY_SCORE_KEYWORDS = ("prior", "max_labelled_clique")
#: What ``scoring_method`` accepts: ``"sgm"`` (or None), an SGMScore or an SGMScoreSettings.
_SCORING = ScoringMethod(SGMScoreSettings, SGMScore, {"sgm": {}}, LEGACY_SCORE_KEYWORDS)

#: With ``method="informed"``, every this many iterations a chain proposes a relocation.
RELOCATE_EVERY = 500

#: With ``method="informed"``, a chain polishes a new best graph every ``POLISH_PER_PAIR * d**2``
#: iterations (at least ``POLISH_MIN``): a relocation sweep costs about ``d**2`` toggles.
POLISH_PER_PAIR = 20
POLISH_MIN = 1000

#: With ``method="informed"``, a chain also polishes its best graph once it has stood for
#: ``max(POLISH_MIN, POLISH_AFTER_PER_NODE * d)`` iterations without a better one.
POLISH_AFTER_PER_NODE = 20

#: With ``n_iter="auto"``, a chain stops (*settles*) once its best graph has been polished and has
#: stood for ``max(SETTLE_MIN, d * SETTLE_PER_NODE, SETTLE_RATIO * best_iteration)`` iterations.
SETTLE_MIN = 2000
SETTLE_PER_NODE = 50
SETTLE_RATIO = 0.5

#: With ``n_iter="auto"``, the chains stop when every chain has settled and their bests lie within
#: this many log-units; otherwise they go on, each best needing to stand twice as long per round.
SETTLE_SPREAD = 1.0

#: With ``n_iter="auto"`` and no ``max_time``, the fit stops after this many seconds at the latest.
DEFAULT_MAX_TIME = 600.0

#: A climbed start stops at this share of the fit's time budget (if it has one).
CLIMB_SHARE = 0.5

#: A final polish of the best graph (when no chain polished it) runs for at most this many
#: seconds or the fit's own duration so far, whichever is longer (within ``max_time``).
FINAL_POLISH_SECONDS = 10.0

#: With a time budget, the share of it kept for the steps after the chains (recombining their
#: bests, the final polish, the exploration, the re-scoring and the posterior table), so that
#: the fit ends within ``max_time``: the chains stop at ``1 - FINISH_SHARE`` of it (less the
#: exploration's share), the final polish by ``1 - FINISH_SHARE / 2``, the exploration by
#: ``1 - FINISH_SHARE``; the re-scoring stops at the budget's end.
FINISH_SHARE = 0.05

#: With ``n_iter="auto"``, the settling check (when the chains have settled and agree) runs for at
#: most this many seconds or the fit's duration so far, whichever is longer (within ``max_time``).
SETTLE_CHECK_SECONDS = 10.0

#: With ``method="informed"`` and a time budget, the share of it left to the exploration after the
#: chains (``explore``): ``min(EXPLORE_TIME_SHARE, EXPLORE_TIME_PAIRS / d**2)``, falling with the
#: number of pairs (the chains' search for the mode needs the time at large ``d``).
EXPLORE_TIME_SHARE = 0.5
EXPLORE_TIME_PAIRS = 15.0

#: With ``method="informed"``, every this many iterations a chain imports into its best graph
#: the parts in which its current graph is better (:func:`~pgmpy_sgm.core.search.recombine`).
GRAFT_EVERY = 1000


def _structure(sg) -> frozenset:
    """A stratified graph's edges and strata as a set (to tell whether EM changed the structure).

    Examples
    --------
    >>> from pgmpy_sgm import StratifiedGraph
    >>> _structure(StratifiedGraph([("a", "b")])) == {("edge", frozenset({"b", "a"}))}
    True
    """
    out = {("edge", frozenset(edge)) for edge in sg.edges()}
    for edge, contexts in sg.strata.items():
        for context in contexts:
            out.add(("stratum", frozenset(edge), tuple(sorted((k, repr(v)) for k, v in context.items()))))
    return frozenset(out)


def _em_progress(bar, row: dict) -> None:
    """One EM iteration on the progress bar: its expected score and the structure changes."""
    bar.update(1)
    bar.set_postfix_str(f"expected score={row['expected_score']:.2f} +{row['added']} -{row['removed']}", refresh=False)


class FitInterruptedWarning(RuntimeWarning):
    """A fit was interrupted (KeyboardInterrupt); the fitted attributes hold the results so far.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warnings.warn("stopped", FitInterruptedWarning)
    >>> issubclass(caught[0].category, RuntimeWarning)
    True
    """


def _stored_start_key(identity: dict, path) -> int:
    """The start graph's key recorded in a checkpoint's identity (``hex``), refused naming the file if unreadable."""
    try:
        return int(identity["start"], 16)
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"Checkpoint {os.fspath(path)!r}, line 1: the identity has no valid 'start'. "
                         f"Got: {identity.get('start')!r}") from None  # fmt: skip


class NonReversibleMCMC(DecomposableCausalGraphMixin, BaseEstimator):
    r"""Bayesian structure learning of decomposable stratified graphs by non-reversible MCMC.

    The state is a decomposable (chordal) undirected graph :math:`G`, always scored with
    its optimal strata :math:`L` (each clique's best maximal regular labelling given the
    edges lying in separators). Each iteration draws pairs of variables uniformly and
    toggles the first whose toggle keeps the graph decomposable (Nyman et al., Algorithm
    2), decided locally from the common neighbours of the pair; the proposal is accepted
    with probability

    .. math::

        \min\left(1, \frac{p(X \mid G^*_L) P(G^*_L)}{p(X \mid G_L) P(G_L)}\right).

    The chain is not reversible, so the posterior is estimated, as in Corander et al.
    (2008), by normalizing the unnormalized posteriors of all distinct graphs visited by
    all chains (a consistent estimator):

    .. math::

        \hat P(G_L \mid X) = \frac{p(X \mid G_L) P(G_L)}{\sum_{G' \in \mathcal{M}_t} p(X \mid G'_L) P(G'_L)}.

    Each toggle changes the score only through the clique it touches, the two cliques
    below it and the cliques sharing an edge with it; scores, separator terms and clique
    labellings are cached.

    The estimator stays valid whatever way the states are visited, since it only
    normalizes exact scores, so by default (``method="informed"``) the chains search
    harder than the paper's uniform proposal, which is trapped on problems with 20 or more
    variables:

    * every chain starts from the best forest under the score (exact: Kruskal's
      algorithm on the single-edge gains, as no clique of a forest carries labels);
    * 80% of the pair draws go to the pairs whose single edge raises the score, 20% are
      uniform over all pairs (every graph stays reachable);
    * every 500th iteration proposes a *relocation* of one node: its edges are removed
      and a greedy climb over the pairs touching it and its former neighbours rebuilds
      them; the result is accepted with the Metropolis-Hastings probability as one move;
    * every :math:`20 d^2`-th iteration (at least 1000), if the chain has found a new best
      graph, it is *polished*: sweeps relocate every node in turn, and sweeps of *clique
      insertions* join every node to two or three of its strongest partners at once
      (the moral family of a v-structure, whose single edges each lower the score);
      when those find nothing, sweeps of *relocating insertions* move a node into a
      triangle with two nodes with which it has a positive three-way interaction (its
      pairs alone barely show it); improvements are kept until no kind helps, and the
      chain jumps to the result if it is better;
    * every 1000th iteration, the parts in which the chain's current graph differs from
      its best graph (connected groups of differing pairs) are tried in the best graph
      one at a time (*recombination*, :func:`~pgmpy_sgm.core.search.recombine`); if that
      raises the best score, the chain jumps to the result. The score is a sum over
      cliques, so a region the walk has improved is kept while the rest of the walk,
      worse elsewhere, is not;
    * beyond 31 variables the relocations, clique insertions and relocating insertions
      climb over *candidate pairs* only (:class:`~pgmpy_sgm.core.candidates.CandidatePairs`):
      from each node they rebuild, the pairs to its ``max(30, 2 sqrt(d))`` strongest partners
      by pair gain, to its neighbours and its neighbours' neighbours in the current graph,
      and the pairs among the nodes rebuilt; and a polish's sweeps visit the nodes near what
      changed since the chain's last polish, then the nodes near what each sweep changed.
      Up to 31 variables every pair is a candidate and every sweep visits every node;
    * with ``n_iter="auto"``, when the chains have settled and agree, the settling check
      (see ``n_iter``) must find nothing better for the run to stop;
    * after the chains end, the chains' best graphs are recombined in the same way, and
      the graphs found join the visited graphs.
    * then the neighbourhoods of the best visited graphs are explored (``explore``): every
      toggle of the best graph not yet expanded is scored, best first, and the graphs
      found join the visited graphs, so that the estimate holds the mass around the mode
      that the chains, drawn to it, rejected.

    ``method="paper"`` runs the paper's algorithm as published (uniform pairs, start from
    the empty graph).

    The search runs on the variables in a canonical order, sorted by column name
    (``str`` of the name, then its type name), so the same data with permuted columns
    and the same seed give the same graphs and scores; the fitted attributes list the
    variables in the data's column order.

    Parameters
    ----------
    scoring_method : "sgm", SGMScore, SGMScoreSettings or None, default=None
        The score, as pgmpy's learners take it: None or ``"sgm"`` the decomposable-SG score
        with the paper's prior, an :class:`~pgmpy_sgm.structure_score.SGMScore` (its
        settings, not its data: the data scored are those given to ``fit``), or an
        :class:`~pgmpy_sgm.structure_score.SGMScoreSettings`: the structure prior,
        :math:`P(G_L) \propto 2^{d - f(G)}` (``"paper"``) or flat (``"uniform"``), or
        ``"held_out"``: the one of those two whose model averages predict held-out rows
        better in 5-fold cross-validation
        (:func:`~pgmpy_sgm.causal_discovery._held_out.choose_by_held_out`; ten extra fits),
        then used for the whole fit, so ``posterior_``, ``model_`` and
        :class:`~pgmpy_sgm.models.ModelAverage` all follow it (``prior_`` is the prior used and
        ``prior_scores_`` the held-out log-likelihood per row of each). The paper's prior
        favours sparse graphs, which on a few hundred rows can cost fit
        (``benchmarks/RESULTS.md``, "Small samples"). Its ``max_labelled_clique`` (default 5):
        larger cliques stay unlabelled.
    n_iter : "auto", int or None, default="auto"
        Iterations per chain (each is one proposal). ``"auto"`` runs until the search has
        stopped improving: every chain's best graph has been polished (``method="informed"``)
        and has stood for ``max(2000, 50 d, best_iteration / 2)`` iterations (``d``
        variables), and the chains' bests lie within 1 log-unit of each other; while they do
        not, the chains go on, each best having to stand twice as long in each new round.
        Chains that agree may still share a sub-optimum, so before the run stops a *settling
        check* (``method="informed"``) recombines the chains' bests and tries, from the best,
        every clique insertion of a node with two of its partners that is blocked as the
        graph stands, removing the cheapest edges in its way
        (:func:`~pgmpy_sgm.causal_discovery._settle_check.settle_check`); if that finds a
        better graph, it is polished, every chain jumps there and the run goes on (the
        check runs for at most 10 seconds or the fit's duration so far). It stops at
        ``max_time`` (600 seconds when not given) at the latest, with a
        :class:`ConvergenceWarning` if the chains had not settled. None runs until
        ``max_time``.
    n_chains : int, default=2
        Independent chains; their visited graphs are pooled.
    strata : bool, default=True
        False learns ordinary decomposable graphical models with the same score and prior.
    method : {"informed", "paper"}, default="informed"
        The search (see above).
    max_time : float, optional
        Wall-clock budget in seconds for the whole fit (all chains and what follows them),
        600 seconds with ``n_iter="auto"`` when not given. The chains stop, even before
        ``n_iter``, when 95% of it is spent (:data:`FINISH_SHARE`; less the exploration's
        share), so that recombining their bests, the final polish, the exploration, the
        re-scoring and the posterior table end within it (when it has run out, ``posterior_``
        gives strata only to the rows holding 99.9% of the mass).
        Results depend on the machine's speed when it is reached.
    start : str, networkx.Graph, StratifiedGraph or list of edges, default="auto"
        Start of every chain (``"auto"``, ``"climbed"``, ``"best_forest"``, ``"empty"``,
        ``"best_gm"`` or a graph): ``"auto"`` is ``"best_forest"`` for ``method="informed"`` and
        ``"empty"`` for ``method="paper"``; the best forest climbed greedily with strata on
        over every pair and swept (:func:`~pgmpy_sgm.core.search.climbed_start_key`:
        every chain then starts at one local optimum, fast but without the diversity of the
        chains' own paths; it stops at half the time budget when there is one, and a
        checkpointed run resumes from the start it recorded); the best forest; the empty
        graph; the result of a deterministic greedy hill climb over decomposable graphs
        without strata; or a decomposable graph over the data's columns (its strata are
        ignored).
    weights : str or array-like, optional
        Name of a count column of ``X`` (it is then not a variable), or one count per row.
    state_names : dict, optional
        ``{variable: [states]}`` as in pgmpy.
    seed : int, optional
        Seed; chain ``c`` uses ``numpy.random.SeedSequence(seed).spawn(n_chains)[c]``, so
        the results do not depend on ``n_jobs`` or on joblib's backend.
    n_jobs : int, default=1
        Chains run in parallel through joblib, on the backend in effect where ``fit`` is
        called (loky unless a ``joblib.parallel_config`` says otherwise): for example
        ``with joblib.parallel_config(backend="dask"): est.fit(X)`` with a
        ``dask.distributed.Client`` connected sends the chains to its workers, as for
        scikit-learn's estimators.
    show_progress : bool, default=True
        Show a progress bar (also needs ``pgmpy.config.SHOW_PROGRESS``). Beside the
        iterations it shows the best score found so far, its age (seconds, and iterations
        summed over the chains, since it was found), the chains' spread (best minus worst
        chain best), each chain's best (up to four chains) and the acceptance rate.
    checkpoint : str, path or Checkpoint, optional
        Checkpoint the run to this file (JSON lines), or as a
        :class:`~pgmpy_sgm.causal_discovery.Checkpoint` sets: every ``every`` iterations
        (default 1000; parallel chains also synchronize this often) or ``seconds`` seconds
        (default 30), whichever comes first, and when the run is interrupted. Each
        checkpoint appends what is new, so checkpointing costs time linear in the run;
        lines are chained by SHA-256 digests. An existing file is never overwritten: a new
        run refuses it unless ``Checkpoint(path, resume=True)``, which continues the run it
        stores, with a result identical to an uninterrupted run with the same seed. The
        checkpoint is verified first: its digests, every field, the decomposability and
        exact scores of the chains' graphs and of the top visited graphs, and its identity
        (a fingerprint of the data, the seed and the settings): a checkpoint of another run
        is refused with the reason.
    missing : {"error", "complete_cases", "em", "state"} or EMOptions, default="error"
        What to do with missing cells (NaN, None, ``pd.NA``, empty strings): refuse them with
        an error naming every column with gaps; drop the incomplete rows (with a
        :class:`~pgmpy_sgm.core.missing.MissingValuesWarning`); learn by structural EM
        (:class:`~pgmpy_sgm.core.missing.EMOptions` sets its iterations, tolerance and
        completion limits); or treat missing as a state named ``"missing"``. Structural EM
        starts from the DAG climbed on the penalised node-average likelihood of the available
        cases (every family scored on the rows where all of it is observed;
        ``EMOptions(start=)`` chooses another start, and ``"best"`` runs EM from each of three
        and keeps the run with the best observed-data criterion; a ``ConvergenceWarning``
        counts the searches that ran to their time limit before their chains settled); each
        E-step completes every incomplete row by the current model's posterior (by
        enumeration up to 131,072 completions, by Gibbs draws beyond; each row keeps at most
        ``EMOptions.max_kept`` of its most probable completions, the rest of its posterior
        carried by ``n_tail_draws`` draws from it, see ``n_completed_capped_``), giving a
        table of expected counts; an M-step
        runs the chains on it, warm-started from the current graph, and re-estimates the
        parameters (Bayesian, as :meth:`~pgmpy_sgm.models.StratifiedGraphicalModel.fit`), or,
        between such searches, only re-estimates the current graph's parameters, until the
        expected score settles (``em_history_["step"]``); the result is the search with the
        best observed-data criterion (see
        :func:`~pgmpy_sgm.causal_discovery._structural_em.structural_em`).
        With ``"em"``, ``max_time`` bounds the whole fit, the fitted attributes
        (``posterior_``, ``edge_probabilities_``, ``convergence_``, ...) refer to the chosen
        search's completed table, and ``checkpoint`` is not available. Data without
        missing cells give the same result under every choice.
    return_type : {"pdag", "cpdag", "dag"}, default="pdag"
        Form of ``causal_graph_``, as in pgmpy's structure learners: ``"pdag"`` and
        ``"cpdag"`` (the same here, as in pgmpy's ``PC``) give the Markov equivalence class
        of the best graph, ``"dag"`` one perfect orientation.
    explore : float, default=0.02
        With ``method="informed"``, after the chains end, the graphs one toggle away from
        the best visited graphs are scored, the best graph not yet expanded first, and
        those within 20 log-units of the best join the visited graphs (the chains, drawn to
        the mode, reject most such neighbours, whose mass the estimate would otherwise
        miss). At most ``explore`` times the chains' total iterations toggles are scored.
        With a time budget (``max_time``, or the 600 s cap of ``n_iter="auto"``) the chains
        stop at the latest when ``1 - min(0.5, 15 / d**2)`` of it is spent (``d``
        variables: 42% of the budget is left to the exploration at 6 variables, 2.4% at
        25, 0.15% at 100); when they stop there, the exploration runs until ``max_time``
        (its toggles then unbounded), otherwise within its toggles and ``max_time``. Unless
        time stops it, the exploration is deterministic, so seeded results do not depend on
        ``n_jobs`` or checkpoints; 0 turns it off.
    prior, max_labelled_clique : deprecated
        The score's settings as keywords (before version 0.3). They still work, with a
        ``FutureWarning``, until version 0.4: pass
        ``scoring_method=SGMScoreSettings(prior=..., max_labelled_clique=...)`` instead.
    backend : deprecated
        A joblib backend name (before version 0.3). It still works, with a ``FutureWarning``,
        until version 0.4: call ``fit`` inside ``joblib.parallel_config(backend=...)`` instead.
    resume, checkpoint_every, checkpoint_seconds : deprecated
        The earlier form of ``checkpoint=Checkpoint(path, resume=..., every=..., seconds=...)``;
        still honoured, with a ``FutureWarning``, and to be removed in version 0.4.

    Attributes
    ----------
    convergence_ : pandas.DataFrame
        One row per chain, saying whether the chains found the same mode and explored the
        same graphs: ``best_score`` (the log unnormalized posterior of the best graph the
        chain visited, with the default labellings), ``gap`` (how far it lies below the best
        chain's), ``best_iteration`` (when the chain first reached it), ``n_iter``
        (iterations run; ``n_iter - best_iteration`` is how long the best has stood) and
        ``max_edge_probability_difference`` (the largest difference, over all pairs, between
        the edge probabilities estimated from the graphs this chain visited alone and the
        pooled ones). ``convergence_.attrs`` holds ``spread`` (best minus worst chain best:
        the quantity the :class:`ConvergenceWarning` watches) and
        ``max_edge_probability_difference`` (the largest difference between two chains'
        probabilities of one edge). The edge-probability differences measure whether the
        chains' visited sets agree, not the posterior's accuracy: chains that agree on the
        mode can visit different neighbourhoods of it, so they can be large while the
        spread is 0. Graphs found by the settling check count as
        visited by every chain. Agreeing chains are no proof of a mode: a
        :class:`ConvergenceWarning` is issued when the spread exceeds 2 log-units, when a
        final polish of the best graph still improves it, and when ``n_iter="auto"`` ran
        out of time before the chains settled (see ``stop_reason_``); without one, the
        best graph also survived the polish and, with ``n_iter="auto"``, the settling check.
    prior_ : str
        The structure prior used: the score's, or with ``prior="held_out"`` the one chosen.
    prior_scores_ : dict or None
        With ``prior="held_out"``: ``{prior: held-out log-likelihood per row}``; else None.
    model_ : StratifiedGraph
        The best stratified graph visited, with the data's state names.
    best_score_ : float
        Its log unnormalized posterior.
    posterior_ : pandas.DataFrame
        One row per distinct visited graph (pooled over chains) within
        ``POSTERIOR_MARGIN`` = 50 log-units of the best, sorted by ``log_posterior``
        (descending): ``edges`` (tuple of ``(u, v)``), ``strata`` (as
        :attr:`StratifiedGraph.strata`), ``log_posterior``, ``probability`` (normalized
        over all the visited graphs), ``n_edges``, ``n_labels``. A graph left out has less
        than ``e**-50`` (2e-22) of the best graph's probability; such graphs still count in
        ``probability``'s normalisation and in ``edge_probabilities_`` (``n_visited_``
        counts them too). At a hundred variables and more, most visited graphs lie that
        far below the best, and their rows were most of the fit's memory. ``strata`` and ``n_labels``
        are filled for the top rows holding 99.9% of the mass (at least 100, at most
        1000 rows; without the 100-row minimum when ``max_time`` has run out) and are
        None/<NA> below. Scores (here, in ``best_score_`` and
        ``chain_best_scores_``) are :meth:`SGMScore.score
        <pgmpy_sgm.structure_score.SGMScore.score>` of the graph with its
        :meth:`~pgmpy_sgm.structure_score.SGMScore.optimal_strata`: the chains move on the
        cheaper labellings of ``optimal_groups(method="fast")`` (equal to the default ones
        up to 16 parent configurations, at most those beyond), and every visited graph is
        re-scored with the default labellings before the results are formed.
    edge_probabilities_ : pandas.DataFrame of shape (n_variables, n_variables)
        Posterior probability of each edge (symmetric, diagonal 0).
    trace_ : numpy.ndarray of shape (n_chains, ``n_iter_`` + 1)
        Log unnormalized posterior of the current state, from the start state on (NaN
        after the last iteration of a chain that stopped before the longest one: it
        settled, or was interrupted), with the chains' labellings (``method="fast"``, see
        ``posterior_``): below the reported score where a clique's center has more than 16
        parent configurations and the fast labelling falls short.
    chain_best_scores_ : numpy.ndarray of shape (n_chains,)
    chain_best_iterations_ : numpy.ndarray of shape (n_chains,)
        Iteration at which each chain first reached its best graph.
    n_visited_ : int
        Distinct graphs visited (pooled), those left out of ``posterior_`` included.
    acceptance_rate_ : float
        Accepted proposals over iterations, pooled over chains.
    n_iter_ : int
        Iterations run by the longest chain (less than ``n_iter`` after an interruption
        or when ``max_time`` ran out).
    stop_reason_ : {"settled", "n_iter", "max_time", "interrupted"}
        Why the fit stopped: every chain settled, the chains agreed and the settling check
        found nothing better (``n_iter="auto"``), the chains ran ``n_iter`` iterations, the
        time ran out, or the fit was interrupted. A settling check that ran out of its own
        time limit without finding anything gives a :class:`ConvergenceWarning`.
        When the chains stopped without settling, the best graph found is polished once
        more (within the time left, at least 10 s); if that raises it, the polished graph is
        ``model_`` and a :class:`ConvergenceWarning` says by how much.
    causal_graph_ : pgmpy.base.PDAG or pgmpy.base.DAG
        The Markov equivalence class of the best graph (``model_`` without strata): a
        ``PDAG`` with every edge undirected; with ``return_type="dag"`` one perfect
        orientation (a ``DAG`` without immoralities, same independencies).
    adjacency_matrix_ : pandas.DataFrame of shape (n_variables, n_variables)
        Adjacency of ``causal_graph_`` (symmetric for the PDAG), 0/1 integers.
    scorer_ : SGMScore
    variables_ : list of str
    n_features_in_ : int
    feature_names_in_ : numpy.ndarray of str

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> est = NonReversibleMCMC(n_iter=200, seed=0, weights="count", show_progress=False)
    >>> est = est.fit(load_heart_disease(as_counts=True))
    >>> round(est.best_score_, 2)
    -6715.9
    >>> [str(s) for s in est.model_.independencies()]
    ['smoking ⟂ systolic_bp | lipoprotein_ratio=1', 'systolic_bp ⟂ lipoprotein_ratio | smoking=0']
    >>> est.trace_.shape
    (2, 201)
    >>> float(est.convergence_.attrs["spread"])
    0.0

    References
    ----------
    .. [1] H. Nyman, J. Pensar, T. Koski and J. Corander. Stratified graphical models:
       context-specific independence in graphical models. Bayesian Analysis 9(4), 2014.
    .. [2] J. Corander, M. Ekdahl and T. Koski. Parallel interacting MCMC for learning of
       topologies of graphical models. Data Mining and Knowledge Discovery 17, 2008.
    """

    def __init__(
        self,
        scoring_method=None,
        n_iter="auto",
        n_chains=2,
        strata=True,
        method="informed",
        max_time=None,
        start="auto",
        weights=None,
        state_names=None,
        seed=None,
        n_jobs=1,
        show_progress=True,
        checkpoint=None,
        return_type="pdag",
        missing="error",
        explore=0.02,
        prior="deprecated",
        max_labelled_clique="deprecated",
        backend="deprecated",
        resume="deprecated",
        checkpoint_every="deprecated",
        checkpoint_seconds="deprecated",
    ):
        self.scoring_method = scoring_method
        self.n_iter = n_iter
        self.n_chains = n_chains
        self.strata = strata
        self.method = method
        self.max_time = max_time
        self.start = start
        self.weights = weights
        self.state_names = state_names
        self.seed = seed
        self.n_jobs = n_jobs
        self.show_progress = show_progress
        self.checkpoint = checkpoint
        self.return_type = return_type
        self.missing = missing
        self.explore = explore
        self.prior = prior
        self.max_labelled_clique = max_labelled_clique
        self.backend = backend
        self.resume = resume
        self.checkpoint_every = checkpoint_every
        self.checkpoint_seconds = checkpoint_seconds

    # -- validation ------------------------------------------------------------------
    def _check_fit_data(self, X):
        if isinstance(X, pd.DataFrame):  # clear messages naming the column before sklearn's generic ones
            check_frame(X, self.weights if isinstance(self.weights, str) else None)
        n_samples, n_features = X.shape
        if n_features == 0:
            raise ValueError(f"0 feature(s) (shape={X.shape}) while a minimum of 1 is required.")
        if n_samples < 2:
            raise ValueError(f"n_samples = {n_samples}, at least 2 are required.")
        check_features(self, X, reset=True)
        if not isinstance(X, pd.DataFrame):
            X = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        self.n_features_in_ = len(X.columns)
        return X

    _scoring = _SCORING

    _parameter_constraints = {
        "n_iter": Constraint("'auto', an integer >= 1 or None",
                             lambda v: v is None or v == "auto" or integer(1).accepts(v)),
        "n_chains": integer(1),
        "strata": boolean(),
        "method": one_of(*_METHODS),
        "max_time": seconds(),
        "state_names": state_names(),
        "scoring_method": _SCORING.constraint(),
        "seed": seed(),
        "n_jobs": n_jobs(),
        "show_progress": boolean(),
        "checkpoint": Constraint("a file path, a Checkpoint or None",
                                 lambda v: v is None or isinstance(v, str | os.PathLike | Checkpoint), TypeError),
        "return_type": RETURN_TYPE,
        "explore": number(0.0, strict=False),
    }

    def _check_params(self) -> None:
        """Check every parameter (:data:`_parameter_constraints`, then the backend and ``n_iter=None``)."""
        super()._check_params()
        self._settings = self._scoring.settings(self)
        self._backend = check_backend(given_legacy(self, ["backend"]).get("backend"))
        if self._backend is not None:
            warnings.warn(f"NonReversibleMCMC(backend={self._backend!r}) is deprecated: call fit inside "
                          f"joblib.parallel_config(backend={self._backend!r}).", FutureWarning,
                          stacklevel=4)  # fmt: skip
        if self.n_iter is None and self.max_time is None:
            raise ValueError("n_iter=None needs a time budget: set max_time (seconds). Got: max_time=None")
        legacy = given_legacy(self, LEGACY_KEYWORDS)
        self._checkpoint_settings = checkpoint_or_none(checkpoint_setting(self.checkpoint, legacy)) or Checkpoint()

    def _resolved_copy(self) -> NonReversibleMCMC:
        """An unfitted copy of this learner with its score settings in ``scoring_method`` (no deprecated keyword)."""
        return self._scoring.resolved_copy(self, self._settings)

    def _run_sizes(self) -> tuple[int | None, int, int]:
        """``n_iter`` (None for ``"auto"`` or a time budget), ``n_chains``, iterations between synchronizations."""
        n_iter = None if self.n_iter in (None, "auto") else int(self.n_iter)
        return n_iter, int(self.n_chains), self._checkpoint().every

    def _checkpoint(self) -> Checkpoint:
        """The checkpoint settings (a path stands for one with default settings; None for no file)."""
        return self._checkpoint_settings

    def _named_start(self) -> str | None:
        """The named start the chains use (``"auto"`` resolved), or None for a graph given by the user."""
        start = self.start
        if not isinstance(start, str):
            return None
        if start not in _STARTS:
            raise ValueError(f"start must be one of {_STARTS}, a graph or a list of edges. Got: {start!r}")
        if start != "auto":
            return start
        return "best_forest" if self.method == "informed" else "empty"

    def _start_key(self, tables: ScoreEngine, gains: np.ndarray | None, deadline: float | None = None) -> int:
        start = self._named_start() if isinstance(self.start, str) else self.start
        if isinstance(start, str):
            if start == "climbed":
                candidates = CandidatePairs(tables.pairs, tables.n, gains)
                return climbed_start_key(tables, gains, bool(self.strata), deadline, candidates)
            if start == "best_forest":
                return best_forest_key(tables, gains)
            return 0 if start == "empty" else greedy_decomposable(tables)
        if isinstance(start, nx.DiGraph):
            raise TypeError(f"start must be an undirected graph. Got: {type(start).__name__}")
        if isinstance(start, StratifiedGraph | nx.Graph):
            edges = list(start.edges())
            nodes = list(start.nodes())
        else:
            try:
                edges = [tuple(e) for e in start]
            except TypeError:
                msg = f"start must be one of {_STARTS}, a graph or a list of edges. Got: {start!r}"
                raise TypeError(msg) from None
            if any(len(e) != 2 for e in edges):
                raise ValueError(f"start must be a list of (u, v) edges. Got: {start!r}")
            nodes = [v for e in edges for v in e]
        index = {v: i for i, v in enumerate(tables.variables)}
        unknown = [v for v in nodes if v not in index]
        if unknown:
            raise ValueError(f"start has node(s) that are not variables of the data {tables.variables}. Got: {unknown}")
        adj = [0] * tables.n
        for u, v in edges:
            i, j = index[u], index[v]
            if i == j:
                raise ValueError(f"start has a self-loop. Got: {(u, v)!r}")
            adj[i] |= 1 << j
            adj[j] |= 1 << i
        key = tables.key(edges)
        if chordal_families(adj) is None:
            raise ValueError(f"start must be decomposable (chordal). Got a graph with edges {edges}")
        return key

    # -- fitting ----------------------------------------------------------------------
    def _fit_by_held_out(self, X):
        """With ``prior="held_out"``, the fit under the prior chosen by held-out fit; else None."""
        grid = self._settings.prior_grid
        if grid is None:
            self.prior_, self.prior_scores_ = self._settings.prior, None
            return None
        base = self._resolved_copy()
        options = [self._settings.fixed(prior) for prior in grid]
        choice = choose_by_held_out(base, rows_of(X, self.weights), "scoring_method", options, self.seed)
        adopt_fitted(self, base.set_params(scoring_method=choice.best).fit(X))  # sets prior_ too
        self.prior_scores_ = {option.prior: value for option, value in choice.scores.items()}
        return self

    def _fit(self, X, weights):
        """Run the chains on complete data (see :meth:`fit`) and set the fitted attributes.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> est = NonReversibleMCMC(n_iter=300, strata=False, seed=0, show_progress=False)
        >>> round(est.fit(load_heart_disease()).best_score_, 2)
        -6720.18
        """
        X = self._check_fit_data(X)
        columns = list(X.columns)
        X = X[canonical_order(columns)]  # fit in the canonical order, report in column order (see class notes)
        n_iter, n_chains, every = self._run_sizes()
        t_start = self._started_at
        strata = bool(self.strata)
        scorer = self._settings.score(X, weights=weights, state_names=self.state_names)
        tables = scorer.engine
        tables.label_method = SEARCH_LABEL_METHOD  # the chains move on the cheaper labellings
        data = ChainData.from_scorer(scorer)
        informed = self.method == "informed"
        named_start = self._named_start()
        gains = pair_gains(tables) if informed or named_start in ("best_forest", "climbed") else None
        self._run_log = RunLog(self._checkpoint())
        resumed = self._run_log.stored_identity()
        climb_deadline = self._budget_point(t_start, CLIMB_SHARE)
        if resumed is not None and named_start is not None:  # a climbed start cut short by the budget would differ
            start_key = _stored_start_key(resumed, self._checkpoint().path)
        else:
            start_key = self._start_key(tables, gains, climb_deadline)
        plan = self._plan(tables, gains, strata, t_start)
        run = self._load_or_start(data, tables, n_chains, n_iter, strata, start_key, plan, named_start)
        if named_start == "climbed" and (climb_deadline is None or time.time() < climb_deadline):
            for state in run.chains:  # a completed climbed start is already swept
                if state.iteration == 0:
                    state.polished_key = start_key
        self._settle_check_cut_short = False
        try:
            interrupted = self._run(data, run, n_iter, every, plan, t_start)
            polish_gain = 0.0
            if informed and not interrupted:
                visit_starts(data, run, strata)
                recombine_chains(tables, run, strata, self._budget_point(t_start, 1.0 - FINISH_SHARE / 2))
                polish_gain = self._final_polish(tables, run, plan, t_start)
                explore_run(tables, run, strata, self._explore_budget(run, plan),
                            self._budget_point(t_start, 1.0 - FINISH_SHARE))  # fmt: skip
            self._set_results(data, scorer, run, strata, self._budget_point(t_start, 1.0))
        finally:
            tables.label_method = "auto"
            release(data)
        self.stop_reason_ = self._stop_reason(run, interrupted, plan)
        in_column_order(self, columns)
        self._set_causal_graph(self.model_, self.variables_, canonical_order(self.variables_))
        self._warn_after_run(interrupted, n_iter, polish_gain)
        return self

    def _warn_after_run(self, interrupted: bool, n_iter: int | None, polish_gain: float) -> None:
        """Warn when the fit was interrupted, or the chains disagree, or a last polish still gained."""
        if interrupted:
            warnings.warn(
                f"Fitting was interrupted after {self.n_iter_} of {n_iter} iterations per chain; the fitted "
                "attributes hold the graphs visited so far"
                + (" (checkpoint written)." if self._checkpoint().path else "."),
                FitInterruptedWarning,
                stacklevel=4,
            )
        if not warn_if_unconverged(self.convergence_, stacklevel=4):
            self._warn_unsettled(polish_gain)

    def _fit_em(self, X: pd.DataFrame, weights) -> NonReversibleMCMC:
        """Structural EM (see ``missing``): M-steps are fits of a copy of this estimator on completed tables."""
        if self._checkpoint().path is not None:
            raise ValueError("checkpoint is not available with missing='em'; pass checkpoint=None. "
                             f"Got: {self.checkpoint!r}")  # fmt: skip
        variables = [c for c in X.columns if not (isinstance(weights, str) and c == weights)]
        cells = missing_cells(X, variables)
        table = IncompleteTable.from_frame(X, weights, self.state_names)
        deadline = self._fit_deadline()
        options = em_options(self.missing).for_learner("pnal")
        self._em_searches, self._em_searches_cut = 0, 0
        bar = self._em_bar(options.most_iterations)
        try:
            report = None if bar is None else functools.partial(_em_progress, bar)
            m_step = functools.partial(self._m_step, table, deadline)
            refit = functools.partial(self._parameter_step, table)
            result = structural_em(table, m_step, options, self.seed, report, refit)
        finally:
            if bar is not None:
                bar.close()
        adopt_em_result(self, result, cells)
        if self._em_searches_cut:
            warnings.warn(
                f"{self._em_searches_cut} of EM's {self._em_searches} structure searches ran to their time limit "
                f"({'max_time' if self.max_time is not None else f'{DEFAULT_MAX_TIME:g} s with n_iter=auto'}) before "
                "their chains settled, which makes EM slow and may leave a search short of its mode; em_history_ "
                "gives each step's seconds. Bound the fit with max_time, or try another EMOptions(start=).",
                ConvergenceWarning, stacklevel=3)  # fmt: skip
        if not warn_if_unconverged(self.convergence_, stacklevel=3):
            self._warn_unsettled(0.0)
        return self

    def _m_step(self, table, deadline, completed, previous):
        """One M-step of structural EM: a fit of a copy of this estimator on a completed table."""
        params = {"missing": "error", "weights": completed.counts, "state_names": table.state_names,
                  "show_progress": False}  # fmt: skip
        if previous is not None:
            params["start"] = previous.estimator.model_
        if deadline is not None:
            params["max_time"] = max(deadline - time.time(), 1.0)
        step = self._resolved_copy().set_params(**params)
        with warnings.catch_warnings():  # the last step's convergence is reported once, by the caller
            warnings.simplefilter("ignore", ConvergenceWarning)
            step.fit(completed.frame)
        self._em_searches += 1
        self._em_searches_cut += step.stop_reason_ == "max_time" and step.n_iter == "auto"
        model = StratifiedGraphicalModel(step.model_).fit(
            completed.frame, sample_weight=completed.counts, state_names=table.state_names
        )
        log_probability = model.log_probability_function(table.variables, table.state_names)
        return MStepResult(step, _structure(step.model_), float(step.best_score_), log_probability)

    def _parameter_step(self, table, completed, previous):
        """A parameter step of structural EM: the previous graph and strata, scored and fitted on ``completed``."""
        sg = previous.estimator.model_
        scorer = self._settings.score(completed.frame, weights=completed.counts, state_names=table.state_names)
        model = StratifiedGraphicalModel(sg).fit(completed.frame, sample_weight=completed.counts,
                                                 state_names=table.state_names)  # fmt: skip
        log_probability = model.log_probability_function(table.variables, table.state_names)
        return MStepResult(previous.estimator, previous.structure, float(scorer.score(sg)), log_probability)

    def _em_bar(self, total: int):
        if not (self.show_progress and config.SHOW_PROGRESS):
            return None
        return tqdm(total=total, desc="NonReversibleMCMC (structural EM)")

    def _plan(self, tables: ScoreEngine, gains, strata: bool, t_start: float) -> SearchPlan:
        """What every chain does: proposals, polishes, grafts, when to settle, the deadline."""
        informed = self.method == "informed"
        auto = self.n_iter == "auto"
        n = tables.n
        return SearchPlan(
            strata=strata,
            pair_cdf=tuple(np.cumsum(pair_proposal_weights(gains)).tolist()) if informed else None,
            relocate_every=RELOCATE_EVERY if informed else 0,
            polish_every=max(POLISH_MIN, POLISH_PER_PAIR * n * n) if informed else 0,
            deadline=self._budget_point(t_start, 1.0 - self._explore_time_share(n) - FINISH_SHARE),
            owner_pid=os.getpid(),
            clique_partners=clique_partners(tables, gains) if informed else None,
            graft_every=GRAFT_EVERY if informed else 0,
            relocating_insertions=informed,
            polish_after=max(POLISH_MIN, POLISH_AFTER_PER_NODE * n) if informed else 0,
            settle_age=max(SETTLE_MIN, SETTLE_PER_NODE * n) if auto else 0,
            settle_ratio=SETTLE_RATIO if auto else 0.0,
            candidates=CandidatePairs(tables.pairs, n, gains) if informed else None,
        )

    def _explore_time_share(self, n: int) -> float:
        """The share of a time budget left to the exploration (see ``explore``; 0 with ``method="paper"``)."""
        if self.method != "informed" or not self.explore:
            return 0.0
        return min(EXPLORE_TIME_SHARE, EXPLORE_TIME_PAIRS / (n * n))

    def _explore_budget(self, run: RunState, plan: SearchPlan) -> float:
        """Toggles per chain iteration for the exploration: ``explore``; unbounded when the time stopped the chains."""
        if self.explore and plan.deadline is not None and time.time() >= plan.deadline:
            return math.inf  # the run already depends on the machine's speed: the exploration takes its share of time
        return float(self.explore)

    def _budget_point(self, t_start: float, share: float) -> float | None:
        """The ``time.time()`` at which ``share`` of the fit's time budget is spent (None: no budget).

        The budget is ``max_time``, or :data:`DEFAULT_MAX_TIME` with ``n_iter="auto"``.
        """
        auto = self.n_iter == "auto"
        max_time = DEFAULT_MAX_TIME if auto and self.max_time is None else self.max_time
        return None if max_time is None else t_start + float(max_time) * share

    @staticmethod
    def _next_settle_round(chains: list[ChainState], plan: SearchPlan) -> bool:
        """When every chain has settled but their bests disagree, start another round (returns whether it did)."""
        if not plan.settle_age or not all(state.settled for state in chains):
            return False
        bests = [state.best_score for state in chains]
        if max(bests) - min(bests) <= SETTLE_SPREAD:
            return False
        for state in chains:
            state.settled = False
            state.settle_round += 1
        return True

    def _failed_settle_check(self, tables: ScoreEngine, run: RunState, plan: SearchPlan, t_start: float,
                             bar) -> bool:  # fmt: skip
        """When the chains have settled and agree, whether the settling check beats their best (they then go on).

        See :func:`~pgmpy_sgm.causal_discovery._settle_check.settle_check`; it runs for at most
        ``max(SETTLE_CHECK_SECONDS, time spent so far)`` within the run's deadline. A check that
        finds nothing but ran into that limit is remembered, for a :class:`ConvergenceWarning`.
        """
        if not plan.settle_age or plan.clique_partners is None or not all(state.settled for state in run.chains):
            return False
        now = time.time()
        deadline = now + max(SETTLE_CHECK_SECONDS, now - t_start)
        if plan.deadline is not None:
            deadline = min(deadline, plan.deadline)
        better = settle_check(tables, run, plan, deadline)
        self._settle_check_cut_short = better is None and time.time() >= deadline
        if better is None:
            return False
        adopt_check(run, better)
        if bar is not None:
            bar.jump(better.score)
        return True

    def _final_polish(self, tables: ScoreEngine, run: RunState, plan: SearchPlan, t_start: float) -> float:
        """Polish the best visited graph if no chain did; returns the gain (the graphs found join the visited)."""
        if not run.visited:  # the time budget ran out before the first segment
            return 0.0
        best_key = next(run.visited.sorted_keys(reverse=True))  # the first visited of the best
        if any(state.polished_key == best_key for state in run.chains):
            return 0.0
        now = time.time()
        deadline = now + max(FINAL_POLISH_SECONDS, now - t_start)
        if plan.deadline is not None:
            deadline = min(deadline, self._budget_point(t_start, 1.0 - FINISH_SHARE / 2))
        found: dict[int, float] = {}
        start = DecomposableState(tables, best_key, plan.strata)
        triples = functools.partial(cached_triple_partners, tables)
        polished = polish(start, plan.clique_partners, deadline, found, triples, plan.candidates)
        for key, score in found.items():
            if key not in run.visited:
                run.visited[key] = score
                run.seen_by[key] = 0
        return max(0.0, polished.score - start.score)

    def _stop_reason(self, run: RunState, interrupted: bool, plan: SearchPlan) -> str:
        if interrupted:
            return "interrupted"
        if plan.settle_age and all(state.settled for state in run.chains):
            return "settled"
        if self.n_iter not in (None, "auto") and all(s.iteration >= self.n_iter for s in run.chains):
            return "n_iter"
        return "max_time"

    def _warn_unsettled(self, polish_gain: float) -> None:
        """A ConvergenceWarning when the search stopped before it had settled (and the spread did not warn)."""
        if polish_gain > 1e-6:
            message = (
                f"A polish of the best graph the chains found raised it by {polish_gain:.2f} log-units: the chains "
                "stopped before reaching a mode (best_score_ includes the polished graph). Give the search more "
                'time (n_iter="auto", max_time or a larger n_iter).'
            )
        elif self.stop_reason_ == "settled" and getattr(self, "_settle_check_cut_short", False):
            message = (
                "The chains settled and agree, but the settling check ran out of its time before it had tried "
                "every insertion: the agreed best graph may still be improvable. Give the search more time "
                "(max_time) or check the result with another seed."
            )
        elif self.stop_reason_ == "max_time" and self.n_iter == "auto":
            message = (
                f"The search stopped at the time limit ({self.max_time or DEFAULT_MAX_TIME:g} s) before the chains "
                "settled (their bests still improving or not yet polished). Give it more time (max_time)."
            )
        else:
            return
        warnings.warn(message, ConvergenceWarning, stacklevel=5)

    def _identity(self, data, n_chains, strata, start_key, plan: SearchPlan, named_start: str | None) -> dict:
        return {
            "fingerprint": data.fingerprint,
            "n_chains": n_chains,
            "strata": strata,
            "method": self.method,
            "start": hex(start_key),
            "start_setting": "graph" if named_start is None else named_start,
            "relocate_every": plan.relocate_every,
            "graft_every": plan.graft_every,
            "relocating_insertions": plan.relocating_insertions,
        }

    def _load_or_start(self, data, tables, n_chains, n_iter, strata, start_key, plan, named_start) -> RunState:
        """The run to continue from the checkpoint, or a new one (see :class:`RunLog`)."""
        identity = self._identity(data, n_chains, strata, start_key, plan, named_start)
        return self._run_log.load_or_start(identity, self.seed, tables, n_iter, strata, start_key)

    def _save(self, run: RunState) -> None:
        self._run_log.save(run)

    def _run(self, data, run, n_iter, every, plan: SearchPlan, t_start: float) -> bool:
        """Run the chains in segments until they are done, settled, out of time or interrupted (returned)."""
        sequential = self._backend is None and joblib.effective_n_jobs(self.n_jobs) == 1
        # Parallel chains meet after every segment (results do not depend on where segments end).
        # Without a checkpoint, segments grow to about SEGMENT_SECONDS of work, so that an
        # interruption loses little while synchronization costs stay small.
        checkpoint = self._checkpoint()
        adaptive = not sequential and checkpoint.path is None
        chunk = every if checkpoint.path is not None or adaptive else None
        stop_seconds = None if checkpoint.path is None else float(checkpoint.seconds)
        show = bool(self.show_progress and config.SHOW_PROGRESS)
        bar = ChainProgress(run.chains, n_iter, "NonReversibleMCMC") if show else None
        interrupted, known = False, {}  # clique labellings shared between worker processes (same data: same values)
        try:
            while not interrupted:
                todo = [s for s in run.chains if remaining(s, n_iter) > 0 and not s.settled]
                if not todo and self._next_settle_round(run.chains, plan):
                    continue
                if not todo and self._failed_settle_check(data.engine, run, plan, t_start, bar):
                    self._save(run)
                    continue
                if not todo or (plan.deadline is not None and time.time() >= plan.deadline):
                    break
                steps = segment_steps(todo, n_iter, chunk, aligned=not adaptive)
                if sequential:
                    results = sequential_segments(data, todo, steps, plan, bar, stop_seconds)
                else:
                    tic = time.perf_counter()
                    results = parallel_segments(data, todo, steps, plan, known, stop_seconds, self.n_jobs,
                                                self._backend)  # fmt: skip
                    if adaptive:
                        chunk = adapted_chunk(every, time.perf_counter() - tic, results, todo)
                known, interrupted = merge_segments(data, run, results, None if sequential else bar)
                self._save(run)
        except KeyboardInterrupt:
            interrupted = True
            self._save(run)
        finally:
            if bar is not None:
                bar.close()
        return interrupted

    def _set_results(self, data: ChainData, scorer, run, strata, deadline: float | None = None) -> None:
        """The fitted attributes of a finished run (:func:`~pgmpy_sgm.causal_discovery._run_results.run_results`)."""
        for name, value in run_results(data, scorer, run, strata, deadline).items():
            setattr(self, name, value)

    # -- scoring ------------------------------------------------------------------------
    def predict_log_likelihood(self, X, per_row: bool = True, mass: float = 0.99, max_models: int = 50):
        r"""Posterior-averaged log-likelihood of rows: :math:`\log \sum_m w_m\, p_m(x)`.

        The models are the top graphs of ``posterior_`` holding ``mass`` of the estimated
        posterior (at most ``max_models``), with renormalized weights, each with its optimal
        strata and Bayesian parameters fitted on the training data (kept, pooled, in
        ``scorer_``); see :class:`~pgmpy_sgm.models.ModelAverage`.

        Parameters
        ----------
        X : pandas.DataFrame
            Rows over the fitted variables (e.g. held-out data); missing cells of a row are
            summed out (the probability of its observed part).
        per_row : bool, default=True
            Return one value per row; otherwise their sum.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> data = load_heart_disease()
        >>> est = NonReversibleMCMC(n_iter=300, seed=0, show_progress=False).fit(data)
        >>> round(float(est.predict_log_likelihood(data).mean()), 3)
        -3.624
        """
        check_is_fitted(self, "posterior_")
        frame, counts = self.scorer_.encoded.to_frame()
        average = ModelAverage.from_estimator(self, frame, mass=mass, max_models=max_models, weights=counts)
        return average.log_likelihood(X, per_row=per_row)

    def _score_data(self, X) -> float:
        """Log unnormalized posterior of ``model_`` on ``X`` (same columns and states as the fit): ``score(X)``.

        The strata are kept as fitted (see ``CausalDiscoveryMixin`` in
        ``causal_discovery/_base.py`` for the meaning shared with ``LDAGSearch``). Array
        ``weights`` apply to the fitted data only; a weight column named by ``weights`` is
        used when ``X`` has it.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> data = load_heart_disease()
        >>> est = NonReversibleMCMC(n_iter=200, seed=0, show_progress=False).fit(data)
        >>> round(est.score(data), 2)
        -6715.9
        """
        check_features(self, X, reset=False)
        if not isinstance(X, pd.DataFrame):
            X = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
        weights = self.weights if isinstance(self.weights, str) else None
        states = {v: list(s) for v, s in self.scorer_.state_names.items()}
        scorer = self._settings.score(X, prior=self.prior_, weights=weights, state_names=states)
        return float(scorer.score(self.model_))
