"""Reading a data file (CSV or Parquet) as a table of counts, pooled as it is read.

:func:`read_data_file` reads a file in chunks and pools them into distinct rows with counts
(:func:`~pgmpy_sgm.core.pooling.pool_data`), so that memory holds one chunk and the distinct
rows; it refuses, with one line naming the file, column and row, what pandas would accept
silently. The command line (``pgmpy-sgm learn/score/convert``) reads its data with it.
"""

from __future__ import annotations

import csv
import math
import os
import warnings
from collections.abc import Mapping
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from pgmpy_sgm.core.pooling import import_dask, pool_data

__all__ = ["read_data_file", "DataFileError", "CountsLikeColumnWarning", "PYTHON_OPTION_NAMES"]

#: Column names that suggest counts of the rows (a warning names such a column read as a variable).
COUNT_NAMES = {"count", "counts", "n", "freq", "frequency", "frequencies", "weight", "weights", "wt", "number"}
#: Separators suggested when a file is read as a single column.
OTHER_SEPARATORS = (";", "\t", "|")
PARQUET_SUFFIXES = (".parquet", ".pq")
#: Rows read at a time; memory holds one chunk and the distinct rows.
CHUNK_ROWS = 500_000
#: Seconds before the progress bar over the file shows (none for small files).
PROGRESS_DELAY = 1.0

#: How messages name the options of :func:`read_data_file` (``{}``: the value to pass).
PYTHON_OPTION_NAMES = {
    "sep": "sep={!r}",
    "sep_name": "sep",
    "keep_na_strings": "keep_na_strings=True",
    "counts_column": "counts_column={!r}",
    "missing": "keep_missing=True (then a learner's missing='complete_cases', 'em' or 'state')",
    "dask": "dask",
}


class DataFileError(ValueError):
    """A data file that cannot be read as a table of discrete data (the message names the file and the culprit).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "empty.csv"
    >>> _ = path.write_text("")
    >>> try:
    ...     read_data_file(path)
    ... except DataFileError as err:
    ...     print(type(err).__name__, isinstance(err, ValueError))
    DataFileError True
    """


class CountsLikeColumnWarning(UserWarning):
    """A column looks like counts of the rows but is read as a variable (no ``counts_column`` was given).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", CountsLikeColumnWarning)  # make it an error
    ...     issubclass(CountsLikeColumnWarning, UserWarning)
    True
    """


def _say(names: Mapping, option: str, value=None) -> str:
    return names[option].format(value)


def read_data_file(
    path: str | Path,
    counts_column: str | None = None,
    *,
    sep: str = ",",
    keep_na_strings: bool = False,
    show_progress: bool = False,
    dask: str | None = None,
    keep_missing: bool = False,
    option_names: Mapping[str, str] | None = None,
) -> tuple[pd.DataFrame, object, str]:
    """Read a CSV or Parquet file as a table of distinct rows with counts.

    The file is read in chunks (CSV) or record batches (Parquet, by its ``.parquet``/``.pq``
    suffix; needs ``pyarrow``) and pooled as it is read, so memory holds one chunk and the
    distinct rows (:func:`~pgmpy_sgm.core.pooling.pool_data`); with ``dask`` (``"local"`` or
    the address of a distributed scheduler) Dask reads and pools the partitions.

    Parameters
    ----------
    path : str or pathlib.Path
        The file.
    counts_column : str, optional
        A column holding the number of times each row was observed.
    sep : str, default=","
        The CSV separator (one character; ``"\\t"`` typed literally means a tab).
    keep_na_strings : bool, default=False
        Read words such as ``NA`` as states, not as missing values (empty cells stay missing).
    show_progress : bool, default=False
        A progress bar over the file (shown after a second).
    dask : str, optional
        ``"local"`` or a scheduler address: Dask reads and pools the file.
    keep_missing : bool, default=False
        Pool missing cells as NaN (for the learners' ``missing=``) instead of refusing them.
    option_names : mapping, optional
        How error messages name these options (default :data:`PYTHON_OPTION_NAMES`; the
        command line passes its flags).

    Returns
    -------
    frame : pandas.DataFrame
        The distinct rows (with the counts in ``counts_column`` when one is given).
    weights : numpy.ndarray or str
        The counts, or the name of the counts column.
    description : str
        The file, its number of observations and of variables.

    Raises
    ------
    DataFileError
        A ValueError naming the file and the column or row for what pandas would accept
        silently: a header naming a column twice or leaving one unnamed (the index written by
        ``DataFrame.to_csv()``), a file read as one column because of another separator,
        counts that are not finite numbers, missing cells (unless ``keep_missing``).

    Warns
    -----
    CountsLikeColumnWarning
        When a column looks like counts but ``counts_column`` is not given.

    Examples
    --------
    >>> import os, tempfile
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> path = os.path.join(tempfile.mkdtemp(), "heart.csv")
    >>> load_heart_disease(as_counts=True).to_csv(path, index=False)
    >>> frame, weights, description = read_data_file(path, counts_column="count")
    >>> frame.shape, weights, int(frame["count"].sum()), description.endswith("(1,841 observations, 6 variables)")
    ((64, 7), 'count', 1841, True)
    >>> load_heart_disease(as_counts=True).to_csv(path, sep=";", index=False)
    >>> read_data_file(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    pgmpy_sgm.readwrite.data_file.DataFileError: ...heart.csv was read as the single column ...; ... pass sep=';'
    """
    names = {**PYTHON_OPTION_NAMES, **(option_names or {})}
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a file path (str or pathlib.Path). Got: {type(path).__name__} {path!r}")
    file = Path(path)
    path = str(path)
    if not file.is_file():
        raise DataFileError(f"data file not found: {path}")
    sep = "\t" if sep == "\\t" else sep  # a tab typed literally
    parquet = file.suffix.lower() in PARQUET_SUFFIXES
    header = _parquet_columns(file, path) if parquet else _read_header(file, path, sep, names)
    na = {"keep_default_na": False, "na_values": [""]} if keep_na_strings else {}
    pooled = _pooled(file, path, sep, na, parquet, header, counts_column, show_progress, dask, keep_missing, names)
    if pooled.missing.any() and not keep_missing:
        raise DataFileError(_missing_message(file, path, sep, na, pooled, parquet, names) +
                            f". Or pass {_say(names, 'missing')}.")  # fmt: skip
    frame = pooled.check()
    n = float(pooled.counts.sum())
    description = f"{path} ({n:,.0f} observations, {frame.shape[1]} variables)"
    if counts_column is not None:  # errors about the counts then name the column
        frame[counts_column] = pooled.counts
        return frame, counts_column, description
    _warn_counts_like(frame, path, names)
    # the counts apart from the (narrow) columns: estimators then convert an integer frame, not a float one
    return frame, pooled.counts, description


def _pooled(file, path, sep, na, parquet, header, counts_column, show_progress, dask, keep_missing, names):
    """The file's chunks, checked and pooled (by Dask when ``dask`` is given)."""
    if dask is not None:
        chunks = _dask_frame(file, path, sep, na, parquet, names)
        empty = pd.DataFrame({c: pd.Series(dtype=t) for c, t in chunks.dtypes.items()})  # columns, nothing read
        next(_checked_chunks([empty], header, path, sep, counts_column, names))
    else:
        chunks = _parquet_chunks(file, path, show_progress) if parquet else _csv_chunks(
            file, path, sep, na, show_progress)  # fmt: skip
        chunks = _checked_chunks(chunks, header, path, sep, counts_column, names)
    try:
        if dask is None or dask == "local":
            return pool_data(chunks, counts_column, finish=False, keep_missing=keep_missing)
        with _dask_client(dask, names):
            return pool_data(chunks, counts_column, finish=False, keep_missing=keep_missing)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise DataFileError(f"cannot read {path} as CSV: {first}") from None


def _csv_chunks(file: Path, path: str, sep: str, na: dict, show_progress: bool):
    """Chunks of a CSV file, with a progress bar over its bytes."""
    with open(file, "rb") as handle, tqdm(total=file.stat().st_size, unit="B", unit_scale=True, desc="Reading",
                                          disable=not show_progress, leave=False, delay=PROGRESS_DELAY) as bar:
        try:
            reader = pd.read_csv(handle, sep=sep, chunksize=CHUNK_ROWS, encoding="utf-8-sig", **na)
            for chunk in reader:
                bar.update(handle.tell() - bar.n)
                yield chunk
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, ValueError) as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise DataFileError(f"cannot read {path} as CSV: {first}") from None


def _dask_frame(file: Path, path: str, sep: str, na: dict, parquet: bool, names: dict):
    """The file as a Dask DataFrame (CSV blocks of 64 MB, or a partition per Parquet row group)."""
    try:
        dd = import_dask()
    except ImportError as err:
        raise DataFileError(f"{_say(names, 'dask')}: {err}") from None
    if parquet:
        return dd.read_parquet(str(file), split_row_groups=True)
    try:
        return dd.read_csv(str(file), sep=sep, blocksize="64MB", encoding="utf-8-sig", **na)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, ValueError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise DataFileError(f"cannot read {path} as CSV: {first}") from None


def _dask_client(address: str, names: dict):
    try:
        from distributed import Client
    except ImportError as err:
        raise DataFileError(f"{_say(names, 'dask')} {address}: needs dask's distributed scheduler ({err}): "
                               'pip install "pgmpy-sgm[dask]"') from None
    return Client(address, timeout="30s")


def _parquet_file(file: Path, path: str):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DataFileError(f"reading the Parquet file {path} needs pyarrow: pip install pyarrow") from None
    try:
        return pq.ParquetFile(file)
    except Exception as err:  # pyarrow raises its own ArrowInvalid / OSError for a file that is not Parquet
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise DataFileError(f"cannot read {path} as Parquet: {first}") from None


def _parquet_columns(file: Path, path: str) -> list[str]:
    return list(_parquet_file(file, path).schema_arrow.names)


def _parquet_chunks(file: Path, path: str, show_progress: bool):
    """Record batches of a Parquet file as pandas chunks, with a progress bar over its rows."""
    parquet = _parquet_file(file, path)
    with tqdm(total=parquet.metadata.num_rows, unit=" rows", unit_scale=True, desc="Reading",
              disable=not show_progress, leave=False, delay=PROGRESS_DELAY) as bar:
        for batch in parquet.iter_batches(batch_size=CHUNK_ROWS):
            chunk = batch.to_pandas()
            bar.update(len(chunk))
            yield chunk


def _checked_chunks(chunks, header: list[str], path: str, sep: str, counts_column: str | None, names: dict):
    """The checks of the columns and counts, chunk by chunk (row numbers count from the file's start)."""
    offset = 0
    for i, chunk in enumerate(chunks):
        if i == 0:
            _check_columns(chunk, header, path, sep, names)
            if counts_column is not None and counts_column not in chunk.columns:
                raise DataFileError(
                    f"counts column {counts_column!r} is not in {path}; columns: {list(chunk.columns)}"
                )
        if counts_column is not None:
            _check_counts(chunk, counts_column, path, offset)
        offset += len(chunk)
        yield chunk


def _read_header(file: Path, path: str, sep: str, names: dict) -> list[str]:
    if len(sep) != 1:
        raise DataFileError(f"{_say(names, 'sep_name')} must be one character, got {sep!r}")
    try:
        with open(file, encoding="utf-8-sig", newline="") as handle:
            header = next(csv.reader(handle, delimiter=sep), None)
    except UnicodeDecodeError as err:
        raise DataFileError(f"cannot read {path} as CSV: it is not UTF-8 text (byte {err.start})") from None
    except csv.Error as err:
        raise DataFileError(f"cannot read {path} as CSV: {err}") from None
    if not header:
        raise DataFileError(f"cannot read {path} as CSV: the file is empty")
    seen = set()
    for i, name in enumerate(header):
        if not name.strip():
            hint = ("the index written by DataFrame.to_csv()? write the file with index=False, or name or drop it"
                    if i == 0 else "a separator too many at the end of the header? name or drop the column")
            raise DataFileError(f"column {i + 1} of {path} has no name ({hint})")
        if name in seen:
            raise DataFileError(f"column {name!r} appears twice in the header of {path}; rename one of them")
        seen.add(name)
    return header


def _check_columns(frame: pd.DataFrame, header: list[str], path: str, sep: str, names: dict) -> None:
    if frame.shape[1] == 1:
        for other in OTHER_SEPARATORS:
            if other != sep and other in header[0]:
                raise DataFileError(f"{path} was read as the single column {header[0]!r}; if its fields are "
                                       f"separated by {other!r}, pass {_say(names, 'sep', other)}")
    unnamed = [c for c in frame.columns if str(c).startswith("Unnamed: ")]
    if unnamed:
        raise DataFileError(f"column {unnamed[0]!r} of {path} has no name (the index written by "
                               "DataFrame.to_csv()? write the file with index=False, or drop the column)")


def _missing_message(file: Path, path: str, sep: str, na: dict, pooled, parquet: bool, names: dict) -> str:
    """Every column with missing values and their numbers, the incomplete rows, and what to do."""
    gaps = {name: int(n) for name, n in zip(pooled.columns, pooled.missing.tolist(), strict=True) if n}
    words, n_empty = ([], 0) if parquet else _words_read_as_missing(file, sep, na, list(gaps))
    if not words:
        cells = "empty cell(s) (missing values)"
    elif n_empty:
        cells = f"missing values (empty cells, and cells such as {words[0]!r} that pandas reads as missing)"
    else:
        cells = f"cell(s) such as {words[0]!r} that pandas reads as missing values"
    if len(gaps) == 1:
        ((name, n),) = gaps.items()
        where = f"column {name!r} of {path} has {n} {cells}"
    else:
        where = f"columns {', '.join(f'{name!r} ({n})' for name, n in gaps.items())} of {path} have {cells}"
    infinite = {name: int(n) for name, n in zip(pooled.columns, pooled.infinite.tolist(), strict=True) if n}
    if infinite:
        where += f", and {', '.join(f'{name!r} ({n})' for name, n in infinite.items())} infinite values"
    rows = f"{pooled.n_incomplete:,} of {pooled.n_rows:,} data rows {'is' if pooled.n_incomplete == 1 else 'are'} " \
           "incomplete"
    advice = (f"if {words[0]!r} is a state, pass {_say(names, 'keep_na_strings')}" if words
              else "drop or impute them first")
    return f"{where}; {rows}; {advice}"


def _words_read_as_missing(file: Path, sep: str, na: dict, columns: list) -> tuple[list[str], int]:
    """The words (such as 'NA') in ``columns`` that pandas reads as missing values, and the number of empty cells."""
    raw = pd.read_csv(file, sep=sep, dtype=str, keep_default_na=False, usecols=columns, encoding="utf-8-sig")
    read = pd.read_csv(file, sep=sep, dtype=str, usecols=columns, encoding="utf-8-sig", **na)
    cells = [str(c).strip() for c in raw.to_numpy()[read.isna().to_numpy()]]
    return [w for w in dict.fromkeys(cells) if w], cells.count("")


def _check_counts(frame: pd.DataFrame, column: str, path: str, offset: int = 0) -> float:
    values = pd.to_numeric(frame[column], errors="coerce")
    bad = values.isna() | ~values.apply(lambda x: math.isfinite(x) if pd.notna(x) else False)
    if bad.any():
        row = int(bad.to_numpy().nonzero()[0][0])
        raise DataFileError(f"counts column {column!r} of {path} holds {str(frame[column].iloc[row])!r} in data row "
                               f"{offset + row + 1}; counts must be finite whole numbers")
    return float(values.sum())


def _warn_counts_like(frame: pd.DataFrame, path: str, names: dict) -> None:
    for name in frame.columns:
        column = frame[name]
        if pd.api.types.is_float_dtype(column.dtype) and column.notna().all() and (column % 1 == 0).all():
            column = column.astype("int64")  # whole numbers written as floats (1.0, 2.0, ...)
        if not pd.api.types.is_integer_dtype(column.dtype) or column.min() < 0:
            continue
        named = str(name).strip().lower() in COUNT_NAMES
        wide = column.nunique() >= 10 and column.max() >= 100 * max(column.min(), 1)
        if named or wide:
            warnings.warn(f"column {name!r} of {path} looks like counts of the rows (integers {column.min()}.."
                          f"{column.max()}) but is read as a variable; if it holds counts, pass "
                          f"{_say(names, 'counts_column', name)}", CountsLikeColumnWarning, stacklevel=3)
