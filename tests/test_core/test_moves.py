"""Local chordality decisions and the exact incremental score of decomposable graph moves."""

import functools
import math
import random
from itertools import combinations

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pgmpy_sgm import SGMScore, load_heart_disease, simulate_paper_synthetic
from pgmpy_sgm.core.moves import DecomposableState, chordal_families, component_masks, iter_bits
from pgmpy_sgm.core.optimize import optimal_clique_labelling


@pytest.fixture(scope="module")
def heart_scorer():
    return SGMScore(load_heart_disease(as_counts=True), weights="count")


@pytest.fixture(scope="module")
def heart_tables(heart_scorer):
    return heart_scorer.engine


@pytest.fixture(scope="module")
def ternary_scorer():
    rng = np.random.default_rng(3)
    n = 400
    a = rng.integers(0, 3, n)
    b = (a + rng.integers(0, 2, n)) % 3
    c = np.where(a == 0, rng.integers(0, 2, n), b % 2)
    d = rng.integers(0, 2, n)
    e = (c + d + (rng.random(n) < 0.2)) % 2
    frame = pd.DataFrame({"a": a, "b": b, "c": c, "d": d, "e": e})
    return SGMScore(frame)


def _nx_graph(state):
    g = nx.Graph()
    g.add_nodes_from(range(state.tables.n))
    g.add_edges_from(state.edges())
    return g


def _reference_score(state, scorer):
    names = scorer.variables
    edges = [(names[i], names[j]) for i, j in state.edges()]
    model = scorer.optimal_strata(edges) if state.strata else edges
    return scorer.score(model)


def _walk(tables, strata, n_steps, seed):
    rng = random.Random(seed)
    state = DecomposableState(tables, strata=strata)
    n_moves = 0
    for _ in range(n_steps):
        i, j = rng.sample(range(tables.n), 2)
        move = state.propose(i, j)
        toggled = _nx_graph(state)
        if toggled.has_edge(i, j):
            toggled.remove_edge(i, j)
        else:
            toggled.add_edge(i, j)
        assert (move is not None) == nx.is_chordal(toggled)
        if move is not None:
            state.commit(move)
            n_moves += 1
            yield state


@pytest.mark.parametrize("strata", [True, False])
def test_incremental_score_equals_full_rescoring_heart(heart_scorer, strata):
    scorer = heart_scorer
    heart_tables = scorer.engine
    n_checked = 0
    for state in _walk(heart_tables, strata, 300, seed=1):
        assert state.score == pytest.approx(_reference_score(state, scorer), abs=1e-9, rel=0)
        n_checked += 1
    assert n_checked > 50


def test_incremental_score_equals_full_rescoring_synthetic_and_ternary(ternary_scorer):
    for scorer in (SGMScore(simulate_paper_synthetic(3000, seed=5)), ternary_scorer):
        for state in _walk(scorer.engine, True, 250, seed=2):
            assert state.score == pytest.approx(_reference_score(state, scorer), abs=1e-9, rel=0)


def test_score_is_a_function_of_the_graph(heart_tables):
    """Rebuilding a state from its key gives bit-identical terms, gains and score."""
    for state in _walk(heart_tables, True, 200, seed=3):
        fresh = DecomposableState(heart_tables, state.key, strata=True)
        assert fresh.score == state.score
        assert fresh.terms == state.terms
        assert fresh.gains == state.gains
        assert fresh.f == state.f
        assert sorted(fresh._values) == sorted(state._values)  # kept up to date by commit, not rebuilt


def test_cliques_match_networkx(heart_tables):
    for state in _walk(heart_tables, True, 200, seed=4):
        expected = {sum(1 << v for v in c) for c in nx.find_cliques(_nx_graph(state))}
        assert set(state.cliques) == expected


def test_clique_index_follows_the_moves():
    """Each node's maximal cliques, kept up to date by commit, equal those of the graph (networkx)."""
    scorer = SGMScore(simulate_paper_synthetic(1000, seed=6))
    for strata in (True, False):
        for state in _walk(scorer.engine, strata, 300, seed=7):
            cliques = {sum(1 << v for v in c) for c in nx.find_cliques(_nx_graph(state))}
            for v in range(scorer.engine.n):
                assert state._node_cliques[v] == {c for c in cliques if c >> v & 1}
            assert state.score == pytest.approx(_reference_score(state, scorer), abs=1e-9, rel=0)


def test_copies_share_clique_sets_until_one_changes():
    """A copy and its original, each moved on, keep their own cliques per node (the sets are shared until written)."""
    scorer = SGMScore(simulate_paper_synthetic(1000, seed=6))
    rng = random.Random(11)
    states = [DecomposableState(scorer.engine)]
    for _ in range(400):
        state = rng.choice(states)
        if rng.random() < 0.1:
            states.append(state.copy())
            continue
        move = state.propose(*rng.sample(range(scorer.engine.n), 2))
        if move is not None:
            state.commit(move)
    assert len(states) > 10
    for state in states:
        cliques = {sum(1 << v for v in c) for c in nx.find_cliques(_nx_graph(state))}
        for v in range(scorer.engine.n):
            assert state._node_cliques[v] == {c for c in cliques if c >> v & 1}
        assert state.score == DecomposableState(scorer.engine, state.key).score


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=1, max_size=60))
def test_local_decisions_match_is_chordal(toggles):
    """Follow arbitrary toggles (keeping the chordal ones): every local decision equals nx.is_chordal."""
    tables = _eight_binary_tables()
    state = DecomposableState(tables, strata=False)
    for i, j in toggles:
        if i == j:
            continue
        g = _nx_graph(state)
        if g.has_edge(i, j):
            g.remove_edge(i, j)
        else:
            g.add_edge(i, j)
        move = state.propose(i, j)
        assert (move is not None) == nx.is_chordal(g)
        if move is not None:
            state.commit(move)


@functools.cache
def _eight_binary_tables():
    data = pd.DataFrame(np.random.default_rng(0).integers(0, 2, size=(50, 8)), columns=[f"v{i}" for i in range(8)])
    return SGMScore(data).engine


def test_chordal_families_on_all_graphs_of_five_nodes():
    pairs = list(combinations(range(5), 2))
    n_chordal = 0
    for mask in range(1 << len(pairs)):
        adj = [0] * 5
        g = nx.empty_graph(5)
        for p in iter_bits(mask):
            i, j = pairs[p]
            adj[i] |= 1 << j
            adj[j] |= 1 << i
            g.add_edge(i, j)
        families = chordal_families(adj)
        assert (families is not None) == nx.is_chordal(g)
        n_chordal += families is not None
    assert n_chordal == 822  # labelled chordal graphs on 5 nodes (OEIS A058862)


def test_rejects_non_chordal_key(heart_tables):
    cycle = [(0, 1), (1, 2), (2, 3), (0, 3)]
    key = sum(1 << heart_tables.pair_index[i][j] for i, j in cycle)
    with pytest.raises(ValueError, match="not decomposable"):
        DecomposableState(heart_tables, key)


def test_labelling_cache_matches_whole_clique_optimum(heart_scorer, heart_tables):
    """The engine caches per center; the result must equal optimal_clique_labelling on the clique's table."""
    scorer = heart_scorer
    rng = random.Random(0)
    for _ in range(40):
        nodes = sorted(rng.sample(range(6), rng.choice([3, 4, 5])))
        clique = sum(1 << v for v in nodes)
        local_pairs = [(a, b) for a in range(len(nodes)) for b in range(a + 1, len(nodes)) if rng.random() < 0.3]
        forbidden = sum(1 << heart_tables.pair_index[nodes[a]][nodes[b]] for a, b in local_pairs)
        ours = heart_tables.labelling(clique, forbidden)
        ref = optimal_clique_labelling(scorer.encoded.counts(tuple(scorer.variables[v] for v in nodes)), local_pairs)
        assert ours.center == ref.center
        assert ours.gain == pytest.approx(ref.gain, abs=1e-9)  # the engine sums compiled block weights
        if ref.group_ids is not None:
            assert list(ours.group_ids) == list(ref.group_ids)


@functools.cache
def _wide_binary_tables(n_vars: int):
    codes = np.random.default_rng(1).integers(0, 2, size=(40, n_vars))
    data = pd.DataFrame(codes, columns=[f"v{i}" for i in range(n_vars)])
    return SGMScore(data).engine


def _random_chordal_edges(n_vars: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random chordal graph: each new node joined to part of a clique of the graph so far (checked by networkx)."""
    edges, cliques = [], [[0]]
    for v in range(1, n_vars):
        if rng.random() < 0.15:  # a new component
            cliques.append([v])
            continue
        clique = rng.choice(cliques)
        part = rng.sample(clique, rng.randint(1, min(len(clique), 4)))
        edges += [(u, v) for u in part]
        cliques.append(part + [v])
    g = nx.Graph(edges)
    g.add_nodes_from(range(n_vars))
    assert nx.is_chordal(g)
    return edges


def _check_components(state):
    g = _nx_graph(state)
    for comp in nx.connected_components(g):
        mask = sum(1 << v for v in comp)
        assert all(state._component[v] == mask for v in comp)


@pytest.mark.parametrize("seed", [0, 1])
def test_every_toggle_of_a_wide_graph_matches_is_chordal(seed):
    """On random chordal graphs of 45 nodes, the legality of every pair's toggle equals nx.is_chordal of the result.

    The additions are decided on a neighbourhood (common neighbours present) or the components
    (none); the graphs have both kinds, several components, and are followed through commits.
    """
    rng = random.Random(seed)
    n_vars = 45
    tables = _wide_binary_tables(n_vars)
    state = DecomposableState(tables, tables.pairs_key(_random_chordal_edges(n_vars, rng)), strata=False)
    _check_components(state)
    seen = {"legal add, common neighbours": 0, "illegal add, common neighbours": 0, "legal add, none": 0,
            "illegal add, none": 0}  # fmt: skip
    for _ in range(3):
        g = _nx_graph(state)
        for i, j in combinations(range(n_vars), 2):
            present = g.has_edge(i, j)
            kind = "common neighbours" if set(g[i]) & set(g[j]) else "none"
            if present:
                g.remove_edge(i, j)
            else:
                g.add_edge(i, j)
            legal = nx.is_chordal(g)
            if present:
                g.add_edge(i, j)
            else:
                g.remove_edge(i, j)
                seen[f"{'legal' if legal else 'illegal'} add, {kind}"] += 1
            assert (state.propose(i, j) is not None) == legal, (i, j)
        # commit a few legal toggles of each kind (bridges join and split components), then check again
        for _ in range(12):
            i, j = rng.sample(range(n_vars), 2)
            move = state.propose(i, j)
            if move is not None:
                twin = state.copy()
                state.commit(move)
                _check_components(state)
                _check_components(twin)  # the copy keeps its own components
                fresh = DecomposableState(tables, state.key, strata=False)
                assert fresh.score == state.score and sorted(fresh._values) == sorted(state._values)
    assert min(seen.values()) > 0, seen


def test_component_masks_match_networkx():
    rng = random.Random(5)
    for _ in range(20):
        n_vars = rng.randint(1, 40)
        edges = _random_chordal_edges(n_vars, rng) if n_vars > 1 else []
        adj = [0] * n_vars
        for u, v in edges:
            adj[u] |= 1 << v
            adj[v] |= 1 << u
        g = nx.Graph(edges)
        g.add_nodes_from(range(n_vars))
        expected = [0] * n_vars
        for comp in nx.connected_components(g):
            for v in comp:
                expected[v] = sum(1 << w for w in comp)
        assert component_masks(adj) == expected


def test_exact_sums_round_as_fsum():
    """The kept integer sum, divided out, is fsum's correctly rounded sum, checked against Fraction arithmetic."""
    from fractions import Fraction

    from pgmpy_sgm.core.moves import EXACT_BITS, exact_value

    rng = random.Random(11)
    for _ in range(3000):
        values = [rng.choice([-1, 1]) * rng.random() * 10 ** rng.randint(-20, 8) for _ in range(rng.randint(1, 40))]
        if rng.random() < 0.3:  # sums that cancel down to a few ulps, and exact ties
            values += [-v for v in values[: len(values) // 2]] + [2.0**-60, 1e8]
        exact = sum(map(Fraction, values))
        assert sum(map(exact_value, values)) == exact * 2**EXACT_BITS
        assert sum(map(exact_value, values)) / 2**EXACT_BITS == math.fsum(values) == float(exact)
