"""Learning labelled DAGs: tabu hill climbs from an equivalence-class start and the empty graph, then restarts."""

from __future__ import annotations

import time
from numbers import Integral, Real

import joblib
import networkx as nx
import numpy as np
import pandas as pd
from pgmpy.base import DAG
from pgmpy.causal_discovery import HillClimbSearch
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from pgmpy_sgm.causal_discovery._base import check_score_arguments
from pgmpy_sgm.causal_discovery._dag_chain import dag_chain, visited_posterior
from pgmpy_sgm.causal_discovery._equivalence_search import _bits, greedy_equivalence_search
from pgmpy_sgm.core.arguments import random_generator
from pgmpy_sgm.core.data import check_frame
from pgmpy_sgm.structure_score.ldag_score import DEFAULT_KAPPA

__all__ = ["LDAGSearch"]

_STARTS = ("auto", "ges", "empty")


def _perturb(dag: DAG, n_moves: int, max_indegree: int | None, rng: np.random.Generator) -> DAG:
    """``n_moves`` random edge additions, deletions or reversals that keep the graph acyclic."""
    out = DAG()
    out.add_nodes_from(dag.nodes())
    out.add_edges_from(dag.edges())
    nodes = list(out.nodes())
    done, tries = 0, 0
    while done < n_moves and tries < 50 * n_moves and len(nodes) > 1:
        tries += 1
        u, v = (nodes[i] for i in rng.choice(len(nodes), 2, replace=False))
        if out.has_edge(u, v):
            if rng.random() < 0.5:
                out.remove_edge(u, v)
                done += 1
                continue
            out.remove_edge(u, v)
            if (max_indegree is None or out.in_degree(u) < max_indegree) and not nx.has_path(out, u, v):
                out.add_edge(v, u)
                done += 1
            else:
                out.add_edge(u, v)
        elif not out.has_edge(v, u):
            if (max_indegree is None or out.in_degree(v) < max_indegree) and not nx.has_path(out, v, u):
                out.add_edge(u, v)
                done += 1
    return out


def _pooled(X, weights) -> tuple[pd.DataFrame, np.ndarray | None]:
    """Rows as given, or distinct rows with counts for weighted data and Dask DataFrames."""
    from pgmpy_sgm.core.pooling import is_dask_frame, pool_data

    if weights is None and not is_dask_frame(X):
        check_frame(X)
        return X, None
    return pool_data(X, weights)


class _OrderedHillClimb(HillClimbSearch):
    """pgmpy's ``HillClimbSearch`` with ties between moves broken in a fixed order.

    pgmpy takes the first best move in the iteration order of a Python set of candidate
    edges, which depends on the interpreter's string hash seed (``PYTHONHASHSEED``).
    Here the candidate moves are sorted (kind of move, then the columns' positions in
    the data) before pgmpy picks the first best one, so equal-scoring moves (frequent:
    BDeu scores both orientations of a new edge alike) are always resolved the same way.
    """

    n_moves_scored_ = 0

    def _legal_operations_dag(self, *args, **kwargs):
        position = {v: i for i, v in enumerate(self.variables_)}
        ops = list(super()._legal_operations_dag(*args, **kwargs))
        ops.sort(key=lambda t: (t[0][0], position[t[0][1][0]], position[t[0][1][1]]))
        self.n_moves_scored_ += len(ops)
        return iter(ops)


def _climb(score, X, start: DAG, tabu_length: int, max_indegree, max_iter: int) -> tuple[DAG, float, float, int, int]:
    """One tabu climb: the DAG reached, its score, seconds taken, families labelled anew, moves scored."""
    t0, n0 = time.perf_counter(), len(score._labelling_cache)
    if len(X) < 2:  # pooled data with one distinct row: the climb reads only the columns of X
        X = pd.concat([X, X], ignore_index=True)
    est = _OrderedHillClimb(
        scoring_method=score,
        start_dag=start,
        tabu_length=tabu_length,
        max_indegree=max_indegree,
        max_iter=max_iter,
        return_type="dag",
        show_progress=False,
    ).fit(X)
    dag = est.causal_graph_
    return dag, float(score.score(dag)), time.perf_counter() - t0, len(score._labelling_cache) - n0, est.n_moves_scored_


class LDAGSearch(BaseEstimator):
    """Labelled DAG learner: tabu hill climbing over DAGs under :class:`~pgmpy_sgm.structure_score.LDAGScore`.

    Every DAG is scored with each family under its optimal labelling (the LDAG score of
    Pensar et al. [1]_), so the search moves over DAGs and the labels follow. A climb is
    pgmpy's ``HillClimbSearch`` (with a tabu list) under that score, with ties between
    equally good moves broken by the columns' order (pgmpy itself breaks them in the
    order of a Python set, which changes with ``PYTHONHASHSEED``). By default
    (``start="auto"``) there are two first climbs, and the better result is kept: one from
    the empty graph, and one from the result of a greedy equivalence search [2]_ under the
    same score without labels (BDeu, which gives every DAG of an equivalence class the
    same score). The equivalence search adds and then removes edges of a CPDAG, so it
    does not commit to an edge's direction before the data decide it, which is where a
    climb over DAGs gets trapped (an edge added early in the wrong direction, then
    compensated by extra parents); but it is greedy too and is trapped elsewhere, so
    neither start is better on every data set (``benchmarks/RESULTS.md``). Each of
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

    Parameters
    ----------
    equivalent_sample_size : float, default=5.0
        ESS of the BDeu hyperparameters (score and parameters).
    start : {"auto", "ges", "empty"} or pgmpy.base.DAG, default="auto"
        Where the first climbs start: ``"ges"`` the DAG of a greedy equivalence search
        without labels (an extension of the CPDAG it ends at), ``"empty"`` the empty graph,
        ``"auto"`` both (two climbs), or a given DAG over the data's columns.
    kappa : float, default=0.2
        Structure-prior factor per free parameter removed by labels (see ``LDAGScore``).
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
    seed : int, default=0
        Seed of the perturbations.
    show_progress : bool, default=False
        Progress bar over the climbs: the first climbs and at most ``n_restarts`` restarts; when
        ``restart_budget`` or ``max_time`` stops the restarts early, the bar ends there, at its total.
    max_time : float, optional
        Seconds after which no further restart is started (a climb is not interrupted).
    restart_budget : float or None, default=0.25
        Work allowed to the restarts, as a multiple of the moves scored by the longest first climb
        (None: all ``n_restarts``; 0: none). A count, not a clock: the result does not
        depend on the machine's load. The default allows one restart on the bnlearn
        networks of ``benchmarks/predictive.py``, where a fit then takes at most about 1.5x
        the time of pgmpy's ``HillClimbSearch``. With climbs from the empty graph only, the
        first restart gained 45-200 log-units on insurance and child (data outside that
        benchmark); with the equivalence-search start it changed the held-out likelihood
        on one setting of the benchmark in 12 (``benchmarks/RESULTS.md``).
    n_jobs : int, default=1
        Parallel restarts (joblib); restarts then run in rounds from the best DAG of the
        previous round.
    n_mcmc : int, default=0
        Iterations of the Metropolis chain after the climbs (0: none).
    max_labelled_configs : int or None, default=64
        Families with more parent configurations stay unlabelled (see ``LDAGScore``).
    labels : bool, default=True
        ``False`` searches plain DAGs under BDeu with the same ESS (an ablation).
    weights : str or array-like, optional
        Name of a count column of ``X`` (it is then not a variable), or one count per row.
        Weighted data and Dask DataFrames are pooled into distinct rows with counts
        (:func:`~pgmpy_sgm.core.pooling.pool_data`) and learned from that table: the hill
        climb needs only the columns, and the score and parameters only the counts.

    Attributes
    ----------
    causal_graph_ : pgmpy.base.DAG
    adjacency_matrix_ : pandas.DataFrame
    model_ : LabeledBayesianNetwork
        The DAG with its optimal labels and TreeCPDs fitted (BDeu posterior means).
    best_score_ : float
        LDAG score (log marginal likelihood plus log structure prior) of ``causal_graph_``.
    climb_scores_ : list of float
        Score reached by each climb, in order.
    climb_seconds_ : list of float
        Seconds taken by each climb.
    climb_moves_ : list of int
        Candidate moves scored by each climb (the work ``restart_budget`` counts).
    climb_new_families_ : list of int
        Families labelled for the first time during each climb.
    climb_starts_ : list of str
        Where each climb started: ``"ges"``, ``"empty"``, ``"given"`` or ``"restart"``.
    restarts_stopped_by_ : str
        Why no further restart ran: ``"n_restarts"`` (all of them ran), ``"restart_budget"``
        (the next one would have exceeded the budget) or ``"max_time"``.
    start_scores_ : dict
        LDAG score of the DAG each first climb started from, by start.
    ges_steps_ : list of tuple or None
        With ``start`` ``"ges"`` or ``"auto"``: the equivalence search's operators in the order applied,
        ``(kind, x, y, subset, gain)`` with ``kind`` ``"insert"`` or ``"delete"``, column names
        for ``x`` and ``y`` and a tuple of names for the subset (``T`` or ``H``).
    scoring_method_ : LDAGScore
    posterior_ : pandas.DataFrame or None
        With ``n_mcmc > 0``: the 50 most probable visited DAGs (``edges``, ``n_edges``,
        ``log_score``, ``probability``), probabilities normalised over all visited DAGs.
    edge_probabilities_ : pandas.DataFrame or None
        With ``n_mcmc > 0``: posterior probability of every directed edge seen.
    n_visited_ : int
        Distinct DAGs visited by the chain (0 without it).
    acceptance_rate_ : float or None

    Notes
    -----
    The result does not depend on the interpreter's hash seed: labellings are computed
    per parent set in the data's column order and ties between moves are broken in
    column order. With ``max_time`` or ``n_jobs > 1`` it can depend on timing and on the
    number of workers.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> est = LDAGSearch(n_restarts=1).fit(load_heart_disease())
    >>> len(est.causal_graph_.nodes()), est.model_.n_free_parameters() > 0
    (6, True)

    References
    ----------
    .. [1] J. Pensar, H. Nyman, T. Koski and J. Corander. Labeled directed acyclic graphs: a
       generalization of context-specific independence in directed graphical models. Data
       Mining and Knowledge Discovery 29(2), 503-533, 2015.
    .. [2] D. M. Chickering. Optimal structure identification with greedy search. Journal of
       Machine Learning Research 3, 507-554, 2002.
    """

    def __init__(
        self,
        equivalent_sample_size: float = 5.0,
        kappa: float = DEFAULT_KAPPA,
        start: str | DAG = "auto",
        n_restarts: int = 10,
        perturbation: int | None = None,
        tabu_length: int = 100,
        max_indegree: int | None = None,
        max_iter: int = 1_000_000,
        state_names: dict | None = None,
        seed: int = 0,
        show_progress: bool = False,
        max_time: float | None = None,
        restart_budget: float | None = 0.25,
        n_jobs: int = 1,
        n_mcmc: int = 0,
        max_labelled_configs: int | None = 64,
        labels: bool = True,
        weights: str | np.ndarray | None = None,
    ):
        self.equivalent_sample_size = equivalent_sample_size
        self.kappa = kappa
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
        self.n_jobs = n_jobs
        self.n_mcmc = n_mcmc
        self.max_labelled_configs = max_labelled_configs
        self.labels = labels
        self.weights = weights

    def _check_params(self) -> None:
        for name in ("n_restarts", "tabu_length", "n_mcmc"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, Integral) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer. Got: {value!r}")
        for name in ("perturbation", "max_indegree"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, Integral) or value < 1):
                raise ValueError(f"{name} must be a positive integer or None. Got: {value!r}")
        if isinstance(self.max_iter, bool) or not isinstance(self.max_iter, Integral) or self.max_iter < 1:
            raise ValueError(f"max_iter must be a positive integer. Got: {self.max_iter!r}")
        if self.max_time is not None and (not isinstance(self.max_time, Real) or not self.max_time > 0):
            raise ValueError(f"max_time must be a positive number of seconds or None. Got: {self.max_time!r}")
        if self.restart_budget is not None and (
            isinstance(self.restart_budget, bool)
            or not isinstance(self.restart_budget, Real)
            or not self.restart_budget >= 0
        ):
            raise ValueError(f"restart_budget must be a non-negative number or None. Got: {self.restart_budget!r}")
        if isinstance(self.n_jobs, bool) or not isinstance(self.n_jobs, Integral) or self.n_jobs == 0:
            raise ValueError(f"n_jobs must be a non-zero integer. Got: {self.n_jobs!r}")
        random_generator(self.seed)  # refuses a seed numpy would refuse, by name
        for name in ("labels", "show_progress"):
            if not isinstance(getattr(self, name), bool | np.bool_):
                raise TypeError(f"{name} must be True or False. Got: {getattr(self, name)!r}")
        if not isinstance(self.start, nx.DiGraph) and not (isinstance(self.start, str) and self.start in _STARTS):
            raise ValueError(f"start must be one of {_STARTS} or a pgmpy DAG. Got: {self.start!r}")

    def _start_dags(self, score, columns: list) -> list[tuple[str, DAG]]:
        """The DAGs the first climbs start from (``self.start``), with the start's name."""
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
            out.append(("ges", self._ges_dag(score, columns)))
        if self.start in ("auto", "empty"):
            empty = DAG()
            empty.add_nodes_from(columns)
            out.append(("empty", empty))
        return out

    def _ges_dag(self, score, columns: list) -> DAG:
        """A DAG in the equivalence class found by the greedy equivalence search without labels."""
        dag = DAG()
        dag.add_nodes_from(columns)

        def family(y: int, mask: int) -> float:
            return score.unlabelled_score(columns[y], tuple(columns[i] for i in _bits(mask)))

        found = greedy_equivalence_search(family, len(columns), self.max_indegree)
        dag.add_edges_from((columns[p], columns[y]) for y, mask in enumerate(found.parents) for p in _bits(mask))
        self.ges_steps_ = [
            (kind, columns[x], columns[y], tuple(columns[i] for i in _bits(subset)), gain)
            for kind, x, y, subset, gain in found.steps
        ]
        return dag

    def fit(self, X: pd.DataFrame, y=None) -> LDAGSearch:
        """Learn a labelled DAG from discrete data ``X``.

        Parameters
        ----------
        X : pandas.DataFrame
            One row per observation, or a table of counts with the estimator's ``weights``
            (scored and fitted as it is, without expanding it into rows), or a Dask DataFrame.
        y : None
            Ignored (scikit-learn convention).

        Returns
        -------
        LDAGSearch
            ``self``.

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"a": [0, 1] * 50, "b": [0, 1] * 50})
        >>> sorted(LDAGSearch(n_restarts=0).fit(df).adjacency_matrix_.sum().tolist())
        [0, 1]
        >>> table = pd.DataFrame({"a": [0, 1], "b": [0, 1], "n": [50, 50]})  # the same data as counts
        >>> sorted(LDAGSearch(n_restarts=0, weights="n").fit(table).adjacency_matrix_.sum().tolist())
        [0, 1]
        """
        from tqdm.auto import tqdm

        from pgmpy_sgm.models import LabeledBayesianNetwork
        from pgmpy_sgm.structure_score import LDAGScore

        self._check_params()
        X, counts = _pooled(X, self.weights)
        variables = X
        n_samples = X.shape[0] if counts is None else counts.sum()
        if n_samples < 2:
            raise ValueError(f"n_samples = {n_samples:.0f}, at least 2 are required.")
        start_time = time.perf_counter()
        score = LDAGScore(
            X,
            weights=counts,
            equivalent_sample_size=self.equivalent_sample_size,
            kappa=self.kappa,
            state_names=self.state_names,
            max_labelled_configs=self.max_labelled_configs,
            labels=self.labels,
        )
        self.feature_names_in_ = np.asarray(list(variables.columns), dtype=object)
        self.n_features_in_ = variables.shape[1]
        rng = np.random.default_rng(self.seed)
        base_kick = self.perturbation or max(2, variables.shape[1] // 3)
        kick, max_kick = base_kick, max(base_kick, variables.shape[1] * (variables.shape[1] - 1) // 2)
        starts = self._start_dags(score, list(variables.columns))
        self.start_scores_ = {name: float(score.score(dag)) for name, dag in starts}
        bar = tqdm(total=len(starts) + self.n_restarts, disable=not self.show_progress, desc="LDAG climbs")
        self.climb_scores_, self.climb_seconds_, self.climb_starts_ = [], [], []
        self.climb_new_families_, self.climb_moves_ = [], []
        best, best_score = None, -np.inf
        for name, start in starts:
            dag, value, seconds, n_new, moves = _climb(
                score, variables, start, self.tabu_length, self.max_indegree, self.max_iter
            )
            self.climb_scores_.append(value)
            self.climb_seconds_.append(seconds)
            self.climb_starts_.append(name)
            self.climb_new_families_.append(n_new)
            self.climb_moves_.append(moves)
            if value > best_score + 1e-9:  # ties keep the earlier start
                best, best_score = dag, value
            bar.update(1)
        n_jobs = joblib.effective_n_jobs(self.n_jobs)
        remaining = self.n_restarts
        budget = None if self.restart_budget is None else self.restart_budget * max(self.climb_moves_)
        spent, done = 0, 0
        self.restarts_stopped_by_ = "n_restarts"
        while remaining > 0:
            if self.max_time is not None and time.perf_counter() - start_time >= self.max_time:
                self.restarts_stopped_by_ = "max_time"
                break
            # the next restart is expected to cost what the restarts before it cost on average
            if budget is not None and (budget <= 0 or spent + (spent / done if done else 0) > budget):
                self.restarts_stopped_by_ = "restart_budget"
                break
            batch = min(remaining, n_jobs)
            starts = [_perturb(best, kick, self.max_indegree, rng) for _ in range(batch)]
            if batch == 1:
                results = [_climb(score, variables, starts[0], self.tabu_length, self.max_indegree, self.max_iter)]
            else:
                results = joblib.Parallel(n_jobs=batch)(
                    joblib.delayed(_climb)(score, variables, s, self.tabu_length, self.max_indegree, self.max_iter)
                    for s in starts
                )
            improved = False
            for dag, value, seconds, n_new, moves in results:
                self.climb_scores_.append(value)
                self.climb_seconds_.append(seconds)
                self.climb_starts_.append("restart")
                self.climb_new_families_.append(n_new)
                self.climb_moves_.append(moves)
                spent, done = spent + moves, done + 1
                if value > best_score + 1e-9:
                    best, best_score, improved = dag, value, True
            # a kick the climb repairs is too small: escalate until a restart improves
            kick = base_kick if improved else min(kick + 1, max_kick)
            remaining -= batch
            bar.update(batch)
        if bar.n < bar.total:  # the restarts not run are not left as work to come
            bar.total = bar.n
            bar.set_postfix_str(f"stopped by {self.restarts_stopped_by_}")
        bar.close()
        self.posterior_ = self.edge_probabilities_ = self.acceptance_rate_ = None
        self.n_visited_ = 0
        if self.n_mcmc > 0:
            chain = dag_chain(
                score.local_score, list(variables.columns), best.edges(), self.n_mcmc, rng, self.max_indegree
            )
            if chain.best_score > best_score + 1e-9:
                best = DAG()
                best.add_nodes_from(variables.columns)
                best.add_edges_from(chain.best)
                best_score = float(score.score(best))
            self.posterior_, self.edge_probabilities_ = visited_posterior(chain.visited)
            self.n_visited_ = len(chain.visited)
            self.acceptance_rate_ = chain.acceptance_rate
            self.chain_best_score_ = chain.best_score
        self.best_score_ = best_score
        self.scoring_method_ = score
        self.causal_graph_ = DAG()
        self.causal_graph_.add_nodes_from(variables.columns)
        self.causal_graph_.add_edges_from(best.edges())
        self.adjacency_matrix_ = nx.to_pandas_adjacency(self.causal_graph_, weight=1, dtype="int")
        model = LabeledBayesianNetwork(state_names=score.state_names)
        model.add_nodes_from(variables.columns)
        model.add_edges_from(best.edges())
        for node in model.nodes():
            parents = tuple(model.get_parents(node))
            ids = score.best_labelling(node, parents).group_ids
            if int(ids.max()) + 1 < ids.size:
                model.set_classes(node, parents, ids)
        model.fit(X, equivalent_sample_size=self.equivalent_sample_size, weights=counts, state_names=score.state_names)
        self.model_ = model
        self.fit_time_ = time.perf_counter() - start_time
        return self

    def score(self, X=None, true_graph=None, metric=None):
        """Score the learned graph against data (``X``) or a true graph, with pgmpy's metrics.

        Parameters
        ----------
        X : pandas.DataFrame, optional
            Data for a data metric (``pgmpy.metrics.get_metrics(requires_data=True)``).
        true_graph : pgmpy.base.DAG, optional
            True graph for a graph metric (``get_metrics(requires_true_graph=True)``).
        metric : str or metric instance, optional
            Default: pgmpy's default metric for the given argument.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy.base import DAG
        >>> df = pd.DataFrame({"a": [0, 1] * 50, "b": [0, 1] * 50})
        >>> est = LDAGSearch(n_restarts=0).fit(df)
        >>> est.score(true_graph=DAG(est.causal_graph_.edges()), metric="SHD")  # structural Hamming distance
        0
        """
        from pgmpy.metrics import get_metrics

        check_is_fitted(self, "causal_graph_")
        check_score_arguments(self.causal_graph_, X, true_graph)
        if X is not None:
            if not isinstance(X, pd.DataFrame):
                raise TypeError(f"X must be a pandas DataFrame, got {type(X).__name__}")
            kind = {"requires_data": True}
        elif true_graph is not None:
            kind = {"requires_true_graph": True}
        else:
            raise ValueError("Either `X` or `true_graph` needs to be specified")
        if metric is None:
            metric = get_metrics(**kind, is_default=True)[0]()
        elif isinstance(metric, str):
            found = get_metrics(name=metric)
            if len(found) == 0:
                raise ValueError(f"No scoring method found with name: {metric}")
            metric = found[0]()
        if X is not None:
            return metric.evaluate(X, self.causal_graph_)
        return metric.evaluate(true_causal_graph=true_graph, est_causal_graph=self.causal_graph_)
