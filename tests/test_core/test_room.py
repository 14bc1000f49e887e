"""Clique insertions that make room: blocked joins, the edges removed for them, exact scores."""

import itertools

import networkx as nx
import pytest

from pgmpy_sgm import SGMScore
from pgmpy_sgm.core._room import MAX_REMOVALS, join_making_room, room_sweep
from pgmpy_sgm.core.moves import DecomposableState, key_from_edges
from pgmpy_sgm.core.search import clique_partners, pair_gains


@pytest.fixture(scope="module")
def heart_scorer(heart_counts):
    return SGMScore(heart_counts, weights="count")


def _graph(tables, key) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(range(tables.n))
    graph.add_edges_from(pair for p, pair in enumerate(tables.pairs) if key >> p & 1)
    return graph


def _exact(scorer, tables, key) -> float:
    edges = [(tables.variables[i], tables.variables[j]) for p, (i, j) in enumerate(tables.pairs) if key >> p & 1]
    return scorer.score(scorer.optimal_strata(edges))


def test_a_blocked_join_is_made_and_scored_exactly(heart_scorer, heart_counts):
    tables = heart_scorer.engine
    cycle_path = DecomposableState(tables, key_from_edges(tables, [(0, 1), (1, 2), (2, 3), (3, 4)]))
    assert cycle_path.propose(0, 4) is None  # joining the ends closes a chordless 5-cycle
    joined = join_making_room(cycle_path, [0, 4])
    graph = _graph(tables, joined.key)
    assert nx.is_chordal(graph)
    assert joined.key != cycle_path.key
    fresh = SGMScore(heart_counts, weights="count")  # another scorer, from scratch
    assert _exact(fresh, tables, joined.key) == pytest.approx(joined.score, abs=1e-6)


def test_every_join_is_decomposable_or_refused(heart_scorer):
    tables = heart_scorer.engine
    start = DecomposableState(tables, key_from_edges(tables, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]))
    for members in itertools.combinations(range(tables.n), 3):
        new = join_making_room(start, members)
        assert new is None or nx.is_chordal(_graph(tables, new.key)), members
    assert join_making_room(start, [0, 1]) is None  # already a clique
    assert MAX_REMOVALS >= 1


def test_room_sweep_never_lowers_the_score(heart_scorer):
    tables = heart_scorer.engine
    partners = clique_partners(tables, pair_gains(tables))
    for edges in ([(0, 1), (1, 2), (2, 3), (3, 4)], [(0, 5), (5, 3), (3, 1)], []):
        start = DecomposableState(tables, key_from_edges(tables, edges))
        found = {}
        best = room_sweep(start, partners, visited=found)
        assert best.score >= start.score
        assert all(DecomposableState(tables, k).score == pytest.approx(v, abs=1e-9) for k, v in found.items())


def test_bad_members(heart_scorer):
    tables = heart_scorer.engine
    with pytest.raises(ValueError, match="clique members"):
        join_making_room(DecomposableState(tables), [0, 99])
    with pytest.raises(ValueError, match="partners must list"):
        room_sweep(DecomposableState(tables), [(1,)])
