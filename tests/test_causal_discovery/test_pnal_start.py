"""The start of structural EM climbed on a node-average score (BIC-penalised or BDeu) of the available cases."""

import itertools
import math

import numpy as np
import pytest
from pgmpy.estimators import BIC, BDeu
from scipy.special import gammaln

from pgmpy_sgm.causal_discovery._pnal_start import (
    available_family_table,
    node_average_family_score,
    pnal_log_probability,
    pnal_parents,
)
from pgmpy_sgm.core.missing import IncompleteTable


def _masked_codes(seed: int, n: int = 400, rate: float = 0.2):
    """A chain a -> b -> c of strong dependences, a free d, three states for c; cells masked at random."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = np.where(rng.random(n) < 0.9, a, 1 - a)
    c = np.where(rng.random(n) < 0.85, 2 * b, rng.integers(0, 3, n))
    d = rng.integers(0, 2, n)
    codes = np.column_stack([a, b, c, d])
    codes[rng.random(codes.shape) < rate] = -1
    return codes, np.ones(n), [2, 2, 3, 2]


def test_a_family_score_is_the_node_average_log_likelihood_of_its_available_rows_minus_the_penalty():
    codes, weights, cards = _masked_codes(0)
    family = node_average_family_score(codes, weights, cards)
    for y, parents in [(2, [1]), (1, [0, 3]), (0, [])]:
        rows = [tuple(r) for r in codes if all(r[v] >= 0 for v in [y, *parents])]
        counts: dict = {}
        for r in rows:
            counts[tuple(r[v] for v in [y, *parents])] = counts.get(tuple(r[v] for v in [y, *parents]), 0) + 1
        log_likelihood = 0.0
        for key, count in counts.items():
            given = sum(c for k, c in counts.items() if k[1:] == key[1:])
            log_likelihood += count * math.log(count / given)
        free = (cards[y] - 1) * math.prod(cards[p] for p in parents)
        expected = len(codes) * log_likelihood / len(rows) - 0.5 * math.log(len(codes)) * free
        assert family(y, sum(1 << p for p in parents)) == pytest.approx(expected, abs=1e-9)


def test_without_missing_cells_the_family_score_is_pgmpys_bic(heart_rows):
    data = heart_rows
    columns = list(data.columns)
    table = IncompleteTable.from_frame(data)
    family = node_average_family_score(table.codes, table.counts, table.cards)
    bic = BIC(data)
    for y, parents in [(0, []), (1, [0]), (3, [0, 5]), (2, [1, 4])]:
        value = family(y, sum(1 << p for p in parents))
        assert value == pytest.approx(bic.local_score(columns[y], [columns[p] for p in parents]), abs=1e-9)


def test_the_bdeu_family_score_is_bdeu_of_the_available_rows_scaled_to_all_rows():
    codes, weights, cards = _masked_codes(1)
    family = node_average_family_score(codes, weights, cards, bdeu_ess=5.0)
    for y, parents in [(2, [1]), (1, [0, 3]), (0, [])]:
        rows = [r for r in codes if all(r[v] >= 0 for v in [y, *parents])]
        scale = len(codes) / len(rows)
        configs = list(itertools.product(*(range(cards[p]) for p in parents)))
        a_config, a_cell = 5.0 / len(configs), 5.0 / (len(configs) * cards[y])
        expected = 0.0
        for config in configs:
            counts = [scale * sum(1 for r in rows if r[y] == k and tuple(r[p] for p in parents) == config)
                      for k in range(cards[y])]  # fmt: skip
            expected += float(gammaln(a_config) - gammaln(a_config + sum(counts)))
            expected += sum(float(gammaln(a_cell + c) - gammaln(a_cell)) for c in counts)
        assert family(y, sum(1 << p for p in parents)) == pytest.approx(expected, abs=1e-9)


def test_without_missing_cells_the_bdeu_family_score_is_pgmpys_bdeu(heart_rows):
    data = heart_rows
    columns = list(data.columns)
    table = IncompleteTable.from_frame(data)
    family = node_average_family_score(table.codes, table.counts, table.cards, bdeu_ess=5.0)
    bdeu = BDeu(data, equivalent_sample_size=5)
    for y, parents in [(0, []), (1, [0]), (3, [0, 5]), (2, [1, 4])]:
        value = family(y, sum(1 << p for p in parents))
        assert value == pytest.approx(bdeu.local_score(columns[y], [columns[p] for p in parents]), abs=1e-9)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.inf, True, "5"])
def test_a_bad_bdeu_ess_is_refused(bad):
    codes, weights, cards = _masked_codes(0, n=20)
    with pytest.raises(ValueError, match="bdeu_ess must be a finite number > 0"):
        node_average_family_score(codes, weights, cards, bdeu_ess=bad)


def test_a_family_never_seen_whole_or_too_wide_cannot_be_made():
    codes = np.array([[0, -1], [-1, 1], [1, -1]])
    family = node_average_family_score(codes, np.ones(3), [2, 2], max_indegree=1)
    assert family(1, 0b1) == -math.inf and np.isfinite(family(0, 0))
    assert node_average_family_score(codes, np.ones(3), [2, 2], max_indegree=0)(1, 0b1) == -math.inf
    assert available_family_table(codes, np.ones(3), [2, 2], [0]).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("bdeu_ess", [None, 5.0])
def test_the_climbed_dag_links_the_chain(seed, bdeu_ess):
    codes, weights, cards = _masked_codes(seed, n=2000)
    parents = pnal_parents(codes, weights, cards, bdeu_ess=bdeu_ess)
    edges = {frozenset((p, y)) for y, ps in enumerate(parents) for p in ps}
    assert {frozenset((0, 1)), frozenset((1, 2))} <= edges
    # nothing else here (families scored on different rows can gain spurious parents)
    if seed == 0 and bdeu_ess is None:
        assert edges == {frozenset((0, 1)), frozenset((1, 2))}


def test_the_start_is_a_normalised_distribution_with_its_terms_declared():
    codes, weights, cards = _masked_codes(2)
    log_p = pnal_log_probability(codes, weights, cards, ess=2.0)
    every = np.array(list(itertools.product(*(range(c) for c in cards))))
    assert np.exp(log_p(every)).sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(sum(term(every) for term in log_p.terms), log_p(every), atol=1e-12)
    assert log_p.scopes == tuple((y, *ps) for y, ps in enumerate(log_p.parents))
    # each family's table is its available cases plus ess spread over its cells
    y, ps = next((y, ps) for y, ps in enumerate(log_p.parents) if ps)
    table = available_family_table(codes, weights, cards, [y, *ps]) + 2.0 / math.prod(cards[v] for v in [y, *ps])
    row = np.zeros((1, len(cards)), dtype=int)
    first = (0,) * len(ps)  # every parent in its first state
    assert log_p.terms[y](row)[0] == pytest.approx(math.log(table[(0, *first)] / table[(slice(None), *first)].sum()))


@pytest.mark.parametrize("bad", [-1.0, math.inf, True, "1"])
def test_a_bad_ess_is_refused(bad):
    codes, weights, cards = _masked_codes(0, n=20)
    with pytest.raises(ValueError, match="ess must be a finite number >= 0"):
        pnal_log_probability(codes, weights, cards, ess=bad)


def test_a_malformed_table_is_refused():
    with pytest.raises(ValueError, match="one row per weight"):
        pnal_log_probability(np.zeros((3, 2), dtype=int), np.ones(2), [2, 2])
