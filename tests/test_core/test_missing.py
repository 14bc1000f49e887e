"""Incomplete data: the missing= choices and the E-step, against brute force."""

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore
from pgmpy_sgm.core.data import ExpectedCounts
from pgmpy_sgm.core.missing import (
    EMOptions,
    IncompleteTable,
    MissingValuesWarning,
    complete_rows,
    missing_error,
    resolve_missing,
)


def _masked(n=60, seed=0, rate=0.3):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"a": rng.integers(0, 2, n), "b": rng.integers(0, 3, n), "c": rng.integers(0, 2, n)})
    return frame.astype(object).mask(rng.random(frame.shape) < rate)


def _random_joint(cards, seed=1):
    rng = np.random.default_rng(seed)
    joint = rng.random(cards)
    return joint / joint.sum()


def test_expected_counts_equal_a_brute_force_sum_over_completions():
    frame = _masked()
    table = IncompleteTable.from_frame(frame)
    joint = _random_joint(table.cards)
    done = complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]))
    expected = np.zeros(table.cards)
    for row in frame.itertuples(index=False):  # every row of the data, one at a time
        cells = zip(frame.columns, row, strict=True)
        observed = [None if pd.isna(x) else table.state_names[v].index(x) for v, x in cells]
        options = [range(k) if o is None else [o] for o, k in zip(observed, table.cards, strict=True)]
        completions = list(itertools.product(*options))
        p = np.array([joint[c] for c in completions])
        for c, w in zip(completions, p / p.sum(), strict=True):
            expected[c] += w
    got = np.zeros(table.cards)
    for row, count in zip(done.frame.itertuples(index=False), done.counts, strict=True):
        got[tuple(table.state_names[v].index(x) for v, x in zip(frame.columns, row, strict=True))] += count
    np.testing.assert_allclose(got, expected, atol=1e-12)
    assert done.n_exact == (frame.isna().any(axis=1)).sum() and done.n_drawn == 0


def test_rows_beyond_the_limit_are_completed_by_draws_from_the_same_posterior():
    frame = pd.DataFrame({"a": [None] * 5 + [0, 1], "b": [None] * 5 + [1, 0]}, dtype=object)
    table = IncompleteTable.from_frame(frame)
    joint = np.array([[0.1, 0.2], [0.3, 0.4]])
    done = complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]), max_completions=1, n_draws=4000)
    assert done.n_drawn == 5 and done.n_exact == 0
    assert done.counts.sum() == pytest.approx(7.0)
    cells = {(r.a, r.b): c for r, c in zip(done.frame.itertuples(index=False), done.counts, strict=True)}
    for (a, b), p in np.ndenumerate(joint):  # 5 rows spread as the joint, plus the two complete rows
        assert cells[(a, b)] - (1 if (a, b) in {(0, 1), (1, 0)} else 0) == pytest.approx(5 * p, abs=0.15)


def test_fractional_counts_are_scored_exactly():
    """The score of one variable from expected counts, against the Dirichlet formula written out here."""
    frame = pd.DataFrame({"a": [0, 1, 0], "b": [0, 0, 1]})
    counts = ExpectedCounts([0.25, 1.5, 2.75])
    score = SGMScore(frame, weights=counts)
    n0, n1, n = 0.25 + 2.75, 1.5, 4.5
    expected = math.lgamma(2) - math.lgamma(2 + n) + math.lgamma(1 + n0) + math.lgamma(1 + n1)
    assert score.local_score("a", ()) == pytest.approx(expected, abs=1e-9)


def test_user_counts_must_still_be_whole():
    with pytest.raises(ValueError, match="whole counts"):
        SGMScore(pd.DataFrame({"a": [0, 1]}), weights=np.array([0.5, 1.0]))


def test_the_error_names_every_column_with_its_count():
    frame = pd.DataFrame({"a": [0, None, 1, 1], "b": ["x", "", "y", None], "c": [1, 1, 0, 0]})
    message = str(missing_error(frame))
    assert "'a' (1 missing)" in message and "'b' (2 missing)" in message and "'c'" not in message
    assert message.startswith("2 of 4 rows")
    with pytest.raises(ValueError, match="complete_cases"):
        resolve_missing(frame)


def test_complete_cases_and_state():
    frame = pd.DataFrame({"a": [0, None, 1, 1.0], "b": ["x", "y", "y", "x"]})
    with pytest.warns(MissingValuesWarning, match="Dropped 1 of 4 rows"):
        kept, weights = resolve_missing(frame, np.array([1, 2, 3, 4]), "complete_cases")
    assert len(kept) == 3 and weights.tolist() == [1, 3, 4]
    state, _ = resolve_missing(frame, missing="state")
    assert state["a"].tolist() == ["0", "missing", "1", "1"] and state["b"].tolist() == frame["b"].tolist()


@pytest.mark.parametrize("bad", ["drop", None, 3, EMOptions])
def test_bad_missing_option(bad):
    with pytest.raises(ValueError, match="missing must be one of"):
        resolve_missing(pd.DataFrame({"a": [0, 1]}), missing=bad)


@pytest.mark.parametrize("field, value", [("max_iter", 0), ("tol", -0.5), ("n_draws", 1.5), ("max_completions", True),
                                          ("max_kept", 0), ("n_tail_draws", -1), ("max_kept", 2.0)])
def test_bad_em_options(field, value):
    with pytest.raises(ValueError, match=field):
        EMOptions(**{field: value})


def test_no_missing_cell_leaves_the_data_alone():
    frame = pd.DataFrame({"a": [0, 1], "b": ["x", "y"]})
    for choice in ("error", "complete_cases", "state", "em"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out, _ = resolve_missing(frame, missing=choice)
        pd.testing.assert_frame_equal(out, frame)


def test_row_log_probabilities_refuse_columns_and_states_the_model_lacks():
    from pgmpy_sgm import LabeledBayesianNetwork
    from pgmpy_sgm.core.missing import marginal_log_probability
    from pgmpy_sgm.models import StratifiedGraphicalModel

    data = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    for model in (LabeledBayesianNetwork([("a", "b")]).fit(data), StratifiedGraphicalModel([("a", "b")]).fit(data)):
        with pytest.raises(ValueError, match=r"columns \['a'\] lack the model's variable\(s\) \['b'\]"):
            model.log_probability_function(["a"], {"a": [0, 1], "b": [0, 1]})
        with pytest.raises(ValueError, match=r"State\(s\) \[5\] of 'b' are not states of the model"):
            model.log_probability_function(["a", "b"], {"a": [0, 1], "b": [0, 5]})
        with pytest.raises(ValueError, match=r"state names of \['a'\] lack"):
            model.log_probability_function(["a", "b"], {"a": [0, 1]})
    with pytest.raises(ValueError, match="beyond must be"):
        marginal_log_probability(np.array([[0]]), [2], lambda c: np.zeros(len(c)), beyond="skip")


def _brute_force_posteriors(frame, table, joint):
    """Per data row: its completions (as index tuples) and their posterior weights, by enumeration."""
    out = []
    for row in frame.itertuples(index=False):
        cells = zip(frame.columns, row, strict=True)
        observed = [None if pd.isna(x) else table.state_names[v].index(x) for v, x in cells]
        options = [range(k) if o is None else [o] for o, k in zip(observed, table.cards, strict=True)]
        completions = list(itertools.product(*options))
        p = np.array([joint[c] for c in completions])
        out.append((completions, p))
    return out


def test_the_e_step_reports_the_observed_data_log_likelihood_of_its_model():
    frame = _masked(seed=3)
    table = IncompleteTable.from_frame(frame)
    joint = _random_joint(table.cards, seed=4)
    done = complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]))
    expected = sum(math.log(p.sum()) for _, p in _brute_force_posteriors(frame, table, joint))
    assert done.log_likelihood == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("tail_mass", [0.05, 0.2])
def test_a_row_keeps_the_head_of_its_posterior_holding_one_minus_the_tail_mass(tail_mass):
    """Each row's most probable completions, until they hold 1 - tail_mass, renormalised: against brute force."""
    frame = _masked(seed=5, rate=0.5)
    table = IncompleteTable.from_frame(frame)
    joint = _random_joint(table.cards, seed=6)
    done = complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]), tail_mass=tail_mass)
    expected = np.zeros(table.cards)
    for completions, p in _brute_force_posteriors(frame, table, joint):
        p = p / p.sum()
        kept, held = [], 0.0
        for i in sorted(range(len(p)), key=lambda i: -p[i]):  # most probable first
            if held >= 1 - tail_mass:
                break
            kept.append(i)
            held += p[i]
        for i in kept:
            expected[completions[i]] += p[i] / held
    got = np.zeros(table.cards)
    for row, count in zip(done.frame.itertuples(index=False), done.counts, strict=True):
        got[tuple(table.state_names[v].index(x) for v, x in zip(frame.columns, row, strict=True))] += count
    np.testing.assert_allclose(got, expected, atol=1e-12)
    assert len(done.counts) < len(complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)])).counts)


def test_draws_use_the_same_random_numbers_for_the_same_seed():
    frame = pd.DataFrame({"a": [None] * 5 + [0, 1], "b": [None] * 5 + [1, 0]}, dtype=object)
    table = IncompleteTable.from_frame(frame)
    joint = np.array([[0.1, 0.2], [0.3, 0.4]])
    one, two = (complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]), max_completions=1, n_draws=50,
                              seed=11) for _ in range(2))  # fmt: skip
    pd.testing.assert_frame_equal(one.frame, two.frame)
    np.testing.assert_array_equal(one.counts, two.counts)


def test_the_settling_threshold_is_relative_to_the_objective_with_an_absolute_floor():
    options = EMOptions(tol=0.5, rtol=1e-3)
    assert options.threshold(-20_000.0) == pytest.approx(20.0)
    assert options.threshold(-100.0) == 0.5
    assert options.threshold(float("nan")) == 0.5
    with pytest.raises(ValueError, match="EMOptions tail_mass must be a number >= 0 and < 0.5. Got: 0.7"):
        EMOptions(tail_mass=0.7)
    with pytest.raises(ValueError, match="EMOptions rtol must be a number >= 0. Got: -0.1"):
        EMOptions(rtol=-0.1)


def _counts_by_cell(done, table, frame):
    """The completed table's expected counts as an array over every combination of states."""
    got = np.zeros(table.cards)
    for row, count in zip(done.frame.itertuples(index=False), done.counts, strict=True):
        got[tuple(table.state_names[v].index(x) for v, x in zip(frame.columns, row, strict=True))] += count
    return got


def _brute_force_counts(frame, table, joint):
    expected = np.zeros(table.cards)
    for completions, p in _brute_force_posteriors(frame, table, joint):
        for c, w in zip(completions, p / p.sum(), strict=True):
            expected[c] += w
    return expected


@pytest.mark.parametrize("n_tail_draws", [0, 3])
def test_a_cap_at_least_the_completions_gives_the_exact_e_step(n_tail_draws):
    frame = _masked(seed=7, rate=0.5)
    table = IncompleteTable.from_frame(frame)
    joint = _random_joint(table.cards, seed=8)
    done = complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]), max_kept=math.prod(table.cards),
                         n_tail_draws=n_tail_draws)  # fmt: skip
    np.testing.assert_allclose(_counts_by_cell(done, table, frame), _brute_force_counts(frame, table, joint),
                               atol=1e-12)  # fmt: skip
    assert done.n_capped == 0 and done.n_exact == frame.isna().any(axis=1).sum()


def test_a_capped_row_without_tail_draws_keeps_its_most_probable_completions_renormalised():
    frame = _masked(seed=9, rate=0.5)
    table = IncompleteTable.from_frame(frame)
    joint = _random_joint(table.cards, seed=10)
    done = complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]), max_kept=2)
    expected, n_capped = np.zeros(table.cards), 0
    for completions, p in _brute_force_posteriors(frame, table, joint):
        p = p / p.sum()
        top = sorted(range(len(p)), key=lambda i: -p[i])[:2]
        n_capped += len(p) > 2  # every completion has a positive probability
        for i in top:
            expected[completions[i]] += p[i] / sum(p[j] for j in top)
    np.testing.assert_allclose(_counts_by_cell(done, table, frame), expected, atol=1e-12)
    assert done.n_capped == n_capped and done.n_exact + done.n_capped == frame.isna().any(axis=1).sum()


def test_the_capped_table_is_bounded_by_the_kept_completions_and_the_draws_per_row():
    frame = _masked(n=400, seed=11, rate=0.6)
    table = IncompleteTable.from_frame(frame)
    joint = _random_joint(table.cards, seed=12)
    done = complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]), max_kept=1, n_tail_draws=1)
    incomplete = (table.codes < 0).any(axis=1)
    assert len(done.counts) <= (~incomplete).sum() + 2 * incomplete.sum()
    assert done.counts.sum() == pytest.approx(400.0)


def test_capped_expected_counts_with_tail_draws_are_unbiased_and_converge_to_the_exact_ones():
    """The mean over seeds of the capped E-step's counts, and one E-step with many draws, against brute force."""
    frame = _masked(seed=13, rate=0.6)
    table = IncompleteTable.from_frame(frame)
    joint = _random_joint(table.cards, seed=14)
    exact = _brute_force_counts(frame, table, joint)
    log_p = lambda codes: np.log(joint[tuple(codes.T)])  # noqa: E731
    runs = [_counts_by_cell(complete_rows(table, log_p, seed=s, max_kept=1, n_tail_draws=1), table, frame)
            for s in range(400)]  # fmt: skip
    assert complete_rows(table, log_p, seed=0, max_kept=1, n_tail_draws=1).n_capped > 20
    spread = np.std(runs, axis=0) / np.sqrt(len(runs))
    assert np.all(np.abs(np.mean(runs, axis=0) - exact) <= 4 * spread + 1e-9)  # unbiased: within 4 standard errors
    assert np.abs(runs[0] - exact).max() > 0.1  # one run with one draw is visibly off ...
    many = _counts_by_cell(complete_rows(table, log_p, seed=0, max_kept=1, n_tail_draws=2000), table, frame)
    np.testing.assert_allclose(many, exact, atol=0.02)  # ... many draws are close


def test_tail_draws_are_the_same_for_the_same_seed():
    frame = _masked(seed=15, rate=0.6)
    table = IncompleteTable.from_frame(frame)
    joint = _random_joint(table.cards, seed=16)
    one, two, other = (complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)]), seed=s, max_kept=1,
                                     n_tail_draws=2) for s in (5, 5, 6))  # fmt: skip
    pd.testing.assert_frame_equal(one.frame, two.frame)
    np.testing.assert_array_equal(one.counts, two.counts)
    assert len(one.counts) != len(other.counts) or not np.array_equal(one.counts, other.counts)


def _saturated_fit(table):
    """Maximum likelihood of the full joint of the table's variables (plus a tiny floor): a test M-step."""

    def fit(completed):
        joint = np.full(table.cards, 1e-9)
        np.add.at(joint, tuple(completed.codes.T), completed.counts)
        joint /= joint.sum()
        return lambda codes: np.log(joint[tuple(codes.T)])

    return fit


def test_parameter_em_with_capped_first_e_steps_ends_exact_at_the_exact_em_fixed_point():
    from pgmpy_sgm.core.missing import parameter_em

    frame = _masked(n=300, seed=17, rate=0.6)
    table = IncompleteTable.from_frame(frame)
    fit = _saturated_fit(table)
    exact = parameter_em(table, fit, EMOptions(max_iter=200, tol=1e-7, rtol=0, max_kept=None))
    capped = parameter_em(table, fit, EMOptions(max_iter=200, tol=1e-7, rtol=0, max_kept=1, n_tail_draws=1))
    assert set(exact["e_step"]) == {"exact"}
    assert capped["e_step"].iloc[0] == "capped" and capped["e_step"].iloc[-1] == "exact"
    assert (capped.loc[capped["e_step"] == "exact", "gain"] >= -1e-9).all()
    assert capped["log_likelihood"].iloc[-1] == pytest.approx(exact["log_likelihood"].iloc[-1], abs=1e-3)


def test_parameter_em_with_no_row_capped_is_the_exact_em():
    from pgmpy_sgm.core.missing import parameter_em

    frame = _masked(n=300, seed=18, rate=0.2)
    table = IncompleteTable.from_frame(frame)
    fit = _saturated_fit(table)
    exact = parameter_em(table, fit, EMOptions(max_iter=50, max_kept=None))
    capped = parameter_em(table, fit, EMOptions(max_iter=50, max_kept=12))  # 12 = every completion of a row
    pd.testing.assert_frame_equal(exact.drop(columns="e_step"), capped.drop(columns="e_step"))


# ---- the E-step on a model that declares its factors' scopes (rows split into independent parts) ----


def _network_joint(cards, seed):
    """A random Bayesian network a -> b, a -> c, c -> d, e alone (cards per variable): its CPTs and joint."""
    rng = np.random.default_rng(seed)
    p_a, p_e = rng.dirichlet(np.ones(cards[0])), rng.dirichlet(np.ones(cards[4]))
    b_a = rng.dirichlet(np.ones(cards[1]), size=cards[0])
    c_a = rng.dirichlet(np.ones(cards[2]), size=cards[0])
    d_c = rng.dirichlet(np.ones(cards[3]), size=cards[2])
    joint = np.einsum("a,ab,ac,cd,e->abcde", p_a, b_a, c_a, d_c, p_e)
    return joint


def _scoped(joint):
    """The joint's log probability, declaring the network's families as scopes (the joint is their product)."""
    from pgmpy_sgm.core.posterior_parts import with_scopes

    return with_scopes(lambda codes: np.log(joint[tuple(codes.T)]), [(0,), (0, 1), (0, 2), (2, 3), (4,)])


def _names(cards):
    return {v: list(range(k)) for v, k in zip("abcde", cards, strict=True)}


def _network_frame(n, seed, rate, cards):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({v: rng.integers(0, k, n) for v, k in zip("abcde", cards, strict=True)})
    return frame.astype(object).mask(rng.random(frame.shape) < rate)


def test_split_rows_give_the_brute_force_observed_log_likelihood():
    from pgmpy_sgm.core.missing import marginal_log_probability

    cards = (2, 3, 2, 3, 2)
    frame = _network_frame(80, 21, 0.5, cards)
    table = IncompleteTable.from_frame(frame, state_names=_names(cards))
    joint = _network_joint(cards, 22)
    expected = sum(math.log(p.sum()) for _, p in _brute_force_posteriors(frame, table, joint))
    done = complete_rows(table, _scoped(joint), max_kept=2, n_tail_draws=1)
    assert done.log_likelihood == pytest.approx(expected, abs=1e-9)
    got = marginal_log_probability(table.codes, table.cards, _scoped(joint))
    assert float(np.dot(got, table.counts)) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("max_kept", "tail_mass"), [(1, 0.0), (3, 0.0), (4, 0.1), (8, 0.3)])
def test_split_rows_keep_the_most_probable_completions_of_the_whole_row(max_kept, tail_mass):
    """Rows split into parts keep their most probable joint completions, at most max_kept of them, until they
    hold 1 - tail_mass, renormalised (no tail draws): against brute force over each whole row."""
    cards = (2, 3, 2, 3, 2)
    frame = _network_frame(80, 23, 0.6, cards)
    table = IncompleteTable.from_frame(frame, state_names=_names(cards))
    joint = _network_joint(cards, 24)
    done = complete_rows(table, _scoped(joint), max_kept=max_kept, tail_mass=tail_mass)
    expected, n_capped = np.zeros(cards), 0
    for completions, p in _brute_force_posteriors(frame, table, joint):
        p = p / p.sum()
        top, held = [], 0.0
        for i in sorted(range(len(p)), key=lambda i: -p[i])[:max_kept]:
            if held >= 1 - tail_mass:
                break
            top.append(i)
            held += p[i]
        n_capped += sum(p[i] for i in range(len(p)) if i not in top) > tail_mass
        for i in top:
            expected[completions[i]] += p[i] / held
    np.testing.assert_allclose(_counts_by_cell(done, table, frame), expected, atol=1e-12)
    assert done.n_capped == n_capped


def test_split_rows_with_tail_draws_are_unbiased_and_exact_without_a_cap():
    cards = (2, 3, 2, 3, 2)
    frame = _network_frame(60, 25, 0.6, cards)
    table = IncompleteTable.from_frame(frame, state_names=_names(cards))
    joint = _network_joint(cards, 26)
    exact = _brute_force_counts(frame, table, joint)
    log_p = _scoped(joint)
    uncapped = complete_rows(table, log_p, max_kept=math.prod(cards), n_tail_draws=2)
    np.testing.assert_allclose(_counts_by_cell(uncapped, table, frame), exact, atol=1e-12)
    runs = [_counts_by_cell(complete_rows(table, log_p, seed=s, max_kept=1, n_tail_draws=1), table, frame)
            for s in range(300)]  # fmt: skip
    spread = np.std(runs, axis=0) / np.sqrt(len(runs))
    assert np.all(np.abs(np.mean(runs, axis=0) - exact) <= 4 * spread + 1e-9)
    assert np.abs(runs[0] - exact).max() > 0.1
    one, two = (complete_rows(table, log_p, seed=5, max_kept=1, n_tail_draws=2) for _ in range(2))
    np.testing.assert_array_equal(one.counts, two.counts)


def test_coupled_parts_give_exact_counts_of_every_family_in_fewer_rows():
    """coupled_scopes: the expected counts of each family (and of e) equal brute force; the table is smaller."""
    cards = (2, 3, 2, 3, 2)
    frame = _network_frame(80, 27, 0.6, cards)
    table = IncompleteTable.from_frame(frame, state_names=_names(cards))
    joint = _network_joint(cards, 28)
    log_p = _scoped(joint)
    coupled = complete_rows(table, log_p, coupled_scopes=log_p.scopes)
    got, exact = _counts_by_cell(coupled, table, frame), _brute_force_counts(frame, table, joint)
    for family in [(0, 1), (0, 2), (2, 3), (4,)]:
        others = tuple(j for j in range(5) if j not in family)
        np.testing.assert_allclose(got.sum(axis=others), exact.sum(axis=others), atol=1e-12)
    assert got.sum() == pytest.approx(80.0)
    assert len(coupled.counts) < len(complete_rows(table, lambda codes: np.log(joint[tuple(codes.T)])).counts)
    with pytest.raises(ValueError, match="coupled_scopes keeps every part's whole posterior"):
        complete_rows(table, log_p, max_kept=2, coupled_scopes=log_p.scopes)


def test_rows_whose_reference_completion_is_impossible_are_completed_whole():
    """A zero in the model (state 0 of d impossible) must not break the split: expected counts still exact."""
    cards = (2, 3, 2, 3, 2)
    frame = _network_frame(80, 29, 0.5, cards)
    table = IncompleteTable.from_frame(frame, state_names=_names(cards))
    joint = _network_joint(cards, 30)
    joint[:, :, :, 0, :] = 0.0
    frame.loc[frame["d"] == 0, "d"] = None  # no observed row may be impossible
    assert frame["d"].isna().sum() > 20  # rows missing d: their reference completion (d = 0) is impossible
    table = IncompleteTable.from_frame(frame, state_names=_names(cards))
    with np.errstate(divide="ignore"):
        done = complete_rows(table, _scoped(joint / joint.sum()), max_kept=math.prod(cards), n_tail_draws=0)
    np.testing.assert_allclose(_counts_by_cell(done, table, frame), _brute_force_counts(frame, table, joint),
                               atol=1e-12)  # fmt: skip


def test_parameter_em_on_coupled_parts_follows_the_em_on_every_completion():
    """A labelled network's parameter EM: exact E-steps on coupled parts give the same iterations as exact
    E-steps listing every completion of each row (the fit hidden behind a function without scopes)."""
    from pgmpy_sgm import LabeledBayesianNetwork
    from pgmpy_sgm.core.missing import parameter_em

    cards = (2, 3, 2, 3, 2)
    names = {v: list(range(k)) for v, k in zip("abcde", cards, strict=True)}
    rng = np.random.default_rng(31)
    joint = _network_joint(cards, 32)
    cells = rng.choice(joint.size, size=400, p=joint.ravel())
    frame = pd.DataFrame(np.column_stack(np.unravel_index(cells, cards)), columns=list("abcde"))
    frame = frame.astype(object).mask(rng.random(frame.shape) < 0.4)
    table = IncompleteTable.from_frame(frame, state_names=names)

    def fit_with(scoped):
        def fit(completed):
            net = LabeledBayesianNetwork([("a", "b"), ("a", "c"), ("c", "d")])
            net.add_node("e")
            net.fit(completed.frame, weights=completed.counts, state_names=names)
            f = net.log_probability_function(table.variables, names)
            return f if scoped else (lambda codes: f(codes))

        return fit

    options = EMOptions(max_iter=30, tol=1e-6, rtol=0, max_kept=None)
    coupled, listed = (parameter_em(table, fit_with(scoped), options) for scoped in (True, False))
    assert len(coupled) > 3 and (coupled["gain"].iloc[1:] >= -1e-9).all()
    np.testing.assert_allclose(coupled["log_likelihood"], listed["log_likelihood"], rtol=0, atol=1e-8)


def test_the_cache_of_parts_gives_the_same_e_step_under_another_model():
    """E-steps sharing a cache (same rows and scopes, other model values) equal E-steps without it."""
    cards = (2, 3, 2, 3, 2)
    frame = _network_frame(80, 33, 0.5, cards)
    table = IncompleteTable.from_frame(frame, state_names=_names(cards))
    cache = {}
    for seed in (34, 35):  # two models of the same structure: the second E-step reads the cached parts
        log_p = _scoped(_network_joint(cards, seed))
        for options in ({"max_kept": 2, "n_tail_draws": 1, "tail_mass": 0.01}, {"coupled_scopes": log_p.scopes}):
            with_cache = complete_rows(table, log_p, cache=cache, **options)
            without = complete_rows(table, log_p, **options)
            pd.testing.assert_frame_equal(with_cache.frame, without.frame)
            np.testing.assert_array_equal(with_cache.counts, without.counts)
            assert with_cache.log_likelihood == without.log_likelihood
    assert len(cache) == 1
