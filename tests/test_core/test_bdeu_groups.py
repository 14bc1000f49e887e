"""One class's BDeu weight in scalar arithmetic, and the heuristic labelling that reads it."""

import math

import numpy as np
import pytest

from pgmpy_sgm.core import bdeu_groups
from pgmpy_sgm.core._label_search import local_search
from pgmpy_sgm.core.bdeu_groups import (
    CachedBlockWeights,
    _one_class_weight,
    bdeu_class_weights,
    dirichlet_class_weights,
    optimal_bdeu_groups,
)
from pgmpy_sgm.core.lines import canonical_groups
from pgmpy_sgm.core.optimize import best_partition_by_block, partition_space


def _class_weight_by_formula(pooled, size, a, log_kappa):
    """w(B): Dirichlet(a * size per state) marginal likelihood of the pooled counts, and the label charge."""
    alpha = a * size
    log_ml = math.lgamma(len(pooled) * alpha) - math.lgamma(sum(pooled) + len(pooled) * alpha)
    log_ml += sum(math.lgamma(n + alpha) - math.lgamma(alpha) for n in pooled)
    return log_ml + (size - 1) * (len(pooled) - 1) * log_kappa


@pytest.mark.parametrize("seed", range(3))
def test_one_class_weight_is_the_formula(seed):
    rng = np.random.default_rng(seed)
    for _ in range(50):
        r, size = int(rng.integers(2, 5)), int(rng.integers(1, 9))
        pooled = (rng.integers(0, 40, r) * rng.uniform(0.5, 1.5, r)).tolist()  # fractional counts too
        a, log_kappa = float(rng.uniform(0.01, 2.0)), float(-rng.uniform(0.0, 3.0))
        expected = _class_weight_by_formula(pooled, size, a, log_kappa)
        assert _one_class_weight(pooled, size, a, log_kappa) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_the_heuristic_finds_the_classes_of_the_python_search(seed):
    """The compiled search returns the classes the Python search finds with the array weights."""
    rng = np.random.default_rng(seed)
    cards = (2, 3, 4)  # 24 configurations: beyond the exact search
    probs = rng.dirichlet(np.ones(3), size=4)[rng.integers(0, 4, 24)]  # few distinct distributions
    counts = np.array([rng.multinomial(int(rng.integers(1, 60)), p) for p in probs], dtype=float)
    found = optimal_bdeu_groups(counts, cards, ess=2.0, log_kappa=-1.0)
    a = 2.0 / (24 * 3)
    space = partition_space(cards, (False,) * 3)
    weights = CachedBlockWeights(counts, lambda pooled, lam: bdeu_groups._weights(pooled, lam, a, -1.0))
    expected = canonical_groups(space.group_ids(local_search(space, weights)))
    assert not found.exact and found.method == "heuristic"
    assert found.group_ids.tolist() == expected.tolist()
    assert found.value == pytest.approx(bdeu_class_weights(counts, expected, 2.0, -1.0), abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_the_exact_classes_are_those_of_the_array_weights(seed):
    """The exact search weighs its blocks in one compiled pass: the same classes as with the numpy weights."""
    rng = np.random.default_rng(seed)
    cards = ((2, 2, 2), (2, 3, 2), (2, 2, 2, 2))[seed % 3]
    q = int(np.prod(cards))
    probs = rng.dirichlet(np.ones(3), size=3)[rng.integers(0, 3, q)]
    counts = np.array([rng.multinomial(int(rng.integers(0, 40)), p) for p in probs], dtype=float)
    found = optimal_bdeu_groups(counts, cards, ess=5.0, log_kappa=-1.6)
    a = 5.0 / (q * 3)
    expected = best_partition_by_block(cards, (False,) * len(cards), counts,
                                       lambda pooled, lam: bdeu_groups._weights(pooled, lam, a, -1.6))
    assert found.exact and found.group_ids.tolist() == canonical_groups(expected).tolist()


@pytest.mark.parametrize("seed", range(4))
def test_one_hyperparameter_gives_the_weights_of_its_full_array_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    pooled = rng.integers(0, 40, size=(int(rng.integers(1, 30)), int(rng.integers(2, 5)))).astype(float)
    pooled[0] += rng.random(pooled.shape[1])  # fractional counts too, as EM's completed tables carry
    sizes = rng.integers(1, 6, pooled.shape[0]).astype(float)
    alpha = float(rng.uniform(0.05, 2.0))
    scalar = dirichlet_class_weights(pooled, alpha, sizes, -0.7)
    array = dirichlet_class_weights(pooled, np.full(pooled.shape[0], alpha), sizes, -0.7)
    assert np.array_equal(scalar, array)
