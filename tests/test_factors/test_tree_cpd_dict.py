"""The plain-Python form of a TreeCPD (pgmpy_sgm.factors._tree_cpd_dict)."""

import json

import numpy as np
import pytest

from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.factors._tree_cpd_dict import DICT_KEYS, check_tree_groups, cpd_dict


def test_the_form_is_json_ready_and_names_every_key():
    cpd = TreeCPD("x", 2, ["a"], [3], [0, 1, 0], [[0.5, 1.0], [0.5, 0.0]], state_names={"a": ["p", "q", "r"]})
    form = json.loads(json.dumps(cpd_dict(cpd)))
    assert set(DICT_KEYS) | {"tree"} == set(form)
    assert form["groups"] == [0, 1, 0] and form["state_names"]["a"] == ["p", "q", "r"]
    assert form["tree"] == ["split", "a", [["p", ["leaf", 0]], ["q", ["leaf", 1]], ["r", ["leaf", 0]]]]


def test_groups_must_agree_with_the_tree():
    check_tree_groups([0, 1, 0], np.array([0, 1, 0]))
    with pytest.raises(ValueError, match="disagree"):
        check_tree_groups([0, 1], np.array([0, 1, 0]))
