"""LDAGScore against an independent enumeration of all labellings and against pgmpy's BDeu."""

import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from pgmpy.causal_discovery import HillClimbSearch
from pgmpy.structure_score import BDeu

from pgmpy_sgm.structure_score import LDAGScore

# ---------------------------------------------------------------------------------------------
# Independent brute force: every set of labels (lines = a parent's states in one context of the
# other parents), its classes by union-find over parent configurations (tuples), regularity of
# its closure, and the BDeu class formula evaluated from raw rows.
# ---------------------------------------------------------------------------------------------


def _lines(cards):
    out = []
    for i in range(len(cards)):
        others = [range(k) if j != i else [None] for j, k in enumerate(cards)]
        for ctx in itertools.product(*others):
            out.append((i, [tuple(s if j == i else c for j, c in enumerate(ctx)) for s in range(cards[i])]))
    return out


def _classes(configs, label_lines):
    root = {c: c for c in configs}

    def find(a):
        while root[a] != a:
            a = root[a]
        return a

    for line in label_lines:
        for c in line[1:]:
            ra, rb = find(line[0]), find(c)
            if ra != rb:
                root[rb] = ra
    return {c: find(c) for c in configs}


def _brute_best(rows, parents, child, cards, ess, kappa):
    configs = list(itertools.product(*(range(cards[p]) for p in parents)))
    r = cards[child]
    q = len(configs)
    a = ess / (q * r)
    counts = Counter((tuple(row[p] for p in parents), row[child]) for row in rows)
    lines = _lines([cards[p] for p in parents])
    best = -math.inf
    seen = set()
    for mask in range(1 << len(lines)):
        chosen = [lines[i][1] for i in range(len(lines)) if mask >> i & 1]
        cls = _classes(configs, chosen)
        key = tuple(sorted(tuple(sorted(c for c in configs if cls[c] == root)) for root in set(cls.values())))
        if key in seen:
            continue
        seen.add(key)
        # regular: in every direction some line is not inside one class (closure keeps no edge deleted)
        regular = all(
            any(len({cls[c] for c in line}) > 1 for d, line in lines if d == direction)
            for direction in range(len(parents))
        )
        if not regular:
            continue
        total = 0.0
        for block in key:
            lam = len(block)
            n_k = [sum(counts[(c, k)] for c in block) for k in range(r)]
            total += math.lgamma(r * a * lam) - math.lgamma(sum(n_k) + r * a * lam)
            total += sum(math.lgamma(n + a * lam) - math.lgamma(a * lam) for n in n_k)
        total += (q - len(key)) * (r - 1) * math.log(kappa)
        best = max(best, total)
    return best


def _random_frame(cards, n, seed, skew=True):
    rng = np.random.default_rng(seed)
    cols = {}
    names = list(cards)
    for i, name in enumerate(names):
        k = cards[name]
        if i == len(names) - 1 and skew:
            # child depends on the parents only in some contexts
            par = sum(cols[p] for p in names[:-1]) % 2
            probs = np.where(par[:, None] == 0, np.ones(k) / k, np.eye(k)[0] * 0.7 + 0.3 / k)
            cols[name] = np.array([rng.choice(k, p=p) for p in probs])
        else:
            cols[name] = rng.integers(0, k, n)
    return pd.DataFrame(cols)


@pytest.mark.parametrize(
    ("cards", "ess", "kappa", "seed"),
    [
        ({"a": 2, "b": 2, "y": 2}, 1.0, 0.5, 0),
        ({"a": 2, "b": 2, "y": 2}, 10.0, 1.0, 1),
        ({"a": 2, "b": 2, "c": 2, "y": 2}, 1.0, 0.5, 2),
        ({"a": 2, "b": 2, "c": 2, "y": 2}, 4.0, 0.2, 3),
        ({"a": 3, "b": 3, "y": 3}, 1.0, 0.5, 4),
        ({"a": 3, "b": 2, "y": 3}, 2.0, 1.0, 5),
        ({"a": 2, "b": 3, "y": 2}, 1.0, 0.5, 6),
    ],
)
@pytest.mark.parametrize("n", [15, 200])
def test_local_score_is_best_labelling_by_enumeration(cards, ess, kappa, seed, n):
    df = _random_frame(cards, n, seed)
    *parents, child = list(cards)
    score = LDAGScore(
        df, equivalent_sample_size=ess, kappa=kappa, state_names={v: list(range(k)) for v, k in cards.items()}
    )
    expected = _brute_best(df.to_dict("records"), parents, child, cards, ess, kappa)
    assert score.local_score(child, tuple(parents)) == pytest.approx(expected, rel=1e-10, abs=1e-8)
    # the value is a property of the family, not of the parents' order
    assert score.local_score(child, tuple(reversed(parents))) == pytest.approx(expected, rel=1e-10, abs=1e-8)


def test_labels_found_where_the_data_put_them():
    rng = np.random.default_rng(0)
    n = 3000
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    # y copies a when b = 1 and is a fair coin when b = 0: a label on a -> y in context b = 0
    y = np.where(b == 1, a, rng.integers(0, 2, n))
    y = np.where(rng.random(n) < 0.1, 1 - y, y)
    df = pd.DataFrame({"a": a, "b": b, "y": y})
    res = LDAGScore(df).best_labelling("y", ("a", "b"))
    assert res.group_ids.tolist() == [0, 1, 0, 2]  # configs (a, b) = (0, 0) and (1, 0) merged


@pytest.mark.parametrize("ess", [1.0, 5.0, 10.0])
def test_without_labels_equals_pgmpy_bdeu(ess):
    df = _random_frame({"a": 2, "b": 3, "c": 2, "y": 3}, 300, 7)
    ours = LDAGScore(df, equivalent_sample_size=ess, labels=False)
    theirs = BDeu(df, equivalent_sample_size=ess)
    for child, parents in [("y", ()), ("y", ("a",)), ("y", ("a", "b")), ("y", ("c", "a", "b")), ("a", ("y", "c"))]:
        assert ours.local_score(child, parents) == pytest.approx(theirs.local_score(child, parents), rel=1e-10)


def test_single_parent_families_are_never_labelled():
    df = _random_frame({"a": 3, "y": 2}, 100, 8)
    ours = LDAGScore(df, equivalent_sample_size=2.0)
    assert ours.local_score("y", ("a",)) == pytest.approx(BDeu(df, equivalent_sample_size=2.0).local_score("y", ("a",)))


def test_labelling_never_lowers_the_score_at_flat_prior():
    df = _random_frame({"a": 2, "b": 2, "c": 3, "y": 2}, 400, 9)
    labelled = LDAGScore(df, kappa=1.0)
    plain = LDAGScore(df, labels=False)
    for parents in [("a", "b"), ("a", "b", "c"), ("c", "b")]:
        assert labelled.local_score("y", parents) >= plain.local_score("y", parents) - 1e-9


def test_heuristic_beyond_exact_range_is_valid_and_no_worse_than_unlabelled():
    df = _random_frame({"a": 3, "b": 3, "c": 2, "y": 2}, 500, 10)  # 18 configurations
    score = LDAGScore(df, kappa=1.0)
    res = score.best_labelling("y", ("a", "b", "c"))
    assert not res.exact and res.method == "heuristic"
    assert res.value >= LDAGScore(df, labels=False).local_score("y", ("a", "b", "c")) - 1e-9
    assert res.value == pytest.approx(score.family_score("y", ("a", "b", "c"), res.group_ids))


def test_hill_climb_search_accepts_the_score():
    df = _random_frame({"a": 2, "b": 2, "y": 2}, 500, 11)
    est = HillClimbSearch(scoring_method=LDAGScore(df), show_progress=False).fit(df)
    assert set(est.causal_graph_.nodes()) == {"a", "b", "y"}


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"equivalent_sample_size": 0}, "equivalent_sample_size"),
        ({"equivalent_sample_size": float("nan")}, "equivalent_sample_size"),
        ({"kappa": 0.0}, "kappa"),
        ({"kappa": 1.5}, "kappa"),
        ({"method": "mcmc"}, "method"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        LDAGScore(pd.DataFrame({"a": [0, 1]}), **kwargs)


def test_unknown_variable():
    score = LDAGScore(pd.DataFrame({"a": [0, 1], "b": [1, 0]}))
    with pytest.raises(ValueError, match="'z'"):
        score.local_score("z", ("a",))
    with pytest.raises(ValueError, match="'a'"):
        score.local_score("a", ("a",))


def test_single_state_parent_is_ignored_by_the_labelling():
    df = _random_frame({"a": 2, "b": 2, "y": 2}, 300, 12)
    df["k"] = 0  # one state only
    with_k = LDAGScore(df, kappa=1.0)
    without = LDAGScore(df.drop(columns="k"), kappa=1.0)
    assert with_k.local_score("y", ("a", "k", "b")) == pytest.approx(without.local_score("y", ("a", "b")))
    assert np.array_equal(
        with_k.best_labelling("y", ("a", "k", "b")).group_ids, without.best_labelling("y", ("a", "b")).group_ids
    )


def test_families_beyond_max_labelled_configs_are_unlabelled():
    df = _random_frame({"a": 3, "b": 3, "c": 2, "y": 2}, 500, 13)  # 18 configurations
    capped = LDAGScore(df, kappa=1.0, max_labelled_configs=16)
    plain = LDAGScore(df, kappa=1.0, labels=False)
    assert capped.local_score("y", ("a", "b", "c")) == pytest.approx(plain.local_score("y", ("a", "b", "c")))
    assert capped.local_score("y", ("a", "b")) > plain.local_score("y", ("a", "b")) - 1e-9
    with pytest.raises(ValueError, match="max_labelled_configs"):
        LDAGScore(df, max_labelled_configs=0)


@pytest.mark.parametrize("seed", [0, 1])
def test_classes_do_not_depend_on_the_order_of_the_parents(seed):
    cards = {"a": 2, "b": 3, "c": 2, "y": 2}
    df = _random_frame(cards, 300, seed)
    score = LDAGScore(df, kappa=0.5, state_names={v: list(range(k)) for v, k in cards.items()})
    expected = _brute_best(df.to_dict("records"), ["a", "b", "c"], "y", cards, 5.0, 0.5)

    def classes(parents):
        ids = score.best_labelling("y", parents).group_ids
        configs = itertools.product(*(range(cards[p]) for p in parents))  # C order, as the ids
        out = {}
        for cfg, g in zip(configs, ids, strict=True):
            out.setdefault(int(g), set()).add(frozenset(zip(parents, cfg, strict=True)))
        return {frozenset(v) for v in out.values()}

    reference = classes(("a", "b", "c"))
    for parents in itertools.permutations(("a", "b", "c")):
        assert classes(parents) == reference
        ids = score.best_labelling("y", parents).group_ids
        assert score.family_score("y", parents, ids) == pytest.approx(expected, rel=1e-10, abs=1e-8)
