"""Checks of a user's table before it is encoded: column names, weights, missing values, continuous columns."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd

__all__ = [
    "ExpectedCounts",
    "check_column_names",
    "check_complete",
    "check_discrete",
    "check_frame",
    "check_frame_complete",
    "check_one_type",
    "check_row_id",
    "known_gaps",
    "split_weights",
]

#: A float column with more distinct non-integer values than this is called continuous.
_MAX_FLOAT_STATES = 20

#: An unweighted frame with at least this many rows and a column holding a different value in
#: every row is refused: the column is a row identifier, not a variable.
_MIN_ROWS_FOR_ROW_ID = 20


class ExpectedCounts(np.ndarray):
    """Fractional counts (the expected counts of an E-step), accepted as weights where counts must be whole.

    Every score of the package is a function of counts through ``lgamma``, which is defined for
    any non-negative count, so expected counts are scored exactly; counts typed in by users
    are still required to be whole (fractional ones are usually a mistake).

    Examples
    --------
    >>> split_weights(pd.DataFrame({"a": [0, 1]}), ExpectedCounts([0.25, 1.5]))[1].tolist()
    [0.25, 1.5]
    """

    def __new__(cls, values):
        return np.asarray(values, dtype=np.float64).view(cls)


def split_weights(data, weights) -> tuple:
    """``(frame of the variables, counts or None)``: the weights checked and taken out of ``data``.

    ``weights`` is None, the name of a count column, or one count per row.

    Examples
    --------
    >>> frame, counts = split_weights(pd.DataFrame({"a": [0, 1], "n": [3, 4]}), "n")
    >>> list(frame.columns), counts.tolist()
    (['a'], [3.0, 4.0])
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
    check_column_names(data.columns)
    if isinstance(weights, str):
        if weights not in data.columns:
            raise ValueError(f"weights column {weights!r} is not a column of the data: {list(data.columns)}")
        values = data[weights].to_numpy()
        frame = data.drop(columns=[weights])
        label = f"weights column {weights!r}"
    elif weights is None:
        values, frame, label = None, data, ""
    else:
        if isinstance(weights, pd.Series):
            weights = _align_weights(weights, data)
        values = np.asarray(weights)
        frame = data
        label = "weights"
        if values.ndim != 1 or values.shape[0] != len(data):
            raise ValueError(f"weights must hold one count per row ({len(data)}); got shape {values.shape}")
    if frame.shape[1] == 0:
        raise ValueError("The data have no columns (variables).")
    if frame.shape[0] == 0:
        raise ValueError("The data have no rows.")
    if values is not None:
        try:
            numeric = values.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{label} must be numeric counts; got dtype {values.dtype}") from None
        if np.isnan(numeric).any():
            raise ValueError(f"{label} contain {int(np.isnan(numeric).sum())} NaN value(s)")
        if np.isinf(numeric).any():
            n_infinite = int(np.isinf(numeric).sum())
            raise ValueError(f"{label} must be finite counts; found {n_infinite} infinite value(s)")
        if (numeric < 0).any():
            raise ValueError(f"{label} must be non-negative; found {numeric[numeric < 0][:3].tolist()}")
        if np.any(numeric != np.round(numeric)) and not isinstance(weights, ExpectedCounts):
            bad = numeric[numeric != np.round(numeric)][:3].tolist()
            raise ValueError(f"{label} must be whole counts; found {bad}")
        values = numeric
    return frame, values


def _align_weights(weights: pd.Series, data: pd.DataFrame) -> pd.Series:
    """A Series of weights is matched to the rows by its index, like pandas arithmetic."""
    if weights.index.equals(data.index):
        return weights
    if not weights.index.is_unique or not data.index.is_unique:
        raise ValueError("weights is a Series whose index or the data's index has duplicate labels; "
                         "pass weights.to_numpy() to match the rows by position")
    missing = data.index.difference(weights.index)
    extra = weights.index.difference(data.index)
    if len(missing) or len(extra):
        culprit = (f"row label {missing[0]!r} of the data has no weight" if len(missing)
                   else f"weight label {extra[0]!r} is not a row of the data")
        raise ValueError(f"weights is a Series whose index does not match the data's index ({culprit}); "
                         "pass weights.to_numpy() to match the rows by position")
    return weights.reindex(data.index)


def check_frame_complete(frame: pd.DataFrame, columns: list | None = None) -> None:
    """Refuse missing (NaN) and infinite values, listing every column that has them.

    ``columns``: the frame's ``(name, column)`` pairs, when the caller has taken them out
    already (``list(frame.items())``).

    Examples
    --------
    >>> check_frame_complete(pd.DataFrame({"a": [0.5, float("inf")]}))
    Traceback (most recent call last):
        ...
    ValueError: Column 'a' has 1 infinite value(s); 1 of 2 rows is incomplete. States must be finite.
    """
    columns = list(frame.items()) if columns is None else columns
    if frame.columns.is_unique and all(_plainly_complete(column) for _, column in columns):
        return
    na = frame.isna()
    infinite = pd.DataFrame(
        {name: np.isinf(frame[name].to_numpy()) if pd.api.types.is_float_dtype(frame[name].dtype) else False
         for name in frame.columns},
        index=frame.index,
    )
    bad = na.to_numpy() | infinite.to_numpy(dtype=bool)
    check_complete(na.sum().to_dict(), infinite.sum().to_dict(), int(bad.any(axis=1).sum()), len(frame))


def known_gaps(column: pd.Series) -> np.ndarray | None:
    """The missing cells of a column whose type says where they are, without reading its values; else None.

    Integers and booleans have none; a categorical's are its codes -1 (a category is a state,
    even a blank string). Other types (floats, objects, strings) must be read, so None.

    Examples
    --------
    >>> known_gaps(pd.Series(pd.Categorical(["a", None, "a"]))).tolist(), known_gaps(pd.Series([0.5]))
    ([False, True, False], None)
    """
    if not isinstance(column, pd.Series):
        raise TypeError(f"known_gaps takes a pandas Series (one column). Got: {type(column).__name__}")
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.array.codes < 0
    if isinstance(column.dtype, np.dtype) and column.dtype.kind in "iub":
        return np.zeros(len(column), dtype=bool)
    return None


def _plainly_complete(column: pd.Series) -> bool:
    """Whether a column's type shows it has no missing or infinite value (integers, booleans, categories all set)."""
    gaps = known_gaps(column)
    return gaps is not None and not gaps.any()


def check_discrete(column: pd.Series, name: str, n_observations: float) -> None:
    """Refuse continuous measurements (float columns with mostly distinct non-integer values).

    Examples
    --------
    >>> check_discrete(pd.Series([0.5, 1.5, 1.5, 0.5]), "x", 4)  # two states: discrete
    >>> check_discrete(pd.Series([0.1, 0.2, 0.3, 0.4]), "x", 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: Column 'x' looks continuous (4 distinct float values in 4 observations, e.g. 0.1). ...
    """
    if pd.api.types.is_float_dtype(column.dtype):
        values = column.to_numpy()
        fractional = values != np.round(values)
        if np.any(fractional):
            n_distinct = column.nunique()
            if n_distinct > _MAX_FLOAT_STATES or (n_distinct > 2 and n_distinct > n_observations / 2):
                raise ValueError(
                    f"Column {name!r} looks continuous ({n_distinct} distinct float values in "
                    f"{n_observations:,.0f} observations, e.g. {float(values[fractional][0])!r}). "
                    "Discretize it first, e.g. with pandas.cut or pandas.qcut."
                )


def check_row_id(n_distinct: int, n_rows: int, name: str, unweighted: bool) -> None:
    """Refuse a column holding a different value in every row of an unweighted frame (of 20 rows or more).

    Examples
    --------
    >>> check_row_id(25, 25, "id", unweighted=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: Column 'id' has a different value in each of its 25 rows: a row identifier, not a variable; ...
    """
    if unweighted and n_rows >= _MIN_ROWS_FOR_ROW_ID and n_distinct == n_rows:
        raise ValueError(
            f"Column {name!r} has a different value in each of its {n_rows} rows: a row identifier, not a "
            "variable; drop it (or, if it holds counts of the rows, pass it as weights)"
        )


def check_one_type(uniques: list, name: str) -> None:
    """Refuse states that print alike but differ in type, such as 1 and '1'.

    Examples
    --------
    >>> check_one_type([1, "1"], "a")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: Column 'a' holds both 1 (int) and '1' (str), which would be two states; ...
    """
    seen: dict[str, object] = {}
    for value in uniques:
        text = str(value)
        if text in seen and type(seen[text]) is not type(value):
            first = seen[text]
            raise ValueError(
                f"Column {name!r} holds both {first!r} ({type(first).__name__}) and {value!r} "
                f"({type(value).__name__}), which would be two states; convert the column to one type, "
                f"e.g. df[{name!r}].astype(str)"
            )
        seen.setdefault(text, value)


def check_frame(data, weights=None) -> None:
    """Cheap checks of a data frame, with the messages of :class:`~pgmpy_sgm.core.data.EncodedData`.

    Checks the type, the column names (unique strings), the weights, that no column
    has missing or infinite values, and that none looks continuous, without
    encoding anything.

    Raises
    ------
    TypeError, ValueError
        Naming the column or weights at fault.

    Examples
    --------
    >>> import pandas as pd
    >>> check_frame(pd.DataFrame({"a": [0, None]}))
    Traceback (most recent call last):
        ...
    ValueError: Column 'a' has 1 missing value(s) (NaN); 1 of 2 rows is incomplete. Drop or impute them first \
(e.g. DataFrame.dropna()); stratified graphical models need complete discrete data.
    """
    frame, values = split_weights(data, weights)
    n_observations = len(frame) if values is None else float(values.sum())
    columns = list(frame.items())  # each column taken out of the frame once
    check_frame_complete(frame, columns)
    for name, column in columns:
        check_discrete(column, name, n_observations)


def _columns_with_counts(counts: dict, what: str) -> str:
    """``"Column 'b' has 2 missing value(s)"``, or ``"Columns 'b' (2), 'c' (1) have missing values"``."""
    named = [(name, int(n)) for name, n in counts.items() if n]
    if len(named) == 1:
        return f"Column {named[0][0]!r} has {named[0][1]} {what} value(s)"
    return "Columns " + ", ".join(f"{name!r} ({n})" for name, n in named) + f" have {what} values"


def check_complete(missing: dict, infinite: dict, n_incomplete: int, n_rows: int) -> None:
    """Refuse data with missing (NaN) or infinite values, naming every column that has them.

    Parameters
    ----------
    missing, infinite : dict
        ``{column: number of rows}`` with a missing or an infinite value in that column
        (columns with none may be listed with 0).
    n_incomplete : int
        Rows with a missing or an infinite value in any column.
    n_rows : int
        Rows of the data (of the table, when it holds counts).

    Raises
    ------
    ValueError
        One line listing each column with missing values and each with infinite values, with
        their numbers, and how many rows are incomplete.

    Examples
    --------
    >>> check_complete({"a": 0, "b": 2, "c": 1}, {}, 3, 10)
    Traceback (most recent call last):
        ...
    ValueError: Columns 'b' (2), 'c' (1) have missing values (NaN); 3 of 10 rows are incomplete. Drop or impute \
them first (e.g. DataFrame.dropna()); stratified graphical models need complete discrete data.
    """
    has_missing, has_infinite = any(missing.values()), any(infinite.values())
    if not has_missing and not has_infinite:
        return
    rows = f"{n_incomplete:,} of {n_rows:,} rows {'is' if n_incomplete == 1 else 'are'} incomplete"
    infinite_part = _columns_with_counts(infinite, "infinite") if has_infinite else ""
    if not has_missing:
        raise ValueError(f"{infinite_part}; {rows}. States must be finite.")
    both = f" and {infinite_part[0].lower()}{infinite_part[1:]}" if has_infinite else ""
    raise ValueError(
        f"{_columns_with_counts(missing, 'missing')} (NaN){both}; {rows}. Drop or impute them first "
        "(e.g. DataFrame.dropna()); stratified graphical models need complete discrete data."
    )


def check_column_names(columns) -> None:
    """Refuse column names that cannot be variables: repeated, not strings, or left unnamed by a CSV index.

    Warns when a name looks like pandas' renaming of a repeated CSV header (``a`` and ``a.1``).

    Raises
    ------
    TypeError, ValueError
        Naming the column at fault.

    Examples
    --------
    >>> check_column_names(["a", "b"])
    >>> check_column_names(["a", "a"])
    Traceback (most recent call last):
        ...
    ValueError: Column names must be unique; duplicated: ['a']
    """
    columns = columns.tolist() if isinstance(columns, pd.Index) else list(columns)  # plain names, read once
    seen: set = set()
    duplicated = []
    for name in columns:
        if name in seen and name not in duplicated:
            duplicated.append(name)
        seen.add(name)
    if duplicated:
        raise ValueError(f"Column names must be unique; duplicated: {duplicated}")
    bad_names = [c for c in columns if not isinstance(c, str)]
    if bad_names:
        raise TypeError(f"Column names must be strings (variable names); got {bad_names!r}")
    unnamed = [c for c in columns if re.fullmatch(r"Unnamed: \d+", c)]
    if unnamed:
        raise ValueError(
            f"Column {unnamed[0]!r} had no name in its CSV file (the index written by DataFrame.to_csv()?); "
            "read the file with index_col=0 or drop the column"
        )
    names = set(columns)
    mangled = [c for c in columns if re.fullmatch(r".+\.\d+", c) and c.rsplit(".", 1)[0] in names]
    if mangled:
        warnings.warn(
            f"Columns {mangled[0].rsplit('.', 1)[0]!r} and {mangled[0]!r}: pandas.read_csv names a repeated "
            "header this way; check that the file does not name a column twice",
            UserWarning,
            stacklevel=4,
        )
