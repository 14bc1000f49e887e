"""Fast paths of the encoding, counting and context closure against the general ones they stand for."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core._count_kernels import count_cells, count_extensions
from pgmpy_sgm.core.data import EncodedData, _integer_codes
from pgmpy_sgm.core.data_checks import check_frame_complete
from pgmpy_sgm.structure_score._mpl_groups import _lines, close_contexts


@pytest.mark.parametrize("states", [[0, 1, 2], [2, 0, 1], [-5, 7, 100], [3]])
def test_integer_codes_equal_pandas_categorical_codes(states):
    rng = np.random.default_rng(len(states))
    values = pd.Series(rng.choice(states, 50))
    expected = pd.Categorical(values, categories=pd.Index(states, dtype=object)).codes
    np.testing.assert_array_equal(_integer_codes(values, states), expected)


def test_integer_codes_leave_other_columns_to_pandas():
    assert _integer_codes(pd.Series([0.0, 1.0]), [0, 1]) is None  # floats
    assert _integer_codes(pd.Series([0, 1]), [False, True]) is None  # boolean states
    assert _integer_codes(pd.Series([0, 2**20]), [0, 2**20]) is None  # too wide a range
    assert _integer_codes(pd.Series(["a"]), ["a"]) is None


def test_encoded_integer_and_object_columns_agree():
    rng = np.random.default_rng(0)
    ints = pd.DataFrame({"a": rng.integers(0, 3, 40), "b": rng.integers(5, 7, 40)})
    objects = ints.astype(object)
    left, right = EncodedData(ints), EncodedData(objects, state_names={"a": [0, 1, 2], "b": [5, 6]})
    np.testing.assert_array_equal(left.codes, right.codes)
    assert left.state_names == right.state_names


def test_completeness_fast_path_still_refuses_gaps():
    check_frame_complete(pd.DataFrame({"a": [0, 1], "b": pd.Categorical(["x", "y"]), "c": [True, False]}))
    with pytest.raises(ValueError, match="'b'"):
        check_frame_complete(pd.DataFrame({"a": [0, 1], "b": pd.Categorical(["x", None])}))
    with pytest.raises(ValueError, match="'a'"):
        check_frame_complete(pd.DataFrame({"a": [0.0, np.nan], "b": [1, 2]}))


def test_count_extensions_equal_count_cells_table_by_table():
    rng = np.random.default_rng(1)
    cards = np.array([2, 3, 2, 4, 3], dtype=np.int64)
    codes_t = np.ascontiguousarray(np.stack([rng.integers(0, k, 300) for k in cards]).astype(np.uint8))
    weights = rng.random(300) * 5
    blanket, own, extra = np.array([1, 3]), 0, np.array([2, 4])
    sizes = [int(cards[1] * cards[3] * cards[e] * cards[own]) for e in extra]
    offsets = np.array([0, sizes[0]], dtype=np.int64)
    got = count_extensions(codes_t, weights, blanket, np.array([cards[1], cards[3], cards[own]]), own, extra,
                           cards[extra], offsets, sum(sizes))  # fmt: skip
    for e, offset, size in zip(extra, offsets, sizes, strict=True):
        cols = np.array([1, 3, e, own], dtype=np.int64)
        expected = count_cells(codes_t, weights, cols, cards[cols], size)
        np.testing.assert_array_equal(got[offset:offset + size], expected)  # the same sums, bit for bit


@pytest.mark.parametrize("shape", [(2,), (2, 3), (3, 2, 2)])
def test_lines_are_the_moved_axes(shape):
    grid = np.arange(int(np.prod(shape))).reshape(shape)
    for axis in range(len(shape)):
        np.testing.assert_array_equal(_lines(shape, axis), np.moveaxis(grid, axis, -1).reshape(-1, shape[axis]))


def test_close_contexts_with_a_memo_equals_without():
    graph = nx.complete_graph([1, 2, 3, 4])
    cards = dict.fromkeys(graph, 2)
    order = {v: i for i, v in enumerate(graph)}
    memo: dict = {}
    edges = [frozenset(e) for e in graph.edges()]
    for (u, v), states in itertools.product(itertools.combinations(edges[:4], 2), [(0, 0), (0, 1), (1, 1)]):
        contexts = {}
        for edge, s in zip((u, v), states, strict=True):
            shared = sorted(set(graph) - edge)
            contexts[edge] = {frozenset(zip(shared, (s, 1 - s), strict=True))}
        assert close_contexts(graph, cards, contexts, order, memo) == close_contexts(graph, cards, contexts, order)
    assert memo


@pytest.mark.parametrize("seed", range(6))
def test_components_give_networkx_connected_components(seed):
    from pgmpy_sgm.structure_score._mpl_groups import _components

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    k = int(rng.integers(0, 2 * n))
    rows, cols = rng.integers(0, n, k), rng.integers(0, n, k)
    labels = _components(n, rows, cols)
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(zip(rows.tolist(), cols.tolist(), strict=True))
    expected = {frozenset(part) for part in nx.connected_components(graph)}
    got: dict = {}
    for node, label in enumerate(labels.tolist()):
        got.setdefault(label, set()).add(node)
    assert {frozenset(part) for part in got.values()} == expected
