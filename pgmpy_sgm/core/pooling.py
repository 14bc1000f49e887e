"""Pooling data of any size into one table of distinct rows with counts.

Every score of this package depends on the data only through the counts of distinct rows.
:func:`pool_data` computes that table from a pandas DataFrame, from an iterable of pandas
chunks (e.g. ``pandas.read_csv(..., chunksize=...)``) or from a ``dask.dataframe.DataFrame``,
whose partitions are pooled where they live and combined by a tree reduction, so only the
pooled table reaches the calling process. The pooled rows keep the raw values and dtypes, and
:class:`~pgmpy_sgm.core.data.EncodedData` of the pooled table with its counts equals
``EncodedData`` of the whole data: same state names, codes and weights, so every score is
bit-identical.

Each chunk or partition is pooled with vectorised numpy: every column is factorized
(:func:`pandas.factorize`) and the code rows are pooled by
:func:`~pgmpy_sgm.core.data.pool_codes`, the routine ``EncodedData`` pools with. Partial tables
are merged by uniting each column's distinct values (``pandas.Index.append``, which resolves
dtypes as :func:`pandas.concat` does) and pooling again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from pgmpy_sgm.core.data import EncodedData, check_column_names, check_complete, pool_codes

__all__ = [
    "DASK_EXTRA",
    "DEFAULT_MAX_DISTINCT_ROWS",
    "DEFAULT_MAX_STATES",
    "PooledData",
    "import_dask",
    "is_dask_frame",
    "pool_data",
    "pooled_input",
]

#: Largest number of distinct rows pooled without an explicit ``max_distinct_rows``.
DEFAULT_MAX_DISTINCT_ROWS = 10_000_000

#: Largest number of distinct values of one column pooled without an explicit ``max_states``.
DEFAULT_MAX_STATES = 100_000

#: How to install the optional Dask dependency.
DASK_EXTRA = 'pip install "pgmpy-sgm[dask]"'

#: Rows of a pandas frame pooled at a time (bounds the transient memory of the codes).
_SLICE_ROWS = 1_000_000

#: Partial tables merged at once by the Dask tree reduction.
_FAN_IN = 8


def import_dask():
    """``dask.dataframe``, or an ImportError naming the optional extra.

    Examples
    --------
    >>> import_dask().__name__
    'dask.dataframe'
    """
    try:
        import dask.dataframe as dd
    except ImportError as err:
        raise ImportError(f"This needs the optional dependency dask[dataframe] ({err}): {DASK_EXTRA}") from None
    return dd


def is_dask_frame(data) -> bool:
    """Whether ``data`` is a ``dask.dataframe.DataFrame`` (without importing dask).

    Examples
    --------
    >>> import pandas as pd
    >>> is_dask_frame(pd.DataFrame({"a": [0]}))
    False
    """
    return type(data).__module__.split(".")[0] == "dask" and hasattr(data, "to_delayed") and hasattr(data, "columns")


@dataclass
class _Limits:
    max_distinct_rows: int
    max_states: int
    keep_missing: bool = False  # pool missing cells (NaN) as values instead of dropping their rows


@dataclass
class PooledData:
    """Distinct rows with counts, and what pooling saw of the rows it could not pool.

    Attributes
    ----------
    columns : list of str
        The variables (the weights column excluded).
    uniques : list of pandas.Index
        Distinct values of each column, in order of first appearance (the order of the
        rows is not that of the state names: ``EncodedData`` sorts the states itself).
    codes : numpy.ndarray, shape (n_distinct, n_columns)
        Row ``i`` holds ``uniques[j][codes[i, j]]`` in column ``j``.
    counts : numpy.ndarray of float64, shape (n_distinct,)
    n_rows : int
        Rows read (a table of counts counts its rows, not its observations).
    missing, infinite : numpy.ndarray of int64, shape (n_columns,)
        Rows with a missing (NaN) or infinite value in each column; such rows are not pooled
        (rows with missing values are, as values of their own, when ``keep_missing``).
    weighted : bool
        Whether the input had a weights column.
    keep_missing : bool
        Missing cells were pooled as values (for ``missing=`` other than ``"error"``).
    n_incomplete : int
        Rows with a missing or infinite value in any column (infinite only, with ``keep_missing``).

    Examples
    --------
    >>> import pandas as pd
    >>> pooled = pool_data(pd.DataFrame({"a": [1, 0, 1]}), finish=False)
    >>> pooled.n_rows, pooled.counts.tolist()
    (3, [2.0, 1.0])
    """

    columns: list
    uniques: list
    codes: np.ndarray
    counts: np.ndarray
    n_rows: int
    missing: np.ndarray
    infinite: np.ndarray
    weighted: bool
    keep_missing: bool = False
    n_incomplete: int = 0
    cards: list = field(init=False)

    def __post_init__(self):
        self.cards = [len(u) for u in self.uniques]

    @property
    def n_distinct(self) -> int:
        """Number of distinct rows.

        Examples
        --------
        >>> import pandas as pd
        >>> pool_data(pd.DataFrame({"a": [1, 1]}), finish=False).n_distinct
        1
        """
        return int(self.codes.shape[0])

    def to_frame(self) -> pd.DataFrame:
        """The distinct rows with their raw values (and dtypes), one column per variable.

        Examples
        --------
        >>> import pandas as pd
        >>> pool_data(pd.DataFrame({"a": ["y", "x", "y"]}), finish=False).to_frame()["a"].tolist()
        ['y', 'x']
        """
        columns = {}
        for j, name in enumerate(self.columns):
            columns[name] = pd.Series(self.uniques[j].take(self.codes[:, j].astype(np.intp)), copy=False).reset_index(
                drop=True
            )
        return pd.DataFrame(columns, columns=self.columns)

    def check(self) -> pd.DataFrame:
        """Raise the errors :class:`~pgmpy_sgm.core.data.EncodedData` raises on the whole data.

        Missing and infinite values (counting rows), continuous-looking float columns, and,
        for rows without weights, a column with a different value in every row (a row
        identifier). Returns :meth:`to_frame`.

        Examples
        --------
        >>> import pandas as pd
        >>> pool_data(pd.DataFrame({"a": [0.0, None]}), finish=False).check()
        Traceback (most recent call last):
            ...
        ValueError: Column 'a' has 1 missing value(s) (NaN); 1 of 2 rows is incomplete. Drop or impute them \
first (e.g. DataFrame.dropna()); stratified graphical models need complete discrete data.
        """
        frame = self.to_frame()
        n_observations = float(self.counts.sum())
        missing = [0 if self.keep_missing else int(n) for n in self.missing.tolist()]
        check_complete(dict(zip(self.columns, missing, strict=True)),
                       dict(zip(self.columns, self.infinite.tolist(), strict=True)), self.n_incomplete, self.n_rows)
        if self.n_rows == 0:
            raise ValueError("The data have no rows.")
        for j, name in enumerate(self.columns):  # in the order EncodedData checks each column
            EncodedData.check_discrete(frame[name].dropna(), name, n_observations)
            EncodedData.check_row_id(self.cards[j], self.n_rows, name, not self.weighted)
        return frame


def _empty_partial(columns: list, dtypes, weighted: bool) -> PooledData:
    n = len(columns)
    uniques = [pd.Index([], dtype=dtypes[c]) for c in columns]
    return PooledData(
        columns,
        uniques,
        np.zeros((0, n), np.uint8),
        np.zeros(0),
        0,
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        weighted,
    )


def _code_dtype(cards: list) -> type:
    top = max(cards, default=0)
    return np.uint8 if top <= 256 else np.uint16 if top <= 65536 else np.uint32


def _check_limits(part: PooledData, limits: _Limits) -> None:
    """Refuse, naming the columns with the most states, tables too large to pool in memory."""
    order = np.argsort([-c for c in part.cards], kind="stable")[:3]
    top = ", ".join(f"{part.columns[j]!r} ({part.cards[j]:,})" for j in order)
    worst = int(order[0]) if len(order) else 0
    if part.cards and part.cards[worst] > limits.max_states:
        raise ValueError(
            f"Column {part.columns[worst]!r} has more than max_states={limits.max_states:,} distinct values "
            f"(columns with the most states: {top}): discretize it (e.g. pandas.cut) or drop it"
        )
    if part.n_distinct > limits.max_distinct_rows:
        raise ValueError(
            f"The data have more than max_distinct_rows={limits.max_distinct_rows:,} distinct rows, too many to pool "
            f"in memory; the columns with the most states are {top}: discretize or drop some of them"
        )


def _pool_chunk(chunk: pd.DataFrame, weights: str | None, limits: _Limits, columns: list | None = None) -> PooledData:
    """Pool one pandas chunk (or Dask partition) into a partial table."""
    if not isinstance(chunk, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame (or chunks of them). Got: {type(chunk).__name__}")
    names = [c for c in chunk.columns if c != weights] if isinstance(weights, str) else list(chunk.columns)
    if columns is not None and names != columns:
        raise ValueError(f"A chunk has the columns {names}, not those of the first chunk {columns}")
    weighted = weights is not None
    if len(chunk) == 0:
        check_column_names(chunk.columns)
        if isinstance(weights, str) and weights not in chunk.columns:
            raise ValueError(f"weights column {weights!r} is not a column of the data: {list(chunk.columns)}")
        return _empty_partial(names, chunk.dtypes, weighted)
    frame, values = EncodedData.split_weights(chunk, weights)
    n = frame.shape[0]
    w = np.ones(n) if values is None else values
    matrix, uniques, missing, infinite, bad = _code_matrix(frame, names, limits.keep_missing)
    if bad.any():  # reported by PooledData.check; the other rows are pooled as usual
        matrix, w = _without_rows(matrix, uniques, bad), w[~bad]
    cards = [len(u) for u in uniques]
    pooled, counts, _ = pool_codes(matrix.astype(_code_dtype(cards)), cards, w)
    part = PooledData(names, uniques, pooled, counts, n, missing, infinite, weighted, limits.keep_missing,
                      int(bad.sum()))
    _check_limits(part, limits)
    return part


def _code_matrix(frame: pd.DataFrame, names: list, keep_missing: bool):
    """The codes of every column of ``frame`` (a matrix with contiguous columns), each column's distinct
    values, its numbers of missing and infinite cells, and which rows hold a missing or infinite value."""
    n = frame.shape[0]
    missing = np.zeros(len(names), np.int64)
    infinite = np.zeros(len(names), np.int64)
    bad = np.zeros(n, dtype=bool)
    codes, uniques = [], []
    for j, name in enumerate(names):
        col_codes, col_uniques, na, missing[j], infinite[j] = _factorized(frame[name], name, keep_missing)
        bad |= na
        codes.append(col_codes.astype(np.int32 if len(col_uniques) > 32_767 else np.int16, copy=False))
        uniques.append(pd.Index(col_uniques) if not isinstance(col_uniques, pd.Index) else col_uniques)
    matrix = np.empty((n, len(codes)), dtype=np.result_type(np.int16, *codes), order="F")  # columns contiguous
    for j, col_codes in enumerate(codes):
        matrix[:, j] = col_codes
    return matrix, uniques, missing, infinite, bad


def _factorized(column: pd.Series, name: str, keep_missing: bool):
    """``(codes, distinct values, missing or infinite rows, n_missing, n_infinite)`` of one column."""
    try:
        col_codes, col_uniques = pd.factorize(column, sort=False, use_na_sentinel=not keep_missing)
    except TypeError:
        raise TypeError(
            f"Column {name!r} holds unhashable values (e.g. lists or dicts); every argument must be a hashable "
            "state such as a string or a number."
        ) from None
    na = col_codes < 0
    n_missing = int(column.isna().sum()) if keep_missing else int(na.sum())
    n_infinite = 0
    if pd.api.types.is_float_dtype(column.dtype):
        inf = np.isinf(column.to_numpy(dtype=np.float64, na_value=np.nan))
        n_infinite = int(inf.sum())
        na = na | inf
    return col_codes, col_uniques, na, n_missing, n_infinite


def _without_rows(matrix: np.ndarray, uniques: list, bad: np.ndarray) -> np.ndarray:
    """``matrix`` without the ``bad`` rows, each column renumbered over the values left (``uniques`` updated)."""
    matrix = matrix[~bad]
    kept = [np.unique(matrix[:, j]) for j in range(matrix.shape[1])]
    for j, values_kept in enumerate(kept):
        remap = np.full(len(uniques[j]), -1, matrix.dtype)
        remap[values_kept] = np.arange(len(values_kept))
        matrix[:, j] = remap[matrix[:, j]]
        uniques[j] = uniques[j].take(values_kept)
    return matrix


def _combine(parts: list[PooledData], limits: _Limits) -> PooledData:
    """Merge partial tables: unite each column's distinct values, then pool the rows again."""
    everything = parts
    if len(parts) == 1:
        return parts[0]
    parts = [p for p in parts if p.n_distinct] or parts[:1]  # empty chunks do not decide the dtypes
    first = parts[0]
    uniques, remaps = [], []
    for j in range(len(first.columns)):
        united = first.uniques[j]
        for p in parts[1:]:
            united = united.append(p.uniques[j]).unique()
        uniques.append(united)
        remaps.append([united.get_indexer(p.uniques[j]) for p in parts])
    cards = [len(u) for u in uniques]
    dtype = _code_dtype(cards)
    matrix = np.empty((sum(p.n_distinct for p in parts), len(cards)), dtype=dtype, order="F")
    start = 0
    for k, p in enumerate(parts):
        for j in range(len(first.columns)):
            matrix[start : start + p.n_distinct, j] = remaps[j][k][p.codes[:, j].astype(np.intp)]
        start += p.n_distinct
    weights = np.concatenate([p.counts for p in parts])
    pooled, counts, _ = pool_codes(matrix, cards, weights)
    part = PooledData(
        list(first.columns),
        uniques,
        pooled,
        counts,
        sum(p.n_rows for p in everything),
        np.sum([p.missing for p in everything], axis=0),
        np.sum([p.infinite for p in everything], axis=0),
        any(p.weighted for p in everything),
        any(p.keep_missing for p in everything),
        sum(p.n_incomplete for p in everything),
    )
    _check_limits(part, limits)
    return part


def _pool_chunks(chunks: Iterable, weights, limits: _Limits) -> PooledData:
    """Pool chunks one by one, merging the partial tables whenever they outgrow the pooled table."""
    acc, pending, pending_rows, columns = None, [], 0, None
    for chunk in chunks:
        part = _pool_chunk(chunk, weights, limits, columns)
        columns = part.columns
        pending.append(part)
        pending_rows += part.n_distinct
        if acc is None or pending_rows >= max(acc.n_distinct, _SLICE_ROWS // 4):
            acc = _combine(([acc] if acc is not None else []) + pending, limits)
            pending, pending_rows = [], 0
    if acc is None and not pending:
        raise ValueError("The data have no rows (no chunks).")
    return _combine(([acc] if acc is not None else []) + pending, limits)


def _pool_dask(data, weights, limits: _Limits) -> PooledData:
    """Pool every partition where it lives, then merge the partial tables by a tree reduction."""
    import_dask()
    import dask

    if weights is not None and not isinstance(weights, str):
        raise TypeError(f"weights of a Dask DataFrame must name one of its columns. Got: {type(weights).__name__}")
    check_column_names(data.columns)
    if isinstance(weights, str) and weights not in data.columns:
        raise ValueError(f"weights column {weights!r} is not a column of the data: {list(data.columns)}")
    columns = [c for c in data.columns if c != weights]
    parts = [dask.delayed(_pool_chunk)(p, weights, limits, columns) for p in data.to_delayed()]
    if not parts:
        raise ValueError("The data have no rows (no partitions).")
    while len(parts) > 1:
        parts = [dask.delayed(_combine)(parts[i : i + _FAN_IN], limits) for i in range(0, len(parts), _FAN_IN)]
    (pooled,) = dask.compute(parts[0])
    return pooled


def pool_data(
    data,
    weights: str | None = None,
    *,
    max_distinct_rows: int = DEFAULT_MAX_DISTINCT_ROWS,
    max_states: int = DEFAULT_MAX_STATES,
    finish: bool = True,
    keep_missing: bool = False,
):
    """Pool data into one table of distinct rows with counts.

    Parameters
    ----------
    data : pandas.DataFrame, iterable of pandas.DataFrame or dask.dataframe.DataFrame
        Discrete data, one row per observation or a table of counts (see ``weights``). A
        Dask DataFrame is pooled partition by partition where it lives (under the active
        Dask scheduler, e.g. a ``distributed.Client``), and only the pooled table is
        brought back; chunks are pooled one after the other, so memory holds one chunk and
        the distinct rows.
    weights : str or array-like, optional
        The name of a column holding non-negative whole counts of the rows (it is then not a
        variable). A pandas DataFrame also accepts one count per row.
    max_distinct_rows : int, default=10_000_000
        Refuse, while pooling, data with more distinct rows than this.
    max_states : int, default=100_000
        Refuse, while pooling, a column with more distinct values than this.
    finish : bool, default=True
        Check the pooled data as :class:`~pgmpy_sgm.core.data.EncodedData` checks the whole
        data, and return the distinct rows and counts; with False, return the
        :class:`PooledData` unchecked.
    keep_missing : bool, default=False
        Pool rows with missing cells too (a missing cell is NaN in the pooled table), for the
        learners' ``missing=`` choices other than ``"error"``; otherwise they are an error.

    Returns
    -------
    frame : pandas.DataFrame
        The distinct rows (raw values and dtypes), without the weights column.
    counts : numpy.ndarray of float64
        Observations of each distinct row. ``EncodedData(frame, weights=counts)`` equals
        ``EncodedData(data, weights=weights)``.

    Raises
    ------
    ValueError, TypeError
        Naming the column at fault, as ``EncodedData`` does (missing values count the rows
        of all chunks), or naming the columns with the most states when a limit is exceeded.

    Examples
    --------
    >>> import pandas as pd
    >>> chunks = [pd.DataFrame({"a": [1, 0], "b": ["x", "y"]}), pd.DataFrame({"a": [1], "b": ["x"]})]
    >>> frame, counts = pool_data(chunks)
    >>> frame.to_dict("list"), counts.tolist()
    ({'a': [1, 0], 'b': ['x', 'y']}, [2.0, 1.0])
    """
    for name, value in (("max_distinct_rows", max_distinct_rows), ("max_states", max_states)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise ValueError(f"{name} must be a positive integer. Got: {value!r}")
    limits = _Limits(int(max_distinct_rows), int(max_states), bool(keep_missing))
    if is_dask_frame(data):
        pooled = _pool_dask(data, weights, limits)
    elif isinstance(data, pd.DataFrame):
        if weights is not None and not isinstance(weights, str):
            data, weights = _with_weights_column(data, weights)
        slices = (data.iloc[i : i + _SLICE_ROWS] for i in range(0, max(len(data), 1), _SLICE_ROWS))
        pooled = _pool_chunks(slices, weights, limits)
    elif isinstance(data, Iterable) and not isinstance(data, str | bytes | dict):
        if weights is not None and not isinstance(weights, str):
            raise TypeError(f"weights of chunked data must name a column of the chunks. Got: {type(weights).__name__}")
        pooled = _pool_chunks(data, weights, limits)
    else:
        raise TypeError(
            f"data must be a pandas DataFrame, an iterable of them or a Dask DataFrame. Got: {type(data).__name__}"
        )
    if not finish:
        return pooled
    return pooled.check(), pooled.counts


def _with_weights_column(data: pd.DataFrame, weights) -> tuple[pd.DataFrame, str]:
    """A copy of ``data`` with the per-row ``weights`` as a column of a fresh name."""
    _, values = EncodedData.split_weights(data, weights)
    name = "__weights__"
    while name in data.columns:
        name = f"_{name}_"
    return data.assign(**{name: values}), name


def pooled_input(data, weights=None, keep_missing: bool = False) -> tuple:
    """``(data, weights)`` as the estimators use them: a Dask DataFrame is pooled, anything else is kept.

    The pooled counts are returned as the weights, or, when ``weights`` names a column,
    put in that column of the pooled table, so the result is a pandas table of counts.

    Examples
    --------
    >>> import pandas as pd
    >>> frame, weights = pooled_input(pd.DataFrame({"a": [0, 1]}))
    >>> weights is None
    True
    """
    if not is_dask_frame(data):
        return data, weights
    frame, counts = pool_data(data, weights, keep_missing=keep_missing)
    if isinstance(weights, str):
        frame[weights] = counts
        return frame, weights
    return frame, counts
