"""Structure learning of (contextual) Markov networks by marginal pseudo-likelihood."""

from __future__ import annotations

import functools
import time

import networkx as nx
import numpy as np
import pandas as pd
from pgmpy.base import DAG
from sklearn.base import BaseEstimator

from pgmpy_sgm.causal_discovery._base import RETURN_TYPE, CausalDiscoveryMixin, check_features, equivalence_class
from pgmpy_sgm.causal_discovery._mpl_additions import add_edges
from pgmpy_sgm.causal_discovery._mpl_steps import Deadline, choose_graph, climb_contexts, climb_edges, prescreen_blanket
from pgmpy_sgm.causal_discovery._parameters import boolean, integer, one_of, seconds, seed, state_names
from pgmpy_sgm.causal_discovery._scoring_method import ScoringMethod
from pgmpy_sgm.causal_discovery._structural_em import MStepResult, adopt_em_result, structural_em
from pgmpy_sgm.core.missing import IncompleteTable, em_options, missing_cells
from pgmpy_sgm.models.contextual_markov_network import ContextualMarkovNetwork
from pgmpy_sgm.structure_score.mpl_score import MPLScore
from pgmpy_sgm.structure_score.mpl_settings import MPLScoreSettings

__all__ = ["MPLSearch"]

#: What ``scoring_method`` accepts: ``"mpl"`` (or None), an MPLScore or an MPLScoreSettings; the keywords it replaced.
_SCORING = ScoringMethod(MPLScoreSettings, MPLScore, {"mpl": {}}, ("alpha", "kappa"))


class MPLSearch(CausalDiscoveryMixin, BaseEstimator):
    """Learn a Markov network, with edge contexts, by marginal pseudo-likelihood (Pensar et al., 2017).

    The score is :class:`~pgmpy_sgm.structure_score.MPLScore`: each variable's conditional
    distribution given its Markov blanket gets a Dirichlet prior and its parameters are
    integrated out, so any undirected graph, chordal or not, has an analytic score; a context
    of an edge merges blanket configurations of both ends. The search has three stages
    (``pgmpy_sgm.causal_discovery._mpl_steps``):

    1. a pre-screen: each variable's blanket by forward additions and backward deletions of
       its own local term; the union of the blankets are the candidate edges
       (``candidate_edges_``);
    2. best-improvement hill climbing over the candidate edges from the empty graph; when the
       climb drops candidate edges, the climb's graph or the union of the blankets, whichever
       is expected to predict better as a fitted Markov network by AIC, or the one that has
       the higher BIC when every variable is binary (``graph_choice="auto"``; or by AIC, by
       5-fold cross-validation on the rows or by BIC whatever the data; ``graph_rule_``): the
       pseudo-likelihood prices each node's conditional as a table saturated in its whole
       blanket, so the climb rejects edges at high-degree, multi-state nodes (as in data from
       Bayesian networks) that the network's clique potentials pay for cheaply; then, with
       ``edge_additions=True``, missing edges (between variables with a common neighbour, or
       proposed by the pre-screen) added in rounds while one pays by the fitted network's
       likelihood: a lower bound on its gain (one step of iterative proportional fitting on the
       marginal of the edge's ends and their common neighbours, ``N KL``) against the BIC price
       of the parameters it adds (``added_edges_``; see
       ``pgmpy_sgm.causal_discovery._mpl_additions``). This recovers edges between the parents
       of a common child in data from Bayesian networks;
    3. with ``contexts=True``, contexts on the graph found: for each variable whose blanket is
       complete, the optimal classes of its blanket (the package's exact partition search up
       to 16 configurations) proposed as a whole, then single contexts added or removed in a
       random order (``seed``) while one raises the score. Edges whose common neighbours have
       more than ``max_context_configs`` outcomes get no context.

    ``max_time`` bounds the whole fit: a stage reached after it stops at once and keeps what
    it has (``stopped_by_`` says ``"max_time"``).

    Parameters
    ----------
    scoring_method : "mpl", MPLScore, MPLScoreSettings or None, default=None
        The score, as pgmpy's learners take it: None or ``"mpl"`` the marginal
        pseudo-likelihood with ``alpha`` 0.5 and ``kappa`` 0.2, an
        :class:`~pgmpy_sgm.structure_score.MPLScore` (its settings, not its data), or an
        :class:`~pgmpy_sgm.structure_score.MPLScoreSettings` (``alpha``: the Dirichlet
        hyperparameter, or ``"bdeu"``; ``kappa``: the structure-prior factor per free
        parameter removed by contexts, 1 flat).
    contexts : bool, default=True
        Search contexts after the graph (False: a plain Markov network).
    graph_choice : {"auto", "aic", "cv", "bic"}, default="auto"
        How stage 2 chooses between the climb's graph and the union of the blankets: by the
        AIC of the fitted network (its log-likelihood less its number of free parameters: an
        estimate of its held-out fit, one fit per graph), by the 5-fold cross-validated
        log-likelihood of the fitted network on the training rows (six fits per graph; BIC when
        the rows carry fractional counts), or by BIC (consistent for the graph, sparser at small
        ``n``). ``"auto"``: BIC when every variable is binary, AIC otherwise. The union repairs
        the pseudo-likelihood's price of edges at multi-state variables, where AIC also recovers
        the graph best; with binary variables the union's extra edges are mostly false at a few
        hundred rows, and BIC keeps fewer of them for a small loss of held-out fit (chosen on
        data the benchmark does not use: ``benchmarks/RESULTS.md``, "Stage 2 by BIC on binary
        data"). ``graph_criterion_`` says which criterion was used. The
        climb's graph is kept when a fit is too costly.
    edge_additions : bool, default=True
        Add edges that the fitted network's likelihood pays for after the climb (stage 2).
    max_blanket : int, optional
        Largest blanket of the pre-screen.
    max_context_configs : int, default=64
        Edges whose common neighbours have more outcomes get no context.
    max_time : float, optional
        Seconds for the whole fit.
    seed : int, optional
        Seed of the random order of the context moves (the other stages use no randomness).
    state_names : dict, optional
        ``{variable: [states]}``.
    weights : str or array-like, optional
        Name of a count column of ``X``, or one count per row; such data (and Dask
        DataFrames) are pooled into distinct rows with counts.
    missing : {"error", "complete_cases", "em", "state"} or EMOptions, default="error"
        Missing cells: refused naming the columns, incomplete rows dropped (with a warning),
        structural EM (``"em"`` or an :class:`~pgmpy_sgm.core.missing.EMOptions`: every
        incomplete row completed by the posterior of the current network, fitted by cyclical
        projection, and the search run on the expected counts; see
        :func:`~pgmpy_sgm.causal_discovery._structural_em.structural_em`), or missing as a
        state named ``"missing"``. With EM, ``em_history_``, ``n_completed_exactly_``,
        ``n_completed_capped_``, ``n_completed_by_draws_`` and ``missing_cells_`` record it, the
        other fitted attributes refer to the chosen search's completed table, and ``max_time``
        bounds each search. EM starts from the DAG climbed on the penalised node-average
        likelihood of the available cases (``EMOptions.start``). ``model_`` holds the
        structure, as without missing cells: fit its factors to the incomplete rows with
        ``model_.fit(X, missing="em")`` (parameter EM).
    return_type : {"pdag", "cpdag"}, default="pdag"
        ``causal_graph_`` is the Markov network's graph as a pgmpy ``PDAG`` with every edge
        undirected (both names give it; a Markov network with a chordless cycle has no DAG
        with its independencies, so ``"dag"`` is refused).
    alpha, kappa : deprecated
        The score's settings as keywords (before version 0.3). They still work, with a
        ``FutureWarning``, until version 0.4: pass ``scoring_method=MPLScoreSettings(...)``.

    Attributes
    ----------
    model_ : ContextualMarkovNetwork
        The graph with its (closed) contexts and the data's state names.
    graph_ : networkx.Graph
        The learned undirected graph, nodes in the data's column order.
    contexts_ : dict
        ``{(u, v): [{w: state, ...}, ...]}``, closed.
    best_score_ : float
        MPL score of ``model_`` (with contexts).
    graph_score_ : float
        MPL score of ``graph_`` without contexts.
    blankets_ : dict
        The pre-screened blanket of every variable.
    candidate_edges_ : list of tuple
        Union of the pre-screened blankets.
    graph_rule_ : str
        ``"global"`` (the climb's graph) or ``"or"`` (the union of the blankets), as chosen in stage 2.
    graph_criterion_ : str
        The criterion of stage 2: ``graph_choice``, with ``"auto"`` resolved for the data.
    graph_aic_, graph_bic_, graph_cv_ : dict
        AIC per row, BIC, or cross-validated log-likelihood per row, of each graph compared in
        stage 2 (``{"global": ..., "or": ...}``; the one of the criterion that decided; all empty
        when the two graphs agree or were not compared).
    added_edges_ : list of tuple
        Edges added by the likelihood in stage 2, in the order added.
    n_edge_moves_, n_context_moves_ : int
        Moves accepted by stages 2 and 3.
    stopped_by_ : str
        ``"converged"`` or ``"max_time"``.
    fit_time_ : float
        Seconds.
    causal_graph_, adjacency_matrix_ : pgmpy.base.PDAG, pandas.DataFrame
        The graph (every edge undirected) and its adjacency (both entries of an edge).
    scorer_ : MPLScore

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> est = MPLSearch(seed=0).fit(load_heart_disease())
    >>> est.graph_.number_of_edges(), est.graph_rule_, est.stopped_by_
    (6, 'or', 'converged')
    >>> est.contexts_[("smoking", "systolic_bp")], est.contexts_[("systolic_bp", "lipoprotein_ratio")]
    ([{'lipoprotein_ratio': 1}], [{'smoking': 0}])

    References
    ----------
    .. [1] J. Pensar, H. Nyman, J. Niiranen and J. Corander. Marginal pseudo-likelihood learning
       of discrete Markov network structures. Bayesian Analysis 12(4), 1195-1215, 2017.
    .. [2] J. Pensar, H. Nyman and J. Corander. Structure learning of contextual Markov networks
       using marginal pseudo-likelihood. Scandinavian Journal of Statistics 44, 455-479, 2017.
    """

    def __init__(self, scoring_method=None, contexts: bool = True,
                 graph_choice: str = "auto", edge_additions: bool = True, max_blanket: int | None = None,
                 max_context_configs: int = 64, max_time: float | None = None, seed: int | None = None,
                 state_names: dict | None = None, weights=None, missing="error",
                 return_type: str = "pdag", alpha="deprecated", kappa="deprecated"):  # fmt: skip
        self.scoring_method = scoring_method
        self.contexts = contexts
        self.graph_choice = graph_choice
        self.edge_additions = edge_additions
        self.max_blanket = max_blanket
        self.max_context_configs = max_context_configs
        self.max_time = max_time
        self.seed = seed
        self.state_names = state_names
        self.weights = weights
        self.missing = missing
        self.return_type = return_type
        self.alpha = alpha
        self.kappa = kappa

    _scoring = _SCORING

    _parameter_constraints = {
        "scoring_method": _SCORING.constraint(),
        "contexts": boolean(),
        "graph_choice": one_of("auto", "aic", "cv", "bic"),
        "edge_additions": boolean(),
        "max_blanket": integer(1, none_ok=True),
        "max_context_configs": integer(1),
        "max_time": seconds(),
        "seed": seed(),
        "state_names": state_names(),
        "return_type": RETURN_TYPE,
    }

    def _check_params(self) -> None:
        super()._check_params()
        self._settings = self._scoring.settings(self)
        if self._check_return_type() == "dag":
            raise ValueError("return_type='dag' is not available: a Markov network with a chordless cycle has no DAG "
                             "with its independencies; use 'pdag' (every edge undirected)")  # fmt: skip

    def _new_score(self, X, counts, state_names) -> MPLScore:
        return self._settings.score(X, weights=counts, state_names=state_names)

    def _fit(self, X, weights) -> MPLSearch:
        """The search on complete data (see :meth:`fit`): blanket pre-screen, edge climb, contexts.

        Examples
        --------
        >>> table = pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 1, 0], "n": [45, 45, 5, 5]})
        >>> sorted(MPLSearch(weights="n").fit(table).graph_.edges())
        [('a', 'b')]
        """
        end = self._fit_deadline()
        deadline = Deadline(None if end is None else max(end - time.time(), 0.0))
        X, counts = self._fit_data(X, weights)
        columns = list(X.columns)
        score = self._new_score(X, counts, self.state_names)
        self.blankets_ = {v: prescreen_blanket(score, v, self.max_blanket, deadline) for v in columns}
        position = {v: i for i, v in enumerate(columns)}
        candidates = sorted({tuple(sorted((v, w), key=position.__getitem__)) for v, b in self.blankets_.items()
                             for w in b}, key=lambda e: (position[e[0]], position[e[1]]))  # fmt: skip
        self.candidate_edges_ = candidates
        graph, self.n_edge_moves_ = climb_edges(score, candidates, deadline)
        fits: dict = {}  # networks fitted in stage 2, each once
        self.graph_criterion_ = self._graph_criterion(score)
        graph, self.graph_rule_, values, criterion = choose_graph(score, graph, candidates, deadline,
                                                                  self.graph_criterion_, fits)  # fmt: skip
        self.graph_aic_ = values if criterion == "aic" else {}
        self.graph_bic_ = values if criterion == "bic" else {}
        self.graph_cv_ = values if criterion == "cv" else {}
        self.added_edges_ = []
        if self.edge_additions:
            graph, self.added_edges_ = add_edges(score, graph, candidates, deadline, fits)
        closed, self.n_context_moves_ = {}, 0
        if self.contexts:
            rng = np.random.default_rng(self.seed)
            closed, self.n_context_moves_ = climb_contexts(score, graph, rng, deadline, self.max_context_configs)
        ordered = nx.Graph()
        ordered.add_nodes_from(columns)
        ordered.add_edges_from(sorted((tuple(sorted(e, key=position.__getitem__)) for e in graph.edges()),
                                      key=lambda e: (position[e[0]], position[e[1]])))  # fmt: skip
        self.graph_ = ordered
        self.contexts_ = score.decode_contexts(closed)
        self.graph_score_ = score.score(ordered)
        self.best_score_ = score.score(ordered, self.contexts_)
        self.scorer_ = score
        self.variables_ = columns
        self.model_ = self._model(ordered, self.contexts_, score)
        self.stopped_by_ = "max_time" if deadline.hit else "converged"
        self._set_graph_result(ordered, columns)
        self.fit_time_ = time.time() - self._started_at
        return self

    def _graph_criterion(self, score: MPLScore) -> str:
        """``graph_choice`` with ``"auto"`` resolved: BIC when every variable of ``score`` is binary, else AIC.

        Examples
        --------
        >>> binary = MPLScore(pd.DataFrame({"a": [0, 1, 1], "b": [1, 0, 1]}))
        >>> MPLSearch()._graph_criterion(binary), MPLSearch(graph_choice="aic")._graph_criterion(binary)
        ('bic', 'aic')
        >>> MPLSearch()._graph_criterion(MPLScore(pd.DataFrame({"a": [0, 1, 2], "b": [1, 0, 1]})))
        'aic'
        """
        if self.graph_choice != "auto":
            return self.graph_choice
        binary = all(int(score.encoded.cardinality[v]) <= 2 for v in score.variables)  # constant columns too
        return "bic" if binary else "aic"

    def _fit_em(self, X: pd.DataFrame, weights) -> MPLSearch:
        """Structural EM (see ``missing``): M-steps are fits of a copy of this learner on completed tables."""
        variables = [c for c in X.columns if not (isinstance(weights, str) and c == weights)]
        cells = missing_cells(X, variables)
        table = IncompleteTable.from_frame(X, weights, self.state_names)
        options = em_options(self.missing).for_learner("pnal")
        result = structural_em(table, functools.partial(self._m_step, table), options, self.seed)
        adopt_em_result(self, result, cells)
        return self

    def _m_step(self, table: IncompleteTable, completed, previous) -> MStepResult:
        """One M-step: this learner on a completed table, then the network's parameters by cyclical projection."""
        step = self._scoring.resolved_copy(self, self._settings).set_params(
            missing="error", weights=completed.counts, state_names=table.state_names).fit(completed.frame)
        model = step.model_.copy()
        model.fit(completed.frame[table.variables], weights=completed.counts)
        structure = {("edge", u, v) for u, v in step.graph_.edges()}
        structure |= {("context", u, v, tuple(sorted(c.items(), key=repr))) for (u, v), found in step.contexts_.items()
                      for c in found}  # fmt: skip
        return MStepResult(step, frozenset(structure), float(step.best_score_),
                           model.log_probability_function(table.variables, table.state_names))  # fmt: skip

    @staticmethod
    def _model(graph: nx.Graph, contexts: dict, score: MPLScore) -> ContextualMarkovNetwork:
        states = {v: list(s) for v, s in score.state_names.items()}
        return ContextualMarkovNetwork(list(graph.edges()), contexts=contexts, nodes=list(graph.nodes()),
                                       state_names=states)

    def _set_graph_result(self, graph: nx.Graph, nodes: list) -> None:
        self.causal_graph_ = equivalence_class(graph, nodes)
        position = {v: i for i, v in enumerate(nodes)}
        dag = DAG()  # for pgmpy's DAG-only metrics: the skeleton oriented along the column order
        dag.add_nodes_from(nodes)
        dag.add_edges_from((u, v) if position[u] < position[v] else (v, u) for u, v in graph.edges())
        self._metric_dag = dag
        self.adjacency_matrix_ = nx.to_pandas_adjacency(self.causal_graph_, nodelist=nodes, weight=1, dtype="int")

    def _score_data(self, X) -> float:
        """MPL score of ``model_`` (graph and contexts as fitted) on ``X``, with the fitted state names.

        Examples
        --------
        >>> df = pd.DataFrame({"a": [0, 1] * 30, "b": [0, 1] * 29 + [1, 0]})
        >>> est = MPLSearch().fit(df)
        >>> round(est.score(df) - est.best_score_, 9)
        0.0
        """
        weights = self.weights if isinstance(self.weights, str) and isinstance(X, pd.DataFrame) else None
        if weights is not None and weights not in X.columns:
            weights = None
        variables = X.drop(columns=[weights]) if weights else X
        check_features(self, variables, reset=False)
        if not isinstance(variables, pd.DataFrame):
            variables = pd.DataFrame(variables, columns=list(self.feature_names_in_))
        counts = None if weights is None else X[weights].to_numpy()
        states = {v: list(s) for v, s in self.scorer_.state_names.items()}
        score = self._new_score(variables[self.variables_], counts, states)
        return score.score(self.graph_, self.contexts_)
