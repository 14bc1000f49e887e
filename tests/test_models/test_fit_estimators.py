"""pgmpy's estimators on the package's models: ties kept, values checked against counts by hand."""

import math

import numpy as np
import pandas as pd
import pytest
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteEM, DiscreteMLE
from scipy.special import gammaln

from pgmpy_sgm import SGMScore, load_heart_disease
from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models import LabeledBayesianNetwork, StratifiedGraph, StratifiedGraphicalModel

STATES = {"a": [0, 1], "b": [0, 1, 2], "y": [0, 1]}
# configurations (b, a) in C order: (0,0) (0,1) (1,0) (1,1) (2,0) (2,1); y ignores a when b = 0 or b = 2
CLASSES = [0, 0, 1, 2, 3, 3]


def _model():
    m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names=STATES)
    m.set_classes("y", ("b", "a"), CLASSES)  # parents not in pgmpy's sorted order on purpose
    return m


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, n), rng.integers(0, 3, n)
    p = np.where(b == 0, 0.2, np.where(b == 2, 0.7, np.where(a == 1, 0.9, 0.1)))
    return pd.DataFrame({"a": a, "b": b, "y": (rng.random(n) < p).astype(int)})


def _by_hand(df, alpha_per_config, weights=None):
    """P(y = 1 | a, b) per (a, b) with classes pooled and alpha per cell of each configuration summed."""
    w = np.ones(len(df)) if weights is None else np.asarray(weights, dtype=float)
    classes = {(0, 0): "b0", (0, 1): "b0", (2, 0): "b2", (2, 1): "b2", (1, 0): "b1a0", (1, 1): "b1a1"}
    out = {}
    for (b, a), c in classes.items():
        members = [cfg for cfg, k in classes.items() if k == c]
        sel = np.zeros(len(df), dtype=bool)
        for bb, aa in members:
            sel |= ((df["b"] == bb) & (df["a"] == aa)).to_numpy()
        n1 = w[sel & (df["y"] == 1).to_numpy()].sum()
        n = w[sel].sum()
        lam = len(members)
        out[(a, b)] = (n1 + lam * alpha_per_config) / (n + 2 * lam * alpha_per_config)
    return out


def _p1(model, a, b):
    return float(model.get_cpds("y").to_factor().get_value(y=1, a=a, b=b))


@pytest.mark.parametrize(
    ("estimator", "alpha"),
    [
        (None, 0.0),
        ("mle", 0.0),
        (DiscreteMLE(), 0.0),
        (DiscreteMLE, 0.0),
        (DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=6), 6 / (2 * 6)),
        (DiscreteBayesianEstimator, 5 / (2 * 6)),  # the class: pgmpy's defaults, BDeu with ESS 5
        ("bayesian", 5 / (2 * 6)),
        (DiscreteBayesianEstimator(prior_type="K2"), 1.0),
        (DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=3), 3.0),
    ],
)
def test_labelled_fit_pools_counts_and_sums_pseudo_counts(estimator, alpha):
    df = _data()
    m = _model().fit(df, estimator=estimator)
    cpd = m.get_cpds("y")
    assert isinstance(cpd, TreeCPD) and cpd.n_groups == 4
    for (a, b), expected in _by_hand(df, alpha).items():
        assert _p1(m, a, b) == pytest.approx(expected, abs=1e-12)


def test_labelled_fit_dirichlet_arrays_follow_pgmpys_sorted_parent_order():
    df = _data()
    # columns of pgmpy's table for y: parents sorted (a, b), C order: (a, b) = (0,0) (0,1) (0,2) (1,0) (1,1) (1,2)
    pseudo = np.zeros((2, 6))
    pseudo[1, 4] = 10.0  # 10 pseudo-rows with y = 1 at a = 1, b = 1 (a class of its own)
    m = _model().fit(df, estimator=DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts={"y": pseudo}))
    sel = (df["a"] == 1) & (df["b"] == 1)
    assert _p1(m, 1, 1) == pytest.approx((df.loc[sel, "y"].sum() + 10) / (sel.sum() + 10))
    assert _p1(m, 0, 1) == pytest.approx(_by_hand(df, 0.0)[(0, 1)])


def test_labelled_fit_sample_weight_equals_repeated_rows_and_weights_alias():
    df = _data(120)
    w = np.random.default_rng(1).integers(1, 4, len(df))
    repeated = df.loc[df.index.repeat(w)].reset_index(drop=True)
    bdeu = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=4)
    by_weight = _model().fit(df, estimator=bdeu, sample_weight=w)
    by_rows = _model().fit(repeated, estimator=bdeu)
    by_alias = _model().fit(df, estimator=bdeu, weights=w)
    for v in "aby":
        np.testing.assert_allclose(by_weight.get_cpds(v).get_values(), by_rows.get_cpds(v).get_values())
        np.testing.assert_allclose(by_alias.get_cpds(v).get_values(), by_rows.get_cpds(v).get_values())
    with pytest.raises(ValueError, match="sample_weight or weights, not both"):
        _model().fit(df, sample_weight=w, weights=w)


def test_unlabelled_fit_equals_pgmpys_for_every_estimator():
    df = _data()
    for estimator in (DiscreteMLE(), DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=3),
                      DiscreteBayesianEstimator(prior_type="K2")):
        ours = LabeledBayesianNetwork([("a", "y"), ("b", "y")]).fit(df, estimator=estimator)
        theirs = DiscreteBayesianNetwork([("a", "y"), ("b", "y")]).fit(df, estimator=estimator)
        for v in "aby":
            assert ours.get_cpds(v).to_factor() == theirs.get_cpds(v).to_factor()


def test_default_is_maximum_likelihood_and_ess_keeps_the_old_bdeu_shorthand():
    df = _data()
    default = _model().fit(df)
    bdeu = _model().fit(df, equivalent_sample_size=2.0)
    for (a, b), expected in _by_hand(df, 0.0).items():
        assert _p1(default, a, b) == pytest.approx(expected)
    for (a, b), expected in _by_hand(df, 2 / 12).items():
        assert _p1(bdeu, a, b) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"estimator": DiscreteEM()}, ValueError, "DiscreteEM cannot keep tied"),
        ({"estimator": 2.0}, TypeError, "estimator must be an alias string"),
        ({"estimator": "map"}, ValueError, "estimator must be one of: mle, bayes, bayesian"),
        ({"estimator": DiscreteMLE(), "equivalent_sample_size": 3}, ValueError, "equivalent_sample_size goes with"),
        ({"estimator": DiscreteBayesianEstimator(prior_type="nope")}, ValueError, "prior_type"),
        ({"estimator": DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts={"y": np.ones((2, 2))})},
         ValueError, "pseudo_counts for the node 'y' must be"),
        ({"sample_weight": "n"}, TypeError, "count column's name goes in weights="),
    ],
)
def test_labelled_fit_refuses_with_one_line(kwargs, error, match):
    with pytest.raises(error, match=match):
        _model().fit(_data(50), **kwargs)


def test_fit_update_keeps_the_ties_and_follows_pgmpys_pseudo_counts():
    old, new = _data(200, seed=0), _data(80, seed=1)
    m = _model().fit(old)
    before = _by_hand(old, 0.0)
    m.fit_update(new, n_prev_samples=50)
    cpd = m.get_cpds("y")
    assert isinstance(cpd, TreeCPD) and cpd.n_groups == 4 and m.labels() == _model().labels()
    # class b = 0 (2 configurations): 2 * 50 pseudo-rows spread as before, plus the new counts
    sel = new["b"] == 0
    expected = (2 * 50 * before[(0, 0)] + new.loc[sel, "y"].sum()) / (2 * 50 + sel.sum())
    assert _p1(m, 0, 0) == pytest.approx(expected) and _p1(m, 1, 0) == pytest.approx(expected)
    with pytest.raises(ValueError, match="call fit"):
        _model().fit_update(new)


def test_save_load_json_keeps_labels_and_pgmpy_formats_say_they_do_not(tmp_path):
    m = _model().fit(_data())
    m.save(str(tmp_path / "m.json"))
    back = LabeledBayesianNetwork.load(str(tmp_path / "m.json"))
    assert back.labels() == m.labels() and isinstance(back.get_cpds("y"), TreeCPD)
    np.testing.assert_array_equal(back.get_cpds("y").get_values(), m.get_cpds("y").get_values())
    m.save(str(tmp_path / "m.bif"))
    plain = LabeledBayesianNetwork.load(str(tmp_path / "m.bif"), state_name_type=int)
    assert isinstance(plain, LabeledBayesianNetwork) and plain.labels() == {}
    assert plain.get_cpds("y").to_factor() == m.get_cpds("y").to_factor()
    with pytest.raises(FileExistsError, match="overwrite=True"):
        m.save(str(tmp_path / "m.bif"))
    m.save(str(tmp_path / "m.bif"), overwrite=True)
    with pytest.raises(ValueError, match="Unsupported file format"):
        m.save(str(tmp_path / "m.out"), filetype="csv")


# -- StratifiedGraphicalModel -----------------------------------------------------------------
def _sg():
    # one clique (a, b, c), center c; the groups of (a, b): c ignores b when a = 1
    return StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]},
                           state_names={v: [0, 1] for v in "abc"})


def _sg_data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    c = (rng.random(n) < np.where(a == 1, 0.6, np.where(b == 1, 0.9, 0.2))).astype(int)
    return pd.DataFrame({"a": a, "b": b, "c": c})


def _sg_by_hand(df, a_cell):
    """P(c = 1 | a, b) and P(a, b) with pseudo-count a_cell per cell of the clique (a, b, c)."""
    n = len(df)
    p_ab = {}
    for a in (0, 1):
        for b in (0, 1):
            sel = (df["a"] == a) & (df["b"] == b)
            p_ab[(a, b)] = (sel.sum() + 2 * a_cell) / (n + 8 * a_cell)  # c's two cells summed
    p_c = {}
    for a, b in p_ab:
        sel = (df["a"] == a) if a == 1 else (df["a"] == a) & (df["b"] == b)
        lam = 2 if a == 1 else 1
        p_c[(a, b)] = (df.loc[sel, "c"].sum() + lam * a_cell) / (sel.sum() + 2 * lam * a_cell)
    return p_ab, p_c


@pytest.mark.parametrize(
    ("estimator", "a_cell"),
    [
        ("bayes", 1.0),
        ("bayesian", 1.0),
        (DiscreteBayesianEstimator(prior_type="K2"), 1.0),
        ("mle", 0.0),
        (DiscreteMLE(), 0.0),
        (DiscreteMLE, 0.0),
        (DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=4), 4 / 8),
        (DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=0.5), 0.5),
    ],
)
def test_sgm_fit_reads_pgmpys_estimators_per_clique_cell(estimator, a_cell):
    df = _sg_data()
    model = StratifiedGraphicalModel(_sg()).fit(df, estimator=estimator)
    joint = model.joint()
    p_ab, p_c = _sg_by_hand(df, a_cell)
    for (a, b), p in p_ab.items():
        assert float(joint.get_value(a=a, b=b, c=1)) == pytest.approx(p * p_c[(a, b)], abs=1e-12)


def test_sgm_fit_sample_weight_and_refusals():
    df = _sg_data(100)
    w = np.random.default_rng(2).integers(1, 4, len(df))
    repeated = df.loc[df.index.repeat(w)].reset_index(drop=True)
    assert StratifiedGraphicalModel(_sg()).fit(df, sample_weight=w) == StratifiedGraphicalModel(_sg()).fit(repeated)
    with pytest.raises(ValueError, match="must be one number"):
        StratifiedGraphicalModel(_sg()).fit(
            df, estimator=DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size={"a": 1}))
    with pytest.raises(ValueError, match="DiscreteEM cannot keep tied"):
        StratifiedGraphicalModel(_sg()).fit(df, estimator=DiscreteEM())


def test_sgm_get_cpds_multiply_to_the_joint():
    model = StratifiedGraphicalModel.random(_sg(), seed=3)
    cpds = model.get_cpds()
    product = cpds[0].to_factor()
    for cpd in cpds[1:]:
        product = product * cpd.to_factor()
    np.testing.assert_allclose(product.get_value(a=1, b=0, c=1), model.joint().get_value(a=1, b=0, c=1))
    assert isinstance(model.get_cpds("c"), TreeCPD) and model.get_cpds("c").n_groups == 3
    with pytest.raises(ValueError, match="Node 'z' is not in the model"):
        model.get_cpds("z")


def test_converted_network_is_labelled_with_the_shown_strata():
    bn = StratifiedGraphicalModel.random(_sg(), seed=0).to_bayesian_network()
    assert isinstance(bn, LabeledBayesianNetwork)
    assert bn.labels() == {("b", "c"): [{"a": 1}]}


# -- SGMScore of a DAG ---------------------------------------------------------------------------
def _dirichlet_term(df, variables):
    """log marginal likelihood of the variables' table with 1 per cell (gamma functions by hand)."""
    cards = [df[v].nunique() for v in variables]
    cells = math.prod(cards)
    counts = df.groupby(list(variables)).size().to_numpy(dtype=float) if variables else np.array([len(df)], float)
    return float(gammaln(cells) - gammaln(len(df) + cells) + np.sum(gammaln(counts + 1)))


def test_sgm_score_of_the_converted_network_has_the_papers_prior_and_no_strata():
    heart = load_heart_disease()
    edges = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
             ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
             ("systolic_bp", "lipoprotein_ratio")]
    strata = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
              ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}
    model = StratifiedGraphicalModel(edges, strata=strata, nodes=heart.columns).fit(heart)
    bn = model.to_bayesian_network()
    score = SGMScore(heart)
    # by hand: cliques minus separators with 1 per cell, and (d - f) log 2 with f of the underlying graph
    cliques = [("smoking", "systolic_bp", "lipoprotein_ratio"), ("smoking", "physical_work", "lipoprotein_ratio"),
               ("mental_work", "physical_work"), ("family_history",)]
    separators = [("smoking", "lipoprotein_ratio"), ("physical_work",)]
    log_ml = sum(_dirichlet_term(heart, c) for c in cliques) - sum(_dirichlet_term(heart, s) for s in separators)
    free = sum(2 ** len(c) - 1 for c in cliques) - sum(2 ** len(s) - 1 for s in separators)
    expected = log_ml + (6 - free) * math.log(2)
    assert score.score(bn) == pytest.approx(expected, abs=1e-8)
    assert score.score(bn) == pytest.approx(score.score(model.to_stratified_graph().to_graph()), abs=1e-8)
    assert score.score(bn) < score.score(model)  # the strata are scored only on the stratified graph


def test_refit_keeps_the_recorded_states_when_the_data_miss_one():
    m = _model().fit(_data())
    few = _data()
    few = few[few["b"] != 2]  # b = 2 not observed: the labels still need its configurations
    m.fit(few, estimator=DiscreteMLE())
    assert m.get_cpds("y").state_names["b"] == [0, 1, 2] and m.labels() == _model().labels()
    with pytest.raises(ValueError, match="classes of 'y' cover 6 configurations"):
        m.fit(few, state_names={"b": [0, 1]})


def test_estimator_state_names_and_per_node_ess_are_used():
    df = _data()
    m = _model().fit(df, estimator=DiscreteMLE(state_names={"y": [0, 1, 2]}))
    assert m.get_cpds("y").state_names["y"] == [0, 1, 2]
    assert float(m.get_cpds("y").get_values()[2].max()) == 0.0  # never observed, maximum likelihood
    per_node = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size={"y": 12})
    m = _model().fit(df, estimator=per_node)  # y: 12 / (2 * 6) = 1 per cell; a and b: 0 (pgmpy's default for them)
    for (a, b), expected in _by_hand(df, 1.0).items():
        assert _p1(m, a, b) == pytest.approx(expected)
    assert float(m.get_cpds("a").get_values()[1, 0]) == pytest.approx(df["a"].mean())
    sgm = StratifiedGraphicalModel(StratifiedGraph([("a", "b")])).fit(
        _sg_data(), estimator=DiscreteMLE(state_names={"b": [0, 1, 2]}))
    assert sgm.state_names["b"] == (0, 1, 2)
