"""The marginal likelihood of decomposable stratified graphs and the paper's prior."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import networkx as nx
import numpy as np
from pgmpy.structure_score import BaseStructureScore

from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.decomposition import decompose, edge_clique_counts, free_parameters
from pgmpy_sgm.core.lines import dirichlet_log_ml, labelled_clique_term
from pgmpy_sgm.models.stratified_graph import StratifiedGraph

__all__ = ["SGMScore"]

_PRIORS = ("paper", "uniform")


class SGMScore(BaseStructureScore):
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
    data : pandas.DataFrame
        Discrete data, one row per observation or a table of counts (see ``weights``).
    state_names : dict, optional
        ``{variable: [states]}`` as in pgmpy.
    weights : str or array-like, optional
        Name of a count column of ``data``, or one count per row.
    prior : {"paper", "uniform"}, default="paper"
        Structure prior.
    max_labelled_clique : int, default=5
        Cliques with more variables are scored unlabelled by :meth:`optimal_strata`
        (exact optimal labellings are computed up to 16 parent configurations).
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

    The score also serves pgmpy's searches over Bayesian networks through its family terms:

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
        if prior not in _PRIORS:
            raise ValueError(f"prior must be one of {_PRIORS}. Got: {prior!r}")
        if not isinstance(max_labelled_clique, int | np.integer) or max_labelled_clique < 2:
            raise ValueError(f"max_labelled_clique must be an integer >= 2. Got: {max_labelled_clique!r}")
        self.data = data
        self.weights = weights
        self.prior = prior
        self.max_labelled_clique = int(max_labelled_clique)
        self.max_cells = max_cells
        self.encoded = EncodedData(data, weights=weights, state_names=state_names, max_cells=max_cells)
        self.variables = list(self.encoded.variables)
        self.state_names = self.encoded.state_names
        self.dtypes = {v: "C" for v in self.variables}
        self._cached_local_score = lru_cache(maxsize=100_000)(self._local_score)
        self._set_terms: dict[frozenset, float] = {}
        self._labelling_cache: dict[tuple, object] = {}
        super(BaseStructureScore, self).__init__()

    def __getstate__(self) -> dict:
        # the per-instance lru_cache wrapper cannot be pickled; it is rebuilt on unpickling
        state = self.__dict__.copy()
        state.pop("_cached_local_score", None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._cached_local_score = lru_cache(maxsize=100_000)(self._local_score)

    # -- terms -------------------------------------------------------------------
    def _ordered(self, variables) -> tuple:
        index = self.encoded._index
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
        key = frozenset(variables)
        value = self._set_terms.get(key)
        if value is None:
            value = dirichlet_log_ml(self.encoded.counts(self._ordered(key))) if key else 0.0
            self._set_terms[key] = value
        return value

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
        parents = tuple(v for v in clique if v != center)
        counts = self.encoded.counts(parents + (center,))
        group_ids = np.asarray(group_ids, dtype=np.int64)
        n_configs = int(np.prod(counts.shape[:-1]))
        if group_ids.shape != (n_configs,):
            raise ValueError(
                f"group_ids must give a group for each of the {n_configs} configurations of {parents}; "
                f"got shape {group_ids.shape}"
            )
        return labelled_clique_term(counts.reshape(n_configs, -1), group_ids)

    # -- graph level ---------------------------------------------------------------
    def _as_stratified_graph(self, model) -> StratifiedGraph:
        if isinstance(model, StratifiedGraph):
            sg = model
        elif isinstance(model, nx.Graph) and not model.is_directed():
            sg = StratifiedGraph(model)
        elif isinstance(model, nx.DiGraph):
            raise TypeError("Use score(dag) for directed graphs; log_marginal_likelihood takes undirected graphs.")
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
        sg = self._as_stratified_graph(model)
        total = 0.0
        for cl in sg.clique_labels():
            total += self.clique_term(cl.clique, cl.center, cl.group_ids)
        for separator in sg.separators:
            total -= self.set_term(separator)
        return float(total)

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
        sg = self._as_stratified_graph(model)
        cliques, separators = decompose(sg)
        f = free_parameters(cliques, separators, self.encoded.cardinality)
        return float((len(self.variables) - f) * np.log(2.0))

    def score(self, model) -> float:
        """Log unnormalized posterior ``log p(X | G_L) + log P(G_L)``.

        A directed graph (a pgmpy DAG) is scored as pgmpy does, by its family terms.

        Examples
        --------
        >>> import pandas as pd
        >>> score = SGMScore(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> round(score.score(StratifiedGraph(nodes=["a", "b"])), 6)
        -3.583519
        """
        if isinstance(model, nx.DiGraph):
            if not nx.is_directed_acyclic_graph(model):
                cycle = [u for u, _ in nx.find_cycle(model)]
                raise ValueError(f"The directed graph has the cycle {cycle}; a DAG has none")
            return super().score(model)
        return self.log_marginal_likelihood(model) + self.log_prior(model)

    # -- pgmpy's DAG searches --------------------------------------------------------
    def _local_score(self, variable: str, parents: tuple[str, ...]) -> float:
        """Family term ``D(parents + variable) - D(parents)`` with 1 per cell."""
        return self.encoded.family_log_ml(variable, tuple(parents))

    def structure_prior(self, model) -> float:
        """Prior of a DAG: flat (the paper's prior is defined on undirected graphs).

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy.base import DAG
        >>> SGMScore(pd.DataFrame({"a": [0, 1], "b": [1, 0]})).structure_prior(DAG([("a", "b")]))
        0.0
        """
        return 0.0

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

    def best_clique_labelling(self, clique, forbidden_pairs=(), method: str = "auto"):
        """Best labelling of one clique given the index pairs lying in separators (cached).

        Returns a :class:`pgmpy_sgm.core.optimize.CliqueLabelling`; cliques larger than
        ``max_labelled_clique`` stay unlabelled.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> score = SGMScore(load_heart_disease(as_counts=True), weights="count")
        >>> best = score.best_clique_labelling(("smoking", "systolic_bp", "lipoprotein_ratio"), [(0, 2)])
        >>> best.center, best.group_ids.tolist()
        (1, [0, 0, 1, 0])
        """
        from pgmpy_sgm.core.optimize import CliqueLabelling, optimal_clique_labelling

        clique = self._ordered(clique) if list(clique) != list(self._ordered(clique)) else tuple(clique)
        forbidden = tuple(sorted(tuple(sorted(p)) for p in forbidden_pairs))
        key = (clique, forbidden, method)
        result = self._labelling_cache.get(key)
        if result is None:
            if len(clique) < 3 or len(clique) > self.max_labelled_clique:
                result = CliqueLabelling(center=None, group_ids=None, gain=0.0, exact=True, method="unlabelled")
            else:
                result = optimal_clique_labelling(self.encoded.counts(clique), forbidden, method=method)
            self._labelling_cache[key] = result
        return result

    def optimal_strata(self, graph, method: str = "auto") -> StratifiedGraph:
        """The maximal regular stratified graph with the highest score for an underlying graph.

        Each clique gets its best labelling given the edges that lie in separators.
        Exact whenever the center's parents have at most 16 configurations (every
        binary clique of up to 5 variables); larger cliques use a heuristic
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
        sg = self._as_stratified_graph(graph if not isinstance(graph, StratifiedGraph) else graph.to_graph())
        sg.remove_labels()
        cliques = sg.cliques
        approximate = []
        for clique, forbidden in self.forbidden_pairs(cliques).items():
            best = self.best_clique_labelling(clique, forbidden, method=method)
            if best.center is not None:
                center = clique[best.center]
                sg.set_clique_groups(clique, center, best.group_ids)
            if not best.exact:
                approximate.append(clique)
        sg.graph["approximate_cliques"] = approximate
        return sg
