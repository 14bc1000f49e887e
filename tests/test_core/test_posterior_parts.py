"""A row's missing cells in independent parts: observed log probabilities and expected counts against brute force."""

import itertools

import numpy as np
import pytest

from pgmpy_sgm.core.completions import enumerated_completions as enumerate_rows
from pgmpy_sgm.core.posterior_parts import coupled_rows, row_log_probability, scopes_of, split_rows, with_scopes

CARDS = [2, 3, 2, 3, 2]
SCOPES = [(0,), (0, 1), (1, 2), (0, 3), (3, 4)]  # a tree: a -> b -> c, a -> d -> e


def _network(seed):
    rng = np.random.default_rng(seed)
    tables = [np.log(rng.dirichlet(np.ones(CARDS[s[-1]]), size=int(np.prod([CARDS[p] for p in s[:-1]], dtype=int))))
              for s in SCOPES]  # fmt: skip

    def log_p(x):
        total = np.zeros(len(x))
        for scope, table in zip(SCOPES, tables, strict=True):
            parent = np.ravel_multi_index([x[:, p] for p in scope[:-1]], [CARDS[p] for p in scope[:-1]]) \
                if len(scope) > 1 else np.zeros(len(x), dtype=int)  # fmt: skip
            total += table[parent, x[:, scope[-1]]]
        return total

    return with_scopes(log_p, SCOPES)


def _completions(row):
    hidden = [j for j, v in enumerate(row) if v < 0]
    for states in itertools.product(*(range(CARDS[j]) for j in hidden)):
        full = np.array(row)
        full[hidden] = states
        yield full


@pytest.mark.parametrize("seed", range(3))
def test_observed_log_probability_and_expected_counts_equal_brute_force(seed):
    log_p = _network(seed)
    rng = np.random.default_rng(10 + seed)
    rows = np.array([[int(rng.integers(CARDS[j])) for j in range(5)] for _ in range(12)])
    rows[rng.random(rows.shape) < 0.45] = -1
    rows = rows[(rows < 0).any(axis=1)]  # the incomplete rows (complete ones are never split)
    got = row_log_probability(split_rows(rows, CARDS, scopes_of(log_p), log_p, enumerate_rows))
    for i, row in enumerate(rows):
        full = np.array(list(_completions(row)))
        logs = log_p(full)
        assert got[i] == pytest.approx(np.logaddexp.reduce(logs), abs=1e-9)
        posterior = np.exp(logs - np.logaddexp.reduce(logs))
        one = split_rows(row[None, :], CARDS, scopes_of(log_p), log_p, enumerate_rows)
        mine = coupled_rows(one, CARDS, np.ones(1))
        assert len(mine[0]) <= len(full)  # at most the sum of the parts' completions, not their product
        for scope in SCOPES:  # exact expected counts of every scope's cells
            for cell in itertools.product(*(range(CARDS[j]) for j in scope)):
                brute = posterior[(full[:, list(scope)] == cell).all(axis=1)].sum()
                coupled = mine[1][(mine[0][:, list(scope)] == cell).all(axis=1)].sum()
                assert coupled == pytest.approx(brute, abs=1e-9)
