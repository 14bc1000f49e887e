"""Conversion of stratified graphical models to pgmpy Bayesian networks, Markov networks and junction trees.

The network is oriented along the model's perfect ordering
(:attr:`~pgmpy_sgm.models.StratifiedGraphicalModel.ordering`): every clique's new
variables get as parents the clique's separator and the new variables before them.
A labelled clique's center comes last with parents ``C \\ {center}`` and gets a
:class:`~pgmpy_sgm.factors.TreeCPD` built from the groups, so its strata appear as tied
leaves of a CPT-tree; every other variable gets a
:class:`~pgmpy.factors.discrete.TabularCPD`, the chain-rule factors of its clique's
conditional table. The network's joint distribution is the model's.

The Markov network and the junction tree carry the clique factors
(:meth:`~pgmpy_sgm.models.StratifiedGraphicalModel.get_factors`): clique :math:`C` with
separator :math:`S` holds :math:`P(X_{C \\setminus S} \\mid X_S)`, so the product of the
factors is the joint distribution, already normalized.
"""

from __future__ import annotations

import warnings

import numpy as np
from pgmpy.factors.discrete import DiscreteFactor, TabularCPD
from pgmpy.models import DiscreteBayesianNetwork, DiscreteMarkovNetwork, JunctionTree

from pgmpy_sgm.exceptions import StrataNotShownWarning
from pgmpy_sgm.factors import TreeCPD

__all__ = ["to_bayesian_network", "to_markov_network", "to_junction_tree", "network_free_parameters", "LINK_VARIABLE"]

#: Name (suffixed with ``_`` until unique) of the one-state variable joining the junction trees
#: of the connected components of a disconnected model.
LINK_VARIABLE = "_component_link"


def _chain_cpds(factor, states) -> list[TabularCPD]:
    """TabularCPDs ``P(w_j | separator, w_1..w_{j-1})`` of a clique's table ``P(w_1..w_m | separator)``."""
    n_sep = len(factor.separator)
    variables = list(factor.table_variables)
    new = variables[n_sep:]
    table = np.asarray(factor.table, dtype=np.float64)
    cpds = []
    for j, w in enumerate(new):
        upto = table.sum(axis=tuple(range(n_sep + j + 1, table.ndim))) if j + 1 < len(new) else table
        before = upto.sum(axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            cond = np.where(before > 0, upto / np.where(before > 0, before, 1.0), 1.0 / upto.shape[-1])
        evidence = variables[: n_sep + j]
        k = len(states[w])
        values = np.moveaxis(cond, -1, 0).reshape(k, -1)
        names = {v: list(states[v]) for v in [w, *evidence]}
        cards = [len(states[v]) for v in evidence]
        cpds.append(TabularCPD(w, k, values, evidence or None, cards or None, state_names=names))
    return cpds


def to_bayesian_network(model) -> DiscreteBayesianNetwork:
    """A pgmpy ``DiscreteBayesianNetwork`` with the same joint distribution as ``model``.

    Parameters
    ----------
    model : StratifiedGraphicalModel
        A model with parameters.

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        Nodes in the model's node order; the shown centers carry ``TreeCPD``s, the other
        variables ``TabularCPD``s, all with the model's state names. Its free parameters,
        counting each group once (:func:`network_free_parameters`), equal
        ``model.n_free_parameters()``. A plain network: refitting it with pgmpy's ``fit``
        unties the TreeCPDs. :meth:`StratifiedGraphicalModel.to_bayesian_network
        <pgmpy_sgm.models.StratifiedGraphicalModel.to_bayesian_network>` gives the same
        network as a :class:`~pgmpy_sgm.models.LabeledBayesianNetwork`, which keeps them.

    Warns
    -----
    StrataNotShownWarning
        When some strata are not shown as tree structure (a center lies in its clique's
        separator); the network is exact in distribution all the same.

    Examples
    --------
    >>> from pgmpy.inference import VariableElimination
    >>> from pgmpy_sgm.models import StratifiedGraph, StratifiedGraphicalModel
    >>> sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]})
    >>> bn = to_bayesian_network(StratifiedGraphicalModel.random(sg, seed=0))
    >>> sorted(bn.edges())
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> print(bn.get_cpds("c").to_text(digits=2))
    P(c | a, b)
    a = 0
        b = 0 -> leaf A: P(c=0)=0.25, P(c=1)=0.75
        b = 1 -> leaf B: P(c=0)=0.47, P(c=1)=0.53
    a = 1 -> leaf C: P(c=0)=0.32, P(c=1)=0.68
    configurations (a, b) per leaf distribution:
        A [1 configuration]: (0, 0)
        B [1 configuration]: (0, 1)
        C [2 configurations]: (1, 0), (1, 1)
    >>> q = VariableElimination(bn).query(["c"], evidence={"a": 1, "b": 0}, show_progress=False)
    >>> round(float(q.values[0]), 2)
    0.32
    """
    model.require_parameters()
    states = {v: model.states(v) for v in model.nodes()}
    bn = DiscreteBayesianNetwork()
    bn.add_nodes_from(model.nodes())
    cpds = []
    for factor in model.clique_factors:
        cpds.extend(_chain_cpds(factor, states))
        if factor.center is not None:
            names = {v: list(states[v]) for v in (factor.center, *factor.parents)}
            cpds.append(
                TreeCPD(
                    factor.center,
                    len(states[factor.center]),
                    list(factor.parents),
                    [len(states[v]) for v in factor.parents],
                    groups=list(factor.group_ids),
                    group_values=factor.group_values,
                    state_names=names,
                )
            )
    for cpd in cpds:
        bn.add_edges_from((parent, cpd.variable) for parent in cpd.variables[1:])
    bn.add_cpds(*cpds)
    bn.check_model()
    hidden = model.strata_not_shown
    if hidden:
        warnings.warn(
            f"The strata {hidden} are not shown as tree structure (their clique's center lies in its separator); "
            "the network is still exact in distribution.",
            StrataNotShownWarning,
            stacklevel=2,
        )
    return bn


def to_markov_network(model):
    """A pgmpy ``DiscreteMarkovNetwork`` over the model's graph with its clique factors.

    Parameters
    ----------
    model : StratifiedGraphicalModel
        A model with parameters.

    Returns
    -------
    pgmpy.models.DiscreteMarkovNetwork
        The model's nodes (in order) and edges, and one factor per clique,
        :math:`P(X_{C \\setminus S} \\mid X_S)`; the partition function is 1 and the product
        of the factors is the model's joint distribution. The strata are not visible in
        the graph, only in the factors' values.

    Examples
    --------
    >>> from pgmpy_sgm.models import StratifiedGraph, StratifiedGraphicalModel
    >>> sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]})
    >>> mn = to_markov_network(StratifiedGraphicalModel.random(sg, seed=0))
    >>> mn.check_model(), round(float(mn.get_partition_function()), 12)
    (True, 1.0)
    """
    factors = model.get_factors()
    network = DiscreteMarkovNetwork()
    network.add_nodes_from(model.nodes())
    network.add_edges_from(model.edges())
    network.add_factors(*factors)
    network.check_model()
    return network


def to_junction_tree(model):
    """A pgmpy ``JunctionTree`` of the model's cliques and clique factors, ready for ``BeliefPropagation``.

    The tree is the model's own: each clique is joined to the earlier clique of the
    perfect ordering that holds its separator. pgmpy refuses junction-tree edges with an
    empty separator, so for a disconnected model the first cliques of the connected
    components are joined in a chain through a one-state variable named
    :data:`LINK_VARIABLE` (with ``_`` appended until it is not a variable of the model),
    added to those cliques only. Having one state, it changes no probability; queries
    on the model's variables are exact.

    Parameters
    ----------
    model : StratifiedGraphicalModel
        A model with parameters.

    Returns
    -------
    pgmpy.models.JunctionTree

    Examples
    --------
    >>> from pgmpy.inference import BeliefPropagation
    >>> from pgmpy_sgm.models import StratifiedGraph, StratifiedGraphicalModel
    >>> model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")], nodes=["a", "b", "c"]), seed=0)
    >>> jt = to_junction_tree(model)
    >>> sorted(jt.nodes())
    [('a', 'b', '_component_link'), ('c', '_component_link')]
    >>> q = BeliefPropagation(jt).query(["a", "c"], show_progress=False)
    >>> bool(abs(q.values - model.joint().marginalize(["b"], inplace=False).values).max() < 1e-12)
    True
    """
    factors = model.get_factors()
    cliques = [tuple(f.clique) for f in model.clique_factors]
    roots = [i for i, f in enumerate(model.clique_factors) if not f.separator]
    link = LINK_VARIABLE
    while link in model:
        link += "_"
    if len(roots) > 1:
        for i in roots:
            cliques[i] = (*cliques[i], link)
            f = factors[i]
            names = {**f.state_names, link: ["all"]}
            values = f.values.reshape(*f.cardinality, 1)
            factors[i] = DiscreteFactor([*f.variables, link], values.shape, values, state_names=names)
    tree = JunctionTree()
    tree.add_nodes_from(cliques)
    for j, f in enumerate(model.clique_factors):
        if f.separator:
            i = next(i for i in range(j) if set(f.separator) <= set(model.clique_factors[i].clique))
            tree.add_edge(cliques[i], cliques[j])
    tree.add_edges_from(zip([cliques[i] for i in roots[:-1]], [cliques[i] for i in roots[1:]], strict=True))
    tree.add_factors(*factors)
    tree.check_model()
    return tree


def network_free_parameters(network: DiscreteBayesianNetwork) -> int:
    """Free parameters of a network, counting each group of a ``TreeCPD`` once.

    Examples
    --------
    >>> from pgmpy.factors.discrete import TabularCPD
    >>> bn = DiscreteBayesianNetwork([("a", "b")])
    >>> bn.add_cpds(TabularCPD("a", 2, [[0.5], [0.5]]),
    ...             TreeCPD("b", 3, ["a"], [2], [0, 0], [[0.2], [0.3], [0.5]]))
    >>> network_free_parameters(bn)
    3
    """
    total = 0
    for cpd in network.get_cpds():
        if isinstance(cpd, TreeCPD):
            total += cpd.n_free_parameters()
        else:
            total += (int(cpd.variable_card) - 1) * int(np.prod(cpd.cardinality[1:], dtype=np.int64))
    return total
