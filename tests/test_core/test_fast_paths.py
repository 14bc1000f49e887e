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
from pgmpy_sgm.structure_score._mpl_groups import close_contexts


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


@pytest.mark.parametrize("seed", range(6))
def test_implied_contexts_are_the_uniform_lines_found_by_brute_force(seed):
    from pgmpy_sgm.structure_score._mpl_groups import _implied

    rng = np.random.default_rng(seed)
    blanket = ("a", "b", "c", "d")[: int(rng.integers(2, 5))]
    cards = {w: int(rng.integers(2, 4)) for w in blanket} | {"t": 2}
    graph = nx.Graph([("t", w) for w in blanket])
    graph.add_edges_from(e for e in itertools.combinations(blanket, 2) if rng.random() < 0.7)
    order = {w: i for i, w in enumerate(("t", *blanket))}
    shape = tuple(cards[w] for w in blanket)
    classes = rng.integers(0, 3, int(np.prod(shape)))  # coarse random classes: many lines lie inside one
    cells = list(itertools.product(*(range(r) for r in shape)))
    expected = []
    for axis, other in enumerate(blanket):
        shared = sorted(set(graph.adj["t"]) & set(graph.adj[other]), key=order.__getitem__)
        if not shared:
            continue
        rows = set()
        for cell in cells:
            line = [cell[:axis] + (s,) + cell[axis + 1 :] for s in range(shape[axis])]
            if len({int(classes[cells.index(x)]) for x in line}) == 1:
                rows.add(tuple(cell[blanket.index(w)] for w in shared))
        expected += [(frozenset(("t", other)), frozenset(zip(shared, row, strict=True))) for row in sorted(rows)]
    assert _implied("t", blanket, cards, classes, graph, order) == expected


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


@pytest.mark.parametrize("seed", range(8))
def test_blanket_classes_are_the_components_of_the_lines_their_contexts_merge(seed):
    from pgmpy_sgm.structure_score._mpl_groups import _groups

    rng = np.random.default_rng(seed)
    blanket = tuple("abcd"[: int(rng.integers(2, 5))])
    shape = tuple(int(x) for x in rng.integers(2, 4, len(blanket)))
    stated = []
    for axis in range(len(blanket)):  # each edge's contexts: random states of some of the other blanket variables
        contexts = set()
        for _ in range(int(rng.integers(0, 3))):
            others = [i for i in range(len(blanket)) if i != axis and rng.random() < 0.6]
            contexts.add(frozenset((blanket[i], int(rng.integers(0, shape[i]))) for i in others))
        if contexts:
            stated.append((axis, frozenset(contexts)))
    cells = list(itertools.product(*(range(r) for r in shape)))
    graph = nx.Graph()
    graph.add_nodes_from(cells)
    for axis, contexts in stated:  # brute force: join every line through a configuration agreeing with a context
        for context in contexts:
            for cell in cells:
                if all(cell[blanket.index(w)] == s for w, s in context):
                    graph.add_edges_from((cell, cell[:axis] + (s,) + cell[axis + 1 :]) for s in range(shape[axis]))
    labels = _groups(blanket, shape, tuple(stated)).tolist()
    first_seen: dict = {}
    for cell in cells:  # classes numbered by first appearance in C order
        part = frozenset(nx.node_connected_component(graph, cell))
        first_seen.setdefault(part, len(first_seen))
    assert labels == [first_seen[frozenset(nx.node_connected_component(graph, cell))] for cell in cells]
