"""Graphs as neighbour bit masks: reach and components against networkx."""

import networkx as nx
import numpy as np

from pgmpy_sgm.core.graph_masks import adjacent_to_all, chordal_families, component_masks, reach


def _masks(graph: nx.Graph, n: int) -> list[int]:
    return [sum(1 << w for w in graph.adj[v]) for v in range(n)]


def test_reach_and_components_match_networkx_on_random_graphs():
    for seed in range(5):
        graph = nx.gnp_random_graph(30, 0.06, seed=seed)
        adj = _masks(graph, 30)
        components = component_masks(adj)
        for part in nx.connected_components(graph):
            mask = sum(1 << v for v in part)
            assert all(components[v] == mask for v in part)
            assert reach(adj, min(part), -1) == mask
        allowed = sum(1 << v for v in range(0, 30, 2))  # only even nodes may be passed through
        kept = graph.subgraph([v for v in range(0, 30, 2)] + [1])
        expected = sum(1 << v for v in nx.node_connected_component(kept, 1))
        assert reach(adj, 1, allowed) == expected


def test_maximum_cardinality_search_tells_chordal_graphs():
    rng = np.random.default_rng(0)
    for _ in range(20):
        graph = nx.gnp_random_graph(9, float(rng.uniform(0.2, 0.6)), seed=int(rng.integers(1 << 30)))
        assert (chordal_families(_masks(graph, 9)) is not None) == nx.is_chordal(graph)


def test_adjacent_to_all_matches_networkx_common_neighbours():
    rng = np.random.default_rng(3)
    for _ in range(20):
        g = nx.gnp_random_graph(12, 0.4, seed=int(rng.integers(1 << 30)))
        adj = [sum(1 << u for u in g[v]) for v in range(12)]
        nodes = [int(v) for v in rng.choice(12, size=int(rng.integers(1, 4)), replace=False)]
        expected = set.intersection(*(set(g[v]) for v in nodes))
        mask = adjacent_to_all(adj, sum(1 << v for v in nodes))
        assert {w for w in range(12) if mask >> w & 1} == expected
