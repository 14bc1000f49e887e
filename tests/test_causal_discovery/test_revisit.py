"""Structural EM's second look: parents the available cases support, and when EM keeps them."""

import itertools
import math
import warnings

import numpy as np
import pytest

from pgmpy_sgm import LDAGSearch, load_heart_disease
from pgmpy_sgm.causal_discovery import _revisit, _structural_em
from pgmpy_sgm.causal_discovery._pnal_start import available_case_dag
from pgmpy_sgm.causal_discovery._revisit import common_rows_gain, supported_parents
from pgmpy_sgm.core.missing import EMOptions


def _masked_chain(seed: int, n: int = 500, rate: float = 0.25):
    """a -> b -> c, b with three states, a free d; cells masked at random (code -1)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = np.where(rng.random(n) < 0.8, 2 * a, rng.integers(0, 3, n))
    c = np.where(rng.random(n) < 0.8, (b > 0).astype(int), rng.integers(0, 2, n))
    d = rng.integers(0, 2, n)
    codes = np.column_stack([a, b, c, d])
    codes[rng.random(codes.shape) < rate] = -1
    return codes, rng.integers(1, 4, n).astype(float), [2, 3, 2, 2]


def _brute_force_gain(codes, weights, cards, child, parents, candidate, penalty):
    """The gain written out row by row: both log-likelihoods on the rows where the family and the candidate are seen."""
    rows = [i for i in range(len(codes)) if all(codes[i, v] >= 0 for v in [child, *parents, candidate])]

    def log_likelihood(given):
        joint, margin = {}, {}
        for i in rows:
            key = tuple(codes[i, v] for v in given)
            joint[(codes[i, child], key)] = joint.get((codes[i, child], key), 0.0) + weights[i]
            margin[key] = margin.get(key, 0.0) + weights[i]
        return sum(w * math.log(w / margin[key]) for (_, key), w in joint.items())

    common = sum(weights[i] for i in rows)
    n = weights.sum()
    extra = (cards[child] - 1) * math.prod(cards[p] for p in parents) * (cards[candidate] - 1)
    gain = log_likelihood([*parents, candidate]) - log_likelihood(parents)
    return n * gain / common - penalty * 0.5 * math.log(n) * extra


@pytest.mark.parametrize("child, parents, candidate", [(1, [], 0), (2, [1], 0), (2, [0, 3], 1), (3, [], 2)])
@pytest.mark.parametrize("penalty", [0.5, 1.0])
def test_the_gain_is_the_log_likelihood_gain_on_the_common_rows_scaled_to_all_rows(child, parents, candidate, penalty):
    codes, weights, cards = _masked_chain(0)
    expected = _brute_force_gain(codes, weights, cards, child, parents, candidate, penalty)
    assert common_rows_gain(codes, weights, cards, child, parents, candidate, penalty) == pytest.approx(expected,
                                                                                                        abs=1e-9)


def test_a_candidate_never_seen_with_the_family_has_no_gain():
    codes = np.array([[0, -1], [-1, 1], [1, -1]])
    assert common_rows_gain(codes, np.ones(3), [2, 2], 0, [], 1) == -math.inf


def test_supported_parents_add_the_chains_links_and_keep_the_free_variable_alone():
    codes, weights, cards = _masked_chain(1)
    new, added = supported_parents(codes, weights, cards, [[], [], [], []])
    assert {frozenset((u, v)) for u, v, _ in added} == {frozenset((0, 1)), frozenset((1, 2))}
    assert new[3] == [] and all(3 not in ps for ps in new)
    assert all(gain > 0 for _, _, gain in added)
    assert [g for *_, g in added] == sorted((g for *_, g in added), reverse=True)


def test_supported_parents_keep_the_dag_acyclic_and_add_at_most_one_parent_each():
    codes, weights, cards = _masked_chain(2)
    settled = [[], [0], [1], []]  # a -> b -> c already; c -> a would close a cycle
    new, added = supported_parents(codes, weights, cards, settled)
    for child in range(4):
        assert new[child][: len(settled[child])] == settled[child]
        assert len(new[child]) - len(settled[child]) <= 1
    assert (2, 0) not in [(u, v) for u, v, _ in added]
    order = list(itertools.chain.from_iterable(_topological(new)))
    assert sorted(order) == [0, 1, 2, 3]
    full = [[1, 2, 3], [], [], []]  # at the most parents already
    assert supported_parents(codes, weights, cards, full, max_indegree=3)[0][0] == [1, 2, 3]


def _topological(parents):
    """Kahn's order of a DAG given as parent lists; raises on a cycle."""
    remaining = {v: set(ps) for v, ps in enumerate(parents)}
    layers = []
    while remaining:
        layer = [v for v, ps in remaining.items() if not ps]
        if not layer:
            raise AssertionError(f"cycle among {sorted(remaining)}")
        layers.append(layer)
        for v in layer:
            del remaining[v]
        for ps in remaining.values():
            ps.difference_update(layer)
    return layers


def test_the_look_model_is_a_normalised_distribution_with_its_terms():
    codes, weights, cards = _masked_chain(3)
    log_p = available_case_dag(codes, weights, cards, [[], [0], [1, 3], []])
    every = np.array(list(itertools.product(*(range(c) for c in cards))))
    assert np.exp(log_p(every)).sum() == pytest.approx(1.0, abs=1e-12)
    assert np.allclose(sum(term(every) for term in log_p.terms), log_p(every))
    assert log_p.parents == [[], [0], [1, 3], []]


def _heart_masked(rate: float, seed: int):
    heart = load_heart_disease()
    return heart.astype(object).mask(np.random.default_rng(seed).random(heart.shape) < rate)


def _ldag(data, **options):
    """EM from the PNAL start: on these rows its settled DAG lacks parents the available cases support."""
    options = {"max_iter": 6, "start": "pnal", **options}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LDAGSearch(seed=0, n_restarts=2, show_progress=False, missing=EMOptions(**options)).fit(data)


@pytest.fixture(scope="module")
def masked_heart():
    return _heart_masked(0.2, 0)


def test_a_look_not_kept_leaves_the_result_of_em_alone(masked_heart):
    without = _ldag(masked_heart, revisit=False)
    looked = _ldag(masked_heart)
    record = looked.em_history_.attrs["revisit"]
    assert record["parents_added"] and record["kept"] is False
    # here the look's criterion is higher, by less than the margin: it must still not be the result
    assert record["criterion_before"] < record["criterion_after"] < record["criterion_before"] + record["margin"]
    assert sorted(looked.model_.edges()) == sorted(without.model_.edges())
    assert looked.best_score_ == without.best_score_
    assert looked.em_history_.attrs["best_iteration"] == without.em_history_.attrs["best_iteration"]
    assert len(looked.em_history_) == len(without.em_history_) + 1  # the look: one E-step and one search
    assert "revisit" not in without.em_history_.attrs


def test_a_look_kept_runs_em_on_and_the_result_is_the_best_criterion(masked_heart, monkeypatch):
    without = _ldag(masked_heart, revisit=False)
    monkeypatch.setattr(_structural_em, "revisit_margin", lambda n: -math.inf)
    looked = _ldag(masked_heart)
    history = looked.em_history_
    assert history.attrs["revisit"]["kept"] is True
    assert len(history) > len(without.em_history_) + 1
    best = history.attrs["best_iteration"]
    assert history.loc[best, "criterion"] == history["criterion"].max()
    assert list(history.index) == list(range(1, len(history) + 1))


def test_the_margin_grows_with_the_rows():
    assert _revisit.revisit_margin(2000) == pytest.approx(2 * math.log(2000))
    assert _revisit.revisit_margin(10_000) > _revisit.revisit_margin(2000)


def test_revisit_must_be_a_boolean():
    with pytest.raises(TypeError, match="revisit must be True or False"):
        EMOptions(revisit="yes")
