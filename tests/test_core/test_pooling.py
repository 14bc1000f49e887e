"""Pooling pandas frames, chunks and Dask DataFrames into distinct rows with counts."""

import builtins
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.pooling import import_dask, is_dask_frame, pool_data, pooled_input

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def _frame(n=600, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    return pd.DataFrame(
        {
            "a": a,
            "b": np.where(rng.random(n) < 0.8, a % 2, rng.integers(0, 2, n)).astype(np.int64),
            "c": rng.choice(["lo", "mid", "hi"], n),
            "d": pd.Categorical(rng.choice(["p", "q"], n), categories=["q", "p", "r"]),
            "e": rng.integers(0, 2, n).astype(float),
        }
    )


def _same_encoding(a: EncodedData, b: EncodedData) -> None:
    assert a.variables == b.variables
    assert a.state_names == b.state_names
    assert {v: [type(s) for s in st] for v, st in a.state_names.items()} == {
        v: [type(s) for s in st] for v, st in b.state_names.items()
    }
    np.testing.assert_array_equal(a.codes, b.codes)
    np.testing.assert_array_equal(a.weights, b.weights)


def test_counts_equal_a_brute_force_tally():
    df = _frame(300)
    frame, counts = pool_data([df.iloc[:100], df.iloc[100:250], df.iloc[250:]])
    tally = Counter(map(tuple, df.astype(object).to_numpy().tolist()))
    got = {tuple(r): c for r, c in zip(frame.astype(object).to_numpy().tolist(), counts.tolist(), strict=True)}
    assert got == {k: float(v) for k, v in tally.items()}


@pytest.mark.parametrize("sizes", [[600], [1, 599], [250, 0, 250, 100], [7] * 85 + [5]])
def test_chunks_encode_exactly_as_the_whole_frame(sizes):
    df = _frame()
    bounds = np.cumsum([0, *sizes])
    chunks = [df.iloc[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]
    frame, counts = pool_data(chunks)
    _same_encoding(EncodedData(df), EncodedData(frame, weights=counts))
    assert frame.dtypes.to_dict() == df.dtypes.to_dict()


def test_weights_column_and_array_weights_pool_like_encoded_data():
    df = _frame(200).assign(n=np.arange(200) % 4)  # some zero counts: their states stay states
    frame, counts = pool_data([df.iloc[:50], df.iloc[50:]], weights="n")
    assert "n" not in frame.columns
    _same_encoding(EncodedData(df, weights="n"), EncodedData(frame, weights=counts))
    frame2, counts2 = pool_data(df.drop(columns="n"), weights=df["n"].to_numpy())
    _same_encoding(EncodedData(df, weights="n"), EncodedData(frame2, weights=counts2))


def test_chunks_of_int_and_float_unite_as_concat_does():
    chunks = [pd.DataFrame({"a": [0, 1, 1]}), pd.DataFrame({"a": [2.0, 1.0]})]
    frame, counts = pool_data(chunks)
    _same_encoding(EncodedData(pd.concat(chunks, ignore_index=True)), EncodedData(frame, weights=counts))
    assert frame["a"].dtype == np.float64


def test_missing_values_are_counted_over_all_chunks():
    chunks = [pd.DataFrame({"a": [0, 1], "b": [0.0, np.nan]}), pd.DataFrame({"a": [1, 0], "b": [np.nan, 1.0]})]
    with pytest.raises(ValueError, match=r"^Column 'b' has 2 missing value\(s\) \(NaN\)"):
        pool_data(chunks)
    with pytest.raises(ValueError, match=r"^Column 'b' has 1 infinite value"):
        pool_data([pd.DataFrame({"b": [0.0, 1.0]}), pd.DataFrame({"b": [np.inf, 1.0]})])


def test_bad_input_gets_the_messages_of_encoded_data():
    ids = pd.DataFrame({"id": np.arange(30), "a": np.arange(30) % 2})
    with pytest.raises(ValueError, match=r"^Column 'id' has a different value in each of its 30 rows"):
        pool_data([ids.iloc[:10], ids.iloc[10:]])
    cont = pd.DataFrame({"x": np.linspace(0, 1, 40) + 0.001})
    with pytest.raises(ValueError, match=r"^Column 'x' looks continuous"):
        pool_data([cont.iloc[:20], cont.iloc[20:]])
    with pytest.raises(ValueError, match=r"must be non-negative"):
        pool_data([pd.DataFrame({"a": [0], "n": [1]}), pd.DataFrame({"a": [1], "n": [-1]})], weights="n")
    with pytest.raises(ValueError, match=r"weights column 'w' is not a column"):
        pool_data([pd.DataFrame({"a": [0]})], weights="w")
    with pytest.raises(ValueError, match=r"not those of the first chunk"):
        pool_data([pd.DataFrame({"a": [0]}), pd.DataFrame({"b": [0]})])
    with pytest.raises(TypeError, match=r"Column 'a' holds unhashable values"):
        pool_data([pd.DataFrame({"a": [[0], [1]]})])
    with pytest.raises(TypeError, match=r"data must be a pandas DataFrame"):
        pool_data("file.csv")
    with pytest.raises(ValueError, match=r"no rows"):
        pool_data([])


def test_too_many_distinct_rows_names_the_columns_with_most_states():
    rng = np.random.default_rng(1)
    df = pd.DataFrame(
        {"few": rng.integers(0, 2, 400), "many": rng.integers(0, 300, 400), "some": rng.integers(0, 9, 400)}
    )
    chunks = (df.iloc[i : i + 50] for i in range(0, 400, 50))
    with pytest.raises(
        ValueError, match=r"more than max_distinct_rows=100 distinct rows.*'many' \(\d+\), 'some' \(9\)"
    ):
        pool_data(chunks, max_distinct_rows=100)
    with pytest.raises(ValueError, match=r"^Column 'many' has more than max_states=50 distinct values"):
        pool_data(df, max_states=50)
    with pytest.raises(ValueError, match=r"max_states must be a positive integer"):
        pool_data(df, max_states=0)


def test_a_missing_dask_names_the_extra(monkeypatch):
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("dask"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(ImportError, match=r'pip install "pgmpy-sgm\[dask\]"'):
        import_dask()


@pytest.mark.parametrize("scheduler", ["synchronous", "threads"])
def test_dask_partitions_pool_exactly_as_the_whole_frame(scheduler):
    df = _frame()
    ddf = dd.from_pandas(df, npartitions=13)  # more partitions than the fan-in: two levels of the tree
    assert is_dask_frame(ddf) and not is_dask_frame(df)
    with dask.config.set(scheduler=scheduler):
        frame, counts = pool_data(ddf)
    _same_encoding(EncodedData(ddf.compute()), EncodedData(frame, weights=counts))
    _same_encoding(EncodedData(df), EncodedData(frame, weights=counts))


def test_dask_errors_name_the_column():
    df = pd.DataFrame({"a": [0, 1, 0, 1], "b": [0.0, np.nan, 1.0, np.nan]})
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(ValueError, match=r"^Column 'b' has 2 missing value\(s\)"):
            pool_data(dd.from_pandas(df, npartitions=2))
        with pytest.raises(TypeError, match=r"must name one of its columns"):
            pool_data(dd.from_pandas(df, npartitions=2), weights=np.ones(4))


def test_pooled_input_keeps_the_weights_column_name(client):
    df = _frame(100).assign(n=np.arange(100) % 3 + 1)
    frame, weights = pooled_input(dd.from_pandas(df, npartitions=3), "n")
    assert weights == "n"
    _same_encoding(EncodedData(df, weights="n"), EncodedData(frame, weights="n"))


def test_estimators_on_a_local_cluster_equal_the_in_memory_path(client):
    from pgmpy_sgm import SGMScore, StratifiedGraphicalModel
    from pgmpy_sgm.causal_discovery import LDAGSearch, NonReversibleMCMC
    from pgmpy_sgm.structure_score import LDAGScore

    df = _frame(400).drop(columns=["d", "e"])
    ddf = dd.from_pandas(df, npartitions=4)
    mem = NonReversibleMCMC(n_iter=150, seed=0, show_progress=False).fit(df)
    dsk = NonReversibleMCMC(n_iter=150, seed=0, show_progress=False).fit(ddf)
    assert dsk.best_score_ == mem.best_score_
    assert sorted(dsk.model_.edges()) == sorted(mem.model_.edges()) and dsk.model_.strata == mem.model_.strata
    assert SGMScore(ddf).score(mem.model_) == SGMScore(df).score(mem.model_)
    fitted_mem = StratifiedGraphicalModel(mem.model_).fit(df)
    fitted_dsk = StratifiedGraphicalModel(mem.model_).fit(ddf)
    for a, b in zip(fitted_mem.get_factors(), fitted_dsk.get_factors(), strict=True):
        np.testing.assert_array_equal(a.values, b.values)
    assert LDAGScore(ddf).local_score("b", ("a",)) == LDAGScore(df).local_score("b", ("a",))
    lmem = LDAGSearch(n_restarts=1, seed=0, show_progress=False).fit(df)
    ldsk = LDAGSearch(n_restarts=1, seed=0, show_progress=False).fit(ddf)
    assert ldsk.best_score_ == lmem.best_score_ and sorted(ldsk.model_.edges()) == sorted(lmem.model_.edges())


def test_ldag_search_from_counts_equals_rows():
    from pgmpy_sgm.causal_discovery import LDAGSearch

    df = _frame(300).drop(columns=["d", "e"])
    frame, counts = pool_data(df)
    rows = LDAGSearch(n_restarts=1, seed=0, show_progress=False).fit(df)
    pooled = LDAGSearch(n_restarts=1, seed=0, show_progress=False, weights="n").fit(frame.assign(n=counts))
    assert pooled.best_score_ == rows.best_score_
    assert sorted(pooled.model_.edges()) == sorted(rows.model_.edges())
    for node in rows.model_.nodes():
        np.testing.assert_array_equal(
            pooled.model_.get_cpds(node).get_values(), rows.model_.get_cpds(node).get_values()
        )
