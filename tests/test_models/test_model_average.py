"""ModelAverage: mixture likelihood against brute force, model selection by mass, input checks."""

import itertools

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore, load_heart_disease
from pgmpy_sgm.causal_discovery import ModelAverage, NonReversibleMCMC, exhaustive_posterior
from pgmpy_sgm.models import StratifiedGraphicalModel


@pytest.fixture(scope="module")
def heart():
    return load_heart_disease()


@pytest.fixture(scope="module")
def heart_est(heart):
    return NonReversibleMCMC(n_iter=300, n_chains=1, seed=1, show_progress=False).fit(heart)


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(3)
    return pd.DataFrame({"a": rng.integers(0, 3, 80), "b": rng.integers(0, 2, 80), "c": rng.integers(0, 4, 80)})


def test_mixture_of_closed_form_models_equals_hand_computation(small):
    # empty graph: product of (n_x + 1) / (n + k); complete unlabelled graph: (n_abc + 1) / (n + K)
    empty = StratifiedGraphicalModel([], nodes=["a", "b", "c"]).fit(small)
    full = StratifiedGraphicalModel([("a", "b"), ("a", "c"), ("b", "c")]).fit(small)
    avg = ModelAverage([empty, full], [3.0, 7.0])
    n = len(small)
    cards = {"a": 3, "b": 2, "c": 4}
    test = pd.DataFrame(list(itertools.product(range(3), range(2), range(4))), columns=["a", "b", "c"])
    expected = []
    for _, row in test.iterrows():
        p_empty = 1.0
        for v, k in cards.items():
            p_empty *= ((small[v] == row[v]).sum() + 1) / (n + k)
        n_cell = ((small["a"] == row["a"]) & (small["b"] == row["b"]) & (small["c"] == row["c"])).sum()
        p_full = (n_cell + 1) / (n + 24)
        expected.append(np.log(0.3 * p_empty + 0.7 * p_full))
    got = avg.log_likelihood(test, per_row=True)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert avg.log_likelihood(test) == pytest.approx(float(np.sum(expected)), rel=1e-12)
    # the mixture of all 24 cells is a distribution
    assert np.exp(got).sum() == pytest.approx(1.0, abs=1e-12)


def test_from_estimator_mixture_equals_joint_tables(heart, heart_est):
    avg = ModelAverage.from_estimator(heart_est, heart, mass=0.95)
    assert avg.n_models > 1
    cells = pd.DataFrame(list(itertools.product([0, 1], repeat=6)), columns=list(heart.columns))
    expected = np.zeros(len(cells))
    for w, m in zip(avg.weights, avg.models, strict=True):
        joint = m.joint()
        values = joint.values.transpose([joint.variables.index(v) for v in heart.columns])
        expected += w * values[tuple(cells[v].to_numpy() for v in heart.columns)]
    np.testing.assert_allclose(avg.log_likelihood(cells, per_row=True), np.log(expected), rtol=1e-10)


def test_selection_is_fewest_top_models_holding_mass(heart, heart_est):
    post = heart_est.posterior_
    for mass in (0.3, 0.8, 0.95, 0.99):
        avg = ModelAverage.from_estimator(heart_est, heart, mass=mass)
        cumulative = np.cumsum(post["probability"].to_numpy()) / post["probability"].sum()
        k = next(i + 1 for i, c in enumerate(cumulative) if c >= mass)
        assert avg.n_models == min(k, 50)
        top = post["probability"].to_numpy()[: avg.n_models]
        np.testing.assert_allclose(avg.weights, top / top.sum(), rtol=1e-12)
        assert avg.weights.sum() == pytest.approx(1.0, abs=1e-12)
        for m, (_, row) in zip(avg.models, post.head(avg.n_models).iterrows(), strict=True):
            assert {frozenset(e) for e in m.edges()} == {frozenset(e) for e in row["edges"]}
            assert m.n_labels() == row["n_labels"]
    assert ModelAverage.from_estimator(heart_est, heart, mass=1.0, max_models=4).n_models == min(4, len(post))


def test_single_model_equals_the_model(heart, heart_est):
    avg = ModelAverage.from_estimator(heart_est, heart, mass=1e-9)
    assert avg.n_models == 1
    assert avg.weights.tolist() == [1.0]
    best = heart_est.posterior_.iloc[0]
    own = StratifiedGraphicalModel(list(best["edges"]), strata=best["strata"], nodes=heart.columns).fit(heart)
    np.testing.assert_allclose(avg.log_likelihood(heart, per_row=True), own.log_likelihood(heart, per_row=True),
                               rtol=1e-13)
    assert avg.n_free_parameters() == own.n_free_parameters() == 12


def test_counts_table_gives_the_same_models_as_rows(heart):
    counts = load_heart_disease(as_counts=True)
    post = exhaustive_posterior(counts, weights="count")
    from_counts = ModelAverage.from_posterior(post, counts, mass=0.9, weights="count")
    from_rows = ModelAverage.from_posterior(post, heart, mass=0.9)
    assert from_counts.n_models == from_rows.n_models
    np.testing.assert_allclose(from_counts.log_likelihood(heart, per_row=True),
                               from_rows.log_likelihood(heart, per_row=True), rtol=1e-12)


def test_missing_strata_are_labelled_by_the_scorer(heart):
    scorer = SGMScore(heart)
    post = exhaustive_posterior(heart).head(3).copy()
    expected = [scorer.optimal_strata(list(e)).strata for e in post["edges"]]
    post["strata"] = None
    avg = ModelAverage.from_posterior(post, heart, mass=1.0, scorer=scorer)
    assert [m.strata for m in avg.models] == expected
    assert any(expected)
    unlabelled = ModelAverage.from_posterior(post, heart, mass=1.0)
    assert all(m.n_labels() == 0 for m in unlabelled.models)


def test_held_out_states_are_known_from_the_estimator(heart, heart_est):
    # the training data of the average lack a state the estimator saw: still scored, not rejected
    avg = ModelAverage.from_estimator(heart_est, heart[heart["smoking"] == 0], mass=0.5)
    assert np.all(np.isfinite(avg.log_likelihood(heart, per_row=True)))


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"mass": 0}, ValueError, "mass"),
        ({"mass": 1.5}, ValueError, "mass"),
        ({"mass": "all"}, ValueError, "mass"),
        ({"max_models": 0}, ValueError, "max_models"),
        ({"max_models": 2.5}, ValueError, "max_models"),
        ({"estimator": "ml"}, ValueError, "estimator"),
    ],
)
def test_bad_arguments_raise(heart, heart_est, kwargs, error, match):
    with pytest.raises(error, match=match):
        ModelAverage.from_estimator(heart_est, heart, **kwargs)


def test_bad_inputs_raise(heart, heart_est):
    with pytest.raises(ValueError, match="not fitted"):
        ModelAverage.from_estimator(NonReversibleMCMC(), heart)
    with pytest.raises(ValueError, match="lack the fitted variable"):
        ModelAverage.from_estimator(heart_est, heart.drop(columns="smoking"))
    with pytest.raises(TypeError, match="DataFrame"):
        ModelAverage.from_estimator(heart_est, heart.to_numpy())
    with pytest.raises(ValueError, match="lacks column"):
        ModelAverage.from_posterior(heart_est.posterior_.drop(columns="probability"), heart)
    avg = ModelAverage.from_estimator(heart_est, heart, mass=0.5)
    with pytest.raises(ValueError, match="lacks the model variable"):
        avg.log_likelihood(heart.drop(columns="smoking"))
    with pytest.raises(ValueError, match="unknown to the model"):
        avg.log_likelihood(heart.assign(smoking=2))
    with pytest.raises(TypeError, match="DataFrame"):
        avg.log_likelihood(heart.to_numpy())
    fitted = avg.models[0]
    with pytest.raises(ValueError, match="at least one model"):
        ModelAverage([], [])
    with pytest.raises(ValueError, match="1 model"):
        ModelAverage([fitted], [0.5, 0.5])
    with pytest.raises(ValueError, match="non-negative"):
        ModelAverage([fitted, fitted], [1.0, -0.5])
    with pytest.raises(ValueError, match="positive sum"):
        ModelAverage([fitted], [0.0])
    with pytest.raises(ValueError, match="no parameters"):
        ModelAverage([StratifiedGraphicalModel([("smoking", "mental_work")])], [1.0])
    with pytest.raises(TypeError, match="StratifiedGraphicalModel"):
        ModelAverage([fitted.to_stratified_graph()], [1.0])
    other = StratifiedGraphicalModel([("a", "b")]).fit(pd.DataFrame({"a": [0, 1], "b": [1, 0]}))
    with pytest.raises(ValueError, match="variables"):
        ModelAverage([fitted, other], [1.0, 1.0])


def test_estimator_predict_log_likelihood_uses_its_own_training_data():
    from pgmpy_sgm.causal_discovery import NonReversibleMCMC
    from pgmpy_sgm.datasets import load_heart_disease

    rows = load_heart_disease()
    train, test = rows.iloc[::2], rows.iloc[1::2]
    est = NonReversibleMCMC(n_iter=400, seed=1, show_progress=False).fit(train)
    expected = ModelAverage.from_estimator(est, train).log_likelihood(test, per_row=True)
    got = est.predict_log_likelihood(test)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert est.predict_log_likelihood(test, per_row=False) == pytest.approx(float(np.sum(expected)), rel=1e-12)
