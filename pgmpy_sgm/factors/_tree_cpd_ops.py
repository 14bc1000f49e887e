"""Argument checks and index arithmetic of TreeCPD's table operations (reduce, marginalize, reorder, get_value)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
from pgmpy.factors.discrete import DiscreteFactor

from pgmpy_sgm.factors import _cpt_tree

__all__ = [
    "checked_parents",
    "checked_order",
    "check_assignment",
    "check_state",
    "check_cell",
    "check_operand",
    "configuration_index",
    "reduced_group_keys",
]


def checked_parents(cpd, variables: Any, name: str, operation: str = "") -> list:
    """``variables`` as a list of parents of ``cpd``, or an error naming the culprit.

    Examples
    --------
    >>> from pgmpy_sgm.factors import TreeCPD
    >>> cpd = TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]])
    >>> checked_parents(cpd, ("a",), "variables")
    ['a']
    >>> checked_parents(cpd, ["z"], "variables")
    Traceback (most recent call last):
        ...
    ValueError: variables: ['z'] are not parents of 'x'; its parents are ['a']
    """
    if isinstance(variables, str | bytes) or not isinstance(variables, Iterable):
        raise TypeError(f"{name} must be a list of parents of {cpd.variable!r}. Got: {variables!r}")
    variables = list(variables)
    evidence = cpd.variables[1:]
    if operation and any(_cpt_tree.hashable(v) and v == cpd.variable for v in variables):
        raise ValueError(f"{operation} not allowed on the variable {cpd.variable!r} on which the CPD is defined; "
                         f"its parents are {evidence}")
    unknown = [v for v in variables if not _cpt_tree.hashable(v) or v not in evidence]
    if unknown:
        raise ValueError(f"{name}: {unknown} are not parents of {cpd.variable!r}; its parents are {evidence}")
    return variables


def checked_order(cpd, new_order: Any) -> list:
    """``new_order`` as a list holding every parent of ``cpd`` once (``reorder_parents``' argument).

    Examples
    --------
    >>> from pgmpy_sgm.factors import TreeCPD
    >>> checked_order(TreeCPD("x", 2, ["a", "b"], [2, 2], [0, 0, 1, 0], [[0.9, 0.2], [0.1, 0.8]]), ["b"])
    Traceback (most recent call last):
        ...
    ValueError: new_order must list every parent of 'x' once, ['a', 'b']. Got: ['b']
    """
    evidence = cpd.variables[1:]
    new_order = checked_parents(cpd, new_order, "new_order")
    if sorted(map(repr, new_order)) != sorted(map(repr, evidence)):
        raise ValueError(f"new_order must list every parent of {cpd.variable!r} once, {evidence}. "
                         f"Got: {new_order}")
    return new_order


def check_assignment(cpd, values: Any) -> None:
    """Refuse a ``reduce`` argument that is not ``[(parent, state), ...]`` with known parents and states.

    Examples
    --------
    >>> from pgmpy_sgm.factors import TreeCPD
    >>> check_assignment(TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]]), [("a", 2)])
    Traceback (most recent call last):
        ...
    ValueError: 2 is not a state of 'a'; its states are [0, 1]
    """
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(f"values must be a list of (parent, state) pairs. Got: {values!r}")
    for pair in values:
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise ValueError(f"values must be a list of (parent, state) pairs. Got: {pair!r}")
        checked_parents(cpd, [pair[0]], "values", "Reduce")
        check_state(cpd, *pair)


def check_state(cpd, variable: Hashable, state: Any) -> None:
    """Refuse ``state`` unless it is a state name of ``variable`` or an index of one.

    Examples
    --------
    >>> from pgmpy_sgm.factors import TreeCPD
    >>> cpd = TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]], state_names={"a": ["lo", "hi"]})
    >>> check_state(cpd, "a", "hi"), check_state(cpd, "a", 1)
    (None, None)
    """
    names = list(cpd.state_names[variable])
    card = len(names)
    known = _cpt_tree.hashable(state) and (state in names or (
        isinstance(state, Integral) and not isinstance(state, bool) and 0 <= state < card))
    if not known:
        raise ValueError(f"{state!r} is not a state of {variable!r}; its states are {names}")


def check_cell(cpd, states: Mapping) -> None:
    """Refuse ``states`` unless they give a known state of every variable of ``cpd`` (``get_value``'s cell).

    Examples
    --------
    >>> from pgmpy_sgm.factors import TreeCPD
    >>> check_cell(TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]]), {"x": 0})
    Traceback (most recent call last):
        ...
    ValueError: get_value needs a state of every variable ['x', 'a']; unknown: [], missing: ['a']
    """
    unknown = [v for v in states if v not in cpd.variables]
    missing = [v for v in cpd.variables if v not in states]
    if unknown or missing:
        raise ValueError(f"get_value needs a state of every variable {cpd.variables}; unknown: {unknown}, "
                         f"missing: {missing}")
    for variable, state in states.items():
        check_state(cpd, variable, state)


def check_operand(name: str, other: Any, inplace: bool) -> None:
    """Refuse a factor operation ``name`` of a TreeCPD on a bad operand, or in place (it would break the tree).

    Examples
    --------
    >>> check_operand("divide", 2.0, inplace=False)
    Traceback (most recent call last):
        ...
    TypeError: TreeCPD.divide needs a factor. Got: 2.0
    """
    if name != "maximize" and not isinstance(other, DiscreteFactor) and (
            name == "divide" or isinstance(other, bool) or not isinstance(other, Real)):
        kind = "a factor" if name == "divide" else "a factor or a number"
        raise TypeError(f"TreeCPD.{name} needs {kind}. Got: {other!r}")
    if inplace:
        raise TypeError(f"TreeCPD.{name} with inplace=True would break the tree; "
                        f"use cpd.to_tabular().{name}(...) or inplace=False")


def configuration_index(cpd, configuration: Mapping[Hashable, Hashable] | Sequence[Hashable]) -> int:
    """Flat index (pgmpy column order) of one parent configuration of ``cpd``, given as
    ``{parent: state}`` or as the states in evidence order (state names).

    Examples
    --------
    >>> from pgmpy_sgm.factors import TreeCPD
    >>> cpd = TreeCPD("x", 2, ["a", "b"], [2, 3], [0, 0, 1, 0, 0, 0], [[0.9, 0.2], [0.1, 0.8]])
    >>> configuration_index(cpd, {"b": 2, "a": 1}), configuration_index(cpd, [0, 1])
    (5, 1)
    """
    evidence = cpd.variables[1:]
    if isinstance(configuration, Mapping):
        unknown = [v for v in configuration if v not in evidence]
        missing = [v for v in evidence if v not in configuration]
        if unknown or missing:
            raise ValueError(f"configuration must give exactly the parents {evidence}; "
                             f"unknown: {unknown}, missing: {missing}")
        states = [configuration[v] for v in evidence]
    else:
        if isinstance(configuration, str | bytes) or not isinstance(configuration, Iterable):
            raise TypeError(f"configuration must be a dict {{parent: state}} or a list of states of {evidence}; "
                            f"got {configuration!r}")
        states = list(configuration)
        if len(states) != len(evidence):
            raise ValueError(f"configuration must have {len(evidence)} states (for {evidence}); got {len(states)}")
    idx = []
    for var, state in zip(evidence, states, strict=True):
        if state not in cpd.state_names[var]:
            raise ValueError(f"unknown state {state!r} of {var!r}; states are {cpd.state_names[var]}")
        idx.append(cpd.state_names[var].index(state))
    return int(np.ravel_multi_index(idx, cpd.cardinality[1:])) if idx else 0


def reduced_group_keys(cpd, values: Sequence[tuple]) -> np.ndarray:
    """The group of every parent configuration of ``cpd`` left when the ``(parent, state)`` pairs
    ``values`` are fixed (as ``reduce`` fixes them).

    Examples
    --------
    >>> from pgmpy_sgm.factors import TreeCPD
    >>> cpd = TreeCPD("x", 2, ["a", "b"], [2, 2], [0, 0, 1, 0], [[0.9, 0.2], [0.1, 0.8]])
    >>> reduced_group_keys(cpd, [("a", 1)]).tolist()
    [1, 0]
    """
    evidence = cpd.variables[1:]
    index = DiscreteFactor(
        evidence,
        cpd.cardinality[1:],
        cpd.groups.astype(float),
        state_names={v: list(cpd.state_names[v]) for v in evidence},
    )
    index.reduce(values, inplace=True, show_warnings=False)
    return np.asarray(index.values).astype(int).reshape(-1)
