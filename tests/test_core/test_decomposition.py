"""Chordality, cliques and junction trees, checked against networkx and a brute-force Prim."""

import networkx as nx
import numpy as np
import pytest

from pgmpy_sgm.core.decomposition import decompose, is_chordal, junction_tree_edges


def _prim_reference(cliques):
    """Maximum-weight spanning tree by scanning every pair (ties: earliest child, then earliest parent)."""
    sets = [set(c) for c in cliques]
    in_tree, remaining, edges = [0], list(range(1, len(sets))), []
    while remaining:
        best = None
        for j in remaining:
            for i in in_tree:
                w = len(sets[i] & sets[j])
                if best is None or w > best[0]:
                    best = (w, i, j)
        _, i, j = best
        remaining.remove(j)
        in_tree.append(j)
        edges.append((i, j))
    return edges


def test_is_chordal_agrees_with_networkx_on_random_graphs():
    rng = np.random.default_rng(0)
    n_chordal = 0
    for seed in range(600):
        graph = nx.gnp_random_graph(int(rng.integers(1, 10)), float(rng.random()), seed=seed)
        assert is_chordal(graph) == nx.is_chordal(graph), sorted(graph.edges())
        n_chordal += nx.is_chordal(graph)
    assert 100 < n_chordal < 550


def test_cliques_and_junction_tree_match_networkx_and_brute_force():
    rng = np.random.default_rng(1)
    n_checked = 0
    for seed in range(400):
        graph = nx.gnp_random_graph(int(rng.integers(2, 11)), float(rng.random()), seed=seed)
        if not nx.is_chordal(graph):
            with pytest.raises(ValueError, match="not decomposable"):
                decompose(graph)
            continue
        cliques, separators = decompose(graph)
        assert sorted(map(frozenset, cliques), key=sorted) == sorted(nx.chordal_graph_cliques(graph), key=sorted)
        assert len(separators) == len(cliques) - nx.number_connected_components(graph)
        shuffled = [cliques[i] for i in rng.permutation(len(cliques))]
        assert junction_tree_edges(shuffled) == _prim_reference(shuffled)
        n_checked += 1
    assert n_checked > 100


def test_isolated_nodes_and_long_paths_decompose():
    cliques, separators = decompose(nx.empty_graph(8000))
    assert cliques == [(i,) for i in range(8000)] and separators == []
    cliques, separators = decompose(nx.path_graph(5000))
    assert cliques == [(i, i + 1) for i in range(4999)] and separators == [(i,) for i in range(1, 4999)]
