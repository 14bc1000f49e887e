"""NonReversibleMCMC(missing=...): structural EM and the other choices on incomplete data."""

import functools
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import load_heart_disease
from pgmpy_sgm.causal_discovery import NonReversibleMCMC
from pgmpy_sgm.causal_discovery._structural_em import BDEU_START, PNAL_START
from pgmpy_sgm.core.missing import BEST_STARTS, EMOptions, MissingValuesWarning

#: The paper's best stratified graph of the heart data (Nyman et al. 2014, Figure 3).
PAPER_EDGES = {
    frozenset(e)
    for e in [("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
              ("smoking", "lipoprotein_ratio"), ("smoking", "physical_work"), ("smoking", "systolic_bp"),
              ("systolic_bp", "lipoprotein_ratio")]  # fmt: skip
}
PAPER_STRATA = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
                ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}  # fmt: skip


@pytest.fixture(scope="module")
def heart():
    return load_heart_disease()


def _masked(frame, rate, seed):
    return frame.astype(object).mask(np.random.default_rng(seed).random(frame.shape) < rate)


def _fit(data, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NonReversibleMCMC(seed=0, show_progress=False, n_iter=600, **params).fit(data)


def test_every_choice_gives_the_complete_data_result_without_missing_cells(heart):
    reference = _fit(heart)
    for choice in ("complete_cases", "em", "state", EMOptions(max_iter=2)):
        other = _fit(heart, missing=choice)
        pd.testing.assert_frame_equal(reference.posterior_, other.posterior_)
        assert not hasattr(other, "em_history_")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_em_recovers_the_paper_graph_with_5_percent_of_cells_missing(heart, seed):
    masked = _masked(heart, 0.05, seed)
    est = NonReversibleMCMC(seed=0, missing="em", show_progress=False).fit(masked)
    assert {frozenset(e) for e in est.model_.edges()} == PAPER_EDGES
    assert est.model_.strata == PAPER_STRATA
    incomplete = int(masked.isna().any(axis=1).sum())
    assert est.n_completed_exactly_ == incomplete and est.n_completed_by_draws_ == 0
    assert est.missing_cells_.sum() == int(masked.isna().sum().sum())
    assert est.em_history_.attrs["start"] == PNAL_START  # the SG learner's default start
    assert len(est.em_history_) >= 2


def test_em_is_deterministic_for_a_seed_and_rows_beyond_the_limit_are_drawn(heart):
    masked = _masked(heart, 0.2, 4)
    options = EMOptions(max_iter=2, max_completions=4, n_draws=20)  # rows with 3 or more missing cells are drawn
    one = _fit(masked, missing=options)
    two = _fit(masked, missing=options)
    pd.testing.assert_frame_equal(one.posterior_, two.posterior_)
    pd.testing.assert_frame_equal(one.em_history_.drop(columns="seconds"), two.em_history_.drop(columns="seconds"))
    many = int((masked.isna().sum(axis=1) >= 3).sum())
    # rows of more than 4 completions are drawn, but for those whose independent parts have at most 4 each
    assert 0 < one.n_completed_by_draws_ <= many
    counted = one.n_completed_exactly_ + one.n_completed_capped_ + one.n_completed_by_draws_
    assert counted == int(masked.isna().any(axis=1).sum())


def test_numpy_input_with_nan_and_complete_cases(heart):
    masked = _masked(heart, 0.05, 0).astype(float).to_numpy()
    with pytest.warns(MissingValuesWarning, match="Dropped"):
        est = NonReversibleMCMC(seed=0, n_iter=200, missing="complete_cases", show_progress=False).fit(masked)
    assert list(est.variables_) == [f"x{i}" for i in range(6)]


def test_missing_state_is_named_in_the_result(heart):
    est = _fit(_masked(heart, 0.05, 0), missing="state")
    assert all("missing" in states for states in est.model_.state_names.values())


def test_errors(heart, tmp_path):
    masked = _masked(heart, 0.05, 0)
    with pytest.raises(ValueError, match=r"rows have missing values .* in columns 'smoking' \(\d+ missing\)"):
        _fit(masked)
    with pytest.raises(ValueError, match="missing must be one of"):
        _fit(masked, missing="impute")
    with pytest.raises(ValueError, match="checkpoint is not available with missing='em'"):
        _fit(masked, missing="em", checkpoint=tmp_path / "run.jsonl")


# -- LDAGSearch ------------------------------------------------------------------------------
def _ldag(data, **params):
    from pgmpy_sgm import LDAGSearch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LDAGSearch(seed=0, n_restarts=2, show_progress=False, **params).fit(data)


def test_ldag_every_choice_gives_the_complete_data_result_without_missing_cells(heart):
    reference = _ldag(heart)
    for choice in ("complete_cases", "em", "state"):
        other = _ldag(heart, missing=choice)
        assert sorted(other.model_.edges()) == sorted(reference.model_.edges())
        assert other.best_score_ == reference.best_score_
        assert not hasattr(other, "em_history_")


def test_ldag_structural_em(heart):
    masked = _masked(heart, 0.05, 0)
    one = _ldag(masked, missing="em")
    two = _ldag(masked, missing="em")
    assert sorted(one.model_.edges()) == sorted(two.model_.edges()) and one.best_score_ == two.best_score_
    assert one.n_completed_exactly_ == int(masked.isna().any(axis=1).sum())
    assert one.em_history_.attrs["start"] == BDEU_START and len(one.em_history_) >= 2  # LDAGSearch's default
    # the network fits the expected counts of the last completed table; it scores incomplete rows too
    assert np.isfinite(one.model_.log_probability_function(list(heart.columns), {v: [0, 1] for v in heart})(
        heart.to_numpy()).sum())  # fmt: skip
    assert one.model_.labels() == {("lipoprotein_ratio", "systolic_bp"): [{"smoking": 0}],
                                   ("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}]}  # fmt: skip


def test_ldag_em_fits_the_final_network_on_the_rows_that_network_completes(heart, monkeypatch):
    import itertools

    from pgmpy_sgm import LDAGSearch
    from pgmpy_sgm.core.data import ExpectedCounts

    masked = _masked(heart, 0.1, 3)
    seen = {}
    refit = LDAGSearch._refit_on_own_completion

    def spy(self, table, result, options):
        seen["before"] = result.last.estimator.model_.copy()  # the network EM chose, labels searched
        return refit(self, table, result, options)

    monkeypatch.setattr(LDAGSearch, "_refit_on_own_completion", spy)
    est = _ldag(masked, missing=EMOptions(max_kept=None))  # every row completed exactly
    before, columns = seen["before"], list(heart.columns)
    log_p = before.log_probability_function(columns, {c: [0, 1] for c in columns})
    rows, weights = [], []
    for _, row in masked.iterrows():  # each row spread over its completions by the network's posterior
        gaps = [j for j, value in enumerate(row) if pd.isna(value)]
        fills = [dict(zip(gaps, bits, strict=True)) for bits in itertools.product((0, 1), repeat=len(gaps))]
        full = np.array([[fill.get(j, row.iloc[j]) for j in range(len(columns))] for fill in fills], dtype=int)
        posterior = np.exp(log_p(full) - np.logaddexp.reduce(log_p(full)))
        rows.extend(full.tolist())
        weights.extend(posterior.tolist())
    expected = before.copy()
    expected.fit(pd.DataFrame(rows, columns=columns), equivalent_sample_size=est.ess_,
                 weights=ExpectedCounts(weights), state_names={c: [0, 1] for c in columns})  # fmt: skip
    assert est.model_.labels() == before.labels() and sorted(est.model_.edges()) == sorted(before.edges())
    for node in columns:
        np.testing.assert_allclose(est.model_.get_cpds(node).get_values(), expected.get_cpds(node).get_values(),
                                   rtol=1e-9, atol=1e-12)  # fmt: skip


def test_ldag_em_with_capped_completions_is_deterministic_and_records_how_rows_were_completed(heart):
    """Each row keeps its 2 most probable completions and carries the rest of its posterior by one draw."""
    masked = _masked(heart, 0.3, 1)
    options = EMOptions(max_iter=3, max_kept=2, n_tail_draws=1)
    one, two = _ldag(masked, missing=options), _ldag(masked, missing=options)
    assert sorted(one.model_.edges()) == sorted(two.model_.edges()) and one.best_score_ == two.best_score_
    pd.testing.assert_frame_equal(one.em_history_.drop(columns="seconds"), two.em_history_.drop(columns="seconds"))
    gaps = masked.isna().sum(axis=1)
    assert 0 < one.n_completed_capped_ <= int((gaps >= 2).sum())  # one missing binary cell: 2 completions, all kept
    assert one.n_completed_exactly_ + one.n_completed_capped_ + one.n_completed_by_draws_ == int((gaps > 0).sum())
    distinct = masked.astype(str).drop_duplicates()
    bound = int((distinct == "nan").any(axis=1).sum()) * 3 + int((distinct != "nan").all(axis=1).sum())
    assert one.em_history_["table_rows"].max() <= bound  # at most 2 kept + 1 drawn per distinct incomplete row


def test_ldag_missing_errors(heart):
    masked = _masked(heart, 0.05, 0)
    with pytest.raises(ValueError, match=r"rows have missing values .* 'family_history' \(\d+ missing\)"):
        _ldag(masked)
    with pytest.raises(ValueError, match="missing must be one of"):
        _ldag(masked, missing=True)


def test_dask_and_count_tables_with_missing_cells_give_the_pandas_result(heart, dask_client):
    import dask.dataframe as dd

    masked = _masked(heart, 0.05, 0).astype(float)  # Dask would turn object columns into strings
    local = _fit(masked, missing="em")
    on_dask = _fit(dd.from_pandas(masked, npartitions=3), missing="em")
    pd.testing.assert_frame_equal(local.posterior_, on_dask.posterior_)
    counts = masked.fillna(-1).value_counts().reset_index(name="n").replace(-1, np.nan)  # a count table with gaps
    as_counts = _fit(counts, missing="em", weights="n")
    assert as_counts.best_score_ == pytest.approx(local.best_score_, abs=1e-6)
    assert as_counts.n_completed_exactly_ == local.n_completed_exactly_


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0")
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_held_out_rows_with_gaps_get_the_probability_of_their_observed_part(heart):
    """The model average of a row with gaps equals the sum over its completions, each scored as a complete row."""
    import itertools

    est = _fit(heart)
    rows = _masked(heart, 0.3, 7).head(12).astype(float)
    got = est.predict_log_likelihood(rows)
    for value, (_, row) in zip(got, rows.iterrows(), strict=True):
        hidden = [v for v in heart.columns if np.isnan(row[v])]
        completions = []
        for states in itertools.product([0, 1], repeat=len(hidden)):
            full = row.copy()
            full[hidden] = states
            completions.append(full.astype(int))
        scored = est.predict_log_likelihood(pd.DataFrame(completions))
        assert value == pytest.approx(np.logaddexp.reduce(scored), abs=1e-9)


def test_em_stops_when_equally_good_structures_alternate():
    """Two structures of the same expected score, one per search: EM stops after two calm searches."""
    from pgmpy_sgm.causal_discovery._structural_em import MStepResult, structural_em
    from pgmpy_sgm.core.missing import IncompleteTable, independent_log_probability

    table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1] * 20 + [None] * 4, "b": [0, 1] * 22}))
    searches = []

    def m_step(completed, previous):
        searches.append(len(searches))
        log_p = independent_log_probability(IncompleteTable.from_frame(completed.frame, completed.counts))
        return MStepResult(None, frozenset({len(searches) % 2}), 10.0, log_p)

    def parameter_step(completed, previous):
        return MStepResult(None, previous.structure, 10.0, previous.log_probability)

    result = structural_em(table, m_step, EMOptions(max_iter=20), parameter_step=parameter_step)
    assert len(result.history) < 20
    assert list(result.history["step"]) == ["structure", "parameters", "structure", "parameters", "structure"]


def test_em_stops_when_two_searches_in_a_row_keep_the_structure_however_the_score_moves():
    """The expected score swings by 50 at every step (as the E-step's draws make it on large tables) with one
    structure: EM stops after the second search that keeps it, not at max_iter."""
    from pgmpy_sgm.causal_discovery._structural_em import SEARCHES_KEPT_TO_STOP, MStepResult, structural_em
    from pgmpy_sgm.core.missing import IncompleteTable, independent_log_probability

    table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1] * 20 + [None] * 4, "b": [0, 1] * 22}))
    steps = []

    def score() -> float:
        steps.append(len(steps))
        return 1000.0 + 50.0 * (len(steps) % 2)

    def m_step(completed, previous):
        log_p = independent_log_probability(IncompleteTable.from_frame(completed.frame, completed.counts))
        return MStepResult(None, frozenset({"a-b"}), score(), log_p)

    def parameter_step(completed, previous):
        return MStepResult(None, previous.structure, score() - 100.0, previous.log_probability)

    result = structural_em(table, m_step, EMOptions(max_iter=20), parameter_step=parameter_step)
    structure_steps = result.history[result.history["step"] == "structure"]
    assert SEARCHES_KEPT_TO_STOP == 2 and len(result.history) < 20
    assert len(structure_steps) == 1 + SEARCHES_KEPT_TO_STOP  # the first search, then two that keep its structure
    assert (structure_steps["gain"].iloc[1:].abs() > EMOptions().threshold(1000.0)).all()  # never calm


def test_em_stops_when_three_searches_in_a_row_fail_to_raise_the_best_criterion():
    """Each search returns a new structure (so it never settles) of the same model, its score swinging by 50: no
    search after the first beats the first's criterion, and EM stops at the E-step after the fourth search."""
    from pgmpy_sgm.causal_discovery._structural_em import SEARCHES_STALLED_TO_STOP, MStepResult, structural_em
    from pgmpy_sgm.core.missing import IncompleteTable, independent_log_probability

    table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1] * 20 + [None] * 4, "b": [0, 1] * 22}))
    searches = []

    def m_step(completed, previous):
        searches.append(len(searches))
        log_p = independent_log_probability(IncompleteTable.from_frame(completed.frame, completed.counts))
        return MStepResult(None, frozenset({len(searches)}), 1000.0 + 50.0 * (len(searches) % 2), log_p)

    result = structural_em(table, m_step, EMOptions(max_iter=20))  # no parameter steps: a search every time
    assert SEARCHES_STALLED_TO_STOP == 3
    assert len(searches) == 1 + SEARCHES_STALLED_TO_STOP == len(result.history)
    criteria = result.history["criterion"]
    assert criteria.notna().all()  # every search's criterion was computed, the last one's at the stopping E-step
    assert result.history.attrs["best_iteration"] == 1  # the first (score 1050); the third ties it, the earlier wins


def test_em_returns_the_structure_step_with_the_best_observed_data_criterion():
    """The criterion of each search (expected score - expected log-likelihood + observed log-likelihood),
    recomputed here by enumeration; the result is the search that maximises it, not the last one."""
    import itertools

    from pgmpy_sgm.causal_discovery._structural_em import MStepResult, structural_em
    from pgmpy_sgm.core.missing import IncompleteTable

    rng = np.random.default_rng(0)
    a = rng.integers(0, 2, 80)
    frame = pd.DataFrame({"a": a, "b": np.where(rng.random(80) < 0.9, a, 1 - a)}).astype(object)
    frame = frame.mask(rng.random(frame.shape) < 0.25)
    table = IncompleteTable.from_frame(frame)
    joints = [np.array([[0.25, 0.25], [0.25, 0.25]]), np.array([[0.45, 0.05], [0.05, 0.45]])]
    searches, seen = [], []

    def m_step(completed, previous):  # alternates a poor and a good model; the poor one claims a higher score
        joint = joints[len(searches) % 2]
        searches.append(joint)
        seen.append(completed)
        score = 5.0 if joint is joints[0] else 0.0
        return MStepResult(len(searches), frozenset({len(searches) % 2}), score,
                           lambda codes, j=joint: np.log(j[codes[:, 0], codes[:, 1]]))  # fmt: skip

    result = structural_em(table, m_step, EMOptions(max_iter=4, start="complete_cases"))
    assert result.history.attrs["start"] == "complete cases"
    assert list(result.history["step"]) == ["structure"] * 4
    rows = [(None if pd.isna(x) else int(x), None if pd.isna(y) else int(y)) for x, y in frame.itertuples(index=False)]
    for iteration in range(1, 5):
        joint, completed = searches[iteration], seen[iteration]  # [0]: the start, on the complete cases
        expected_ll = sum(c * math.log(joint[int(x), int(y)]) for (x, y), c in
                          zip(completed.frame.itertuples(index=False), completed.counts, strict=True))  # fmt: skip
        observed_ll = sum(math.log(sum(joint[i, j] for i, j in itertools.product(
            [x] if x is not None else [0, 1], [y] if y is not None else [0, 1]))) for x, y in rows)  # fmt: skip
        score = 5.0 if joint is joints[0] else 0.0
        assert result.history.loc[iteration, "criterion"] == pytest.approx(score - expected_ll + observed_ll)
    best = int(result.history["criterion"].idxmax())
    assert result.history.attrs["best_iteration"] == best and searches[best] is joints[1]
    assert result.last.estimator == best + 1 and result.completed is seen[best]


def test_ldag_warm_structure_steps_are_one_climb_from_the_current_dag(heart):
    """The per-step budget: a search of its own the first time, then one climb from the current DAG (and its turns
    and parent swaps), no restarts."""
    from pgmpy_sgm import LDAGSearch
    from pgmpy_sgm.core.missing import IncompleteTable

    table = IncompleteTable.from_frame(_masked(heart, 0.05, 0))
    learner = LDAGSearch(seed=0, n_restarts=3, show_progress=False, missing="em")
    learner._check_params()  # as fit does: the score settings are resolved once
    first = learner._m_step(table, None, table.complete_cases(), None)
    second = learner._m_step(table, None, table.complete_cases(), first)
    assert first.estimator.n_restarts == 3 and second.estimator.n_restarts == 0
    # the single climb from the previous DAG; no turn is worth trying here, then the climb with parent swaps
    assert second.estimator.climb_starts_ == ["given", "swaps"]
    assert set(second.estimator.model_.edges()) == set(first.estimator.model_.edges())  # same table: it stays


@pytest.mark.parametrize(("start", "name"), [("tree", "Chow-Liu tree (pairwise available cases)"),
                                             ("pnal", PNAL_START), ("bdeu", BDEU_START),
                                             ("complete_cases", "complete cases"),
                                             ("independent", "independent variables (available cases)")])  # fmt: skip
def test_the_first_e_step_completes_the_rows_under_the_chosen_start(heart, start, name):
    from pgmpy_sgm.causal_discovery._pnal_start import START_ESS, START_MAX_INDEGREE, pnal_log_probability
    from pgmpy_sgm.causal_discovery._structural_em import MStepResult, structural_em
    from pgmpy_sgm.core.missing import IncompleteTable, complete_rows, independent_log_probability
    from pgmpy_sgm.core.tree_start import chow_liu_log_probability

    table = IncompleteTable.from_frame(_masked(heart, 0.1, 0))
    seen = []

    def m_step(completed, previous):  # a learner whose model is the tree of whatever it is given
        seen.append(completed)
        return MStepResult(None, frozenset(), 0.0, chow_liu_log_probability(completed.codes, completed.counts,
                                                                            table.cards))  # fmt: skip

    result = structural_em(table, m_step, EMOptions(max_iter=2, start=start))
    assert result.history.attrs["start"] == name
    options = EMOptions()
    if start == "complete_cases":  # the learner saw the complete cases first
        first_model = chow_liu_log_probability(seen[0].codes, seen[0].counts, table.cards)
        assert (seen[0].codes >= 0).all() and seen[0].counts.sum() == table.complete_cases().counts.sum()
        first_table = seen[1]
    else:
        first_model = {"tree": chow_liu_log_probability, "pnal": pnal_log_probability,
                       "bdeu": functools.partial(pnal_log_probability, bdeu_ess=START_ESS,
                                                 max_indegree=START_MAX_INDEGREE)}[start](
            table.codes, table.counts, table.cards) if start != "independent" else independent_log_probability(table)
        first_table = seen[0]
    draw_seed = int(np.random.default_rng(0).integers(2**63))  # as structural_em derives it from seed=0
    expected = complete_rows(table, first_model, options.max_completions, options.n_draws, draw_seed,
                             options.tail_mass, options.max_kept, options.n_tail_draws)  # fmt: skip
    got = dict(zip(map(tuple, first_table.codes.tolist()), first_table.counts, strict=True))
    want = dict(zip(map(tuple, expected.codes.tolist()), expected.counts, strict=True))
    assert got.keys() == want.keys()
    np.testing.assert_allclose([got[k] for k in want], list(want.values()), rtol=1e-12)


def test_the_best_start_keeps_the_run_with_the_higher_observed_data_criterion(heart):
    masked = _masked(heart, 0.2, 5)  # here a start other than the first (PNAL) ends highest
    runs = {start: _ldag(masked, missing=EMOptions(max_iter=4, start=start)) for start in BEST_STARTS}
    best = _ldag(masked, missing=EMOptions(max_iter=4, start="best"))
    def chosen(run):  # a second look not kept has its criterion in the history too, but is not a result
        return run.em_history_.loc[run.em_history_.attrs["best_iteration"], "criterion"]

    criteria = {run.em_history_.attrs["start"]: chosen(run) for run in runs.values()}
    assert best.em_history_.attrs["start_criteria"] == pytest.approx(criteria)
    winner = max(runs.values(), key=chosen)
    assert best.em_history_.attrs["start"] == winner.em_history_.attrs["start"] != PNAL_START
    assert sorted(best.model_.edges()) == sorted(winner.model_.edges()) and best.best_score_ == winner.best_score_


def test_structure_searches_cut_by_their_time_limit_are_reported_once(heart, monkeypatch):
    """Every M-step's chains stopping at the time limit (forced here) gives one warning that counts them."""
    from pgmpy_sgm.causal_discovery import ConvergenceWarning

    monkeypatch.setattr(NonReversibleMCMC, "_stop_reason", lambda self, run, interrupted, plan: "max_time")
    masked = _masked(heart, 0.1, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = NonReversibleMCMC(seed=0, missing=EMOptions(max_iter=3), show_progress=False).fit(masked)
    searches = int((est.em_history_["step"] == "structure").sum())  # the start (PNAL DAG) needs no search
    found = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)
             and "of EM's" in str(w.message)]  # fmt: skip
    assert found == [f"{searches} of EM's {searches} structure searches ran to their time limit (600 s with "
                     "n_iter=auto) before their chains settled, which makes EM slow and may leave a search short of "
                     "its mode; em_history_ gives each step's seconds. Bound the fit with max_time, or try "
                     "another EMOptions(start=)."]  # fmt: skip


def test_no_cut_search_no_warning(heart):
    from pgmpy_sgm.causal_discovery import ConvergenceWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NonReversibleMCMC(seed=0, missing=EMOptions(max_iter=3), show_progress=False).fit(_masked(heart, 0.1, 0))
    assert not [w for w in caught if issubclass(w.category, ConvergenceWarning) and "of EM's" in str(w.message)]


def test_ldag_em_searches_dags_and_the_labels_once_on_the_chosen_table(heart):
    from pgmpy_sgm.structure_score import LDAGScoreSettings

    masked = _masked(heart, 0.1, 2)
    est = _ldag(masked, missing=EMOptions(max_iter=4))
    record = est.em_history_.attrs["labels"]
    assert record["labelled_nodes"] == len(est.model_.labelled_nodes())
    assert record["expected_score_with"] == est.best_score_
    assert est.em_history_.loc[est.em_history_.attrs["best_iteration"], "expected_score"] == \
        record["expected_score_without"]  # fmt: skip
    plain = _ldag(masked, missing=EMOptions(max_iter=4), scoring_method=LDAGScoreSettings(labels=False))
    assert "labels" not in plain.em_history_.attrs and not plain.model_.labelled_nodes()
