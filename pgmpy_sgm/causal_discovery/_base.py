"""pgmpy 1.x's causal-discovery contract for estimators that learn decomposable graphs.

pgmpy's structure learners (``pgmpy.causal_discovery``) expose ``causal_graph_``,
``adjacency_matrix_`` and ``score(X=None, true_graph=None, metric=None)``. A decomposable
undirected graph is Markov equivalent to each of its perfect orientations (acyclic
orientations without immoralities), so its Markov equivalence class is the
:class:`~pgmpy.base.PDAG` with every edge undirected; one perfect orientation is a
:class:`~pgmpy.base.DAG` in that class.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np
import pandas as pd
from pgmpy.base import DAG, PDAG
from pgmpy.metrics import get_metrics
from sklearn.utils.validation import check_is_fitted

__all__ = ["DecomposableCausalGraphMixin", "check_score_arguments", "equivalence_class", "perfect_orientation"]

_RETURN_TYPES = ("pdag", "dag")


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
    weight = dict.fromkeys(nodes if tie_break is None else tie_break, 0)
    rank: dict = {}
    while weight:
        v = max(weight, key=weight.__getitem__)  # first node of maximal weight, in nodes order
        rank[v] = len(rank)
        del weight[v]
        for w in graph.neighbors(v) if v in graph else ():
            if w in weight:
                weight[w] += 1
    dag = DAG()
    dag.add_nodes_from(nodes)
    dag.add_edges_from((u, v) if rank[u] < rank[v] else (v, u) for u, v in graph.edges())
    return dag


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
        raise TypeError(f"X must be a pandas DataFrame or a 2-D array. Got: {type(X).__name__} {X!r:.60}")
    if true_graph is None:
        return
    if not isinstance(true_graph, nx.DiGraph):
        raise TypeError(f"true_graph must be a pgmpy DAG or PDAG. Got: {type(true_graph).__name__}")
    ours, theirs = set(learned.nodes()), set(true_graph.nodes())
    if ours != theirs:
        missing, unknown = sorted(ours - theirs, key=str), sorted(theirs - ours, key=str)
        raise ValueError(f"true_graph must have the learned graph's nodes; missing: {missing}, unknown: {unknown}")


class DecomposableCausalGraphMixin:
    """``causal_graph_``, ``adjacency_matrix_`` and pgmpy's ``score`` for learners of decomposable graphs.

    A subclass sets ``return_type`` (``"pdag"`` or ``"dag"``) in ``__init__``, calls
    :meth:`_set_causal_graph` at the end of ``fit`` with the learned undirected graph, and
    implements ``_score_data(X)``, the score of the learned model on data used when
    :meth:`score` gets ``X`` and no ``metric``.

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

    def _score_data(self, X):  # the estimator's own score of its model on data (score(X) without a metric)
        raise NotImplementedError

    def _check_return_type(self) -> str:
        return_type = self.return_type.lower() if isinstance(self.return_type, str) else self.return_type
        if return_type not in _RETURN_TYPES:
            raise ValueError(f"return_type must be one of {_RETURN_TYPES}. Got: {self.return_type!r}")
        return return_type

    def _set_causal_graph(self, graph: nx.Graph, nodes: Iterable, tie_break: Iterable | None = None):
        """Set ``causal_graph_`` (equivalence class or one perfect orientation) and ``adjacency_matrix_``."""
        nodes = list(nodes)
        self._perfect_dag = perfect_orientation(graph, nodes, tie_break)  # also used by DAG-only metrics
        if self._check_return_type() == "dag":
            self.causal_graph_ = self._perfect_dag
        else:
            self.causal_graph_ = equivalence_class(graph, nodes)
        self.adjacency_matrix_ = nx.to_pandas_adjacency(self.causal_graph_, nodelist=nodes, weight=1, dtype="int")
        return self

    def score(self, X=None, y=None, true_graph=None, metric=None):
        """Score the learned graph on data or against a true graph, as pgmpy's causal-discovery estimators do.

        Parameters
        ----------
        X : pandas.DataFrame, optional
            Data. Without ``metric``: the estimator's own score of its learned model on
            ``X`` (for :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC`, the log
            unnormalized posterior; this differs from pgmpy, whose default data metric is
            ``correlation_score``). With ``metric``: that pgmpy metric
            (``pgmpy.metrics.get_metrics(requires_data=True)``).
        y : None
            Ignored (scikit-learn's convention). A graph given here is taken as
            ``true_graph``, so pgmpy's positional ``score(None, true_graph)`` works too.
        true_graph : pgmpy.base.DAG or PDAG, optional
            The true graph; ``metric`` defaults to pgmpy's default (``SHD``), as in pgmpy.
        metric : str or pgmpy metric instance, optional
            A pgmpy metric, e.g. ``"SHD"``, ``"adjacency_confusion_matrix"`` or
            ``"structure_score"``. A metric that accepts only DAGs (most of pgmpy's) is
            evaluated on the perfect orientation used by ``return_type="dag"``: data
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
        self._check_score_arguments(X, true_graph)
        if X is not None and metric is None:
            return self._score_data(X)
        if X is not None:
            if not isinstance(X, pd.DataFrame):
                X = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
            metric = self._metric(metric, requires_data=True)
            return metric.evaluate(X, self._graph_for(metric))
        metric = self._metric(metric, requires_true_graph=True)
        return metric.evaluate(true_causal_graph=true_graph, est_causal_graph=self._graph_for(metric))

    def _check_score_arguments(self, X, true_graph) -> None:
        check_score_arguments(self.causal_graph_, X, true_graph)

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
            return self._perfect_dag
        return graph
