"""SGMScore against the paper's reference values and an independent brute-force score."""

import itertools
import math
from collections import Counter

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore, StratifiedGraph

# ---------------------------------------------------------------------------------------------
# Independent brute force: the paper's modified Cooper-Herskovits formula (its equation for
# P_C) with alpha_jil = k * lambda_jl / (pi_j * k_j), evaluated configuration by configuration
# from raw rows, for an arbitrary ordering of the clique with the center last.
# ---------------------------------------------------------------------------------------------


def _row_counts(rows, weights, variables):
    counts = Counter()
    for row, w in zip(rows, weights, strict=True):
        counts[tuple(row[v] for v in variables)] += w
    return counts


def _brute_dirichlet(rows, weights, variables, cards):
    counts = _row_counts(rows, weights, variables)
    cells = list(itertools.product(*(range(cards[v]) for v in variables)))
    n = sum(weights)
    k = len(cells)
    return math.lgamma(k) - math.lgamma(n + k) + sum(math.lgamma(counts[c] + 1) for c in cells)


def _brute_groups(parents, cards, center, strata):
    """Union-find over parent configurations (tuples) merged by the labels."""
    configs = list(itertools.product(*(range(cards[p]) for p in parents)))
    root = {c: c for c in configs}

    def find(c):
        while root[c] != c:
            c = root[c]
        return c

    for (a, b), contexts in strata.items():
        if center not in (a, b) or not set((a, b)) <= set(parents) | {center}:
            continue
        u = a if b == center else b
        i = parents.index(u)
        for context in contexts:
            line = [c for c in configs if c[i] == c[i] and all(c[parents.index(w)] == s for w, s in context.items())]
            for c in line[1:]:
                root[find(c)] = find(line[0])
    groups = {}
    for c in configs:
        groups.setdefault(find(c), []).append(c)
    return list(groups.values())


def _brute_clique(rows, weights, clique, center, strata, cards, rng):
    others = [v for v in clique if v != center]
    rng.shuffle(others)
    order = others + [center]
    k_total = math.prod(cards[v] for v in clique)
    total = 0.0
    for j, var in enumerate(order):
        parents = order[:j]
        pi = math.prod(cards[p] for p in parents)
        kj = cards[var]
        if var == center and strata:
            groups = _brute_groups(parents, cards, center, strata)
        else:
            groups = [[c] for c in itertools.product(*(range(cards[p]) for p in parents))]
        joint = _row_counts(rows, weights, parents + [var])
        for group in groups:
            lam = len(group)
            alpha = k_total * lam / (pi * kj)
            n_il = [sum(joint[c + (i,)] for c in group) for i in range(kj)]
            total += math.lgamma(kj * alpha) - math.lgamma(sum(n_il) + kj * alpha)
            total += sum(math.lgamma(x + alpha) - math.lgamma(alpha) for x in n_il)
    return total


def _brute_score(df, sg, cards, rng):
    rows = df.to_dict("records")
    weights = [1] * len(rows)
    graph = nx.Graph(sg.edges())
    graph.add_nodes_from(df.columns)
    cliques = [tuple(c) for c in nx.chordal_graph_cliques(graph)]
    clique_graph = nx.Graph()
    clique_graph.add_nodes_from(range(len(cliques)))
    for i, j in itertools.combinations(range(len(cliques)), 2):
        clique_graph.add_edge(i, j, weight=len(set(cliques[i]) & set(cliques[j])))
    tree = nx.maximum_spanning_tree(clique_graph)
    separators = [set(cliques[i]) & set(cliques[j]) for i, j in tree.edges()]
    strata = sg.strata
    total = 0.0
    for clique in cliques:
        labelled = {e: s for e, s in strata.items() if set(e) <= set(clique)}
        if labelled:
            center = set.intersection(*(set(e) for e in labelled))
            center = sorted(center)[rng.integers(len(center))]
        else:
            center = clique[-1]
        total += _brute_clique(rows, weights, list(clique), center, labelled, cards, rng)
    for sep in separators:
        if sep:
            total -= _brute_dirichlet(rows, weights, sorted(sep), cards)
    f = sum(math.prod(cards[v] for v in c) - 1 for c in cliques)
    f -= sum(math.prod(cards[v] for v in s) - 1 for s in separators)
    return total + (len(df.columns) - f) * math.log(2)


def _random_decomposable_sg(rng, n_nodes, cards):
    """Random chordal graph (vertices attached to subsets of existing cliques) with random labels."""
    nodes = [f"v{i}" for i in range(n_nodes)]
    graph = nx.Graph()
    graph.add_node(nodes[0])
    for v in nodes[1:]:
        cliques = [list(c) for c in nx.chordal_graph_cliques(graph)] if graph.number_of_edges() else [[nodes[0]]]
        base = cliques[rng.integers(len(cliques))]
        size = rng.integers(min(2, len(base)), len(base) + 1)
        attach = list(rng.choice(base, size=size, replace=False)) if size else []
        graph.add_node(v)
        graph.add_edges_from((v, a) for a in attach)
    sg = StratifiedGraph(graph, nodes=nodes, state_names={v: list(range(cards[v])) for v in nodes})
    counts = Counter(frozenset(e) for c in sg.cliques for e in itertools.combinations(c, 2))
    for clique in sg.cliques:
        if len(clique) < 3 or rng.random() < 0.2:
            continue
        center = clique[rng.integers(len(clique))]
        unlabelled = sg.copy()
        for u in clique:
            if u == center or counts[frozenset((u, center))] > 1 or rng.random() < 0.3:
                continue
            shared = sg.common_neighbours(u, center)
            contexts = StratifiedGraph.complete_contexts(shared, {w: list(range(cards[w])) for w in shared})
            n_pick = rng.integers(1, len(contexts))  # a proper subset: regular
            for idx in rng.choice(len(contexts), size=n_pick, replace=False):
                sg.add_label(u, center, contexts[idx])
        if not sg.is_decomposable():  # labels of two edges whose closure removes an edge: irregular
            sg = unlabelled
    return sg


@pytest.mark.parametrize("states", [2, 3, "mixed"])
def test_score_matches_brute_force_on_random_sgs(states):
    rng = np.random.default_rng({2: 1, 3: 2, "mixed": 3}[states])
    n_checked_labelled = 0
    for _ in range(20):
        n_nodes = int(rng.integers(4, 7 if states == 2 else 6))
        nodes = [f"v{i}" for i in range(n_nodes)]
        if states == "mixed":
            cards = {v: int(rng.integers(2, 4)) for v in nodes}
        else:
            cards = {v: states for v in nodes}
        sg = _random_decomposable_sg(rng, n_nodes, cards)
        n_rows = int(rng.integers(5, 300))
        df = pd.DataFrame({v: rng.integers(0, cards[v], size=n_rows) for v in nodes})
        score = SGMScore(df, state_names={v: list(range(cards[v])) for v in nodes})
        expected = _brute_score(df, sg, cards, rng)
        assert score.score(sg) == pytest.approx(expected, rel=1e-9, abs=1e-9)
        n_checked_labelled += bool(sg.strata)
    assert n_checked_labelled >= 4  # the generator really produced labelled models


def test_heart_reference_values(heart_score, heart_reference_models):
    for name, (sg, expected) in heart_reference_models.items():
        assert heart_score.score(sg) == pytest.approx(expected, abs=0.005), name


def test_rows_and_counts_give_identical_scores(heart_rows, heart_counts, heart_reference_models):
    by_rows = SGMScore(heart_rows)
    by_counts = SGMScore(heart_counts, weights="count")
    by_array = SGMScore(heart_counts.drop(columns="count"), weights=heart_counts["count"].to_numpy())
    for sg, _ in heart_reference_models.values():
        assert by_rows.score(sg) == pytest.approx(by_counts.score(sg), rel=1e-12)
        assert by_array.score(sg) == pytest.approx(by_counts.score(sg), rel=1e-12)


def test_unlabelled_clique_by_labelled_formula_equals_dirichlet(heart_score):
    clique = ("smoking", "physical_work", "lipoprotein_ratio")
    for center in clique:
        singletons = np.arange(4)
        value = heart_score.clique_term(clique, center=center, group_ids=singletons)
        assert value == pytest.approx(heart_score.set_term(clique), rel=1e-12)


def test_single_labelled_edge_gives_same_score_with_either_center(heart_score):
    clique = ("smoking", "systolic_bp", "lipoprotein_ratio")
    # label {smoking, systolic_bp} at lipoprotein_ratio=1:
    # center systolic_bp, parents (smoking, lipoprotein_ratio): merges configs (0,1) and (1,1)
    by_bp = heart_score.clique_term(clique, center="systolic_bp", group_ids=[0, 1, 2, 1])
    # center smoking, parents (systolic_bp, lipoprotein_ratio): merges (0,1) and (1,1) as well
    by_smoking = heart_score.clique_term(clique, center="smoking", group_ids=[0, 1, 2, 1])
    assert by_bp == pytest.approx(by_smoking, rel=1e-12)
    assert by_bp != pytest.approx(heart_score.set_term(clique), rel=1e-9)


def test_score_invariant_to_column_order(heart_rows, heart_reference_models):
    shuffled = heart_rows[list(reversed(heart_rows.columns))]
    a, b = SGMScore(heart_rows), SGMScore(shuffled)
    for sg, _ in heart_reference_models.values():
        assert a.score(sg) == pytest.approx(b.score(sg), rel=1e-12)


def test_local_scores_on_a_perfect_dag_sum_to_the_decomposable_marginal_likelihood(heart_score):
    graph = nx.Graph(
        [
            ("smoking", "physical_work"),
            ("smoking", "systolic_bp"),
            ("smoking", "lipoprotein_ratio"),
            ("mental_work", "physical_work"),
            ("physical_work", "lipoprotein_ratio"),
            ("systolic_bp", "lipoprotein_ratio"),
        ]
    )
    graph.add_nodes_from(heart_score.variables)
    # maximum cardinality search numbers the vertices in a perfect order: earlier neighbours form a clique
    order = []
    while len(order) < graph.number_of_nodes():
        rest = [v for v in graph.nodes() if v not in order]
        order.append(max(rest, key=lambda v: sum(u in order for u in graph.neighbors(v))))
    position = {v: i for i, v in enumerate(order)}
    total = 0.0
    for v in order:
        parents = tuple(u for u in graph.neighbors(v) if position[u] < position[v])
        assert graph.subgraph(parents).number_of_edges() == len(parents) * (len(parents) - 1) // 2
        total += heart_score.local_score(v, parents)
    assert total == pytest.approx(heart_score.log_marginal_likelihood(StratifiedGraph(graph)), rel=1e-12)


def test_hill_climb_search_runs_with_the_score(heart_rows):
    from pgmpy.causal_discovery import HillClimbSearch

    est = HillClimbSearch(scoring_method=SGMScore(heart_rows), show_progress=False).fit(heart_rows)
    assert set(est.causal_graph_.nodes()) == set(heart_rows.columns)
    assert est.causal_graph_.number_of_edges() > 0


def test_prior_options(heart_counts, heart_reference_models):
    sg, _ = heart_reference_models["gm"]
    paper = SGMScore(heart_counts, weights="count")
    uniform = SGMScore(heart_counts, weights="count", prior="uniform")
    assert uniform.log_prior(sg) == 0.0
    assert paper.log_prior(sg) == pytest.approx((6 - 14) * math.log(2))
    with pytest.raises(ValueError, match="prior must be one of"):
        SGMScore(heart_counts, weights="count", prior="flat")


def test_score_rejects_graphs_outside_the_data(heart_score):
    with pytest.raises(ValueError, match="not columns of the data"):
        heart_score.score(StratifiedGraph([("smoking", "age")]))
    with pytest.raises(ValueError, match="not decomposable"):
        heart_score.score(
            StratifiedGraph(
                [
                    ("smoking", "mental_work"),
                    ("mental_work", "physical_work"),
                    ("physical_work", "systolic_bp"),
                    ("systolic_bp", "smoking"),
                ]
            )
        )
    bad_states = StratifiedGraph([("smoking", "mental_work")], state_names={"smoking": ["no", "yes"]})
    with pytest.raises(ValueError, match="differ from the data"):
        heart_score.score(bad_states)


def test_max_cells_refuses_large_tables():
    df = pd.DataFrame({f"v{i}": np.arange(40) % 20 for i in range(6)})
    score = SGMScore(df, max_cells=10_000)
    with pytest.raises(ValueError, match=r"would have 64,000,000 cells"):
        score.set_term([f"v{i}" for i in range(6)])


def _with_constant_column(n=500, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, n)
    b = (a + rng.integers(0, 2, n)) % 4
    return pd.DataFrame({"a": a, "b": b, "c": np.zeros(n, dtype=int)})


def test_one_state_variable_in_a_clique_scores_like_any_other():
    df = _with_constant_column()
    score = SGMScore(df)
    graph = nx.Graph([("a", "b"), ("b", "c"), ("a", "c")])
    best = score.optimal_strata(graph)  # raised "every axis of counts must have length >= 2"
    assert best.strata == {} and best.is_maximal_regular()
    assert best.graph["approximate_cliques"] == []
    # a constant variable adds nothing to the likelihood: the triangle scores as the edge a-b
    # up to the prior, which counts edges
    pair = SGMScore(df[["a", "b"]])
    edge = StratifiedGraph([("a", "b")])
    assert score.score(best) - score.log_prior(best) == pytest.approx(pair.score(edge) - pair.log_prior(edge))


def test_one_state_variable_in_a_labelled_clique():
    rng = np.random.default_rng(1)
    n = 2000
    x, y = rng.integers(0, 2, n), rng.integers(0, 2, n)
    z = np.where(y == 1, x, rng.integers(0, 2, n))  # z copies x when y = 1, independent of it when y = 0
    df = pd.DataFrame({"x": x, "y": y, "z": z, "k": np.zeros(n, dtype=int)})
    score = SGMScore(df, state_names={"x": [0, 1], "y": [0, 1], "z": [0, 1], "k": [0]})
    graph = nx.complete_graph(["x", "y", "z", "k"])
    best = score.optimal_strata(graph)
    assert best.check_model() and best.is_maximal_regular()
    assert not any("k" in edge for edge in best.strata)  # a one-state variable has no lines to label
    assert best.strata[("x", "z")] == [{"y": 0, "k": 0}]
    assert score.score(best) > score.score(StratifiedGraph(graph))
