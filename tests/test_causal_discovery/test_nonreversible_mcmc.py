"""NonReversibleMCMC: reference results, determinism, parallel backends, checkpoints and sklearn contract."""

import base64
import json
import os
import signal
import warnings

import joblib
import networkx as nx
import numpy as np
import pandas as pd
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from pgmpy_sgm import StratifiedGraph, load_heart_disease
from pgmpy_sgm.causal_discovery import (
    Checkpoint,
    FitInterruptedWarning,
    NonReversibleMCMC,
    _checkpoint,
    _segments,
    exhaustive_posterior,
)
from pgmpy_sgm.causal_discovery._run_results import POSTERIOR_MARGIN, rescore_visited
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.datasets import paper_synthetic_graph, simulate_paper_synthetic
from pgmpy_sgm.structure_score import SGMScore, SGMScoreSettings


@pytest.fixture(scope="module")
def heart():
    return load_heart_disease(as_counts=True)


def _edges(model):
    return {frozenset(e) for e in model.edges()}


def _fit(data, **kwargs):
    params = {"weights": "count", "show_progress": False, **kwargs}
    return NonReversibleMCMC(**params).fit(data)


def _assert_same_result(a, b):
    np.testing.assert_array_equal(a.trace_, b.trace_)
    pd.testing.assert_frame_equal(a.posterior_, b.posterior_)
    pd.testing.assert_frame_equal(a.edge_probabilities_, b.edge_probabilities_)
    assert a.model_ == b.model_
    assert a.best_score_ == b.best_score_
    assert a.n_visited_ == b.n_visited_
    assert a.acceptance_rate_ == b.acceptance_rate_
    np.testing.assert_array_equal(a.chain_best_scores_, b.chain_best_scores_)


# -- reference values (DESIGN section 3) ----------------------------------------------------
def test_heart_best_sg_in_19_of_20_seeds(heart, heart_paper):
    hits = 0
    for seed in range(20):
        est = _fit(heart, seed=seed)
        same_graph = _edges(est.model_) == heart_paper.best_edges and est.model_.strata == heart_paper.best_strata
        hits += abs(est.best_score_ + 6715.90) < 0.005 and same_graph
    assert hits >= 19


def test_heart_without_strata_gives_best_gm(heart, heart_paper):
    est = _fit(heart, seed=0, strata=False)
    assert est.best_score_ == pytest.approx(-6720.18, abs=0.005)
    assert _edges(est.model_) == heart_paper.best_edges
    assert est.model_.strata == {}
    assert (est.posterior_["n_labels"] == 0).all()


def test_mcmc_agrees_with_exhaustive_posterior(heart):
    exact = exhaustive_posterior(heart, weights="count")
    est = _fit(heart, seed=3)
    for r in range(2):
        assert set(est.posterior_["edges"].iloc[r]) == set(exact["edges"].iloc[r])
        assert est.posterior_["strata"].iloc[r] == exact["strata"].iloc[r]
    # each visited graph has exactly its exhaustive score
    exact_scores = dict(zip(exact["edges"], exact["log_posterior"], strict=True))
    for edges, value in zip(est.posterior_["edges"], est.posterior_["log_posterior"], strict=True):
        assert value == exact_scores[edges]
    # the visited set is a subset, so renormalized exact probabilities match the estimate
    sub = exact[exact["edges"].isin(set(est.posterior_["edges"]))]
    expected = sub["probability"].to_numpy() / sub["probability"].sum()
    np.testing.assert_allclose(est.posterior_["probability"].to_numpy(), expected, rtol=1e-9)


def test_fitted_attributes(heart):
    est = _fit(heart, seed=1, n_iter=300, n_chains=3, start="empty")
    assert est.trace_.shape == (3, 301)
    assert est.n_iter_ == 300
    assert est.variables_ == list(heart.columns.drop("count"))
    assert est.n_features_in_ == 7
    assert list(est.feature_names_in_) == list(heart.columns)
    empty = StratifiedGraph(nodes=est.variables_)
    np.testing.assert_allclose(est.trace_[:, 0], est.scorer_.score(empty), rtol=0, atol=1e-9)
    assert est.best_score_ == pytest.approx(est.scorer_.score(est.model_), abs=1e-9)
    assert est.best_score_ == est.chain_best_scores_.max() == np.nanmax(est.trace_)
    post = est.posterior_
    assert len(post) <= est.n_visited_
    assert (post["log_posterior"] >= est.best_score_ - POSTERIOR_MARGIN).all()
    assert post["probability"].sum() == pytest.approx(1.0)
    assert post["log_posterior"].is_monotonic_decreasing
    assert (post["n_edges"] == post["edges"].map(len)).all()
    assert 0 < est.acceptance_rate_ < 1
    # edge marginals recomputed from the posterior rows
    ep = est.edge_probabilities_
    assert list(ep.index) == list(ep.columns) == est.variables_
    np.testing.assert_allclose(ep.to_numpy(), ep.to_numpy().T)
    assert np.all(np.diag(ep.to_numpy()) == 0)
    expected = pd.DataFrame(0.0, index=est.variables_, columns=est.variables_)
    for edges, p in zip(post["edges"], post["probability"], strict=True):
        for u, v in edges:
            expected.loc[u, v] += p
            expected.loc[v, u] += p
    np.testing.assert_allclose(ep.to_numpy(), expected.to_numpy(), atol=1e-12)
    assert est.model_.state_names == {v: (0, 1) for v in est.variables_}
    assert post["strata"].iloc[0] == est.model_.strata
    filled = post["strata"].notna().to_numpy()
    assert filled[: min(100, len(post))].all() and list(filled) == sorted(filled, reverse=True)
    assert post.loc[filled, "probability"].sum() >= 0.999 or filled.sum() == 1000


def test_score_method(heart):
    rows = load_heart_disease()
    est = NonReversibleMCMC(n_iter=300, seed=0, show_progress=False).fit(rows)
    assert est.score(rows) == pytest.approx(-6715.90, abs=0.005)
    assert est.score(rows) == pytest.approx(est.best_score_, abs=1e-9)
    est_counts = _fit(heart, n_iter=300, seed=0)
    assert est_counts.score(heart) == pytest.approx(est.score(rows), abs=1e-9)


def test_numpy_input_names_columns():
    X = simulate_paper_synthetic(500, seed=0).to_numpy()
    est = NonReversibleMCMC(n_iter=200, seed=0, show_progress=False).fit(X)
    assert est.variables_ == [f"x{i}" for i in range(7)]
    assert isinstance(est.score(X), float)


@pytest.mark.parametrize("strata", [True, False])
def test_start_options(heart, strata):
    best_gm = _fit(heart, seed=0, n_iter=50, start="best_gm", strata=strata)
    empty = _fit(heart, seed=0, n_iter=50, start="empty", strata=strata)
    paper = _fit(heart, seed=0, n_iter=50, method="paper", strata=strata)
    forest = _fit(heart, seed=0, n_iter=50, start="best_forest", method="paper", strata=strata)
    assert best_gm.trace_[0, 0] > empty.trace_[0, 0] == paper.trace_[0, 0]
    assert forest.trace_[0, 0] > empty.trace_[0, 0]
    edges = [("smoking", "systolic_bp"), ("systolic_bp", "lipoprotein_ratio")]
    for start in (edges, nx.Graph(edges)):
        est = _fit(heart, seed=0, n_iter=1, start=start, strata=strata)
        given = est.scorer_.optimal_strata(edges) if strata else StratifiedGraph(edges, nodes=est.variables_)
        assert est.trace_[0, 0] == pytest.approx(est.scorer_.score(given), abs=1e-9)


def test_climbed_start_begins_at_the_paper_optimum(heart):
    # Nyman et al., Section 5: the best stratified graph of the heart data scores -6715.90 (DESIGN.md)
    est = _fit(heart, seed=0, n_iter=20, start="climbed")
    assert round(est.trace_[0, 0], 2) == round(est.trace_[1, 0], 2) == -6715.90
    assert round(est.best_score_, 2) == -6715.90
    plain = _fit(heart, seed=0, n_iter=20, start="climbed", strata=False)
    forest = _fit(heart, seed=0, n_iter=20, start="best_forest", strata=False)
    assert plain.trace_[0, 0] >= forest.trace_[0, 0]  # a climb from the best forest
    assert plain.trace_[0, 0] <= -6720.18 + 0.005  # the best decomposable GM (DESIGN.md) bounds it


# -- synthetic model (Appendix B) ------------------------------------------------------------
@pytest.mark.parametrize("n, seeds, what, needed", [(2000, range(10), "graph", 8), (20000, range(10), "sg", 9)])
def test_synthetic_recovery(n, seeds, what, needed):
    true = paper_synthetic_graph()
    hits = 0
    for seed in seeds:
        est = NonReversibleMCMC(seed=seed, show_progress=False).fit(simulate_paper_synthetic(n, seed=seed))
        ok = _edges(est.model_) == _edges(true)
        if what == "sg":
            ok = ok and est.model_.strata == true.strata
        hits += ok
    assert hits >= needed


# -- determinism, parallel chains, backends --------------------------------------------------
def test_same_seed_same_result_for_any_n_jobs(heart):
    one = _fit(heart, seed=11, n_iter=700, n_chains=3)
    again = _fit(heart, seed=11, n_iter=700, n_chains=3)
    two = _fit(heart, seed=11, n_iter=700, n_chains=3, n_jobs=2, checkpoint=Checkpoint(every=300))
    with joblib.parallel_config(backend="threading"):
        threads = _fit(heart, seed=11, n_iter=700, n_chains=3, n_jobs=2)
    for other in (again, two, threads):
        _assert_same_result(one, other)
    different = _fit(heart, seed=12, n_iter=700, n_chains=3)
    assert not np.array_equal(one.trace_, different.trace_)


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_parallel_chains_run_on_the_joblib_backend_in_effect(heart, monkeypatch):
    """A ``joblib.parallel_config`` around ``fit`` chooses where the chains run, as for scikit-learn."""
    calls = []
    run_segment = _segments.run_segment

    def counted(*args):  # counts only when the chains run in this process (threads), not in loky workers
        calls.append(1)
        return run_segment(*args)

    monkeypatch.setattr(_segments, "run_segment", counted)
    with joblib.parallel_config(backend="threading"):
        threads = _fit(heart, seed=11, n_iter=700, n_chains=3, n_jobs=2)
    assert calls
    _assert_same_result(_fit(heart, seed=11, n_iter=700, n_chains=3), threads)


def test_every_form_of_scoring_method_learns_under_the_same_score(heart):
    """None, "sgm", a settings object and an SGMScore (its settings, not its data) give one run."""
    default = _fit(heart, seed=3, n_iter=300, n_chains=1)
    for form in ("sgm", SGMScoreSettings(), SGMScore(heart.head(10), weights="count")):
        _assert_same_result(default, _fit(heart, seed=3, n_iter=300, n_chains=1, scoring_method=form))
    uniform = _fit(heart, seed=3, n_iter=300, n_chains=1, scoring_method=SGMScore(heart, weights="count",
                                                                                   prior="uniform"))  # fmt: skip
    assert uniform.prior_ == "uniform"
    expected = SGMScore(heart, weights="count", prior="uniform").score(uniform.model_)
    assert uniform.best_score_ == pytest.approx(expected, abs=1e-9)


def test_the_earlier_score_keywords_still_work_with_a_future_warning(heart):
    new = _fit(heart, seed=3, n_iter=300, n_chains=1, scoring_method=SGMScoreSettings("uniform", 3))
    expected = r"scoring_method=SGMScoreSettings\(prior='uniform', max_labelled_clique=3\)"
    with pytest.warns(FutureWarning, match=expected):
        old = _fit(heart, seed=3, n_iter=300, n_chains=1, prior="uniform", max_labelled_clique=3)
    _assert_same_result(new, old)


def test_the_backend_keyword_still_works_with_a_future_warning(heart):
    with pytest.warns(FutureWarning, match=r"joblib.parallel_config\(backend='threading'\)"):
        threads = _fit(heart, seed=11, n_iter=300, n_chains=2, n_jobs=2, backend="threading")
    _assert_same_result(_fit(heart, seed=11, n_iter=300, n_chains=2), threads)


def _alarm(signum, frame):
    raise TimeoutError("the dask run took more than 120 s")


def test_dask_backend_matches_sequential(heart, dask_client):
    local = _fit(heart, seed=5, n_iter=400)
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(120)
    try:
        with joblib.parallel_config(backend="dask"):
            dask = _fit(heart, seed=5, n_iter=400, n_jobs=2)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    _assert_same_result(local, dask)


# -- checkpoints, resume and interruption -------------------------------------------------------
def test_checkpoint_resume_matches_uninterrupted(heart, tmp_path):
    path = tmp_path / "run.ckpt"
    full = _fit(heart, seed=7, n_iter=900)
    first = _fit(heart, seed=7, n_iter=400, checkpoint=Checkpoint(str(path), every=150))
    _, records, _ = _checkpoint.read_checkpoint(path)
    assert [c["iteration"] for c in records[-1]["chains"]] == [400, 400]
    assert [[c["iteration"] for c in r["chains"]] for r in records] == [[150, 150], [300, 300], [400, 400]]
    resumed = _fit(heart, seed=7, n_iter=900, checkpoint=Checkpoint(str(path), every=150, resume=True))
    _assert_same_result(full, resumed)
    assert first.trace_.shape == (2, 401)
    np.testing.assert_array_equal(first.trace_, full.trace_[:, :401])
    assert [p.name for p in tmp_path.iterdir()] == ["run.ckpt"]  # no temporary files left behind


def test_checkpoint_resume_matches_uninterrupted_on_wide_graph_keys(tmp_path):
    """70 variables: 2,415 pairs, so graph keys are stored by their edges (GraphStore), in a run and its file."""
    from pgmpy_sgm.core.bitsets import WIDE_MASK_BITS

    rng = np.random.default_rng(0)
    columns = [rng.integers(0, 2, 400)]
    for _ in range(69):  # a chain of noisy copies
        columns.append(columns[-1] ^ (rng.random(400) < 0.2))
    data = pd.DataFrame({f"x{i:02d}": c for i, c in enumerate(columns)})
    assert 70 * 69 // 2 > WIDE_MASK_BITS
    path = tmp_path / "wide.ckpt"
    settings = {"weights": None, "seed": 3, "n_chains": 2, "n_jobs": 1}
    full = _fit(data, n_iter=300, **settings)
    _fit(data, n_iter=150, checkpoint=Checkpoint(str(path), every=50), **settings)
    resumed = _fit(data, n_iter=300, checkpoint=Checkpoint(str(path), every=50, resume=True), **settings)
    _assert_same_result(full, resumed)
    assert full.n_visited_ > 20 and len(full.posterior_["edges"].iloc[0]) > 20


def test_checkpoint_records_hold_only_what_is_new(heart, tmp_path):
    path = tmp_path / "run.ckpt"
    _fit(heart, seed=7, n_iter=600, checkpoint=Checkpoint(str(path), every=100), method="paper")
    _, records, _ = _checkpoint.read_checkpoint(path)
    assert [len(base64.b64decode(r["traces"][0])) // 8 for r in records] == [101, 100, 100, 100, 100, 100]
    keys = [k for r in records for k in r["visited"]]
    assert len(keys) == len(set(keys))  # every visited graph is written once


def test_resume_rejects_other_run(heart, tmp_path):
    path = str(tmp_path / "run.ckpt")
    _fit(heart, seed=7, n_iter=50, checkpoint=path)
    with pytest.raises(ValueError, match=r"already exists: pass Checkpoint\(path, resume=True\)"):
        _fit(heart, seed=7, n_iter=50, checkpoint=path)
    with pytest.raises(ValueError, match="another run: n_chains differs"):
        _fit(heart, seed=7, n_iter=100, checkpoint=Checkpoint(path, resume=True), n_chains=3)
    with pytest.raises(ValueError, match="another run: method differs"):
        _fit(heart, seed=7, n_iter=100, checkpoint=Checkpoint(path, resume=True), method="paper")
    with pytest.raises(ValueError, match="another run: the data .* differs"):
        _fit(heart.assign(count=heart["count"] + 1), seed=7, n_iter=100, checkpoint=Checkpoint(path, resume=True))
    with pytest.raises(ValueError, match="another seed"):
        _fit(heart, seed=8, n_iter=100, checkpoint=Checkpoint(path, resume=True))
    with pytest.raises(ValueError, match="more than n_iter"):
        _fit(heart, seed=7, n_iter=10, checkpoint=Checkpoint(path, resume=True))


def test_checkpoint_header_is_created_atomically(tmp_path, monkeypatch):
    path = tmp_path / "state.ckpt"
    log = _checkpoint.CheckpointLog.create(path, {"run": 1})
    log.append({"chains": [1, 2, 3]})
    before = path.read_bytes()

    def failing_fsync(fd):
        raise OSError("disk full")

    monkeypatch.setattr(_checkpoint.os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="disk full"):
        _checkpoint.CheckpointLog.create(path, {"run": 2})
    assert path.read_bytes() == before
    assert _checkpoint.read_checkpoint(path)[1] == [{"chains": [1, 2, 3]}]
    assert [p.name for p in tmp_path.iterdir()] == ["state.ckpt"]


def test_incomplete_last_line_is_dropped(tmp_path):
    path = tmp_path / "state.ckpt"
    log = _checkpoint.CheckpointLog.create(path, {"run": 1})
    log.append({"n": 1})
    with open(path, "ab") as handle:  # a writer killed mid-append
        handle.write(b'{"n": 2, "dig')
    header, records, log = _checkpoint.read_checkpoint(path)
    assert records == [{"n": 1}]
    log.append({"n": 3})
    assert _checkpoint.read_checkpoint(path)[1] == [{"n": 1}, {"n": 3}]


def test_keyboard_interrupt_keeps_results_and_resumes_exactly(heart, tmp_path, monkeypatch):
    path = str(tmp_path / "run.json")
    full = _fit(heart, seed=9, n_iter=600)
    original = DecomposableState.propose
    calls = {"n": 0}

    def interrupting(self, i, j):
        calls["n"] += 1
        if calls["n"] == 500:
            raise KeyboardInterrupt
        return original(self, i, j)

    monkeypatch.setattr(DecomposableState, "propose", interrupting)
    with pytest.warns(FitInterruptedWarning, match="interrupted"):
        partial = _fit(heart, seed=9, n_iter=600, checkpoint=path)
    monkeypatch.setattr(DecomposableState, "propose", original)
    assert 0 < partial.n_iter_ < 600
    assert partial.trace_.shape[1] == partial.n_iter_ + 1
    assert partial.best_score_ <= full.best_score_
    assert partial.n_visited_ >= len(partial.posterior_) > 0
    resumed = _fit(heart, seed=9, n_iter=600, checkpoint=Checkpoint(path, resume=True))
    _assert_same_result(full, resumed)


def test_progress_bar_runs(heart, capsys):
    est = NonReversibleMCMC(n_iter=300, seed=0, weights="count", show_progress=True).fit(heart)
    assert est.n_iter_ == 300
    with joblib.parallel_config(backend="threading"):
        est = NonReversibleMCMC(n_iter=300, seed=0, weights="count", n_jobs=2).fit(heart)
    assert est.n_iter_ == 300


# -- validation ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"n_iter": 0}, ValueError, "n_iter.*Got: 0"),
        ({"n_iter": 2.5}, ValueError, "n_iter.*Got: 2.5"),
        ({"n_chains": 0}, ValueError, "n_chains.*Got: 0"),
        ({"seed": -1}, ValueError, "seed.*Got: -1"),
        ({"seed": "a"}, ValueError, "seed.*Got: 'a'"),
        ({"start": "full"}, ValueError, "start.*Got: 'full'"),
        ({"start": [("smoking", "nope")]}, ValueError, "Got: \\['nope'\\]"),
        ({"start": nx.cycle_graph(["smoking", "mental_work", "physical_work", "systolic_bp"])}, ValueError, "chordal"),
        ({"start": nx.DiGraph([("smoking", "mental_work")])}, TypeError, "undirected.*Got: DiGraph"),
        ({"prior": "flat"}, ValueError, "prior.*Got: 'flat'"),
        ({"strata": "yes"}, TypeError, "strata.*Got: 'yes'"),
        ({"max_labelled_clique": 1}, ValueError, "max_labelled_clique.*Got: 1"),
        ({"checkpoint": 5}, TypeError, "^checkpoint must be a file path, a Checkpoint or None. Got: 5"),
        ({"n_jobs": 0}, ValueError, "n_jobs.*Got: 0"),
        ({"n_iter": "long"}, ValueError, "^n_iter must be 'auto', an integer >= 1 or None. Got: 'long'"),
        ({"weights": "weight"}, ValueError, "weight"),
    ],
)
def test_bad_hyper_parameters(heart, params, error, match):
    params = {"weights": "count", **params}
    with pytest.raises(error, match=match):
        NonReversibleMCMC(show_progress=False, **params).fit(heart)


def test_continuous_data_is_rejected():
    X = np.random.default_rng(0).normal(size=(50, 3))
    with pytest.raises(ValueError, match="continuous"):
        NonReversibleMCMC(n_iter=5, show_progress=False).fit(X)


def test_init_only_stores_parameters():
    est = NonReversibleMCMC(n_iter=-3, start="bogus")
    assert est.get_params()["n_iter"] == -3 and est.start == "bogus"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not [a for a in vars(est) if a.endswith("_")]


@parametrize_with_checks([NonReversibleMCMC(n_iter=100, seed=0, show_progress=False)])
def test_sklearn_compatibility(estimator, check):
    check(estimator)


def test_checkpoint_file_is_json(heart, tmp_path):
    path = tmp_path / "run.json"
    _fit(heart, seed=1, n_iter=20, checkpoint=os.fspath(path))
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]  # JSON lines
    header, records, _ = _checkpoint.read_checkpoint(path)
    assert header["format"] == lines[0]["body"]["format"] == _checkpoint.CHECKPOINT_FORMAT
    assert set(header["identity"]) >= {"fingerprint", "seed_entropy", "n_chains", "method", "strata", "start"}
    assert set(records[-1]) == {"chains", "traces", "visited", "seen_by"}


def _as_sets(value):
    if value is None:
        return None
    if isinstance(value, dict):  # strata: orientation-free
        return {frozenset(e): {frozenset(c.items()) for c in contexts} for e, contexts in value.items()}
    return frozenset(map(frozenset, value))


def test_permuted_columns_give_the_same_result_for_a_seed():
    data = simulate_paper_synthetic(400, seed=3)
    columns = list(data.columns)
    permuted = [columns[i] for i in (4, 0, 6, 2, 1, 5, 3)]
    a = NonReversibleMCMC(n_iter=400, seed=7, show_progress=False).fit(data)
    b = NonReversibleMCMC(n_iter=400, seed=7, show_progress=False).fit(data[permuted])
    np.testing.assert_array_equal(a.trace_, b.trace_)
    assert a.model_ == b.model_ and a.best_score_ == b.best_score_
    assert list(b.model_.nodes()) == b.variables_ == permuted  # shown in the data's column order
    for column in ("edges", "strata"):
        assert [_as_sets(x) for x in a.posterior_[column]] == [_as_sets(x) for x in b.posterior_[column]]
    rest = ["log_posterior", "probability", "n_edges", "n_labels"]
    pd.testing.assert_frame_equal(a.posterior_[rest], b.posterior_[rest])
    pd.testing.assert_frame_equal(a.edge_probabilities_.loc[permuted, permuted], b.edge_probabilities_)
    assert set(a.causal_graph_.undirected_edges) | {e[::-1] for e in a.causal_graph_.undirected_edges} == set(
        b.causal_graph_.undirected_edges
    ) | {e[::-1] for e in b.causal_graph_.undirected_edges}


def test_search_on_data_with_a_constant_column():
    rng = np.random.default_rng(3)
    n = 400
    a = rng.integers(0, 3, n)
    b = (a + rng.integers(0, 2, n)) % 3
    c = np.where(rng.random(n) < 0.8, b, rng.integers(0, 3, n))
    df = pd.DataFrame({"a": a, "b": b, "c": c, "const": np.zeros(n, dtype=int)})
    est = NonReversibleMCMC(n_iter=300, n_chains=1, seed=0, show_progress=False).fit(df)
    assert set(est.model_.nodes()) == {"a", "b", "c", "const"}
    assert np.isfinite(est.best_score_)
    assert est.model_.is_maximal_regular()


def test_recoded_data_get_their_own_states_in_one_process():
    """Fits of the same codes under other state names never share caches: each reports its own states.

    The paper's strata (lipoprotein_ratio = 1 for smoking - systolic_bp, smoking = 0 for
    systolic_bp - lipoprotein_ratio) under three codings, fitted one after the other.
    """
    heart = load_heart_disease()
    codings = {"yes/no": {0: "no", 1: "yes"}, "0/1": {0: 0, 1: 1}, "a/b": {0: "a", 1: "b"}}
    for name, code in codings.items():
        frame = heart.replace(code) if name != "0/1" else heart
        est = NonReversibleMCMC(n_iter=300, seed=0, show_progress=False).fit(frame)
        expected = {
            ("smoking", "systolic_bp"): [{"lipoprotein_ratio": code[1]}],
            ("systolic_bp", "lipoprotein_ratio"): [{"smoking": code[0]}],
        }
        assert est.model_.strata == expected, name
        assert est.posterior_["strata"].iloc[0] == expected, name
    array = heart.to_numpy()  # after fits of frames with the same codes
    est = NonReversibleMCMC(n_iter=300, seed=0, show_progress=False).fit(array)
    assert est.best_score_ == pytest.approx(-6715.90, abs=0.005)
    assert {s for states in est.model_.state_names.values() for s in states} == {0, 1}


def test_a_fit_leaves_nothing_that_changes_the_next():
    """The same fit before and after fits of other data gives identical results."""
    heart = load_heart_disease()
    first = NonReversibleMCMC(n_iter=400, seed=3, show_progress=False).fit(heart)
    other = heart.replace({0: "no", 1: "yes"})
    NonReversibleMCMC(n_iter=400, seed=3, show_progress=False).fit(other)
    again = NonReversibleMCMC(n_iter=400, seed=3, show_progress=False).fit(heart)
    pd.testing.assert_frame_equal(first.posterior_, again.posterior_)
    np.testing.assert_array_equal(first.trace_, again.trace_)


def test_reported_scores_use_the_default_labellings_not_the_search_ones():
    # MASS housing: the whole clique's centers have 18 and 24 parent configurations, where the
    # chains' fast labellings can fall below the default ones; every reported score is the default's.
    from pathlib import Path

    from pgmpy_sgm import SGMScore

    table = pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "mass_housing.csv", comment="#")
    est = NonReversibleMCMC(n_iter=200, seed=0, weights="Freq", show_progress=False).fit(table)
    assert est.scorer_.engine.label_method == "auto"
    fresh = SGMScore(table, weights="Freq")  # default labellings only
    for edges in est.posterior_["edges"].iloc[:5]:
        row = est.posterior_[est.posterior_["edges"] == edges]["log_posterior"].iloc[0]
        assert row == pytest.approx(fresh.score(fresh.optimal_strata(list(edges))), abs=1e-9)
    assert est.best_score_ == pytest.approx(fresh.score(est.model_), abs=1e-9)
    assert est.chain_best_scores_.max() <= est.best_score_ + 1e-9


def test_visited_graphs_are_rescored_with_the_default_labellings():
    # the complete graph on MASS housing: the fast labelling of its clique gains 40.079 (center Type),
    # the default one 40.544 (center Infl, the brute-force optimum of test_optimize)
    from pathlib import Path
    from types import SimpleNamespace

    from pgmpy_sgm.core.data import EncodedData
    from pgmpy_sgm.core.engine import ScoreEngine
    from pgmpy_sgm.core.graph_store import GraphStore
    from pgmpy_sgm.core.moves import key_from_edges

    table = pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "mass_housing.csv", comment="#")
    engine = ScoreEngine(EncodedData(table, weights="Freq"))
    key = key_from_edges(engine, engine.pairs)
    default = DecomposableState(engine, key, True).score
    engine.label_method = "fast"
    run = SimpleNamespace(visited=GraphStore({key: DecomposableState(engine, key, True).score}))
    assert run.visited[key] < default - 0.4
    rescore_visited(engine, run)
    assert engine.label_method == "auto" and run.visited[key] == pytest.approx(default, abs=1e-9)


def test_posterior_rows_are_the_visited_graphs_within_the_margin(heart, monkeypatch):
    """Rows more than POSTERIOR_MARGIN below the best are left out; nothing else changes."""
    from pgmpy_sgm.causal_discovery import _run_results

    kept = _fit(heart, seed=1, n_iter=300, n_chains=2, start="empty")
    monkeypatch.setattr(_run_results, "POSTERIOR_MARGIN", None)  # every visited graph
    every = _fit(heart, seed=1, n_iter=300, n_chains=2, start="empty")
    assert len(every.posterior_) == every.n_visited_ == kept.n_visited_
    within = every.posterior_[every.posterior_["log_posterior"] >= every.best_score_ - POSTERIOR_MARGIN]
    assert 0 < len(kept.posterior_) == len(within) < len(every.posterior_)  # the empty start lies far below
    pd.testing.assert_frame_equal(kept.posterior_, within.reset_index(drop=True))
    pd.testing.assert_frame_equal(kept.edge_probabilities_, every.edge_probabilities_)
