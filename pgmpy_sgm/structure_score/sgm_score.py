"""The marginal likelihood of decomposable stratified graphs and the paper's prior."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from itertools import combinations

import networkx as nx
from pgmpy.structure_score import BaseStructureScore

from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.decomposition import edge_clique_counts
from pgmpy_sgm.core.engine import ScoreEngine, check_settings, iter_bits
from pgmpy_sgm.core.labelling import CliqueLabelling
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.core.optimize import check_pairs
from pgmpy_sgm.core.pooling import pooled_input
from pgmpy_sgm.models.stratified_graph import StratifiedGraph
from pgmpy_sgm.structure_score._base import LocalScoreCache

__all__ = ["SGMScore"]


class SGMScore(LocalScoreCache, BaseStructureScore):
    r"""Bayesian score of decomposable stratified graphs (Nyman et al., 2014).

    The log unnormalized posterior of a stratified graph :math:`G_L` is

    .. math::

        \log p(X \mid G_L) + \log P(G_L), \qquad
        \log p(X \mid G_L) = \sum_{C} \log p_C(X_C) - \sum_{S} \log p_S(X_S),

    where unlabelled cliques and separators get a Dirichlet prior with 1 per cell and a
    labelled clique with center :math:`v` and groups :math:`B` of parent configurations
    gets the paper's modified Cooper-Herskovits term

    .. math::

        D_{k_v}(X_{C \setminus v}) + \sum_B \Big[\log\Gamma(k_v\lambda_B) - \log\Gamma(n_B + k_v\lambda_B)
        + \sum_i \big(\log\Gamma(n_{iB} + \lambda_B) - \log\Gamma(\lambda_B)\big)\Big],

    :math:`\lambda_B` being the number of configurations in :math:`B` and
    :math:`D_{k_v}` the Dirichlet term of the parents with :math:`k_v` per cell. The
    prior is the paper's :math:`P(G_L) \propto 2^{d - f(G)}` with :math:`f(G)` the
    free parameters of the underlying graph (``prior="paper"``), or flat
    (``prior="uniform"``). Natural logarithms throughout.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        Discrete data, one row per observation or a table of counts (see ``weights``). A
        Dask DataFrame is pooled into distinct rows with counts where its partitions live
        (:func:`~pgmpy_sgm.core.pooling.pool_data`); ``data`` is then that pooled table.
    state_names : dict, optional
        ``{variable: [states]}`` as in pgmpy.
    weights : str or array-like, optional
        Name of a count column of ``data``, or one count per row.
    prior : {"paper", "uniform"}, default="paper"
        Structure prior.
    max_labelled_clique : int, default=5
        Cliques with more variables are scored unlabelled by :meth:`optimal_strata`
        (exact optimal labellings are computed where the exact search fits, see
        :func:`~pgmpy_sgm.core.optimize.exact_search_fits`: every space of at most 18 parent
        configurations).
    max_cells : int, optional
        Refuse contingency tables larger than this (default 50 million cells).

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> from pgmpy_sgm import StratifiedGraph
    >>> score = SGMScore(load_heart_disease(as_counts=True), weights="count")
    >>> edges = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
    ...          ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
    ...          ("systolic_bp", "lipoprotein_ratio")]
    >>> round(score.score(StratifiedGraph(edges)), 2)
    -6720.18

    The score also serves pgmpy's searches over Bayesian networks through its family terms
    (:meth:`score` of a DAG adds the same prior, see :meth:`structure_prior`):

    >>> from pgmpy.causal_discovery import HillClimbSearch
    >>> data = load_heart_disease()
    >>> dag = HillClimbSearch(scoring_method=SGMScore(data), show_progress=False).fit(data).causal_graph_
    >>> len(dag.nodes())
    6

    References
    ----------
    .. [1] H. Nyman, J. Pensar, T. Koski and J. Corander. Stratified graphical models:
       context-specific independence in graphical models. Bayesian Analysis 9(4), 2014.
    """

    _tags = {
        "name": "sgm",
        "supported_datatype": "discrete",
        "default_for": None,
        "is_parameteric": False,
    }

    def __init__(self, data, state_names=None, weights=None, prior="paper", max_labelled_clique=5, max_cells=None):
        check_settings(prior, max_labelled_clique)
        data, weights = pooled_input(data, weights)  # a Dask DataFrame is pooled where it lives
        encoded = EncodedData(data, weights=weights, state_names=state_names, max_cells=max_cells)
        self.engine = ScoreEngine(encoded, prior=prior, max_labelled_clique=max_labelled_clique)
        self.data = data
        self.weights = weights
        self.prior = prior
        self.max_labelled_clique = self.engine.max_labelled_clique
        self.max_cells = max_cells
        self.encoded = encoded
        self.variables = list(encoded.variables)
        self.state_names = encoded.state_names
        self.dtypes = {v: "C" for v in self.variables}
        self._init_local_score_cache()
        super(BaseStructureScore, self).__init__()

    # -- terms -------------------------------------------------------------------
    def _ordered(self, variables) -> tuple:
        index = self.engine.index
        unknown = [v for v in variables if v not in index]
        if unknown:
            raise ValueError(f"Variable(s) {unknown} are not columns of the data {self.variables}")
        return tuple(sorted(variables, key=index.__getitem__))

    def set_term(self, variables) -> float:
        """Log marginal likelihood ``D(A)`` of a variable set with 1 per cell (cached).

        Examples
        --------
        >>> import pandas as pd
        >>> score = SGMScore(pd.DataFrame({"a": [0, 1]}))
        >>> round(score.set_term(["a"]), 6)  # 1! 1! 1! / 3!
        -1.791759
        """
        self._ordered(variables)
        return self.engine.set_term(self.engine.mask(variables))

    def clique_term(self, clique, center=None, group_ids=None) -> float:
        """Log marginal likelihood of one clique, labelled or not.

        Parameters
        ----------
        clique : iterable of str
        center : str, optional
            The center of the labelled clique; None for an unlabelled clique.
        group_ids : sequence of int, optional
            Group of every configuration of the parents ``clique \\ {center}`` taken in
            the order given by ``clique`` (C order, the last parent fastest).

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> df = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 0, 1], "c": [0, 0, 1, 1]})
        >>> score = SGMScore(df)
        >>> singletons = score.clique_term(["a", "b", "c"], center="c", group_ids=[0, 1, 2, 3])
        >>> bool(np.isclose(singletons, score.clique_term(["a", "b", "c"])))
        True
        """
        clique = tuple(clique)
        if center is None or group_ids is None:
            return self.set_term(clique)
        if center not in clique:
            raise ValueError(f"The center {center!r} is not in the clique {clique}")
        self._ordered(clique)
        return self.engine.labelled_term(tuple(v for v in clique if v != center), center, group_ids)

    # -- graph level ---------------------------------------------------------------
    def _as_stratified_graph(self, model) -> StratifiedGraph:
        if isinstance(model, StratifiedGraph):
            sg = model
        elif isinstance(model, nx.Graph) and not model.is_directed():
            sg = StratifiedGraph(model)
        elif isinstance(model, nx.DiGraph):
            raise TypeError("Use score(dag) for directed graphs; log_marginal_likelihood takes undirected graphs.")
        elif isinstance(model, str | bytes | Mapping) or not isinstance(model, Iterable):
            raise TypeError(f"model must be a StratifiedGraph, an undirected networkx graph or a list of edges. "
                            f"Got: {model!r}")
        else:
            sg = StratifiedGraph(list(model))
        unknown = [v for v in sg.nodes() if v not in self.encoded.cardinality]
        if unknown:
            raise ValueError(f"The graph has node(s) {unknown} that are not columns of the data {self.variables}")
        mismatch = [
            v for v, states in sg.graph.get("state_names", {}).items() if tuple(states) != tuple(self.state_names[v])
        ]
        if mismatch:
            v = mismatch[0]
            raise ValueError(
                f"The graph's states of {v!r} {tuple(sg.states(v))} differ from the data's {tuple(self.state_names[v])}"
            )
        full = StratifiedGraph(nodes=self.variables, state_names=self.state_names)
        full.add_edges_from(sg.edges(data=True))
        full.check_model()
        return full

    def _scored(self, model) -> tuple[StratifiedGraph, DecomposableState]:
        """The checked stratified graph and the engine's (unlabelled) state of its underlying graph."""
        sg = self._as_stratified_graph(model)
        return sg, DecomposableState(self.engine, self.engine.key(sg.edges()), strata=False)

    def _log_marginal_likelihood(self, sg: StratifiedGraph, state: DecomposableState) -> float:
        engine = self.engine
        total = [state.log_marginal_likelihood]
        strata = sg.strata
        if strata:
            for clique in state.cliques:
                labelling = engine.labelling_from_strata(clique, strata)
                if labelling is not None:
                    total.append(engine.labelled_term(labelling.parents, labelling.center, labelling.group_ids))
                    total.append(-engine.set_term(clique))
        return float(math.fsum(total))

    def log_marginal_likelihood(self, model) -> float:
        """``log p(X | G_L)`` of a stratified graph (or an unlabelled undirected graph).

        Variables of the data missing from the graph count as isolated nodes.

        Examples
        --------
        >>> import pandas as pd
        >>> score = SGMScore(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> round(score.log_marginal_likelihood(StratifiedGraph(nodes=["a", "b"])), 6)
        -3.583519
        """
        return self._log_marginal_likelihood(*self._scored(model))

    def log_prior(self, model) -> float:
        """Log structure prior: ``(d - f(G)) log 2`` (``prior="paper"``) or 0.

        Examples
        --------
        >>> import pandas as pd
        >>> score = SGMScore(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> round(score.log_prior(StratifiedGraph([("a", "b")])), 6)  # d=2, f=3
        -0.693147
        """
        if self.prior == "uniform":
            return 0.0
        _, state = self._scored(model)
        return float(self.engine.log_prior(state.f))

    def score(self, model) -> float:
        """Log unnormalized posterior ``log p(X | G_L) + log P(G_L)``, with the paper's prior.

        A directed graph (a pgmpy DAG or ``DiscreteBayesianNetwork``) is scored as pgmpy
        does, by its family terms plus :meth:`structure_prior`: the same marginal
        likelihood (1 per cell) and the same prior :math:`2^{d - f}` with :math:`f` the
        DAG's free parameters. A DAG whose skeleton is decomposable and that has no
        v-structure (every network of
        :meth:`StratifiedGraphicalModel.to_bayesian_network
        <pgmpy_sgm.models.StratifiedGraphicalModel.to_bayesian_network>`) therefore gets
        exactly the score of its skeleton as a stratified graph *without strata*: a DAG has
        no strata, and labels or tied TreeCPDs of a network are not scored. Scores of a
        stratified graph and of a DAG compare as models with and without the strata; to
        score the strata, pass the :class:`~pgmpy_sgm.models.StratifiedGraph` (or the
        fitted model) itself.

        Examples
        --------
        >>> import pandas as pd
        >>> score = SGMScore(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> round(score.score(StratifiedGraph(nodes=["a", "b"])), 6)
        -3.583519
        >>> from pgmpy.base import DAG
        >>> round(score.score(DAG([("a", "b")])), 6) == round(score.score(StratifiedGraph([("a", "b")])), 6)
        True
        """
        if isinstance(model, nx.DiGraph):
            if not nx.is_directed_acyclic_graph(model):
                cycle = [u for u, _ in nx.find_cycle(model)]
                raise ValueError(f"The directed graph has the cycle {cycle}; a DAG has none")
            return super().score(model)
        sg, state = self._scored(model)
        return self._log_marginal_likelihood(sg, state) + float(self.engine.log_prior(state.f))

    # -- pgmpy's DAG searches --------------------------------------------------------
    def _local_score(self, variable: str, parents: tuple[str, ...]) -> float:
        """Family term ``D(parents + variable) - D(parents)`` with 1 per cell."""
        return self.encoded.family_log_ml(variable, tuple(parents))

    def structure_prior(self, model) -> float:
        r"""Log prior of a DAG: the paper's :math:`(d - f) \log 2` over the DAG's nodes (0 if ``prior="uniform"``).

        :math:`d` is the number of the DAG's nodes and :math:`f = \sum_j (r_j - 1) q_j` its
        free parameters. For a DAG Markov equivalent to a decomposable graph (chordal
        skeleton, no v-structure) :math:`f` is the free parameters of that graph, so the
        prior is the one :meth:`log_prior` gives the graph. pgmpy's searches
        (``HillClimbSearch``) add only :meth:`structure_prior_ratio`, which pgmpy gives no
        edge to and which is therefore 0: with this score they maximise the marginal
        likelihood; :meth:`score` of their result includes the prior.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy.base import DAG
        >>> score = SGMScore(pd.DataFrame({"a": [0, 1], "b": [1, 0]}))
        >>> round(score.structure_prior(DAG([("a", "b")])), 6)  # d = 2, f = 1 + 2: (2 - 3) log 2
        -0.693147
        """
        if self.prior == "uniform":
            return 0.0
        cards = self.encoded.cardinality
        unknown = [v for v in model.nodes() if v not in cards]
        if unknown:
            raise ValueError(f"Variable(s) {unknown} are not columns of the data {self.variables}")
        free = 0
        for v in model.nodes():
            q = 1
            for parent in model.predecessors(v):
                q *= int(cards[parent])
            free += (int(cards[v]) - 1) * q
        return float((model.number_of_nodes() - free) * self.engine.prior_weight)

    # -- labellings -------------------------------------------------------------------
    def forbidden_pairs(self, cliques) -> dict:
        """For each clique, the index pairs of its edges that lie in a separator.

        Examples
        --------
        >>> import pandas as pd
        >>> score = SGMScore(pd.DataFrame({"a": [0, 1], "b": [0, 1], "c": [1, 0]}))
        >>> score.forbidden_pairs([("a", "b"), ("b", "c")])
        {('a', 'b'): (), ('b', 'c'): ()}
        """
        counts = edge_clique_counts(cliques)
        return {
            tuple(c): tuple((i, j) for i, j in combinations(range(len(c)), 2) if counts[frozenset((c[i], c[j]))] > 1)
            for c in cliques
        }

    def best_clique_labelling(self, clique, forbidden_pairs=(), method: str = "auto") -> CliqueLabelling:
        """Best labelling of one clique given the index pairs lying in separators (cached by the engine).

        Returns a :class:`~pgmpy_sgm.core.labelling.CliqueLabelling` whose ``center`` is a
        position in the clique's variables taken in data order (as are the pairs); cliques
        larger than ``max_labelled_clique`` stay unlabelled.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> score = SGMScore(load_heart_disease(as_counts=True), weights="count")
        >>> best = score.best_clique_labelling(("smoking", "systolic_bp", "lipoprotein_ratio"), [(0, 2)])
        >>> best.center, best.group_ids.tolist()
        (1, [0, 0, 1, 0])
        """
        engine = self.engine
        nodes = [engine.index[v] for v in self._ordered(clique)]
        pairs = [sorted(pair) for pair in check_pairs(forbidden_pairs, len(nodes))]
        forbidden = engine.pairs_key((nodes[a], nodes[b]) for a, b in pairs)
        return engine.labelling(engine.mask(clique), forbidden, method=method)

    def optimal_strata(self, graph, method: str = "auto") -> StratifiedGraph:
        """The maximal regular stratified graph with the highest score for an underlying graph.

        Each clique gets its best labelling given the edges that lie in separators.
        Exact whenever the center's parents' space is within the exact search
        (:func:`~pgmpy_sgm.core.optimize.exact_search_fits`: every space of at most 18
        configurations, so every binary clique of up to 5 variables); larger cliques use a heuristic
        (``method="heuristic"``) and cliques beyond ``max_labelled_clique`` stay
        unlabelled. ``graph.graph["approximate_cliques"]`` lists cliques whose
        labelling is not proven optimal.

        Parameters
        ----------
        graph : StratifiedGraph, networkx.Graph or iterable of edges
            The underlying graph (any strata it has are ignored).
        method : {"auto", "exact", "heuristic", "mcmc"}
            See :func:`pgmpy_sgm.core.optimize.optimal_groups`.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> score = SGMScore(load_heart_disease(as_counts=True), weights="count")
        >>> edges = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
        ...          ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
        ...          ("systolic_bp", "lipoprotein_ratio")]
        >>> best = score.optimal_strata(edges)
        >>> [str(s) for s in best.independencies()]
        ['smoking ⟂ systolic_bp | lipoprotein_ratio=1', 'systolic_bp ⟂ lipoprotein_ratio | smoking=0']
        >>> round(score.score(best), 2)
        -6715.9
        """
        engine = self.engine
        sg, state = self._scored(graph if not isinstance(graph, StratifiedGraph) else graph.to_graph())
        sg.remove_labels()
        approximate = []
        for clique in sorted(state.cliques, key=lambda c: list(iter_bits(c))):
            best = engine.labelling(clique, state.forbidden(clique), method=method)
            names = engine.names(clique)
            if best.center is not None:
                sg.set_clique_groups(names, names[best.center], best.group_ids)
            if not best.exact:
                approximate.append(names)
        sg.graph["approximate_cliques"] = approximate
        return sg
