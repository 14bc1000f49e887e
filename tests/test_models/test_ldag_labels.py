"""Structure of a labelled DAG (pgmpy_sgm.models._ldag_labels): checks name the fault, labels match the classes."""

import itertools

import numpy as np
import pytest

from pgmpy_sgm.core.lines import groups_from_labels, line_table
from pgmpy_sgm.models._ldag_labels import (
    acyclic_edges,
    checked_classes,
    class_entries,
    classes_with_added_states,
    edge_contexts,
)


def test_a_cycle_is_named():
    with pytest.raises(ValueError, match=r"cycle \['x', 'y', 'z'\]"):
        acyclic_edges([("x", "y"), ("y", "z"), ("z", "x")])


def test_class_entries_must_be_pairs():
    assert class_entries(None) == {}
    with pytest.raises(TypeError, match=r"classes\['y'\] must be a pair"):
        class_entries({"y": (("a",), [0], "extra")})


def test_classes_are_canonical_and_refused_when_not_made_by_labels():
    assert checked_classes("y", (2, 2), [5, 5, 7, 9]).tolist() == [0, 0, 1, 2]
    with pytest.raises(ValueError, match="not made by labels"):
        checked_classes("y", (2, 2), [0, 1, 1, 0])  # a diagonal class is joined by no line
    with pytest.raises(ValueError, match="need 4 integer class ids"):
        checked_classes("y", (2, 2), [0, 1])


def test_contexts_of_one_label_on_each_edge():
    # configurations (a, b) in C order: class 0 = {(0,0), (0,1)}, so y ignores b when a = "lo"
    labels = edge_contexts("y", ("a", "b"), np.array([0, 0, 1, 2]), {"a": ["lo", "hi"], "b": [0, 1]})
    assert labels == {("b", "y"): [{"a": "lo"}]}


def test_added_states_keep_the_old_partition_and_make_valid_classes():
    """Random labellings of 2-3 parents; some parents gain a state: the old configurations keep their classes."""
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(120):
        cards = tuple(int(k) for k in rng.integers(2, 4, size=rng.integers(2, 4)))
        tables = line_table(cards)
        labels = [(d, r) for d in range(len(cards)) for r in range(len(tables[d])) if rng.random() < 0.25]
        ids = groups_from_labels(cards, labels)
        try:
            checked_classes("y", cards, ids)
        except ValueError:  # some random labels delete an edge: not a labelling to extend
            continue
        grown = tuple(k + int(rng.integers(0, 2)) for k in cards)
        new = checked_classes("y", grown, classes_with_added_states(cards, grown, ids))  # valid, or it raises
        old = new[[np.ravel_multi_index(c, grown) for c in itertools.product(*(range(k) for k in cards))]]
        assert np.array_equal(ids[:, None] == ids[None, :], old[:, None] == old[None, :])
        checked += 1
    assert checked > 60
