"""Labelled DAGs as pgmpy Bayesian networks: labels tie CPD columns into classes (TreeCPDs)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

import networkx as nx
import numpy as np
from pgmpy.models import DiscreteBayesianNetwork

from pgmpy_sgm.core.arguments import check_node, check_nodes, state_list
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.missing import (
    IncompleteTable,
    check_missing_option,
    em_options,
    missing_cells,
    parameter_em,
    resolve_missing,
    states_with_missing,
)
from pgmpy_sgm.models._estimators import EstimatorSpec, merge_weights
from pgmpy_sgm.models._ldag_files import file_type, read_json_network, save_network
from pgmpy_sgm.models._ldag_fitting import (
    checked_fit_columns,
    fit_spec,
    fit_state_names,
    fitted_cpd,
    network_log_likelihood,
    network_log_probability,
    non_negative_number,
    update_estimator,
)
from pgmpy_sgm.models._ldag_labels import (
    acyclic_edges,
    checked_classes,
    class_entries,
    classes_with_added_states,
    edge_contexts,
)
from pgmpy_sgm.models._statements import ContextSpecificIndependence

__all__ = ["LabeledBayesianNetwork"]


def labelled_network(network, classes: Mapping | None = None) -> LabeledBayesianNetwork:
    """``network`` (a pgmpy ``DiscreteBayesianNetwork``) as a :class:`LabeledBayesianNetwork` with ``classes``.

    The CPDs are shared, not copied; the states are taken from them.

    Examples
    --------
    >>> from pgmpy.models import DiscreteBayesianNetwork
    >>> labelled_network(DiscreteBayesianNetwork([("a", "b")])).labels()
    {}
    """
    out = LabeledBayesianNetwork(latents=set(network.latents))
    out.add_nodes_from(network.nodes())
    out.add_edges_from(network.edges())
    cpds = network.get_cpds()
    if cpds:
        out.add_cpds(*cpds)
    for node, (parents, group_ids) in (classes or {}).items():
        out.set_classes(node, parents, group_ids)
    if cpds:
        out.check_model()
    return out


class LabeledBayesianNetwork(DiscreteBayesianNetwork):
    """A discrete Bayesian network whose edges carry labels (a labelled DAG, LDAG).

    A label on the edge ``u -> v`` is a configuration of ``v``'s other parents in which
    ``v`` does not depend on ``u`` [1]_. The labels of ``v`` merge parent configurations
    into *classes* that share one distribution of ``v``; they are stored per node as the
    class of every parent configuration (``classes``), from which the labels are read.
    Only maximal regular labellings are stored: every line inside one class is a label
    and no edge has all its lines labelled. :meth:`fit` gives every node a
    :class:`~pgmpy_sgm.factors.TreeCPD` whose tied leaves are the classes, so inference,
    ``simulate`` and the BIF/XMLBIF writers of pgmpy take the model as it is. :meth:`fit`,
    :meth:`fit_update`, :meth:`save` and :meth:`load` take pgmpy's arguments: every pgmpy
    estimator that can keep the ties is accepted, and ``save(..., filetype="json")`` keeps the
    labels (pgmpy's file formats do not).

    Parameters
    ----------
    ebunch : iterable of (u, v), optional
        Edges.
    state_names : dict, optional
        ``{variable: [states]}``; needed to set classes before :meth:`fit`.
    classes : dict, optional
        ``{node: (parents, group_ids)}``, see :meth:`set_classes`.
    latents : set, optional
        As in pgmpy.

    Attributes
    ----------
    equivalent_sample_size : float or None
        The ESS of the BDeu prior the structure was learned with, recorded by the learners
        (:class:`~pgmpy_sgm.causal_discovery.LDAGSearch` sets its ``ess_`` on ``model_``). When set,
        :meth:`fit` without an estimator uses BDeu with it, so re-fitted parameters keep the
        regularisation the structure was learned with; None (a model built by hand): maximum likelihood.

    Examples
    --------
    >>> import pandas as pd
    >>> model = LabeledBayesianNetwork(
    ...     [("a", "y"), ("b", "y")], state_names={"a": [0, 1], "b": [0, 1], "y": [0, 1]},
    ...     classes={"y": (("a", "b"), [0, 1, 0, 2])},
    ... )
    >>> model.labels()
    {('a', 'y'): [{'b': 0}]}
    >>> [str(s) for s in model.independencies()]
    ['y ⟂ a | b=0']
    >>> df = pd.DataFrame({"a": [0, 0, 1, 1, 1], "b": [0, 1, 0, 1, 1], "y": [0, 1, 0, 0, 1]})
    >>> _ = model.fit(df)
    >>> model.get_cpds("y").n_groups, model.n_free_parameters()
    (3, 5)

    References
    ----------
    .. [1] J. Pensar, H. Nyman, T. Koski and J. Corander. Labeled directed acyclic graphs: a
       generalization of context-specific independence in directed graphical models. Data
       Mining and Knowledge Discovery 29(2), 503-533, 2015.
    """

    def __init__(
        self,
        ebunch: Iterable[tuple[Hashable, Hashable]] | None = None,
        state_names: Mapping | None = None,
        classes: Mapping | None = None,
        latents: set | None = None,
    ) -> None:
        if ebunch is not None and not isinstance(ebunch, nx.Graph):
            ebunch = acyclic_edges(ebunch)
        super().__init__(ebunch=ebunch, latents=latents)
        self._classes: dict = {}
        self._state_names: dict = {}
        self.equivalent_sample_size: float | None = None
        if state_names is not None:
            self.set_state_names(state_names)
        for node, (parents, group_ids) in class_entries(classes).items():
            self.set_classes(node, parents, group_ids)

    # -- states and classes --------------------------------------------------------------
    def set_state_names(self, state_names: Mapping) -> None:
        """Record the states of some variables (used to read labels before fitting).

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "b")])
        >>> m.set_state_names({"a": ["lo", "hi"]})
        >>> m.label_states("a")
        ['lo', 'hi']
        """
        if not isinstance(state_names, Mapping):
            raise TypeError(f"state_names must be a dict {{variable: [states]}}, got {type(state_names).__name__}")
        for var, states in state_names.items():
            if isinstance(states, Sequence | np.ndarray) and not isinstance(states, str | bytes) and (
                    len(states) < 1 or len(set(map(repr, states))) != len(states)):
                raise ValueError(f"state_names of {var!r} must be distinct and non-empty, got {list(states)}")
            self._state_names[check_node(var, "state_names")] = state_list(states, var)

    def label_states(self, variable) -> list:
        """States of ``variable`` as known to the labels (from the CPDs if fitted).

        Examples
        --------
        >>> LabeledBayesianNetwork([("a", "b")], state_names={"a": [0, 1]}).label_states("a")
        [0, 1]
        """
        if variable in self._state_names:
            return list(self._state_names[variable])
        cpd = self.get_cpds(variable) if variable in self.nodes() and self.cpds else None
        if cpd is not None:
            return list(cpd.state_names[variable])
        raise ValueError(f"The states of {variable!r} are unknown; pass state_names or fit the model first")

    def _cards(self, parents) -> tuple[int, ...]:
        return tuple(len(self.label_states(p)) for p in parents)

    def set_classes(self, node, parents, group_ids) -> None:
        """Set the classes of ``node``'s parent configurations.

        Parameters
        ----------
        node : hashable
        parents : sequence
            All parents of ``node``, in the order that indexes ``group_ids``.
        group_ids : array_like of int
            Class of every parent configuration (C order over ``parents``, last fastest).

        Raises
        ------
        ValueError
            If ``parents`` are not the node's parents, the length is wrong, or the classes
            are not those of a maximal regular labelling.

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
        >>> m.set_classes("y", ("a", "b"), [0, 0, 0, 0])
        Traceback (most recent call last):
        ...
        ValueError: Classes of 'y' delete an edge: some parent has every line inside one class (not regular)
        """
        if node not in self:
            raise ValueError(f"Node {node!r} is not in the model")
        parents = tuple(check_nodes(parents, f"the parents of {node!r}"))
        if sorted(map(repr, parents)) != sorted(map(repr, self.get_parents(node))) or len(set(parents)) != len(parents):
            raise ValueError(f"Classes of {node!r} must name its parents {self.get_parents(node)}, got {list(parents)}")
        ids = checked_classes(node, self._cards(parents), group_ids)
        self._classes[node] = (parents, ids)

    def get_classes(self, node) -> tuple[tuple, np.ndarray]:
        """``(parents, group_ids)`` of ``node``; one class per configuration when unlabelled.

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "y")], state_names={"a": [0, 1, 2], "y": [0, 1]})
        >>> m.get_classes("y")[1].tolist()
        [0, 1, 2]
        """
        if node not in self.nodes():
            raise ValueError(f"Node {node!r} is not in the model")
        parents = self.get_parents(node)
        stored = self._classes.get(node)
        if stored is not None:
            if sorted(map(repr, stored[0])) == sorted(map(repr, parents)):
                return stored
            del self._classes[node]  # the parents changed since: the labels no longer apply
        q = int(np.prod(self._cards(parents), dtype=np.int64))
        ids = np.arange(q, dtype=np.int64)
        ids.setflags(write=False)
        return tuple(parents), ids

    def labelled_nodes(self) -> list:
        """Nodes whose stored classes still match their parents and merge some configurations.

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
        >>> m.set_classes("y", ("a", "b"), [0, 1, 0, 2])
        >>> m.labelled_nodes()
        ['y']
        """
        out = []
        for node in self.nodes():
            if node in self._classes:
                parents, ids = self.get_classes(node)  # drops classes whose parents changed
                if node in self._classes and len(parents) >= 2 and int(ids.max()) + 1 < ids.size:
                    out.append(node)
        return out

    def labels(self) -> dict:
        """Labels per edge: ``{(parent, node): [context dict, ...]}``, labelled edges only.

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
        >>> m.set_classes("y", ("a", "b"), [0, 1, 0, 2])
        >>> m.labels()
        {('a', 'y'): [{'b': 0}]}
        """
        out = {}
        for node in self.labelled_nodes():
            parents, ids = self.get_classes(node)
            parents = tuple(p for p in parents if len(self.label_states(p)) > 1)
            out.update(edge_contexts(node, parents, ids, {p: self.label_states(p) for p in parents}))
        return out

    def n_labels(self) -> int:
        """Number of labels (contexts) over all edges.

        Examples
        --------
        >>> LabeledBayesianNetwork([("a", "b")]).n_labels()
        0
        """
        return sum(len(c) for c in self.labels().values())

    def independencies(self) -> list[ContextSpecificIndependence]:
        """The labels as context-specific independence statements ``node ⟂ parent | context``.

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
        >>> m.set_classes("y", ("a", "b"), [0, 1, 0, 2])
        >>> m.independencies()[0].context
        (('b', 0),)
        """
        return [ContextSpecificIndependence(node, parent, tuple(ctx.items()))
                for (parent, node), contexts in self.labels().items() for ctx in contexts]

    # -- parameters ------------------------------------------------------------------------
    def fit(
        self,
        data,
        estimator=None,
        sample_weight=None,
        *,
        weights=None,
        state_names: Mapping | None = None,
        equivalent_sample_size: float | None = None,
        missing="error",
    ) -> LabeledBayesianNetwork:
        r"""Estimate one distribution per class of every node, as TreeCPDs (pgmpy's ``fit`` signature).

        The configurations of a class share one distribution, so every estimator works on
        pooled counts: the class :math:`c` of node :math:`j` (:math:`\lambda_c` parent
        configurations :math:`\pi \in c`, :math:`r_j` states) gets

        .. math::

            P(x_j = k \mid c) = \frac{n_{ck} + \sum_{\pi \in c} \alpha_{\pi k}}
            {n_c + \sum_{\pi \in c} \sum_{k'} \alpha_{\pi k'}},

        :math:`n_{ck}` the (weighted) count of :math:`x_j = k` over the configurations of
        :math:`c` and :math:`\alpha_{\pi k}` the pseudo-count pgmpy's estimator gives the cell
        :math:`(\pi, k)` of an untied table, summed over the tied configurations:

        * ``DiscreteMLE()``: :math:`\alpha = 0` (maximum likelihood under the ties); a class
          without data gets the uniform distribution, as pgmpy gives an unobserved configuration;
        * ``DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=ESS)``:
          :math:`\alpha = ESS / (q_j r_j)`, so class :math:`c` gets :math:`\lambda_c ESS / (q_j r_j)`
          per state: the posterior mean under the prior of
          :class:`~pgmpy_sgm.structure_score.LDAGScore`;
        * ``prior_type="K2"``: :math:`\alpha = 1`, so :math:`\lambda_c` per state;
        * ``prior_type="dirichlet"``: the estimator's ``pseudo_counts`` (one number, or per
          node an array ``(r_j, q_j)`` whose columns follow pgmpy's sorted parent order).

        Without labels every class is one configuration and the CPDs equal pgmpy's.

        Parameters
        ----------
        data : pandas.DataFrame
            Discrete data with a column per node (or a table of counts, see ``weights``).
        estimator : pgmpy estimator or str, optional
            A ``DiscreteMLE`` or ``DiscreteBayesianEstimator`` instance (or class, used with
            its defaults); its ``state_names`` are used, ``n_jobs`` is not needed. The strings
            ``"mle"``, and ``"bayes"`` or ``"bayesian"`` (BDeu with ``equivalent_sample_size``,
            default the model's recorded ESS, else 5) are kept as aliases. Default: maximum
            likelihood, as pgmpy's ``fit``, unless ``equivalent_sample_size`` is given (then BDeu,
            as in earlier versions) or the model records the ESS its structure was learned with
            (the attribute ``equivalent_sample_size``, set by the learners: then BDeu with it).
            ``DiscreteEM`` is refused: it cannot keep the ties.
        sample_weight : array-like of shape (n_samples,), optional
            Per-row weights, as in pgmpy.
        weights : str or array-like, optional
            Count column name or one count per row (an alternative to ``sample_weight``).
        state_names : dict, optional
            States of some variables. Otherwise those of the estimator, then those recorded on
            the model (or its CPDs), else the observed ones. Labels are read in the recorded
            states, so states that change the number of a labelled node's parent
            configurations are refused.
        equivalent_sample_size : float, optional
            Shorthand for ``DiscreteBayesianEstimator(prior_type="BDeu",
            equivalent_sample_size=...)``; only without an estimator or with ``"bayes"``.
        missing : {"error", "complete_cases", "em", "state"} or EMOptions, default="error"
            Missing cells (NaN, None, ``pd.NA``, empty strings): refused with an error naming
            every column with gaps; incomplete rows dropped (with a warning); EM (``"em"`` or an
            :class:`~pgmpy_sgm.core.missing.EMOptions`): starting from the fit on the complete
            cases (from the Chow-Liu tree of the pairwise available cases when there are
            fewer than 30), each E-step
            spreads every incomplete row over its completions by the current network's
            posterior and each M-step fits ``estimator`` to the expected counts (the classes
            stay tied), until the observed-data log-likelihood rises by less than
            ``max(tol, rtol * |log-likelihood|)``;
            ``em_history_`` records it (the first E-steps capped, the last ones exact, see
            :func:`~pgmpy_sgm.core.missing.parameter_em`); with maximum likelihood an exact
            iteration never lowers it. ``"state"``:
            missing becomes a state named ``"missing"``: a column with gaps is read as strings
            (its declared states too) plus that state; a label over such a parent keeps its
            meaning (the node ignores that parent in the label's context, whatever its state,
            the new one included), and the other new parent configurations are classes of
            their own.

        Returns
        -------
        LabeledBayesianNetwork
            ``self``, every node with a :class:`~pgmpy_sgm.factors.TreeCPD`.

        Raises
        ------
        TypeError, ValueError
            For an estimator other than those above, bad pseudo-counts or weights.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy.parameter_estimator import DiscreteBayesianEstimator
        >>> df = pd.DataFrame({"a": [0, 0, 1, 1, 1], "b": [0, 1, 0, 1, 1], "y": [0, 1, 0, 0, 1]})
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
        ...                            state_names={"a": [0, 1], "b": [0, 1], "y": [0, 1]})
        >>> m.fit(df).get_cpds("y").get_values()[0].tolist()  # class {(0,0), (1,0)}: 2 of 2 rows have y = 0
        [1.0, 0.0, 1.0, 0.5]
        >>> bdeu = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=8)
        >>> m.fit(df, estimator=bdeu).get_cpds("y").get_values()[0].tolist()  # (2 + 2 * 1) / (2 + 2 * 2)
        [0.6666666666666666, 0.3333333333333333, 0.6666666666666666, 0.5]
        """
        bayes_alias = isinstance(estimator, str) and estimator.lower() in ("bayes", "bayesian")
        if equivalent_sample_size is None and (estimator is None or bayes_alias):
            equivalent_sample_size = self.equivalent_sample_size  # the learner's, when it recorded one
        spec = fit_spec(estimator, equivalent_sample_size)
        weights = merge_weights(weights, sample_weight)
        names = fit_state_names(self, spec, state_names)
        cols = checked_fit_columns(data, list(self.nodes()), weights)
        choice = check_missing_option(missing)
        nodes = list(self.nodes())
        if choice == "em" and not missing_cells(data, nodes).empty:
            return self._fit_em(data[cols], weights, spec, names, em_options(missing))
        gaps = list(missing_cells(data, nodes).index) if choice == "state" else []
        frame, weights = resolve_missing(data[cols], weights, choice, nodes, stacklevel=3)
        if gaps:
            return self._fit_missing_state(frame, weights, spec, names, gaps)
        return self._fit_complete(frame, weights, spec, names)

    def _fit_missing_state(self, data, weights, spec: EstimatorSpec, names: Mapping, gaps: list):
        """``missing="state"``: the columns with gaps read as strings plus ``"missing"``, the labels kept.

        A label over a parent with gaps keeps its meaning (see
        :func:`~pgmpy_sgm.models._ldag_labels.classes_with_added_states`). If the fit fails,
        the recorded states and classes are restored.
        """
        saved_states, saved_classes = dict(self._state_names), dict(self._classes)
        restated = states_with_missing(names, gaps)
        try:
            labelled = [(node, *self.get_classes(node)) for node in self.labelled_nodes()]
            grown = [(node, parents, ids) for node, parents, ids in labelled if set(parents) & set(gaps)]
            old_cards = {node: self._cards(parents) for node, parents, _ in grown}
            self._state_names.update({v: list(restated[v]) for v in gaps if v in restated})
            for node, parents, ids in grown:
                self.set_classes(node, parents, classes_with_added_states(old_cards[node], self._cards(parents), ids))
            return self._fit_complete(data, weights, spec, restated)
        except Exception:
            self._state_names, self._classes = saved_states, saved_classes
            raise

    def _fit_complete(self, data, weights, spec: EstimatorSpec, names: Mapping) -> LabeledBayesianNetwork:
        """TreeCPDs from complete data (see :meth:`fit`)."""
        return self._fit_encoded(EncodedData(data, weights=weights, state_names=dict(names)), spec)

    def _fit_encoded(self, enc: EncodedData, spec: EstimatorSpec) -> LabeledBayesianNetwork:
        """TreeCPDs from data already encoded (a learner's score holds them: no second copy of wide data)."""
        for v in self.nodes():
            self._state_names[v] = list(enc.state_names[v])
        cpds = [fitted_cpd(self, node, enc, spec) for node in self.nodes()]
        if self.cpds:
            self.remove_cpds(*self.cpds)
        self.add_cpds(*cpds)
        self.check_model()
        return self

    def _fit_em(self, data, weights, spec: EstimatorSpec, names: Mapping, options) -> LabeledBayesianNetwork:
        """EM for the TreeCPDs (see ``missing`` of :meth:`fit`); ``em_history_`` records each iteration."""
        table = IncompleteTable.from_frame(data, weights, names)

        def fit(completed):
            self._fit_complete(completed.frame, completed.counts, spec, table.state_names)
            return self.log_probability_function(table.variables, table.state_names)

        self.em_history_ = parameter_em(table, fit, options)
        return self

    def log_probability_function(self, variables: list, state_names: Mapping):
        """``f(codes)``: the log probability of complete rows given as state indices.

        Column ``j`` of ``codes`` holds positions in ``state_names[variables[j]]`` (any order of
        the network's states); used for the E-step of EM and for scoring many rows at once.

        Examples
        --------
        >>> import pandas as pd
        >>> net = LabeledBayesianNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]}))
        >>> f = net.log_probability_function(["b", "a"], {"a": [0, 1], "b": [1, 0]})
        >>> np.exp(f(np.array([[0, 1], [1, 0]]))).tolist()  # P(a=1, b=1), P(a=0, b=0)
        [0.5, 0.25]
        """
        return network_log_probability(self, variables, state_names)

    def fit_update(self, data, n_prev_samples: int | None = None, n_jobs: int = 1) -> None:
        r"""Update the fitted CPDs with more data, keeping the ties (pgmpy's ``fit_update``).

        As pgmpy does, the current CPDs times ``n_prev_samples`` serve as Dirichlet
        pseudo-counts: every parent configuration gets ``n_prev_samples`` pseudo-rows spread
        as its current distribution. Then, as in :meth:`fit`, each class pools the new counts
        and the pseudo-counts of its configurations, so class :math:`c` of :math:`\lambda_c`
        configurations weighs its current distribution by ``lambda_c * n_prev_samples``.

        Parameters
        ----------
        data : pandas.DataFrame
            New rows with a column per node.
        n_prev_samples : int, optional
            Rows the current CPDs were estimated from; default ``len(data)``, as in pgmpy.
        n_jobs : int, default=1
            Accepted for pgmpy's signature; the update runs in one process.

        Raises
        ------
        ValueError
            If the model has no CPDs yet (call :meth:`fit` first).

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 0, 1], "y": [0, 1, 0, 1]})
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
        ...                            state_names={"a": [0, 1], "b": [0, 1], "y": [0, 1]}).fit(df)
        >>> m.fit_update(pd.DataFrame({"a": [1, 1], "b": [0, 0], "y": [1, 1]}), n_prev_samples=2)
        >>> m.get_cpds("y").get_values()[0].tolist()  # class {(0,0), (1,0)}: (2 configurations * 2 * 1 + 0) / (4 + 2)
        [0.6666666666666666, 0.0, 0.6666666666666666, 0.0]
        """
        if not self.cpds:
            raise ValueError("The model has no CPDs to update; call fit(data) first")
        if n_prev_samples is None:
            n_prev_samples = len(data)
        estimator = update_estimator(self, non_negative_number(n_prev_samples, "n_prev_samples"))
        self.fit(data, estimator=estimator)

    # -- files ---------------------------------------------------------------------------------
    def save(self, filename: str, filetype: str = "bif", overwrite: bool = False) -> None:
        """Write the network to a file (pgmpy's ``save``, plus a lossless ``"json"``).

        ``"json"`` (or a ``.json`` file name) writes :func:`~pgmpy_sgm.readwrite.write_ldag_json`:
        edges, states, labels (classes) and TreeCPDs, read back by :meth:`load` as they were.
        The other formats are pgmpy's (``bif``, ``uai``, ``xmlbif``, ``xdsl``, ``net``; the
        file name's extension wins, as in pgmpy): they hold full tables, so the labels are
        not saved, only their effect on the probabilities (and UAI keeps no variable names:
        pgmpy reads them back as ``var_0``, ``var_1``, ...). Writes are atomic and an existing
        file is kept unless ``overwrite=True``.

        Raises
        ------
        FileExistsError
            If ``filename`` exists and ``overwrite`` is False.
        ValueError
            For an unknown ``filetype``.

        Examples
        --------
        >>> import os, tempfile
        >>> from pgmpy_sgm.models import LabeledBayesianNetwork
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
        ...                            state_names={"a": [0, 1], "b": [0, 1], "y": [0, 1]})
        >>> path = os.path.join(tempfile.mkdtemp(), "ldag.json")
        >>> m.save(path)
        >>> LabeledBayesianNetwork.load(path).labels()
        {('a', 'y'): [{'b': 0}]}
        """
        save_network(self, filename, filetype, overwrite)

    @staticmethod
    def load(filename: str, filetype: str = "bif", **kwargs) -> LabeledBayesianNetwork:
        """Read a network written by :meth:`save` (pgmpy's ``load``, plus ``"json"``).

        A ``"json"`` file gives back the labels and TreeCPDs. The formats of pgmpy hold no
        labels: the network read has the file's edges and TabularCPDs and no labels
        (``labels() == {}``), whatever tied columns its tables show. ``kwargs`` go to pgmpy's
        reader (e.g. ``state_name_type=int`` for BIF).

        Examples
        --------
        >>> import os, tempfile
        >>> import pandas as pd
        >>> from pgmpy_sgm.models import LabeledBayesianNetwork
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], classes={"y": (("a", "b"), [0, 1, 0, 2])},
        ...                            state_names={"a": [0, 1], "b": [0, 1], "y": [0, 1]})
        >>> _ = m.fit(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 0, 1], "y": [0, 1, 0, 1]}))
        >>> path = os.path.join(tempfile.mkdtemp(), "ldag.bif")
        >>> m.save(path)
        >>> back = LabeledBayesianNetwork.load(path, state_name_type=int)
        >>> type(back).__name__, back.labels(), sorted(back.edges())
        ('LabeledBayesianNetwork', {}, [('a', 'y'), ('b', 'y')])
        """
        if file_type(filename, filetype) == "json":
            return read_json_network(filename)
        network = DiscreteBayesianNetwork.load(filename, filetype=file_type(filename, filetype), **kwargs)
        return labelled_network(network)

    def log_likelihood(self, data, per_row: bool = False):
        """Natural-log likelihood of rows of data under the fitted network (e.g. held-out data).

        A row with missing cells (NaN, None, ``pd.NA``, empty strings) gets the log probability
        of its observed part: its completions' probabilities summed (exactly, up to 131,072
        completions per row).

        Parameters
        ----------
        data : pandas.DataFrame
            A column per node (other columns are ignored); values must be the network's states.
        per_row : bool, default=False
            Return one value per row instead of the total.

        Returns
        -------
        float or numpy.ndarray of shape (n_rows,)

        Examples
        --------
        >>> import pandas as pd
        >>> net = LabeledBayesianNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]}))
        >>> np.exp(net.log_likelihood(pd.DataFrame({"a": [1, None], "b": [1, 0]}), per_row=True)).tolist()
        [0.5, 0.25]
        """
        return network_log_likelihood(self, data, per_row)

    def n_free_parameters(self) -> int:
        """Free parameters: ``(r_j - 1)`` per class of every node.

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "b")], state_names={"a": [0, 1], "b": [0, 1, 2]})
        >>> m.n_free_parameters()
        5
        """
        return sum((int(self.get_classes(v)[1].max()) + 1) * (len(self.label_states(v)) - 1) for v in self.nodes())

    def copy(self) -> LabeledBayesianNetwork:
        """A copy with the same edges, states, classes and CPDs.

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
        >>> m.set_classes("y", ("a", "b"), [0, 1, 0, 2])
        >>> m.copy().labels() == m.labels()
        True
        """
        out = LabeledBayesianNetwork(state_names=self._state_names, latents=set(self.latents))
        out.add_nodes_from(self.nodes())
        out.add_edges_from(self.edges())
        out._classes = dict(self._classes)
        out.equivalent_sample_size = self.equivalent_sample_size
        if self.cpds:
            out.add_cpds(*[cpd.copy() for cpd in self.cpds])
        return out
