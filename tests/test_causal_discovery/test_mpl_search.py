"""MPLSearch: recovery of planted Markov networks with contexts, agreement with the SG learner, the learner contract."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import PDAG
from sklearn.utils.estimator_checks import parametrize_with_checks

from pgmpy_sgm.causal_discovery import MPLSearch, NonReversibleMCMC
from pgmpy_sgm.datasets import load_heart_disease
from pgmpy_sgm.datasets.synthetic import paper_synthetic_graph, simulate_paper_synthetic
from pgmpy_sgm.models import ContextualMarkovNetwork
from pgmpy_sgm.structure_score import MPLScore, MPLScoreSettings

_CYCLE = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "e"), ("b", "e")]


def _sample_cycle_with_context(n: int, seed: int) -> pd.DataFrame:
    """Exact draws from a binary Markov network: the chordless 4-cycle a-b-c-d plus e on a and b.

    Log-potential: 0.9 * s_u * s_v (spins +-1) on every edge, except that the a-b term is
    switched off when e = 1, so that a ⟂ b | e = 1 (given the rest) and not when e = 0. (The
    b-e log odds ratio is then 3.6 -+ 1.8 as a = 1 or 0: no other context is close to holding.)
    """
    names = ["a", "b", "c", "d", "e"]
    states = np.array(list(itertools.product([0, 1], repeat=5)))
    spin = 2 * states - 1
    col = {v: i for i, v in enumerate(names)}
    logp = np.zeros(len(states))
    for u, v in _CYCLE:
        term = 0.9 * spin[:, col[u]] * spin[:, col[v]]
        if (u, v) == ("a", "b"):
            term = np.where(states[:, col["e"]] == 1, 0.0, term)
        logp += term
    p = np.exp(logp - logp.max())
    rng = np.random.default_rng(seed)
    rows = states[rng.choice(len(states), size=n, p=p / p.sum())]
    return pd.DataFrame(rows, columns=names)


def _edges(graph) -> list:
    return sorted(tuple(sorted(e)) for e in graph.edges())


def test_non_chordal_network_with_a_context_is_recovered():
    data = _sample_cycle_with_context(30_000, seed=0)
    est = MPLSearch(seed=0).fit(data)
    assert _edges(est.graph_) == _edges(nx.Graph(_CYCLE))
    assert not nx.is_chordal(est.graph_)
    assert est.contexts_ == {("a", "b"): [{"e": 1}]}
    assert isinstance(est.model_, ContextualMarkovNetwork)
    assert [str(s) for s in est.model_.independencies()] == ["a ⟂ b | e=1"]
    assert est.best_score_ > est.graph_score_


def test_decomposable_truth_gives_the_sg_learners_graph():
    data = simulate_paper_synthetic(20_000, seed=0)
    mpl = MPLSearch(contexts=False).fit(data)
    sgm = NonReversibleMCMC(n_iter=300, seed=0, show_progress=False).fit(data)
    assert _edges(mpl.graph_) == _edges(sgm.model_) == _edges(paper_synthetic_graph())


def test_heart_data_contexts_include_the_sgs_strata():
    """The SG of the heart data (SGMScore's optimal strata on the paper's graph) states
    smoking ⟂ systolic_bp | lipoprotein_ratio=1 and systolic_bp ⟂ lipoprotein_ratio | smoking=0."""
    est = MPLSearch(seed=0).fit(load_heart_disease())
    statements = {str(s) for s in est.model_.independencies()}
    assert {"smoking ⟂ systolic_bp | lipoprotein_ratio=1", "systolic_bp ⟂ lipoprotein_ratio | smoking=0"} <= statements


def test_contract_and_score():
    data = _sample_cycle_with_context(2000, seed=1)
    est = MPLSearch(seed=0).fit(data)
    assert isinstance(est.causal_graph_, PDAG) and not est.causal_graph_.directed_edges
    assert int(est.adjacency_matrix_.to_numpy().sum()) == 2 * est.graph_.number_of_edges()
    assert list(est.graph_.nodes()) == list(data.columns)
    assert est.score(data) == pytest.approx(est.best_score_, rel=1e-12)
    assert est.best_score_ == pytest.approx(MPLScore(data).score(est.model_), rel=1e-12)
    assert est.score(true_graph=est._metric_dag, metric="SHD") == 0
    assert est.model_.is_maximal_regular()
    assert set(est.candidate_edges_) >= {tuple(sorted(e, key=list(data.columns).index)) for e in est.graph_.edges()}


def test_seed_reproducible_and_counts_equal_rows():
    data = _sample_cycle_with_context(3000, seed=2)
    a, b = MPLSearch(seed=3).fit(data), MPLSearch(seed=3).fit(data)
    assert a.contexts_ == b.contexts_ and _edges(a.graph_) == _edges(b.graph_)
    table = data.value_counts().rename("n").reset_index()
    c = MPLSearch(seed=3, weights="n").fit(table)
    assert _edges(c.graph_) == _edges(a.graph_) and c.best_score_ == pytest.approx(a.best_score_, rel=1e-12)


def test_max_time_stops_with_a_valid_model():
    data = _sample_cycle_with_context(2000, seed=4)
    est = MPLSearch(max_time=1e-9).fit(data)
    assert est.stopped_by_ == "max_time"
    assert est.best_score_ == pytest.approx(MPLScore(data).score(est.model_), rel=1e-12)


def test_missing_cells():
    data = _sample_cycle_with_context(1000, seed=5).astype(float)
    data.iloc[0, 0] = np.nan
    with pytest.raises(ValueError, match="'a'"):
        MPLSearch().fit(data)
    with pytest.warns(UserWarning):
        est = MPLSearch(missing="complete_cases").fit(data)
    assert est.graph_.number_of_nodes() == 5
    assert "missing" in MPLSearch(missing="state").fit(data).scorer_.state_names["a"]


def test_em_without_missing_cells_is_the_complete_data_fit():
    data = _sample_cycle_with_context(2000, seed=7)
    plain, em = MPLSearch(seed=0).fit(data), MPLSearch(seed=0, missing="em").fit(data)
    assert em.best_score_ == plain.best_score_
    assert sorted(em.graph_.edges()) == sorted(plain.graph_.edges()) and em.contexts_ == plain.contexts_
    assert not hasattr(em, "em_history_")


def test_em_completes_rows_by_the_fitted_network_and_is_deterministic():
    data = _sample_cycle_with_context(3000, seed=8).astype(object)
    rng = np.random.default_rng(0)
    holes = data.mask(rng.random(data.shape) < 0.05)
    first = MPLSearch(seed=1, missing="em").fit(holes)
    again = MPLSearch(seed=1, missing="em").fit(holes)
    assert first.best_score_ == again.best_score_ and first.contexts_ == again.contexts_
    incomplete = int(holes.isna().any(axis=1).sum())
    assert first.n_completed_exactly_ + first.n_completed_by_draws_ == incomplete
    assert dict(first.missing_cells_) == {c: int(n) for c, n in holes.isna().sum().items() if n}
    history = first.em_history_
    assert len(history) >= 1 and set(history["step"]) <= {"structure", "parameters"}
    # the chosen step is the one with the best observed-data criterion among the structure steps
    structure_steps = history[history["step"] == "structure"]
    assert history.attrs["best_iteration"] == structure_steps["criterion"].idxmax()
    assert first.model_.number_of_nodes() == data.shape[1]


@pytest.mark.parametrize("params, error, message", [
    ({"missing": "everything"}, ValueError, "missing"),
    ({"return_type": "dag"}, ValueError, "return_type='dag'"),
    ({"max_time": 0}, ValueError, "max_time must be"),
    ({"max_blanket": 0}, ValueError, "max_blanket must be"),
    ({"contexts": "yes"}, TypeError, "contexts must be a bool"),
    ({"scoring_method": "bdeu"}, ValueError, "scoring_method must be None, 'mpl', an MPLScore or an MPLScoreSettings"),
])
def test_bad_parameters(params, error, message):
    with pytest.raises(error, match=message):
        MPLSearch(**params).fit(_sample_cycle_with_context(100, seed=6))


def test_every_form_of_scoring_method_learns_under_the_same_score():
    data = _sample_cycle_with_context(400, seed=6)
    default = MPLSearch(seed=0).fit(data)
    for form in ("mpl", MPLScoreSettings(), MPLScore(data.head(20))):
        est = MPLSearch(scoring_method=form, seed=0).fit(data)
        assert sorted(est.model_.edges()) == sorted(default.model_.edges()) and est.score(data) == default.score(data)
    flat = MPLSearch(scoring_method=MPLScore(data, alpha=1.0, kappa=1.0), seed=0).fit(data)
    assert (flat.scorer_.alpha, flat.scorer_.kappa) == (1.0, 1.0)


def test_the_earlier_score_keywords_still_work_with_a_future_warning():
    data = _sample_cycle_with_context(400, seed=6)
    new = MPLSearch(scoring_method=MPLScoreSettings(alpha=1.0, kappa=0.5), seed=0).fit(data)
    with pytest.warns(FutureWarning, match=r"scoring_method=MPLScoreSettings\(alpha=1.0, kappa=0.5\)"):
        old = MPLSearch(alpha=1.0, kappa=0.5, seed=0).fit(data)
    assert sorted(old.model_.edges()) == sorted(new.model_.edges()) and old.score(data) == new.score(data)
    with pytest.warns(FutureWarning), pytest.raises(ValueError, match="alpha must be"):
        MPLSearch(alpha=-1).fit(data)


@parametrize_with_checks([MPLSearch(seed=0)])
def test_sklearn_compatibility(estimator, check):
    check(estimator)


def test_numpy_input_learns_what_the_frame_with_x_columns_learns():
    data = _sample_cycle_with_context(3000, seed=7)
    array = MPLSearch(seed=0).fit(data.to_numpy())
    named = MPLSearch(seed=0).fit(data.set_axis([f"x{i}" for i in range(5)], axis=1))
    assert list(array.graph_.nodes()) == ["x0", "x1", "x2", "x3", "x4"]
    assert _edges(array.graph_) == _edges(named.graph_) and array.contexts_ == named.contexts_
    assert array.score(data.to_numpy()) == pytest.approx(array.best_score_, rel=1e-12)


def test_dask_frame_learns_what_the_pandas_frame_learns():
    dd = pytest.importorskip("dask.dataframe")
    data = _sample_cycle_with_context(3000, seed=8)
    plain = MPLSearch(seed=0).fit(data)
    lazy = MPLSearch(seed=0).fit(dd.from_pandas(data, npartitions=3))
    assert _edges(lazy.graph_) == _edges(plain.graph_) and lazy.contexts_ == plain.contexts_
    assert lazy.best_score_ == pytest.approx(plain.best_score_, rel=1e-12)


# -- stage 2: the climb's graph or the union of the blankets, by BIC or AIC --------------------------
def _forest_fit(data: pd.DataFrame, edges: list, pseudo_count: float) -> tuple[float, int]:
    """``(log L, k)`` of a forest computed by hand: the fit of a decomposable graph is the product of its clique
    marginals over its separator marginals, the marginals those of the data plus a uniform pseudo-sample
    of total weight ``pseudo_count``; free parameters sum(r_v - 1) + sum over edges (r_u - 1)(r_v - 1)."""
    n, cards = len(data), {v: data[v].nunique() for v in data.columns}

    def smoothed(variables):
        size = int(np.prod([cards[v] for v in variables]))
        counts = data.groupby(list(variables)).size()
        return counts, (counts + pseudo_count / size) / (n + pseudo_count)

    degree = {v: sum(v in e for e in edges) for v in data.columns}
    log_l = 0.0
    for edge in edges:
        counts, q = smoothed(edge)
        log_l += float((counts * np.log(q)).sum())
    for v in data.columns:  # an isolated node is a clique, a node of degree d a separator d - 1 times
        counts, q = smoothed([v])
        log_l += (1 - degree[v]) * float((counts * np.log(q)).sum())
    k = sum(cards[v] - 1 for v in data.columns) + sum((cards[u] - 1) * (cards[v] - 1) for u, v in edges)
    return log_l, k


def _forest_bic(data: pd.DataFrame, edges: list, pseudo_count: float) -> float:
    log_l, k = _forest_fit(data, edges, pseudo_count)
    return log_l - 0.5 * k * np.log(len(data))


def _forest_aic(data: pd.DataFrame, edges: list, pseudo_count: float) -> float:
    """AIC per row: (log L - k) / N."""
    log_l, k = _forest_fit(data, edges, pseudo_count)
    return (log_l - k) / len(data)


def _hub_data(n: int, seed: int) -> pd.DataFrame:
    """A 4-state hub h; a and b depend on it, c depends on it weakly, z not at all."""
    rng = np.random.default_rng(seed)
    h = rng.integers(0, 4, n)
    noisy = lambda p_same, k: np.where(rng.random(n) < p_same, h % k, rng.integers(0, k, n))  # noqa: E731
    return pd.DataFrame({"h": h, "a": noisy(0.8, 2), "b": noisy(0.7, 3), "c": noisy(0.25, 2),
                         "z": rng.integers(0, 2, n)})  # fmt: skip


@pytest.mark.parametrize("criterion", ["bic", "aic"])
@pytest.mark.parametrize("pseudo_count", [0.0, 1.0])
def test_graph_criteria_of_a_forest_equal_the_hand_computed_ones(pseudo_count, criterion):
    from pgmpy_sgm.causal_discovery._mpl_steps import graph_aic, graph_bic

    computed, by_hand = {"bic": (graph_bic, _forest_bic), "aic": (graph_aic, _forest_aic)}[criterion]
    data = _hub_data(600, seed=3)
    edges = [("h", "a"), ("h", "b"), ("b", "c")]
    graph = nx.Graph(edges)
    graph.add_nodes_from(data.columns)
    got = computed(MPLScore(data), graph, pseudo_count=pseudo_count, tol=1e-12, max_iter=50)
    assert got == pytest.approx(by_hand(data, edges, pseudo_count), rel=1e-10)


def test_choose_graph_keeps_the_graph_of_higher_hand_computed_bic():
    """The union adds h-c (a true, weak edge) in one case and h-z (a false one) in the other: the choice
    follows the BIC computed by hand, and the two cases choose differently."""
    from pgmpy_sgm.causal_discovery._mpl_steps import BIC_PSEUDO_COUNT, Deadline, choose_graph

    data = _hub_data(3000, seed=0)
    score = MPLScore(data)
    climbed = nx.Graph([("h", "a"), ("h", "b")])
    climbed.add_nodes_from(data.columns)
    rules = []
    for extra in (("h", "c"), ("h", "z")):
        candidates = [("h", "a"), ("h", "b"), extra]
        graph, rule, bics, criterion = choose_graph(score, climbed, candidates, Deadline(None))
        by_hand = {"global": _forest_bic(data, [("h", "a"), ("h", "b")], BIC_PSEUDO_COUNT),
                   "or": _forest_bic(data, candidates, BIC_PSEUDO_COUNT)}  # fmt: skip
        assert criterion == "bic" and bics == pytest.approx(by_hand, abs=1e-4)
        assert rule == max(by_hand, key=by_hand.get)
        assert _edges(graph) == _edges(nx.Graph(candidates if rule == "or" else climbed.edges()))
        rules.append(rule)
    assert rules == ["or", "global"]


def test_choose_graph_by_aic_follows_the_hand_computed_aic_where_bic_disagrees():
    """A weak true edge h-c that AIC's price (1 per parameter) admits and BIC's ((log N) / 2) refuses;
    a false edge h-z that both refuse."""
    from pgmpy_sgm.causal_discovery._mpl_steps import BIC_PSEUDO_COUNT, Deadline, choose_graph

    rng = np.random.default_rng(8)  # h-c gains 2.4 in log L for 1 parameter: AIC's price 1, BIC's 3.3
    n = 800
    h = rng.integers(0, 2, n)
    data = pd.DataFrame({"h": h, "a": np.where(rng.random(n) < 0.9, h, 1 - h),
                         "c": np.where(rng.random(n) < 0.56, h, 1 - h), "z": rng.integers(0, 2, n)})  # fmt: skip
    score = MPLScore(data)
    climbed = nx.Graph([("h", "a")])
    climbed.add_nodes_from(data.columns)
    chosen = {}
    for extra in (("h", "c"), ("h", "z")):
        candidates = [("h", "a"), extra]
        for criterion, by_hand_of in (("aic", _forest_aic), ("bic", _forest_bic)):
            _, rule, values, used = choose_graph(score, climbed, candidates, Deadline(None), criterion)
            by_hand = {"global": by_hand_of(data, [("h", "a")], BIC_PSEUDO_COUNT),
                       "or": by_hand_of(data, candidates, BIC_PSEUDO_COUNT)}  # fmt: skip
            assert used == criterion and values == pytest.approx(by_hand, rel=1e-9)
            chosen[extra[1], criterion] = rule
    assert chosen == {("c", "aic"): "or", ("c", "bic"): "global", ("z", "aic"): "global", ("z", "bic"): "global"}


def test_choose_graph_compares_nothing_when_the_climb_keeps_every_candidate_or_time_is_up():
    from pgmpy_sgm.causal_discovery._mpl_steps import Deadline, choose_graph

    data = _hub_data(500, seed=1)
    climbed = nx.Graph([("h", "a")])
    climbed.add_nodes_from(data.columns)
    assert choose_graph(MPLScore(data), climbed, [("h", "a")], Deadline(None))[1:] == ("global", {}, "bic")
    spent = Deadline(1e-9)
    graph, rule, bics, _ = choose_graph(MPLScore(data), climbed, [("h", "a"), ("h", "b")], spent)
    assert (rule, bics, _edges(graph)) == ("global", {}, _edges(climbed))


def test_bayesian_network_data_the_union_of_the_blankets_recovers_more_of_the_moral_graph():
    """Data from the child network (20 variables, up to 6 states): the climb's pseudo-likelihood graph
    misses moral edges at the multi-state hubs; the chosen graph recovers more of the moral graph."""
    import gzip
    from pathlib import Path

    from pgmpy.readwrite import BIFReader

    from pgmpy_sgm.causal_discovery._mpl_steps import Deadline, climb_edges

    with gzip.open(Path(__file__).parents[1] / "data" / "child.bif.gz", "rt") as fh:
        bn = BIFReader(string=fh.read()).get_model()
    moral = nx.Graph(bn.to_markov_model().edges())
    data = bn.simulate(2000, seed=0, show_progress=False)
    est = MPLSearch(contexts=False, graph_choice="bic", edge_additions=False).fit(data)
    assert est.graph_rule_ == "or" and est.graph_bic_["or"] > est.graph_bic_["global"]
    assert _edges(est.graph_) == _edges(nx.Graph(est.candidate_edges_))
    climbed, _ = climb_edges(est.scorer_, est.candidate_edges_, Deadline(None))
    true = set(_edges(moral))
    recall = lambda g: len(set(_edges(g)) & true) / len(true)  # noqa: E731
    precision = len(set(_edges(est.graph_)) & true) / est.graph_.number_of_edges()
    assert recall(est.graph_) > recall(climbed) + 0.1 and precision > 0.9


def test_graph_choice_auto_is_bic_on_binary_data_and_aic_otherwise():
    binary = _sample_cycle_with_context(500, seed=3)
    rng = np.random.default_rng(4)
    three = binary.assign(c=np.where(rng.random(len(binary)) < 0.3, 2, binary["c"]))  # one variable of 3 states
    for data, criterion in ((binary, "bic"), (three, "aic")):
        auto = MPLSearch(seed=0).fit(data)
        given = MPLSearch(seed=0, graph_choice=criterion).fit(data)
        assert auto.graph_criterion_ == criterion == given.graph_criterion_
        assert _edges(auto.graph_) == _edges(given.graph_) and auto.graph_rule_ == given.graph_rule_
        assert auto.best_score_ == given.best_score_
    assert MPLSearch(seed=0, graph_choice="cv").fit(binary).graph_criterion_ == "cv"
