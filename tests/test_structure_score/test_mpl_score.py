"""MPLScore against the marginal pseudo-likelihood computed independently, row by row, in the test."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.structure_score import MPLScore


def _data(n=300, seed=0, cards=(2, 2, 3, 2, 2)):
    rng = np.random.default_rng(seed)
    cols = {f"v{i}": rng.integers(0, k, n) for i, k in enumerate(cards)}
    frame = pd.DataFrame(cols)
    frame["v1"] = np.where(rng.random(n) < 0.7, frame["v0"], frame["v1"])  # some dependence
    frame["v3"] = np.where(rng.random(n) < 0.6, frame["v1"], frame["v3"])
    return frame


def _mpl_by_rows(frame: pd.DataFrame, graph: nx.Graph, class_key, alpha=0.5) -> float:
    """sum_j sum_class [lgamma(r a) - lgamma(n + r a) + sum_i (lgamma(n_i + a) - lgamma(a))], counted from rows."""
    total = 0.0
    for j in frame.columns:
        r = frame[j].nunique()
        blanket = sorted(graph.adj[j]) if j in graph else []
        counts: dict = {}
        for _, row in frame.iterrows():
            config = tuple(row[w] for w in blanket)
            key = class_key(j, dict(zip(blanket, config, strict=True)))
            counts.setdefault(key, {}).setdefault(row[j], 0)
            counts[key][row[j]] += 1
        for by_state in counts.values():
            n = sum(by_state.values())
            total += math.lgamma(r * alpha) - math.lgamma(n + r * alpha)
            total += sum(math.lgamma(c + alpha) - math.lgamma(alpha) for c in by_state.values())
    return total


def _plain_key(j, config):
    return tuple(sorted(config.items()))


def test_plain_markov_network_matches_row_by_row_formula():
    frame = _data()
    cycle = nx.Graph([("v0", "v1"), ("v1", "v2"), ("v2", "v3"), ("v3", "v0")])  # a chordless 4-cycle
    score = MPLScore(frame)
    expected = _mpl_by_rows(frame, cycle, _plain_key)
    assert score.score(cycle) == pytest.approx(expected, rel=1e-12)
    # unobserved blanket configurations contribute lgamma(ra) - lgamma(ra) + 0 = 0: nothing to add


def test_alpha_is_per_state_and_class():
    frame = _data(seed=1)
    g = nx.Graph([("v0", "v1"), ("v1", "v4")])
    assert MPLScore(frame, alpha=2.0).score(g) == pytest.approx(_mpl_by_rows(frame, g, _plain_key, 2.0), rel=1e-12)


def test_counts_table_gives_the_same_score():
    frame = _data(seed=2)
    table = frame.value_counts().rename("n").reset_index()
    g = [("v0", "v1"), ("v2", "v1"), ("v0", "v2")]
    assert MPLScore(table, weights="n").score(g) == pytest.approx(MPLScore(frame).score(g), rel=1e-12)


def test_context_merges_blanket_configurations_of_both_ends():
    """Triangle v0-v1-v2 plus v3 on v1: the context v0=1 on edge {v1, v2} ties, in v1's conditional,
    the configurations (v0=1, v2=*, v3) and, in v2's, (v0=1, v1=*)."""
    frame = _data(seed=3)
    g = nx.Graph([("v0", "v1"), ("v1", "v2"), ("v0", "v2"), ("v1", "v3")])

    def key(j, config):
        config = dict(config)
        if j == "v1" and config["v0"] == 1:
            config["v2"] = "*"
        if j == "v2" and config["v0"] == 1:
            config["v1"] = "*"
        return tuple(sorted(config.items()))

    expected = _mpl_by_rows(frame, g, key)
    got = MPLScore(frame, kappa=1.0).score(g, contexts={("v2", "v1"): [{"v0": 1}]})
    assert got == pytest.approx(expected, rel=1e-12)
    assert got != pytest.approx(MPLScore(frame).score(g), rel=1e-9)


def test_implied_context_is_scored():
    """On a binary 4-clique, contexts that tie all of v2's blanket at v0=0 imply v1 ⟂ v2 | v0=0, v3=1 too."""
    rng = np.random.default_rng(4)
    frame = pd.DataFrame(rng.integers(0, 2, (400, 4)), columns=["v0", "v1", "v2", "v3"])
    g = nx.complete_graph(["v0", "v1", "v2", "v3"])
    given = {("v1", "v2"): [{"v0": 0, "v3": 0}], ("v2", "v3"): [{"v0": 0, "v1": 0}, {"v0": 0, "v1": 1}]}
    score = MPLScore(frame, kappa=1.0)
    closed = score.closed_contexts(g, given)
    assert closed[("v1", "v2")] == [{"v0": 0, "v3": 0}, {"v0": 0, "v3": 1}]

    def key(j, config):  # the closure's ties, written out
        config = dict(config)
        if j == "v2" and config["v0"] == 0:
            return ("v2", "v0=0")
        if j == "v1" and config["v0"] == 0:
            config["v2"] = "*"
        if j == "v3" and config["v0"] == 0:
            config["v2"] = "*"
        return tuple(sorted(config.items()))

    assert score.score(g, given) == pytest.approx(_mpl_by_rows(frame, g, key), rel=1e-12)


def _groups_from_lines(cards, lines):
    """Connected components of the merges made by the chosen lines (each a list of configurations)."""
    n = math.prod(cards)
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            a = parent[a]
        return a

    for line in lines:
        for c in line[1:]:
            parent[find(c)] = find(line[0])
    return [find(c) for c in range(n)]


def _all_lines(cards):
    configs = list(itertools.product(*(range(k) for k in cards)))
    index = {c: i for i, c in enumerate(configs)}
    out = []
    for d, k in enumerate(cards):
        for rest in itertools.product(*(range(cards[e]) for e in range(len(cards)) if e != d)):
            line = []
            for s in range(k):
                c = list(rest)
                c.insert(d, s)
                line.append(index[tuple(c)])
            out.append((d, line))
    return out


def _regular(cards, groups, lines):
    inside = {d: all(len({groups[c] for c in line}) == 1 for e, line in lines if e == d) for d in range(len(cards))}
    return not any(inside.values())


def _class_value(counts2d, groups, alpha=0.5):
    total = 0.0
    r = counts2d.shape[1]
    for g in set(groups):
        pooled = counts2d[[i for i, h in enumerate(groups) if h == g]].sum(axis=0)
        total += math.lgamma(r * alpha) - math.lgamma(pooled.sum() + r * alpha)
        total += sum(math.lgamma(x + alpha) - math.lgamma(alpha) for x in pooled)
    return total


@pytest.mark.parametrize("cards, seed", [((2, 2), 0), ((2, 2), 1), ((2, 2, 2), 2), ((3, 2), 3), ((2, 2, 2), 5)])
def test_optimal_blanket_groups_equal_brute_force(cards, seed):
    rng = np.random.default_rng(seed)
    n = 150
    blanket = [rng.integers(0, k, n) for k in cards]
    target = np.where(blanket[0] + blanket[1] > 0, rng.random(n) < 0.8, rng.random(n) < 0.3).astype(int)
    names = [f"b{i}" for i in range(len(cards))]
    frame = pd.DataFrame(dict(zip(names, blanket, strict=True)) | {"t": target})
    score = MPLScore(frame, kappa=1.0)  # the brute force below has no prior term
    res = score.optimal_blanket_groups("t", tuple(names), method="exact")
    counts2d = frame.groupby(names + ["t"]).size().reindex(
        pd.MultiIndex.from_product([range(k) for k in cards] + [range(2)]), fill_value=0
    ).to_numpy().reshape(-1, 2).astype(float)
    lines = _all_lines(cards)
    best = -math.inf
    for chosen in itertools.product([False, True], repeat=len(lines)):
        groups = _groups_from_lines(cards, [line for take, (_, line) in zip(chosen, lines, strict=True) if take])
        if _regular(cards, groups, lines):
            best = max(best, _class_value(counts2d, groups))
    assert res.exact
    assert res.value == pytest.approx(best, rel=1e-12)
    heuristic = score.optimal_blanket_groups("t", tuple(names), method="heuristic")
    assert heuristic.value <= res.value + 1e-9


def test_kappa_charges_removed_parameters():
    frame = _data(seed=6)
    g = nx.complete_graph(["v0", "v1", "v4"])
    ctx = {("v1", "v4"): [{"v0": 1}]}
    flat, charged = MPLScore(frame, kappa=1.0), MPLScore(frame, kappa=0.5)
    # the context ties 2 configurations in v1's and in v4's conditionals: 2 free parameters removed
    assert charged.score(g, ctx) - flat.score(g, ctx) == pytest.approx(2 * math.log(0.5), rel=1e-12)
    assert charged.score(g) == pytest.approx(flat.score(g), rel=1e-12)


@pytest.mark.parametrize("kwargs, message", [
    ({"alpha": 0}, "alpha must be a positive number"),
    ({"alpha": "jeffreys"}, "alpha must be a positive number"),
    ({"kappa": 1.5}, "kappa must be a number in"),
])
def test_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MPLScore(_data(), **kwargs)


def test_bad_models_and_contexts():
    score = MPLScore(_data())
    g = nx.complete_graph(["v0", "v1", "v2"])
    with pytest.raises(TypeError, match="directed graph"):
        score.score(nx.DiGraph([("v0", "v1")]))
    with pytest.raises(ValueError, match=r"node\(s\) \['zz'\]"):
        score.score([("v0", "zz")])
    with pytest.raises(ValueError, match="not in the graph"):
        score.score(g, {("v0", "v4"): [{}]})
    with pytest.raises(ValueError, match=r"common neighbours \['v2'\] exactly"):
        score.score(g, {("v0", "v1"): [{"v3": 0}]})
    with pytest.raises(ValueError, match="State 7 of 'v2'"):
        score.score(g, {("v0", "v1"): [{"v2": 7}]})
