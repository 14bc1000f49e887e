"""Argument checks and index arithmetic of TreeCPD's operations (pgmpy_sgm.factors._tree_cpd_ops)."""

import pytest

from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.factors._tree_cpd_ops import (
    check_assignment,
    check_cell,
    check_operand,
    checked_order,
    checked_parents,
    configuration_index,
    reduced_group_keys,
)

# x given a (2 states) and b (3 states); pgmpy column order: b varies fastest
CPD = TreeCPD("x", 2, ["a", "b"], [2, 3], [0, 0, 1, 0, 2, 0], [[0.9, 0.2, 0.5], [0.1, 0.8, 0.5]],
              state_names={"a": ["lo", "hi"], "b": [0, 1, 2]})


def test_configuration_index_is_c_order_with_the_last_parent_fastest():
    for i, a in enumerate(["lo", "hi"]):
        for j in range(3):
            assert configuration_index(CPD, {"a": a, "b": j}) == 3 * i + j
            assert configuration_index(CPD, [a, j]) == 3 * i + j
    with pytest.raises(ValueError, match="missing: \\['b'\\]"):
        configuration_index(CPD, {"a": "lo"})


def test_reduced_keys_are_the_groups_of_the_remaining_configurations():
    assert reduced_group_keys(CPD, [("a", "hi")]).tolist() == [0, 2, 0]
    assert reduced_group_keys(CPD, [("b", 2)]).tolist() == [1, 0]


def test_checks_name_the_culprit():
    with pytest.raises(ValueError, match="Reduce not allowed on the variable 'x'"):
        check_assignment(CPD, [("x", 0)])
    with pytest.raises(ValueError, match="'mid' is not a state of 'a'"):
        check_cell(CPD, {"x": 0, "a": "mid", "b": 0})
    with pytest.raises(TypeError, match="inplace=True would break the tree"):
        check_operand("product", 2.0, inplace=True)
    with pytest.raises(TypeError, match="must be a list of parents"):
        checked_parents(CPD, "a", "variables")
    assert checked_order(CPD, ("b", "a")) == ["b", "a"]
