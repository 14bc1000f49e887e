"""Greedy equivalence search: CPDAGs against pgmpy, extensions, BDeu scores, optimality by brute force."""

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.structure_score import BDeu

from pgmpy_sgm.causal_discovery._equivalence_search import (
    cpdag_of_dag,
    dag_extension,
    greedy_equivalence_search,
)

NAMES = "abcdefgh"


def _edges(parents: list[int]) -> list[tuple[str, str]]:
    return [(NAMES[x], NAMES[y]) for y, mask in enumerate(parents) for x in range(len(parents)) if mask >> x & 1]


def _pattern(pa, ne) -> tuple[set, set]:
    directed = {(NAMES[x], NAMES[y]) for y, mask in enumerate(pa) for x in range(len(pa)) if mask >> x & 1}
    undirected = {frozenset((NAMES[x], NAMES[y])) for y, mask in enumerate(ne) for x in range(len(ne)) if mask >> x & 1}
    return directed, undirected


def _pgmpy_pattern(edges, d) -> tuple[set, set]:
    dag = DAG(edges)
    dag.add_nodes_from(NAMES[:d])
    pdag = dag.to_pdag()
    return set(pdag.directed_edges), {frozenset(e) for e in pdag.undirected_edges}


@pytest.mark.parametrize("seed", range(40))
def test_cpdag_matches_pgmpy(seed, random_dag_masks):
    rng = np.random.default_rng(seed)
    d = int(rng.integers(2, 8))
    parents = random_dag_masks(d, float(rng.uniform(0.2, 0.7)), rng)
    pa, ch, ne = cpdag_of_dag(parents)
    assert _pattern(pa, ne) == _pgmpy_pattern(_edges(parents), d)
    for v in range(d):  # children mirror parents
        assert ch[v] == sum(1 << y for y in range(d) if pa[y] >> v & 1)


def _v_structures(edges, d) -> set:
    g = nx.DiGraph(edges)
    g.add_nodes_from(NAMES[:d])
    out = set()
    for y in g.nodes():
        for a, b in itertools.combinations(sorted(g.predecessors(y)), 2):
            if not g.has_edge(a, b) and not g.has_edge(b, a):
                out.add((a, y, b))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_extension_is_a_member_of_the_class(seed, random_dag_masks):
    rng = np.random.default_rng(100 + seed)
    d = int(rng.integers(2, 8))
    parents = random_dag_masks(d, float(rng.uniform(0.2, 0.7)), rng)
    pa, ch, ne = cpdag_of_dag(parents)
    ext = dag_extension(pa, ch, ne)
    g = nx.DiGraph(_edges(ext))
    g.add_nodes_from(NAMES[:d])
    assert nx.is_directed_acyclic_graph(g)
    skeleton = {frozenset(e) for e in _edges(parents)}
    assert {frozenset(e) for e in g.edges()} == skeleton
    assert _v_structures(g.edges(), d) == _v_structures(_edges(parents), d)
    for y, mask in enumerate(pa):  # compelled edges keep their direction
        assert ext[y] & mask == mask


def test_extension_of_an_inconsistent_pdag_is_refused():
    # a -> b - c - a with a -> b, b - c, c - a undirected and b -> a: a directed cycle in any extension
    pa, ch, ne = [0b010, 0b001, 0], [0b010, 0b001, 0], [0, 0b100, 0b010]
    with pytest.raises(ValueError, match="no consistent DAG extension"):
        dag_extension(pa, ch, ne)


def _network(seed: int) -> DiscreteBayesianNetwork:
    """a -> c <- b, c -> d, d -> e, b -> e: v-structures at c and e, random CPDs."""
    rng = np.random.default_rng(seed)
    bn = DiscreteBayesianNetwork([("a", "c"), ("b", "c"), ("c", "d"), ("d", "e"), ("b", "e")])
    for node in bn.nodes():
        parents = sorted(bn.get_parents(node))
        q = 2 ** len(parents)
        probs = rng.dirichlet([0.5, 0.5], size=q).T
        probs = np.clip(probs, 0.05, 0.95)
        probs /= probs.sum(axis=0)
        bn.add_cpds(TabularCPD(node, 2, probs, evidence=parents or None, evidence_card=[2] * len(parents) or None))
    return bn


def _fit(df: pd.DataFrame, **kwargs):
    cols = list(df.columns)
    bdeu = BDeu(df, equivalent_sample_size=5)

    def family(y, mask):
        return bdeu.local_score(cols[y], tuple(cols[i] for i in range(len(cols)) if mask >> i & 1))

    return greedy_equivalence_search(family, len(cols), **kwargs), bdeu, cols


@pytest.mark.parametrize("seed", range(3))
def test_large_sample_recovers_the_generating_class(seed):
    bn = _network(seed)
    df = bn.simulate(30000, seed=seed, show_progress=False)[list("abcde")]
    res, bdeu, cols = _fit(df)
    found = [(cols[x], cols[y]) for y, m in enumerate(res.parents) for x in range(5) if m >> x & 1]
    got = DAG(found)
    got.add_nodes_from(cols)
    true = DAG(bn.edges())
    assert (set(got.to_pdag().directed_edges), {frozenset(e) for e in got.to_pdag().undirected_edges}) == (
        set(true.to_pdag().directed_edges),
        {frozenset(e) for e in true.to_pdag().undirected_edges},
    )
    assert res.score == pytest.approx(bdeu.score(got), abs=1e-9)


def _all_dags(d: int):
    pairs = list(itertools.combinations(range(d), 2))
    for states in itertools.product((0, 1, 2), repeat=len(pairs)):
        edges = [(i, j) if s == 1 else (j, i) for (i, j), s in zip(pairs, states, strict=True) if s]
        g = nx.DiGraph(edges)
        if nx.is_directed_acyclic_graph(g):
            yield edges


@pytest.mark.parametrize("seed", range(4))
def test_no_member_of_the_class_found_improves_by_deleting_an_edge(seed):
    # after the backward phase no Delete operator helps; Delete operators are exactly the single-edge
    # deletions of the class's member DAGs (Chickering 2002), enumerated here by brute force
    rng = np.random.default_rng(seed)
    bn = _network(seed)
    df = bn.simulate(int(rng.integers(80, 400)), seed=seed, show_progress=False)[list("abcd")]
    res, bdeu, cols = _fit(df)
    gains = [step[-1] for step in res.steps]
    empty = sum(bdeu.local_score(c, ()) for c in cols)
    assert res.score == pytest.approx(empty + sum(gains), abs=1e-8)  # every applied gain was exact

    def family_sum(edges):
        return sum(bdeu.local_score(cols[y], tuple(cols[x] for x, z in sorted(edges) if z == y)) for y in range(4))

    found = [(x, y) for y, m in enumerate(res.parents) for x in range(4) if m >> x & 1]
    pattern = _pgmpy_pattern([(NAMES[x], NAMES[y]) for x, y in found], 4)
    members = [e for e in _all_dags(4) if _pgmpy_pattern([(NAMES[x], NAMES[y]) for x, y in e], 4) == pattern]
    assert members
    for edges in members:
        assert family_sum(edges) == pytest.approx(res.score, abs=1e-8)  # BDeu is score-equivalent
        for drop in edges:
            assert family_sum([e for e in edges if e != drop]) <= res.score + 1e-8


@pytest.mark.parametrize("seed", range(3))
def test_small_data_reaches_the_best_dag_over_all_543(seed):
    bn = _network(seed)
    df = bn.simulate(5000, seed=10 + seed, show_progress=False)[list("abcd")]
    res, bdeu, cols = _fit(df)
    best = max(
        sum(bdeu.local_score(cols[y], tuple(cols[x] for x, z in sorted(edges) if z == y)) for y in range(4))
        for edges in _all_dags(4)
    )
    assert res.score == pytest.approx(best, abs=1e-8)


def test_max_indegree_is_respected():
    bn = _network(0)
    df = bn.simulate(20000, seed=0, show_progress=False)[list("abcde")]
    res, _, _ = _fit(df, max_indegree=1)
    assert max(bin(m).count("1") for m in res.parents) <= 1


@pytest.mark.parametrize("seed", range(3))
def test_same_score_as_pgmpy_ges(seed):
    # pgmpy's GES is an independent implementation of the same search (plus a turning phase,
    # which changes nothing on these data): both end at the same BDeu score
    from pgmpy.causal_discovery import GES

    bn = _network(seed)
    df = bn.simulate(500, seed=20 + seed, show_progress=False)[list("abcde")]
    res, bdeu, cols = _fit(df)
    theirs = GES(scoring_method=BDeu(df, equivalent_sample_size=5), return_type="dag").fit(df).causal_graph_
    theirs.add_nodes_from(cols)
    assert res.score == pytest.approx(bdeu.score(theirs), abs=1e-8)


@pytest.mark.parametrize("screened", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_insertion_cache_gives_the_operators_of_a_fresh_computation_at_every_step(seed, screened, monkeypatch):
    """The cache reuses a node's operators while what they read is unchanged: at every step of the search its
    lists equal those computed from scratch (an empty cache), and reuse does happen."""
    from pgmpy_sgm.causal_discovery import _equivalence_search as ges

    rng = np.random.default_rng(seed)
    d = 12
    wanted = [int(m) for m in rng.integers(0, 1 << d, d)]
    scores = {}

    def family(y, mask):  # a random score that rewards a random set of parents, so many insertions apply
        key = (y, mask)
        if key not in scores:
            scores[key] = float(rng.normal()) + 2.0 * bin(mask & wanted[y]).count("1") - 1.5 * bin(mask).count("1")
        return scores[key]

    candidates = None
    if screened:  # a symmetric random candidate relation, as the screening gives
        pairs = np.triu(rng.random((d, d)) < 0.35, 1)
        pairs = pairs | pairs.T
        candidates = [sum(1 << int(x) for x in np.flatnonzero(pairs[y])) for y in range(d)]
    cached_operators = ges._InsertionCache.operators
    checked = {"steps": 0, "reused": 0}

    def checking(self, pa, ch, ne):
        before = dict(self.kept)
        got = cached_operators(self, pa, ch, ne)
        fresh = ges._InsertionCache(self.candidates, self.gain_of, self.max_indegree, self.min_improvement)
        assert got == cached_operators(fresh, pa, ch, ne)
        checked["steps"] += 1
        checked["reused"] += sum(1 for y, hit in self.kept.items() if before.get(y) is hit)
        return got

    monkeypatch.setattr(ges._InsertionCache, "operators", checking)
    result = greedy_equivalence_search(family, d, candidates=candidates)
    assert checked["steps"] == result.n_inserts + 1  # one call per insertion, and the last finds none
    assert checked["reused"] > 0


def test_deletion_cache_gives_the_operators_of_a_fresh_computation_at_every_step(monkeypatch):
    """As for insertions: the backward phase's cached operators equal a fresh computation's at every step."""
    from pgmpy_sgm.causal_discovery import _equivalence_search as ges

    cached_operators = ges._DeletionCache.operators
    checked = {"steps": 0, "reused": 0}

    def checking(self, pa, ch, ne):
        before = dict(self.kept)
        got = cached_operators(self, pa, ch, ne)
        assert got == cached_operators(ges._DeletionCache(self.gain_of, self.min_improvement), pa, ch, ne)
        checked["steps"] += 1
        checked["reused"] += sum(1 for y, hit in self.kept.items() if before.get(y) is hit)
        return got

    monkeypatch.setattr(ges._DeletionCache, "operators", checking)
    n_deletes = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        d = 12
        wanted = [int(m) for m in rng.integers(0, 1 << d, d)]
        scores = {}

        def family(y, mask, rng=rng, wanted=wanted, scores=scores):  # pairs of wanted parents gain most
            key = (y, mask)
            if key not in scores:
                hits = bin(mask & wanted[y]).count("1")
                scores[key] = (float(rng.normal()) + 1.2 * hits + 0.8 * hits * (hits - 1) / 2
                               - 1.5 * bin(mask).count("1"))  # fmt: skip
            return scores[key]

        steps_before = checked["steps"]
        result = greedy_equivalence_search(family, d)
        assert checked["steps"] - steps_before == result.n_deletes + 1  # one call per deletion, the last finds none
        n_deletes += result.n_deletes
    assert n_deletes > 0 and checked["reused"] > 0


def test_on_step_reports_every_applied_operator_in_order():
    df = _network(0).simulate(3000, seed=0, show_progress=False)[list("abcde")]
    seen = []
    res, _, _ = _fit(df, on_step=seen.append)
    assert seen == res.steps and len(seen) == res.n_inserts + res.n_deletes > 0
