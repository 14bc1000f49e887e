"""pgmpy 1.x's causal-discovery contract, shared by the package's structure learners.

pgmpy's structure learners (``pgmpy.causal_discovery``) expose ``causal_graph_``,
``adjacency_matrix_``, ``return_type`` (``"pdag"``, ``"cpdag"`` or ``"dag"``) and
``score(X=None, true_graph=None, metric=None)``, and take a pandas DataFrame or a numpy
array (columns ``x0, x1, ...``). :class:`CausalDiscoveryMixin` holds what
:class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` and
:class:`~pgmpy_sgm.causal_discovery.LDAGSearch` share.

A decomposable undirected graph is Markov equivalent to each of its perfect orientations
(acyclic orientations without immoralities), so its Markov equivalence class is the
:class:`~pgmpy.base.PDAG` with every edge undirected (that PDAG is its CPDAG); one perfect
orientation is a :class:`~pgmpy.base.DAG` in that class
(:class:`DecomposableCausalGraphMixin`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import networkx as nx
import numpy as np
import pandas as pd
from pgmpy.base import DAG, PDAG
from pgmpy.metrics import get_metrics
from sklearn.utils.validation import check_is_fitted, validate_data

from pgmpy_sgm.causal_discovery._parameters import Constraint, check_parameters
from pgmpy_sgm.causal_discovery._structural_em import missing_input
from pgmpy_sgm.core.data import ExpectedCounts, check_frame
from pgmpy_sgm.core.missing import check_missing_option
from pgmpy_sgm.core.moves import chordal_families
from pgmpy_sgm.core.pooling import is_dask_frame, pool_data, pooled_input

__all__ = [
    "CausalDiscoveryMixin",
    "DecomposableCausalGraphMixin",
    "check_features",
    "check_return_type",
    "check_score_arguments",
    "cpdag",
    "equivalence_class",
    "perfect_orientation",
]

#: Accepted ``return_type`` values, as pgmpy's ``PC``: ``"pdag"`` and ``"cpdag"`` both give the CPDAG.
RETURN_TYPES = ("pdag", "cpdag", "dag")
#: The constraint on ``return_type`` in the learners' parameter tables (any letter case).
RETURN_TYPE = Constraint(f"one of {RETURN_TYPES}", lambda v: isinstance(v, str) and v.lower() in RETURN_TYPES)


def check_return_type(return_type) -> str:
    """``return_type`` in lower case, or a ValueError naming the accepted values.

    Examples
    --------
    >>> check_return_type("CPDAG")
    'cpdag'
    >>> check_return_type("graph")
    Traceback (most recent call last):
        ...
    ValueError: return_type must be one of ('pdag', 'cpdag', 'dag'). Got: 'graph'
    """
    value = return_type.lower() if isinstance(return_type, str) else return_type
    if value not in RETURN_TYPES:
        raise ValueError(f"return_type must be one of {RETURN_TYPES}. Got: {return_type!r}")
    return value


def cpdag(dag: nx.DiGraph, nodes: Iterable | None = None) -> PDAG:
    """The CPDAG (completed partially directed graph) of a DAG: its Markov equivalence class.

    An edge is directed when every DAG with the same skeleton and immoralities (the same
    conditional independencies) orients it alike, and undirected otherwise (pgmpy's
    ``DAG.to_pdag``, Chickering's algorithm). The result's nodes are in ``nodes`` order
    (default: the DAG's), isolated ones included.

    Examples
    --------
    >>> pdag = cpdag(DAG([("a", "c"), ("b", "c"), ("c", "d")]), ["d", "c", "b", "a"])
    >>> sorted(pdag.directed_edges), sorted(pdag.undirected_edges), list(pdag.nodes())
    ([('a', 'c'), ('b', 'c'), ('c', 'd')], [], ['d', 'c', 'b', 'a'])
    >>> sorted(cpdag(DAG([("a", "b"), ("b", "c")])).undirected_edges)
    [('a', 'b'), ('b', 'c')]
    """
    nodes = list(dag.nodes()) if nodes is None else list(nodes)
    plain = DAG()
    plain.add_nodes_from(nodes)
    plain.add_edges_from(dag.edges())
    found = plain.to_pdag()
    position = {v: i for i, v in enumerate(nodes)}
    undirected = sorted(((u, v) if position[u] < position[v] else (v, u) for u, v in found.undirected_edges),
                        key=lambda e: (position[e[0]], position[e[1]]))  # fmt: skip
    directed = sorted(found.directed_edges, key=lambda e: (position[e[0]], position[e[1]]))
    out = PDAG()
    out.add_nodes_from(nodes)
    out.add_edges_from(directed + undirected + [(v, u) for u, v in undirected])
    out.directed_edges, out.undirected_edges = set(directed), set(undirected)
    return out


def equivalence_class(graph: nx.Graph, nodes: Iterable | None = None) -> PDAG:
    """The Markov equivalence class of a decomposable graph: a pgmpy ``PDAG`` with every edge undirected.

    Parameters
    ----------
    graph : networkx.Graph
        A decomposable (chordal) undirected graph, e.g. a
        :class:`~pgmpy_sgm.models.StratifiedGraph`.
    nodes : iterable, optional
        Node order of the result (default: the graph's).

    Examples
    --------
    >>> pdag = equivalence_class(nx.Graph([("a", "b"), ("b", "c")]))
    >>> sorted(pdag.undirected_edges), sorted(pdag.directed_edges)
    ([('a', 'b'), ('b', 'c')], [])
    """
    nodes = list(graph.nodes()) if nodes is None else list(nodes)
    position = {v: i for i, v in enumerate(nodes)}
    edges = [(u, v) if position[u] < position[v] else (v, u) for u, v in graph.edges()]
    out = PDAG()
    out.add_nodes_from(nodes)  # in this order, isolated variables included
    out.add_edges_from(edges + [(v, u) for u, v in edges])
    out.undirected_edges = set(edges)
    return out


def perfect_orientation(graph: nx.Graph, nodes: Iterable | None = None, tie_break: Iterable | None = None) -> DAG:
    """One perfect orientation of a decomposable graph: a pgmpy ``DAG`` with the same independencies.

    Edges point from earlier to later nodes of a maximum cardinality search (ties broken by
    ``tie_break`` order, default ``nodes``), which orders a chordal graph so that every
    node's earlier neighbours form a clique: the DAG has the graph's skeleton and no
    immoralities. The DAG's nodes are in ``nodes`` order (default: the graph's).

    Raises
    ------
    ValueError
        If the graph is not chordal.

    Examples
    --------
    >>> dag = perfect_orientation(nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("c", "d")]))
    >>> sorted(dag.edges())
    [('a', 'b'), ('a', 'c'), ('b', 'c'), ('c', 'd')]
    """
    nodes = list(graph.nodes()) if nodes is None else list(nodes)
    missing = [v for v in graph.nodes() if v not in set(nodes)]
    if missing:
        raise ValueError(f"The graph has node(s) that are not in nodes. Got: {missing}")
    if not nx.is_chordal(graph):
        raise ValueError(f"The graph is not decomposable (chordal). Got edges: {sorted(graph.edges(), key=str)}")
    order = list(nodes if tie_break is None else tie_break)
    index = {v: i for i, v in enumerate(order)}
    adj = [0] * len(order)
    for u, v in graph.edges():
        adj[index[u]] |= 1 << index[v]
        adj[index[v]] |= 1 << index[u]
    # the package's maximum cardinality search: ties go to the first node in ``order``
    rank = {order[v]: step for step, (v, _) in enumerate(chordal_families(adj))}
    dag = DAG()
    dag.add_nodes_from(nodes)
    dag.add_edges_from((u, v) if rank[u] < rank[v] else (v, u) for u, v in graph.edges())
    return dag


def _ordered_dag(edges, nodes: list) -> DAG:
    """A pgmpy ``DAG`` with ``nodes`` in order (isolated ones included) and its edges sorted by that order."""
    position = {v: i for i, v in enumerate(nodes)}
    dag = DAG()
    dag.add_nodes_from(nodes)
    dag.add_edges_from(sorted(edges, key=lambda e: (position[e[0]], position[e[1]])))
    return dag


def check_features(estimator, X, reset: bool) -> None:
    """Set (``reset=True``) or check scikit-learn's ``n_features_in_`` and ``feature_names_in_`` for ``X``.

    A DataFrame's values are checked by the package's own checks (naming the column at
    fault), so scikit-learn is not asked to turn it into one array: for columns of
    categories that array holds a Python object per cell, nine times the frame's memory.
    Arrays are checked by scikit-learn as well.

    Examples
    --------
    >>> from pgmpy_sgm.causal_discovery import LDAGSearch
    >>> est = LDAGSearch()
    >>> check_features(est, pd.DataFrame({"a": [0, 1], "b": [1, 0]}), reset=True)
    >>> est.n_features_in_, est.feature_names_in_.tolist()
    (2, ['a', 'b'])
    """
    if isinstance(X, pd.DataFrame):
        validate_data(estimator, X=X, skip_check_array=True, reset=reset)
    else:
        validate_data(estimator, X=X, dtype=None, accept_sparse=False, ensure_all_finite=True, reset=reset)


def check_data_argument(X):
    """``X`` if it is a pandas or Dask DataFrame or a 2-D array (a list of rows becomes one), else a one-line error.

    Examples
    --------
    >>> check_data_argument([[0, 1], [1, 0]]).shape
    (2, 2)
    >>> check_data_argument("data.csv")
    Traceback (most recent call last):
        ...
    TypeError: X must be a pandas DataFrame, a Dask DataFrame or a 2-D array. Got: str 'data.csv'
    >>> check_data_argument([0, 1, 1])
    Traceback (most recent call last):
        ...
    ValueError: X must be two-dimensional (observations x variables). Got shape (3,)
    """
    if isinstance(X, pd.DataFrame) or is_dask_frame(X):
        return X
    if isinstance(X, list | tuple):
        try:
            X = np.asarray(X)
        except ValueError:  # ragged rows
            raise ValueError(f"X must be two-dimensional (observations x variables). Got: {X!r:.60}") from None
    if not isinstance(X, np.ndarray):
        kinds = "a pandas DataFrame, a Dask DataFrame or a 2-D array"
        raise TypeError(f"X must be {kinds}. Got: {type(X).__name__} {X!r:.60}")
    if X.ndim != 2:
        raise ValueError(f"X must be two-dimensional (observations x variables). Got shape {X.shape}")
    return X


def check_score_arguments(learned: nx.DiGraph, X, true_graph) -> None:
    """Refuse, naming the value, data that is not a table and a true graph over other nodes than ``learned``.

    Examples
    --------
    >>> check_score_arguments(DAG([("a", "b")]), None, DAG([("a", "c")]))
    Traceback (most recent call last):
        ...
    ValueError: true_graph must have the learned graph's nodes; missing: ['b'], unknown: ['c']
    """
    if X is not None and not isinstance(X, pd.DataFrame) and np.ndim(X) != 2:
        if isinstance(X, np.ndarray | list | tuple):
            raise ValueError(f"X must be two-dimensional (observations x variables). Got shape {np.shape(X)}")
        raise TypeError(f"X must be a pandas DataFrame or a 2-D array. Got: {type(X).__name__} {X!r:.60}")
    if true_graph is None:
        return
    if not isinstance(true_graph, nx.DiGraph):
        raise TypeError(f"true_graph must be a pgmpy DAG or PDAG. Got: {type(true_graph).__name__}")
    ours, theirs = set(learned.nodes()), set(true_graph.nodes())
    if ours != theirs:
        missing, unknown = sorted(ours - theirs, key=str), sorted(theirs - ours, key=str)
        raise ValueError(f"true_graph must have the learned graph's nodes; missing: {missing}, unknown: {unknown}")


class CausalDiscoveryMixin:
    r"""``return_type``, data checks, scikit-learn tags and ``score`` shared by the package's learners.

    A learner lists this mixin before scikit-learn's ``BaseEstimator``, stores
    ``return_type`` in ``__init__``, checks its data with :meth:`_validated_frame` at the
    start of ``fit``, sets ``causal_graph_`` and ``adjacency_matrix_`` at its end (with
    :meth:`_set_dag_result`, or :meth:`DecomposableCausalGraphMixin._set_causal_graph`), and
    implements ``_score_data(X)``.

    **What** ``score(X)`` **means.** For both learners, ``score(X)`` without a metric is the
    learner's own log unnormalized posterior of its fitted model on ``X``,
    :math:`\log p(X \mid G_L) + \log P(G_L)`: the learned graph :math:`G` with the
    strata or labels :math:`L` it was fitted with (kept as they are, not chosen anew for
    ``X``), under the learner's marginal likelihood and structure prior, with the fitted
    state names. That is :meth:`SGMScore.score <pgmpy_sgm.structure_score.SGMScore.score>`
    of ``model_`` for :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` and the sum of
    :meth:`LDAGScore.family_score <pgmpy_sgm.structure_score.LDAGScore.family_score>` over
    the families of ``model_`` for :class:`~pgmpy_sgm.causal_discovery.LDAGSearch`; on the
    training data it equals ``best_score_``. Higher is better. The two learners' values
    differ in model class and structure prior, so compare a learner's scores with each
    other (on held-out data, say), not across learners. pgmpy's own learners give pgmpy's
    ``correlation_score`` here instead; ``score(X, metric="correlation_score")`` gives it.

    Examples
    --------
    >>> from sklearn.base import BaseEstimator
    >>> class Learner(CausalDiscoveryMixin, BaseEstimator):
    ...     def __init__(self, return_type="dag"):
    ...         self.return_type = return_type
    ...     def fit(self, X, y=None):
    ...         self._check_return_type()
    ...         X = self._validated_frame(X)
    ...         return self._set_dag_result([("x0", "x1")], list(X.columns))
    >>> est = Learner(return_type="cpdag").fit(np.array([[0, 1, 1], [1, 0, 1]]))
    >>> type(est.causal_graph_).__name__, sorted(est.causal_graph_.undirected_edges), list(est.feature_names_in_)
    ('PDAG', [('x0', 'x1')], ['x0', 'x1', 'x2'])
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = False
        tags.input_tags.positive_only = False
        tags.target_tags.required = False
        return tags

    def fit(self, X, y=None):
        """Learn from discrete data ``X``: check it, pool it, handle its gaps, then run the learner's search.

        The steps every learner shares, in order (as pgmpy's ``_BaseCausalDiscovery.fit``):
        the data are checked (a DataFrame, a Dask DataFrame or a 2-D array; an array gets
        columns ``x0, x1, ...``), the parameters are checked
        (``_parameter_constraints``), a setting asked to be chosen by held-out fit is
        chosen (``_fit_by_held_out``), weighted data and Dask DataFrames are pooled into
        distinct rows with counts where they live
        (:func:`~pgmpy_sgm.core.pooling.pooled_input`), missing cells are handled as
        ``missing`` says (:func:`~pgmpy_sgm.causal_discovery._structural_em.missing_input`),
        and the learner's own ``_fit(X, weights)`` runs, or its ``_fit_em(X, weights)`` for
        structural EM. ``max_time`` counts from the call.

        Parameters
        ----------
        X : pandas.DataFrame, dask.dataframe.DataFrame or numpy.ndarray
            One row per observation, or a table of counts with the learner's ``weights``
            (scored as it is, without expanding it into rows), or a Dask DataFrame.
        y : None
            Ignored (scikit-learn convention).

        Returns
        -------
        self

        Examples
        --------
        >>> from pgmpy_sgm.causal_discovery import LDAGSearch
        >>> df = pd.DataFrame({"a": [0, 1] * 50, "b": [0, 1] * 50})
        >>> sorted(LDAGSearch(n_restarts=0, show_progress=False).fit(df).adjacency_matrix_.sum().tolist())
        [0, 1]
        >>> table = pd.DataFrame({"a": [0, 1], "b": [0, 1], "n": [50, 50]})  # the same data as counts
        >>> sorted(LDAGSearch(n_restarts=0, weights="n", show_progress=False).fit(table).adjacency_matrix_.sum())
        [0, 1]
        """
        self._started_at = time.time()
        X = check_data_argument(X)
        self._check_params()
        chosen = self._fit_by_held_out(X)
        if chosen is not None:
            return chosen
        X, weights = pooled_input(X, self.weights, check_missing_option(self.missing) != "error")
        X, weights, needs_em = missing_input(X, weights, self.missing)
        if needs_em:
            return self._fit_em(X, weights)
        return self._fit(X, weights)

    def _fit_deadline(self) -> float | None:
        """The ``time.time()`` at which ``max_time`` runs out, counted from the start of ``fit`` (None: no limit)."""
        return None if self.max_time is None else self._started_at + float(self.max_time)

    def _check_params(self) -> None:
        check_parameters(self, self._parameter_constraints)

    def _fit_by_held_out(self, X):
        """Fit with a setting chosen by held-out fit when one is asked for, returning ``self``; else None."""
        return None

    def _fit(self, X, weights):  # the learner's search on complete (possibly pooled) data
        raise NotImplementedError

    def _fit_em(self, X, weights):  # the learner's structural EM on data with gaps
        raise NotImplementedError

    def _score_data(self, X):  # the learner's own score of its model on data (score(X) without a metric)
        raise NotImplementedError

    def _check_return_type(self) -> str:
        return check_return_type(self.return_type)

    def _fit_data(self, X, weights) -> tuple[pd.DataFrame, np.ndarray | None]:
        """The variables (an array gets columns ``x0, x1, ...``) and the counts of their rows, or None.

        Rows are kept as given, or pooled into distinct rows with counts for weighted data
        and Dask DataFrames; expected counts come pooled from an E-step and are kept.
        """
        if is_dask_frame(X):  # pooled where its partitions live
            frame, counts = pool_data(X, weights)
            return self._validated_frame(frame, counts), counts
        variables = self._validated_frame(X, weights)
        if weights is None or isinstance(weights, ExpectedCounts):
            return variables, weights
        return pool_data(X if isinstance(X, pd.DataFrame) else variables, weights)

    def _validated_frame(self, X, weights=None) -> pd.DataFrame:
        """The variables of ``X`` as a DataFrame (an array gets columns ``x0, x1, ...``), checked as pgmpy does.

        Sets ``n_features_in_`` and ``feature_names_in_`` (the variables: a count column
        named by ``weights`` is not one). Raises a one-line error naming the column at
        fault, the shape, or the number of observations (at least 2, counted with the
        weights).
        """
        X = check_data_argument(X)
        if isinstance(X, pd.DataFrame):  # messages naming the column before scikit-learn's generic ones
            check_frame(X, weights)
            variables = X.drop(columns=[weights]) if isinstance(weights, str) else X
        elif isinstance(weights, str):
            raise ValueError(f"weights={weights!r} names a column, but X is a {type(X).__name__} without column "
                             "names: pass the counts as an array")  # fmt: skip
        else:
            variables = X
            if isinstance(X, np.ndarray) and X.ndim == 2 and X.shape[1] > 0 and X.dtype.kind in "biufOUS":
                # one-line messages naming the column (x0, x1, ...) for gaps, infinities, continuous values
                check_frame(pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])]), weights)
        shape = getattr(variables, "shape", None) or np.shape(variables)
        if len(shape) != 2:
            raise ValueError(f"X must be two-dimensional (observations x variables). Got shape {shape}")
        n_samples, n_features = shape
        if n_features == 0:
            raise ValueError(f"0 feature(s) (shape={tuple(shape)}) while a minimum of 1 is required.")
        if weights is not None and not isinstance(weights, str):
            n_samples = float(np.sum(weights))
        elif isinstance(weights, str):
            n_samples = float(X[weights].sum())
        if n_samples < 2:
            raise ValueError(f"n_samples = {n_samples:g}, at least 2 are required.")
        check_features(self, variables, reset=True)
        if not isinstance(variables, pd.DataFrame):
            variables = pd.DataFrame(variables, columns=[f"x{i}" for i in range(n_features)])
            self.feature_names_in_ = np.asarray(variables.columns, dtype=object)
        self.n_features_in_ = n_features
        return variables

    def _set_dag_result(self, edges, nodes: Iterable):
        """Set ``causal_graph_`` (the DAG, or its CPDAG) and ``adjacency_matrix_`` from a learned DAG."""
        nodes = list(nodes)
        self._metric_dag = _ordered_dag(edges, nodes)  # also used by DAG-only metrics
        if self._check_return_type() == "dag":
            self.causal_graph_ = self._metric_dag
        else:
            self.causal_graph_ = cpdag(self._metric_dag, nodes)
        self.adjacency_matrix_ = nx.to_pandas_adjacency(self.causal_graph_, nodelist=nodes, weight=1, dtype="int")
        return self

    def score(self, X=None, y=None, true_graph=None, metric=None):
        """Score the learned model on data, or the learned graph against a true graph, as pgmpy's learners do.

        Parameters
        ----------
        X : pandas.DataFrame or numpy.ndarray, optional
            Data over the fitted variables (an array's columns are ``x0, x1, ...``). Without
            ``metric``: the learner's own log unnormalized posterior of its fitted model on
            ``X`` (see :class:`CausalDiscoveryMixin`; pgmpy's learners give their
            ``correlation_score`` instead). With ``metric``: that pgmpy metric
            (``pgmpy.metrics.get_metrics(requires_data=True)``).
        y : None
            Ignored (scikit-learn's convention). A graph given here is taken as
            ``true_graph``, so pgmpy's positional ``score(None, true_graph)`` works too.
        true_graph : pgmpy.base.DAG or PDAG, optional
            The true graph; ``metric`` defaults to pgmpy's default (``SHD``), as in pgmpy.
        metric : str or pgmpy metric instance, optional
            A pgmpy metric, e.g. ``"SHD"``, ``"adjacency_confusion_matrix"`` or
            ``"structure_score"``. When ``causal_graph_`` is a PDAG, a metric that accepts
            only DAGs (most of pgmpy's) is evaluated on the learned DAG (the perfect
            orientation of a decomposable graph, the DAG of a labelled DAG): data
            metrics that respect Markov equivalence give the value of the whole class,
            while orientation-sensitive metrics (``SHD``, ``orientation_confusion_matrix``)
            also count orientations the data cannot decide.

        Returns
        -------
        float or the metric's result

        Raises
        ------
        ValueError
            If neither ``X`` nor ``true_graph`` is given, or ``metric`` names no pgmpy metric.

        Examples
        --------
        >>> from pgmpy_sgm.causal_discovery import NonReversibleMCMC
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> data = load_heart_disease()
        >>> est = NonReversibleMCMC(n_iter=200, seed=0, show_progress=False).fit(data)
        >>> round(est.score(data), 2)  # the log unnormalized posterior of the learned model
        -6715.9
        >>> true = NonReversibleMCMC(n_iter=50, seed=1, show_progress=False, return_type="dag").fit(data).causal_graph_
        >>> est.score(true_graph=true, metric="adjacency_confusion_matrix")["f1"] <= 1.0
        True
        """
        check_is_fitted(self, "causal_graph_")
        if isinstance(y, nx.Graph) and true_graph is None:
            true_graph, y = y, None
        if X is None and true_graph is None:
            raise ValueError("Either `X` or `true_graph` needs to be specified")
        check_score_arguments(self.causal_graph_, X, true_graph)
        if X is not None:
            X = self._array_as_fitted(X)
        if X is not None and metric is None:
            return self._score_data(X)
        if X is not None:
            if not isinstance(X, pd.DataFrame):
                X = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
            metric = self._metric(metric, requires_data=True)
            return metric.evaluate(X, self._graph_for(metric))
        metric = self._metric(metric, requires_true_graph=True)
        return metric.evaluate(true_causal_graph=true_graph, est_causal_graph=self._graph_for(metric))

    def _array_as_fitted(self, X):
        """An array as wide as the fitted data, after a fit on an array: a frame with columns ``x0, x1, ...``."""
        names = [str(v) for v in getattr(self, "feature_names_in_", [])]
        if isinstance(X, pd.DataFrame) or names != [f"x{i}" for i in range(len(names))]:
            return X
        if np.ndim(X) != 2 or np.shape(X)[1] != len(names) or hasattr(X, "tocsr"):
            return X  # scikit-learn's checks name the shape or the sparse input
        return pd.DataFrame(X, columns=names)

    @staticmethod
    def _metric(metric, **tags):
        if metric is None:
            return get_metrics(is_default=True, **tags)[0]()
        if isinstance(metric, str):
            found = get_metrics(name=metric)
            if not found:
                raise ValueError(f"No scoring method found with name: {metric}")
            return found[0]()
        return metric

    def _graph_for(self, metric):
        graph = self.causal_graph_
        supported = metric.get_tag("supported_graph_types", (DAG,))
        if isinstance(graph, PDAG) and not isinstance(graph, supported):
            # _perfect_dag: the name in estimators pickled by version 0.1.0
            return self._metric_dag if hasattr(self, "_metric_dag") else self._perfect_dag
        return graph


class DecomposableCausalGraphMixin(CausalDiscoveryMixin):
    """The contract of :class:`CausalDiscoveryMixin` for learners of decomposable undirected graphs.

    A subclass calls :meth:`_set_causal_graph` at the end of ``fit`` with the learned
    undirected graph. With ``return_type`` ``"pdag"`` or ``"cpdag"``, ``causal_graph_`` is
    the graph's Markov equivalence class (the PDAG with every edge undirected, which is the
    CPDAG of every perfect orientation); with ``"dag"`` one perfect orientation.

    Examples
    --------
    >>> class Learner(DecomposableCausalGraphMixin):
    ...     return_type = "dag"
    ...     def fit(self, X, y=None):
    ...         self.feature_names_in_ = list(X.columns)
    ...         return self._set_causal_graph(nx.Graph([("a", "b")]), X.columns)
    >>> est = Learner().fit(pd.DataFrame({"a": [0, 1], "b": [0, 1], "c": [1, 1]}))
    >>> est.adjacency_matrix_.to_numpy().tolist()
    [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    """

    def _set_causal_graph(self, graph: nx.Graph, nodes: Iterable, tie_break: Iterable | None = None):
        """Set ``causal_graph_`` (equivalence class or one perfect orientation) and ``adjacency_matrix_``."""
        nodes = list(nodes)
        self._metric_dag = perfect_orientation(graph, nodes, tie_break)  # also used by DAG-only metrics
        if self._check_return_type() == "dag":
            self.causal_graph_ = self._metric_dag
        else:
            self.causal_graph_ = equivalence_class(graph, nodes)
        self.adjacency_matrix_ = nx.to_pandas_adjacency(self.causal_graph_, nodelist=nodes, weight=1, dtype="int")
        return self
