"""LDAGSearch: contract, labels planted in simulated data, restarts never worse than one climb."""

import itertools
import math
import os
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG, PDAG
from pgmpy.causal_discovery import HillClimbSearch
from pgmpy.metrics import get_metrics
from pgmpy.structure_score import BDeu
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from pgmpy_sgm.causal_discovery import LDAGSearch, NonReversibleMCMC
from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.structure_score import LDAGScore, LDAGScoreSettings


def _planted(n=4000, seed=0):
    """y copies a when b = 1 and is a biased coin when b = 0; c is noise on y."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    y = np.where(b == 1, np.where(rng.random(n) < 0.9, a, 1 - a), (rng.random(n) < 0.3).astype(int))
    c = np.where(rng.random(n) < 0.8, y, 1 - y)
    return pd.DataFrame({"a": a, "b": b, "y": y, "c": c})


@pytest.fixture(scope="module")
def fitted():
    return LDAGSearch(n_restarts=10, restart_budget=None, seed=0, show_progress=False).fit(_planted())


def test_contract(fitted):
    est = fitted
    assert isinstance(est.causal_graph_, DAG)
    assert nx.is_directed_acyclic_graph(est.causal_graph_)
    adj = est.adjacency_matrix_
    assert list(adj.index) == list(adj.columns) and int(adj.values.sum()) == est.causal_graph_.number_of_edges()
    assert isinstance(est.model_, LabeledBayesianNetwork)
    assert sorted(est.model_.edges()) == sorted(est.causal_graph_.edges())
    assert est.score(true_graph=est.causal_graph_, metric="SHD") == 0
    assert np.isfinite(est.score(X=_planted(500, 1), metric="structure_score"))


def test_planted_labelled_dag_is_found(fitted):
    # a -> y <- b (a v-structure, so the orientation is identified) and y -> c or c -> y
    edges = set(fitted.causal_graph_.edges())
    assert {("a", "y"), ("b", "y")} <= edges and len(edges) == 3
    assert fitted.model_.labels() == {("a", "y"): [{"b": 0}]}


def test_search_reaches_the_planted_optimum(fitted):
    # pgmpy's first climb may stop in a triangle on a, b, y (depending on its tie order); the
    # kicks reach the planted labelled DAG, whose score is computed here independently of the search
    planted = LDAGScore(_planted()).score(DAG([("a", "y"), ("b", "y"), ("y", "c")]))
    assert fitted.best_score_ == pytest.approx(planted)
    assert max(fitted.climb_scores_) == pytest.approx(planted)


def test_best_score_matches_the_model_and_beats_each_climb(fitted):
    est = fitted
    score = est.scorer_
    total = 0.0
    for node in est.model_.nodes():
        parents, ids = est.model_.get_classes(node)
        total += score.family_score(node, parents, ids)
    assert est.best_score_ == pytest.approx(total)
    assert est.best_score_ >= max(est.climb_scores_) - 1e-9
    turns, polishes = est.climb_starts_.count("turn"), est.climb_starts_.count("swaps")
    assert polishes >= 1
    assert sorted(est.climb_starts_[2:2 + turns + polishes]) == ["swaps"] * polishes + ["turn"] * turns
    assert est.climb_starts_ == est.climb_starts_[:2 + turns + polishes] + ["restart"] * 10
    assert est.climb_starts_[:2] == ["ges", "empty"]
    assert est.turns_stopped_by_ in ("converged", "turn_budget")


def test_first_climb_is_pgmpy_hill_climb_with_the_score():
    df = _planted(1500, 2)
    est = LDAGSearch(n_restarts=0, turn_budget=0, parent_swaps=False, start="empty").fit(df)
    score = LDAGScore(df)
    dag = HillClimbSearch(scoring_method=score, return_type="dag", show_progress=False).fit(df).causal_graph_
    assert est.climb_scores_[0] == pytest.approx(score.score(dag))
    assert est.start_scores_ == {"empty": pytest.approx(sum(score.local_score(v, ()) for v in df.columns))}
    assert est.ges_steps_ is None and est.climb_starts_ == ["empty"]


def test_default_start_climbs_from_the_equivalence_search_and_from_the_empty_graph():
    df = _planted(1500, 2)
    est = LDAGSearch(n_restarts=0, turn_budget=0, parent_swaps=False).fit(df)
    assert est.climb_starts_ == ["ges", "empty"]
    kinds = [step[0] for step in est.ges_steps_]
    assert kinds and set(kinds) <= {"insert", "delete"} and kinds[0] == "insert"
    assert all(gain > 0 for *_, gain in est.ges_steps_)
    # the unlabelled score rises from the empty graph by the gains of the steps applied
    plain = LDAGScore(df, labels=False)
    ges = LDAGSearch(scoring_method=LDAGScoreSettings(labels=False), n_restarts=0, turn_budget=0, parent_swaps=False,
                     start="ges").fit(df)  # fmt: skip
    empty_score = sum(plain.local_score(v, ()) for v in df.columns)
    assert ges.start_scores_["ges"] == pytest.approx(empty_score + sum(step[-1] for step in ges.ges_steps_))
    assert est.best_score_ == pytest.approx(max(est.climb_scores_))
    for where in ("ges", "empty"):
        alone = LDAGSearch(n_restarts=0, turn_budget=0, parent_swaps=False, start=where).fit(df)
        assert alone.best_score_ == pytest.approx(est.climb_scores_[est.climb_starts_.index(where)])


def test_start_from_a_given_dag_is_pgmpy_hill_climb_from_it():
    df = _planted(1500, 3)
    start = DAG([("c", "y"), ("y", "a")])
    start.add_nodes_from(df.columns)
    est = LDAGSearch(n_restarts=0, turn_budget=0, parent_swaps=False, start=start).fit(df)
    score = LDAGScore(df)
    dag = HillClimbSearch(scoring_method=score, start_dag=start, return_type="dag",
                          show_progress=False).fit(df).causal_graph_  # fmt: skip
    assert est.start_scores_ == {"given": pytest.approx(score.score(start))}
    assert est.climb_scores_ == [pytest.approx(score.score(dag))]


@pytest.mark.parametrize(
    ("start", "match"),
    [("greedy", "start must be one of"), (DAG([("a", "zz")]), "zz"), (nx.DiGraph([("a", "b"), ("b", "a")]), "acyclic")],
)
def test_bad_start_is_named(start, match):
    with pytest.raises(ValueError, match=match):
        LDAGSearch(start=start).fit(_planted(200, 4))


def test_max_time_bounds_the_whole_fit():
    """A spent budget stops the equivalence search, the first climbs, the restarts and the chain alike."""
    est = LDAGSearch(n_restarts=50, n_mcmc=10_000, max_time=1e-9).fit(_planted(300, 3))
    assert est.climb_starts_ == ["ges", "empty"] and est.restarts_stopped_by_ == "max_time"
    assert est.ges_steps_ == [] and est.climb_moves_ == [0, 0]  # no operator applied, no move scored
    assert est.causal_graph_.number_of_edges() == 0 and est.n_visited_ == 1
    unbounded = LDAGSearch(n_restarts=0).fit(_planted(300, 3))
    assert unbounded.causal_graph_.number_of_edges() > 0 and unbounded.restarts_stopped_by_ == "n_restarts"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_restarts": -1}, "n_restarts"),
        ({"perturbation": 0}, "perturbation"),
        ({"max_indegree": 0}, "max_indegree"),
        ({"max_time": 0}, "max_time"),
        ({"n_jobs": 0}, "n_jobs"),
        ({"restart_budget": -1.0}, "restart_budget"),
        ({"turn_budget": -1.0}, "turn_budget must be a non-negative number, None or 'auto'"),
        ({"turn_budget": "all"}, "turn_budget"),
        ({"scoring_method": "bic"}, "scoring_method must be None, 'ldag', 'bdeu'"),
        ({"scoring_method": 5.0}, "scoring_method"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        LDAGSearch(**kwargs).fit(_planted(50, 4))


def test_parent_swaps_must_be_a_bool():
    with pytest.raises(TypeError, match="parent_swaps must be a bool"):
        LDAGSearch(parent_swaps="yes").fit(_planted(50, 4))


def test_every_form_of_scoring_method_learns_under_the_same_score():
    """None, "ldag", a settings object and an LDAGScore (its settings, not its data) give one search."""
    data = _planted(400, 4)
    common = {"n_restarts": 1, "seed": 0, "show_progress": False}
    default = LDAGSearch(**common).fit(data)
    for form in ("ldag", LDAGScoreSettings(), LDAGScore(data.head(50))):  # the score's own data are not used
        est = LDAGSearch(scoring_method=form, **common).fit(data)
        assert est.best_score_ == default.best_score_ and sorted(est.model_.edges()) == sorted(default.model_.edges())
    given = LDAGSearch(scoring_method=LDAGScore(data, equivalent_sample_size=2.0, kappa=0.5), **common).fit(data)
    assert (given.ess_, given.kappa_) == (2.0, 0.5)
    plain = LDAGSearch(scoring_method="bdeu", **common).fit(data)
    assert plain.model_.labelled_nodes() == []
    assert plain.best_score_ == pytest.approx(BDeu(data, equivalent_sample_size=5).score(plain.causal_graph_), abs=1e-9)


def test_the_earlier_score_keywords_still_work_with_a_future_warning():
    data = _planted(400, 4)
    common = {"n_restarts": 1, "seed": 0, "show_progress": False}
    new = LDAGSearch(scoring_method=LDAGScoreSettings(equivalent_sample_size=2.0, kappa=0.5), **common).fit(data)
    expected = r"scoring_method=LDAGScoreSettings\(equivalent_sample_size=2.0, kappa=0.5\)"
    with pytest.warns(FutureWarning, match=expected):
        old = LDAGSearch(equivalent_sample_size=2.0, kappa=0.5, **common).fit(data)
    assert old.best_score_ == new.best_score_ and sorted(old.model_.edges()) == sorted(new.model_.edges())
    with pytest.warns(FutureWarning), pytest.raises(ValueError, match="kappa must be a number in"):
        LDAGSearch(kappa=2.0).fit(data)


def test_a_learner_with_a_score_instance_can_be_cloned_without_copying_the_data():
    score = LDAGScore(_planted(50, 4))
    copy = clone(LDAGSearch(scoring_method=score))
    assert copy.scoring_method is score


def test_score_needs_an_argument(fitted):
    with pytest.raises(ValueError, match="true_graph"):
        fitted.score()


def test_mcmc_after_the_climbs_gives_a_posterior():
    data = _planted(2000, 5)
    data = data[list(reversed(data.columns))]
    est = LDAGSearch(n_restarts=0, n_mcmc=2000, seed=0).fit(data)
    assert est.n_visited_ >= len(est.posterior_) > 1
    # the forms of NonReversibleMCMC: a posterior table and a variables x variables matrix in column order
    assert list(est.posterior_.columns) == ["edges", "log_posterior", "probability", "n_edges"]
    matrix = est.edge_probabilities_
    assert list(matrix.index) == list(matrix.columns) == list(data.columns)
    assert np.all(np.diag(matrix.to_numpy()) == 0) and (matrix.to_numpy() <= 1 + 1e-12).all()
    for u, v in est.posterior_["edges"].iloc[0]:  # an edge of the top DAG has at least its probability
        assert matrix.loc[u, v] >= est.posterior_["probability"].iloc[0] - 1e-12
    assert est.posterior_["probability"].is_monotonic_decreasing
    assert est.posterior_["probability"].sum() <= 1 + 1e-12
    assert est.best_score_ >= max(est.climb_scores_) - 1e-9
    # the best visited DAG is the model's DAG unless the climbs' DAG was better
    top = set(est.posterior_["edges"].iloc[0])
    assert est.chain_best_scores_.shape == (1,)
    if est.chain_best_scores_[0] > max(est.climb_scores_) + 1e-9:
        assert top == set(est.causal_graph_.edges())


def test_labels_off_learns_a_plain_dag():
    est = LDAGSearch(scoring_method=LDAGScoreSettings(labels=False), n_restarts=0).fit(_planted(2000, 6))
    assert est.model_.labels() == {}
    assert est.best_score_ == pytest.approx(LDAGScore(_planted(2000, 6), labels=False).score(est.causal_graph_))


_TIES = """
import numpy as np, pandas as pd
from pgmpy_sgm.causal_discovery import LDAGSearch
x = np.random.default_rng(0).integers(0, 2, 200)
df = pd.DataFrame({c: x for c in "pqrstu"})
print(sorted(LDAGSearch(n_restarts=2, seed=0).fit(df).causal_graph_.edges()))
"""


def test_ties_are_broken_by_name_not_by_the_hash_seed():
    # six copies of one column: every addition (and both orientations of every edge) ties
    # exactly, so pgmpy's set order alone would decide; the sorted order takes the pair of
    # earliest names first, which builds the complete DAG in name order whatever the hash seed
    import subprocess
    import sys

    expected = str(sorted(itertools.combinations("pqrstu", 2)))
    for hash_seed in ("0", "1", "7"):
        out = subprocess.run(
            [sys.executable, "-c", _TIES],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert out.stdout.strip() == expected


def test_moves_scored_are_counted():
    # two independent columns: the first climb scores the two additions, takes neither and stops
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"a": rng.integers(0, 2, 400), "b": rng.integers(0, 2, 400)})
    est = LDAGSearch(n_restarts=0, start="empty", parent_swaps=False).fit(df)
    assert est.climb_moves_ == [2] and est.causal_graph_.number_of_edges() == 0


def test_turns_leave_a_v_structure_drawn_the_wrong_way_round():
    """``c`` depends on ``a`` and ``b`` together; from ``c -> a, c -> b`` no single edge move gains."""
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 2, 2000), rng.integers(0, 3, 2000)
    df = pd.DataFrame({"a": a, "b": b, "c": ((a + b) % 3 + (rng.random(2000) < 0.1)) % 3})
    start = DAG([("c", "a"), ("c", "b")])
    truth = LDAGScore(df).score(DAG([("a", "c"), ("b", "c")]))  # the generating DAG, scored independently
    stuck = LDAGSearch(start=start, n_restarts=0, turn_budget=0, parent_swaps=False, show_progress=False).fit(df)
    turned = LDAGSearch(start=start, n_restarts=0, show_progress=False).fit(df)
    assert stuck.best_score_ < truth - 1 and stuck.climb_starts_ == ["given"]
    assert turned.best_score_ >= truth - 1e-6 and "turn" in turned.climb_starts_


def test_parent_swaps_replace_a_parent_where_each_half_of_the_swap_loses():
    # y copies q, p is a noisier copy of q; with one parent each, y's parent p can only become q in one step
    rng = np.random.default_rng(0)
    q = rng.integers(0, 3, 2000)
    p = np.where(rng.random(2000) < 0.6, q, rng.integers(0, 3, 2000))
    y = np.where(rng.random(2000) < 0.9, q, rng.integers(0, 3, 2000))
    df = pd.DataFrame({"p": p, "q": q, "y": y})
    start = DAG([("q", "p"), ("p", "y")])
    settings = {"start": start, "n_restarts": 0, "max_indegree": 1, "show_progress": False}
    stuck = LDAGSearch(parent_swaps=False, **settings).fit(df)
    swapped = LDAGSearch(**settings).fit(df)
    # the best DAG with at most one parent per node, by brute force over every DAG of three nodes
    columns, score = list(df.columns), swapped.scorer_
    pairs = [(u, v) for u in columns for v in columns if u != v]
    best = -np.inf
    for k in range(len(columns)):
        for edges in itertools.combinations(pairs, k):
            graph = nx.DiGraph(edges)
            if nx.is_directed_acyclic_graph(graph) and all(d <= 1 for _, d in graph.in_degree()):
                dag = DAG(edges)
                dag.add_nodes_from(columns)
                best = max(best, score.score(dag))
    assert stuck.best_score_ < best - 100 and stuck.climb_starts_ == ["given"]
    assert swapped.best_score_ == pytest.approx(best, abs=1e-6) and "swaps" in swapped.climb_starts_
    assert sorted(swapped.causal_graph_.edges()) == [("q", "p"), ("q", "y")]


def test_auto_turn_budget_turns_up_to_64_variables():
    from pgmpy_sgm.causal_discovery.ldag_search import AUTO_TURN_BUDGET

    est = LDAGSearch()
    assert est._turn_budget(64) == AUTO_TURN_BUDGET and est._turn_budget(65) == 0
    assert LDAGSearch(turn_budget=2.0)._turn_budget(500) == 2.0 and LDAGSearch(turn_budget=None)._turn_budget(5) is None
    fitted = LDAGSearch(n_restarts=0, seed=0, show_progress=False).fit(_planted(300, 3))
    assert fitted.turn_budget_ == AUTO_TURN_BUDGET


def test_restart_budget_zero_keeps_the_first_climb():
    est = LDAGSearch(n_restarts=5, restart_budget=0).fit(_planted(500, 7))
    assert est.climb_starts_[:2] == ["ges", "empty"] and "restart" not in est.climb_starts_


@pytest.mark.parametrize("budget", [0.3, 1.0, 3.0])
def test_restart_budget_stops_when_the_next_restart_would_exceed_it(budget):
    est = LDAGSearch(n_restarts=30, restart_budget=budget, seed=1).fit(_planted(1000, 8))
    moves = est.climb_moves_
    assert len(moves) == len(est.climb_scores_) == len(est.climb_seconds_) == len(est.climb_new_families_)
    assert est.climb_starts_[:2] == ["ges", "empty"]
    limit = budget * max(moves[:2])
    restarts = [m for m, where in zip(moves, est.climb_starts_, strict=True) if where == "restart"]
    for k in range(len(restarts)):  # every restart started while the expected total was within the budget
        before = restarts[:k]
        assert 0 < limit and sum(before) + (sum(before) / k if k else 0) <= limit
    if len(restarts) < 30:  # and the next one would have exceeded it
        assert sum(restarts) + sum(restarts) / max(len(restarts), 1) > limit


def test_counts_table_learns_what_its_rows_learn():
    rows = _planted(600, 9)
    table = rows.value_counts().rename("n").reset_index()
    by_rows = LDAGSearch(n_restarts=2, seed=0).fit(rows)
    by_counts = LDAGSearch(n_restarts=2, seed=0, weights="n").fit(table)
    assert len(table) < len(rows)
    assert by_counts.best_score_ == pytest.approx(by_rows.best_score_, rel=1e-12)
    assert sorted(by_counts.causal_graph_.edges()) == sorted(by_rows.causal_graph_.edges())
    assert by_counts.model_.labels() == by_rows.model_.labels()
    for node in rows.columns:
        np.testing.assert_allclose(
            by_counts.model_.get_cpds(node).get_values(), by_rows.model_.get_cpds(node).get_values(), rtol=1e-12
        )
    assert list(by_counts.feature_names_in_) == list(rows.columns)


def test_unknown_weights_column_is_named():
    with pytest.raises((ValueError, KeyError), match="nope"):
        LDAGSearch(n_restarts=0, weights="nope").fit(_planted(50, 4))


def test_kicks_grow_by_one_and_return_to_the_base_after_an_improvement(monkeypatch):
    import pgmpy_sgm.causal_discovery.ldag_search as module

    # climbs that return their start with scripted scores: improvements at climbs 1, 4 and 8
    scripted = iter([0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0])  # one first climb (start="empty")
    kicks = []
    original = module.perturb

    def climb(score, X, start, tabu_length, max_indegree, max_iter, candidates=None, deadline=None, swaps=False,
              screen=False, memory=None):
        return start, next(scripted), 0.0, 0, 100

    def recording(dag, n_moves, max_indegree, rng, *rest):
        kicks.append(n_moves)
        return original(dag, n_moves, max_indegree, rng, *rest)

    monkeypatch.setattr(module, "climb_dag", climb)
    monkeypatch.setattr(module, "perturb", recording)
    est = LDAGSearch(n_restarts=8, restart_budget=None, perturbation=2, seed=0, start="empty",
                     parent_swaps=False).fit(_planted(300, 10))  # fmt: skip
    assert est.climb_scores_ == [0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0]
    assert kicks == [2, 2, 3, 4, 2, 3, 4, 5]


# -- the learners' shared contract: numpy input, scikit-learn, return_type, score(X) ----------


@parametrize_with_checks([LDAGSearch(n_restarts=1, seed=0, show_progress=False)])
def test_sklearn_compatibility(estimator, check):
    check(estimator)


def test_numpy_input_learns_what_the_frame_with_x_columns_learns():
    df = _planted(1000, 11)
    array = LDAGSearch(n_restarts=1, seed=0, show_progress=False).fit(df.to_numpy())
    named = LDAGSearch(n_restarts=1, seed=0, show_progress=False).fit(df.set_axis(["x0", "x1", "x2", "x3"], axis=1))
    assert list(array.causal_graph_.nodes()) == list(array.feature_names_in_) == ["x0", "x1", "x2", "x3"]
    assert sorted(array.causal_graph_.edges()) == sorted(named.causal_graph_.edges())
    assert array.model_.labels() == named.model_.labels() and array.best_score_ == named.best_score_
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning about feature names either
        assert array.score(df.to_numpy()) == pytest.approx(array.best_score_, abs=1e-8)
    with pytest.raises(ValueError, match="names a column"):
        LDAGSearch(weights="n", show_progress=False).fit(df.to_numpy())
    gaps = df.to_numpy().astype(float)
    gaps[[3, 5], 2] = np.nan
    with pytest.raises(ValueError, match=r"Column 'x2' has 2 missing value\(s\)"):  # one line, naming the column
        LDAGSearch(show_progress=False).fit(gaps)
    named = LDAGSearch(n_restarts=1, seed=0, show_progress=False).fit(df)
    with pytest.warns(UserWarning, match="feature names"):  # scikit-learn's warning; columns taken in fitted order
        assert named.score(df.to_numpy()) == pytest.approx(named.score(df), abs=1e-8)


def _brute_force_log_posterior(df: pd.DataFrame, model, state_names: dict, ess: float = 5.0, kappa: float = 0.2):
    """Log marginal likelihood plus log prior of a labelled DAG with given classes, from the formula.

    Per node: classes of the parent configurations (C order, last parent fastest) each
    share one Dirichlet with alpha = |class| * ESS / (q r) per state; the prior costs
    log(kappa) per free parameter the classes remove, (q - |classes|)(r - 1).
    """
    total = 0.0
    for node in model.nodes():
        parents, ids = model.get_classes(node)
        ids = np.asarray(ids)
        r = len(state_names[node])
        cards = [len(state_names[p]) for p in parents]
        q = math.prod(cards)
        config = np.zeros(len(df), dtype=int)
        for p, k in zip(parents, cards, strict=True):
            config = config * k + df[p].map({s: i for i, s in enumerate(state_names[p])}).to_numpy()
        state = df[node].map({s: i for i, s in enumerate(state_names[node])}).to_numpy()
        n_classes = int(ids.max()) + 1
        counts = np.zeros((n_classes, r))
        np.add.at(counts, (ids[config], state), 1)
        for c in range(n_classes):
            alpha = np.count_nonzero(ids == c) * ess / (q * r)
            total += math.lgamma(alpha * r) - math.lgamma(alpha * r + counts[c].sum())
            total += sum(math.lgamma(alpha + n) - math.lgamma(alpha) for n in counts[c])
        total += (q - n_classes) * (r - 1) * math.log(kappa)
    return total


def test_score_is_the_log_posterior_of_the_fitted_labelled_dag(fitted):
    est = fitted
    train, held_out = _planted(), _planted(700, 12)
    names = {v: list(s) for v, s in est.scorer_.state_names.items()}
    assert est.model_.labels()  # the labels are kept as fitted, not chosen anew on held_out
    assert est.score(train) == pytest.approx(est.best_score_, abs=1e-8)
    assert est.score(train) == pytest.approx(_brute_force_log_posterior(train, est.model_, names), abs=1e-6)
    assert est.score(held_out) == pytest.approx(_brute_force_log_posterior(held_out, est.model_, names), abs=1e-6)
    assert est.score(X=held_out) == est.score(held_out)
    # pgmpy's metrics as before: on data by name, against a true graph, positionally
    correlation = get_metrics(name="correlation_score")[0]().evaluate(held_out, est.causal_graph_)
    assert est.score(held_out, metric="correlation_score") == correlation
    assert est.score(true_graph=est.causal_graph_) == 0 and est.score(None, est.causal_graph_) == 0
    with pytest.raises(ValueError, match="feature names"):
        est.score(held_out[["c", "y", "b", "a"]])


def test_score_on_weighted_data_counts_the_weights():
    rows = _planted(800, 13)
    table = rows.value_counts().rename("n").reset_index()
    est = LDAGSearch(n_restarts=1, seed=0, weights="n", show_progress=False).fit(table)
    assert est.score(table) == pytest.approx(est.best_score_, abs=1e-8)
    names = {v: list(s) for v, s in est.scorer_.state_names.items()}
    assert est.score(table) == pytest.approx(_brute_force_log_posterior(rows, est.model_, names), abs=1e-6)


@pytest.mark.parametrize("return_type", ["cpdag", "pdag", "CPDAG"])
def test_cpdag_is_the_equivalence_class_of_the_unlabelled_dag(fitted, return_type):
    df = _planted()
    est = LDAGSearch(n_restarts=10, restart_budget=None, seed=0, show_progress=False, return_type=return_type)
    est = est.fit(df[["c", "y", "a", "b"]])
    dag = fitted.causal_graph_
    expected = dag.to_pdag()  # pgmpy's CPDAG of the DAG
    graph = est.causal_graph_
    assert isinstance(graph, PDAG) and list(graph.nodes()) == ["c", "y", "a", "b"]
    assert set(graph.directed_edges) == set(expected.directed_edges) == {("a", "y"), ("b", "y"), ("y", "c")}
    assert graph.undirected_edges == set()
    assert est.model_.labels() == fitted.model_.labels() and sorted(est.model_.edges()) == sorted(dag.edges())
    adjacency = est.adjacency_matrix_
    assert list(adjacency.index) == list(adjacency.columns) == ["c", "y", "a", "b"]
    assert int(adjacency.to_numpy().sum()) == 3
    # a metric that takes only DAGs is evaluated on the learned DAG
    expected = fitted.score(X=df, metric="structure_score")
    assert est.score(X=df, metric="structure_score") == pytest.approx(expected, abs=1e-8)


def _noisy_and(n: int = 20000, seed: int = 0) -> pd.DataFrame:
    """a -> b, and y a noisy AND of a and b: y does not depend on a when b = 0, nor on b when a = 0."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = np.where(rng.random(n) < 0.8, a, 1 - a)
    y = (rng.random(n) < np.where((a == 1) & (b == 1), 0.9, 0.2)).astype(int)
    return pd.DataFrame({"a": a, "b": b, "y": y})


def test_labels_orient_edges_that_the_cpdag_leaves_undirected():
    # the docstring's example: the six orientations of the triangle are Markov equivalent
    # (pgmpy's BDeu scores them alike), but only the two with a -> y <- b can carry both
    # labels of y, so they score higher; the CPDAG of the learned DAG shows none of this
    df = _noisy_and()
    bdeu, ldag = BDeu(df, equivalent_sample_size=5), LDAGScore(df, kappa=1.0)
    by_order = {}
    for order in itertools.permutations("aby"):
        dag = DAG([(u, v) for i, u in enumerate(order) for v in order[i + 1 :]])
        assert bdeu.score(dag) == pytest.approx(bdeu.score(DAG([("a", "b"), ("a", "y"), ("b", "y")])), abs=1e-6)
        by_order[order] = ldag.score(dag)
    y_last = [by_order[("a", "b", "y")], by_order[("b", "a", "y")]]
    others = [v for order, v in by_order.items() if order[-1] != "y"]
    assert y_last[0] == pytest.approx(y_last[1], abs=1e-6) and min(y_last) > max(others) + 1.0
    dag = LDAGSearch(n_restarts=0, show_progress=False).fit(df)
    cpdag = LDAGSearch(n_restarts=0, show_progress=False, return_type="cpdag").fit(df)
    assert {("a", "y"), ("b", "y")} <= set(dag.causal_graph_.edges())
    assert dag.model_.labels() == {("a", "y"): [{"b": 0}], ("b", "y"): [{"a": 0}]}
    assert cpdag.causal_graph_.directed_edges == set() and len(cpdag.causal_graph_.undirected_edges) == 3


def test_bad_return_type_is_named_before_the_search():
    with pytest.raises(ValueError, match="return_type must be one of"):
        LDAGSearch(return_type="graph", show_progress=False).fit(_planted(50, 4))


# -- column order, defaults, deprecated names -------------------------------------------------


def test_permuted_columns_give_the_identical_dag_and_labels():
    data = _planted(1500, 14)
    data["d"] = data["c"]  # a copy: both orientations of c - d tie exactly
    permuted = ["d", "y", "c", "b", "a"]
    settings = {"n_restarts": 3, "restart_budget": None, "n_mcmc": 300, "seed": 3, "show_progress": False}
    a = LDAGSearch(**settings).fit(data)
    b = LDAGSearch(**settings).fit(data[permuted])
    assert set(a.causal_graph_.edges()) == set(b.causal_graph_.edges())  # the same DAG, every orientation
    assert a.model_.labels() == b.model_.labels() and a.model_.labels()
    assert a.best_score_ == b.best_score_ and a.climb_scores_ == b.climb_scores_
    assert a.ges_steps_ == b.ges_steps_
    pd.testing.assert_frame_equal(a.posterior_, b.posterior_)
    for node in data.columns:
        np.testing.assert_array_equal(a.model_.get_cpds(node).get_values(), b.model_.get_cpds(node).get_values())
    assert list(b.causal_graph_.nodes()) == list(b.model_.nodes()) == b.variables_ == permuted
    pd.testing.assert_frame_equal(a.adjacency_matrix_.loc[permuted, permuted], b.adjacency_matrix_)
    assert list(b.feature_names_in_) == permuted


def test_defaults_shared_with_the_other_learner_agree():
    ours, theirs = LDAGSearch().get_params(), NonReversibleMCMC().get_params()
    shared = sorted((set(ours) & set(theirs)) - {"start", "return_type"})  # start names other graphs
    assert shared == ["max_time", "missing", "n_jobs", "scoring_method", "seed", "show_progress", "state_names",
                      "weights"]
    assert {k: ours[k] for k in shared} == {k: theirs[k] for k in shared}
    assert ours["seed"] is None and ours["show_progress"] is True
    assert ours["return_type"] == "dag"  # the labels belong to the DAG's families (see the docstring)


def test_deprecated_names_still_answer(fitted):
    est = LDAGSearch(n_restarts=0, n_mcmc=200, seed=0, show_progress=False).fit(_planted(500, 15))
    with pytest.warns(FutureWarning, match="chain_best_scores_"):
        assert est.chain_best_score_ == est.chain_best_scores_[0]
    with pytest.warns(FutureWarning, match="scorer_"):
        assert est.scoring_method_ is est.scorer_
    assert fitted.chain_best_scores_.shape == (0,)
    with pytest.raises(AttributeError, match="n_mcmc"):
        fitted.chain_best_score_  # noqa: B018
    assert not hasattr(LDAGSearch(), "chain_best_score_")


def test_top_level_exports():
    import pgmpy_sgm

    assert pgmpy_sgm.LDAGSearch is LDAGSearch and pgmpy_sgm.LDAGScore is LDAGScore
    assert pgmpy_sgm.LabeledBayesianNetwork is LabeledBayesianNetwork
    assert {"LDAGSearch", "LDAGScore", "LabeledBayesianNetwork"} <= set(pgmpy_sgm.__all__)


def test_progress_bar_ends_full_when_the_budget_stops_the_restarts(capsys):
    est = LDAGSearch(n_restarts=10, restart_budget=0, turn_budget=0, parent_swaps=False,
                     seed=0).fit(_planted(300, 16))  # progress shown
    assert len(est.climb_scores_) == 2
    final = capsys.readouterr().err.replace("\r", "\n").strip().splitlines()[-1]
    assert "LDAG climbs" in final and "2/2" in final


def test_progress_bar_counts_the_turns(capsys):
    est = LDAGSearch(n_restarts=0, turn_budget=None, seed=0).fit(_planted(300, 16))  # show_progress by default
    turns = est.climb_starts_.count("turn")
    assert turns > 0 and est.turns_stopped_by_ == "converged"
    assert f"turns {turns}, best {est.best_score_:.2f}" in capsys.readouterr().err


def test_progress_bar_shows_the_equivalence_search(capsys, monkeypatch):
    from pgmpy_sgm.causal_discovery import ldag_search

    monkeypatch.setattr(ldag_search, "SEARCH_PROGRESS_EVERY", 1)
    est = LDAGSearch(n_restarts=0, seed=0).fit(_planted(300, 16))  # show_progress by default
    inserted = sum(kind == "insert" for kind, *_ in est.ges_steps_)
    assert inserted > 0
    err = capsys.readouterr().err
    assert f"equivalence search running: {inserted} edges inserted" in err
    assert f"equivalence search done: {inserted} edges inserted" in err
