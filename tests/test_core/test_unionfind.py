"""Disjoint sets against networkx's connected components."""

import random

import networkx as nx
import pytest

from pgmpy_sgm.core.unionfind import DisjointSets


@pytest.mark.parametrize("seed", range(10))
def test_components_equal_networkx(seed):
    rng = random.Random(seed)
    n = rng.randrange(1, 30)
    graph = nx.empty_graph(n)
    sets = DisjointSets(n)
    for _ in range(rng.randrange(0, 2 * n)):
        a, b = rng.randrange(n), rng.randrange(n)
        graph.add_edge(a, b)
        sets.union(a, b)
    expected = sorted((sorted(c) for c in nx.connected_components(graph)), key=min)
    assert sets.components() == expected
    roots = sets.roots()
    assert all((roots[a] == roots[b]) == nx.has_path(graph, a, b) for a in range(n) for b in range(n))
