"""Learning labelled DAGs: tabu hill climbs from an equivalence-class start and the empty graph, then restarts."""

from __future__ import annotations

import dataclasses
import functools
import math
import time
import warnings

import joblib
import networkx as nx
import numpy as np
import pandas as pd
from pgmpy import config
from pgmpy.base import DAG
from sklearn.base import BaseEstimator
from tqdm.auto import tqdm

from pgmpy_sgm.causal_discovery._base import RETURN_TYPE, CausalDiscoveryMixin, check_features
from pgmpy_sgm.causal_discovery._candidates import (
    SCREEN_ABOVE,
    candidate_limit,
    screened_candidates,
    widened_candidates,
)
from pgmpy_sgm.causal_discovery._dag_chain import dag_chain, visited_posterior
from pgmpy_sgm.causal_discovery._dag_moves import (
    climb_dag,
    climb_memory,
    mask_fits,
    name_fits,
    parent_masks,
    perturb,
    turn_candidates,
    turn_edges,
)
from pgmpy_sgm.causal_discovery._equivalence_search import greedy_equivalence_search
from pgmpy_sgm.causal_discovery._held_out import choose_by_held_out, rows_of
from pgmpy_sgm.causal_discovery._iterated_climb import RestartPlan, iterated_climb, turn_sweeps
from pgmpy_sgm.causal_discovery._order import canonical_order
from pgmpy_sgm.causal_discovery._parameters import (
    Constraint,
    boolean,
    integer,
    n_jobs,
    number,
    seconds,
    seed,
    state_names,
)
from pgmpy_sgm.causal_discovery._scoring_method import ScoringMethod
from pgmpy_sgm.causal_discovery._structural_em import (
    EMResult,
    MStepResult,
    adopt_em_result,
    adopt_fitted,
    missing_input,
    structural_em,
)
from pgmpy_sgm.core.bitsets import iter_bits
from pgmpy_sgm.core.missing import IncompleteTable, complete_rows, e_step_seed, em_options, missing_cells
from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.models._ldag_fitting import fit_spec
from pgmpy_sgm.structure_score.ldag_score import LDAGScore
from pgmpy_sgm.structure_score.ldag_settings import ESS_GRID, KAPPA_GRID, LDAGScoreSettings

__all__ = ["LDAGSearch", "ESS_GRID", "KAPPA_GRID"]

_STARTS = ("auto", "ges", "empty")
#: The score settings ``LDAGSearch`` took as keywords before ``scoring_method`` (deprecated, honoured until 0.4).
LEGACY_SCORE_KEYWORDS = ("equivalent_sample_size", "kappa", "labels", "max_labelled_configs")
#: What ``scoring_method`` accepts: names (None is the first), an LDAGScore or LDAGScoreSettings.
_SCORING = ScoringMethod(LDAGScoreSettings, LDAGScore, {"ldag": {}, "bdeu": {"labels": False}}, LEGACY_SCORE_KEYWORDS)
#: Share of ``max_time`` given to the held-out choice of ``kappa`` (the final fit gets what is left).
KAPPA_CHOICE_SHARE = 0.5


#: The equivalence search's progress is shown after every this many operators.
SEARCH_PROGRESS_EVERY = 20


def _show_search(bar, inserted: int, deleted: int, done: bool = False) -> None:
    """Show the equivalence search's operators so far on ``bar`` (a tqdm bar, or None: nothing)."""
    if bar is not None and not bar.disable:
        state = "done" if done else "running"
        bar.set_postfix_str(f"equivalence search {state}: {inserted} edges inserted, {deleted} deleted")


def _search_progress(bar):
    """A step callback of the equivalence search that shows its operators so far on ``bar`` (None: no bar).

    Examples
    --------
    >>> import io
    >>> from tqdm import tqdm
    >>> bar = tqdm(total=1, file=io.StringIO())
    >>> report = _search_progress(bar)
    >>> for _ in range(SEARCH_PROGRESS_EVERY):
    ...     report(("insert", 0, 1, 0, 2.5))
    >>> bar.postfix
    'equivalence search running: 20 edges inserted, 0 deleted'
    """
    if bar is None or bar.disable:
        return None
    counts = {"insert": 0, "delete": 0}

    def report(step: tuple) -> None:
        counts[step[0]] += 1
        if sum(counts.values()) % SEARCH_PROGRESS_EVERY == 0:
            _show_search(bar, counts["insert"], counts["delete"])

    return report


def _labelled_dag_log_likelihood(fitted, train: pd.DataFrame, test: pd.DataFrame) -> float:
    """Log-likelihood per row of ``test`` under the labelled network ``fitted`` learned from ``train``."""
    return float(fitted.model_.log_likelihood(test) / len(test))


#: Most rounds of widening the screened candidates (see "Wide data" in :class:`LDAGSearch`).
MAX_WIDENINGS = 5

#: ``turn_budget="auto"`` up to :data:`~pgmpy_sgm.causal_discovery._candidates.SCREEN_ABOVE` variables.
AUTO_TURN_BUDGET = 4.0


class LDAGSearch(CausalDiscoveryMixin, BaseEstimator):
    """Labelled DAG learner: tabu hill climbing over DAGs under :class:`~pgmpy_sgm.structure_score.LDAGScore`.

    Every DAG is scored with each family under its optimal labelling (the LDAG score of
    Pensar et al. [1]_), so the search moves over DAGs and the labels follow. A climb makes
    the moves of pgmpy's ``HillClimbSearch`` (with a tabu list) under that score, with ties
    between equally good moves broken by the variables' names (pgmpy itself breaks them in
    the order of a Python set, which changes with ``PYTHONHASHSEED``); it keeps every
    move's change of score and recomputes only those that read a family the last move
    changed (:func:`~pgmpy_sgm.causal_discovery._dag_climb.tabu_climb`), and it labels only
    the families of moves that may gain ("Screened moves" below). By default
    (``start="auto"``) there are two first climbs, and the better result is kept: one from
    the empty graph, and one from the result of a greedy equivalence search [2]_ under the
    same score without labels (BDeu, which gives every DAG of an equivalence class the
    same score). The equivalence search adds and then removes edges of a CPDAG, so it
    does not commit to an edge's direction before the data decide it, which is where a
    climb over DAGs gets trapped (an edge added early in the wrong direction, then
    compensated by extra parents); but it is greedy too and is trapped elsewhere, so
    neither start is better on every data set (``benchmarks/RESULTS.md``). Then come the
    *turns*: a climb reverses one edge at a time, so it cannot leave a DAG where a variable
    sends edges to two variables that together explain it (a v-structure drawn the wrong
    way round), since each single reversal lowers the score while all of them together
    raise it. A turn makes one variable a sink of all its neighbours (or their source) and
    climbs from there; the turns of variables with two or more children (or parents) are
    tried, largest first, until none improves the best DAG or they have scored
    ``turn_budget`` times the moves of the longest first climb
    (:func:`~pgmpy_sgm.causal_discovery._iterated_climb.turn_sweeps`; by default up to 64
    variables only). When the turns end, a climb from the best DAG may also *swap parents*
    (``parent_swaps``): where no single move gains, one parent of a variable is replaced by
    another in one step, which gains where removing the parent loses its information and
    adding the other alone makes the family too large; after a swap the single moves go on,
    and when this climb improves the best DAG the turns are tried again. Each of
    up to ``n_restarts`` further climbs starts from the best DAG so far after a *kick* of
    random edge additions, deletions or reversals, and the best DAG found is kept
    (iterated local search). Restarts stop when the candidate moves they have scored would
    exceed ``restart_budget`` times those scored by the longest first climb (a deterministic
    measure of work: the next restart is expected to cost the mean of those before it).
    The kick starts at ``perturbation`` changes and grows by one after every restart that
    does not improve the best score (climbs tend to undo small kicks), back to
    ``perturbation`` after an improvement. With ``n_mcmc > 0`` a non-reversible
    Metropolis chain over DAGs then starts from the best DAG (single-edge additions,
    deletions and reversals); every distinct DAG it visits is kept with its score, and the
    posterior over the visited labelled DAGs is their scores normalised over that set, as
    in the paper's search (``posterior_``, ``edge_probabilities_``). Local
    scores are cached and shared between climbs (``n_jobs=1``) or copied to each worker.

    **Screened moves.** Labelling a family (searching its best classes) is nearly all of a
    fit's cost, and most families a climb reads are those of moves it never makes. With
    ``screen_moves=True`` (the default) a climb labels the family that a move would give a
    new parent (an addition, a reversal's new parent, a swap) only when that family's BDeu
    term without labels shows the move may gain: when the term, plus twice what the labels
    gain on the node's current family, plus 2 nats, reaches the current family's term.
    A family with its best labels scores at least its term without labels, so no DAG is
    mis-scored; a move left out is not made, and one whose family's labels would gain more
    than that allowance is missed
    (:func:`~pgmpy_sgm.causal_discovery._dag_climb.tabu_climb`'s ``floor``). Without labels
    (``scoring_method="bdeu"``, and structural EM's searches) there is nothing to screen.

    **Wide data.** Beyond 64 variables the new edges are screened: each variable keeps as
    partners the ``ceil(4 log2 d)`` variables whose single-parent BDeu term gains most over
    its empty family (32 at d = 223, 41 at d = 1,041), and the climbs' additions, the
    equivalence search's insertions and the kicks' additions join only a variable and a
    partner (either keeping the other); removals and reversals are not restricted. A pair's
    gain alone misses a parent that matters only beside others (a variable that is a logical
    function of several), so after the first climbs the partners are *widened* given the DAG
    reached (``widen_candidates``, the sparse candidate algorithm [4]_): every variable whose
    BDeu term rises when it joins a variable's current parents becomes that variable's
    partner, and a climb from the best DAG follows; this repeats (at most
    :data:`MAX_WIDENINGS` times) while partners join and the climb improves; a round after
    the first screens only the variables whose parents changed, and ``max_time`` is asked
    before each variable (a round is a pass over the rows per variable). With
    64 variables or fewer, or a limit of at least ``d - 1``, nothing is screened and the
    search is the one described above. Where the partners are screened, ``start="auto"``
    climbs from the equivalence search's DAG alone (the climb from the empty graph costs
    more there and ended below it on every network measured).
    The limit is the class attribute
    ``_candidate_limit`` (a function of ``d``); a subclass widens it, or turns the
    screening off with ``staticmethod(lambda d: None)``. Families whose contingency table
    would exceed ``16 n`` cells (``n`` observations) are never made: no more than one
    observation per 16 cells cannot estimate them, BDeu does not charge for the empty cells,
    and the fitted model stores every cell (``_dag_moves.largest_table``).

    **Column order.** The search runs on the columns sorted by name (``str`` of the name,
    then its type name), so the same data with permuted columns give the same DAG, labels
    and scores for a given seed; the fitted attributes list the variables in the data's
    column order.

    **The CPDAG of a labelled DAG.** With ``return_type="cpdag"`` (or ``"pdag"``, the same,
    as in pgmpy's ``PC``), ``causal_graph_`` is the CPDAG of the learned DAG *without its
    labels* (pgmpy's ``DAG.to_pdag``): an edge is directed when every DAG with the same
    skeleton and immoralities orients it alike. The labels are not used, and they can
    identify more orientations than the DAG alone. A label is a statement about one
    node's parent configurations (``Y`` does not depend on its parent ``A`` when its other
    parents take given values, a statement symmetric in ``Y`` and ``A``), so only a DAG
    with a family holding ``Y``, ``A`` and those parents, with ``Y`` or ``A`` as its
    child, can carry it. For example, with ``A -> B`` and ``Y`` a noisy AND of ``A`` and
    ``B`` (labels: ``Y`` independent of ``A`` when ``B = 0`` and of ``B`` when ``A = 0``),
    the six DAGs over the triangle are Markov equivalent and the CPDAG leaves its three
    edges undirected, but only the two DAGs with ``A -> Y <- B`` can carry both labels:
    the labels orient those two edges (a test checks this with the scores).
    So the CPDAG shows what the DAG determines, not everything the labelled DAG does;
    ``model_`` keeps the DAG with its labels. With ``return_type="dag"``, an orientation
    that neither the immoralities nor the labels decide (equal scores) follows the
    search's tie-breaking by name. The default ``return_type`` is ``"dag"``
    (pgmpy's learners default to ``"pdag"``) because the labels belong to the families
    of that DAG.

    Parameters
    ----------
    scoring_method : {"ldag", "bdeu"}, LDAGScore, LDAGScoreSettings or None, default=None
        The score, as pgmpy's learners take it: None or ``"ldag"`` the LDAG score with ESS 5
        and ``kappa`` 0.2, ``"bdeu"`` plain DAGs under BDeu with the same ESS (an ablation),
        an :class:`~pgmpy_sgm.structure_score.LDAGScore` (its settings, not its data: the
        data scored are those given to ``fit``), or an
        :class:`~pgmpy_sgm.structure_score.LDAGScoreSettings`, which can also ask for the ESS
        or ``kappa`` to be chosen from the data:

        - ``equivalent_sample_size="auto"`` (or a sequence): for each value the first climbs
          run under the score with that ESS, and the value whose best labelled DAG scores
          highest (log marginal likelihood plus the labels' log prior, which does not depend
          on the ESS) is kept, as Steck [3]_ proposes; the restarts, the chain and the
          parameters then use it. The choice is ``ess_``; the fit costs one set of first
          climbs per value tried. Which value the data favour depends on the data, not only
          on their size (``benchmarks/RESULTS.md``, "Small samples").
        - ``kappa="held_out"`` (or a sequence): 5-fold cross-validation. The rows (a count
          table: its observations, each count expanded into that many rows; counts must be
          integers) are shuffled with ``seed`` and split into 5 folds, a copy of this learner
          with each value is fitted on every 4 folds and scored by the log-likelihood of the
          fifth under its labelled network (``model_``), and the value with the best mean per
          row is refitted on all the data (ties keep the earlier value: the default comes
          first in the grid). The choice is ``kappa_``, the mean held-out log-likelihoods
          ``kappa_scores_``; the fit costs 5 fits per value tried plus one. With
          ``max_time``, :data:`KAPPA_CHOICE_SHARE` of it goes to the choice (each fold fit
          gets an equal share of what is left of it as its own ``max_time``, and values not
          reached in time are not scored), the rest to the final fit.
    start : {"auto", "ges", "empty"} or pgmpy.base.DAG, default="auto"
        Where the first climbs start: ``"ges"`` the DAG of a greedy equivalence search
        without labels (an extension of the CPDAG it ends at), ``"empty"`` the empty graph,
        ``"auto"`` both (two climbs; beyond 64 variables the equivalence search's alone, see
        "Wide data"), or a given DAG over the data's columns.
    n_restarts : int, default=10
        Most perturbed restarts after the first climbs.
    perturbation : int, optional
        Smallest kick, in random edge changes (default ``max(2, n_variables // 3)``).
    tabu_length : int, default=100
        Length of the tabu list of each climb.
    max_indegree : int, optional
        Largest parent set.
    max_iter : int, default=1_000_000
        Largest number of moves per climb.
    state_names : dict, optional
        ``{variable: [states]}``.
    seed : int, optional
        Seed of the perturbations and of the chain (the first climbs use no randomness).
        None draws fresh entropy, as :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC`
        does; before version 0.2 the default was 0.
    show_progress : bool, default=True
        Progress bar over the climbs (also needs ``pgmpy.config.SHOW_PROGRESS``): the first climbs and at
        most ``n_restarts`` restarts, with the turns between them counted in its text; when
        ``restart_budget`` or ``max_time`` stops the restarts early, the bar ends there, full, naming the reason.
    max_time : float, optional
        Wall-clock budget in seconds for the whole fit, as for ``NonReversibleMCMC``: the
        equivalence search, the climbs, the restarts and the chain stop when it is spent (a
        climb ends after the move it is scoring) and the best DAG found so far is kept, with
        ``restarts_stopped_by_ = "max_time"``. Results then depend on the machine's speed.
    restart_budget : float or None, default=0.25
        Work allowed to the restarts, as a multiple of the moves scored by the longest first climb
        (None: all ``n_restarts``; 0: none). A count, not a clock: the result does not
        depend on the machine's load (``benchmarks/RESULTS.md`` has the measured effect).
    turn_budget : float, None or "auto", default="auto"
        Work allowed to the turns (see above), as a multiple of the moves scored by the
        longest first climb (None: until no turn improves the best DAG; 0: no turns). A count,
        not a clock. ``"auto"``:
        :data:`AUTO_TURN_BUDGET` up to 64 variables, no turns beyond (where each turn labels
        many new families: on andes, 223 variables, they took 3.5 times the CPU of the rest of
        the fit and did not predict better; ``benchmarks/RESULTS.md``).
    parent_swaps : bool, default=True
        Whether the climb after the turns also swaps parents (see above; it runs at every
        width, also when ``turn_budget`` allows no turn). False, with ``turn_budget=0`` and
        ``n_restarts=0``, gives pgmpy's climb.
    widen_candidates : bool, default=True
        Beyond 64 variables, whether the screened partners are widened given the DAG of the
        first climbs (see "Wide data" above); False keeps the pairs' screening alone.
    screen_moves : bool, default=True
        Whether the climbs label the family a move would give a new parent only when its
        BDeu term without labels shows that the move may gain (see "Screened moves" above).
        False labels the family of every move (slower; with ``parent_swaps=False``,
        ``turn_budget=0`` and ``n_restarts=0``, pgmpy's climb up to 64 variables).
    n_jobs : int, default=1
        Parallel restarts (joblib); restarts then run in rounds from the best DAG of the
        previous round.
    n_mcmc : int, default=0
        Iterations of the Metropolis chain after the climbs (0: none).
    weights : str or array-like, optional
        Name of a count column of ``X`` (it is then not a variable), or one count per row.
        Weighted data and Dask DataFrames are pooled into distinct rows with counts
        (:func:`~pgmpy_sgm.core.pooling.pool_data`) and learned from that table: the hill
        climb needs only the columns, and the score and parameters only the counts.
    return_type : {"dag", "cpdag", "pdag"}, default="dag"
        Form of ``causal_graph_``: the learned DAG, or its CPDAG (see above).
    missing : {"error", "complete_cases", "em", "state"} or EMOptions, default="error"
        Missing cells (NaN, None, ``pd.NA``, empty strings): refused with an error naming
        every column with gaps; incomplete rows dropped (with a warning); structural EM
        (``"em"`` or an :class:`~pgmpy_sgm.core.missing.EMOptions`), as in
        :class:`NonReversibleMCMC`: from the DAG climbed on the node-average BDeu score of the
        available cases (every family's table over the rows where all of it is observed,
        scaled to all rows, under BDeu; ``EMOptions.start``), each E-step completes the incomplete rows
        by the current network's posterior, and an M-step is this search without labels on
        the expected counts, warm-started from the current DAG (a search from scratch the first
        time, then one tabu climb from the current DAG without restarts, and its turns until
        none improves unless ``turn_budget=0``), with the network's
        parameters (between searches, only the current network's parameters are re-fitted);
        the labels are searched once, on the chosen step's completed table from its DAG
        (``em_history_.attrs["labels"]``; about half the time of labels in every step, for a
        held-out fit 0.006 nats/row worse on average at 20% missing, ``benchmarks/RESULTS.md``),
        and the network's parameters are then fitted once more, on the rows it completes itself
        (one more E-step; the chosen step was fitted on rows the model before it completed);
        once EM settles, a second look (``EMOptions.revisit``) completes the rows from the
        settled DAG plus the parents the available cases support, searches again, and runs EM
        on from there when the observed-data criterion rose by more than ``2 log n``;
        the result is the search with the best observed-data criterion (see
        :func:`~pgmpy_sgm.causal_discovery._structural_em.structural_em`). The EM is
        recorded in ``em_history_``, ``n_completed_exactly_``, ``n_completed_capped_``,
        ``n_completed_by_draws_`` and ``missing_cells_`` (each row keeps at most
        ``EMOptions.max_kept`` of its completions, the rest of its posterior carried by
        ``n_tail_draws`` draws; the ``n_completed_*`` counts are those of the last E-step); the
        other fitted attributes, ``model_``'s parameters aside, refer to the chosen search's
        completed table, and ``max_time`` bounds the whole fit. Or missing as a state
        named ``"missing"``. Data without missing cells give the same result under every
        choice.
    equivalent_sample_size, kappa, labels, max_labelled_configs : deprecated
        The score's settings as keywords (before version 0.3). They still work, with a
        ``FutureWarning``, until version 0.4: pass
        ``scoring_method=LDAGScoreSettings(kappa=..., ...)`` instead.

    Attributes
    ----------
    causal_graph_ : pgmpy.base.DAG or pgmpy.base.PDAG
        The learned DAG (``return_type="dag"``) or its CPDAG, nodes in the data's column order.
    adjacency_matrix_ : pandas.DataFrame of shape (n_variables, n_variables)
        Adjacency of ``causal_graph_`` (an undirected edge has both entries), 0/1 integers.
    model_ : LabeledBayesianNetwork
        The DAG with its optimal labels and TreeCPDs fitted (BDeu posterior means with
        ``ess_``; the model records that ESS, and its ``fit`` without an estimator uses it).
    ess_ : float
        The equivalent sample size used: the score's when it is a number, else the value
        chosen from the grid.
    ess_scores_ : dict
        ``{ess: best score of the first climbs under it}`` for every ESS tried (one entry
        when the ESS is fixed).
    kappa_ : float
        The label penalty used: the score's ``kappa`` when it is a number, else the value chosen.
    kappa_scores_ : dict or None
        With a chosen ``kappa``: ``{kappa: mean held-out log-likelihood per row}`` (natural
        log) for every value scored; None when ``kappa`` is fixed.
    best_score_ : float
        LDAG score (log marginal likelihood plus log structure prior) of ``model_``.
    climb_scores_ : list of float
        Score reached by each climb, in order.
    climb_seconds_ : list of float
        Seconds taken by each climb.
    climb_moves_ : list of int
        Candidate moves scored by each climb (the work ``restart_budget`` and ``turn_budget`` count).
    climb_new_families_ : list of int
        Families labelled for the first time during each climb.
    climb_starts_ : list of str
        Where each climb started: ``"ges"``, ``"empty"``, ``"given"``, ``"widened"`` (from the
        best DAG with widened partners), ``"turn"``, ``"swaps"`` (a climb with parent swaps
        from the best DAG) or ``"restart"``.
    n_candidates_added_ : int
        Partner pairs added by widening (0 up to 64 variables, where nothing is screened).
    turns_stopped_by_ : str
        Why no further turn was climbed: ``"converged"`` (no turn improves the best DAG),
        ``"turn_budget"`` or ``"max_time"``.
    turn_budget_ : float or None
        The turn budget used (``turn_budget`` with ``"auto"`` resolved).
    restarts_stopped_by_ : str
        Why no further restart ran: ``"n_restarts"`` (all of them ran), ``"restart_budget"``
        (the next one would have exceeded the budget) or ``"max_time"`` (the budget was
        spent, possibly before or during the first climbs or the chain).
    start_scores_ : dict
        LDAG score of the DAG each first climb started from, by start.
    ges_steps_ : list of tuple or None
        With ``start`` ``"ges"`` or ``"auto"``: the equivalence search's operators in the order applied,
        ``(kind, x, y, subset, gain)`` with ``kind`` ``"insert"`` or ``"delete"``, column names
        for ``x`` and ``y`` and a tuple of names for the subset (``T`` or ``H``).
    scorer_ : LDAGScore
        The score on the training data (columns sorted by name). ``scoring_method_`` is a
        deprecated alias.
    posterior_ : pandas.DataFrame or None
        With ``n_mcmc > 0``: the 50 most probable visited DAGs, as ``NonReversibleMCMC``'s
        table: ``edges`` (tuple of ``(parent, child)``), ``log_posterior`` (the LDAG score),
        ``probability`` (normalised over all visited DAGs) and ``n_edges``.
    edge_probabilities_ : pandas.DataFrame of shape (n_variables, n_variables) or None
        With ``n_mcmc > 0``: posterior probability of each directed edge, row ``u``
        column ``v`` for ``u -> v`` (``NonReversibleMCMC``'s matrix is symmetric: its edges
        are undirected).
    n_visited_ : int
        Distinct DAGs visited by the chain (0 without it).
    acceptance_rate_ : float or None
    chain_best_scores_ : numpy.ndarray of shape (n_chains,)
        Best score of each chain, as in ``NonReversibleMCMC``: one chain with ``n_mcmc > 0``,
        none (shape ``(0,)``) without. ``chain_best_score_`` (a float) is a deprecated alias.
    fit_time_ : float
        Seconds taken by ``fit``.
    variables_ : list
        The variables, in the data's column order.
    n_features_in_ : int
    feature_names_in_ : numpy.ndarray of object

    Notes
    -----
    The result does not depend on the interpreter's hash seed nor on the column order:
    labellings are computed per parent set and ties between moves are broken in the
    order of the variables' names. With ``max_time`` or ``n_jobs > 1`` it can depend on
    timing and on the number of workers.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> data = load_heart_disease()
    >>> est = LDAGSearch(n_restarts=1, seed=0, show_progress=False).fit(data)
    >>> len(est.causal_graph_.nodes()), est.model_.n_free_parameters() > 0
    (6, True)
    >>> round(est.score(data) - est.best_score_, 9)  # score(X): the model's log unnormalized posterior on X
    0.0
    >>> type(LDAGSearch(n_restarts=0, show_progress=False, return_type="cpdag").fit(data).causal_graph_).__name__
    'PDAG'

    The label penalty chosen by held-out fit (5-fold cross-validation; 5 fits per value tried):

    >>> from pgmpy_sgm.structure_score import LDAGScoreSettings
    >>> settings = LDAGScoreSettings(kappa=(0.2, 0.0, 1.0))
    >>> est = LDAGSearch(settings, n_restarts=0, seed=0, show_progress=False).fit(data.head(400))
    >>> est.kappa_ in (0.2, 0.0, 1.0), sorted(est.kappa_scores_)
    (True, [0.0, 0.2, 1.0])

    References
    ----------
    .. [1] J. Pensar, H. Nyman, T. Koski and J. Corander. Labeled directed acyclic graphs: a
       generalization of context-specific independence in directed graphical models. Data
       Mining and Knowledge Discovery 29(2), 503-533, 2015.
    .. [2] D. M. Chickering. Optimal structure identification with greedy search. Journal of
       Machine Learning Research 3, 507-554, 2002.
    .. [3] H. Steck. Learning the Bayesian network structure: Dirichlet prior versus data.
       Proceedings of the 24th Conference on Uncertainty in Artificial Intelligence, 511-518, 2008.
    .. [4] N. Friedman, I. Nachman and D. Pe'er. Learning Bayesian network structure from
       massive datasets: the "sparse candidate" algorithm. Proceedings of the 15th Conference on
       Uncertainty in Artificial Intelligence, 206-215, 1999.
    """

    #: Candidate partners kept per node for ``d`` variables (None: all); see "Wide data" above.
    _candidate_limit = staticmethod(candidate_limit)

    def __init__(
        self,
        scoring_method: str | LDAGScore | LDAGScoreSettings | None = None,
        start: str | DAG = "auto",
        n_restarts: int = 10,
        perturbation: int | None = None,
        tabu_length: int = 100,
        max_indegree: int | None = None,
        max_iter: int = 1_000_000,
        state_names: dict | None = None,
        seed: int | None = None,
        show_progress: bool = True,
        max_time: float | None = None,
        restart_budget: float | None = 0.25,
        turn_budget: float | str | None = "auto",
        parent_swaps: bool = True,
        widen_candidates: bool = True,
        screen_moves: bool = True,
        n_jobs: int = 1,
        n_mcmc: int = 0,
        weights: str | np.ndarray | None = None,
        return_type: str = "dag",
        missing="error",
        equivalent_sample_size="deprecated",
        kappa="deprecated",
        labels="deprecated",
        max_labelled_configs="deprecated",
    ):
        self.scoring_method = scoring_method
        self.start = start
        self.n_restarts = n_restarts
        self.perturbation = perturbation
        self.tabu_length = tabu_length
        self.max_indegree = max_indegree
        self.max_iter = max_iter
        self.state_names = state_names
        self.seed = seed
        self.show_progress = show_progress
        self.max_time = max_time
        self.restart_budget = restart_budget
        self.turn_budget = turn_budget
        self.parent_swaps = parent_swaps
        self.widen_candidates = widen_candidates
        self.screen_moves = screen_moves
        self.n_jobs = n_jobs
        self.n_mcmc = n_mcmc
        self.weights = weights
        self.return_type = return_type
        self.missing = missing
        self.equivalent_sample_size = equivalent_sample_size
        self.kappa = kappa
        self.labels = labels
        self.max_labelled_configs = max_labelled_configs

    # -- deprecated names ---------------------------------------------------------------
    @property
    def chain_best_score_(self) -> float:
        """Deprecated: ``chain_best_scores_[0]`` (the array has one entry per chain, as in ``NonReversibleMCMC``)."""
        scores = self.chain_best_scores_
        if len(scores) == 0:
            raise AttributeError("chain_best_score_ exists only with n_mcmc > 0 (see chain_best_scores_)")
        warnings.warn("LDAGSearch.chain_best_score_ is deprecated; use chain_best_scores_[0] (one entry per chain).",
                      FutureWarning, stacklevel=2)  # fmt: skip
        return float(scores[0])

    @property
    def scoring_method_(self) -> LDAGScore:
        """Deprecated: ``scorer_`` (the name ``NonReversibleMCMC`` uses)."""
        scorer = self.scorer_
        warnings.warn("LDAGSearch.scoring_method_ is deprecated; use scorer_.", FutureWarning, stacklevel=2)
        return scorer

    # -- validation ---------------------------------------------------------------------
    _scoring = _SCORING

    _parameter_constraints = {
        "start": Constraint(f"one of {_STARTS} or a pgmpy DAG",
                            lambda v: isinstance(v, nx.DiGraph) or (isinstance(v, str) and v in _STARTS)),
        "n_restarts": integer(0),
        "perturbation": integer(1, none_ok=True),
        "tabu_length": integer(0),
        "max_indegree": integer(1, none_ok=True),
        "max_iter": integer(1),
        "state_names": state_names(),
        "seed": seed(),
        "show_progress": boolean(),
        "max_time": seconds(),
        "restart_budget": number(0.0, strict=False, none_ok=True),
        "turn_budget": Constraint("a non-negative number, None or 'auto'",
                                  lambda v: v == "auto" or number(0.0, strict=False, none_ok=True).accepts(v)),
        "parent_swaps": boolean(),
        "screen_moves": boolean(),
        "widen_candidates": boolean(),
        "n_jobs": n_jobs(),
        "n_mcmc": integer(0),
        "return_type": RETURN_TYPE,
        "scoring_method": _SCORING.constraint(),
    }

    def _check_params(self) -> None:
        """Check every parameter (:data:`_parameter_constraints`, then the score settings, kept for the fit)."""
        super()._check_params()
        self._settings = self._scoring.settings(self)

    # -- starts -------------------------------------------------------------------------
    def _start_dags(self, score, columns: list, bar=None) -> list[tuple[str, DAG]]:
        """The DAGs the first climbs start from (``self.start``), with the start's name.

        ``bar`` (a tqdm bar) shows the equivalence search's progress, which on hundreds of
        variables can take minutes before the first climb.
        """
        self.ges_steps_ = None
        if isinstance(self.start, nx.DiGraph):
            unknown = sorted(set(map(str, self.start.nodes())) - set(map(str, columns)))
            if unknown:
                raise ValueError(f"start has nodes that are not columns of X: {unknown}")
            if not nx.is_directed_acyclic_graph(self.start):
                raise ValueError("start must be acyclic.")
            dag = DAG()
            dag.add_nodes_from(columns)
            dag.add_edges_from(self.start.edges())
            return [("given", dag)]
        out = []
        if self.start in ("auto", "ges"):
            out.append(("ges", self._ges_dag(score, columns, bar)))
        if self.start == "empty" or self._both_starts(len(columns)):
            empty = DAG()
            empty.add_nodes_from(columns)
            out.append(("empty", empty))
        return out

    def _ges_dag(self, score, columns: list, bar=None) -> DAG:
        """A DAG in the equivalence class found by the greedy equivalence search without labels."""
        dag = DAG()
        dag.add_nodes_from(columns)
        fits = mask_fits(score, columns)

        def family(y: int, mask: int) -> float:
            if not fits(y, mask):
                return -math.inf  # never made, as in the climbs
            return score.unlabelled_score(columns[y], tuple(columns[i] for i in iter_bits(mask)))

        found = greedy_equivalence_search(family, len(columns), self.max_indegree, candidates=self._candidates,
                                          deadline=self._deadline, on_step=_search_progress(bar))  # fmt: skip
        _show_search(bar, found.n_inserts, found.n_deletes, done=True)
        dag.add_edges_from((columns[p], columns[y]) for y, mask in enumerate(found.parents) for p in iter_bits(mask))
        self.ges_steps_ = [
            (kind, columns[x], columns[y], tuple(columns[i] for i in iter_bits(subset)), gain)
            for kind, x, y, subset, gain in found.steps
        ]
        return dag

    # -- fitting ------------------------------------------------------------------------
    def _fit_by_held_out(self, X):
        """With ``kappa="held_out"`` or a grid, the fit under the label penalty chosen by held-out fit; else None."""
        grid = self._settings.kappa_grid
        if grid is not None:
            return self._fit_held_out_kappa(X, grid)
        self.kappa_, self.kappa_scores_ = float(self._settings.kappa), None
        return None

    def _fit(self, X, weights) -> LDAGSearch:
        """The search on complete data (see :meth:`fit`): first climbs, restarts, chain, labelled model."""
        self._deadline = self._fit_deadline()
        X, counts = self._fit_data(X, weights)
        columns = list(X.columns)
        X = X[canonical_order(columns)]  # search in name order, report in column order (see the class notes)
        rng = np.random.default_rng(self.seed)
        grid = self._settings.ess_grid
        show = bool(self.show_progress and config.SHOW_PROGRESS)
        n_starts = 2 if self._both_starts(X.shape[1]) else 1
        with tqdm(total=n_starts * len(grid) + self.n_restarts, disable=not show, desc="LDAG climbs") as bar:
            score, best, best_score = self._first_climbs_per_ess(X, counts, grid, bar)
            self._first_moves = max(self.climb_moves_)
            best, best_score = self._widen(score, X, best, best_score)
            best, best_score = self._turns(score, X, best, best_score, bar)
            best, best_score = self._restarts(score, X, best, best_score, rng, bar)
            if bar.n < bar.total:  # restarts end early by restart_budget or max_time: the bar ends full, saying why
                bar.total = bar.n
                bar.set_postfix_str(f"stopped by {self.restarts_stopped_by_}")
            bar.refresh()
        best, best_score = self._run_chain(score, X, best, best_score, rng)
        if self.edge_probabilities_ is not None:  # reported in the data's column order
            self.edge_probabilities_ = self.edge_probabilities_.loc[columns, columns]
        if self._out_of_time():
            self.restarts_stopped_by_ = "max_time"
        self.best_score_ = best_score
        self.scorer_ = score
        self.variables_ = columns
        self._set_dag_result(best.edges(), columns)
        self.model_ = self._labelled_model(score, best, X, counts, columns)
        self.fit_time_ = time.time() - self._started_at
        return self

    def _fit_held_out_kappa(self, X, grid: tuple[float, ...]) -> LDAGSearch:
        """``kappa`` chosen among ``grid`` by 5-fold held-out fit, then this learner fitted on ``X`` with it.

        The folds split the observations (:func:`~pgmpy_sgm.causal_discovery._held_out.rows_of`);
        each fold fit is a copy of this learner with one value of ``grid`` (see ``kappa``).
        Missing cells are made a state or their rows dropped before the folds are drawn
        (``missing="state"`` or ``"complete_cases"``); with ``"em"`` each fold fit runs
        its EM and a held-out row with gaps counts with the probability of its observed part.
        """
        start_time = time.perf_counter()
        # gaps as a state, or incomplete rows dropped, once for all fits; with EM each fit completes its rows
        X, weights, _ = missing_input(X, self.weights, self.missing)
        choice_time = None if self.max_time is None else KAPPA_CHOICE_SHARE * float(self.max_time)
        show = bool(self.show_progress and config.SHOW_PROGRESS)
        base = self._resolved_copy()
        options = [self._settings.fixed(kappa=value) for value in grid]
        choice = choose_by_held_out(base, rows_of(X, weights), "scoring_method", options, self.seed,
                                    _labelled_dag_log_likelihood, choice_time, show)  # fmt: skip
        chosen = float(choice.best.kappa)
        final = base.set_params(scoring_method=choice.best, weights=weights)
        if self.max_time is not None:
            final.set_params(max_time=max(float(self.max_time) - (time.perf_counter() - start_time), 1e-3))
        adopt_fitted(self, final.fit(X))
        self.kappa_ = chosen
        self.kappa_scores_ = {float(option.kappa): value for option, value in choice.scores.items()}
        self.fit_time_ = time.perf_counter() - start_time
        return self

    def _fit_em(self, X: pd.DataFrame, weights) -> LDAGSearch:
        """Structural EM (see ``missing``): M-steps are fits of a copy of this learner on completed tables."""
        variables = [c for c in X.columns if not (isinstance(weights, str) and c == weights)]
        cells = missing_cells(X, variables)
        table = IncompleteTable.from_frame(X, weights, self.state_names)
        deadline = self._deadline = self._fit_deadline()
        options = em_options(self.missing).for_learner("bdeu")
        with tqdm(total=options.most_iterations, disable=not (self.show_progress and config.SHOW_PROGRESS),
                  desc="LDAGSearch (structural EM)") as bar:  # fmt: skip

            def report(row):
                bar.update(1)
                bar.set_postfix_str(f"expected score={row['expected_score']:.2f}", refresh=False)

            # EM's steps search DAGs; the labels are searched once, on the chosen step's completed table
            m_step = functools.partial(self._m_step, table, deadline, labels=False)
            refit = functools.partial(self._parameter_step, table)
            result = structural_em(table, m_step, options, self.seed, report, refit)
        if self._settings.labels:
            result = self._labelled_result(table, deadline, result)
        adopt_em_result(self, self._refit_on_own_completion(table, result, options), cells)
        return self

    def _refit_on_own_completion(self, table: IncompleteTable, result: EMResult, options) -> EMResult:
        """EM's result with its network's parameters fitted on the rows that network completes (one more E-step).

        The chosen step was fitted on rows completed by the model before it, and its labels on
        the same table; one E-step by the final network and a fit of its parameters (its DAG
        and label classes kept) bring them up to date. Skipped once ``max_time`` is spent.
        """
        if self._out_of_time():
            return result
        model = result.last.estimator.model_
        log_probability = model.log_probability_function(table.variables, table.state_names)
        completed = complete_rows(table, log_probability, options.max_completions, options.n_draws,
                                  e_step_seed(self.seed), 0.0, options.max_kept, options.n_tail_draws)  # fmt: skip
        model.fit(completed.frame, equivalent_sample_size=result.last.estimator.ess_, weights=completed.counts,
                  state_names=table.state_names)  # fmt: skip
        return EMResult(result.last, completed, result.history)

    def _labelled_result(self, table: IncompleteTable, deadline, result: EMResult) -> EMResult:
        """EM's chosen step with labels: this learner (labels on) on its completed table, from its DAG."""
        labelled = self._m_step(table, deadline, result.completed, result.last, labels=True)
        nodes = len(labelled.estimator.model_.labelled_nodes())
        result.history.attrs["labels"] = {"expected_score_without": result.last.score,
                                          "expected_score_with": labelled.score, "labelled_nodes": nodes}
        return EMResult(labelled, result.completed, result.history)

    def _em_settings(self, labels: bool) -> LDAGScoreSettings:
        """This learner's score settings, or the same without labels (EM's steps)."""
        return self._settings if labels else dataclasses.replace(self._settings, labels=False, kappa=0.0)

    def _parameter_step(self, table: IncompleteTable, completed, previous: MStepResult) -> MStepResult:
        """A parameter step of structural EM: the previous DAG (without labels), scored and fitted on ``completed``."""
        model = previous.estimator.model_.copy()
        ess = previous.estimator.ess_
        model.fit(completed.frame, equivalent_sample_size=ess, weights=completed.counts,
                  state_names=table.state_names)  # fmt: skip
        score = self._em_settings(labels=False).score(completed.frame[table.variables], ess, 0.0,
                                                      weights=completed.counts, state_names=table.state_names)
        value = math.fsum(score.family_score(node, *model.get_classes(node)) for node in model.nodes())
        return MStepResult(previous.estimator, previous.structure, float(value),
                           model.log_probability_function(table.variables, table.state_names),
                           previous.parents)  # fmt: skip

    def _m_step(self, table: IncompleteTable, deadline, completed, previous, labels: bool = True) -> MStepResult:
        """One M-step of structural EM: a copy of this learner (with or without labels) fitted on a completed table."""
        settings = self._em_settings(labels)
        params = {"missing": "error", "weights": completed.counts, "state_names": table.state_names,
                  "show_progress": False, "scoring_method": settings}  # fmt: skip
        if previous is not None:  # warm start; the per-step budget: one tabu climb from it and its turns, no restarts
            dag = DAG(previous.estimator.model_.edges())
            dag.add_nodes_from(table.variables)
            params["start"], params["n_restarts"] = dag, 0
            if self._turn_budget(len(table.variables)) != 0:  # a budget relative to a short warm climb means little
                params["turn_budget"] = None
            # the ESS is chosen once, by the first M-step
            params["scoring_method"] = settings.fixed(equivalent_sample_size=previous.estimator.ess_)
        if deadline is not None:
            params["max_time"] = max(deadline - time.time(), 1.0)
        step = self._resolved_copy().set_params(**params).fit(completed.frame)
        model = step.model_
        structure = {("edge", u, v) for u, v in model.edges()}
        for node in model.labelled_nodes():
            parents, ids = model.get_classes(node)
            structure.add(("classes", node, tuple(parents), tuple(int(i) for i in ids)))
        index = {v: i for i, v in enumerate(table.variables)}
        parents = tuple(tuple(index[p] for p in model.get_parents(v)) for v in table.variables)
        return MStepResult(step, frozenset(structure), float(step.best_score_),
                           model.log_probability_function(table.variables, table.state_names), parents)  # fmt: skip

    def _score_with(self, X, counts, ess: float, state_names) -> LDAGScore:
        """The LDAG score of ``X`` with equivalent sample size ``ess`` and this learner's other settings.

        The label penalty is ``kappa_`` (set by ``fit``); 0 scores without labels.
        """
        return self._settings.score(X, ess, self.kappa_, weights=counts, state_names=state_names)

    def _resolved_copy(self) -> LDAGSearch:
        """An unfitted copy of this learner with its score settings in ``scoring_method`` (no deprecated keyword)."""
        return self._scoring.resolved_copy(self, self._settings)

    def _first_climbs_per_ess(self, X, counts, grid: tuple, bar) -> tuple[LDAGScore, DAG, float]:
        """The first climbs under each ESS of ``grid``; the score of the ESS whose best DAG scores highest.

        Sets ``ess_``, ``ess_scores_`` and, for the chosen ESS, ``start_scores_``, ``ges_steps_``
        and the climb records (ties keep the earlier ESS of the grid).
        """
        chosen = None
        self.ess_scores_ = {}
        for ess in grid:
            score = self._score_with(X, counts, ess, self.state_names)
            self._candidates = screened_candidates(score, self._candidate_limit(X.shape[1]))
            starts = self._start_dags(score, list(X.columns), bar)
            start_scores = {name: float(score.score(dag)) for name, dag in starts}
            best, best_score = self._first_climbs(score, X, starts, bar)
            self.ess_scores_[ess] = best_score
            if chosen is None or best_score > chosen[3] + 1e-9:
                records = (self.climb_scores_, self.climb_seconds_, self.climb_starts_, self.climb_new_families_,
                           self.climb_moves_, start_scores, self.ges_steps_, self._candidates)  # fmt: skip
                chosen = (ess, score, best, best_score, records)
        self.ess_, score, best, best_score, records = chosen
        (self.climb_scores_, self.climb_seconds_, self.climb_starts_, self.climb_new_families_, self.climb_moves_,
         self.start_scores_, self.ges_steps_, self._candidates) = records  # fmt: skip
        return score, best, best_score

    def _record(self, start: str, result: tuple) -> None:
        _, value, seconds, n_new, moves = result
        self.climb_scores_.append(value)
        self.climb_seconds_.append(seconds)
        self.climb_starts_.append(start)
        self.climb_new_families_.append(n_new)
        self.climb_moves_.append(moves)

    def _first_climbs(self, score, X, starts: list, bar) -> tuple[DAG, float]:
        """A climb from each start; the best DAG and its score (ties keep the earlier start)."""
        self.climb_scores_, self.climb_seconds_, self.climb_starts_ = [], [], []
        self.climb_new_families_, self.climb_moves_ = [], []
        best, best_score = None, -np.inf
        for name, start in starts:
            result = climb_dag(score, X, start, *self._climb_settings(), screen=self._screens_moves(score))
            self._record(name, result)
            if result[1] > best_score + 1e-9:
                best, best_score = result[0], result[1]
            bar.update(1)
        return best, best_score

    def _out_of_time(self) -> bool:
        return self._deadline is not None and time.time() >= self._deadline

    def _turn_budget(self, n_variables: int) -> float | None:
        """``turn_budget`` with ``"auto"`` resolved for ``n_variables`` columns."""
        if self.turn_budget != "auto":
            return self.turn_budget
        return AUTO_TURN_BUDGET if n_variables <= SCREEN_ABOVE else 0.0

    def _both_starts(self, n_variables: int) -> bool:
        """Whether ``start`` asks for both first climbs: "auto" where the partners are not screened ("Wide data")."""
        limit = self._candidate_limit(n_variables)
        unscreened = limit is None or limit >= n_variables - 1  # as screened_candidates decides
        return isinstance(self.start, str) and self.start == "auto" and unscreened

    def _screens_moves(self, score) -> bool:
        """Whether the climbs under ``score`` screen moves (``screen_moves``; without labels nothing is saved)."""
        return bool(self.screen_moves) and score.labels

    def _climb_settings(self) -> tuple:
        return self.tabu_length, self.max_indegree, self.max_iter, self._candidates, self._deadline

    def _widen(self, score, X, best: DAG, best_score: float) -> tuple[DAG, float]:
        """With screened candidates, widen them given the best DAG and climb again, until none joins.

        Each round adds the pairs whose BDeu term gains given the best DAG's parents
        (:func:`~pgmpy_sgm.causal_discovery._candidates.widened_candidates`) and climbs from
        the best DAG with them; the widened candidates serve the turns and restarts too. After
        the first round only the nodes whose parents the climb changed are screened again (the
        others would add nothing).
        """
        self.n_candidates_added_ = 0
        if self._candidates is None or not self.widen_candidates:
            return best, best_score
        columns = list(X.columns)
        fits = mask_fits(score, columns)
        screened = None  # the parents each node was last screened with
        for _ in range(MAX_WIDENINGS):
            if self._out_of_time():
                break
            parents = parent_masks(best, columns)
            nodes = None if screened is None else [y for y, mask in enumerate(parents) if mask != screened[y]]
            self._candidates, added = widened_candidates(score, parents, self._candidates, fits, nodes,
                                                         self._out_of_time)  # fmt: skip
            screened = parents
            self.n_candidates_added_ += added
            if not added:
                break
            result = climb_dag(score, X, best, *self._climb_settings(), screen=self._screens_moves(score))
            self._record("widened", result)
            if result[1] <= best_score + 1e-9:
                break
            best, best_score = result[0], result[1]
        return best, best_score

    def _turns(self, score, X, best: DAG, best_score: float, bar) -> tuple[DAG, float]:
        """Climbs from turns of the best DAG (:func:`~pgmpy_sgm.causal_discovery._iterated_climb.turn_sweeps`).

        The progress bar's text counts the turns climbed and shows the best score so far.
        """
        share = self.turn_budget_ = self._turn_budget(X.shape[1])
        budget = None if share is None else share * self._first_moves
        settings, fits, columns = self._climb_settings(), name_fits(score), list(X.columns)
        best_so_far = best_score

        def on_result(result, kind: str) -> None:
            nonlocal best_so_far
            self._record("turn" if kind == "turn" else "swaps", result)
            best_so_far = max(best_so_far, result[1])
            bar.set_postfix_str(f"turns {self.climb_starts_.count('turn')}, best {best_so_far:.2f}")

        screen = self._screens_moves(score)
        memory = climb_memory(score, columns, screen)  # a turn's climb starts from the state of a nearby one

        def polish(start: DAG) -> tuple:
            return climb_dag(score, X, start, *settings, swaps=True, screen=screen, memory=memory)

        result = turn_sweeps(lambda start: climb_dag(score, X, start, *settings, screen=screen, memory=memory),
                             lambda dag, node, into: turn_edges(dag, node, into, self.max_indegree, fits),
                             lambda dag: turn_candidates(dag, columns), best, best_score, budget, self._deadline,
                             on_result, polish if self.parent_swaps else None)  # fmt: skip
        self.turns_stopped_by_ = result.stopped_by
        return result.best, result.best_score

    def _restarts(self, score, X, best: DAG, best_score: float, rng, bar) -> tuple[DAG, float]:
        """Kicked climbs from the best DAG (:func:`~pgmpy_sgm.causal_discovery._iterated_climb.iterated_climb`)."""
        d = X.shape[1]
        base_kick = self.perturbation or max(2, d // 3)
        budget = None if self.restart_budget is None else self.restart_budget * self._first_moves
        plan = RestartPlan(self.n_restarts, base_kick, max(base_kick, d * (d - 1) // 2), budget, self._deadline,
                           joblib.effective_n_jobs(self.n_jobs))  # fmt: skip
        settings, fits = self._climb_settings(), name_fits(score)
        screen = self._screens_moves(score)
        memory = climb_memory(score, list(X.columns), screen) if plan.n_jobs == 1 else None  # workers: none

        def climb(start: DAG):
            return climb_dag(score, X, start, *settings, screen=screen, memory=memory)

        def kick(dag: DAG, size: int, rng) -> DAG:
            return perturb(dag, size, self.max_indegree, rng, self._candidates, fits)

        result = iterated_climb(climb, kick, best, best_score, plan, rng, functools.partial(self._record, "restart"),
                                bar.update)  # fmt: skip
        self.restarts_stopped_by_ = result.stopped_by
        return result.best, result.best_score

    def _run_chain(self, score, X, best: DAG, best_score: float, rng) -> tuple[DAG, float]:
        """With ``n_mcmc > 0``, the Metropolis chain from ``best``: its posterior, and a better DAG if found."""
        self.posterior_ = self.edge_probabilities_ = self.acceptance_rate_ = None
        self.n_visited_ = 0
        self.chain_best_scores_ = np.zeros(0, dtype=np.float64)
        if self.n_mcmc == 0:
            return best, best_score
        columns = list(X.columns)
        chain = dag_chain(score.local_score, columns, best.edges(), self.n_mcmc, rng, self.max_indegree, self._deadline)
        if chain.best_score > best_score + 1e-9:
            best = DAG()
            best.add_nodes_from(columns)
            best.add_edges_from(chain.best)
            best_score = float(score.score(best))
        self.posterior_, self.edge_probabilities_ = visited_posterior(chain.visited, columns)
        self.n_visited_ = len(chain.visited)
        self.acceptance_rate_ = chain.acceptance_rate
        self.chain_best_scores_ = np.array([chain.best_score], dtype=np.float64)
        return best, best_score

    def _labelled_model(self, score, dag: DAG, X, counts, columns: list) -> LabeledBayesianNetwork:
        """The DAG with its optimal labels and fitted parameters; each node's parents in name order."""
        position = {v: i for i, v in enumerate(X.columns)}
        model = LabeledBayesianNetwork(state_names=score.state_names)
        model.add_nodes_from(columns)
        model.add_edges_from(sorted(dag.edges(), key=lambda e: (position[e[1]], position[e[0]])))
        for node in model.nodes():
            parents = tuple(model.get_parents(node))
            ids = score.best_labelling(node, parents).group_ids
            if int(ids.max()) + 1 < ids.size:
                model.set_classes(node, parents, ids)
        model.equivalent_sample_size = self.ess_  # a later fit without an estimator keeps it
        encoded = score.encoded
        total = float(np.sum(counts)) if counts is not None else float(len(X))
        if encoded.variables == list(X.columns) and encoded.n == total:  # the score's codes are X's: fit from them
            return model._fit_encoded(encoded, fit_spec(None, self.ess_))
        return model.fit(X, weights=counts, state_names=score.state_names)

    # -- scoring ------------------------------------------------------------------------
    def _score_data(self, X) -> float:
        """Log unnormalized posterior of ``model_`` (its DAG and labels) on ``X``: ``score(X)``.

        The labels are kept as fitted; the score, its settings and the state names are
        those of the fit. A count column named by ``weights`` is used when ``X`` has it;
        array ``weights`` apply to the fitted data only (each row of ``X`` counts once).

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"a": [0, 1] * 50, "b": [0, 1] * 49 + [1, 0]})
        >>> est = LDAGSearch(n_restarts=0, show_progress=False).fit(df)
        >>> round(est.score(df) - est.best_score_, 9)
        0.0
        >>> from pgmpy.structure_score import BDeu
        >>> head = df.head(10)  # two variables carry no labels: pgmpy's BDeu with the same ESS
        >>> bool(abs(est.score(head) - BDeu(head, equivalent_sample_size=5).score(est.causal_graph_)) < 1e-9)
        True
        """
        weights = self.weights if isinstance(self.weights, str) and isinstance(X, pd.DataFrame) else None
        if weights is not None and weights not in X.columns:
            weights = None
        variables = X.drop(columns=[weights]) if weights else X
        check_features(self, variables, reset=False)
        if not isinstance(variables, pd.DataFrame):  # columns in the fitted order (scikit-learn has warned)
            variables = pd.DataFrame(variables, columns=list(self.feature_names_in_))
        counts = None if weights is None else X[weights].to_numpy()
        score = self._score_with(variables[self.scorer_.variables], counts, self.ess_,
                                 {v: list(s) for v, s in self.scorer_.state_names.items()})  # fmt: skip
        model = self.model_
        return float(math.fsum(score.family_score(node, *model.get_classes(node)) for node in model.nodes()))
