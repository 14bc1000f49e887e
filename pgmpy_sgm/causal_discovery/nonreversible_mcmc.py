"""Non-reversible Metropolis-Hastings search over decomposable stratified graphs."""

from __future__ import annotations

import os
import time
import warnings
from numbers import Integral

import joblib
import networkx as nx
import numpy as np
import pandas as pd
from pgmpy import config
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from pgmpy_sgm.causal_discovery._base import DecomposableCausalGraphMixin
from pgmpy_sgm.causal_discovery._chain import (
    ChainData,
    greedy_decomposable,
    new_chain_state,
    run_segment,
    tables_for,
)
from pgmpy_sgm.causal_discovery._checkpoint import read_checkpoint, write_checkpoint
from pgmpy_sgm.causal_discovery._order import canonical_order, in_column_order
from pgmpy_sgm.causal_discovery._posterior import edge_probability_frame, posterior_frame
from pgmpy_sgm.core.data import check_frame
from pgmpy_sgm.core.moves import ScoreTables, chordal_families

__all__ = ["NonReversibleMCMC", "FitInterruptedWarning", "CheckpointWarning"]

#: Rows of ``posterior_`` whose strata (and number of labels) are filled in: the top rows
#: holding 99.9% of the estimated posterior mass, but at least 100 and at most 1000 rows.
POSTERIOR_STRATA_ROWS = (100, 0.999, 1000)

#: Target duration of a segment of parallel chains run without a checkpoint.
SEGMENT_SECONDS = 2.0

_STARTS = ("empty", "best_gm")


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


class CheckpointWarning(RuntimeWarning):
    """A checkpoint could not be written; the run went on and the previous checkpoint is intact.

    Examples
    --------
    >>> issubclass(CheckpointWarning, RuntimeWarning)
    True
    """


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

    The search runs on the variables in a canonical order, sorted by column name
    (``str`` of the name, then its type name), so the same data with permuted columns
    and the same seed give the same graphs and scores; the fitted attributes list the
    variables in the data's column order.

    Parameters
    ----------
    n_iter : int, default=2000
        Iterations per chain (each is one decomposable proposal).
    n_chains : int, default=2
        Independent chains; their visited graphs are pooled.
    strata : bool, default=True
        False learns ordinary decomposable graphical models with the same score and prior.
    start : {"empty", "best_gm"}, networkx.Graph, StratifiedGraph or list of edges, default="empty"
        Start of every chain: the empty graph, the result of a deterministic greedy hill
        climb over decomposable graphs without strata, or a decomposable graph over the
        data's columns (its strata are ignored).
    max_labelled_clique : int, default=5
        Larger cliques stay unlabelled (see :class:`~pgmpy_sgm.structure_score.SGMScore`).
    weights : str or array-like, optional
        Name of a count column of ``X`` (it is then not a variable), or one count per row.
    state_names : dict, optional
        ``{variable: [states]}`` as in pgmpy.
    prior : {"paper", "uniform"}, default="paper"
        Structure prior, :math:`P(G_L) \propto 2^{d - f(G)}` or flat.
    seed : int, optional
        Seed; chain ``c`` uses ``numpy.random.SeedSequence(seed).spawn(n_chains)[c]``, so
        the results do not depend on ``n_jobs`` or ``backend``.
    n_jobs : int, default=1
        Chains run in parallel through joblib.
    backend : str, optional
        A joblib backend (e.g. ``"loky"``, ``"dask"`` with a ``dask.distributed.Client``,
        ``"ray"``), used through ``joblib.parallel_config``.
    show_progress : bool, default=True
        Show a progress bar (also needs ``pgmpy.config.SHOW_PROGRESS``).
    checkpoint : str or path, optional
        JSON file to which the full state of the run is written (atomically) every
        ``checkpoint_every`` iterations and when the run is interrupted.
    resume : bool, default=False
        Continue the run stored in ``checkpoint`` (a missing file starts a new run). The
        result is identical to an uninterrupted run with the same seed.
    checkpoint_every : int, default=1000
        Iterations between checkpoints; parallel chains also synchronize this often.
    return_type : {"pdag", "dag"}, default="pdag"
        Form of ``causal_graph_``, as in pgmpy's structure learners.

    Attributes
    ----------
    model_ : StratifiedGraph
        The best stratified graph visited, with the data's state names.
    best_score_ : float
        Its log unnormalized posterior.
    posterior_ : pandas.DataFrame
        One row per distinct visited graph (pooled over chains), sorted by
        ``log_posterior`` (descending): ``edges`` (tuple of ``(u, v)``), ``strata`` (as
        :attr:`StratifiedGraph.strata`), ``log_posterior``, ``probability`` (normalized
        over the visited graphs), ``n_edges``, ``n_labels``. ``strata`` and ``n_labels``
        are filled for the top rows holding 99.9% of the mass (at least 100, at most
        1000 rows) and are None/<NA> below.
    edge_probabilities_ : pandas.DataFrame of shape (n_variables, n_variables)
        Posterior probability of each edge (symmetric, diagonal 0).
    trace_ : numpy.ndarray of shape (n_chains, n_iter + 1)
        Log unnormalized posterior of the current state, from the start state on (NaN
        after the last iteration of a chain stopped by an interruption).
    chain_best_scores_ : numpy.ndarray of shape (n_chains,)
    chain_best_iterations_ : numpy.ndarray of shape (n_chains,)
        Iteration at which each chain first reached its best graph.
    n_visited_ : int
        Distinct graphs visited (pooled).
    acceptance_rate_ : float
        Accepted proposals over iterations, pooled over chains.
    n_iter_ : int
        Iterations run per chain (less than ``n_iter`` only after an interruption).
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

    References
    ----------
    .. [1] H. Nyman, J. Pensar, T. Koski and J. Corander. Stratified graphical models:
       context-specific independence in graphical models. Bayesian Analysis 9(4), 2014.
    .. [2] J. Corander, M. Ekdahl and T. Koski. Parallel interacting MCMC for learning of
       topologies of graphical models. Data Mining and Knowledge Discovery 17, 2008.
    """

    def __init__(
        self,
        n_iter=2000,
        n_chains=2,
        strata=True,
        start="empty",
        max_labelled_clique=5,
        weights=None,
        state_names=None,
        prior="paper",
        seed=None,
        n_jobs=1,
        backend=None,
        show_progress=True,
        checkpoint=None,
        resume=False,
        checkpoint_every=1000,
        return_type="pdag",
    ):
        self.n_iter = n_iter
        self.n_chains = n_chains
        self.strata = strata
        self.start = start
        self.max_labelled_clique = max_labelled_clique
        self.weights = weights
        self.state_names = state_names
        self.prior = prior
        self.seed = seed
        self.n_jobs = n_jobs
        self.backend = backend
        self.show_progress = show_progress
        self.checkpoint = checkpoint
        self.resume = resume
        self.checkpoint_every = checkpoint_every
        self.return_type = return_type

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = False
        tags.input_tags.positive_only = False
        tags.target_tags.required = False
        return tags

    # -- validation ------------------------------------------------------------------
    def _check_fit_data(self, X):
        if isinstance(X, pd.DataFrame):  # clear messages naming the column before sklearn's generic ones
            check_frame(X, self.weights if isinstance(self.weights, str) else None)
        n_samples, n_features = X.shape
        if n_features == 0:
            raise ValueError(f"0 feature(s) (shape={X.shape}) while a minimum of 1 is required.")
        if n_samples < 2:
            raise ValueError(f"n_samples = {n_samples}, at least 2 are required.")
        validate_data(self, X=X, dtype=None, accept_sparse=False, ensure_all_finite=True, reset=True)
        if not isinstance(X, pd.DataFrame):
            X = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        self.n_features_in_ = len(X.columns)
        return X

    @staticmethod
    def _check_int(name, value, low):
        if isinstance(value, bool) or not isinstance(value, Integral) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}. Got: {value!r}")
        return int(value)

    def _check_params(self):
        n_iter = self._check_int("n_iter", self.n_iter, 1)
        n_chains = self._check_int("n_chains", self.n_chains, 1)
        every = self._check_int("checkpoint_every", self.checkpoint_every, 1)
        self._check_return_type()
        self._check_int("max_labelled_clique", self.max_labelled_clique, 2)
        if not isinstance(self.strata, bool | np.bool_):
            raise TypeError(f"strata must be a bool. Got: {self.strata!r}")
        if self.prior not in ("paper", "uniform"):
            raise ValueError(f"prior must be one of ('paper', 'uniform'). Got: {self.prior!r}")
        if self.seed is not None:
            self._check_int("seed", self.seed, 0)
        if self.n_jobs is not None and (isinstance(self.n_jobs, bool) or not isinstance(self.n_jobs, Integral)):
            raise TypeError(f"n_jobs must be an integer or None. Got: {self.n_jobs!r}")
        if self.n_jobs == 0:
            raise ValueError(f"n_jobs must be a non-zero integer (negative: CPUs + 1 + n_jobs). Got: {self.n_jobs}")
        if self.backend is not None and not isinstance(self.backend, str):
            raise TypeError(f"backend must be a joblib backend name or None. Got: {self.backend!r}")
        for name in ("show_progress", "resume"):
            if not isinstance(getattr(self, name), bool | np.bool_):
                raise TypeError(f"{name} must be a bool. Got: {getattr(self, name)!r}")
        if self.checkpoint is not None and not isinstance(self.checkpoint, str | os.PathLike):
            raise TypeError(f"checkpoint must be a file path or None. Got: {self.checkpoint!r}")
        if self.resume and self.checkpoint is None:
            raise ValueError(f"resume=True needs a checkpoint file. Got: checkpoint={self.checkpoint!r}")
        if self.state_names is not None and not isinstance(self.state_names, dict):
            raise TypeError(f"state_names must be a dict {{variable: [states]}}. Got: {self.state_names!r}")
        return n_iter, n_chains, every

    def _start_key(self, tables: ScoreTables) -> int:
        from pgmpy_sgm.models import StratifiedGraph

        start = self.start
        if isinstance(start, str):
            if start not in _STARTS:
                raise ValueError(f"start must be one of {_STARTS}, a graph or a list of edges. Got: {start!r}")
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
                msg = f"start must be 'empty', 'best_gm', a graph or a list of edges. Got: {start!r}"
                raise TypeError(msg) from None
            if any(len(e) != 2 for e in edges):
                raise ValueError(f"start must be a list of (u, v) edges. Got: {start!r}")
            nodes = [v for e in edges for v in e]
        index = {v: i for i, v in enumerate(tables.variables)}
        unknown = [v for v in nodes if v not in index]
        if unknown:
            raise ValueError(f"start has node(s) that are not variables of the data {tables.variables}. Got: {unknown}")
        adj = [0] * tables.n
        key = 0
        for u, v in edges:
            i, j = index[u], index[v]
            if i == j:
                raise ValueError(f"start has a self-loop. Got: {(u, v)!r}")
            adj[i] |= 1 << j
            adj[j] |= 1 << i
            key |= 1 << tables.pair_index[i][j]
        if chordal_families(adj) is None:
            raise ValueError(f"start must be decomposable (chordal). Got a graph with edges {edges}")
        return key

    # -- fitting ----------------------------------------------------------------------
    def fit(self, X, y=None):
        """Run the chains on ``X`` and set the fitted attributes.

        Parameters
        ----------
        X : pandas.DataFrame or numpy.ndarray
            Discrete data (an array gets columns ``x0, x1, ...``).
        y : None
            Ignored.

        Returns
        -------
        self

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> est = NonReversibleMCMC(n_iter=300, strata=False, seed=0, show_progress=False)
        >>> round(est.fit(load_heart_disease()).best_score_, 2)
        -6720.18
        """
        from pgmpy_sgm.structure_score import SGMScore

        X = self._check_fit_data(X)
        columns = list(X.columns)
        X = X[canonical_order(columns)]  # fit in the canonical order, report in column order (see class notes)
        n_iter, n_chains, every = self._check_params()
        strata = bool(self.strata)
        scorer = SGMScore(
            X,
            state_names=self.state_names,
            weights=self.weights,
            prior=self.prior,
            max_labelled_clique=int(self.max_labelled_clique),
        )
        data = ChainData.from_scorer(scorer)
        tables = tables_for(data, scorer)
        start_key = self._start_key(tables)
        run = self._load_or_start(data, n_chains, n_iter, strata, start_key)
        interrupted = self._run(data, tables, run, n_iter, every, strata)
        self._set_results(scorer, tables, run, strata)
        in_column_order(self, columns)
        self._set_causal_graph(self.model_, self.variables_, canonical_order(self.variables_))
        if interrupted:
            warnings.warn(
                f"Fitting was interrupted after {self.n_iter_} of {n_iter} iterations per chain; the fitted "
                "attributes hold the graphs visited so far" + (" (checkpoint written)." if self.checkpoint else "."),
                FitInterruptedWarning,
                stacklevel=2,
            )
        return self

    def _load_or_start(self, data, n_chains, n_iter, strata, start_key) -> dict:
        meta = {"fingerprint": data.fingerprint, "n_chains": n_chains, "strata": strata, "start": hex(start_key)}
        if self.resume and os.path.exists(self.checkpoint):
            body = read_checkpoint(self.checkpoint)
            for name, value in meta.items():
                if body.get(name) != value:
                    raise ValueError(
                        f"The checkpoint {self.checkpoint} belongs to another run ({name} differs). "
                        f"Got: {body.get(name)!r}, expected {value!r}"
                    )
            if self.seed is not None and body["seed_entropy"] != int(self.seed):
                raise ValueError(f"The checkpoint was written with another seed. Got: {body['seed_entropy']}")
            done = max(state["iteration"] for state in body["chains"])
            if done > n_iter:
                raise ValueError(f"The checkpoint has already run {done} iterations, more than n_iter. Got: {n_iter}")
            return {
                **meta,
                "seed_entropy": body["seed_entropy"],
                "chains": body["chains"],
                "traces": [list(t) for t in body["traces"]],
                "visited": {int(k, 16): v for k, v in body["visited"].items()},
            }
        seq = np.random.SeedSequence(self.seed)
        children = seq.spawn(n_chains)
        return {
            **meta,
            "seed_entropy": seq.entropy,
            "chains": [new_chain_state(c, children[c], start_key) for c in range(n_chains)],
            "traces": [[] for _ in range(n_chains)],
            "visited": {},
        }

    def _save(self, run) -> None:
        if self.checkpoint is None:
            return
        body = {k: v for k, v in run.items() if k != "visited"}
        body["visited"] = {hex(k): v for k, v in run["visited"].items()}
        try:
            write_checkpoint(self.checkpoint, body)
        except OSError as err:  # e.g. a full disk: keep running, the previous checkpoint is intact
            warnings.warn(
                f"Could not write the checkpoint {os.fspath(self.checkpoint)!r} ({err}); the run goes on and the "
                "previous checkpoint, if any, is intact.",
                CheckpointWarning,
                stacklevel=2,
            )

    def _run(self, data, tables, run, n_iter, every, strata) -> bool:
        sequential = self.backend is None and joblib.effective_n_jobs(self.n_jobs) == 1
        chunk = n_iter if sequential and self.checkpoint is None else every
        # Parallel chains meet after every segment (results do not depend on where segments end).
        # Without a checkpoint, segments grow to about SEGMENT_SECONDS of work, so that an
        # interruption loses little while synchronization costs stay small.
        adaptive = not sequential and self.checkpoint is None
        show = bool(self.show_progress and config.SHOW_PROGRESS)
        bar = None
        if show:
            from tqdm.auto import tqdm

            done = sum(state["iteration"] for state in run["chains"])
            bar = tqdm(total=len(run["chains"]) * n_iter, initial=done, desc="NonReversibleMCMC")
        best = [s["best_score"] for s in run["chains"] if s["best_score"] is not None]
        status = {"best": max(best) if best else -np.inf}

        def progress(steps, best_score, rate):
            status["best"] = max(status["best"], best_score)
            bar.update(steps)
            bar.set_postfix(best=f"{status['best']:.2f}", accept=f"{rate:.3f}", refresh=False)

        interrupted = False
        known: dict = {}  # clique labellings shared between worker processes (same data: same values)
        try:
            while not interrupted:
                todo = [s for s in run["chains"] if s["iteration"] < n_iter]
                if not todo:
                    break
                if sequential:
                    results = []
                    for state in todo:
                        steps = min(chunk - state["iteration"] % chunk, n_iter - state["iteration"])
                        out = run_segment(data, state, steps, strata, progress if show else None)
                        results.append(out)
                        if out["interrupted"]:
                            break
                else:
                    if adaptive:
                        steps = [min(chunk, n_iter - s["iteration"]) for s in todo]
                    else:
                        steps = [min(chunk - s["iteration"] % chunk, n_iter - s["iteration"]) for s in todo]
                    tic = time.perf_counter()
                    jobs = (
                        joblib.delayed(run_segment)(data, s, k, strata, None, known)
                        for s, k in zip(todo, steps, strict=True)
                    )
                    if self.backend is not None:
                        with joblib.parallel_config(backend=self.backend):
                            results = joblib.Parallel(n_jobs=self.n_jobs)(jobs)
                    else:
                        results = joblib.Parallel(n_jobs=self.n_jobs)(jobs)
                    if adaptive:
                        per_iteration = (time.perf_counter() - tic) / max(steps)
                        chunk = max(every, int(SEGMENT_SECONDS / max(per_iteration, 1e-9)))
                known = {}  # labellings learned in this segment, passed on to every chain's next segment
                for out in results:
                    known.update(out["learned"])
                    tables.absorb(out["learned"])
                    state = out["state"]
                    before = run["chains"][state["chain"]]["iteration"]
                    self._merge(run, out)
                    interrupted |= out["interrupted"]
                    if bar is not None and not sequential:
                        rate = state["n_accepted"] / max(state["iteration"], 1)
                        progress(state["iteration"] - before, state["best_score"], rate)
                self._save(run)
        except KeyboardInterrupt:
            interrupted = True
            self._save(run)
        finally:
            if bar is not None:
                bar.close()
        return interrupted

    @staticmethod
    def _merge(run, out) -> None:
        state = out["state"]
        c = state["chain"]
        run["chains"][c] = state
        run["traces"][c].extend(out["trace"])
        visited = run["visited"]
        for key, value in out["visited"].items():
            visited.setdefault(key, value)

    def _set_results(self, scorer, tables, run, strata) -> None:
        from pgmpy_sgm.models import StratifiedGraph

        chains = run["chains"]
        if not run["visited"]:  # interrupted before the first segment ended
            for state in chains:
                out = run_segment(ChainData.from_scorer(scorer), state, 0, strata)
                self._merge(run, out)
        frame, pair_prob = posterior_frame(
            tables, scorer.state_names, run["visited"], strata=strata, n_strata_rows=POSTERIOR_STRATA_ROWS
        )
        length = max(len(t) for t in run["traces"])
        trace = np.full((len(chains), length), np.nan)
        for c, t in enumerate(run["traces"]):
            trace[c, : len(t)] = t
        edges = list(frame["edges"].iloc[0])
        if strata:
            model = scorer.optimal_strata(edges)
        else:
            model = StratifiedGraph(edges, nodes=scorer.variables, state_names=scorer.state_names)
        self.scorer_ = scorer
        self.variables_ = list(scorer.variables)
        self.posterior_ = frame
        self.model_ = model
        self.best_score_ = float(frame["log_posterior"].iloc[0])
        self.edge_probabilities_ = edge_probability_frame(tables, pair_prob)
        self.trace_ = trace
        self.chain_best_scores_ = np.array([s["best_score"] for s in chains], dtype=np.float64)
        self.chain_best_iterations_ = np.array([s["best_iteration"] for s in chains], dtype=np.int64)
        self.n_visited_ = len(run["visited"])
        iterations = sum(s["iteration"] for s in chains)
        self.acceptance_rate_ = float(sum(s["n_accepted"] for s in chains) / iterations) if iterations else 0.0
        self.n_iter_ = int(max(s["iteration"] for s in chains))

    # -- scoring ------------------------------------------------------------------------
    def predict_log_likelihood(self, X, per_row: bool = True, mass: float = 0.99, max_models: int = 50):
        r"""Posterior-averaged log-likelihood of rows: :math:`\log \sum_m w_m\, p_m(x)`.

        The models are the top graphs of ``posterior_`` holding ``mass`` of the estimated
        posterior (at most ``max_models``), with renormalized weights, each with its optimal
        strata and Bayesian parameters fitted on the training data (kept, pooled, in
        ``scorer_``); see :class:`~pgmpy_sgm.causal_discovery.ModelAverage`.

        Parameters
        ----------
        X : pandas.DataFrame
            Rows over the fitted variables (e.g. held-out data).
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
        from pgmpy_sgm.causal_discovery.model_average import ModelAverage

        check_is_fitted(self, "posterior_")
        frame, counts = self.scorer_.encoded.to_frame()
        average = ModelAverage.from_estimator(self, frame, mass=mass, max_models=max_models, weights=counts)
        return average.log_likelihood(X, per_row=per_row)

    def _score_data(self, X) -> float:
        """Log unnormalized posterior of ``model_`` on ``X`` (same columns and states as the fit): ``score(X)``.

        Array ``weights`` apply to the fitted data only; a weight column named by
        ``weights`` is used when ``X`` has it.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> data = load_heart_disease()
        >>> est = NonReversibleMCMC(n_iter=200, seed=0, show_progress=False).fit(data)
        >>> round(est.score(data), 2)
        -6715.9
        """
        from pgmpy_sgm.structure_score import SGMScore

        validate_data(self, X=X, dtype=None, accept_sparse=False, ensure_all_finite=True, reset=False)
        if not isinstance(X, pd.DataFrame):
            X = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
        weights = self.weights if isinstance(self.weights, str) else None
        scorer = SGMScore(
            X,
            state_names={v: list(s) for v, s in self.scorer_.state_names.items()},
            weights=weights,
            prior=self.prior,
            max_labelled_clique=int(self.max_labelled_clique),
        )
        return float(scorer.score(self.model_))
