"""Tests of StratifiedGraphicalModel: parameters, joint, likelihood, sampling, fitting."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.datasets import load_heart_disease, paper_synthetic_graph, simulate_paper_synthetic
from pgmpy_sgm.datasets.synthetic import random_stratified_graph
from pgmpy_sgm.models import StrataNotShownWarning, StratifiedGraph, StratifiedGraphicalModel
from pgmpy_sgm.structure_score import SGMScore

HEART_EDGES = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
               ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
               ("systolic_bp", "lipoprotein_ratio")]
HEART_STRATA = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
                ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}
# v is the center of both labelled cliques: one of them cannot show its strata
COMPETING_EDGES = [("a", "b"), ("a", "v"), ("b", "v"), ("v", "c"), ("v", "d"), ("c", "d")]
COMPETING_STRATA = {("a", "v"): [{"b": 0}], ("b", "v"): [{"a": 0}], ("c", "v"): [{"d": 0}], ("d", "v"): [{"c": 0}]}


def marginal(joint: dict, nodes: list, variables: list) -> dict:
    out: dict = {}
    idx = [nodes.index(v) for v in variables]
    for combo, p in joint.items():
        key = tuple(combo[i] for i in idx)
        out[key] = out.get(key, 0.0) + p
    return out


def assert_label_holds(model, joint, u, v, context, tol=1e-12):
    """X_u independent of X_v given the context, checked on the brute-force joint."""
    nodes = list(model.nodes())
    ctx_vars = list(context)
    ctx = tuple(model.states(w).index(context[w]) for w in ctx_vars)
    m = marginal(joint, nodes, [u, v, *ctx_vars])
    ku, kv = len(model.states(u)), len(model.states(v))
    table = np.array([[m.get((i, j, *ctx), 0.0) for j in range(kv)] for i in range(ku)])
    total = table.sum()
    assert total > 0
    table = table / total
    np.testing.assert_allclose(table, np.outer(table.sum(1), table.sum(0)), atol=tol)


def random_models():
    found = 0
    for seed in range(200):  # 12 labelled graphs of 3..8 variables, binary or 3-state
        n = 3 + found % 6
        sg = random_stratified_graph(n, seed=seed, max_states=2 + found % 2, edge_prob=0.8, label_prob=1.0)
        if sg.n_labels() and found < 12:
            found += 1
            yield pytest.param(sg, seed, id=f"r{seed}-{n}vars-{sg.n_labels()}labels")
    yield pytest.param(StratifiedGraph(COMPETING_EDGES, strata=COMPETING_STRATA), 0, id="competing-centers")


@pytest.mark.parametrize(("sg", "seed"), list(random_models()))
def test_random_model_is_a_distribution_satisfying_the_shown_strata(sg, seed, brute_sgm_joint):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrataNotShownWarning)
        model = StratifiedGraphicalModel.random(sg, seed=seed)
    assert model.check_model()
    joint = dict(np.ndenumerate(brute_sgm_joint(model)))
    assert sum(joint.values()) == pytest.approx(1.0, abs=1e-12)
    nodes = list(model.nodes())
    factor = model.joint()
    for combo, p in joint.items():
        assert abs(factor.values[combo] - p) < 1e-13
    hidden = model.strata_not_shown
    for (u, v), contexts in sg.strata.items():
        if (u, v) not in hidden:
            for context in contexts:
                assert_label_holds(model, joint, u, v, context)
    # a large sample has frequencies close to the joint (loose tolerance)
    sample = model.simulate(20_000, seed=seed)
    codes = np.column_stack([[model.states(v).index(x) for x in sample[v]] for v in nodes])
    keys, counts = np.unique(codes, axis=0, return_counts=True)
    for key, count in zip(keys, counts, strict=True):
        assert abs(count / 20_000 - joint[tuple(key)]) < 0.015
    assert sum(joint[tuple(k)] for k in keys) > 0.98  # few probable configurations are never drawn
    # the perfect ordering lists every variable once
    assert sorted(model.ordering) == sorted(nodes)
    assert model.n_free_parameters(strata=False) == sg.n_free_parameters(strata=False)
    if not hidden:
        assert model.n_free_parameters() == sg.n_free_parameters()


def test_competing_centers_are_reported():
    sg = StratifiedGraph(COMPETING_EDGES, strata=COMPETING_STRATA)
    with pytest.warns(StrataNotShownWarning, match="cannot be shown"):
        model = StratifiedGraphicalModel.random(sg, seed=4)
    hidden = model.strata_not_shown
    assert len(hidden) == 2 and set(hidden) < set(sg.strata)
    # the other clique keeps its center last, shown
    shown = [f for f in model.clique_factors if f.center is not None]
    assert len(shown) == 1 and shown[0].center == "v" and shown[0].new[-1] == "v"
    # the hidden clique has a full table: 2 extra free parameters over the SG's count
    assert model.n_free_parameters() == sg.n_free_parameters() + 2


def test_single_labelled_edge_uses_the_free_end_as_center(brute_sgm_joint):
    # u is in the separator {u, c}; the labelled edge {u, w} can still be shown with center w
    sg = StratifiedGraph([("u", "w"), ("u", "c"), ("w", "c"), ("u", "d"), ("c", "d"), ("u", "e"), ("e", "w")][:5],
                         strata={("u", "w"): [{"c": 0}]}, nodes=["d", "u", "c", "w"])
    model = StratifiedGraphicalModel.random(sg, seed=0)
    assert model.strata_not_shown == {}
    joint = dict(np.ndenumerate(brute_sgm_joint(model)))
    assert_label_holds(model, joint, "u", "w", {"c": 0})


def heart_counts(data, variables):
    return data.groupby(variables).size()


def test_heart_fit_uses_the_documented_pseudo_counts():
    data = load_heart_disease()
    sg = SGMScore(data).optimal_strata(HEART_EDGES)
    assert sg.strata == HEART_STRATA
    model = StratifiedGraphicalModel(sg).fit(data)
    f = next(f for f in model.clique_factors if f.center is not None)
    assert f.center == "systolic_bp" and f.parents == ("smoking", "lipoprotein_ratio")
    assert f.group_ids == (0, 0, 1, 0)
    n = data.groupby(["smoking", "lipoprotein_ratio", "systolic_bp"]).size().unstack(fill_value=0)
    group_b = n.loc[(1, 0)].to_numpy()
    group_a = n.drop(index=(1, 0)).sum().to_numpy()
    expected_b = (group_b + 1) / (group_b.sum() + 2)  # lambda_B = 1, k = 2
    expected_a = (group_a + 3) / (group_a.sum() + 6)  # lambda_A = 3
    np.testing.assert_allclose(f.group_values[:, 1], expected_b, rtol=1e-14)
    np.testing.assert_allclose(f.group_values[:, 0], expected_a, rtol=1e-14)
    # the center is the clique's only new variable: the rest of the table is trivial
    assert f.separator == ("smoking", "lipoprotein_ratio") and np.all(f.table == 1.0)
    # an unlabelled root clique: (n + 1) / (N + |X_C|)
    root = model.clique_factors[0]
    assert root.separator == ()
    counts = data.groupby(list(root.new)).size()
    size = 2 ** len(root.new)
    for key, c in counts.items():
        assert root.table[key] == pytest.approx((c + 1) / (len(data) + size), rel=1e-14)
    assert model.n_free_parameters() == 12 and model.n_free_parameters(strata=False) == 14


def test_labelled_root_clique_has_k_v_pseudo_counts_per_parent_configuration():
    data = pd.DataFrame({"a": [0, 0, 1, 1, 1], "b": [0, 1, 0, 0, 1], "c": [1, 1, 0, 2, 0]})
    sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]},
                         state_names={"c": [0, 1, 2]})
    f = StratifiedGraphicalModel(sg).fit(data).clique_factors[0]
    assert f.table_variables == ("a", "b") and f.center == "c"
    n_ab = np.array([[1, 1], [2, 1]])
    np.testing.assert_allclose(f.table, (n_ab + 3) / (5 + 3 * 4), rtol=1e-14)
    # group {(1, 0), (1, 1)}: counts of c = (2, 0, 1), lambda = 2, k = 3
    np.testing.assert_allclose(f.group_values[:, 2], (np.array([2, 0, 1]) + 2) / (3 + 6), rtol=1e-14)


def test_mle_with_empty_groups_is_uniform():
    data = pd.DataFrame({"a": [0, 1, 1], "b": [0, 0, 0], "c": [1, 0, 1]})
    sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]})
    model = StratifiedGraphicalModel(sg).fit(data, estimator="mle")
    f = model.clique_factors[0]
    # groups: (0,0), (0,1) without data -> uniform, {(1,0),(1,1)} pooled
    np.testing.assert_allclose(f.group_values, [[0, 0.5, 0.5], [1, 0.5, 0.5]])
    np.testing.assert_allclose(f.table, [[1 / 3, 0], [2 / 3, 0]])
    with pytest.raises(ValueError, match="estimator must be one of"):
        StratifiedGraphicalModel(sg).fit(data, estimator="map")


def test_fit_with_weights_equals_fit_with_rows():
    table = load_heart_disease(as_counts=True)
    rows = load_heart_disease()
    sg = StratifiedGraph(HEART_EDGES, strata=HEART_STRATA, nodes=rows.columns)
    a = StratifiedGraphicalModel(sg).fit(rows)
    b = StratifiedGraphicalModel(sg).fit(table, weights="count")
    for fa, fb in zip(a.clique_factors, b.clique_factors, strict=True):
        np.testing.assert_allclose(fa.table, fb.table, rtol=1e-14)


def test_log_likelihood_matches_the_joint_and_rejects_unseen_states():
    sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": "y"}]},
                         state_names={"a": ["x", "y"], "c": [True, False]})
    model = StratifiedGraphicalModel.random(sg, seed=2)
    rows = model.simulate(50, seed=3)
    joint = model.joint()
    per_row = model.log_likelihood(rows, per_row=True)
    expected = [np.log(joint.get_value(a=r.a, b=r.b, c=r.c)) for r in rows.itertuples()]
    np.testing.assert_allclose(per_row, expected, rtol=1e-12)
    assert model.log_likelihood(rows) == pytest.approx(float(np.sum(expected)), rel=1e-12)
    bad = rows.copy()
    bad.loc[0, "a"] = "z"
    with pytest.raises(ValueError, match="Column 'a' has state.*'z'"):
        model.log_likelihood(bad)
    with pytest.raises(ValueError, match="lack"):
        model.log_likelihood(rows.drop(columns="b"))


def test_simulate_keeps_states_columns_and_frequencies():
    sg = StratifiedGraph([("c", "a"), ("a", "b"), ("c", "b")], strata={("a", "b"): [{"c": 1}]},
                         nodes=["c", "a", "b"], state_names={"b": ["lo", "mid", "hi"]})
    model = StratifiedGraphicalModel.random(sg, seed=7)
    sample = model.simulate(60_000, seed=1)
    assert list(sample.columns) == ["c", "a", "b"]
    assert set(sample["b"]) <= {"lo", "mid", "hi"} and sample["a"].dtype == np.int64
    joint = model.joint()
    freq = sample.value_counts(normalize=True)
    for key, p in freq.items():
        assert abs(p - joint.get_value(**dict(zip(sample.columns, key, strict=True)))) < 0.01
    assert model.simulate(0).shape == (0, 3)
    pd.testing.assert_frame_equal(model.simulate(10, seed=5), model.simulate(10, seed=5))


def test_joint_refuses_large_tables_and_missing_parameters():
    sg = StratifiedGraph([(f"x{i}", f"x{i + 1}") for i in range(24)])
    model = StratifiedGraphicalModel(sg)
    with pytest.raises(ValueError, match="no parameters"):
        model.joint()
    model = StratifiedGraphicalModel.random(sg, seed=0)
    with pytest.raises(ValueError, match="more than max_cells"):
        model.joint()
    assert model.simulate(5, seed=0).shape == (5, 25)


def test_changing_the_graph_invalidates_parameters():
    model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")]), seed=0)
    assert model.has_parameters
    model.add_edge("b", "c")
    assert not model.has_parameters
    with pytest.raises(ValueError, match="changed after the parameters"):
        model.simulate(3)


def test_from_cpds_with_the_paper_parameters():
    from pgmpy.factors.discrete import TabularCPD

    def cpd(var, p1, evidence=()):
        p1 = np.atleast_1d(p1)
        return TabularCPD(var, 2, [1 - p1, p1], list(evidence) or None, [2] * len(evidence) or None)

    # Appendix B, as in simulate_paper_synthetic; P(X=1 | parents), parents in C order
    cpds = [cpd("X2", 0.5), cpd("X3", [0.3, 0.8], ["X2"]), cpd("X4", [0.4, 0.2, 0.8, 0.6], ["X2", "X3"]),
            cpd("X1", [0.5, 0.7, 0.2, 0.4, 0.2, 0.8, 0.2, 0.8], ["X2", "X3", "X4"]),
            cpd("X5", [0.8, 0.8, 0.2, 0.5], ["X3", "X4"]), cpd("X6", [0.3, 0.7], ["X5"]),
            cpd("X7", [0.4, 0.8, 0.4, 0.4], ["X5", "X6"])]
    model = StratifiedGraphicalModel.from_cpds(paper_synthetic_graph(), cpds)
    assert model.strata_not_shown == {}
    assert {f.center for f in model.clique_factors} == {"X1", "X5", "X7"}
    sample = model.simulate(20_000, seed=0)
    reference = simulate_paper_synthetic(20_000, seed=1)
    np.testing.assert_allclose(sample.mean(), reference.mean(), atol=0.02)
    # a distribution violating a stratum is refused
    cpds[3] = cpd("X1", [0.5, 0.7, 0.2, 0.4, 0.2, 0.8, 0.3, 0.8], ["X2", "X3", "X4"])
    with pytest.raises(ValueError, match="does not satisfy the strata"):
        StratifiedGraphicalModel.from_cpds(paper_synthetic_graph(), cpds)


def test_synthetic_model_relearned_from_20000_simulated_rows():
    truth = paper_synthetic_graph()
    model = StratifiedGraphicalModel(truth).fit(simulate_paper_synthetic(20_000, seed=11))
    sample = model.simulate(20_000, seed=12)
    relearned = SGMScore(sample).optimal_strata(truth.to_graph())
    assert relearned == truth


def test_synthetic_model_relearned_by_the_estimator():
    module = pytest.importorskip("pgmpy_sgm.causal_discovery", reason="the causal_discovery package is missing")
    if not hasattr(module, "NonReversibleMCMC"):
        pytest.skip("NonReversibleMCMC is not available in pgmpy_sgm.causal_discovery yet")
    truth = paper_synthetic_graph()
    model = StratifiedGraphicalModel(truth).fit(simulate_paper_synthetic(20_000, seed=11))
    sample = model.simulate(20_000, seed=12)
    estimator = module.NonReversibleMCMC(seed=0, show_progress=False).fit(sample)
    assert estimator.model_ == truth


def test_copy_equality_and_repr():
    model = StratifiedGraphicalModel.random(StratifiedGraph(HEART_EDGES, strata=HEART_STRATA), seed=1)
    other = model.copy()
    assert other == model and type(other) is StratifiedGraphicalModel and other.has_parameters
    assert other != StratifiedGraphicalModel.random(StratifiedGraph(HEART_EDGES, strata=HEART_STRATA), seed=2)
    assert repr(model) == ("<StratifiedGraphicalModel with 5 nodes, 6 edges, 2 labelled edges (2 labels), "
                           "11 free parameters>")  # heart SG without family_history
    assert [str(s) for s in model.independencies()] == [str(s) for s in StratifiedGraph(
        HEART_EDGES, strata=HEART_STRATA).independencies()]
    assert type(model.to_stratified_graph()) is StratifiedGraph


def test_simulate_takes_pgmpy_n_samples_and_warns_on_the_old_name():
    model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")], nodes=["a", "b", "c"]), seed=2)
    new = model.simulate(n_samples=25, seed=4)
    assert new.shape == (25, 3)
    pd.testing.assert_frame_equal(model.simulate(25, seed=4), new)
    with pytest.warns(FutureWarning, match="n_samples"):
        old = model.simulate(n=25, seed=4)
    pd.testing.assert_frame_equal(old, new)
    assert model.simulate(seed=0).shape == (10, 3)  # pgmpy's default
    with pytest.raises(ValueError, match="n_samples"):
        model.simulate(n_samples=-1)


@pytest.mark.parametrize(("sg", "seed"), list(random_models())[:6])
def test_get_factors_are_the_clique_conditionals(sg, seed, brute_sgm_joint):
    from pgmpy.factors import factor_product
    from pgmpy.factors.discrete import DiscreteFactor

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrataNotShownWarning)
        model = StratifiedGraphicalModel.random(sg, seed=seed)
    factors = model.get_factors()
    assert all(isinstance(f, DiscreteFactor) for f in factors)
    assert [tuple(f.variables) for f in factors] == [f.clique for f in model.clique_factors]
    nodes = list(model.nodes())
    product = factor_product(*factors)
    values = np.transpose(product.values, [product.variables.index(v) for v in nodes])
    np.testing.assert_allclose(values, brute_sgm_joint(model), rtol=0, atol=1e-12)
    for f, step in zip(factors, model.clique_factors, strict=True):  # each sums to 1 per separator configuration
        sep = [f.variables.index(v) for v in step.separator]
        total = f.values.sum(axis=tuple(i for i in range(len(f.variables)) if i not in sep))
        np.testing.assert_allclose(total, 1.0, atol=1e-12)
        assert all(tuple(f.state_names[v]) == model.states(v) for v in f.variables)
    with pytest.raises(ValueError, match="no parameters"):
        StratifiedGraphicalModel([("a", "b")]).get_factors()


# -- incomplete data ------------------------------------------------------------------------
def _heart_sg_and_masked(rate, seed):
    from pgmpy_sgm import load_heart_disease

    data = load_heart_disease()
    edges = [("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
             ("smoking", "lipoprotein_ratio"), ("smoking", "physical_work"), ("smoking", "systolic_bp"),
             ("systolic_bp", "lipoprotein_ratio")]  # fmt: skip
    strata = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
              ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}  # fmt: skip
    masked = data.astype(object).mask(np.random.default_rng(seed).random(data.shape) < rate)
    return edges, strata, list(data.columns), data, masked


# at 60% too few complete cases are left: EM starts from independent variables
@pytest.mark.parametrize("rate, seed", [(0.1, 0), (0.3, 1), (0.6, 2)])
def test_parameter_em_never_lowers_the_observed_likelihood(rate, seed):
    from pgmpy_sgm.core.missing import EMOptions

    edges, strata, nodes, _, masked = _heart_sg_and_masked(rate, seed)
    model = StratifiedGraphicalModel(edges, strata=strata, nodes=nodes)
    model.fit(masked, estimator="mle", missing=EMOptions(max_iter=8, tol=0.0))
    exact = model.em_history_[model.em_history_["e_step"] == "exact"]
    assert (exact["gain"] >= -1e-9).all() and model.em_history_["e_step"].iloc[-1] == "exact"
    assert model.em_history_["log_likelihood"].iloc[-1] == pytest.approx(model.log_likelihood(masked), abs=1e-6)
    expected_start = "complete cases" if rate < 0.5 else "Chow-Liu tree (pairwise available cases)"
    assert model.em_history_.attrs["start"] == expected_start
    # the strata stay exact independences: smoking and systolic_bp given lipoprotein_ratio = 1
    joint = model.joint().marginalize(["mental_work", "physical_work", "family_history"], inplace=False)
    table = joint.reduce([("lipoprotein_ratio", 1)], inplace=False)
    values = table.values if table.variables == ["smoking", "systolic_bp"] else table.values.T
    assert np.linalg.det(values / values.sum()) == pytest.approx(0.0, abs=1e-12)


def test_log_likelihood_of_incomplete_rows_sums_out_the_missing_cells():
    edges, strata, nodes, data, masked = _heart_sg_and_masked(0.3, 3)
    model = StratifiedGraphicalModel(edges, strata=strata, nodes=nodes).fit(data)
    joint = model.joint()
    rows = masked.iloc[:40]
    got = model.log_likelihood(rows, per_row=True)
    for value, (_, row) in zip(got, rows.iterrows(), strict=True):
        hidden = [v for v in nodes if pd.isna(row[v])]
        factor = joint.marginalize(hidden, inplace=False) if hidden else joint
        seen = [(v, int(row[v])) for v in nodes if v not in hidden]
        expected = factor.reduce(seen, inplace=False).values if seen else factor.values.sum()
        assert value == pytest.approx(np.log(float(np.sum(expected))), abs=1e-9)


def test_em_without_missing_cells_is_the_plain_fit():
    edges, strata, nodes, data, _ = _heart_sg_and_masked(0.1, 0)
    plain = StratifiedGraphicalModel(edges, strata=strata, nodes=nodes).fit(data)
    em = StratifiedGraphicalModel(edges, strata=strata, nodes=nodes).fit(data, missing="em")
    assert plain.log_likelihood(data) == em.log_likelihood(data)
    assert not hasattr(em, "em_history_")


def test_missing_cells_are_refused_by_default_with_every_column_named():
    edges, strata, nodes, _, masked = _heart_sg_and_masked(0.1, 0)
    with pytest.raises(ValueError, match=r"'smoking' \(\d+ missing\).*'family_history' \(\d+ missing\)"):
        StratifiedGraphicalModel(edges, strata=strata, nodes=nodes).fit(masked)
