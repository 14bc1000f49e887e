"""The score engine: set terms, prior, unlabelled rule, shared caches and pickling."""

import math
import pickle
import random
from itertools import combinations

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.engine import LOG2, ScoreEngine, center_pair_bits, iter_bits
from pgmpy_sgm.core.moves import DecomposableState, key_from_edges
from pgmpy_sgm.core.optimize import combine_centers


def _mixed_frame(n_rows=300, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n_rows)
    b = (a + rng.integers(0, 2, n_rows)) % 3
    c = np.where(a == 0, rng.integers(0, 2, n_rows), b % 2)
    d = rng.integers(0, 2, n_rows)
    e = (c + d + (rng.random(n_rows) < 0.2)) % 2
    f = rng.integers(0, 4, n_rows)
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d, "e": e, "f": f})


def _brute_set_term(frame, columns, cards):
    """``lgamma(K) - lgamma(n + K) + sum_cells lgamma(n_cell + 1)`` from pandas group counts."""
    n = len(frame)
    k = math.prod(cards[c] for c in columns)
    cells = frame.groupby(list(columns)).size().to_numpy() if columns else np.array([n])
    return math.lgamma(k) - math.lgamma(n + k) + sum(math.lgamma(x + 1) for x in cells)


@pytest.fixture(scope="module")
def frame():
    return _mixed_frame()


@pytest.fixture(scope="module")
def engine(frame):
    return ScoreEngine(EncodedData(frame))


def test_set_terms_equal_the_dirichlet_formula(frame, engine):
    cards = {c: frame[c].nunique() for c in frame.columns}
    for size in range(1, 5):
        for columns in combinations(frame.columns, size):
            mask = engine.mask(columns)
            assert engine.set_term(mask) == pytest.approx(_brute_set_term(frame, columns, cards), abs=1e-9, rel=0)
    assert engine.set_term(0) == 0.0


def test_set_terms_are_cached_once(engine):
    mask = engine.mask(["a", "b", "c"])
    first = engine.set_term(mask)
    assert engine._d[mask] is first and engine.set_term(mask) is first


def test_size_terms_and_prior(frame, engine):
    cards = [frame[c].nunique() for c in frame.columns]
    for mask in range(1, 1 << engine.n):
        assert engine.size_term(mask) == math.prod(cards[i] for i in iter_bits(mask)) - 1
    assert engine.prior_weight == LOG2
    for f in (0, 5, 6, 40):
        assert engine.log_prior(f) == pytest.approx((6 - f) * math.log(2), abs=1e-12)
    flat = ScoreEngine(engine.encoded, prior="uniform")
    assert flat.log_prior(40) == 0.0


def _junction_tree_free_parameters(graph, cards):
    """f(G) from a maximum-weight spanning tree of the clique graph (networkx): cliques minus separators."""
    cliques = [frozenset(c) for c in nx.find_cliques(graph)]
    clique_graph = nx.Graph()
    clique_graph.add_nodes_from(range(len(cliques)))
    for a, b in combinations(range(len(cliques)), 2):
        clique_graph.add_edge(a, b, weight=len(cliques[a] & cliques[b]))
    tree = nx.maximum_spanning_tree(clique_graph)
    total = sum(math.prod(cards[v] for v in c) - 1 for c in cliques)
    for a, b in tree.edges():
        total -= math.prod(cards[v] for v in cliques[a] & cliques[b]) - 1
    return total


def test_free_parameters_and_prior_of_states_match_networkx(frame, engine):
    cards = {i: frame[c].nunique() for i, c in enumerate(frame.columns)}
    rng = random.Random(3)
    for _ in range(30):
        graph = _random_chordal(rng, engine.n)
        state = DecomposableState(engine, key_from_edges(engine, graph.edges()), strata=False)
        assert state.f == _junction_tree_free_parameters(graph, cards)
        assert state.score - state.log_marginal_likelihood == pytest.approx((6 - state.f) * math.log(2), abs=1e-9)


def test_unlabelled_rule():
    # x3 copies x0 when x1 = x2 = 0 and is independent of it otherwise: a strong context-specific effect
    rng = np.random.default_rng(1)
    n = 2000
    x = rng.integers(0, 2, size=(n, 4))
    copy = (x[:, 1] == 0) & (x[:, 2] == 0)
    x[copy, 3] = x[copy, 0]
    frame = pd.DataFrame(x, columns=["x0", "x1", "x2", "x3"])
    encoded = EncodedData(frame)
    for max_labelled, labelled_sizes in ((3, {3}), (4, {3, 4}), (5, {3, 4})):
        engine = ScoreEngine(encoded, max_labelled_clique=max_labelled)
        for mask in range(1, 16):
            size = mask.bit_count()
            assert engine.labelable(mask) == (size in labelled_sizes)
            best = engine.labelling(mask, 0)
            if size not in labelled_sizes:
                assert best.center is None and best.gain == 0.0 and best.method == "unlabelled"
                assert engine.gain(mask, 0) == 0.0
        assert (engine.gain(0b1111, 0) > 0) == (4 in labelled_sizes)


def test_settings_are_checked(engine):
    with pytest.raises(ValueError, match="prior must be one of"):
        ScoreEngine(engine.encoded, prior="flat")
    with pytest.raises(ValueError, match="max_labelled_clique must be an integer >= 2. Got: 1"):
        ScoreEngine(engine.encoded, max_labelled_clique=1)
    with pytest.raises(TypeError, match="encoded must be an EncodedData"):
        ScoreEngine(pd.DataFrame({"a": [0, 1]}))
    with pytest.raises(ValueError, match="'z' is not a column"):
        engine.mask(["a", "z"])
    with pytest.raises(ValueError, match="self-loop"):
        engine.key([("a", "a")])


def test_one_cache_shared_by_the_score_and_the_states(heart_counts):
    score = SGMScore(heart_counts, weights="count")
    engine = score.engine
    edges = [("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"), ("systolic_bp", "lipoprotein_ratio")]
    best = score.best_clique_labelling(("smoking", "systolic_bp", "lipoprotein_ratio"))
    state = DecomposableState(engine, engine.key(edges))
    assert state.engine is engine and state.tables is engine
    clique = engine.mask(["smoking", "systolic_bp", "lipoprotein_ratio"])
    assert engine.labelling(clique, state.forbidden(clique)) is best
    assert state.gains[clique] == best.gain > 0
    before = len(engine._d)
    score.score(score.optimal_strata(edges))  # every term is already in the engine's cache
    assert len(engine._d) == before


def test_pickle_holds_data_and_settings_only(engine):
    fresh = pickle.dumps(engine)
    for mask in range(1, 1 << engine.n):
        engine.set_term(mask)
    engine.labelling(engine.mask(["a", "b", "c"]), 0)
    used = pickle.dumps(engine)
    assert len(used) == len(fresh)  # no caches travel
    codes = engine.encoded.codes
    assert len(used) < codes.nbytes + engine.encoded.weights.nbytes + 5000
    copy = pickle.loads(used)
    assert copy.variables == engine.variables and copy.cards == engine.cards
    assert copy.prior == engine.prior and copy.max_labelled_clique == engine.max_labelled_clique
    assert copy.fingerprint == engine.fingerprint
    for mask in (1, 0b111, 0b101010, (1 << engine.n) - 1):
        assert copy.set_term(mask) == engine.set_term(mask)
    assert copy.labelling(engine.mask(["a", "b", "c"]), 0) == engine.labelling(engine.mask(["a", "b", "c"]), 0)


def test_labellings_travel_between_copies(engine):
    worker = pickle.loads(pickle.dumps(engine))
    worker.take_fresh()
    clique = engine.mask(["b", "c", "e"])
    forbidden = 1 << engine.pair_index[1][2]
    worker.labelling(clique, forbidden)
    main = pickle.loads(pickle.dumps(engine))
    main.absorb(worker.take_fresh())
    assert main.labelling(clique, forbidden) == worker.labelling(clique, forbidden)
    assert main.take_fresh() == {}  # nothing recomputed


def _random_chordal(rng, n):
    """A random chordal graph on ``0 .. n-1``: a random graph completed by networkx's own triangulation."""
    graph = nx.gnp_random_graph(n, rng.choice([0.2, 0.4, 0.6]), seed=rng.randrange(10**6))
    chordal, _ = nx.complete_to_chordal_graph(graph)
    out = nx.Graph()
    out.add_nodes_from(range(n))
    out.add_edges_from(chordal.edges())
    return out


@pytest.mark.parametrize("seed", [0, 1])
def test_state_score_equals_sgmscore_of_optimal_strata(seed):
    frame = _mixed_frame(400, seed=seed)
    score = SGMScore(frame, max_labelled_clique=4)
    engine = score.engine
    rng = random.Random(seed)
    for _ in range(15):
        graph = _random_chordal(rng, engine.n)
        names = [(engine.variables[i], engine.variables[j]) for i, j in graph.edges()]
        state = DecomposableState(engine, engine.key(names))
        expected = score.score(score.optimal_strata(names))
        assert state.score == pytest.approx(expected, abs=1e-9, rel=0)
        plain = DecomposableState(engine, engine.key(names), strata=False)
        assert plain.score == pytest.approx(score.score(names), abs=1e-9, rel=0)


def test_fast_label_method_gives_lower_bounds_kept_apart_and_pickled():
    from pathlib import Path

    table = pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "mass_housing.csv", comment="#")
    engine = ScoreEngine(EncodedData(table, weights="Freq"))
    clique = engine.mask(["Sat", "Infl", "Type", "Cont"])
    auto = engine.gain(clique, 0)
    engine.label_method = "fast"
    fast = engine.gain(clique, 0)
    # the whole clique's best gain is 40.544 (center Infl, brute force in test_optimize)
    assert auto == pytest.approx(40.544, abs=1e-3)
    assert fast <= auto + 1e-9
    assert engine.labelling(clique, 0, "auto").gain == auto  # cached apart
    copy = pickle.loads(pickle.dumps(engine))
    assert copy.label_method == "fast" and copy.gain(clique, 0) == fast


def test_center_pair_bits_number_each_centers_pairs_as_clique_pairs_does(engine):
    for size in range(2, engine.n + 1):
        bits = center_pair_bits(size)
        for nodes in combinations(range(engine.n), size):
            pairs = engine.clique_pairs(sum(1 << v for v in nodes))
            for c, center in enumerate(nodes):
                others = [u for u in nodes if u != center]
                assert [pairs[k] for k in bits[c]] == [engine.pair_index[center][u] for u in others]


def test_local_labelling_equals_the_labelling_read_from_the_wide_mask(frame):
    """Flags read pair by pair from a mask over every pair (pairs outside the clique set too) give the same optimum."""
    engine, fresh = ScoreEngine(EncodedData(frame)), ScoreEngine(EncodedData(frame))
    rng = random.Random(3)
    n_pairs = len(engine.pairs)
    for _ in range(120):
        nodes = sorted(rng.sample(range(engine.n), rng.choice([3, 4, 5])))
        clique = sum(1 << v for v in nodes)
        forbidden = rng.getrandbits(n_pairs)
        local = engine.local_forbidden(clique, forbidden)
        got = engine.local_labelling(clique, local)
        candidates = []
        for c, center in enumerate(nodes):
            flags = tuple(bool(forbidden >> engine.pair_index[center][u] & 1) for u in nodes if u != center)
            res, base = fresh._center_groups(clique, c, flags, "auto")
            candidates.append((c, res, res.value - base))
        expected = combine_centers(candidates)
        assert (got.center, got.gain) == (expected.center, expected.gain)
        assert np.array_equal(got.group_ids, expected.group_ids)
        assert engine.labelling(clique, forbidden) is got
        assert engine.local_gain(clique, local) == engine.gain(clique, forbidden)


def test_local_bits_and_sizes_that_are_not_a_cliques_are_refused(engine):
    clique = 0b111  # three pairs: local bits below 8
    for local in (-1, 8, 1.0, True):
        with pytest.raises(ValueError, match="own pairs"):
            engine.local_labelling(clique, local)
    for size in (0, -2, 2.0, True):
        with pytest.raises(ValueError, match="positive int"):
            center_pair_bits(size)


def test_forbidden_mask_of_a_state_is_its_separator_pairs(heart_counts):
    engine = SGMScore(heart_counts, weights="count").engine
    edges = [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (3, 4)]
    state = DecomposableState(engine, key_from_edges(engine, edges))
    for clique in state.cliques:
        shared = {p for other in state.cliques if other != clique for p in engine.clique_pairs(other & clique)
                  if (other & clique).bit_count() >= 2}  # fmt: skip
        assert state.forbidden(clique) == sum(1 << p for p in shared)


@pytest.mark.parametrize("seed", range(4))
def test_compiled_center_optima_equal_the_checked_search(seed):
    """The engine's compiled exact path finds optimal_groups' groups, and gains within 1e-9 of group_weights'."""
    from itertools import product

    from pgmpy_sgm.core.lines import group_weights
    from pgmpy_sgm.core.optimize import optimal_groups

    rng = np.random.default_rng(seed)
    d = 3 + seed % 3
    cards = [2] * d if seed % 2 == 0 else [int(k) for k in rng.integers(2, 4, size=d)]
    n = 400
    frame = pd.DataFrame({f"v{i}": rng.integers(0, k, size=n) for i, k in enumerate(cards)})
    frame["v1"] = (frame["v0"] + (rng.random(n) < 0.15)) % cards[1]  # a dependence worth labelling
    engine = ScoreEngine(EncodedData(frame))
    clique = (1 << d) - 1
    table = engine.encoded.counts(engine.names(clique))
    for center in range(d):
        counts = np.moveaxis(np.asarray(table, dtype=float), center, -1).reshape(-1, cards[center])
        parents = tuple(k for u, k in enumerate(cards) if u != center)
        for flags in product([False, True], repeat=d - 1):
            found, unlabelled = engine._center_groups(clique, center, flags, "fast")
            checked = optimal_groups(counts, parents, list(flags), method="fast")
            assert found.group_ids.tolist() == checked.group_ids.tolist()
            gain = checked.value - group_weights(counts, np.arange(len(counts)))
            assert found.value - unlabelled == pytest.approx(gain, abs=1e-9)
            assert found.exact == checked.exact and found.method == checked.method
