"""Encoding of discrete data into compact integer codes, and cached counts.

:class:`EncodedData` is the only place where a user's table is read. It accepts a
pandas DataFrame of discrete columns (integers, strings, booleans, categoricals),
either one row per observation or a table of counts with a weight column, checks
it, maps every column to codes ``0 .. k-1`` (``state_names`` order), collapses
duplicate rows into weights, and then answers ``counts(variables)`` for any set of
variables with a mixed-radix index and :func:`numpy.bincount`, caching results.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from pgmpy_sgm.core._count_kernels import count_cells, count_extensions, family_bdeu, family_log_ml
from pgmpy_sgm.core.data_checks import (
    ExpectedCounts,
    check_column_names,
    check_complete,
    check_discrete,
    check_frame,
    check_frame_complete,
    check_one_type,
    check_row_id,
    split_weights,
)

__all__ = [
    "EncodedData",
    "ExpectedCounts",
    "check_column_names",
    "check_complete",
    "check_frame",
    "encode_frame",
    "fit_states",
    "pool_codes",
    "python_scalar",
    "sorted_states",
    "DEFAULT_MAX_CELLS",
]

#: Largest contingency table (number of cells) built without an explicit ``max_cells``.
DEFAULT_MAX_CELLS = 50_000_000

#: Largest total count: float64 holds every integer up to ``2**53`` exactly.
MAX_TOTAL_COUNT = 2**53

#: Relative precision guaranteed for every score term (see :meth:`EncodedData._check_precision`).
SCORE_RTOL = 1e-9

#: Up to this many observations :data:`SCORE_RTOL` holds for any data (the per-variable check is skipped).
_PRECISION_SAFE_N = 2**21


def sorted_states(values: Iterable) -> list:
    """Values sorted as state names: naturally, or by type name and text when they do not compare.

    Examples
    --------
    >>> sorted_states([2, 1]), sorted_states(["b", 1, "a"])
    ([1, 2], [1, 'a', 'b'])
    """
    values = list(values)
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=lambda v: (type(v).__name__, str(v)))


def fit_states(data: pd.DataFrame, nodes: Iterable, declared: Mapping) -> dict:
    """The states a model's fit reads its nodes in: the declared ones, else ``[0, 1]`` for a column of
    the integers 0/1 only (a binary default that the data need not fill); other nodes are left out
    (their sorted observed values are used).

    Examples
    --------
    >>> frame = pd.DataFrame({"a": [1, 1], "b": ["x", "y"], "c": [0, 2]})
    >>> fit_states(frame, ["a", "b", "c"], {"b": ["y", "x"]})
    {'a': [0, 1], 'b': ['y', 'x']}
    """
    names = {}
    for v in nodes:
        if v in declared:
            names[v] = list(declared[v])
        elif all(isinstance(x, int | np.integer) and not isinstance(x, bool | np.bool_) and x in (0, 1)
                 for x in pd.unique(data[v].to_numpy())):  # fmt: skip
            names[v] = [0, 1]
    return names


def python_scalar(value):
    """numpy scalars -> plain Python values, so state names are JSON friendly.

    Examples
    --------
    >>> type(python_scalar(np.int64(3))).__name__, python_scalar("x")
    ('int', 'x')
    """
    return value.item() if isinstance(value, np.generic) else value


#: Widest range of integer states that :func:`_integer_codes` maps through a lookup table.
_LOOKUP_RANGE = 2**16


def _integer_codes(column: pd.Series, states: list) -> np.ndarray | None:
    """Codes of an integer column whose values are all among the integer ``states`` (their positions), by a
    lookup table; None when the column or the states are not such (then pandas encodes it).

    Examples
    --------
    >>> _integer_codes(pd.Series([3, 1, 3]), [3, 1]).tolist()
    [0, 1, 0]
    """
    if not (isinstance(column.dtype, np.dtype) and column.dtype.kind in "iu") or not states:
        return None
    if not all(type(s) is int for s in states):
        return None
    low, high = min(states), max(states)
    if high - low >= _LOOKUP_RANGE or low < -(2**62) or high > 2**62:
        return None
    lookup = np.full(high - low + 1, -1, dtype=np.int64)
    lookup[np.asarray(states, dtype=np.int64) - low] = np.arange(len(states))
    codes = lookup[column.to_numpy().astype(np.int64) - low]  # every value is a state (checked before)
    return codes


def _code_dtype(n_states: int) -> type:
    """The narrowest unsigned integer type holding the codes ``0 .. n_states - 1``."""
    return np.uint8 if n_states <= 256 else np.uint16 if n_states <= 65536 else np.uint32


def _narrowest(codes: np.ndarray, n_states: int) -> np.ndarray:
    """``codes`` (non-negative) in :func:`_code_dtype` of ``n_states``."""
    return np.asarray(codes).astype(_code_dtype(n_states), copy=False)


class EncodedData:
    """Discrete data encoded once, with fast cached contingency counts.

    Parameters
    ----------
    data : pandas.DataFrame
        One column per variable (names must be unique strings), discrete values.
    weights : str or array-like, optional
        Either the name of a column of ``data`` holding non-negative integer counts
        (the column is then not a variable), or one count per row (a pandas Series
        is matched to the rows by its index). Rows with equal values are pooled
        either way, so rows and counts give identical results. Counts may total at
        most ``2**53``; beyond ``2**21`` observations, a variable nearly constant
        enough that float64 cannot give its scores to ``1e-9`` relative is refused.
    state_names : dict, optional
        ``{variable: [state, ...]}`` fixing the states (and their order) of some
        variables, as in pgmpy. States absent from the data are allowed; data
        values absent from ``state_names`` are an error. Unlisted variables get
        their observed values, sorted (categoricals keep their category order).
    max_cells : int, optional
        Refuse to build a contingency table with more cells than this.
    cache_cells : int, default=20_000_000
        Keep computed tables (least recently used first out) up to this many cells in all.

    Attributes
    ----------
    variables : list of str
    state_names : dict of str to list
    cardinality : dict of str to int
    codes : numpy.ndarray, shape (n_distinct_rows, n_variables)
    weights : numpy.ndarray, shape (n_distinct_rows,)
    n : float
        Total number of observations (sum of the weights).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"a": ["x", "y", "y"], "b": [0, 1, 1]})
    >>> enc = EncodedData(df)
    >>> enc.state_names
    {'a': ['x', 'y'], 'b': [0, 1]}
    >>> enc.counts(("a", "b")).tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """

    def __init__(
        self, data, weights=None, state_names=None, max_cells: int | None = None, cache_cells: int = 20_000_000
    ):
        for name, value in (("max_cells", max_cells), ("cache_cells", cache_cells)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1):
                raise ValueError(f"{name} must be a positive integer or None. Got: {value!r}")
        self.cache_cells = int(cache_cells)
        self.max_cells = DEFAULT_MAX_CELLS if max_cells is None else int(max_cells)
        frame, weight_values = self.split_weights(data, weights)
        self.variables = list(frame.columns)
        self.state_names = {}
        state_names = {} if state_names is None else state_names
        if not isinstance(state_names, dict):
            raise TypeError(f"state_names must be a dict {{variable: [states]}}. Got: {type(state_names).__name__}")
        unknown = [v for v in state_names if v not in self.variables]
        if unknown:
            raise ValueError(f"state_names names variables that are not columns of the data: {unknown}")
        n_observations = len(frame) if weight_values is None else float(weight_values.sum())
        check_frame_complete(frame)
        columns = [  # each column's codes in the narrowest type at once: int64 codes of wide data would be 8x
            _narrowest(self._encode_column(frame[name], name, state_names.get(name), n_observations,
                                           weight_values is None), len(self.state_names[name]))  # fmt: skip
            for name in self.variables
        ]
        self.cardinality = {v: len(self.state_names[v]) for v in self.variables}
        dtype = _code_dtype(max(self.cardinality.values()))
        codes = np.empty((len(frame), len(columns)), dtype=dtype)
        for j in range(len(columns)):  # one matrix filled column by column, each column freed once copied
            codes[:, j] = columns[j]
            columns[j] = None
        self.codes, self.weights = self._pool_rows(codes, weight_values)
        self.n = float(self.weights.sum())
        if not math.isfinite(self.n):
            raise ValueError(f"The weights sum to {self.n}; counts must have a finite total.")
        if self.n <= 0:
            raise ValueError("The data hold no observations: every weight is zero.")
        self._check_precision(self._weights_label(weights))
        self._index = {v: i for i, v in enumerate(self.variables)}
        self._codes_t = np.ascontiguousarray(self.codes.T)  # one contiguous row of codes per variable
        self._cards = [self.cardinality[v] for v in self.variables]
        self._cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._cached_cells = 0

    def __getstate__(self) -> dict:
        # pickle the pooled codes and weights, not the derived copies or the cached tables
        state = self.__dict__.copy()
        for name in ("_codes_t", "_cache", "_cached_cells"):
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._codes_t = np.ascontiguousarray(self.codes.T)
        self._cache = OrderedDict()
        self._cached_cells = 0

    # -- construction helpers -------------------------------------------------
    # the checks of the table, also callable as ``EncodedData.split_weights`` and so on
    split_weights = staticmethod(split_weights)
    check_discrete = staticmethod(check_discrete)
    check_row_id = staticmethod(check_row_id)

    @staticmethod
    def _weights_label(weights) -> str:
        return f"weights column {weights!r}" if isinstance(weights, str) else "weights" if weights is not None else ""

    def _check_precision(self, label: str) -> None:
        """Refuse counts whose scores float64 cannot give to :data:`SCORE_RTOL` relative.

        Every score term has the form ``lgamma(K) - lgamma(n + K) + sum_i lgamma(n_i + 1)``
        (or the same with other integer pseudo-counts): terms of size about ``n log n`` that
        cancel down to the result. Measured against a 60-digit reference, the error is at most
        ``2 eps n log(n + K)`` (``eps = 2**-52``), so the relative error of a term is at most that
        over its size. A term over a set of variables is at least as large as the term of any
        one of them, so checking the variables one by one covers every clique and separator.
        With at most ``2**21`` observations every term is exact to ``SCORE_RTOL``; beyond that a
        variable whose observations are nearly all in one state (small term, huge ``n``) is refused.
        """
        source = f" ({label})" if label else ""
        if self.n > MAX_TOTAL_COUNT:
            raise ValueError(f"The counts{source} sum to {self.n:.4g}, more than 2**53 = {MAX_TOTAL_COUNT:,}, "
                             "beyond which float64 does not hold every count exactly")
        if self.n <= _PRECISION_SAFE_N:
            return
        eps = np.finfo(np.float64).eps
        for j, name in enumerate(self.variables):
            k = self.cardinality[name]
            if k < 2:
                continue  # a one-state variable's terms cancel exactly
            state_counts = np.bincount(self.codes[:, j].astype(np.int64), weights=self.weights, minlength=k)
            size = abs(
                math.lgamma(k) - math.lgamma(self.n + k) + sum(math.lgamma(c + 1.0) for c in state_counts.tolist())
            )
            error = 2 * eps * self.n * math.log(self.n + k) / max(size, 1e-300)
            if error > SCORE_RTOL:
                top = int(np.argmax(state_counts))
                raise ValueError(
                    f"Column {name!r} is nearly constant: {state_counts[top]:,.0f} of its {self.n:,.0f} observations"
                    f"{source} are {self.state_names[name][top]!r}, so its scores would be exact only to "
                    f"{error:.1e} relative in float64 (bound {SCORE_RTOL:g}); drop the column or use fewer observations"
                )


    def _encode_column(
        self, column: pd.Series, name: str, given_states, n_observations: float = math.inf, unweighted: bool = False
    ) -> np.ndarray:
        self.check_discrete(column, name, n_observations)
        is_categorical = isinstance(column.dtype, pd.CategoricalDtype)
        if is_categorical:
            fast = self._encode_categorical(column.array, name, given_states, unweighted)
            if fast is not None:
                return fast
        try:
            uniques = column.unique() if is_categorical else pd.unique(column.to_numpy())
            uniques = [python_scalar(u) for u in uniques]
            if not all(isinstance(u, Hashable) for u in uniques):
                raise TypeError
        except TypeError:
            raise TypeError(
                f"Column {name!r} holds unhashable values (e.g. lists or dicts); every argument must be a hashable "
                "state such as a string or a number."
            ) from None
        if column.dtype == object:
            check_one_type(uniques, name)
        self.check_row_id(len(uniques), len(column), name, unweighted)
        if given_states is not None:
            if isinstance(given_states, str | bytes) or not isinstance(given_states, Sequence | np.ndarray):
                raise TypeError(f"state_names[{name!r}] must be a list of states. Got: {given_states!r}")
            states = [python_scalar(s) for s in given_states]
            if len(set(states)) != len(states):
                raise ValueError(f"state_names[{name!r}] lists a state twice: {states}")
            missing = [u for u in uniques if u not in set(states)]
            if missing:
                raise ValueError(f"Column {name!r} has values {missing[:5]} that are not in state_names[{name!r}]")
        elif is_categorical:
            states = [python_scalar(c) for c in column.cat.categories]
        else:
            states = sorted_states(uniques)
        if len(states) > 2**32 - 1:
            raise ValueError(f"Column {name!r} has {len(states)} states; at most 2**32 - 1 are supported.")
        self.state_names[name] = states
        if is_categorical and [python_scalar(c) for c in column.cat.categories] == states:
            codes = column.cat.codes.to_numpy()
            if (codes >= 0).all():  # the codes are the positions among the states already
                return codes
        codes = None if is_categorical else _integer_codes(column, states)
        if codes is not None:
            return codes
        values = column.astype(object) if is_categorical else column
        categories = pd.Index(states, dtype=object, tupleize_cols=False)  # tuple states stay states
        codes = pd.Categorical(values, categories=categories).codes  # the narrowest signed integers
        if (codes < 0).any():  # values equal to a state under == but not under hashing (rare mixed types)
            lookup = {s: i for i, s in enumerate(states)}
            codes = np.array([lookup[python_scalar(x)] for x in values.to_numpy(dtype=object)], dtype=np.int64)
        return codes

    def _encode_categorical(self, values: pd.Categorical, name: str, given_states, unweighted: bool):
        """Codes of a complete categorical column from its own codes, its categories remapped to the states.

        The states are ``given_states`` when given, else the categories in their order. None
        when ``given_states`` is not a list of distinct states holding every value present: the
        general path then gives its error.
        """
        categories = [python_scalar(c) for c in values.categories.tolist()]  # distinct and hashable (pandas)
        codes = values.codes
        present = np.flatnonzero(np.bincount(codes, minlength=len(categories)))  # complete: every code >= 0
        self.check_row_id(len(present), len(codes), name, unweighted)
        if given_states is None:
            self.state_names[name] = categories
            return codes
        if isinstance(given_states, str | bytes) or not isinstance(given_states, Sequence | np.ndarray):
            return None  # the general path names the error
        states = [python_scalar(s) for s in given_states]
        position = {s: i for i, s in enumerate(states)}
        if len(position) != len(states) or any(categories[i] not in position for i in present):
            return None
        self.state_names[name] = states
        if categories == states:
            return codes
        remap = np.array([position.get(c, -1) for c in categories], dtype=np.int64)
        return remap[codes]

    def _pool_rows(self, codes: np.ndarray, weights: np.ndarray | None):
        w = np.ones(codes.shape[0]) if weights is None else weights
        keep = w > 0
        cards = [len(self.state_names[v]) for v in self.variables]
        if keep.all():  # no copy of the codes when every row counts
            pooled_codes, pooled_weights, _ = pool_codes(codes, cards, w)
        else:
            pooled_codes, pooled_weights, _ = pool_codes(codes[keep], cards, w[keep])
        return pooled_codes, pooled_weights

    # -- queries ---------------------------------------------------------------
    def cards(self, variables: Sequence[str]) -> tuple[int, ...]:
        """Cardinalities of ``variables``, in order.

        Examples
        --------
        >>> import pandas as pd
        >>> EncodedData(pd.DataFrame({"a": [0, 1, 2], "b": [0, 0, 1]})).cards(["b", "a"])
        (2, 3)
        """
        self._check_variables(variables)
        return tuple(self.cardinality[v] for v in variables)

    def _check_variables(self, variables: Sequence[str]) -> None:
        unknown = [v for v in variables if v not in self.cardinality]
        if unknown:
            raise ValueError(f"Unknown variable(s) {unknown}; the data have {self.variables}")
        if len(set(variables)) != len(variables):
            raise ValueError(f"A variable is repeated in {list(variables)}")

    def _resolve(self, key: tuple) -> tuple[np.ndarray, np.ndarray, int]:
        """Column indices and cardinalities of ``key``, refusing tables above ``max_cells``."""
        try:
            cols = [self._index[v] for v in key]
        except (KeyError, TypeError):
            self._check_variables(key)
            raise
        if len(set(cols)) != len(cols):
            self._check_variables(key)
        cards = [self._cards[c] for c in cols]
        n_cells = math.prod(cards)
        if n_cells > self.max_cells:
            raise ValueError(
                f"The contingency table of {list(key)} would have {n_cells:,} cells, more than "
                f"max_cells={self.max_cells:,}; refusing to allocate it."
            )
        return np.asarray(cols, dtype=np.int64), np.asarray(cards, dtype=np.int64), n_cells

    def counts(self, variables: Sequence[str]) -> np.ndarray:
        """Contingency table of ``variables`` (axis ``i`` = ``variables[i]``), cached.

        Parameters
        ----------
        variables : sequence of str
            Any distinct variables of the data; the empty sequence gives ``n``.

        Returns
        -------
        numpy.ndarray of float64, shape ``self.cards(variables)`` (read-only)

        Raises
        ------
        ValueError
            If a variable is unknown or the table would exceed ``max_cells``.

        Examples
        --------
        >>> import pandas as pd
        >>> enc = EncodedData(pd.DataFrame({"a": [0, 1, 1], "n": [5, 2, 3]}), weights="n")
        >>> enc.counts(["a"]).tolist()
        [5.0, 5.0]
        """
        key = tuple(variables)
        table = self._cache.get(key)
        if table is not None:
            self._cache.move_to_end(key)
            return table
        cols, cards, n_cells = self._resolve(key)
        if not key:
            table = np.array(self.n)
        else:
            table = count_cells(self._codes_t, self.weights, cols, cards, n_cells).reshape(tuple(cards))
        table.setflags(write=False)
        self._cache[key] = table
        self._cached_cells += table.size
        while self._cached_cells > self.cache_cells and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cached_cells -= old.size
        return table

    def extension_counts(self, variable: str, blanket: Sequence[str], candidates: Sequence[str]) -> np.ndarray:
        """The tables of ``(*blanket, w, variable)`` for every ``w`` of ``candidates``, in one pass over the rows.

        Each table is counted as :meth:`counts` counts it (the same sums), with ``variable``
        last; they are laid end to end, one row per configuration of ``(*blanket, w)``.

        Returns
        -------
        numpy.ndarray of float64, shape ``(sum_w |blanket| |w|, |variable|)``

        Examples
        --------
        >>> import pandas as pd
        >>> enc = EncodedData(pd.DataFrame({"a": [0, 1, 1], "b": [0, 0, 1], "c": [1, 0, 1]}))
        >>> tables = np.vstack([enc.counts(["b", "a"]), enc.counts(["c", "a"])])
        >>> np.array_equal(enc.extension_counts("a", [], ["b", "c"]), tables)
        True
        """
        if not self._extensions_allowed(variable, blanket, candidates):
            for w in candidates:  # the first table refused raises, naming what is wrong
                self._resolve((*blanket, w, variable))
        cards = self.cardinality
        r = cards[variable]
        n_base = math.prod(cards[w] for w in blanket)
        configs = [n_base * cards[w] for w in candidates]
        offsets = np.concatenate([[0], np.cumsum(configs[:-1], dtype=np.int64) * r]).astype(np.int64)
        index = self._index
        columns = np.array([index[w] for w in blanket], dtype=np.int64)
        table_cards = np.array([cards[w] for w in (*blanket, variable)], dtype=np.int64)
        extra = np.array([index[w] for w in candidates], dtype=np.int64)
        extra_cards = np.array([cards[w] for w in candidates], dtype=np.int64)
        counts = count_extensions(self._codes_t, self.weights, columns, table_cards, index[variable], extra,
                                  extra_cards, offsets, sum(configs) * r)  # fmt: skip
        return counts.reshape(-1, r)

    def _extensions_allowed(self, variable: str, blanket: Sequence[str], candidates: Sequence[str]) -> bool:
        """Whether :meth:`_resolve` accepts every ``(*blanket, w, variable)`` of ``candidates``, checked at once."""
        index = self._index
        try:
            base = [index[v] for v in (*blanket, variable)]
            extra = [index[w] for w in candidates]
        except (KeyError, TypeError):
            return False
        if len(set(base)) != len(base) or not set(base).isdisjoint(extra):
            return False
        widest = max((self._cards[c] for c in extra), default=1)
        return math.prod(self._cards[c] for c in base) * widest <= self.max_cells

    def to_frame(self) -> tuple[pd.DataFrame, np.ndarray]:
        """The pooled data as distinct rows (original state names) and their counts.

        Examples
        --------
        >>> import pandas as pd
        >>> frame, counts = EncodedData(pd.DataFrame({"a": ["x", "y", "y"]})).to_frame()
        >>> frame["a"].tolist(), counts.tolist()
        (['x', 'y'], [1.0, 2.0])
        """
        columns = {}
        for j, name in enumerate(self.variables):
            states = np.empty(len(self.state_names[name]), dtype=object)
            states[:] = self.state_names[name]
            columns[name] = states[self.codes[:, j].astype(np.int64)]
        return pd.DataFrame(columns), self.weights.copy()

    def family_log_ml(self, variable: str, parents: Sequence[str]) -> float:
        """``D(parents + variable) - D(parents)``, Dirichlet with 1 per cell, in one pass (uncached).

        Examples
        --------
        >>> import pandas as pd
        >>> enc = EncodedData(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> round(enc.family_log_ml("b", ["a"]), 6)  # log((3!/5!) / (1!/3!)) = log(3/10)
        -1.203973
        """
        key = tuple(parents) + (variable,)
        cols, cards, n_cells = self._resolve(key)
        return float(family_log_ml(self._codes_t, self.weights, cols, cards, n_cells))

    def family_bdeu(self, variable: str, parents: Sequence[str], equivalent_sample_size: float) -> float:
        """BDeu term of ``variable`` given ``parents``, counted and summed in one pass (uncached).

        Equal to pgmpy's ``BDeu(...).local_score(variable, parents)`` on the same data; only
        occupied cells are summed, so a wide family costs its rows, not its table.

        Examples
        --------
        >>> import pandas as pd
        >>> enc = EncodedData(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> round(enc.family_bdeu("b", ["a"], 4.0), 6)  # 1 per cell, 2 per parent state: 2 log(1! / 2!)
        -1.386294
        >>> enc.family_bdeu("b", ["a"], 0.0)
        Traceback (most recent call last):
            ...
        ValueError: equivalent_sample_size must be a positive finite number. Got: 0.0
        """
        ess = equivalent_sample_size
        if (isinstance(ess, bool) or not isinstance(ess, int | float | np.number)
                or not (math.isfinite(ess) and ess > 0)):  # fmt: skip
            raise ValueError(f"equivalent_sample_size must be a positive finite number. Got: {ess!r}")
        key = tuple(parents) + (variable,)
        cols, cards, n_cells = self._resolve(key)
        return float(family_bdeu(self._codes_t, self.weights, cols, cards, n_cells, float(ess)))

    def encode(self, frame: pd.DataFrame) -> np.ndarray:
        """Codes of new rows (e.g. held-out data) in this encoding.

        Raises
        ------
        ValueError
            If a column is missing or holds a state unknown to this encoding.

        Examples
        --------
        >>> import pandas as pd
        >>> enc = EncodedData(pd.DataFrame({"a": ["x", "y"]}))
        >>> enc.encode(pd.DataFrame({"a": ["y", "y", "x"]})).ravel().tolist()
        [1, 1, 0]
        """
        return encode_frame(frame, {v: self.state_names[v] for v in self.variables})


def pool_codes(
    codes: np.ndarray, cards: Sequence[int], weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of an integer code matrix, in lexicographic order, with their summed weights.

    Parameters
    ----------
    codes : numpy.ndarray, shape (n_rows, n_columns)
        Column ``j`` holds codes ``0 .. cards[j] - 1``.
    cards : sequence of int
        Number of codes of each column.
    weights : numpy.ndarray, shape (n_rows,)
        Weight of each row (rows of weight zero are kept, with weight zero).

    Returns
    -------
    pooled_codes : numpy.ndarray, shape (n_distinct, n_columns), the dtype of ``codes``
    pooled_weights : numpy.ndarray of float64, shape (n_distinct,)
    inverse : numpy.ndarray, shape (n_rows,)
        Row ``i`` of ``codes`` is row ``inverse[i]`` of ``pooled_codes``.

    Examples
    --------
    >>> import numpy as np
    >>> rows, w, inverse = pool_codes(np.array([[1, 0], [0, 1], [1, 0]]), [2, 2], np.ones(3))
    >>> rows.tolist(), w.tolist(), inverse.tolist()
    ([[0, 1], [1, 0]], [1.0, 2.0], [1, 0, 1])
    """
    if codes.shape[0] == 0:
        return codes, np.asarray(weights, dtype=np.float64), np.zeros(0, dtype=np.intp)
    cards = [max(int(c), 1) for c in cards]
    groups = _key_groups(cards)
    if len(groups) == 1:  # the product fits an int64: one mixed-radix key
        unique_keys, inverse = np.unique(_mixed_radix_key(codes, cards, groups[0]), return_inverse=True)
        pooled_codes = np.empty((unique_keys.shape[0], len(cards)), dtype=codes.dtype)
        for j in range(len(cards) - 1, -1, -1):  # the key's digits, last column first
            unique_keys, pooled_codes[:, j] = np.divmod(unique_keys, cards[j])
    else:  # one key per group of consecutive columns, sorted lexicographically (the first group's key first)
        keys = np.stack([_mixed_radix_key(codes, cards, group) for group in groups])
        order = np.lexsort(keys[::-1])
        ordered = keys[:, order]
        new = np.ones(len(order), dtype=bool)
        new[1:] = (ordered[:, 1:] != ordered[:, :-1]).any(axis=0)
        inverse = np.empty(len(order), dtype=np.intp)
        inverse[order] = np.cumsum(new) - 1
        pooled_codes = codes[order[new]]
    inverse = inverse.ravel()
    pooled_weights = np.bincount(inverse, weights=weights, minlength=pooled_codes.shape[0]).astype(np.float64)
    return pooled_codes, pooled_weights, inverse


def _key_groups(cards: Sequence[int]) -> list[range]:
    """Consecutive columns whose mixed-radix key fits an int64 (a float product would overflow), in order.

    Examples
    --------
    >>> _key_groups([2] * 3), _key_groups([4] * 40)
    ([range(0, 3)], [range(0, 30), range(30, 40)])
    """
    groups, first, bits = [], 0, 0.0
    for j, card in enumerate(cards):
        if j > first and bits + math.log2(card) >= 62:
            groups.append(range(first, j))
            first, bits = j, 0.0
        bits += math.log2(card)
    groups.append(range(first, len(cards)))
    return groups


def _mixed_radix_key(codes: np.ndarray, cards: Sequence[int], columns: range) -> np.ndarray:
    """The key of each row's ``columns`` in mixed radix (the last column fastest), a column at a time."""
    key = np.zeros(codes.shape[0], dtype=np.int64)
    for j in columns:
        key *= cards[j]
        key += codes[:, j]
    return key


def encode_frame(frame, state_names: dict) -> np.ndarray:
    """Codes (positions in ``state_names[v]``) of the rows of ``frame`` for the listed variables.

    Columns of ``frame`` not in ``state_names`` are ignored; the result has one column
    per variable, in the order of ``state_names``.

    Raises
    ------
    TypeError
        If ``frame`` is not a DataFrame.
    ValueError
        If a variable's column is missing, has missing values or holds an unknown state.

    Examples
    --------
    >>> import pandas as pd
    >>> encode_frame(pd.DataFrame({"a": ["y", "x"], "z": [0, 0]}), {"a": ["x", "y"]}).tolist()
    [[1], [0]]
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame. Got: {type(frame).__name__}")
    missing = [v for v in state_names if v not in frame.columns]
    if missing:
        raise ValueError(f"The data lack the model's variable(s) {missing}")
    na = frame[list(state_names)].isna()
    check_complete(na.sum().to_dict(), {}, int(na.to_numpy().any(axis=1).sum()), len(frame))
    out = np.empty((len(frame), len(state_names)), dtype=np.int64)
    for j, (name, states) in enumerate(state_names.items()):
        column = frame[name]
        states = [python_scalar(x) for x in states]
        values = column.astype(object) if isinstance(column.dtype, pd.CategoricalDtype) else column
        codes = pd.Index(states, dtype=object).get_indexer(values.to_numpy(dtype=object)).astype(np.int64)
        if (codes < 0).any():  # unknown states, or values equal to a state under == but not under hashing
            lookup = {s: i for i, s in enumerate(states)}
            raw = [python_scalar(x) for x in values.to_numpy(dtype=object)]
            unknown = list(dict.fromkeys(x for x in raw if x not in lookup))
            if unknown:
                raise ValueError(f"Column {name!r} has state(s) {unknown[:5]} unknown to the model; known: {states}")
            codes = np.array([lookup[x] for x in raw], dtype=np.int64)
        out[:, j] = codes
    return out
