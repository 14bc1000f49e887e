"""TreeCPD: a TabularCPD whose parent configurations are grouped and shown as a CPT-tree with tied leaves."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
from pgmpy.factors.discrete import TabularCPD

from pgmpy_sgm.factors import _cpt_tree
from pgmpy_sgm.factors._tree_cpd_dict import DICT_KEYS, check_tree_groups, cpd_dict
from pgmpy_sgm.factors._tree_cpd_ops import (
    check_assignment,
    check_cell,
    check_operand,
    checked_order,
    checked_parents,
    configuration_index,
    reduced_group_keys,
)

__all__ = ["TreeCPD"]


class TreeCPD(TabularCPD):
    """Conditional distribution whose parent configurations share distributions in groups.

    The parent (evidence) configurations are partitioned into *groups*; all configurations of a
    group share one distribution of ``variable``. This is the conditional distribution of the
    center of a labelled clique in a stratified graphical model [1]_. Groups need not be sub-cubes
    of the configuration grid, so the structure is shown as a CPT-tree whose leaves may be *tied*:
    several leaves point at one group. The full table is built at construction and handed to
    :class:`~pgmpy.factors.discrete.TabularCPD`, so a ``TreeCPD`` works wherever a ``TabularCPD``
    does (``DiscreteBayesianNetwork.add_cpds``, ``check_model``, inference, sampling, BIF/XMLBIF).

    Tree format (attribute :attr:`tree`), nested tuples:

    * ``("leaf", group_id)``;
    * ``("split", evidence_variable, ((state, subtree), ...))``, one pair per state in state order.

    Parameters
    ----------
    variable : hashable
        The variable the distribution is over.
    variable_card : int
        Number of states of ``variable``.
    evidence : sequence of hashable or None
        Parent variables (empty or None for no parents).
    evidence_card : sequence of int or None
        Number of states of each parent.
    groups : array-like of int, shape (n_configurations,)
        Group id of every parent configuration, in pgmpy's column order (C order over
        ``evidence``, the last evidence variable varying fastest). Ids must be ``0..n_groups-1``
        and each must be used.
    group_values : array-like of float, shape (variable_card, n_groups)
        Column ``g`` is the distribution of ``variable`` in group ``g``; non-negative, summing to 1
        within 1e-8.
    state_names : dict or None, default=None
        ``{variable: list_of_states}``. Missing variables get pgmpy's default names ``0..k-1``;
        entries for variables outside this CPD are ignored.

    Raises
    ------
    TypeError
        If cards are not integers, ``evidence`` is a string or ``groups`` is not an integer array.
    ValueError
        On inconsistent shapes, unused or out-of-range group ids, negative or non-finite values,
        columns not summing to 1, or bad state names (messages name the culprit).

    Notes
    -----
    Equality (``==``) is inherited from ``TabularCPD`` and compares tables only. The split
    variables are chosen to keep the tree small: a node whose configurations are all in one group
    is a leaf, otherwise the variable giving the fewest leaves below is chosen (exact search; ties
    go to the earlier evidence variable; a greedy rule is used for very large parent sets).
    ``normalize``, ``reduce``, ``marginalize`` and ``reorder_parents`` (used by pgmpy's sampling,
    ``do`` and ``remove_node``) keep the grouped structure and give a ``TreeCPD``; all but ``normalize``
    rebuild a small tree. Factor arithmetic (``product``, ``sum``, ``divide``, ``maximize``) returns a
    plain ``TabularCPD`` result and refuses ``inplace=True``; ``set_value`` raises ``TypeError``.

    Examples
    --------
    Systolic blood pressure given smoking and the lipoprotein ratio: the configuration
    (smoking=1, ratio=0) has its own distribution, the other three share one.

    >>> from pgmpy_sgm.factors import TreeCPD
    >>> cpd = TreeCPD(
    ...     "systolic_bp", 2, ["smoking", "lipoprotein_ratio"], [2, 2],
    ...     groups=[0, 0, 1, 0], group_values=[[0.72, 0.55], [0.28, 0.45]],
    ... )
    >>> cpd.get_values()
    array([[0.72, 0.72, 0.55, 0.72],
           [0.28, 0.28, 0.45, 0.28]])
    >>> cpd.n_groups, cpd.n_leaves, cpd.n_free_parameters()
    (2, 3, 2)
    >>> print(cpd.to_text())
    P(systolic_bp | smoking, lipoprotein_ratio)
    smoking = 0 -> leaf A: P(systolic_bp=0)=0.72, P(systolic_bp=1)=0.28
    smoking = 1
        lipoprotein_ratio = 0 -> leaf B: P(systolic_bp=0)=0.55, P(systolic_bp=1)=0.45
        lipoprotein_ratio = 1 -> leaf A (tied)
    configurations (smoking, lipoprotein_ratio) per leaf distribution:
        A [3 configurations, 2 tied leaves]: (0, 0), (0, 1), (1, 1)
        B [1 configuration]: (1, 0)

    References
    ----------
    .. [1] Nyman, H., Pensar, J., Koski, T. and Corander, J. (2014). Stratified graphical models:
       context-specific independence in graphical models. Bayesian Analysis.
    """

    def __init__(
        self,
        variable: Hashable,
        variable_card: int,
        evidence: Sequence[Hashable] | None,
        evidence_card: Sequence[int] | None,
        groups: Any,
        group_values: Any,
        state_names: Mapping[Hashable, Sequence] | None = None,
    ) -> None:
        self._setup(variable, variable_card, evidence, evidence_card, groups, group_values, state_names, None)

    # ------------------------------------------------------------------ construction
    def _setup(self, variable, variable_card, evidence, evidence_card, groups, group_values, state_names, tree):
        evidence, evidence_card = _cpt_tree.check_scope(variable, variable_card, evidence, evidence_card)
        names = _cpt_tree.complete_state_names(state_names, [variable, *evidence], [variable_card, *evidence_card])
        n_conf = int(np.prod(evidence_card, dtype=np.int64)) if evidence else 1
        if tree is not None:  # an index tree given by from_tree; groups follow from it
            groups = _cpt_tree.index_tree_groups(tree, evidence_card).reshape(-1)
        groups_arr = _cpt_tree.check_groups(groups, n_conf)
        values = _cpt_tree.check_group_values(group_values, variable_card, groups_arr)
        super().__init__(
            variable,
            int(variable_card),
            values[:, groups_arr],
            evidence or None,
            evidence_card or None,
            state_names=names,
        )
        groups_arr.setflags(write=False)
        values.setflags(write=False)
        self._groups = groups_arr
        self._group_values = values
        # the trees are built on first use: a family of millions of configurations needs its table, not a tree
        self._index_tree_built = tree
        self._named_tree = None

    @classmethod
    def from_tree(
        cls,
        variable: Hashable,
        variable_card: int,
        evidence: Sequence[Hashable] | None,
        evidence_card: Sequence[int] | None,
        tree: Any,
        group_values: Any,
        state_names: Mapping[Hashable, Sequence] | None = None,
    ) -> TreeCPD:
        """Build a TreeCPD from an explicit CPT-tree (kept exactly as given).

        Parameters
        ----------
        variable, variable_card, evidence, evidence_card, group_values, state_names
            As in :class:`TreeCPD`.
        tree : tuple or list
            ``("leaf", group_id)`` or ``("split", variable, branches)`` where ``branches`` is a dict
            ``{state: subtree}`` or a sequence of ``(state, subtree)`` pairs covering every state
            exactly once (states by state name). Lists are accepted in place of tuples (JSON).
            A variable may be split on at most once per path; leaves may repeat a group id (tied).

        Raises
        ------
        TypeError
            If a node is malformed or a leaf id is not an integer.
        ValueError
            On unknown variables or states, missing, repeated or re-split branches, bad group ids.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> tree = ("split", "a", {0: ("leaf", 0), 1: ("split", "b", {0: ("leaf", 1), 1: ("leaf", 0)})})
        >>> cpd = TreeCPD.from_tree("x", 2, ["a", "b"], [2, 2], tree, [[0.9, 0.2], [0.1, 0.8]])
        >>> cpd.groups.tolist()
        [0, 0, 1, 0]
        >>> cpd.tree
        ('split', 'a', ((0, ('leaf', 0)), (1, ('split', 'b', ((0, ('leaf', 1)), (1, ('leaf', 0)))))))
        """
        evidence, evidence_card = _cpt_tree.check_scope(variable, variable_card, evidence, evidence_card)
        names = _cpt_tree.complete_state_names(state_names, [variable, *evidence], [variable_card, *evidence_card])
        values = np.asarray(group_values, dtype=float)
        if values.ndim != 2:
            raise ValueError(f"group_values must be 2-D (variable_card, n_groups); got shape {values.shape}")
        index_tree = _cpt_tree.parse_tree(tree, evidence, names, values.shape[1])
        obj = cls.__new__(cls)
        obj._setup(variable, variable_card, evidence, evidence_card, None, values, names, index_tree)
        return obj

    # ------------------------------------------------------------------ structure
    @property
    def groups(self) -> np.ndarray:
        """Read-only int array: the group id of every parent configuration (pgmpy column order).

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 2, ["a"], [3], [0, 1, 0], [[0.5, 1.0], [0.5, 0.0]]).groups.tolist()
        [0, 1, 0]
        """
        return self._groups

    @property
    def group_values(self) -> np.ndarray:
        """Read-only array of shape (variable_card, n_groups): column ``g`` is group ``g``'s distribution.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 2, ["a"], [3], [0, 1, 0], [[0.5, 1.0], [0.5, 0.0]]).group_values.tolist()
        [[0.5, 1.0], [0.5, 0.0]]
        """
        return self._group_values

    @property
    def n_groups(self) -> int:
        """Number of groups (distinct distributions).

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 2, ["a"], [3], [0, 1, 0], [[0.5, 1.0], [0.5, 0.0]]).n_groups
        2
        """
        return int(self._group_values.shape[1])

    @property
    def tree(self) -> tuple:
        """The CPT-tree, ``("leaf", g)`` / ``("split", var, ((state, subtree), ...))`` (see class docs).

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 2, ["a"], [3], [0, 1, 0], [[0.5, 1.0], [0.5, 0.0]]).tree
        ('split', 'a', ((0, ('leaf', 0)), (1, ('leaf', 1)), (2, ('leaf', 0))))
        """
        if self._named_tree is None:
            self._named_tree = _cpt_tree.to_named_tree(self._index_tree, self.variables[1:], self.state_names)
        return self._named_tree

    @property
    def _index_tree(self) -> tuple:
        """The CPT-tree over state indices, built from the groups when first asked for."""
        if self._index_tree_built is None:
            shape = tuple(int(k) for k in self.cardinality[1:])
            self._index_tree_built = _cpt_tree.build_index_tree(self._groups.reshape(shape))
        return self._index_tree_built

    @property
    def n_leaves(self) -> int:
        """Number of leaves of the CPT-tree (tied leaves counted separately).

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 2, ["a"], [3], [0, 1, 0], [[0.5, 1.0], [0.5, 0.0]]).n_leaves
        3
        """
        return _cpt_tree.count_leaves(self._index_tree)

    def n_free_parameters(self) -> int:
        """Number of free parameters, ``n_groups * (variable_card - 1)`` (each group counted once).

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 3, ["a"], [3], [0, 1, 0], [[0.5, 1], [0.25, 0], [0.25, 0]]).n_free_parameters()
        4
        """
        return self.n_groups * (int(self.variable_card) - 1)

    def group_of(self, configuration: Mapping[Hashable, Hashable] | Sequence[Hashable]) -> int:
        """Group id of one parent configuration.

        Parameters
        ----------
        configuration : dict or sequence
            ``{evidence_variable: state}`` covering every parent, or the states in evidence order.
            States are given by state name.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            If a parent is missing or unknown, or a state is unknown.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a", "b"], [2, 2], [0, 0, 1, 0], [[0.9, 0.2], [0.1, 0.8]])
        >>> cpd.group_of({"a": 1, "b": 0}), cpd.group_of([1, 1])
        (1, 0)
        """
        flat = configuration_index(self, configuration)
        return int(self._groups[flat])

    # ------------------------------------------------------------------ text
    def to_text(self, digits: int = 4) -> str:
        """Readable rendering of the tree; tied leaves are marked and configurations listed per group.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the probabilities.

        Returns
        -------
        str

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> print(TreeCPD("x", 2, ["a"], [2], [0, 0], [[0.25], [0.75]], state_names={"a": ["lo", "hi"]}).to_text())
        P(x | a)
        (no split) -> leaf A: P(x=0)=0.25, P(x=1)=0.75
        configurations (a) per leaf distribution:
            A [2 configurations]: (lo), (hi)
        """
        evidence = self.variables[1:]
        return _cpt_tree.render(
            self._index_tree,
            self.variable,
            evidence,
            self.state_names,
            self._groups.reshape(tuple(int(k) for k in self.cardinality[1:])),
            self._group_values,
            digits,
        )

    def __repr__(self) -> str:
        evidence = self.variables[1:]
        pairs = zip(evidence, self.cardinality[1:], strict=True)
        ev = " | " + ", ".join(f"{v}:{k}" for v, k in pairs) if evidence else ""
        return (
            f"<TreeCPD representing P({self.variable}:{self.variable_card}{ev}) with "
            f"{self.n_groups} groups in {self.n_leaves} leaves at {hex(id(self))}>"
        )

    # ------------------------------------------------------------------ copies and conversion
    def copy(self) -> TreeCPD:
        """Return an independent copy that is again a TreeCPD (same tree and groups).

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]])
        >>> type(cpd.copy()).__name__, cpd.copy().tree == cpd.tree
        ('TreeCPD', True)
        """
        obj = type(self).__new__(type(self))
        obj._setup(
            self.variable,
            int(self.variable_card),
            list(self.variables[1:]),
            [int(k) for k in self.cardinality[1:]],
            self._groups.copy(),
            self._group_values.copy(),
            {v: list(s) for v, s in self.state_names.items()},
            self._index_tree_built,
        )
        return obj

    def to_tabular(self) -> TabularCPD:
        """Return the same table as a plain :class:`~pgmpy.factors.discrete.TabularCPD` (structure dropped).

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> type(TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]]).to_tabular()).__name__
        'TabularCPD'
        """
        return TabularCPD.copy(self)

    def to_dict(self) -> dict:
        """JSON-ready plain-Python description; :meth:`from_dict` restores it losslessly.

        Keys: ``variable``, ``variable_card``, ``evidence``, ``evidence_card``, ``state_names``
        (``{variable: list}``), ``groups`` (list of int), ``group_values`` (list of rows, one per state
        of ``variable``) and ``tree`` (the :attr:`tree` with tuples as lists).

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> d = TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]]).to_dict()
        >>> d["groups"], d["group_values"], d["state_names"]
        ([0, 1], [[0.5, 1.0], [0.5, 0.0]], {'x': [0, 1], 'a': [0, 1]})
        """
        return cpd_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TreeCPD:
        """Rebuild a TreeCPD from :meth:`to_dict` output (also after a JSON round trip).

        ``state_names`` keys may be the string form of non-string variable names (as JSON writes
        them). ``tree`` is optional; when present it is used and must agree with ``groups``.

        Raises
        ------
        TypeError
            If ``data`` is not a mapping or a field has the wrong type.
        ValueError
            If keys are missing or unknown, or any constructor check fails.

        Examples
        --------
        >>> import json
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]])
        >>> TreeCPD.from_dict(json.loads(json.dumps(cpd.to_dict()))) == cpd
        True
        """
        names = _cpt_tree.check_cpd_dict(data, DICT_KEYS)
        args = (data["variable"], data["variable_card"], list(data["evidence"]), list(data["evidence_card"]))
        if data.get("tree") is None:
            return cls(*args, data["groups"], data["group_values"], state_names=names)
        obj = cls.from_tree(*args, data["tree"], data["group_values"], state_names=names)
        check_tree_groups(data["groups"], obj.groups)
        return obj

    # ------------------------------------------------------------------ table operations
    def _rebuilt(self, table: TabularCPD, keys: np.ndarray, inplace: bool) -> TreeCPD | None:
        """TreeCPD over ``table``'s scope whose groups are the distinct rows of ``keys`` (one per column)."""
        groups, first = _cpt_tree.relabel_rows(keys)
        values = np.asarray(table.get_values(), dtype=float)[:, first]
        evidence = table.variables[1:]
        names = {v: list(self.state_names[v]) for v in [self.variable, *evidence]}
        cards = [int(k) for k in table.cardinality[1:]]
        result = type(self)(self.variable, int(self.variable_card), evidence, cards, groups, values, names)
        if not inplace:
            return result
        self.__dict__.clear()
        self.__dict__.update(result.__dict__)
        return None

    def normalize(self, inplace: bool = True) -> TreeCPD | None:
        """Normalize every group's distribution (a no-op up to rounding); tree and groups are kept.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.5, 1.0], [0.5, 0.0]]).normalize(inplace=False).n_groups
        2
        """
        out = self if inplace else self.copy()
        values = np.array(out._group_values)
        names = {v: list(out.state_names[v]) for v in out.variables}
        evidence, cards = out.variables[1:], [int(k) for k in out.cardinality[1:]]
        out._setup(out.variable, int(out.variable_card), evidence, cards, out._groups.copy(),
                   values / values.sum(axis=0), names, out._index_tree_built)
        return None if inplace else out

    def reduce(self, values: Sequence[tuple], inplace: bool = True, show_warnings: bool = True) -> TreeCPD | None:
        """Fix some parents to given states (as ``TabularCPD.reduce``); the result is a TreeCPD.

        The groups of the result are those of the remaining configurations, renumbered in order
        of first appearance.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a", "b"], [2, 2], [0, 0, 1, 0], [[0.9, 0.2], [0.1, 0.8]])
        >>> cpd.reduce([("a", 1)], inplace=False).groups.tolist()
        [0, 1]
        """
        check_assignment(self, values)
        table = self.to_tabular()
        table.reduce(values, inplace=True, show_warnings=show_warnings)
        return self._rebuilt(table, reduced_group_keys(self, values), inplace)

    def marginalize(self, variables: Sequence[Hashable], inplace: bool = True) -> TreeCPD | None:
        """Average out some parents (as ``TabularCPD.marginalize``); the result is a TreeCPD.

        Remaining configurations whose summed-out slices hold the same multiset of groups have the
        same averaged distribution and form one group of the result.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a", "b"], [2, 2], [0, 0, 1, 0], [[0.9, 0.2], [0.1, 0.8]])
        >>> out = cpd.marginalize(["b"], inplace=False)
        >>> out.groups.tolist(), out.group_values.round(2).tolist()
        ([0, 1], [[0.9, 0.55], [0.1, 0.45]])
        """
        variables = checked_parents(self, variables, "variables", "Marginalization")
        table = self.to_tabular()
        table.marginalize(variables, inplace=True)
        gone = [self.variables.index(v) - 1 for v in variables]
        groups_nd = self._groups.reshape(tuple(int(k) for k in self.cardinality[1:]))
        return self._rebuilt(table, _cpt_tree.group_counts(groups_nd, gone, self.n_groups), inplace)

    def reorder_parents(self, new_order: list, inplace: bool = True) -> np.ndarray:
        """Reorder the parents (as ``TabularCPD.reorder_parents``), keeping groups and state names.

        With ``inplace=True`` the CPD (groups, tree, table) is rewritten in the new order; returns the
        2-D values either way.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a", "b"], [2, 3], [0, 0, 1, 0, 0, 0], [[0.9, 0.2], [0.1, 0.8]])
        >>> _ = cpd.reorder_parents(["b", "a"])
        >>> cpd.variables, cpd.groups.tolist()
        (['x', 'b', 'a'], [0, 0, 0, 0, 1, 0])
        """
        evidence = self.variables[1:]
        new_order = checked_order(self, new_order)
        values = TabularCPD.reorder_parents(self.to_tabular(), new_order, inplace=False)
        if not inplace or list(new_order) == evidence:
            return values
        cards = tuple(int(k) for k in self.cardinality[1:])
        perm = [evidence.index(v) for v in new_order]
        groups = np.transpose(self._groups.reshape(cards), perm).reshape(-1)
        names = {v: list(self.state_names[v]) for v in self.variables}
        self._setup(self.variable, int(self.variable_card), list(new_order), [cards[i] for i in perm],
                    groups, self._group_values.copy(), names, None)
        return self.get_values()

    def get_value(self, **kwargs: Any) -> float:
        """The probability of one cell (as ``TabularCPD.get_value``), states by name.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 2, ["a"], [2], [0, 1], [[0.9, 0.2], [0.1, 0.8]]).get_value(x=1, a=1)
        0.8
        """
        check_cell(self, kwargs)
        return float(super().get_value(**kwargs))

    def _arith(self, name: str, *args: Any, inplace: bool) -> TabularCPD:
        check_operand(name, args[0], inplace)
        return getattr(self.to_tabular(), name)(*args, inplace=False)

    def product(self, phi1: Any, inplace: bool = True) -> TabularCPD:
        """Factor product on a plain ``TabularCPD`` copy; ``inplace=True`` raises ``TypeError``.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a"], [2], [0, 0], [[0.5], [0.5]])
        >>> type(cpd * cpd.to_factor()).__name__
        'TabularCPD'
        """
        return self._arith("product", phi1, inplace=inplace)

    def sum(self, phi1: Any, inplace: bool = True) -> TabularCPD:
        """Factor sum on a plain ``TabularCPD`` copy; ``inplace=True`` raises ``TypeError``.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a"], [2], [0, 0], [[0.5], [0.5]])
        >>> type(cpd.sum(cpd.to_factor(), inplace=False)).__name__
        'TabularCPD'
        """
        return self._arith("sum", phi1, inplace=inplace)

    def divide(self, phi1: Any, inplace: bool = True) -> TabularCPD:
        """Factor division on a plain ``TabularCPD`` copy; ``inplace=True`` raises ``TypeError``.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a"], [2], [0, 0], [[0.5], [0.5]])
        >>> type(cpd.divide(cpd.to_factor(), inplace=False)).__name__
        'TabularCPD'
        """
        return self._arith("divide", phi1, inplace=inplace)

    def maximize(self, variables: Sequence[Hashable], inplace: bool = True) -> TabularCPD:
        """Max-marginalization on a plain ``TabularCPD`` copy; ``inplace=True`` raises ``TypeError``.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> cpd = TreeCPD("x", 2, ["a"], [2], [0, 0], [[0.5], [0.5]])
        >>> cpd.maximize(["a"], inplace=False).variables
        ['x']
        """
        variables = checked_parents(self, variables, "variables", "Maximization")
        return self._arith("maximize", variables, inplace=inplace)

    def set_value(self, value: float, **kwargs: Any) -> None:
        """Not supported: one cell cannot change without breaking the groups. Raises ``TypeError``.

        Examples
        --------
        >>> from pgmpy_sgm.factors import TreeCPD
        >>> TreeCPD("x", 2, ["a"], [2], [0, 0], [[0.5], [0.5]]).set_value(0.1, x=0, a=0)
        Traceback (most recent call last):
        ...
        TypeError: TreeCPD.set_value would break the groups; use cpd.to_tabular().set_value(...)
        """
        raise TypeError("TreeCPD.set_value would break the groups; use cpd.to_tabular().set_value(...)")
