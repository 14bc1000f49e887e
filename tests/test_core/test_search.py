"""Informed search moves: the exact best forest, proposal weights, steepest ascent and relocations."""

import itertools
import math
import random

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore
from pgmpy_sgm.core.moves import DecomposableState, key_from_edges
from pgmpy_sgm.core.search import (
    best_forest_key,
    climbed_start_key,
    clique_partners,
    clique_sweep,
    difference_parts,
    greedy_climb,
    insert_clique,
    pair_gains,
    pair_proposal_weights,
    polish,
    recombine,
    relocate,
    relocate_into,
    relocation_sweep,
    steepest_ascent,
    triple_partners,
    triple_sweep,
)


@pytest.fixture(scope="module")
def heart_scorer(heart_counts):
    return SGMScore(heart_counts, weights="count")


@pytest.fixture(scope="module")
def heart_tables(heart_scorer):
    return heart_scorer.engine


@pytest.fixture(scope="module")
def mixed_frame():
    rng = np.random.default_rng(7)
    n = 300
    a = rng.integers(0, 3, n)
    b = (a + (rng.random(n) < 0.3)) % 3
    c = (b + rng.integers(0, 2, n)) % 2
    d = np.where(c == 1, a % 2, rng.integers(0, 2, n))
    e = rng.integers(0, 2, n)
    f = (d + (rng.random(n) < 0.2)) % 2
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d, "e": e, "f": f})


@pytest.fixture(scope="module")
def mixed_scorer(mixed_frame):
    return SGMScore(mixed_frame)


@pytest.fixture(scope="module")
def mixed_tables(mixed_scorer):
    return mixed_scorer.engine


def _reference_score(scorer, key):
    tables = scorer.engine
    names = tables.variables
    edges = [(names[i], names[j]) for i, j in DecomposableState(tables, key).edges()]
    graph = nx.Graph(edges)
    graph.add_nodes_from(names)
    return scorer.score(scorer.optimal_strata(graph))


def _random_state(tables, rnd, n_toggles):
    """A random chordal graph reached by random valid toggles from the empty graph."""
    state = DecomposableState(tables)
    for _ in range(n_toggles):
        move = state.propose(*rnd.sample(range(tables.n), 2))
        if move is not None:
            state.commit(move)
    return state


def test_pair_gains_match_single_edge_scores(mixed_tables, mixed_scorer):
    gains = pair_gains(mixed_tables)
    empty = _reference_score(mixed_scorer, 0)
    for p in range(len(mixed_tables.pairs)):
        assert gains[p] == pytest.approx(_reference_score(mixed_scorer, 1 << p) - empty, rel=1e-12, abs=1e-9)


def _dirichlet(frame, columns, weights, cards):
    """log marginal likelihood of a saturated table over ``columns``, Dirichlet(1, ..., 1) (DESIGN.md, section 2)."""
    k = math.prod(cards[c] for c in columns)
    counts = weights.groupby([frame[c] for c in columns]).sum().to_numpy() if columns else np.array([weights.sum()])
    n = counts.sum()
    return math.lgamma(k) - math.lgamma(n + k) + sum(math.lgamma(x + 1) for x in counts)


def _brute_force_best_forest(frame, weights):
    """Best forest by enumeration, scored with the independent formulas (a forest has no labels)."""
    names = list(frame.columns)
    cards = {c: frame[c].nunique() for c in names}
    node = {c: _dirichlet(frame, [c], weights, cards) for c in names}
    pairs = list(itertools.combinations(range(len(names)), 2))
    edge = {p: _dirichlet(frame, [names[p[0]], names[p[1]]], weights, cards) - node[names[p[0]]] - node[names[p[1]]]
            for p in pairs}  # fmt: skip
    best = -np.inf
    for r in range(len(names)):  # a forest on d nodes has at most d - 1 edges
        for chosen in itertools.combinations(pairs, r):
            graph = nx.Graph(chosen)
            graph.add_nodes_from(range(len(names)))
            if not nx.is_forest(graph):
                continue
            f = sum(cards[c] - 1 for c in names) + sum((cards[names[i]] - 1) * (cards[names[j]] - 1) for i, j in chosen)
            score = sum(node.values()) + sum(edge[p] for p in chosen) + (len(names) - f) * math.log(2)
            best = max(best, score)
    return best


def test_best_forest_is_the_best_of_all_forests(heart_counts, heart_tables, heart_scorer, mixed_frame, mixed_scorer):
    mixed_tables = mixed_scorer.engine
    frame = heart_counts.drop(columns="count")
    expected = _brute_force_best_forest(frame, heart_counts["count"].astype(float))
    assert _reference_score(heart_scorer, best_forest_key(heart_tables)) == pytest.approx(expected, rel=1e-12)
    expected = _brute_force_best_forest(mixed_frame, pd.Series(np.ones(len(mixed_frame)), index=mixed_frame.index))
    key = best_forest_key(mixed_tables)
    forest = nx.Graph(DecomposableState(mixed_tables, key).edges())
    forest.add_nodes_from(range(mixed_tables.n))
    assert nx.is_forest(forest)
    assert _reference_score(mixed_scorer, key) == pytest.approx(expected, rel=1e-12)


def test_proposal_weights_keep_every_pair_reachable():
    weights = pair_proposal_weights(np.array([3.0, -1.0, 0.0, 2.0, -5.0]), uniform_share=0.1)
    assert weights.sum() == pytest.approx(1.0)
    assert (weights > 0).all()
    assert weights[0] == weights[3] > weights[1] == weights[2] == weights[4] == pytest.approx(0.02)
    assert pair_proposal_weights(np.array([-1.0, -2.0])).tolist() == [0.5, 0.5]


def test_steepest_ascent_ends_at_a_local_optimum(mixed_tables, mixed_scorer):
    state = DecomposableState(mixed_tables)
    before = state.score
    steepest_ascent(state)
    assert state.score >= before
    for i, j in mixed_tables.pairs:
        move = state.propose(i, j)
        assert move is None or move.score <= state.score + 1e-9
    assert state.score == pytest.approx(_reference_score(mixed_scorer, state.key), rel=1e-12)


def _is_chordal(state):
    graph = nx.Graph(state.edges())
    graph.add_nodes_from(range(state.tables.n))
    return nx.is_chordal(graph)


@pytest.mark.parametrize("strata", [True, False])
def test_greedy_climb_ends_at_a_local_optimum_with_an_exact_score(mixed_tables, mixed_scorer, strata):
    rnd = random.Random(5)
    for trial in range(6):
        state = DecomposableState(mixed_tables, strata=strata)
        for _ in range(trial * 2):  # random chordal starts
            move = state.propose(*rnd.sample(range(mixed_tables.n), 2))
            if move is not None:
                state.commit(move)
        before = state.score
        n_moves = greedy_climb(state)
        assert state.score >= before
        assert (n_moves > 0) == (state.score > before)
        assert _is_chordal(state)
        for i, j in mixed_tables.pairs:
            move = state.propose(i, j)
            assert move is None or move.score <= state.score + 1e-9
        fresh = DecomposableState(mixed_tables, state.key, strata=strata).score
        assert state.score == pytest.approx(fresh, rel=0, abs=1e-9)
        if strata:
            assert state.score == pytest.approx(_reference_score(mixed_scorer, state.key), rel=1e-12)


def test_greedy_climb_only_toggles_its_candidate_pairs(mixed_tables):
    state = DecomposableState(mixed_tables)
    candidates = [(0, 1), (1, 2), (0, 2), (3, 5)]
    greedy_climb(state, candidates)
    assert set(state.edges()) <= set(candidates)
    for i, j in candidates:
        move = state.propose(i, j)
        assert move is None or move.score <= state.score + 1e-9


def test_climbed_start_reaches_the_paper_optimum(heart_tables):
    # Nyman et al., Section 5: the best stratified graph scores -6715.90 (DESIGN.md, section 3)
    state = DecomposableState(heart_tables, climbed_start_key(heart_tables))
    assert state.edges() == [(0, 2), (0, 3), (0, 4), (1, 2), (2, 4), (3, 4)]
    assert round(state.score, 2) == -6715.90


def test_climbed_start_is_a_local_optimum_for_relocations(mixed_tables):
    state = DecomposableState(mixed_tables, climbed_start_key(mixed_tables))
    assert _is_chordal(state)
    for node in range(mixed_tables.n):
        new = relocate(state, node)
        assert new is None or new.score <= state.score + 1e-9


def test_relocation_gives_a_decomposable_graph_with_an_exact_score(mixed_tables, mixed_scorer):
    rnd = random.Random(3)
    for _ in range(30):
        state = _random_state(mixed_tables, rnd, 12)
        key = state.key
        node = rnd.randrange(mixed_tables.n)
        new = relocate(state, node)
        assert state.key == key  # the input state is not changed
        assert new is not None
        graph = nx.Graph(new.edges())
        graph.add_nodes_from(range(mixed_tables.n))
        assert nx.is_chordal(graph)
        assert new.score == pytest.approx(_reference_score(mixed_scorer, new.key), rel=1e-12)
        # only pairs touching the node or its former neighbours changed
        touched = {node} | set(
            nx.Graph(DecomposableState(mixed_tables, key).edges()).neighbors(node)
            if node in nx.Graph(DecomposableState(mixed_tables, key).edges())
            else []
        )
        for p, (i, j) in enumerate(mixed_tables.pairs):
            if i not in touched and j not in touched:
                assert (key >> p & 1) == (new.key >> p & 1)


def test_relocation_moves_a_node_to_its_better_place(heart_tables):
    wrong = DecomposableState(heart_tables, key_from_edges(heart_tables, [(0, 1), (1, 5)]))
    better = relocate(wrong, 1)
    assert better.score > wrong.score
    assert not better.has_edge(1, 5)


def test_bad_arguments_name_the_value(heart_tables):
    with pytest.raises(ValueError, match=r"uniform_share must be a probability in \[0, 1\]\. Got: 1\.5"):
        pair_proposal_weights(np.array([1.0, -1.0]), uniform_share=1.5)
    with pytest.raises(ValueError, match=r"node must be a variable index in 0\.\.5\. Got: 6"):
        relocate(DecomposableState(heart_tables), 6)


# ---------------------------------------------------------------- clique insertions


@pytest.fixture(scope="module")
def xor_frame():
    """z is x XOR y (10% noise), x and y independent, w noise: every single edge alone lowers the score."""
    rng = np.random.default_rng(11)
    n = 2000
    x = rng.integers(0, 2, n)
    y = rng.integers(0, 2, n)
    z = (x ^ y) ^ (rng.random(n) < 0.1)
    w = rng.integers(0, 2, n)
    return pd.DataFrame({"w": w, "x": x, "y": y, "z": z})


def _brute_force_best(scorer):
    """The best score over every chordal graph on the scorer's variables (reference scores)."""
    tables = scorer.engine
    best = -math.inf
    for mask in range(1 << len(tables.pairs)):
        edges = [tables.pairs[p] for p in range(len(tables.pairs)) if mask >> p & 1]
        graph = nx.Graph(edges)
        graph.add_nodes_from(range(tables.n))
        if nx.is_chordal(graph):
            best = max(best, _reference_score(scorer, key_from_edges(tables, edges)))
    return best


def test_clique_partners_are_the_largest_pair_gains(mixed_tables, mixed_scorer):
    empty = _reference_score(mixed_scorer, 0)
    gain = {}
    for i, j in itertools.combinations(range(mixed_tables.n), 2):
        gain[i, j] = gain[j, i] = _reference_score(mixed_scorer, key_from_edges(mixed_tables, [(i, j)])) - empty
    partners = clique_partners(mixed_tables, pair_gains(mixed_tables), top=3)
    for v in range(mixed_tables.n):
        want = sorted((u for u in range(mixed_tables.n) if u != v), key=lambda u: (-gain[v, u], u))[:3]
        assert list(partners[v]) == want


def test_clique_insertion_gives_a_decomposable_graph_with_an_exact_score(mixed_tables, mixed_scorer):
    rnd = random.Random(5)
    n_done = 0
    for _ in range(40):
        state = _random_state(mixed_tables, rnd, 8)
        key = state.key
        members = rnd.sample(range(mixed_tables.n), rnd.choice([2, 3, 4]))
        new = insert_clique(state, members)
        assert state.key == key  # the input state is not changed
        joined = nx.Graph(state.edges())
        joined.add_nodes_from(range(mixed_tables.n))
        joined.add_edges_from(itertools.combinations(members, 2))
        if nx.is_chordal(joined) and joined.number_of_edges() > len(state.edges()):
            assert new is not None
            graph = nx.Graph(new.edges())
            graph.add_nodes_from(range(mixed_tables.n))
            assert nx.is_chordal(graph)
            assert new.score == pytest.approx(_reference_score(mixed_scorer, new.key), rel=1e-12)
            for p, (i, j) in enumerate(mixed_tables.pairs):  # only pairs touching the members changed
                if i not in members and j not in members:
                    assert (key >> p & 1) == (new.key >> p & 1)
            n_done += 1
        else:
            assert new is None
    assert n_done >= 10


def test_clique_insertion_refuses_a_non_decomposable_result(heart_tables):
    path = DecomposableState(heart_tables, key_from_edges(heart_tables, [(0, 1), (1, 2), (2, 3)]))
    assert insert_clique(path, [0, 3]) is None  # the 4-cycle 0-1-2-3
    assert insert_clique(path, [1, 2]) is None  # already a clique
    with pytest.raises(ValueError, match=r"variable indices in 0\.\.5\. Got: 9"):
        insert_clique(path, [0, 9])


def test_clique_insertion_builds_a_v_structure_that_single_toggles_cannot(xor_frame):
    scorer = SGMScore(xor_frame)
    tables = scorer.engine
    empty = DecomposableState(tables)
    assert greedy_climb(DecomposableState(tables)) == 0  # every single edge lowers the score
    assert relocation_sweep(empty).key == empty.key
    swept = clique_sweep(empty, clique_partners(tables, pair_gains(tables)))
    x, y, z = (tables.variables.index(c) for c in "xyz")
    assert all(swept.has_edge(a, b) for a, b in [(x, y), (x, z), (y, z)])
    best = _brute_force_best(scorer)
    assert swept.score == pytest.approx(best, rel=1e-12)
    assert polish(empty, clique_partners(tables, pair_gains(tables))).score == pytest.approx(best, rel=1e-12)
    assert polish(empty).score < best - 10  # relocations alone stay at the empty graph


def test_clique_arguments_name_the_value(heart_tables):
    with pytest.raises(ValueError, match=r"top must be a non-negative integer\. Got: -1"):
        clique_partners(heart_tables, pair_gains(heart_tables), top=-1)
    with pytest.raises(ValueError, match=r"one value per pair \(15\)"):
        clique_partners(heart_tables, np.zeros(3))
    with pytest.raises(ValueError, match=r"one sequence per variable \(6\)\. Got 2"):
        clique_sweep(DecomposableState(heart_tables), [(1,), (0,)])


def _random_chordal_key(tables, rnd, n_tries):
    state = DecomposableState(tables)
    for _ in range(n_tries):
        move = state.propose(*rnd.sample(range(tables.n), 2))
        if move is not None:
            state.commit(move)
    return state.key


def test_a_part_imported_toggle_by_toggle_is_the_state_changed_state_gives(mixed_tables):
    from pgmpy_sgm.core.search import _imported, changed_state

    rnd = random.Random(17)
    compared = decomposable = 0
    for _ in range(40):
        state, donor = _random_state(mixed_tables, rnd, 10), _random_state(mixed_tables, rnd, 10)
        differing = [p for p in range(len(mixed_tables.pairs)) if (state.key ^ donor.key) >> p & 1]
        for _ in range(4):  # random sets of the differing pairs: some decomposable, some not
            part = rnd.sample(differing, rnd.randint(1, len(differing))) if differing else []
            mask = sum(1 << p for p in part)
            expected = changed_state(state, (state.key & ~mask) | (donor.key & mask))
            got = _imported(state, donor.key, part)
            compared += 1
            if expected is None:
                assert got is None
            else:
                decomposable += 1
                assert (got.key, got.score, got.f) == (expected.key, expected.score, expected.f)
    assert decomposable > 20 and compared - decomposable > 5  # both outcomes were met


def test_difference_parts_are_the_components_of_the_differing_pairs(mixed_tables):
    rnd = random.Random(3)
    for _ in range(30):
        a, b = (_random_chordal_key(mixed_tables, rnd, 8) for _ in range(2))
        differing = [p for p in range(len(mixed_tables.pairs)) if (a ^ b) >> p & 1]
        graph = nx.Graph(mixed_tables.pairs[p] for p in differing)
        want = sorted(
            sorted(p for p in differing if mixed_tables.pairs[p][0] in component)
            for component in nx.connected_components(graph)
        )
        assert sorted(sorted(part) for part in difference_parts(mixed_tables, a, b)) == want


def test_recombination_imports_only_differing_parts_with_an_exact_score(mixed_tables, mixed_scorer):
    rnd = random.Random(9)
    n_improved = 0
    for _ in range(25):
        state = DecomposableState(mixed_tables, _random_chordal_key(mixed_tables, rnd, 6))
        donor = _random_chordal_key(mixed_tables, rnd, 6)
        key = state.key
        visited = {}
        new = recombine(state, donor, visited)
        assert state.key == key  # the input state is not changed
        assert _is_chordal(new)
        assert new.score >= state.score
        assert new.score == pytest.approx(_reference_score(mixed_scorer, new.key), rel=1e-12)
        for p in range(len(mixed_tables.pairs)):  # every pair is as in one of the two graphs
            assert (new.key >> p & 1) in {key >> p & 1, donor >> p & 1}
        parts = difference_parts(mixed_tables, new.key, donor)
        for chosen in [*([p] for p in parts), *itertools.combinations(parts, 2)]:  # nothing left to import
            mask = sum(1 << p for part in chosen for p in part)
            other = (new.key & ~mask) | (donor & mask)
            graph = nx.Graph(mixed_tables.pairs[p] for p in range(len(mixed_tables.pairs)) if other >> p & 1)
            graph.add_nodes_from(range(mixed_tables.n))
            if nx.is_chordal(graph):
                assert _reference_score(mixed_scorer, other) <= new.score + 1e-9
        if new.key != key:
            n_improved += 1
            assert visited[new.key] == new.score
    assert n_improved >= 5


def test_recombination_joins_two_optima_better_in_different_regions():
    """Two independent blocks: each graph has one block right; the recombination has both, as brute force."""
    rng = np.random.default_rng(4)
    n = 1500
    a = rng.integers(0, 2, n)
    b = a ^ (rng.random(n) < 0.1)
    c = rng.integers(0, 2, n)
    d = c ^ (rng.random(n) < 0.1)
    scorer = SGMScore(pd.DataFrame({"a": a, "b": b, "c": c, "d": d}))
    tables = scorer.engine
    left = DecomposableState(tables, key_from_edges(tables, [(0, 1)]))
    right = DecomposableState(tables, key_from_edges(tables, [(2, 3)]))
    both = recombine(left, right.key)
    assert both.score > max(left.score, right.score) + 10
    assert both.score == pytest.approx(_brute_force_best(scorer), rel=1e-12)
    assert recombine(both, left.key).key == both.key  # nothing better to import


def test_recombination_imports_two_parts_that_are_decomposable_only_together():
    """Parts share no node, but a chordless cycle through both can tie them: some imports need both at once."""
    rng = np.random.default_rng(0)
    n, n_vars = 300, 10
    x = np.zeros((n, n_vars), dtype=np.int64)
    x[:, 0] = rng.integers(0, 2, n)
    for v in range(1, n_vars):
        x[:, v] = np.where(rng.random(n) < 0.7, x[:, rng.integers(v)], rng.integers(0, 2, n))
    tables = SGMScore(pd.DataFrame(x, columns=[f"v{i}" for i in range(n_vars)])).engine
    rnd = random.Random(0)

    def walk(key, n_tries):
        state = DecomposableState(tables, key)
        for _ in range(n_tries):
            move = state.propose(*rnd.sample(range(n_vars), 2))
            if move is not None:
                state.commit(move)
        return state.key

    def with_parts(key, donor, chosen):
        mask = sum(1 << p for part in chosen for p in part)
        other = (key & ~mask) | (donor & mask)
        graph = nx.Graph(tables.pairs[p] for p in range(len(tables.pairs)) if other >> p & 1)
        graph.add_nodes_from(range(n_vars))
        return DecomposableState(tables, other) if nx.is_chordal(graph) else None

    n_needed_pairs = 0
    for _ in range(60):
        base = walk(0, 3 * n_vars)
        start = DecomposableState(tables, walk(base, 4))
        donor = walk(base, 4)
        new = recombine(start, donor)
        parts = difference_parts(tables, new.key, donor)
        for chosen in [*([p] for p in parts), *itertools.combinations(parts, 2)]:
            other = with_parts(new.key, donor, chosen)
            assert other is None or other.score <= new.score + 1e-9
        singles = [with_parts(start.key, donor, [part]) for part in difference_parts(tables, start.key, donor)]
        if new.score > start.score + 1e-9 and all(s is None or s.score <= start.score + 1e-9 for s in singles):
            n_needed_pairs += 1  # no single part raised the score, two together did
    assert n_needed_pairs >= 1


def test_recombination_arguments_name_the_value(heart_tables):
    state = DecomposableState(heart_tables, key_from_edges(heart_tables, [(0, 1)]))
    with pytest.raises(ValueError, match=r"donor must be a graph key: an integer bitmask over the 15 pairs.*Got: -1"):
        recombine(state, -1)
    with pytest.raises(ValueError, match=r"donor must be a graph key.*Got: 32768"):
        recombine(state, 1 << 15)
    with pytest.raises(ValueError, match=r"other must be a graph key.*Got: '3'"):
        difference_parts(heart_tables, 0, "3")


def _set_term(frame: pd.DataFrame, columns: list) -> float:
    """log marginal likelihood of the joint table of ``columns`` with 1 per cell (from the counts)."""
    cells = math.prod(frame[c].nunique() for c in columns)
    counts = frame.groupby(columns).size().to_numpy()
    return math.lgamma(cells) - math.lgamma(len(frame) + cells) + sum(math.lgamma(k + 1) for k in counts)


def test_triple_partners_are_the_largest_positive_interactions(mixed_frame, mixed_tables):
    names = mixed_tables.variables
    d = {}
    for size in (1, 2, 3):
        for subset in itertools.combinations(range(len(names)), size):
            d[frozenset(subset)] = _set_term(mixed_frame, [names[i] for i in subset])

    def interaction(v, a, b):
        paths = [d[frozenset((x, y))] + d[frozenset((y, z))] - d[frozenset((y,))]
                 for x, y, z in ((a, v, b), (v, a, b), (v, b, a))]  # fmt: skip
        return d[frozenset((v, a, b))] - max(paths)

    triples = triple_partners(mixed_tables, pair_gains(mixed_tables), pool=5, top=2)
    for v in range(len(names)):
        others = [u for u in range(len(names)) if u != v]
        ranked = sorted(((-interaction(v, a, b), (a, b)) for a, b in itertools.combinations(others, 2)))
        want = [pair for neg, pair in ranked[:2] if neg < 0]
        assert list(triples[v]) == want


def test_relocating_insertion_gives_a_decomposable_graph_with_an_exact_score(mixed_tables, mixed_scorer):
    rnd = random.Random(9)
    n_done = 0
    for _ in range(30):
        state = _random_state(mixed_tables, rnd, 10)
        key = state.key
        node, a, b = rnd.sample(range(mixed_tables.n), 3)
        old_neighbours = {u for u in range(mixed_tables.n) if state.has_edge(node, u)}
        new = relocate_into(state, node, (a, b))
        assert state.key == key
        if new is None:
            continue
        graph = nx.Graph(new.edges())
        graph.add_nodes_from(range(mixed_tables.n))
        assert nx.is_chordal(graph)
        assert new.score == pytest.approx(_reference_score(mixed_scorer, new.key), rel=1e-12)
        touched = {node, a, b} | old_neighbours
        for p, (i, j) in enumerate(mixed_tables.pairs):
            if i not in touched and j not in touched:
                assert (key >> p & 1) == (new.key >> p & 1)
        n_done += 1
    assert n_done >= 20


def test_triple_sweep_moves_a_node_into_its_three_way_family(xor_frame):
    # z = x XOR y: z is independent of x and of y pair by pair; start with z tied to the noise w
    scorer = SGMScore(xor_frame)
    tables = scorer.engine
    w, x, y, z = (tables.variables.index(c) for c in "wxyz")
    start = DecomposableState(tables, key_from_edges(tables, [(min(w, z), max(w, z))]))
    triples = triple_partners(tables, pair_gains(tables))
    assert (min(x, y), max(x, y)) in triples[z]
    swept = triple_sweep(start, triples)
    best = _brute_force_best(scorer)
    assert all(swept.has_edge(a, b) for a, b in [(x, y), (x, z), (y, z)]) and not swept.has_edge(w, z)
    assert swept.score == pytest.approx(best, rel=1e-12)
    assert polish(start, triples=triples).score == pytest.approx(best, rel=1e-12)
    assert polish(start).score < best - 10  # relocations alone do not build the triangle


def test_triple_arguments_name_the_value(heart_tables):
    with pytest.raises(ValueError, match=r"pool must be a non-negative integer\. Got: -1"):
        triple_partners(heart_tables, pair_gains(heart_tables), pool=-1)
    with pytest.raises(ValueError, match=r"one sequence per variable \(6\)"):
        triple_sweep(DecomposableState(heart_tables), [()])
    with pytest.raises(ValueError, match=r"variable indices in 0\.\.5\. Got: 7"):
        relocate_into(DecomposableState(heart_tables), 0, (1, 7))


def test_polish_computes_triples_only_when_a_sweep_needs_them(xor_frame):
    scorer = SGMScore(xor_frame)
    tables = scorer.engine
    w, z = (tables.variables.index(c) for c in "wz")
    start = DecomposableState(tables, key_from_edges(tables, [(min(w, z), max(w, z))]))
    calls = []

    def lazy():
        calls.append(1)
        return triple_partners(tables, pair_gains(tables))

    eager = polish(start, triples=triple_partners(tables, pair_gains(tables)))
    assert polish(start, triples=lazy).key == eager.key and calls == [1]
