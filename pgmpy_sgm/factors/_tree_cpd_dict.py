"""The plain-Python (JSON-ready) form of a TreeCPD: its keys, writing it, and checking a tree against its groups."""

from __future__ import annotations

import numpy as np

from pgmpy_sgm.factors._cpt_tree import py

__all__ = ["DICT_KEYS", "cpd_dict", "check_tree_groups"]

#: The keys of the form (``tree`` is optional besides these).
DICT_KEYS = ("variable", "variable_card", "evidence", "evidence_card", "state_names", "groups", "group_values")


def cpd_dict(cpd) -> dict:
    """The form of ``cpd`` (a TreeCPD), as :meth:`~pgmpy_sgm.factors.TreeCPD.to_dict` gives it.

    Examples
    --------
    >>> from pgmpy_sgm.factors import TreeCPD
    >>> cpd_dict(TreeCPD("x", 2, ["a"], [2], [0, 0], [[0.5], [0.5]]))["tree"]
    ['leaf', 0]
    """
    evidence = cpd.variables[1:]
    return {
        "variable": py(cpd.variable),
        "variable_card": int(cpd.variable_card),
        "evidence": [py(v) for v in evidence],
        "evidence_card": [int(k) for k in cpd.cardinality[1:]],
        "state_names": {py(v): py(list(cpd.state_names[v])) for v in [cpd.variable, *evidence]},
        "groups": [int(g) for g in cpd.groups],
        "group_values": [[float(p) for p in row] for row in cpd.group_values],
        "tree": py(cpd.tree),
    }


def check_tree_groups(given, groups: np.ndarray) -> None:
    """Refuse a form whose ``groups`` (``given``) disagree with the ``groups`` its tree makes.

    Examples
    --------
    >>> check_tree_groups([0, 1], np.array([0, 0]))
    Traceback (most recent call last):
        ...
    ValueError: TreeCPD dict: 'groups' [0, 1] disagree with the groups of 'tree' [0, 0]
    """
    array = np.asarray(given)
    if array.shape != groups.shape or not np.array_equal(array, groups):
        raise ValueError(f"TreeCPD dict: 'groups' {list(given)} disagree with the groups of 'tree' {groups.tolist()}")
