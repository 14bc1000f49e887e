"""A row's missing cells in independent parts: observed log probabilities and expected counts against brute force."""

import functools
import itertools

import numpy as np
import pytest

from pgmpy_sgm.core import posterior_parts
from pgmpy_sgm.core.posterior_parts import coupled_rows, row_log_probability, scopes_of, split_rows, with_scopes

CARDS = [2, 3, 2, 3, 2]
SCOPES = [(0,), (0, 1), (1, 2), (0, 3), (3, 4)]  # a tree: a -> b -> c, a -> d -> e


def _network(seed, with_terms=False):
    """A random network on SCOPES; with its terms declared (each unit then scored by the terms around it)."""
    rng = np.random.default_rng(seed)
    tables = [np.log(rng.dirichlet(np.ones(CARDS[s[-1]]), size=int(np.prod([CARDS[p] for p in s[:-1]], dtype=int))))
              for s in SCOPES]  # fmt: skip

    def term(x, scope, table):
        parent = np.ravel_multi_index([x[:, p] for p in scope[:-1]], [CARDS[p] for p in scope[:-1]]) \
            if len(scope) > 1 else np.zeros(len(x), dtype=int)  # fmt: skip
        return table[parent, x[:, scope[-1]]]

    terms = [functools.partial(term, scope=s, table=t) for s, t in zip(SCOPES, tables, strict=True)]

    def log_p(x):
        return sum(t(x) for t in terms)

    return with_scopes(log_p, SCOPES, terms if with_terms else None)


def _completions(row):
    hidden = [j for j, v in enumerate(row) if v < 0]
    for states in itertools.product(*(range(CARDS[j]) for j in hidden)):
        full = np.array(row)
        full[hidden] = states
        yield full


@pytest.mark.parametrize("with_terms", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_observed_log_probability_and_expected_counts_equal_brute_force(seed, with_terms):
    log_p = _network(seed, with_terms)
    rng = np.random.default_rng(10 + seed)
    rows = np.array([[int(rng.integers(CARDS[j])) for j in range(5)] for _ in range(12)])
    rows[rng.random(rows.shape) < 0.45] = -1
    rows = rows[(rows < 0).any(axis=1)]  # the incomplete rows (complete ones are never split)
    got = row_log_probability(split_rows(rows, CARDS, scopes_of(log_p), log_p))
    for i, row in enumerate(rows):
        full = np.array(list(_completions(row)))
        logs = log_p(full)
        assert got[i] == pytest.approx(np.logaddexp.reduce(logs), abs=1e-9)
        posterior = np.exp(logs - np.logaddexp.reduce(logs))
        one = split_rows(row[None, :], CARDS, scopes_of(log_p), log_p)
        mine = coupled_rows(one, CARDS, np.ones(1))
        assert len(mine[0]) <= len(full)  # at most the sum of the parts' completions, not their product
        for scope in SCOPES:  # exact expected counts of every scope's cells
            for cell in itertools.product(*(range(CARDS[j]) for j in scope)):
                brute = posterior[(full[:, list(scope)] == cell).all(axis=1)].sum()
                coupled = mine[1][(mine[0][:, list(scope)] == cell).all(axis=1)].sum()
                assert coupled == pytest.approx(brute, abs=1e-9)


@pytest.mark.parametrize("chunk, broadcast", [(1, 10**9), (5, 10**9), (1 << 20, 10**9), (1 << 20, 1), (5, 6)])
def test_units_scored_by_their_terms_have_the_whole_rows_posterior(monkeypatch, chunk, broadcast):
    """Units decoded in chunks of ``chunk`` completions, or scored by broadcasting from ``broadcast`` completions."""
    monkeypatch.setattr(posterior_parts, "CHUNK_COMPLETIONS", chunk)
    monkeypatch.setattr(posterior_parts, "BROADCAST_COMPLETIONS", broadcast)
    rng = np.random.default_rng(7)
    rows = np.array([[int(rng.integers(CARDS[j])) for j in range(5)] for _ in range(30)])
    rows[rng.random(rows.shape) < 0.5] = -1
    rows = rows[(rows < 0).any(axis=1)]
    whole, by_terms = _network(3), _network(3, with_terms=True)
    a = split_rows(rows, CARDS, SCOPES, whole)
    b = split_rows(rows, CARDS, SCOPES, by_terms)
    np.testing.assert_allclose(b.weights, a.weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(row_log_probability(b), row_log_probability(a), rtol=0, atol=1e-9)
    for i, row in enumerate(rows):  # and both are the brute-force marginal of the row
        assert row_log_probability(b)[i] == pytest.approx(np.logaddexp.reduce(whole(np.array(list(_completions(row))))),
                                                          abs=1e-9)
