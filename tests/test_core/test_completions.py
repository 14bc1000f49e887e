"""Completions of incomplete code rows: enumeration, posteriors and the observed-data probability."""

import itertools

import numpy as np
import pytest

from pgmpy_sgm.core.completions import (
    complete_by_draws,
    count_completions,
    enumerated_completions,
    gibbs_chains,
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


def _heart_log_probability_functions():
    """The E-step's log probability of every kind of model, on the heart data (columns in data order)."""
    from pgmpy_sgm.core.missing import IncompleteTable, independent_log_probability
    from pgmpy_sgm.core.tree_start import chow_liu_log_probability
    from pgmpy_sgm.datasets import load_heart_disease
    from pgmpy_sgm.models import ContextualMarkovNetwork, LabeledBayesianNetwork, StratifiedGraphicalModel

    data = load_heart_disease()
    variables = list(data.columns)
    states = {v: sorted(data[v].unique().tolist()) for v in variables}
    edges = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
             ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
             ("systolic_bp", "lipoprotein_ratio")]  # fmt: skip
    strata = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
              ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}  # fmt: skip
    sgm = StratifiedGraphicalModel(edges, strata=strata, nodes=variables).fit(data)
    ldag = LabeledBayesianNetwork([("smoking", "systolic_bp"), ("lipoprotein_ratio", "systolic_bp"),
                                   ("mental_work", "physical_work")]).fit(data)  # fmt: skip
    cmn = ContextualMarkovNetwork(edges, contexts={("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}]})
    cmn.add_nodes_from(variables)
    cmn.fit(data)
    table = IncompleteTable.from_frame(data)
    return {
        "sgm": sgm.log_probability_function(variables),
        "ldag": ldag.log_probability_function(variables, states),
        "cmn": cmn.log_probability_function(variables),
        "tree": chow_liu_log_probability(table.codes, table.counts, table.cards),
        "independent": independent_log_probability(table),
    }, [len(states[v]) for v in variables]


@pytest.fixture(scope="module")
def heart_functions():
    return _heart_log_probability_functions()


@pytest.mark.parametrize("kind", ["sgm", "ldag", "cmn", "tree", "independent"])
def test_a_gibbs_update_from_the_terms_around_a_column_equals_the_whole_models(heart_functions, kind):
    from pgmpy_sgm.core.posterior_parts import local_log_probability

    functions, cards = heart_functions
    log_probability = functions[kind]
    assert log_probability.terms is not None
    rows = np.random.default_rng(1).integers(0, 2, size=(40, len(cards)))
    whole_sum = sum(term(rows) for term in log_probability.terms)
    shift = log_probability(rows) - whole_sum
    np.testing.assert_allclose(shift, shift[0], atol=1e-9)  # the terms sum to the model up to a constant
    for j in range(len(cards)):
        local = local_log_probability(log_probability, j)
        assert local is not log_probability
        options = np.repeat(rows, cards[j], axis=0)
        options[:, j] = np.tile(np.arange(cards[j]), len(rows))
        whole = log_probability(options).reshape(len(rows), cards[j])
        around = local(options).reshape(len(rows), cards[j])
        np.testing.assert_allclose(around - around[:, :1], whole - whole[:, :1], atol=1e-9)


def test_a_log_probability_without_terms_is_its_own_local_part_and_terms_must_match_the_scopes():
    from pgmpy_sgm.core.posterior_parts import local_log_probability, with_scopes

    def flat(codes):
        return np.zeros(len(codes))

    assert local_log_probability(flat, 0) is flat
    assert local_log_probability(with_scopes(flat, [(0,), (1,)]), 0) is flat
    with pytest.raises(ValueError, match="One term per scope: got 1 terms for 2 scopes"):
        with_scopes(flat, [(0,), (1,)], [flat])


@pytest.mark.parametrize("n_rows", [1, 3, 600])  # many chains per row, a few, one
def test_gibbs_draws_from_several_chains_per_row_match_the_exact_posterior(n_rows):
    rng = np.random.default_rng(4)
    cards = [2, 3, 2, 2]
    joint = rng.dirichlet(np.full(24, 0.5)).reshape(cards)  # uneven: some completions rare
    rows = np.tile([[-1, -1, 1, -1]], (n_rows, 1))
    n_draws = 3000 if n_rows < 600 else 200
    codes, counts = complete_by_draws(rows, np.ones(n_rows), cards, lambda x: np.log(joint[tuple(x.T)]),
                                      np.random.default_rng(0), n_draws)  # fmt: skip
    assert len(codes) == n_rows * n_draws and counts.sum() == pytest.approx(n_rows)
    assert gibbs_chains(n_rows, n_draws) == (min(512 // n_rows, n_draws // 10) or 1)
    exact = joint[:, :, 1, :] / joint[:, :, 1, :].sum()  # the posterior of the three missing cells
    for a, b, d in itertools.product(range(2), range(3), range(2)):
        share = counts[(codes == [a, b, 1, d]).all(axis=1)].sum() / n_rows
        assert share == pytest.approx(exact[a, b, d], abs=0.03)


@pytest.mark.parametrize("n_draws", [0, -3, 2.5, True])
def test_gibbs_draws_refuse_a_number_of_draws_that_is_not_a_positive_integer(n_draws):
    with pytest.raises(ValueError, match="n_draws must be a positive integer"):
        complete_by_draws(np.array([[-1, 0]]), np.ones(1), [2, 2], lambda x: np.zeros(len(x)),
                          np.random.default_rng(0), n_draws)  # fmt: skip
