"""Contextual Markov networks: undirected graphs whose edges carry contexts of independence.

============ ====================================================================
term         meaning
============ ====================================================================
context      an outcome of the common neighbours ``L_uv`` of an edge ``{u, v}``,
             written ``{w: state, ...}`` with one entry per common neighbour
             (``{}`` is not a context: an edge without common neighbours carries none)
contexts     the outcomes of ``L_uv`` in which ``X_u ⟂ X_v`` (``contexts[(u, v)]``)
maximal      every context implied by the others is listed (see :meth:`closure`)
regular      no edge's contexts cover the whole outcome space of its common neighbours
============ ====================================================================

Pensar, Nyman & Corander (2017) define a contextual Markov network by an undirected graph and,
for each edge ``{u, v}``, a set of outcomes of the edge's context variables in which ``X_u`` and
``X_v`` are independent given the rest. In a positive distribution Markov to the graph the
interaction of ``X_u`` and ``X_v`` given all other variables only involves the cliques holding
the edge, so it depends on the rest only through the common neighbours ``L_uv = mb(u) ∩ mb(v)``;
a context is therefore an outcome of exactly those variables, as for the strata of a
:class:`~pgmpy_sgm.models.StratifiedGraph` (which is the decomposable special case).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx
import numpy as np
from pgmpy.models import DiscreteMarkovNetwork

from pgmpy_sgm.core.arguments import check_nodes, edge_pairs
from pgmpy_sgm.models._cmn_methods import ParameterMethods
from pgmpy_sgm.models._cmn_structure import common_neighbours, implied_contexts, log_linear_dimension
from pgmpy_sgm.models._edge_labels import all_contexts, check_edge_ends, edge_label_items, merged_state_names
from pgmpy_sgm.models._statements import ContextSpecificIndependence

__all__ = ["ContextualMarkovNetwork"]

_BINARY = (0, 1)


class ContextualMarkovNetwork(ParameterMethods, DiscreteMarkovNetwork):
    """A Markov network whose edges may carry contexts of context-specific independence.

    Representation: the graph is a pgmpy ``DiscreteMarkovNetwork``; the contexts of edge
    ``{u, v}`` are stored on the edge (``self.edges[u, v]["contexts"]``, a frozenset of
    frozensets of ``(variable, state)`` pairs) and read as ``{(u, v): [{w: state, ...}, ...]}``
    through :attr:`contexts`. Each context gives a state to every common neighbour of ``u`` and
    ``v`` (nodes adjacent to both) and to nothing else, and states ``X_u ⟂ X_v | X_L = x`` (with
    ``L`` the common neighbours, hence given any outcome of all other variables that agrees with
    it). States are those of ``state_names``; variables not listed are binary ``(0, 1)``.

    Parameters
    ----------
    ebunch : iterable of (u, v), or networkx.Graph, optional
        The edges. A :class:`ContextualMarkovNetwork` or a
        :class:`~pgmpy_sgm.models.StratifiedGraph` also gives its contexts (strata) and states.
    contexts : dict, optional
        ``{(u, v): [context, ...]}``, each context a dict ``{w: state}`` over the common
        neighbours of ``u`` and ``v``; either edge orientation is accepted.
    nodes : iterable, optional
        Nodes to add (isolated variables, or to fix the node order).
    state_names : dict, optional
        ``{variable: [state, ...]}``; variables not listed are binary with states ``0, 1``.

    Examples
    --------
    A 4-cycle with a chord (not decomposable as a stratified graph would need: the context sits
    on the chord, which lies in two cliques):

    >>> cmn = ContextualMarkovNetwork(
    ...     [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")],
    ...     contexts={("c", "a"): [{"b": 0, "d": 1}]})
    >>> cmn.contexts
    {('a', 'c'): [{'b': 0, 'd': 1}]}
    >>> [str(s) for s in cmn.independencies()]
    ['a ⟂ c | b=0, d=1']
    >>> cmn.n_free_parameters(), cmn.n_free_parameters(contexts=False)
    (10, 11)

    References
    ----------
    .. [1] Pensar, J., Nyman, H. & Corander, J. (2017). Structure learning of contextual Markov
       networks using marginal pseudo-likelihood. Scandinavian Journal of Statistics 44, 455-479.
    .. [2] Nyman, H., Pensar, J., Koski, T. & Corander, J. (2016). Context-specific independence
       in graphical log-linear models. Computational Statistics 31, 1493-1512.
    """

    def __init__(self, ebunch=None, contexts=None, nodes=None, state_names=None):
        super().__init__()
        self.graph["state_names"] = {}
        if isinstance(ebunch, nx.Graph):
            self.add_nodes_from(ebunch.nodes())
            if isinstance(ebunch, ContextualMarkovNetwork):
                self.graph["state_names"] = dict(ebunch.graph["state_names"])
                contexts = {**ebunch.contexts, **(contexts or {})}
            elif isinstance(getattr(ebunch, "strata", None), dict):  # a StratifiedGraph: its strata are contexts
                self.graph["state_names"] = dict(ebunch.graph.get("state_names", {}))
                contexts = {**ebunch.strata, **(contexts or {})}
            ebunch = list(ebunch.edges())
        elif ebunch is not None:
            ebunch = edge_pairs(ebunch, "ebunch")
        if nodes is not None:
            self.add_nodes_from(check_nodes(nodes))
        for u, v in ebunch or ():
            self.add_edge(u, v)
        if state_names:
            self.set_state_names(state_names)
        for u, v, context in edge_label_items(contexts, "contexts"):
            self.add_context(u, v, context)

    # -- construction ----------------------------------------------------------
    def add_edge(self, u, v, **kwargs) -> None:
        """Add the edge ``{u, v}`` (self-loops are rejected).

        Examples
        --------
        >>> cmn = ContextualMarkovNetwork()
        >>> cmn.add_edge("a", "b")
        >>> list(cmn.edges())
        [('a', 'b')]
        """
        check_edge_ends(u, v)
        nx.Graph.add_edge(self, u, v, **kwargs)

    def set_state_names(self, state_names: Mapping) -> None:
        """Set the states of some variables (others keep theirs, binary by default).

        Examples
        --------
        >>> cmn = ContextualMarkovNetwork([("a", "b")])
        >>> cmn.set_state_names({"a": ["lo", "mid", "hi"]})
        >>> cmn.state_names
        {'a': ('lo', 'mid', 'hi'), 'b': (0, 1)}
        """
        self.graph["state_names"] = merged_state_names(self.graph.get("state_names", {}), state_names)

    @property
    def state_names(self) -> dict:
        """States of every node (binary ``(0, 1)`` where none were given), as tuples.

        Examples
        --------
        >>> ContextualMarkovNetwork([("a", "b")], state_names={"b": ["x", "y", "z"]}).state_names
        {'a': (0, 1), 'b': ('x', 'y', 'z')}
        """
        return {v: self.node_states(v) for v in self.nodes()}

    @property
    def states(self) -> dict:
        """States of every node as lists (pgmpy's ``DiscreteMarkovNetwork.states`` layout).

        Examples
        --------
        >>> ContextualMarkovNetwork([("a", "b")]).states
        {'a': [0, 1], 'b': [0, 1]}
        """
        return {v: list(self.node_states(v)) for v in self.nodes()}

    def node_states(self, variable) -> tuple:
        """States of one variable.

        Examples
        --------
        >>> ContextualMarkovNetwork([("a", "b")]).node_states("a")
        (0, 1)
        """
        return tuple(self.graph.get("state_names", {}).get(variable, _BINARY))

    def cardinalities(self) -> dict:
        """``{node: number of states}``.

        Examples
        --------
        >>> ContextualMarkovNetwork([("a", "b")], state_names={"a": ["x", "y", "z"]}).cardinalities()
        {'a': 3, 'b': 2}
        """
        return {v: len(self.node_states(v)) for v in self.nodes()}

    def common_neighbours(self, u, v) -> list:
        """Nodes adjacent to both ``u`` and ``v`` (the variables of the edge's contexts), in node order.

        Examples
        --------
        >>> ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3), (3, 4)]).common_neighbours(2, 3)
        [1]
        """
        unknown = [w for w in (u, v) if w not in self]
        if unknown:
            raise ValueError(f"Node(s) {unknown} are not in the graph")
        return common_neighbours(self, u, v)

    def add_context(self, u, v, context: Mapping) -> None:
        """Add one context (an outcome of the common neighbours) in which ``X_u ⟂ X_v``.

        Raises
        ------
        ValueError, TypeError
            For an edge not in the graph, an edge without common neighbours, a context over
            other variables than the common neighbours, or a state a variable does not have.

        Examples
        --------
        >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)])
        >>> cmn.add_context(3, 2, {1: 0})
        >>> cmn.contexts
        {(2, 3): [{1: 0}]}
        >>> cmn.add_context(2, 3, {1: 5})
        Traceback (most recent call last):
            ...
        ValueError: Edge (2, 3) has a context with state 5 of 1, which has states (0, 1).
        """
        self._check_context(u, v, context)
        found = self.edges[u, v].get("contexts", frozenset())
        self.edges[u, v]["contexts"] = found | {frozenset(context.items())}

    def _check_context(self, u, v, context) -> None:
        if u not in self or v not in self or not self.has_edge(u, v):
            raise ValueError(f"Cannot add a context to ({u!r}, {v!r}): it is not an edge of the graph.")
        if not isinstance(context, Mapping):
            raise TypeError(f"A context of edge ({u!r}, {v!r}) must be a dict {{variable: state}}. Got: {context!r}")
        shared = common_neighbours(self, u, v)
        if not shared:
            raise ValueError(f"Edge ({u!r}, {v!r}) has no common neighbours, so it cannot carry a context "
                             "(independence in every context removes the edge).")
        if set(context) != set(shared):
            raise ValueError(f"Edge ({u!r}, {v!r}) has the context {dict(context)}; a context must give a state to "
                             f"exactly the common neighbours {shared}.")
        for w, state in context.items():
            if state not in self.node_states(w):
                raise ValueError(f"Edge ({u!r}, {v!r}) has a context with state {state!r} of {w!r}, which has "
                                 f"states {self.node_states(w)}.")

    def _check_contexts(self) -> None:
        """Every context is an outcome of its edge's current common neighbours."""
        for (u, v), found in self.contexts.items():
            for context in found:
                self._check_context(u, v, context)

    def remove_contexts(self, u=None, v=None) -> None:
        """Remove the contexts of one edge, or of every edge when no edge is given.

        Examples
        --------
        >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 0}]})
        >>> cmn.remove_contexts()
        >>> cmn.contexts
        {}
        """
        if u is not None and (u not in self or not self.has_edge(u, v)):
            raise ValueError(f"Cannot remove the contexts of ({u!r}, {v!r}): it is not an edge of the graph.")
        for a, b in [(u, v)] if u is not None else list(self.edges()):
            self.edges[a, b].pop("contexts", None)

    # -- reading ---------------------------------------------------------------
    @property
    def contexts(self) -> dict:
        """``{(u, v): [context, ...]}`` for every edge with contexts, oriented as in ``edges()``.

        Contexts list the common neighbours in node order and are sorted by state order.

        Examples
        --------
        >>> ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(3, 2): [{1: 1}, {1: 0}]}).contexts
        {(2, 3): [{1: 0}, {1: 1}]}
        """
        order = {n: i for i, n in enumerate(self.nodes())}
        out = {}
        for u, v, found in self.edges(data="contexts"):
            if found:
                listed = [sorted(c, key=lambda item: order.get(item[0], len(order))) for c in found]
                listed.sort(key=lambda c: [self._state_rank(w, s) for w, s in c])
                out[(u, v)] = [dict(c) for c in listed]
        return out

    def _state_rank(self, variable, state):
        states = self.node_states(variable)
        return (0, states.index(state)) if state in states else (1, repr(state))

    def n_contexts(self) -> int:
        """Total number of contexts over all edges.

        Examples
        --------
        >>> ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}, {1: 0}]}).n_contexts()
        2
        """
        return sum(len(found) for _, _, found in self.edges(data="contexts") if found)

    def independencies(self) -> list[ContextSpecificIndependence]:
        """The context-specific independencies stated by the contexts.

        Examples
        --------
        >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}]})
        >>> [str(s) for s in cmn.independencies()]
        ['2 ⟂ 3 | 1=1']
        """
        return [
            ContextSpecificIndependence(u, v, tuple(context.items()))
            for (u, v), found in self.contexts.items()
            for context in found
        ]

    # -- the mathematics: closure, regularity, dimension -------------------------
    def _indexed_contexts(self) -> dict:
        """``{frozenset({u, v}): {frozenset((w, state index), ...)}}``."""
        return {
            frozenset((u, v)): {frozenset((w, self.node_states(w).index(s)) for w, s in c) for c in found}
            for u, v, found in self.edges(data="contexts") if found
        }

    def _closed_indexed(self) -> dict:
        return implied_contexts(self, self.cardinalities(), self._indexed_contexts())

    def check_model(self) -> bool:
        """Check the contexts (and the factors, when there are any).

        Returns
        -------
        bool
            True when valid.

        Raises
        ------
        ValueError
            Naming the edge at fault: a context that is no longer an outcome of the edge's
            common neighbours (after edges were added or removed), a state a variable does not
            have, or contexts whose closure covers every outcome of an edge's common neighbours
            (that removes the edge: delete it instead; regularity). Factors over variables that
            are not a clique of the graph are refused by pgmpy's own check.

        Examples
        --------
        >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 0}, {1: 1}]})
        >>> cmn.check_model()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        ValueError: The contexts of edge (2, 3) (with their closure) cover every outcome of its common neighbours [1]...
        """
        self._check_contexts()
        cards = self.cardinalities()
        for edge, found in self._closed_indexed().items():
            u, v = sorted(edge, key=list(self.nodes()).index)
            shared = common_neighbours(self, u, v)
            if len(found) >= int(np.prod([cards[w] for w in shared])):
                raise ValueError(
                    f"The contexts of edge ({u!r}, {v!r}) (with their closure) cover every outcome of its common "
                    f"neighbours {shared}: that removes the edge; delete the edge instead (regularity).")
        if self.factors:
            super().check_model()
        return True

    def closure(self) -> ContextualMarkovNetwork:
        """The maximal network with the same dependence structure: every implied context added.

        A context of an edge is implied when its linear constraints on the log-linear
        parameters (see :meth:`n_free_parameters`) follow from those of the given contexts:
        the independence then holds in every positive distribution of the network. For a
        decomposable graph this is :meth:`StratifiedGraph.closure
        <pgmpy_sgm.models.StratifiedGraph.closure>`.

        Examples
        --------
        >>> edges = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
        >>> cmn = ContextualMarkovNetwork(edges, contexts={(2, 3): [{1: 0, 4: 0}],
        ...                                                (3, 4): [{1: 0, 2: 0}, {1: 0, 2: 1}]})
        >>> cmn.closure().contexts[(2, 3)]
        [{1: 0, 4: 0}, {1: 0, 4: 1}]
        """
        closed = self.copy()
        closed.remove_contexts()
        for edge, found in self._closed_indexed().items():
            u, v = tuple(edge)
            for context in found:
                closed.add_context(u, v, {w: self.node_states(w)[s] for w, s in context})
        return closed

    def is_maximal_regular(self) -> bool:
        """Whether the contexts are closed (maximal) and no edge is fully covered (regular).

        Examples
        --------
        >>> ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}]}).is_maximal_regular()
        True
        """
        try:
            self.check_model()
        except ValueError:
            return False
        return self.closure().contexts == self.contexts

    def n_free_parameters(self, contexts: bool = True) -> int:
        """Free parameters of the positive distributions Markov to the graph and (by default) the contexts.

        The dimension of the log-linear model: one parameter per non-reference cell of every
        non-empty complete set of the graph, less the rank of the linear constraints the
        contexts put on them (each context of ``{u, v}`` sets ``(k_u - 1)(k_v - 1)`` interaction
        contrasts to zero; implied contexts add nothing). For a decomposable graph this is
        :meth:`StratifiedGraph.n_free_parameters <pgmpy_sgm.models.StratifiedGraph.n_free_parameters>`.

        Examples
        --------
        >>> cmn = ContextualMarkovNetwork([(1, 2), (2, 3), (3, 4), (4, 1)])
        >>> cmn.n_free_parameters()
        8
        >>> ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}]}).n_free_parameters()
        6
        """
        return log_linear_dimension(self, self.cardinalities(), self._indexed_contexts() if contexts else {})

    @classmethod
    def complete_contexts(cls, variables: Iterable, state_names: Mapping) -> list[dict]:
        """All contexts over ``variables`` (helper to write contexts by complement).

        Examples
        --------
        >>> ContextualMarkovNetwork.complete_contexts(["a"], {"a": ["x", "y"]})
        [{'a': 'x'}, {'a': 'y'}]
        """
        return all_contexts(variables, state_names)

    # -- files -----------------------------------------------------------------
    def save(self, filename, overwrite: bool = False) -> None:
        """Write the network (graph, states, contexts, factors) to a JSON file, atomically.

        See :func:`~pgmpy_sgm.readwrite.write_cmn_json`; an existing file is kept unless
        ``overwrite=True``.

        Examples
        --------
        >>> import os, tempfile
        >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}]})
        >>> path = os.path.join(tempfile.mkdtemp(), "cmn.json")
        >>> cmn.save(path)
        >>> ContextualMarkovNetwork.load(path) == cmn
        True
        """
        from pgmpy_sgm.readwrite.cmn_json import write_cmn_json

        write_cmn_json(self, filename, overwrite=overwrite)

    @staticmethod
    def load(filename) -> ContextualMarkovNetwork:
        """Read a network written by :meth:`save`.

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "cmn.json")
        >>> ContextualMarkovNetwork([("a", "b")]).save(path)
        >>> list(ContextualMarkovNetwork.load(path).edges())
        [('a', 'b')]
        """
        from pgmpy_sgm.readwrite.cmn_json import read_cmn_json

        return read_cmn_json(filename)

    # -- identity --------------------------------------------------------------
    def _identity(self):
        edges = frozenset(frozenset(e) for e in self.edges())
        found = frozenset((frozenset((u, v)), c) for u, v, c in self.edges(data="contexts") if c)
        return frozenset(self.nodes()), edges, found, frozenset(self.state_names.items())

    def __eq__(self, other) -> bool:
        if not isinstance(other, ContextualMarkovNetwork):
            return NotImplemented
        return self._identity() == other._identity()

    __hash__ = None

    def __repr__(self) -> str:
        return (f"<ContextualMarkovNetwork with {self.number_of_nodes()} nodes, {self.number_of_edges()} edges, "
                f"{len(self.contexts)} edges with contexts ({self.n_contexts()} contexts)>")

    def copy(self) -> ContextualMarkovNetwork:
        """A copy with the same nodes, edges, contexts, state names and factors.

        Examples
        --------
        >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}]})
        >>> cmn.copy() == cmn
        True
        """
        new = type(self).__new__(type(self))
        ContextualMarkovNetwork.__init__(new)
        new.graph.update({k: (dict(v) if isinstance(v, dict) else v) for k, v in self.graph.items()})
        new.add_nodes_from(self.nodes(data=True))
        nx.Graph.add_edges_from(new, ((u, v, dict(d)) for u, v, d in self.edges(data=True)))
        new.factors = [f.copy() for f in self.factors]
        return new

    def to_graph(self) -> nx.Graph:
        """The underlying graph as a plain ``networkx.Graph``.

        Examples
        --------
        >>> ContextualMarkovNetwork([(1, 2)]).to_graph().number_of_edges()
        1
        """
        g = nx.Graph()
        g.add_nodes_from(self.nodes())
        g.add_edges_from(self.edges())
        return g
