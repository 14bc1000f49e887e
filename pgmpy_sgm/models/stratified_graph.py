"""Stratified graphs: undirected graphs whose edges carry strata.

============ ====================================================================
term         meaning
============ ====================================================================
context      an outcome of the common neighbours ``L_uv`` of an edge ``{u, v}``,
             written ``{w: state, ...}`` with one entry per common neighbour
stratum      the set of contexts in which ``X_u ⟂ X_v`` holds (``strata[(u, v)]``)
label        one context of a stratum, drawn on the edge
free edge    an edge in exactly one clique; only free edges may carry labels
center       the node that every labelled edge of a clique contains
decomposable chordal graph, no label on a separator edge, and in every clique the
             labelled edges share a node (Nyman et al., Definition 3)
maximal      every context implied by the strata is listed (see :meth:`closure`)
regular      no stratum is the whole outcome space of its common neighbours
============ ====================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations

import networkx as nx
from pgmpy.base import UndirectedGraph
from pgmpy.independencies import Independencies

from pgmpy_sgm.core.arguments import check_nodes, edge_pairs
from pgmpy_sgm.core.decomposition import decompose, edge_clique_counts, free_parameters
from pgmpy_sgm.core.labelling import CliqueLabelling, contexts_from_groups, groups_from_contexts
from pgmpy_sgm.models._edge_labels import all_contexts, check_edge_ends, edge_label_items, merged_state_names
from pgmpy_sgm.models._sg_checks import check_centers, check_group_ids, check_regular, check_strata
from pgmpy_sgm.models._statements import ContextSpecificIndependence

__all__ = ["StratifiedGraph", "ContextSpecificIndependence", "CliqueLabelling"]

_BINARY = (0, 1)


def _context_key(context: Mapping) -> frozenset:
    return frozenset(context.items())


class StratifiedGraph(UndirectedGraph):
    """An undirected graph whose edges may carry strata of context-specific independence.

    Parameters
    ----------
    edges : iterable of (u, v), or networkx.Graph, optional
        The edges of the underlying graph.
    strata : dict, optional
        ``{(u, v): [context, ...]}`` with each context a dict ``{w: state}`` over the
        common neighbours of ``u`` and ``v``; either edge orientation is accepted.
    nodes : iterable, optional
        Nodes to add (isolated variables, or to fix the node order).
    state_names : dict, optional
        ``{variable: [state, ...]}``. Variables not listed are binary with states
        ``0`` and ``1``, as in the paper.

    Examples
    --------
    The best stratified graph for the heart-disease data (Nyman et al., Section 5):

    >>> sg = StratifiedGraph(
    ...     [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
    ...      ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
    ...      ("systolic_bp", "lipoprotein_ratio")],
    ...     strata={("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
    ...             ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]},
    ...     nodes=["smoking", "mental_work", "physical_work", "systolic_bp", "lipoprotein_ratio",
    ...            "family_history"])
    >>> sg.check_model()
    True
    >>> for statement in sg.independencies():
    ...     print(statement)
    smoking ⟂ systolic_bp | lipoprotein_ratio=1
    systolic_bp ⟂ lipoprotein_ratio | smoking=0
    >>> sg.n_free_parameters(), sg.n_free_parameters(strata=False)
    (12, 14)
    """

    def __init__(self, edges=None, strata=None, nodes=None, state_names=None):
        super().__init__()
        self.graph["state_names"] = {}
        if edges is not None and not isinstance(edges, nx.Graph):
            edges = edge_pairs(edges)
        if isinstance(edges, nx.Graph):
            self.add_nodes_from(edges.nodes())
            if isinstance(edges, StratifiedGraph):
                self.graph["state_names"] = dict(edges.state_names)
                strata = {**edges.strata, **(strata or {})}
            edges = list(edges.edges())
        if nodes is not None:
            self.add_nodes_from(check_nodes(nodes))
        for edge in edges or ():
            if not isinstance(edge, tuple | list) or len(edge) != 2:
                raise ValueError(f"Each edge must be a pair (u, v). Got: {edge!r}")
            self.add_edge(*edge)
        if state_names:
            self.set_state_names(state_names)
        for u, v, context in edge_label_items(strata, "strata"):
            self.add_label(u, v, context)

    # -- construction ----------------------------------------------------------
    def add_edge(self, u, v, **attr) -> None:
        """Add the edge ``{u, v}`` (self-loops are rejected).

        Examples
        --------
        >>> sg = StratifiedGraph()
        >>> sg.add_edge("a", "b")
        >>> list(sg.edges())
        [('a', 'b')]
        """
        check_edge_ends(u, v)
        attr.pop("weight", None) if attr.get("weight") is None else None
        nx.Graph.add_edge(self, u, v, **attr)

    def add_edges_from(self, ebunch_to_add, **attr) -> None:
        """Add several edges, given as ``(u, v)`` or ``(u, v, data)``.

        Examples
        --------
        >>> sg = StratifiedGraph()
        >>> sg.add_edges_from([("a", "b"), ("b", "c")])
        >>> sg.number_of_edges()
        2
        """
        if isinstance(ebunch_to_add, nx.Graph):
            ebunch_to_add = ebunch_to_add.edges(data=True)
        if isinstance(ebunch_to_add, Iterable) and not isinstance(ebunch_to_add, str | bytes | Mapping):
            ebunch_to_add = list(ebunch_to_add)
        for (u, v), edge in zip(edge_pairs(ebunch_to_add), ebunch_to_add, strict=True):
            data = dict(edge[2]) if len(edge) == 3 else {}
            self.add_edge(u, v, **{**attr, **data})

    def set_state_names(self, state_names: Mapping) -> None:
        """Set the states of some variables (others stay as they are, binary by default).

        Examples
        --------
        >>> sg = StratifiedGraph([("a", "b")])
        >>> sg.set_state_names({"a": ["lo", "mid", "hi"]})
        >>> sg.states("a"), sg.states("b")
        (('lo', 'mid', 'hi'), (0, 1))
        """
        self.graph["state_names"] = merged_state_names(self.graph.get("state_names", {}), state_names)

    @property
    def state_names(self) -> dict:
        """States of every node (binary ``(0, 1)`` where none were given).

        Examples
        --------
        >>> StratifiedGraph([("a", "b")], state_names={"a": ["x", "y", "z"]}).state_names
        {'a': ('x', 'y', 'z'), 'b': (0, 1)}
        """
        return {v: self.states(v) for v in self.nodes()}

    def states(self, variable) -> tuple:
        """States of one variable.

        Examples
        --------
        >>> StratifiedGraph([("a", "b")]).states("a")
        (0, 1)
        """
        return tuple(self.graph.get("state_names", {}).get(variable, _BINARY))

    def add_label(self, u, v, context: Mapping) -> None:
        """Add one context to the stratum of edge ``{u, v}``.

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)])
        >>> sg.add_label(3, 2, {1: 0})
        >>> sg.strata
        {(2, 3): [{1: 0}]}
        """
        if not self.has_edge(u, v):
            raise ValueError(f"Cannot label ({u!r}, {v!r}): it is not an edge of the graph.")
        if not isinstance(context, Mapping):
            raise TypeError(f"A context of edge ({u!r}, {v!r}) must be a dict {{variable: state}}. Got: {context!r}")
        stratum = self.edges[u, v].get("stratum", frozenset())
        self.edges[u, v]["stratum"] = stratum | {_context_key(context)}

    def remove_labels(self, u=None, v=None) -> None:
        """Remove the stratum of one edge, or every stratum when no edge is given.

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 0}]})
        >>> sg.remove_labels()
        >>> sg.strata
        {}
        """
        if u is not None and not self.has_edge(u, v):
            raise ValueError(f"Cannot remove the labels of ({u!r}, {v!r}): it is not an edge of the graph.")
        edges = [(u, v)] if u is not None else list(self.edges())
        for a, b in edges:
            self.edges[a, b].pop("stratum", None)

    # -- reading ---------------------------------------------------------------
    @property
    def strata(self) -> dict:
        """``{(u, v): [context, ...]}`` for every labelled edge, oriented as in ``edges()``.

        Contexts list the common neighbours in node order and are sorted by state order.

        Examples
        --------
        >>> StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(3, 2): [{1: 1}, {1: 0}]}).strata
        {(2, 3): [{1: 0}, {1: 1}]}
        """
        order = {n: i for i, n in enumerate(self.nodes())}
        out = {}
        for u, v, stratum in self.edges(data="stratum"):
            if stratum:
                contexts = [sorted(c, key=lambda item: order.get(item[0], len(order))) for c in stratum]
                contexts.sort(key=lambda c: [self._state_rank(w, s) for w, s in c])
                out[(u, v)] = [dict(c) for c in contexts]
        return out

    def _state_rank(self, variable, state):
        states = self.states(variable)
        return (0, states.index(state)) if state in states else (1, repr(state))

    def labelled_edges(self) -> list[tuple]:
        """Edges that carry at least one label.

        Examples
        --------
        >>> StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]}).labelled_edges()
        [(2, 3)]
        """
        return list(self.strata)

    def n_labels(self) -> int:
        """Total number of labels (contexts) over all edges.

        Examples
        --------
        >>> StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}, {1: 0}]}).n_labels()
        2
        """
        return sum(len(s) for _, _, s in self.edges(data="stratum") if s)

    @property
    def cliques(self) -> list[tuple]:
        """Maximal cliques in a running-intersection order (nodes in node order).

        Examples
        --------
        >>> StratifiedGraph([(1, 2), (2, 3), (1, 3), (3, 4)]).cliques
        [(1, 2, 3), (3, 4)]
        """
        return decompose(self)[0]

    @property
    def separators(self) -> list[tuple]:
        """Non-empty separators of a junction tree (a multiset, as a list).

        Examples
        --------
        >>> StratifiedGraph([(1, 2), (2, 3), (1, 3), (3, 4)]).separators
        [(3,)]
        """
        return decompose(self)[1]

    @property
    def free_edges(self) -> list[tuple]:
        """Edges contained in exactly one clique (the only ones that may be labelled).

        Examples
        --------
        >>> StratifiedGraph([(1, 2), (2, 3), (1, 3), (2, 4), (3, 4)]).free_edges
        [(1, 2), (1, 3), (2, 4), (3, 4)]
        """
        counts = edge_clique_counts(self.cliques)
        return [(u, v) for u, v in self.edges() if counts[frozenset((u, v))] == 1]

    def is_decomposable(self) -> bool:
        """Whether this is a decomposable stratified graph (see :meth:`check_model`).

        Examples
        --------
        >>> StratifiedGraph([(1, 2), (2, 3), (3, 4), (4, 1)]).is_decomposable()
        False
        """
        try:
            return self.check_model()
        except ValueError:
            return False

    def common_neighbours(self, u, v) -> list:
        """Nodes adjacent to both ``u`` and ``v``, in node order.

        Examples
        --------
        >>> StratifiedGraph([(1, 2), (1, 3), (2, 3)]).common_neighbours(2, 3)
        [1]
        """
        self._check_known([u, v])
        shared = set(self.adj[u]) & set(self.adj[v])
        return [w for w in self.nodes() if w in shared]

    # -- validation ------------------------------------------------------------
    def check_model(self) -> bool:
        """Check that this is a valid decomposable stratified graph.

        Returns
        -------
        bool
            True when valid.

        Raises
        ------
        ValueError
            Naming the offending edge, context or clique: a graph that is not chordal,
            a label on an edge lying in a separator, a context over the wrong
            variables or with unknown states, a stratum equal to the whole outcome
            space of the common neighbours, labelled edges of a clique without a
            common node, labels whose closure labels an edge in every context
            (which removes the edge).

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 2}]})
        >>> sg.check_model()
        Traceback (most recent call last):
            ...
        ValueError: Edge (2, 3) has a label with state 2 of 1, which has states (0, 1).
        """
        cliques, _ = decompose(self)
        check_strata(self, edge_clique_counts(cliques))
        check_centers(cliques, self.strata)
        check_regular(self._clique_labels(cliques), self.states)
        return True

    # -- clique view -----------------------------------------------------------
    def clique_labels(self) -> list[CliqueLabelling]:
        """Every clique with its center and groups of parent configurations.

        For a clique with one labelled edge the later node (in node order) is the
        center; the score does not depend on that choice.

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3), (3, 4)], strata={(2, 3): [{1: 1}]})
        >>> [(cl.center, cl.group_ids) for cl in sg.clique_labels()]
        [(3, (0, 1, 2, 2)), (None, None)]
        """
        self.check_model()
        return self._clique_labels(self.cliques)

    def _clique_labels(self, cliques) -> list[CliqueLabelling]:
        order = {n: i for i, n in enumerate(self.nodes())}
        strata = self.strata
        out = []
        for clique in cliques:
            edges = [e for e in strata if set(e) <= set(clique)]
            if not edges:
                out.append(CliqueLabelling(clique=clique))
                continue
            common = set.intersection(*(set(e) for e in edges))
            center = max(common, key=order.__getitem__)
            parents = tuple(w for w in clique if w != center)
            contexts = {(e[0] if e[1] == center else e[1]): strata[e] for e in edges}
            groups = groups_from_contexts(parents, contexts, self._states_of(clique))
            out.append(CliqueLabelling(center, groups, clique=clique))
        return out

    def _check_known(self, nodes) -> None:
        unknown = [w for w in nodes if w not in self]
        if unknown:
            raise ValueError(f"Node(s) {unknown} are not in the graph")

    def _states_of(self, variables) -> dict:
        return {w: self.states(w) for w in variables}

    def set_clique_groups(self, clique, center, group_ids) -> None:
        """Replace the labels of ``clique`` by those of a partition of the center's parents.

        Every line lying inside one group becomes a label (the closed labelling).

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)])
        >>> sg.set_clique_groups((1, 2, 3), 3, [0, 1, 1, 1])
        >>> sg.strata
        {(1, 3): [{2: 1}], (2, 3): [{1: 1}]}
        """
        clique = tuple(check_nodes(clique, "clique"))
        self._check_known([*clique, center])
        if center not in clique:
            raise ValueError(f"The center {center!r} is not in the clique {clique}")
        missing = [(u, v) for u, v in combinations(clique, 2) if not self.has_edge(u, v)]
        if missing:
            raise ValueError(f"{clique} is not a clique: the edge(s) {missing} are not in the graph")
        parents = tuple(w for w in clique if w != center)
        if group_ids is not None:
            check_group_ids(group_ids, parents, self.states)
        for u in parents:
            self.remove_labels(u, center)
        if group_ids is None:
            return
        for u, contexts in contexts_from_groups(parents, group_ids, self._states_of(parents)).items():
            for context in contexts:
                self.add_label(u, center, context)

    def closure(self) -> StratifiedGraph:
        """The maximal stratified graph with the same dependence structure.

        Adds every label implied by the others (lines already inside one group).

        Examples
        --------
        >>> edges = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
        >>> sg = StratifiedGraph(edges, strata={(2, 3): [{1: 0, 4: 0}], (3, 4): [{1: 0, 2: 0}, {1: 0, 2: 1}]})
        >>> sg.closure().strata[(2, 3)]
        [{1: 0, 4: 0}, {1: 0, 4: 1}]
        """
        closed = self.copy()
        for cl in self.clique_labels():
            if cl.center is not None:
                closed.set_clique_groups(cl.clique, cl.center, cl.group_ids)
        return closed

    def is_maximal_regular(self) -> bool:
        """Whether the strata are closed (maximal) and no edge is fully labelled (regular).

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
        >>> sg.is_maximal_regular()
        True
        """
        try:  # check_model refuses labels whose closure removes an edge (irregular)
            closed = self.closure()
            closed.check_model()
        except ValueError:
            return False
        return closed == self

    def independencies(self) -> list[ContextSpecificIndependence]:
        """The context-specific independencies stated by the labels.

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
        >>> [str(s) for s in sg.independencies()]
        ['2 ⟂ 3 | 1=1']
        """
        return [
            ContextSpecificIndependence(u, v, tuple(context.items()))
            for (u, v), contexts in self.strata.items()
            for context in contexts
        ]

    def get_independencies(self, reduce: bool = True):
        """The graph's global Markov statements as pgmpy ``Independencies`` (pgmpy's name).

        As ``DAG.get_independencies`` in pgmpy: for every pair of non-adjacent variables
        ``u, v``, the statement ``u ⟂ v | S`` with ``S`` a minimal separator of ``u`` and
        ``v`` (the neighbours of ``u`` that are adjacent to the connected part of ``v``
        left after removing ``u`` and its neighbours; empty for variables in different
        connected components), then, with ``reduce``, pgmpy's removal of the statements
        implied by the others. The strata's context-specific statements are in
        :meth:`independencies`; they cannot be written as pgmpy ``Independencies``.

        Parameters
        ----------
        reduce : bool, default=True
            Apply ``Independencies.reduce()`` (slow for many statements).

        Returns
        -------
        pgmpy.independencies.Independencies

        Examples
        --------
        >>> sg = StratifiedGraph([("a", "b"), ("b", "c")], nodes=["a", "b", "c", "d"])
        >>> sorted(str(a) for a in sg.get_independencies().get_assertions())
        ['(a ⟂ c | b)', '(a ⟂ d)', '(b ⟂ d)', '(c ⟂ d)']
        """

        order = {v: i for i, v in enumerate(self.nodes())}
        out = Independencies()
        for u, v in combinations(self.nodes(), 2):
            if self.has_edge(u, v):
                continue
            near = set(self.neighbors(u))
            rest = self.subgraph(w for w in self.nodes() if w != u and w not in near)
            part = nx.node_connected_component(rest, v)
            separator = sorted((w for w in near if any(x in part for x in self.neighbors(w))), key=order.get)
            out.add_assertions([u, v, separator])
        return out.reduce() if reduce else out

    def n_free_parameters(self, strata: bool = True) -> int:
        """Free parameters of a distribution faithful to the graph (``strata=False``) or to the SG.

        A labelled clique with center ``v`` has ``|X_parents| - 1 + n_groups (k_v - 1)`` free
        parameters instead of ``|X_C| - 1``.

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
        >>> sg.n_free_parameters(), sg.n_free_parameters(strata=False)
        (6, 7)
        """
        cliques, separators = decompose(self)
        cards = {v: len(self.states(v)) for v in self.nodes()}
        total = free_parameters(cliques, separators, cards)
        if strata:
            for cl in self.clique_labels():
                if cl.center is not None:
                    n_groups = len(set(cl.group_ids))
                    n_configs = len(cl.group_ids)
                    total -= (n_configs - n_groups) * (cards[cl.center] - 1)
        return total

    # -- identity --------------------------------------------------------------
    def _identity(self):
        edges = frozenset(frozenset(e) for e in self.edges())
        strata = frozenset(
            (frozenset((u, v)), s) for u, v, s in self.edges(data="stratum") if s
        )
        return frozenset(self.nodes()), edges, strata

    def __eq__(self, other) -> bool:
        if not isinstance(other, StratifiedGraph):
            return NotImplemented
        return self._identity() == other._identity()

    __hash__ = None

    def __repr__(self) -> str:
        return (
            f"<StratifiedGraph with {self.number_of_nodes()} nodes, {self.number_of_edges()} edges, "
            f"{len(self.labelled_edges())} labelled edges ({self.n_labels()} labels)>"
        )

    def __str__(self) -> str:
        return repr(self)

    def copy(self) -> StratifiedGraph:
        """A copy with the same nodes, edges, strata and state names.

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
        >>> sg.copy() == sg
        True
        """
        new = StratifiedGraph()
        new.graph.update({k: (dict(v) if isinstance(v, dict) else v) for k, v in self.graph.items()})
        new.add_nodes_from(self.nodes(data=True))
        new.add_edges_from((u, v, dict(d)) for u, v, d in self.edges(data=True))
        return new

    @classmethod
    def complete_contexts(cls, variables: Iterable, state_names: Mapping) -> list[dict]:
        """All contexts over ``variables`` (helper to write strata by complement).

        Examples
        --------
        >>> StratifiedGraph.complete_contexts(["a"], {"a": ["x", "y"]})
        [{'a': 'x'}, {'a': 'y'}]
        """
        return all_contexts(variables, state_names)

    def to_graph(self) -> nx.Graph:
        """The underlying graph as a plain ``networkx.Graph``.

        Examples
        --------
        >>> StratifiedGraph([(1, 2)]).to_graph().number_of_edges()
        1
        """
        g = nx.Graph()
        g.add_nodes_from(self.nodes())
        g.add_edges_from(self.edges())
        return g

