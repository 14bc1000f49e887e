"""The family engine's cache: unlabelled families share one identity array; permuted parents keep their classes."""

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.data_checks import ExpectedCounts
from pgmpy_sgm.core.family_engine import FamilyEngine
from pgmpy_sgm.core.lines import identity_groups


def _data(seed: int = 0, n: int = 2000) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    a, b, c = rng.integers(0, 3, n), rng.integers(0, 4, n), rng.integers(0, 2, n)
    noise = rng.random(n) < 0.2
    y = np.where(noise, rng.integers(0, 3, n), (a + (b > 1) * (a > 0)) % 3)  # b matters only when a > 0
    return pd.DataFrame({"a": a, "b": b, "c": c, "y": y})


def test_identity_groups_are_views_of_one_read_only_array():
    small, large = identity_groups(5), identity_groups(50_000)
    assert small.tolist() == list(range(5)) and np.array_equal(large, np.arange(50_000))
    assert not small.flags.writeable and not large.flags.writeable
    assert np.shares_memory(identity_groups(7), identity_groups(9))
    assert small.tolist() == list(range(5))  # a view of the smaller array stays valid after growth
    for bad in (-1, 2.5, None, "3"):
        with pytest.raises(ValueError, match="n_configs must be an integer >= 0"):
            identity_groups(bad)


def test_identity_groups_of_nothing_is_read_only_in_a_fresh_process():
    """Before any growth the shared array is the module's first one: it must be read-only too."""
    import subprocess
    import sys

    code = "from pgmpy_sgm.core.lines import identity_groups; print(identity_groups(0).flags.writeable)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_unlabelled_families_share_the_identity_and_score_as_every_configuration_apart():
    engine = FamilyEngine(EncodedData(_data()), 5.0, 0.2, True, "auto", max_labelled_configs=4)
    parents = ("a", "b", "c")  # 24 configurations: more than 4, so not labelled
    res = engine.best_labelling("y", parents)
    assert np.array_equal(res.group_ids, np.arange(24))
    assert np.shares_memory(res.group_ids, identity_groups(24))
    assert res.value == pytest.approx(engine.family_score("y", parents, np.arange(24)), abs=1e-9)
    permuted = engine.best_labelling("y", ("c", "a", "b"))
    assert np.array_equal(permuted.group_ids, np.arange(24))
    assert np.shares_memory(permuted.group_ids, identity_groups(24))


def test_permuted_parents_keep_the_merged_classes():
    engine = FamilyEngine(EncodedData(_data()), 5.0, 1.0, True, "auto", max_labelled_configs=64)
    canon = engine.best_labelling("y", ("a", "b"))
    assert canon.group_ids.max() < canon.group_ids.size - 1  # a label merges the configurations of b at a = 0
    swapped = engine.best_labelling("y", ("b", "a"))
    # configuration (b, a) of the swapped order is configuration (a, b) of the canonical one
    expected = canon.group_ids.reshape(3, 4).T.reshape(-1)
    first_seen = {g: i for i, g in reversed(list(enumerate(expected)))}
    renumbered = {g: rank for rank, g in enumerate(sorted(first_seen, key=first_seen.get))}
    assert swapped.group_ids.tolist() == [renumbered[g] for g in expected]
    assert engine.family_score("y", ("b", "a"), swapped.group_ids) == pytest.approx(canon.value, abs=1e-9)


def _bdeu_by_formula(frame: pd.DataFrame, weights: np.ndarray, child: str, parents: tuple, cards: dict,
                     ess: float) -> float:  # fmt: skip
    """BDeu family term summed over every cell of the full table, empty cells included."""
    from math import lgamma

    q, r = int(np.prod([cards[p] for p in parents])), cards[child]
    table = np.zeros((q, r))
    for row, w in zip(frame[list(parents) + [child]].itertuples(index=False), weights, strict=True):
        config = 0
        for p, value in zip(parents, row[:-1], strict=True):
            config = config * cards[p] + value
        table[config, row[-1]] += w
    a = ess / (q * r)
    return sum(lgamma(r * a) - lgamma(table[j].sum() + r * a)
               + sum(lgamma(table[j, k] + a) - lgamma(a) for k in range(r)) for j in range(q))  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1])
def test_unlabelled_score_equals_bdeu_summed_over_every_cell(seed):
    """The one-pass kernel sums occupied cells only; the formula sums the whole table, fractional counts too."""
    from pgmpy.estimators import BDeu

    frame = _data(seed, n=300)
    cards = {"a": 3, "b": 4, "c": 2, "y": 3}
    weights = np.random.default_rng(seed).uniform(0.1, 2.0, len(frame))
    engine = FamilyEngine(EncodedData(frame, weights=ExpectedCounts(weights)), 3.0, 1.0, False, "auto", None)
    for child, parents in [("y", ()), ("y", ("a",)), ("y", ("b", "a", "c")), ("a", ("y", "b")), ("c", ("b", "y"))]:
        expected = _bdeu_by_formula(frame, weights, child, parents, cards, 3.0)
        assert engine.unlabelled_score(child, parents) == pytest.approx(expected, abs=1e-9)
        assert engine.best_labelling(child, parents).value == pytest.approx(expected, abs=1e-9)
    plain = FamilyEngine(EncodedData(frame), 3.0, 1.0, False, "auto", None)
    pgmpy_bdeu = BDeu(frame, equivalent_sample_size=3.0)
    assert plain.unlabelled_score("y", ("a", "b")) == pytest.approx(pgmpy_bdeu.local_score("y", ["a", "b"]), abs=1e-9)
    with pytest.raises(ValueError, match="cannot be its own parent"):
        plain.unlabelled_score("y", ("y",))
    with pytest.raises(ValueError, match="not a column"):
        plain.unlabelled_score("z", ("y",))
    for bad in (0.0, -1.0, float("nan"), float("inf"), "3", True):
        with pytest.raises(ValueError, match="equivalent_sample_size must be a positive finite number"):
            plain.encoded.family_bdeu("y", ("a",), bad)
