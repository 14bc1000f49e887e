"""Completions of incomplete code rows: enumeration, posteriors and the observed-data probability."""

import itertools

import numpy as np
import pytest

from pgmpy_sgm.core.completions import (
    count_completions,
    enumerated_completions,
    marginal_log_probability,
    posterior_weights,
)


def test_every_completion_is_enumerated_once_per_row_in_chunks():
    rows = np.array([[0, -1, -1], [-1, 1, -1], [1, 0, 2]])
    cards = [2, 3, 3]
    blocks = list(enumerated_completions(rows, cards, chunk_cells=12))
    assert len(blocks) > 1  # the small chunk splits the rows
    seen = {i: set() for i in range(len(rows))}
    for first, _, block, segments in blocks:
        for code, owner in zip(block, segments.owner, strict=True):
            seen[first + owner].add(tuple(code))
    for i, row in enumerate(rows):
        brute = {tuple(np.where(row < 0, fill, row)) for fill in itertools.product(*(range(c) for c in cards))}
        assert seen[i] == brute
    assert count_completions(rows, cards).tolist() == [9.0, 6.0, 1.0]


def test_posterior_weights_normalise_and_are_uniform_when_every_completion_is_impossible():
    weights = posterior_weights(np.array([[0.0, np.log(3.0)], [-np.inf, -np.inf]]))
    np.testing.assert_allclose(weights, [[0.25, 0.75], [0.5, 0.5]])


def test_the_observed_part_of_a_row_has_its_summed_probability():
    rng = np.random.default_rng(0)
    joint = rng.dirichlet(np.ones(12)).reshape(2, 3, 2)
    log_joint = np.log(joint)

    def log_p(codes):
        return log_joint[codes[:, 0], codes[:, 1], codes[:, 2]]

    rows = np.array([[1, -1, 0], [-1, -1, 1], [0, 2, 1]])
    expected = [joint[1, :, 0].sum(), joint[:, :, 1].sum(), joint[0, 2, 1]]
    got = marginal_log_probability(rows, [2, 3, 2], log_p)
    assert np.exp(got) == pytest.approx(expected, abs=1e-12)
