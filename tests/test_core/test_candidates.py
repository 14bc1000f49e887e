"""Candidate partners screened from pair gains (pgmpy_sgm.core.candidates) and the searches that use them."""

import itertools

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore
from pgmpy_sgm.causal_discovery import NonReversibleMCMC
from pgmpy_sgm.causal_discovery import nonreversible_mcmc as nrm
from pgmpy_sgm.core.candidates import CandidatePairs, default_partners
from pgmpy_sgm.core.moves import DecomposableState, chordal_families
from pgmpy_sgm.core.search import clique_partners, pair_gains, polish, relocation_sweep, triple_partners


def _tree_data(n_vars: int, n_rows: int, seed: int):
    """Binary data from a random tree: each variable copies its parent with probability 0.85."""
    rng = np.random.default_rng(seed)
    x = np.zeros((n_rows, n_vars), dtype=np.int64)
    x[:, 0] = rng.integers(0, 2, n_rows)
    edges = []
    for v in range(1, n_vars):
        parent = int(rng.integers(v))
        copy = rng.random(n_rows) < 0.85
        x[:, v] = np.where(copy, x[:, parent], rng.integers(0, 2, n_rows))
        edges.append((parent, v))
    return pd.DataFrame(x, columns=[f"v{i:02d}" for i in range(n_vars)]), edges


def _random_chordal_adj(n: int, rng) -> list[int]:
    """A random chordal graph: each node joined to a random clique of earlier nodes (a perfect elimination order)."""
    adj = [0] * n
    cliques = [[0]]
    for v in range(1, n):
        base = cliques[int(rng.integers(len(cliques)))]
        members = [u for u in base if rng.random() < 0.7]
        for u in members:
            adj[u] |= 1 << v
            adj[v] |= 1 << u
        cliques.append(members + [v])
    return adj


@pytest.fixture(scope="module")
def tree():
    data, edges = _tree_data(40, 2000, seed=1)
    engine = SGMScore(data).engine
    return engine, pair_gains(engine), edges


def test_partners_hold_every_true_edge_on_easy_data(tree):
    engine, gains, edges = tree
    cands = CandidatePairs(engine.pairs, engine.n, gains, k=5)
    assert cands.screened
    for u, v in edges:  # one end has the other among its 5 strongest partners
        assert v in cands.partners[u] or u in cands.partners[v], (u, v)
    empty = [0] * engine.n
    for u, v in edges:  # so a move rebuilding either end of the edge in the empty graph looks at it
        assert (u, v) in cands.touching(empty, [v]) or (u, v) in cands.touching(empty, [u])


def test_partners_are_the_largest_gains_brute_force(tree):
    engine, gains, _ = tree
    cands = CandidatePairs(engine.pairs, engine.n, gains, k=4)
    for v in range(engine.n):
        scored = sorted((-gains[engine.pair_index[v][u]], u) for u in range(engine.n) if u != v)
        assert cands.partners[v] == frozenset(u for _, u in scored[:4])


def test_touching_brute_force_on_random_graphs():
    rng = np.random.default_rng(0)
    n = 14
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    gains = rng.normal(size=len(pairs))
    cands = CandidatePairs(pairs, n, gains, k=3)
    for _ in range(30):
        adj = _random_chordal_adj(n, rng)
        nodes = sorted(set(rng.choice(n, size=int(rng.integers(1, 4)), replace=False).tolist()))
        expected = set()
        for v in nodes:
            near = {u for u in range(n) if adj[v] >> u & 1}
            near |= {w for u in near for w in range(n) if adj[u] >> w & 1}
            for u in (near | set(cands.partners[v]) | set(nodes)) - {v}:
                expected.add((min(u, v), max(u, v)))
        assert cands.touching(adj, nodes) == sorted(expected)


def test_unscreened_touching_is_every_pair_touching():
    n = 9
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    cands = CandidatePairs(pairs, n, np.zeros(len(pairs)), k=n - 1)
    assert not cands.screened and cands.partners is None
    adj = _random_chordal_adj(n, np.random.default_rng(3))
    for nodes in ([0], [2, 5], [8, 1, 4]):
        assert cands.touching(adj, nodes) == [(i, j) for i, j in pairs if i in nodes or j in nodes]


def test_default_partners_grow_with_d():
    values = [default_partners(d) for d in (10, 100, 400, 1000, 4000)]
    assert values == sorted(values) and values[0] == 30 and values[-1] > 100
    assert all(default_partners(d) >= d - 1 for d in range(1, 32))  # small problems: nothing screened


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"k": 0}, "k \\(partners per node\\) must be a positive integer. Got: 0"),
        ({"k": 2.5}, "k \\(partners per node\\) must be a positive integer. Got: 2.5"),
        ({"k": True}, "k \\(partners per node\\) must be a positive integer. Got: True"),
        ({"gains": np.zeros(2)}, "gains must hold one value per pair \\(3\\). Got shape \\(2,\\)"),
        ({"n_nodes": -1}, "n_nodes must be a non-negative integer. Got: -1"),
    ],
)
def test_bad_values_are_named(kwargs, match):
    args = {"pairs": [(0, 1), (0, 2), (1, 2)], "n_nodes": 3, "gains": np.zeros(3), **kwargs}
    with pytest.raises(ValueError, match=match):
        CandidatePairs(**args)
    with pytest.raises(ValueError, match="n_nodes must be a non-negative integer"):
        default_partners(-2)


def test_large_k_leaves_polish_unchanged(tree):
    engine, gains, _ = tree
    partners = clique_partners(engine, gains)
    triples = triple_partners(engine, gains)
    start = DecomposableState(engine, 0)
    plain = polish(start, partners, None, None, triples)
    wide = polish(start, partners, None, None, triples, CandidatePairs(engine.pairs, engine.n, gains, k=engine.n - 1))
    assert (wide.key, wide.score) == (plain.key, plain.score)


def test_screened_polish_is_decomposable_exact_and_no_worse(tree):
    engine, gains, _ = tree
    start = DecomposableState(engine, 0)
    cands = CandidatePairs(engine.pairs, engine.n, gains, k=3)
    found = {}
    best = polish(start, clique_partners(engine, gains), None, found, triple_partners(engine, gains), cands)
    assert best.score > start.score
    assert chordal_families(best.adj) is not None
    assert best.score == pytest.approx(DecomposableState(engine, best.key).score, abs=1e-9)
    for key, score in found.items():
        assert score == pytest.approx(DecomposableState(engine, key).score, abs=1e-9)
    swept = relocation_sweep(start, candidates=cands, nodes=[0, 1, 2])
    assert swept.score >= start.score


def test_fit_unchanged_when_screening_cannot_bind(monkeypatch):
    data, _ = _tree_data(12, 500, seed=4)

    def fit():
        return NonReversibleMCMC(n_iter=3000, seed=5, show_progress=False).fit(data)

    default = fit()  # 12 variables: the default k (30) keeps every pair

    class NoCandidates:
        def __new__(cls, *args, **kwargs):
            return None

    monkeypatch.setattr(nrm, "CandidatePairs", NoCandidates)
    without = fit()
    assert default.best_score_ == without.best_score_
    assert default.posterior_["edges"].tolist() == without.posterior_["edges"].tolist()
    np.testing.assert_array_equal(default.trace_, without.trace_)


def test_chordal_families_agree_with_brute_force_cliques():
    """The maximal cliques DecomposableState finds are those of networkx on random chordal graphs."""
    import networkx as nx

    rng = np.random.default_rng(7)
    for _ in range(20):
        n = 12
        adj = _random_chordal_adj(n, rng)
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from((u, v) for u, v in itertools.combinations(range(n), 2) if adj[u] >> v & 1)
        expected = sorted(sum(1 << v for v in c) for c in nx.find_cliques(graph))
        data = pd.DataFrame(rng.integers(0, 2, (50, n)), columns=[f"x{i:02d}" for i in range(n)])
        engine = SGMScore(data).engine
        key = engine.pairs_key(graph.edges())
        assert sorted(DecomposableState(engine, key).cliques) == expected
