"""One class's BDeu weight in scalar arithmetic, and the heuristic labelling that reads it."""

import math

import numpy as np
import pytest

from pgmpy_sgm.core import bdeu_groups
from pgmpy_sgm.core.bdeu_groups import CachedBlockWeights, _one_class_weight, optimal_bdeu_groups


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
def test_the_heuristic_finds_the_same_classes_with_array_weights(seed, monkeypatch):
    """The scalar weights only change how a block is weighed, not which classes the search returns."""
    rng = np.random.default_rng(seed)
    cards = (2, 3, 4)  # 24 configurations: beyond the exact search
    probs = rng.dirichlet(np.ones(3), size=4)[rng.integers(0, 4, 24)]  # few distinct distributions
    counts = np.array([rng.multinomial(int(rng.integers(0, 60)), p) for p in probs], dtype=float)
    fast = optimal_bdeu_groups(counts, cards, ess=2.0, log_kappa=-1.0)
    plain = CachedBlockWeights.__init__

    def without_scalar(self, rows, weights, one_class=None):
        plain(self, rows, weights, None)

    monkeypatch.setattr(bdeu_groups.CachedBlockWeights, "__init__", without_scalar)
    slow = optimal_bdeu_groups(counts, cards, ess=2.0, log_kappa=-1.0)
    assert not fast.exact and fast.group_ids.tolist() == slow.group_ids.tolist()
    assert fast.value == pytest.approx(slow.value, abs=1e-9)
