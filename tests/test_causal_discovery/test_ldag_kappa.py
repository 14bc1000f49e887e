"""The label penalty of LDAGSearch chosen by held-out fit (``kappa="held_out"`` or a grid of values)."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.causal_discovery.ldag_search import KAPPA_GRID
from pgmpy_sgm.structure_score import LDAGScoreSettings

SETTINGS = {"n_restarts": 1, "seed": 0, "show_progress": False}
GRID = (0.2, 0.0, 1.0)


def _noisy_and(n: int = 160, seed: int = 5) -> pd.DataFrame:
    """y follows a only when b = 1 (a label of y's family); c is noise on y; d has three states."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    y = np.where(b == 1, np.where(rng.random(n) < 0.85, a, 1 - a), (rng.random(n) < 0.3).astype(int))
    c = np.where(rng.random(n) < 0.75, y, 1 - y)
    d = np.where(rng.random(n) < 0.6, c + b, rng.integers(0, 3, n))
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d, "y": y})


def _log_probability(model, rows: pd.DataFrame) -> float:
    """Sum over rows and nodes of log P(node | parents), read from each CPD's table by state name."""
    total = 0.0
    for cpd in model.get_cpds():
        position = [{s: i for i, s in enumerate(cpd.state_names[v])} for v in cpd.variables]
        for _, row in rows.iterrows():
            index = tuple(pos[row[v]] for pos, v in zip(position, cpd.variables, strict=True))
            total += math.log(cpd.values[index])
    return total


def _cross_validated(rows: pd.DataFrame, kappa: float, seed: int = 0) -> float:
    """Mean over 5 folds (rows shuffled with ``seed``) of the log-likelihood per held-out row of a fit."""
    states = {c: sorted(rows[c].unique()) for c in rows.columns}
    order = np.random.default_rng(seed).permutation(len(rows))
    values = []
    for test_idx in np.array_split(order, 5):
        test = rows.iloc[test_idx]
        train = rows.drop(index=rows.index[test_idx]).reset_index(drop=True)
        fold = LDAGSearch(scoring_method=LDAGScoreSettings(kappa=kappa), state_names=states, **SETTINGS).fit(train)
        values.append(_log_probability(fold.model_, test) / len(test))
    return float(np.mean(values))


@pytest.fixture(scope="module")
def rows():
    return _noisy_and()


@pytest.fixture(scope="module")
def chosen(rows):
    return LDAGSearch(scoring_method=LDAGScoreSettings(kappa=GRID), **SETTINGS).fit(rows)


def test_the_choice_is_the_best_of_an_independent_five_fold_computation(rows, chosen):
    expected = {kappa: _cross_validated(rows, kappa) for kappa in GRID}
    assert list(chosen.kappa_scores_) == list(GRID)
    assert chosen.kappa_scores_ == pytest.approx(expected, abs=1e-9)
    assert chosen.kappa_ == max(expected, key=expected.get)
    assert len(set(np.round(list(expected.values()), 9))) > 1  # the data tell the values apart


def test_the_model_is_the_fit_on_all_rows_with_the_chosen_kappa(rows, chosen):
    plain = LDAGSearch(scoring_method=LDAGScoreSettings(kappa=chosen.kappa_), **SETTINGS).fit(rows)
    assert chosen.best_score_ == plain.best_score_
    assert sorted(chosen.model_.edges()) == sorted(plain.model_.edges())
    assert chosen.model_.labels() == plain.model_.labels()
    assert chosen.score(rows) == pytest.approx(plain.score(rows), abs=1e-9)
    assert chosen.scoring_method.kappa == GRID  # the parameter is kept as given


def test_held_out_tries_the_default_grid_with_the_default_first():
    assert KAPPA_GRID[0] == LDAGScoreSettings().kappa and 0.0 in KAPPA_GRID and 1.0 in KAPPA_GRID
    rows = _noisy_and(60, 2)[["a", "b", "y"]]
    est = LDAGSearch(scoring_method=LDAGScoreSettings(kappa="held_out"),
                     n_restarts=0, seed=1, show_progress=False).fit(rows)
    assert list(est.kappa_scores_) == list(KAPPA_GRID) and est.kappa_ in KAPPA_GRID


def test_a_count_table_is_split_as_the_observations_it_stands_for(rows):
    table = rows.value_counts().rename("n").reset_index()
    from_counts = LDAGSearch(scoring_method=LDAGScoreSettings(kappa=GRID), weights="n", **SETTINGS).fit(table)
    expanded = table.loc[table.index.repeat(table["n"]), list(rows.columns)].reset_index(drop=True)
    expected = {kappa: _cross_validated(expanded, kappa) for kappa in GRID}
    assert from_counts.kappa_scores_ == pytest.approx(expected, abs=1e-9)
    assert from_counts.kappa_ == max(expected, key=expected.get)
    with pytest.raises(ValueError, match="integer count"):
        LDAGSearch(scoring_method=LDAGScoreSettings(kappa=GRID),
                   weights=np.full(len(table), 0.5), **SETTINGS).fit(table.drop(columns="n"))


def test_a_fixed_kappa_gives_the_earlier_results():
    # reference values from the release before kappa could be chosen (same data, seed and settings)
    rng = np.random.default_rng(3)
    n = 300
    a, b = rng.integers(0, 2, n), rng.integers(0, 3, n)
    c = np.where((a == 1) & (b > 0), rng.integers(0, 2, n), (a + b) % 2)
    d = np.where(c == 1, rng.integers(0, 3, n), b)
    df = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    three = [("b", "a"), ("c", "a"), ("c", "b"), ("d", "b")]
    earlier = {0.2: (-811.3684187898252, three, 1, 10.014028285334527),
               0.05: (-814.232854774135, three, 0, 10.015244275198727),
               1.0: (-800.4457899629499, sorted(three + [("d", "a")]), 8, 18.146960458512336)}  # fmt: skip
    for kappa, (score, edges, n_labels, squares) in earlier.items():
        est = LDAGSearch(scoring_method=LDAGScoreSettings(kappa=kappa),
                         n_restarts=2, seed=0, show_progress=False).fit(df)
        assert est.kappa_ == kappa and est.kappa_scores_ is None
        assert est.best_score_ == score
        assert sorted(est.model_.edges()) == edges and est.model_.n_labels() == n_labels
        values = np.concatenate([np.asarray(cpd.get_values()).ravel()
                                 for cpd in sorted(est.model_.get_cpds(), key=lambda cpd: cpd.variable)])
        assert float((values**2).sum()) == squares


def test_kappa_zero_is_the_search_without_labels(rows):
    zero = LDAGSearch(scoring_method=LDAGScoreSettings(kappa=0.0), **SETTINGS).fit(rows)
    plain = LDAGSearch(scoring_method=LDAGScoreSettings(labels=False), **SETTINGS).fit(rows)
    assert zero.best_score_ == plain.best_score_ and zero.kappa_ == 0.0
    assert sorted(zero.model_.edges()) == sorted(plain.model_.edges()) and not zero.model_.labels()
    assert zero.score(rows) == pytest.approx(plain.score(rows), abs=1e-9)


def test_max_time_bounds_the_choice_and_keeps_the_first_value(rows):
    # a budget spent by the first value's five fits: the other values are not scored
    est = LDAGSearch(scoring_method=LDAGScoreSettings(kappa=GRID), max_time=1e-3, **SETTINGS).fit(rows)
    assert list(est.kappa_scores_) == [GRID[0]] and est.kappa_ == GRID[0]
    assert est.restarts_stopped_by_ == "max_time"


@pytest.mark.parametrize("bad", ["cv", [], [0.2, 1.5], -0.1, 2, True, [0.2, 0.2], float("nan"), [None]])
def test_bad_kappa_is_refused_with_its_name(bad):
    with pytest.raises(ValueError, match="kappa") as err:
        LDAGSearch(scoring_method=LDAGScoreSettings(kappa=bad), show_progress=False).fit(_noisy_and(20))
    assert "\n" not in str(err.value)


def test_a_choice_of_kappa_needs_labels():
    with pytest.raises(ValueError, match="kappa='held_out' chooses the label penalty, but labels=False"):
        LDAGSearch(scoring_method=LDAGScoreSettings(kappa="held_out", labels=False),
                   show_progress=False).fit(_noisy_and(20))


def test_incomplete_rows_are_dropped_once_before_the_folds_are_drawn(rows):
    gappy = rows.astype(float)
    gappy.iloc[::9, 2] = np.nan
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = LDAGSearch(scoring_method=LDAGScoreSettings(kappa=(0.2, 1.0)),
                         missing="complete_cases", **SETTINGS).fit(gappy)
    assert sum("Dropped" in str(w.message) for w in caught) == 1
    complete = LDAGSearch(scoring_method=LDAGScoreSettings(kappa=(0.2, 1.0)),
                          **SETTINGS).fit(gappy.dropna().reset_index(drop=True))
    assert est.kappa_scores_ == complete.kappa_scores_ and est.best_score_ == complete.best_score_
