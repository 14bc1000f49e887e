"""Labelled DAGs as pgmpy Bayesian networks: labels tie CPD columns into classes (TreeCPDs)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

import networkx as nx
import numpy as np
import pandas as pd
from pgmpy.models import DiscreteBayesianNetwork

from pgmpy_sgm.core.arguments import check_mapping, check_node, check_nodes, edge_pairs, state_list
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.lines import canonical_groups, groups_from_labels, is_regular, labels_from_groups
from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models._statements import ContextSpecificIndependence

__all__ = ["LabeledBayesianNetwork"]


def _a_cycle(edges: list[tuple]) -> list | None:
    """The nodes of a directed cycle of ``edges``, or None."""
    try:
        return [u for u, _ in nx.find_cycle(nx.DiGraph(edges))]
    except nx.NetworkXNoCycle:
        return None


class LabeledBayesianNetwork(DiscreteBayesianNetwork):
    """A discrete Bayesian network whose edges carry labels (a labelled DAG, LDAG).

    A label on the edge ``u -> v`` is a configuration of ``v``'s other parents in which
    ``v`` does not depend on ``u`` [1]_. The labels of ``v`` merge parent configurations
    into *classes* that share one distribution of ``v``; they are stored per node as the
    class of every parent configuration (``classes``), from which the labels are read.
    Only maximal regular labellings are stored: every line inside one class is a label
    and no edge has all its lines labelled. :meth:`fit` gives every node a
    :class:`~pgmpy_sgm.factors.TreeCPD` whose tied leaves are the classes, so inference,
    ``simulate`` and the BIF/XMLBIF writers of pgmpy take the model as it is.

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
            ebunch = edge_pairs(ebunch, "ebunch")
            cycle = _a_cycle(ebunch)
            if cycle:
                raise ValueError(f"The edges have the cycle {cycle}; a Bayesian network is acyclic")
        super().__init__(ebunch=ebunch, latents=latents)
        self._classes: dict = {}
        self._state_names: dict = {}
        if state_names is not None:
            self.set_state_names(state_names)
        for node, entry in check_mapping(classes or {}, "classes", "{node: (parents, group_ids)}").items():
            if not isinstance(entry, tuple | list) or len(entry) != 2:
                raise TypeError(f"classes[{node!r}] must be a pair (parents, group_ids). Got: {entry!r}")
            self.set_classes(node, *entry)

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
        cards = self._cards(parents)
        q = int(np.prod(cards, dtype=np.int64))
        ids = np.asarray(group_ids)
        if ids.shape != (q,) or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"Classes of {node!r}: need {q} integer class ids, got {ids.tolist()}")
        ids = canonical_groups(ids)
        # single-state parents do not change the configuration index and can carry no label
        cards = tuple(k for k in cards if k > 1)
        if len(cards) and not is_regular(cards, ids):
            raise ValueError(
                f"Classes of {node!r} delete an edge: some parent has every line inside one class (not regular)"
            )
        if ids.max(initial=0) + 1 < q:
            labels = labels_from_groups(cards, ids)
            if not np.array_equal(groups_from_labels(cards, {d: list(r) for d, r in labels.items()}), ids):
                raise ValueError(
                    f"Classes of {node!r} are not made by labels: a class is not joined by lines inside it"
                )
        ids.setflags(write=False)
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
            cards = self._cards(parents)
            for d, rows in labels_from_groups(cards, ids).items():
                if not len(rows):
                    continue
                others = [p for i, p in enumerate(parents) if i != d]
                other_cards = [k for i, k in enumerate(cards) if i != d]
                contexts = []
                for row in rows:
                    idx = np.unravel_index(int(row), other_cards)
                    contexts.append({p: self.label_states(p)[int(s)] for p, s in zip(others, idx, strict=True)})
                out[(parents[d], node)] = contexts
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
        out = []
        for (parent, node), contexts in self.labels().items():
            for ctx in contexts:
                out.append(ContextSpecificIndependence(node, parent, tuple(ctx.items())))
        return out

    # -- parameters ------------------------------------------------------------------------
    def fit(self, data, equivalent_sample_size: float = 5.0, weights=None, state_names=None):
        """Bayesian estimates (BDeu prior) of one distribution per class, as TreeCPDs.

        The class ``c`` of node ``j`` gets the posterior mean
        ``(n_ck + |c| a) / (n_c + r_j |c| a)`` with ``a = ESS / (q_j r_j)``: the BDeu
        hyperparameters of its configurations summed, as in the score.

        Parameters
        ----------
        data : pandas.DataFrame
            Discrete data with a column per node (or a table of counts, see ``weights``).
        equivalent_sample_size : float, default=5.0
        weights : str or array-like, optional
            Count column name or one count per row.
        state_names : dict, optional
            States of some variables; otherwise those recorded on the model, else observed.

        Returns
        -------
        LabeledBayesianNetwork
            ``self``.

        Examples
        --------
        >>> import pandas as pd
        >>> m = LabeledBayesianNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 1, 1], "b": [0, 0, 1]}))
        >>> m.get_cpds("b").get_values().round(3).tolist()
        [[0.643, 0.5], [0.357, 0.5]]
        """
        if not (isinstance(equivalent_sample_size, int | float) and equivalent_sample_size > 0):
            raise ValueError(f"equivalent_sample_size must be a positive number, got {equivalent_sample_size!r}")
        names = dict(self._state_names)
        names.update(state_names or {})
        names = {k: v for k, v in names.items() if k in self.nodes()}
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
        missing = [v for v in self.nodes() if v not in data.columns]
        if missing:
            raise ValueError(f"The data have no column for node(s) {missing}")
        if isinstance(weights, str) and weights not in data.columns:
            raise ValueError(f"weights column {weights!r} is not a column of the data: {list(data.columns)}")
        cols = [v for v in self.nodes()] + ([weights] if isinstance(weights, str) else [])
        enc = EncodedData(data[cols], weights=weights, state_names=names)
        for v in self.nodes():
            self._state_names[v] = list(enc.state_names[v])
        cpds = []
        for node in self.nodes():
            parents, ids = self.get_classes(node)
            r = enc.cardinality[node]
            counts = np.asarray(enc.counts(tuple(parents) + (node,))).reshape(-1, r)
            q = counts.shape[0]
            a = float(equivalent_sample_size) / (q * r)
            n_groups = int(ids.max()) + 1
            pooled = np.zeros((n_groups, r))
            np.add.at(pooled, ids, counts)
            lam = np.bincount(ids, minlength=n_groups).astype(float)
            post = pooled + a * lam[:, None]
            values = (post / post.sum(axis=1, keepdims=True)).T
            state = {v: list(enc.state_names[v]) for v in (node, *parents)}
            cpds.append(
                TreeCPD(node, r, list(parents), [enc.cardinality[p] for p in parents], ids, values, state_names=state)
            )
        if self.cpds:
            self.remove_cpds(*self.cpds)
        self.add_cpds(*cpds)
        self.check_model()
        return self

    def n_free_parameters(self) -> int:
        """Free parameters: ``(r_j - 1)`` per class of every node.

        Examples
        --------
        >>> m = LabeledBayesianNetwork([("a", "b")], state_names={"a": [0, 1], "b": [0, 1, 2]})
        >>> m.n_free_parameters()
        5
        """
        total = 0
        for node in self.nodes():
            _, ids = self.get_classes(node)
            total += (int(ids.max()) + 1) * (len(self.label_states(node)) - 1)
        return total

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
        if self.cpds:
            out.add_cpds(*[cpd.copy() for cpd in self.cpds])
        return out
