"""GraphStore against a plain dict: same keys, values, order and edges, whatever the keys' width."""

import pickle
import random

import numpy as np
import pytest

from pgmpy_sgm.core.bitsets import WIDE_MASK_BITS
from pgmpy_sgm.core.graph_store import GraphStore, pack_positions, unpack_positions


def random_graphs(n_pairs: int, n_keys: int, seed: int) -> dict[int, list[int]]:
    """``{key: its edges}`` of random graphs (the empty one first), the edges drawn, the key built from them."""
    rng = random.Random(seed)
    graphs = {0: []}
    for _ in range(n_keys):
        edges = sorted(rng.sample(range(n_pairs), rng.randint(1, min(40, n_pairs))))
        graphs[sum(1 << p for p in edges)] = edges
    return graphs


@pytest.mark.parametrize("n_pairs", [10, WIDE_MASK_BITS, 124_750])
def test_behaves_as_a_dict_of_int_keys(n_pairs):
    graphs = random_graphs(n_pairs, 200, n_pairs)
    keys = list(graphs) + list(graphs)[:20]  # some keys come twice
    plain, store = {}, GraphStore()
    for i, key in enumerate(keys):
        plain.setdefault(key, float(i))
        store.setdefault(key, float(i))
    assert list(store) == list(plain)
    assert list(store.items()) == list(plain.items())
    assert len(store) == len(plain)
    for key in keys:
        assert key in store and store[key] == plain[key] and store.get(key) == plain[key]
        assert key ^ 1 << (n_pairs - 1) not in store or key ^ 1 << (n_pairs - 1) in plain
    assert store.get(1 << n_pairs, "absent") == "absent"
    assert [e.tolist() for e in store.edge_positions()] == [graphs[key] for key in plain]
    assert list(store.keys_from(150)) == list(plain)[150:]


def test_values_overwrite_in_place_and_keep_the_order():
    wide = [1 << (WIDE_MASK_BITS + 5) | 1 << k for k in range(5)]
    store = GraphStore((k, 0) for k in wide)
    store[wide[2]] = 7
    del store[wide[0]]
    assert list(store) == wide[1:] and store[wide[2]] == 7


def test_copy_and_pickle_keep_every_entry():
    store = GraphStore({1 << 5000 | 3: 1.5, 6: 2.5})
    copied, restored = store.copy(), pickle.loads(pickle.dumps(store))
    store[1] = 0.0
    assert dict(copied) == dict(restored) == {1 << 5000 | 3: 1.5, 6: 2.5}


def test_non_keys_are_not_members():
    store = GraphStore({3: 0.0})
    assert "3" not in store and -3 not in store and 3.0 not in store


@pytest.mark.parametrize("key", [-1, 2.0, "5", None])
def test_keys_that_are_not_graph_keys_are_refused_with_the_key(key):
    store = GraphStore()
    with pytest.raises(TypeError, match="non-negative int"):
        store[key] = 0.0
    assert key not in store


def test_values_are_read_without_unpacking():
    store = GraphStore({1 << 3000 | 1: 1.0, 2: 2.0})
    assert list(store.values()) == [1.0, 2.0] and len(store.values()) == 2


@pytest.mark.parametrize("n_pairs", [10, WIDE_MASK_BITS, 124_750])
@pytest.mark.parametrize("chunk_edges", [1, 37, 1 << 20])
def test_weighted_pair_sums_equal_a_dense_sum_whatever_the_chunks(n_pairs, chunk_edges, monkeypatch):
    import numpy as np

    from pgmpy_sgm.core import graph_store

    monkeypatch.setattr(graph_store, "PAIR_SUM_CHUNK_EDGES", chunk_edges)
    graphs = random_graphs(n_pairs, 150, seed=n_pairs + chunk_edges)
    store = GraphStore((key, 0.0) for key in graphs)
    rng = np.random.default_rng(0)
    weights = rng.random(len(graphs))
    rows = rng.permutation(len(graphs))[:90]
    dense = np.zeros((len(graphs), n_pairs))
    for r, edges in enumerate(graphs.values()):
        dense[r, edges] = 1.0
    assert np.allclose(store.weighted_pair_sums(weights, n_pairs), weights @ dense, rtol=1e-12, atol=0)
    assert np.allclose(store.weighted_pair_sums(weights[:90], n_pairs, rows=rows), weights[:90] @ dense[rows],
                       rtol=1e-12, atol=0)  # fmt: skip
    two = rng.random((2, len(graphs)))
    assert np.allclose(store.weighted_pair_sums(two, n_pairs), two @ dense, rtol=1e-12, atol=0)
    assert store.edge_counts().tolist() == [len(edges) for edges in graphs.values()]
    assert [p.tolist() for p in store.edge_positions(rows)] == [list(graphs.values())[r] for r in rows]


def test_weighted_pair_sums_of_an_empty_store_or_no_rows_are_zero():
    assert GraphStore().weighted_pair_sums([], 4).tolist() == [0.0] * 4
    assert GraphStore({0b11: 0.0}).weighted_pair_sums([], 3, rows=[]).tolist() == [0.0] * 3


def test_weighted_pair_sums_over_no_pairs_have_the_weights_shape():
    store = GraphStore({0: 0.0})
    assert store.weighted_pair_sums([1.0], 0).shape == (0,)
    assert store.weighted_pair_sums([[1.0], [0.5]], 0).shape == (2, 0)


@pytest.mark.parametrize("weights, rows", [([1.0], None), ([[1.0, 2.0, 3.0]], None), ([1.0, 2.0], [0]),
                                           ([[[1.0, 2.0]]], None)])  # fmt: skip
def test_weighted_pair_sums_refuse_weights_that_do_not_match_the_graphs(weights, rows):
    with pytest.raises(ValueError, match="one weight per graph summed over"):
        GraphStore({0b1: 0.0, 0b11: 0.0}).weighted_pair_sums(weights, 2, rows=rows)


def test_weighted_pair_sums_refuse_rows_outside_the_store_and_pairs_beyond_n_pairs():
    store = GraphStore({0b1: 0.0, 0b100: 0.0})
    with pytest.raises(ValueError, match="insertion positions below 2. Got: 2"):
        store.weighted_pair_sums([1.0], 3, rows=[2])
    with pytest.raises(ValueError, match="pair index 2, but n_pairs is 2"):
        store.weighted_pair_sums([1.0, 1.0], 2)


def test_packed_positions_round_trip_at_every_byte_boundary():
    rng = random.Random(5)
    boundaries = [1 << 7 * t for t in range(1, 9)]
    strings, expected = [], []
    for _ in range(300):
        gaps = [rng.choice([1, 2, 126, 127, 128, 129]) for _ in range(rng.randint(0, 6))]
        gaps += [b + rng.choice([-1, 0, 1]) for b in rng.sample(boundaries, rng.randint(0, 3))]
        rng.shuffle(gaps)
        positions = [sum(gaps[: k + 1]) - 1 for k in range(len(gaps))]
        packed = pack_positions(np.array(positions, dtype=np.int64))
        # LEB128 by hand: seven bits per byte, low bits first, the high bit on every byte but the last
        by_hand = bytearray()
        for gap in gaps:
            while gap >= 0x80:
                by_hand.append(gap & 0x7F | 0x80)
                gap >>= 7
            by_hand.append(gap)
        assert packed == bytes(by_hand)
        assert unpack_positions([packed])[0].tolist() == positions
        strings.append(packed)
        expected.append(positions)
    flat, counts = unpack_positions(strings)
    assert counts.tolist() == [len(p) for p in expected]
    assert flat.tolist() == [p for positions in expected for p in positions]


def test_packed_positions_refuse_what_they_cannot_hold():
    for positions in ([3, 3], [5, 2], [-1]):
        with pytest.raises(ValueError, match="increase strictly"):
            pack_positions(np.array(positions))


def test_a_sparse_wide_graph_takes_about_a_byte_per_edge():
    graphs = random_graphs(19_900, 50, 7)  # 200 variables; up to 40 edges, about 500 pairs apart
    store = GraphStore(dict.fromkeys(graphs, 0.0))
    for stored, edges in zip(store._data, graphs.values(), strict=True):
        if not isinstance(stored, int):
            assert len(stored) <= 2 * len(edges)
    assert store.edge_counts().tolist() == [len(edges) for edges in graphs.values()]


def test_packed_positions_refuse_arrays_that_are_not_integer_positions():
    for positions in (np.array([0.5, 2.0]), np.array([[0, 1]])):
        with pytest.raises(TypeError, match="1-D array of integers"):
            pack_positions(positions)


def test_unpacking_refuses_strings_that_end_inside_a_gap_naming_the_string():
    good = pack_positions(np.array([3, 400]))
    for bad in (b"\x80", good + b"\x81", "0105"):
        with pytest.raises(ValueError, match=r"packed\[1\]"):
            unpack_positions([good, bad])


def test_the_kernel_stops_a_string_cut_inside_a_gap_without_reading_past_it():
    from pgmpy_sgm.core._gap_kernels import unpack_gaps

    raw = np.frombuffer(b"\x05\x80" + b"\x02", dtype=np.uint8)  # a gap of 5, a cut gap; then a string holding 2
    positions, counts = unpack_gaps(raw, np.array([2, 1]))
    assert positions.tolist() == [4, 1] and counts.tolist() == [1, 1]
