"""Parameters of a labelled DAG: the estimator chosen, the TreeCPD of each node, and the likelihood of rows."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import numpy as np
import pandas as pd
from pgmpy.parameter_estimator import DiscreteBayesianEstimator

from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.missing import columns_of, encode_with_gaps, marginal_log_probability, recoding
from pgmpy_sgm.core.posterior_parts import with_scopes
from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models._estimators import (
    EstimatorSpec,
    node_pseudo_counts,
    pgmpy_parent_order,
    pooled_distributions,
    read_estimator,
    reorder_columns,
)

__all__ = [
    "non_negative_number",
    "fit_spec",
    "checked_fit_columns",
    "fit_state_names",
    "network_log_likelihood",
    "fitted_cpd",
    "update_estimator",
    "network_log_probability",
]


def non_negative_number(value, what: str) -> float:
    """``value`` as a float, refused unless it is a non-negative number.

    Examples
    --------
    >>> non_negative_number(2, "n_prev_samples")
    2.0
    >>> non_negative_number(-1, "n_prev_samples")
    Traceback (most recent call last):
        ...
    ValueError: n_prev_samples must be a non-negative number. Got: -1
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating) or not value >= 0:
        raise ValueError(f"{what} must be a non-negative number. Got: {value!r}")
    return float(value)


def fit_spec(estimator, equivalent_sample_size) -> EstimatorSpec:
    """The estimator of :meth:`~pgmpy_sgm.models.LabeledBayesianNetwork.fit`: maximum likelihood by
    default, "bayes" is BDeu.

    Examples
    --------
    >>> fit_spec(None, 8).kind, fit_spec(None, 8).equivalent_sample_size
    ('bdeu', 8.0)
    """
    if equivalent_sample_size is not None:
        ess = non_negative_number(equivalent_sample_size, "equivalent_sample_size")
        if not ess > 0:
            raise ValueError(f"equivalent_sample_size must be a positive number, got {equivalent_sample_size!r}")
    if estimator is None:
        estimator = "mle" if equivalent_sample_size is None else "bayes"
    spec = read_estimator(estimator)
    if spec.kind == "bayes":
        ess = 5.0 if equivalent_sample_size is None else float(equivalent_sample_size)
        return EstimatorSpec("bdeu", ess, None, spec.state_names)
    if equivalent_sample_size is not None:
        raise ValueError("equivalent_sample_size goes with estimator='bayes' only; set it on the "
                         "DiscreteBayesianEstimator instead")
    return spec


def checked_fit_columns(data, nodes: list, weights) -> list:
    """The columns of ``data`` a fit reads (the nodes, and the count column if ``weights`` names one).

    Examples
    --------
    >>> import pandas as pd
    >>> checked_fit_columns(pd.DataFrame({"a": [0], "n": [3]}), ["a"], "n")
    ['a', 'n']
    >>> checked_fit_columns(pd.DataFrame({"a": [0]}), ["a", "b"], None)
    Traceback (most recent call last):
        ...
    ValueError: The data have no column for node(s) ['b']
    """
    if not hasattr(data, "columns"):
        raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
    absent = [v for v in nodes if v not in data.columns]
    if absent:
        raise ValueError(f"The data have no column for node(s) {absent}")
    if isinstance(weights, str) and weights not in data.columns:
        raise ValueError(f"weights column {weights!r} is not a column of the data: {list(data.columns)}")
    return list(nodes) + ([weights] if isinstance(weights, str) else [])


def fitted_cpd(model, node, enc: EncodedData, spec: EstimatorSpec) -> TreeCPD:
    """The TreeCPD of ``node`` of ``model`` (a labelled network) estimated from ``enc`` by ``spec``,
    one distribution per class.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.models import LabeledBayesianNetwork
    >>> m = LabeledBayesianNetwork([("a", "b")], state_names={"a": [0, 1], "b": [0, 1]})
    >>> enc = EncodedData(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]}))
    >>> fitted_cpd(m, "b", enc, fit_spec(None, None)).get_values().tolist()
    [[0.5, 0.0], [0.5, 1.0]]
    """
    parents, ids = model.get_classes(node)
    parents = list(parents)
    r = enc.cardinality[node]
    cards = [enc.cardinality[p] for p in parents]
    counts = np.asarray(enc.counts(tuple(parents) + (node,))).reshape(-1, r)
    if ids.size != counts.shape[0]:
        raise ValueError(f"The classes of {node!r} cover {ids.size} configurations of {parents}; their states "
                         f"now make {counts.shape[0]}. Give the states the labels were set with.")
    pseudo = node_pseudo_counts(spec, node, parents, cards, r, pgmpy_parent_order(parents))
    values = pooled_distributions(counts, pseudo, ids)
    state = {v: list(enc.state_names[v]) for v in (node, *parents)}
    return TreeCPD(node, r, parents, cards, ids, values, state_names=state)


def update_estimator(model, n_prev: float) -> DiscreteBayesianEstimator:
    """pgmpy's ``fit_update`` estimator: the fitted CPDs of ``model`` times ``n_prev`` as Dirichlet pseudo-counts.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.models import LabeledBayesianNetwork
    >>> m = LabeledBayesianNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]}))
    >>> update_estimator(m, 2.0).pseudo_counts["b"].tolist()
    [[1.0, 0.0], [1.0, 2.0]]
    """
    pseudo, names = {}, {}
    for node in model.nodes():
        cpd = model.get_cpds(node)
        evidence = list(cpd.variables[1:])
        values = np.asarray(cpd.get_values(), dtype=np.float64) * n_prev
        pseudo[node] = reorder_columns(values, evidence, list(cpd.cardinality[1:]), pgmpy_parent_order(evidence))
        names.update({v: list(s) for v, s in cpd.state_names.items()})
    return DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=pseudo, state_names=names)


def network_log_probability(model, variables: list, state_names: Mapping):
    """``f(codes)``: the log probability under the fitted ``model`` of complete rows given as state
    indices (column ``j`` of ``codes`` holds positions in ``state_names[variables[j]]``).

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm.models import LabeledBayesianNetwork
    >>> net = LabeledBayesianNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]}))
    >>> f = network_log_probability(net, ["a", "b"], {"a": [0, 1], "b": [0, 1]})
    >>> np.exp(f(np.array([[1, 1]]))).tolist()
    [0.5]
    """
    columns_of(list(model.nodes()), list(state_names), "state names of")
    terms = []
    for cpd in model.get_cpds():
        node, parents = cpd.variables[0], list(cpd.variables[1:])
        to_cpd = [recoding(state_names[v], cpd.state_names[v], v) for v in (node, *parents)]
        to_cpd = [None if np.array_equal(m, np.arange(len(m))) else m for m in to_cpd]  # identity: no lookup
        columns = columns_of((node, *parents), variables)
        with np.errstate(divide="ignore"):
            logs = np.log(np.asarray(cpd.get_values(), dtype=np.float64))
        # place values of the flattened table: the node's state slowest, then the parents in C order
        places = np.cumprod([1, *cpd.cardinality[:0:-1]])[::-1]
        terms.append((columns, to_cpd, [int(logs.shape[1]), *map(int, places[1:])], logs.ravel()))

    def term_value(codes: np.ndarray, term) -> np.ndarray:
        columns, to_cpd, places, logs = term
        index = np.zeros(len(codes), dtype=np.int64)
        for c, m, place in zip(columns, to_cpd, places, strict=True):
            column = codes[:, c] if m is None else m[codes[:, c]]
            index += column * place if place != 1 else column
        return logs[index]

    def log_probability(codes: np.ndarray) -> np.ndarray:
        total = np.zeros(len(codes))
        for term in terms:
            total += term_value(codes, term)
        return total

    return with_scopes(log_probability, [columns for columns, *_ in terms],
                       [functools.partial(term_value, term=term) for term in terms])  # fmt: skip


def fit_state_names(model, spec: EstimatorSpec, state_names: Mapping | None) -> dict:
    """The states a fit of ``model`` reads its nodes in: those given, else the estimator's, else those
    the labels are read in (recorded on the model, or its CPDs').

    Examples
    --------
    >>> from pgmpy_sgm.models import LabeledBayesianNetwork
    >>> m = LabeledBayesianNetwork([("a", "b")], state_names={"a": [0, 1]})
    >>> fit_state_names(m, fit_spec(None, None), {"b": ["x", "y"]})
    {'a': [0, 1], 'b': ['x', 'y']}
    """
    names = {}
    for v in model.nodes():  # the states the labels are read in: recorded, else the CPDs'
        try:
            names[v] = model.label_states(v)
        except ValueError:
            pass
    names.update(spec.state_names or {})
    names.update(state_names or {})
    return {k: v for k, v in names.items() if k in model.nodes()}


def network_log_likelihood(model, data, per_row: bool = False):
    """:meth:`~pgmpy_sgm.models.LabeledBayesianNetwork.log_likelihood` of ``data`` under the fitted ``model``.

    Examples
    --------
    >>> from pgmpy_sgm.models import LabeledBayesianNetwork
    >>> net = LabeledBayesianNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]}))
    >>> float(np.exp(network_log_likelihood(net, pd.DataFrame({"a": [1], "b": [1]}))))
    0.5
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
    nodes = list(model.nodes())
    absent = [v for v in nodes if v not in data.columns]
    if absent:
        raise ValueError(f"The data have no column for node(s) {absent}")
    states = {v: list(model.get_cpds(v).state_names[v]) for v in nodes}
    codes, _ = encode_with_gaps(data[nodes], states)
    cards = [len(states[v]) for v in nodes]
    values = marginal_log_probability(codes, cards, network_log_probability(model, nodes, states))
    return values if per_row else float(values.sum())
