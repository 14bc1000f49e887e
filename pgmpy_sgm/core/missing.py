"""Incomplete data: what ``missing=`` does, and the E-step of EM over pooled rows.

============== ==================================================================
term           meaning
============== ==================================================================
missing cell   NaN, None, ``pd.NA`` or an empty string in a variable's column
pattern        the set of a row's missing columns
completion     a complete row that agrees with an incomplete row where it is observed
============== ==================================================================

Every score of the package reads data only through a table of distinct complete rows with
counts. The E-step (:func:`complete_rows`) turns a table of distinct incomplete rows
(:class:`IncompleteTable`) into such a table: each incomplete row's count is spread over its
completions in proportion to their probability under a model (the posterior of the missing
entries given the observed ones), computed exactly by enumeration up to a stated number of
completions and by Gibbs draws from the same posterior beyond it. Rows with the same
observed values and the same pattern are one distinct row, so the work grows with the
number of distinct (row, pattern) pairs, not with the number of rows. Structural EM keeps
the completed table small: each row keeps at most ``max_kept`` of its most probable
completions, and the rest of its posterior is carried by a few draws from it with equal
shares of its mass (an unbiased estimate of the exact expected counts).

When the model's ``log_probability`` declares the scopes of its factors
(:func:`~pgmpy_sgm.core.posterior_parts.with_scopes`; the package's models do), a row's missing
cells fall into parts that are independent given its observed cells, and each part is
enumerated on its own, once for all rows whose part reads the same cells: the work grows with
the sum of the parts' completions, not their product (:mod:`~pgmpy_sgm.core.posterior_parts`).
The capped completions are then found from the parts exactly (the most probable ones by a beam
over the parts), and parameter EM's exact E-steps couple the parts instead of crossing them,
which keeps the expected counts of every family or clique of the model exact in a table that
grows with the sum of the parts' completions.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pgmpy_sgm.core.arguments import random_generator
from pgmpy_sgm.core.completions import (
    MAX_COMPLETIONS,
    Head,
    complete_by_draws,
    complete_exactly,
    count_completions,
    marginal_log_probability,
)
from pgmpy_sgm.core.data import ExpectedCounts, encode_frame, pool_codes, python_scalar, sorted_states
from pgmpy_sgm.core.data_checks import known_gaps
from pgmpy_sgm.core.posterior_parts import (
    coupled_rows,
    head_and_tail_rows,
    part_sizes,
    row_log_probability,
    scopes_of,
    split_rows,
    splittable,
    with_scopes,
)
from pgmpy_sgm.core.tree_start import TREE_START, chow_liu_log_probability

__all__ = [
    "rows_log_probability",
    "MISSING_CHOICES",
    "MISSING_STATE",
    "MAX_COMPLETIONS",
    "N_DRAWS",
    "TAIL_MASS",
    "MAX_KEPT",
    "N_TAIL_DRAWS",
    "RTOL",
    "EM_STARTS",
    "BEST_STARTS",
    "MissingValuesWarning",
    "EMOptions",
    "IncompleteTable",
    "CompletedTable",
    "check_missing_option",
    "em_options",
    "missing_cells",
    "missing_error",
    "resolve_missing",
    "contexts_as_missing_states",
    "states_with_missing",
    "complete_rows",
    "e_step_seed",
    "independent_log_probability",
    "encode_with_gaps",
    "state_value",
    "marginal_log_probability",
    "observed_log_likelihood",
]

#: The choices of ``missing=``.
MISSING_CHOICES = ("error", "complete_cases", "em", "state")

#: The state that ``missing="state"`` gives to missing cells.
MISSING_STATE = "missing"

#: The least probable completions of a row, holding at most this share of its posterior, are dropped.
TAIL_MASS = 1e-2

#: In structural EM, each row keeps at most this many of its most probable completions ...
MAX_KEPT = 8

#: ... and the rest of its posterior, when it holds more than the tail mass, is carried by this many draws from it.
N_TAIL_DRAWS = 2

#: EM has settled when an iteration moves its objective by less than this share of it (or ``tol``).
RTOL = 1e-4

#: A row with more completions is completed by this many Gibbs draws from the same posterior.
N_DRAWS = 200

#: ``EMOptions(start="complete_cases")`` uses the complete cases when there are at least this many (and
#: twice the variables).
MIN_COMPLETE_CASES = 30

#: The models structural EM can start from (:attr:`EMOptions.start`).
EM_STARTS = ("auto", "bdeu", "pnal", "tree", "complete_cases", "independent", "best")

#: The starts ``EMOptions(start="best")`` runs EM from, in the order its ties go.
BEST_STARTS = ("bdeu", "pnal", "tree", "complete_cases")



class MissingValuesWarning(UserWarning):
    """Rows with missing values were dropped (``missing="complete_cases"``).

    Examples
    --------
    >>> issubclass(MissingValuesWarning, UserWarning)
    True
    """


@dataclass(frozen=True)
class EMOptions:
    """Settings of EM for ``missing=``: ``missing="em"`` is ``missing=EMOptions()``.

    Parameters
    ----------
    max_iter : int, default=20
        Most EM iterations (an E-step, then a structure search or, in structural EM between
        searches, a cheap re-fit of the parameters).
    tol : float, default=0.1
        Absolute part of the settling threshold ``max(tol, rtol * |objective|)``: parameter EM
        stops when an iteration raises the observed-data log-likelihood by less than the
        threshold; structural EM searches the structure again when a parameter step raises the
        expected score by less than it (or lowers it), and stops when a search moved it by
        less than it.
    rtol : float, default=1e-4
        Relative part of the threshold: the scores grow with the number of rows, so a fixed
        ``tol`` is too strict on large tables (on 2000 rows of 20 variables the expected score
        is about -25,000, and ``rtol`` makes the threshold 2.5).
    max_completions : int, default=131072
        Incomplete rows with at most this many completions are completed exactly; so are
        rows with more when the model declares its factors' scopes and each independent part
        of the row has at most this many (see :func:`complete_rows`).
    n_draws : int, default=200
        Other rows are completed by this many Gibbs draws from the same
        posterior, from up to 20 chains per row, each burnt in for 20 sweeps and giving at
        least 10 draws (:func:`~pgmpy_sgm.core.completions.complete_by_draws`); every E-step
        uses the same random numbers, so the draws move only as the model does.
    tail_mass : float, default=0.01
        In structural EM, each exactly completed row keeps its most probable completions
        holding at least ``1 - tail_mass`` of its posterior (renormalised); the rest, often
        most completions each with a tiny share, are dropped, which keeps the completed table
        (and so every search and score on it) small. ``0`` keeps every completion; parameter
        EM always does.
    max_kept : int or None, default=8
        In structural EM, each exactly completed row keeps at most this many of its most
        probable completions (with their posterior probabilities); ``None``: no cap. This
        bounds the completed table by ``max_kept + n_tail_draws`` rows per incomplete row,
        whatever the number of completions (at 20% of cells missing on 20 variables, rows
        have hundreds).
    n_tail_draws : int, default=2
        When the completions a row does not keep hold more than ``tail_mass`` of its
        posterior, that rest is carried by this many draws from the posterior restricted to
        it, each with an equal share of the rest's mass (systematic sampling, one random
        number per row, the same at every E-step): the expected counts are then unbiased
        estimates of the exact ones. ``0``: the kept completions are renormalised instead.
    start : {"auto", "bdeu", "pnal", "tree", "complete_cases", "independent", "best"}, default="auto"
        The model of structural EM's first E-step. ``"pnal"``: the DAG climbed on the
        penalised node-average log-likelihood (Balov 2013; every family scored on the rows
        where all of it is observed), fitted family by family on the same rows
        (:func:`~pgmpy_sgm.causal_discovery._pnal_start.pnal_log_probability`); ``"bdeu"``:
        the same with each family scored by BDeu (equivalent sample size
        :data:`~pgmpy_sgm.causal_discovery._pnal_start.START_ESS`, at most
        :data:`~pgmpy_sgm.causal_discovery._pnal_start.START_MAX_INDEGREE` parents) on its
        available cases scaled to all rows, which keeps dependences of multi-state variables that BIC's
        penalty drops at a few thousand rows; ``"tree"``:
        the Chow-Liu tree of the pairwise available cases (every pair of variables counted
        over the rows where both are observed;
        :func:`~pgmpy_sgm.core.tree_start.chow_liu_log_probability`); ``"complete_cases"``:
        the learner's own model of the complete cases, or independent variables when there
        are fewer than :data:`MIN_COMPLETE_CASES` (or than twice the variables);
        ``"independent"``: independent variables, each distributed as its available cases;
        ``"best"``: EM from each of :data:`BEST_STARTS`, and the run whose result has the
        best observed-data criterion (four times the time). ``"auto"``: the start measured
        best for the learner (``benchmarks/RESULTS.md``, "Structural EM's start" and "A
        start scored by BDeu"): ``"bdeu"`` for ``LDAGSearch``, ``"pnal"`` for the other
        learners. EM's fixed points stay near their start:
        completions drawn from a model without a dependence dilute it in the completed
        table. Parameter EM (a fixed structure) always starts from the complete cases, or
        from the Chow-Liu tree when they are too few.
    revisit : bool, default=True
        Structural EM's second look: after EM settles, one more E-step from the settled
        model's DAG plus, for each variable, the strongest parent that the rows where it is
        observed support (:mod:`~pgmpy_sgm.causal_discovery._revisit`), a search, and EM on
        from there only when the observed-data criterion rose by more than ``2 log n``
        (``n`` the rows' weight). A dependence missing from the settled model is diluted in
        its completed tables, so EM alone rarely adds it back. ``LDAGSearch`` takes the look;
        the other learners ignore it (on the SG learner it changed no result in the runs of
        ``benchmarks/RESULTS.md``, "Structural EM's second look"). It costs one E-step and
        one search when not kept, and EM's further iterations when kept.

    Examples
    --------
    >>> EMOptions(max_iter=5)
    EMOptions(max_iter=5, tol=0.1, rtol=0.0001, max_completions=131072, n_draws=200, tail_mass=0.01, max_kept=8, \
n_tail_draws=2, start='auto', revisit=True)
    >>> EMOptions().threshold(-25_000.0)
    2.5
    >>> EMOptions(tol=-1)
    Traceback (most recent call last):
        ...
    ValueError: EMOptions tol must be a number >= 0. Got: -1
    >>> EMOptions(start="empty")
    Traceback (most recent call last):
        ...
    ValueError: EMOptions start must be one of ('auto', 'bdeu', 'pnal', 'tree', 'complete_cases', 'independent', \
'best'). \
Got: 'empty'
    """

    max_iter: int = 20
    tol: float = 0.1
    rtol: float = RTOL
    max_completions: int = MAX_COMPLETIONS
    n_draws: int = N_DRAWS
    tail_mass: float = TAIL_MASS
    max_kept: int | None = MAX_KEPT
    n_tail_draws: int = N_TAIL_DRAWS
    start: str = "auto"
    revisit: bool = True

    def __post_init__(self):
        if not isinstance(self.start, str) or self.start not in EM_STARTS:
            raise ValueError(f"EMOptions start must be one of {EM_STARTS}. Got: {self.start!r}")
        if not isinstance(self.revisit, bool | np.bool_):
            raise TypeError(f"EMOptions revisit must be True or False. Got: {self.revisit!r}")
        for name, low in (("max_iter", 1), ("max_completions", 1), ("n_draws", 1), ("max_kept", 1),
                          ("n_tail_draws", 0)):  # fmt: skip
            value = getattr(self, name)
            if name == "max_kept" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
                none = " or None" if name == "max_kept" else ""
                raise ValueError(f"EMOptions {name} must be an integer >= {low}{none}. Got: {value!r}")
        for name, high in (("tol", math.inf), ("rtol", math.inf), ("tail_mass", 0.5)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < high:
                bound = "" if high == math.inf else f" and < {high}"
                raise ValueError(f"EMOptions {name} must be a number >= 0{bound}. Got: {value!r}")

    def for_learner(self, auto_start: str) -> EMOptions:
        """These options with ``start="auto"`` replaced by the learner's ``auto_start``.

        Examples
        --------
        >>> EMOptions().for_learner("pnal").start, EMOptions(start="best").for_learner("pnal").start
        ('pnal', 'best')
        """
        return self if self.start != "auto" else dataclasses.replace(self, start=auto_start)

    @property
    def most_iterations(self) -> int:
        """The most EM iterations of a fit: ``max_iter`` per start (four for ``start="best"``), and with
        ``revisit`` one more and ``max_iter`` again after each.

        Examples
        --------
        >>> EMOptions(max_iter=5, revisit=False).most_iterations, EMOptions(max_iter=5, start="best").most_iterations
        (5, 44)
        """
        per_start = 2 * self.max_iter + 1 if self.revisit else self.max_iter
        return per_start * (len(BEST_STARTS) if self.start == "best" else 1)

    def threshold(self, objective: float) -> float:
        """The change of ``objective`` below which EM counts an iteration as settled.

        Examples
        --------
        >>> EMOptions().threshold(-25_000.0), EMOptions().threshold(-100.0)
        (2.5, 0.1)
        """
        return max(self.tol, self.rtol * abs(objective)) if math.isfinite(objective) else self.tol


def check_missing_option(missing) -> str:
    """The choice ``missing`` names (an :class:`EMOptions` is ``"em"``), else a ``ValueError`` naming them.

    Examples
    --------
    >>> check_missing_option("em"), check_missing_option(EMOptions(max_iter=3))
    ('em', 'em')
    >>> check_missing_option("drop")
    Traceback (most recent call last):
        ...
    ValueError: missing must be one of ('error', 'complete_cases', 'em', 'state') or an EMOptions. Got: 'drop'
    """
    if isinstance(missing, EMOptions):
        return "em"
    if not isinstance(missing, str) or missing not in MISSING_CHOICES:
        raise ValueError(f"missing must be one of {MISSING_CHOICES} or an EMOptions. Got: {missing!r}")
    return missing


def em_options(missing) -> EMOptions:
    """The EM settings of a ``missing=`` value that means EM.

    Examples
    --------
    >>> em_options("em").max_iter
    20
    """
    return missing if isinstance(missing, EMOptions) else EMOptions()


def _is_missing(column: pd.Series) -> np.ndarray:
    """Missing cells of a column: NaN, None, ``pd.NA`` and empty (or blank) strings."""
    gaps = known_gaps(column)
    if gaps is not None:
        return gaps
    gaps = column.isna().to_numpy().copy()
    if column.dtype == object or isinstance(column.dtype, pd.StringDtype):
        codes, uniques = pd.factorize(column.astype(object).to_numpy())  # blank strings checked once per value
        blank = np.array([isinstance(x, str) and not x.strip() for x in uniques] + [False], dtype=bool)
        gaps |= blank[codes]  # code -1 (NaN) points at the final False
    return gaps


def missing_cells(frame: pd.DataFrame, columns: Sequence | None = None) -> pd.Series:
    """The number of missing cells of every column that has any (in column order).

    Examples
    --------
    >>> missing_cells(pd.DataFrame({"a": [0, None, 1], "b": ["x", "y", ""], "c": [1, 1, 1]})).to_dict()
    {'a': 1, 'b': 1}
    """
    columns = list(frame.columns if columns is None else columns)
    counts = {c: int(_is_missing(frame[c]).sum()) for c in columns}
    return pd.Series({c: n for c, n in counts.items() if n}, dtype=np.int64)


def state_value(value):
    """A cell as a state: a Python scalar, with whole floats as int (a column of integers with NaN is float).

    Examples
    --------
    >>> state_value(np.float64(1.0)), state_value(2.5), state_value("x")
    (1, 2.5, 'x')
    """
    value = python_scalar(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def encode_with_gaps(frame: pd.DataFrame, state_names: Mapping | None = None) -> tuple[np.ndarray, dict]:
    """Codes of the rows of ``frame`` (every column a variable), ``-1`` where missing, and the state names used.

    A variable's states are ``state_names[v]`` when given, else its sorted observed values.

    Examples
    --------
    >>> codes, names = encode_with_gaps(pd.DataFrame({"a": [1.0, None, 0.0], "b": ["y", "x", ""]}))
    >>> codes.tolist(), names
    ([[1, 1], [-1, 0], [0, -1]], {'a': [0, 1], 'b': ['x', 'y']})
    """
    declared = dict(state_names or {})
    names, columns = {}, []
    for name in frame.columns:
        gaps = _is_missing(frame[name])
        raw_codes, raw_values = pd.factorize(frame[name].astype(object).to_numpy()[~gaps])  # one lookup per value
        values = [state_value(x) for x in raw_values]
        states = [state_value(x) for x in declared.get(name, sorted_states(dict.fromkeys(values)))]
        if not states:
            raise ValueError(f"Column {name!r} has no observed value: every cell is missing.")
        lookup = {s: i for i, s in enumerate(states)}
        unknown = [v for v in values if v not in lookup]
        if unknown:
            raise ValueError(f"Column {name!r} has state(s) {unknown[:5]} not among its state names {states}")
        coded = np.full(len(frame), -1, dtype=np.int64)
        coded[~gaps] = np.array([lookup[v] for v in values], dtype=np.int64)[raw_codes]
        columns.append(coded)
        names[name] = states
    codes = np.column_stack(columns) if columns else np.zeros((len(frame), 0), dtype=np.int64)
    return codes, names


def _pooled_with_gaps(codes: np.ndarray, cards: Sequence[int], counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of codes with ``-1`` for gaps and their summed counts (rows of count zero dropped).

    :func:`~pgmpy_sgm.core.data.pool_codes` with a gap as one more code per column.

    Examples
    --------
    >>> rows, counts = _pooled_with_gaps(np.array([[0, -1], [1, 0], [0, -1]]), [2, 2], np.array([1.0, 0.0, 2.0]))
    >>> rows.tolist(), counts.tolist()
    ([[0, -1]], [3.0])
    """
    shifted, pooled, _ = pool_codes(np.asarray(codes, dtype=np.int64) + 1, [k + 1 for k in cards], counts)
    keep = pooled > 0
    return shifted[keep] - 1, pooled[keep]


def recoding(given: Sequence, own: Sequence, variable) -> np.ndarray:
    """Positions in ``own`` of the states ``given`` (position ``i`` of ``given`` maps to ``out[i]``).

    Raises
    ------
    ValueError
        Naming ``variable`` and the given states that ``own`` lacks.

    Examples
    --------
    >>> recoding(["hi", "lo"], ["lo", "hi"], "a").tolist()
    [1, 0]
    >>> recoding([0, 2], [0, 1], "a")
    Traceback (most recent call last):
        ...
    ValueError: State(s) [2] of 'a' are not states of the model, whose states are [0, 1]
    """
    lookup = {state_value(x): i for i, x in enumerate(own)}
    given = [state_value(x) for x in given]
    unknown = [x for x in given if x not in lookup]
    if unknown:
        raise ValueError(f"State(s) {unknown} of {variable!r} are not states of the model, whose states are "
                         f"{[state_value(x) for x in own]}")  # fmt: skip
    return np.array([lookup[x] for x in given], dtype=np.int64)


def columns_of(needed: Sequence, variables: Sequence, what: str = "columns") -> list[int]:
    """The positions in ``variables`` of the ``needed`` ones, or a ``ValueError`` naming those absent.

    Examples
    --------
    >>> columns_of(["b"], ["a", "b"])
    [1]
    >>> columns_of(["c", "a"], ["a", "b"])
    Traceback (most recent call last):
        ...
    ValueError: The columns ['a', 'b'] lack the model's variable(s) ['c']
    """
    variables = list(variables)
    absent = [v for v in needed if v not in variables]
    if absent:
        raise ValueError(f"The {what} {variables} lack the model's variable(s) {absent}")
    return [variables.index(v) for v in needed]


def _incomplete_rows(frame: pd.DataFrame, columns: Sequence) -> np.ndarray:
    gaps = np.zeros(len(frame), dtype=bool)
    for c in columns:
        gaps |= _is_missing(frame[c])
    return gaps


def missing_error(frame: pd.DataFrame, columns: Sequence | None = None) -> ValueError | None:
    """The error for data with missing values (None when there are none): every column, its count, the choices.

    Examples
    --------
    >>> print(missing_error(pd.DataFrame({"a": [0, None, None], "b": [None, "y", "x"]})))
    3 of 3 rows have missing values (NaN, None or empty), in columns 'a' (2 missing) and 'b' (1 missing). \
Pass missing= one of 'complete_cases' (drop those rows), 'em' (structural EM: fill them in by the model's \
posterior) or 'state' (missing as a state of its own).
    """
    columns = list(frame.columns if columns is None else columns)
    cells = missing_cells(frame, columns)
    if cells.empty:
        return None
    parts = [f"{c!r} ({n} missing)" for c, n in cells.items()]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" and {parts[-1]}"
    n_rows = int(_incomplete_rows(frame, list(cells.index)).sum())
    return ValueError(
        f"{n_rows} of {len(frame)} rows have missing values (NaN, None or empty), "
        f"in column{'s' if len(parts) > 1 else ''} {listed}. "
        "Pass missing= one of 'complete_cases' (drop those rows), 'em' (structural EM: fill them in by the "
        "model's posterior) or 'state' (missing as a state of its own)."
    )


def resolve_missing(frame: pd.DataFrame, weights=None, missing: str = "error", columns: Sequence | None = None,
                    stacklevel: int = 3) -> tuple[pd.DataFrame, object]:  # fmt: skip
    """``(frame, weights)`` with the missing cells of ``columns`` handled as ``missing`` says.

    ``"error"`` raises :func:`missing_error`; ``"complete_cases"`` drops the incomplete rows
    (and their weights) with a :class:`MissingValuesWarning`; ``"state"`` gives every missing
    cell the state :data:`MISSING_STATE` (a column with gaps then holds strings: its other
    values as ``str``); ``"em"`` returns the data unchanged (the learner completes them).

    Examples
    --------
    >>> frame = pd.DataFrame({"a": [0, None, 1], "b": ["x", "y", "y"]})
    >>> resolve_missing(frame, missing="state")[0]["a"].tolist()
    ['0', 'missing', '1']
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     kept, _ = resolve_missing(frame, missing="complete_cases")
    >>> len(kept), str(caught[0].message)
    (2, 'Dropped 1 of 3 rows with missing values (missing="complete_cases"); 2 complete rows are left.')
    """
    missing = check_missing_option(missing)
    columns = frame.columns if columns is None else columns
    columns = [c for c in columns if not isinstance(weights, str) or c != weights]
    if missing == "em":
        return frame, weights
    if missing == "error":
        error = missing_error(frame, columns)
        if error is not None:
            raise error
        return frame, weights
    if missing == "state":
        frame = frame.copy()
        for column in missing_cells(frame, columns).index:
            gaps = _is_missing(frame[column])
            text = frame[column].astype(object).map(lambda x: str(state_value(x)))
            frame[column] = text.where(~gaps, MISSING_STATE).astype(object)
        return frame, weights
    gaps = _incomplete_rows(frame, columns)
    if not gaps.any():
        return frame, weights
    kept = frame.loc[~gaps]
    if kept.empty:
        raise ValueError(f"Every one of the {len(frame)} rows has a missing value: no complete case is left. "
                         "Use missing='em' or missing='state'.")  # fmt: skip
    counted = ""
    if weights is not None:
        values = frame[weights].to_numpy(dtype=float) if isinstance(weights, str) else np.asarray(weights, float)
        counted = f" ({values[gaps].sum():,.0f} of {values.sum():,.0f} observations)"
    warnings.warn(
        f'Dropped {int(gaps.sum())} of {len(frame)} rows{counted} with missing values (missing="complete_cases"); '
        f"{len(kept)} complete rows are left.",
        MissingValuesWarning,
        stacklevel=stacklevel,
    )
    if weights is not None and not isinstance(weights, str):
        weights = np.asarray(weights)[~gaps]
    return kept, weights


def states_with_missing(declared: Mapping, columns) -> dict:
    """Declared states restated for ``missing="state"``: for each of ``columns``, its states as strings and the
    state :data:`MISSING_STATE` (as :func:`resolve_missing` makes its values).

    Examples
    --------
    >>> states_with_missing({"a": [0, 1], "b": ["x"]}, ["a"])
    {'a': ['0', '1', 'missing'], 'b': ['x']}
    """
    out = dict(declared)
    for column in columns:
        if column in out:
            states = [str(state_value(x)) for x in out[column]]
            out[column] = states + ([MISSING_STATE] if MISSING_STATE not in states else [])
    return out


def contexts_as_missing_states(graph, attribute: str, columns) -> dict:
    """Restate the contexts on ``graph``'s edges for ``missing="state"``; returns the old values, to restore.

    ``graph.edges[u, v][attribute]`` holds frozensets of ``(variable, state)`` pairs (strata or
    contexts). ``missing="state"`` makes every column of ``columns`` (those with gaps) hold
    strings (:func:`resolve_missing`), so a context's state of such a column becomes its
    string too, and the context still names a state of the column.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.Graph([("a", "b")])
    >>> g.edges["a", "b"]["contexts"] = frozenset({frozenset({("c", 0)})})
    >>> old = contexts_as_missing_states(g, "contexts", ["c"])
    >>> [dict(c) for c in g.edges["a", "b"]["contexts"]], [dict(c) for c in old["a", "b"]]
    ([{'c': '0'}], [{'c': 0}])
    """
    columns, old = set(columns), {}
    for u, v, found in list(graph.edges(data=attribute)):
        if not found:
            continue
        old[u, v] = found
        graph.edges[u, v][attribute] = frozenset(
            frozenset((w, str(state_value(state)) if w in columns else state) for w, state in context)
            for context in found)  # fmt: skip
    return old


@dataclass(frozen=True)
class IncompleteTable:
    """Distinct rows of incomplete discrete data, as codes with ``-1`` where missing, and their counts.

    Attributes
    ----------
    variables : list of str
    state_names : dict
        ``{variable: [states]}``; a variable's states are the declared ones or its sorted
        observed values.
    codes : numpy.ndarray of shape (n_distinct, n_variables)
        State indices, ``-1`` for a missing cell.
    counts : numpy.ndarray of shape (n_distinct,)

    Examples
    --------
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1, None, None], "b": ["x", "y", "y", "y"]}))
    >>> table.codes.tolist(), table.counts.tolist()
    ([[-1, 1], [0, 0], [1, 1]], [2.0, 1.0, 1.0])
    >>> table.n_incomplete, table.n_rows
    (2.0, 4.0)
    """

    variables: list
    state_names: dict
    codes: np.ndarray
    counts: np.ndarray

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, weights=None, state_names: Mapping | None = None) -> IncompleteTable:
        """Pool the rows of ``frame`` (every column a variable, except a ``weights`` column).

        Examples
        --------
        >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1, None], "b": [1, 1, 0]}))
        >>> table.cards, table.n_rows, table.n_incomplete
        ([2, 2], 3.0, 1.0)
        """
        if isinstance(weights, str):
            counts = frame[weights].to_numpy(dtype=np.float64)
            frame = frame.drop(columns=[weights])
        elif weights is None:
            counts = np.ones(len(frame))
        else:
            counts = np.asarray(weights, dtype=np.float64)
        codes, names = encode_with_gaps(frame, state_names)
        distinct, pooled = _pooled_with_gaps(codes, [len(names[v]) for v in frame.columns], counts)
        return cls(list(frame.columns), names, distinct, pooled)

    def enough_complete_cases(self) -> bool:
        """Whether EM starts from a model of the complete cases: at least :data:`MIN_COMPLETE_CASES`
        of them, and at least twice as many as variables.

        Examples
        --------
        >>> IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1, None]})).enough_complete_cases()
        False
        """
        return float(self.complete_cases().counts.sum()) >= max(MIN_COMPLETE_CASES, 2 * len(self.variables))

    def complete_cases(self) -> CompletedTable:
        """The table's complete rows, with their counts, as a table the learners take.

        Examples
        --------
        >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1, None], "b": ["x", "y", "y"]}))
        >>> table.complete_cases().frame.to_dict("list")
        {'a': [0, 1], 'b': ['x', 'y']}
        """
        keep = (self.codes >= 0).all(axis=1)
        codes = self.codes[keep]
        return CompletedTable(self._frame(codes), ExpectedCounts(self.counts[keep]), 0.0, 0.0, codes=codes)

    def _frame(self, codes: np.ndarray) -> pd.DataFrame:
        """Complete rows of codes as a frame of states (categorical columns: the learners read their codes)."""
        columns = {}
        for j, v in enumerate(self.variables):
            states = pd.Index(self.state_names[v], dtype=object, tupleize_cols=False).infer_objects()
            columns[v] = pd.Categorical.from_codes(codes[:, j], categories=states)
        return pd.DataFrame(columns, columns=self.variables)

    @property
    def cards(self) -> list[int]:
        """Number of states of every variable, in ``variables`` order (see :meth:`from_frame`)."""
        return [len(self.state_names[v]) for v in self.variables]

    @property
    def n_rows(self) -> float:
        """Rows of the data, counted with their weights (see :meth:`from_frame`)."""
        return float(self.counts.sum())

    @property
    def n_incomplete(self) -> float:
        """Rows with at least one missing cell, counted with their weights (see :meth:`from_frame`)."""
        return float(self.counts[(self.codes < 0).any(axis=1)].sum())


@dataclass(frozen=True)
class CompletedTable:
    """The E-step's result: distinct complete rows with expected (fractional) counts.

    Examples
    --------
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1, None]}))
    >>> done = complete_rows(table, lambda codes: np.zeros(len(codes)))
    >>> done.frame["a"].tolist(), done.counts.tolist(), done.n_exact, done.n_drawn
    ([0, 1], [1.5, 1.5], 1.0, 0.0)

    Attributes
    ----------
    frame : pandas.DataFrame
        One row per distinct complete row, in the table's states.
    counts : ExpectedCounts
        Their expected counts (summing to the number of rows).
    n_exact, n_drawn : float
        Incomplete rows (counted with their weights) completed by enumeration, of the whole
        row or of its independent parts (every completion kept, but for a dropped tail of at
        most ``tail_mass``), and by Gibbs draws.
    log_likelihood : float
        The observed-data log-likelihood, under the model that completed the table, of the
        complete rows and of the rows of at most ``max_completions`` completions (the
        others left out, whether drawn or completed part by part); NaN for a table not made
        by :func:`complete_rows`.
    codes : numpy.ndarray or None
        The rows of ``frame`` as state indices (``None`` when not kept).
    n_capped : float
        Incomplete rows enumerated whose completions were capped: their ``max_kept`` most
        probable completions kept, the rest of the posterior carried by draws from it (or
        dropped, the head renormalised, with no tail draws).
    """

    frame: pd.DataFrame
    counts: ExpectedCounts
    n_exact: float
    n_drawn: float
    log_likelihood: float = math.nan
    codes: np.ndarray | None = None
    n_capped: float = 0.0


def independent_log_probability(table: IncompleteTable, pseudo: float = 1.0) -> Callable[[np.ndarray], np.ndarray]:
    """Log probability of complete code rows under independent variables, each from its available cases.

    Every variable's distribution is its observed counts plus ``pseudo`` per state, normalised:
    the model without edges, and the start of EM.

    Examples
    --------
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 0, 1, None]}))
    >>> np.exp(independent_log_probability(table)(np.array([[0], [1]]))).round(3).tolist()  # (2+1)/5, (1+1)/5
    [0.6, 0.4]
    """
    logs = []
    for j, card in enumerate(table.cards):
        seen = table.codes[:, j] >= 0
        counts = np.bincount(table.codes[seen, j], weights=table.counts[seen], minlength=card) + pseudo
        logs.append(np.log(counts / counts.sum()))

    def term(codes: np.ndarray, j: int) -> np.ndarray:
        return logs[j][codes[:, j]]

    def log_probability(codes: np.ndarray) -> np.ndarray:
        return sum(term(codes, j) for j in range(len(logs)))

    return with_scopes(log_probability, [(j,) for j in range(len(logs))],
                       [functools.partial(term, j=j) for j in range(len(logs))])  # fmt: skip


def rows_log_probability(data, states: Mapping, log_probability) -> np.ndarray:
    """Log probability of every row of ``data``, of its observed part where cells are missing.

    ``states`` gives each model variable's states (``{variable: [states]}``, in the column
    order ``log_probability(codes)`` expects); complete data are encoded directly, rows with
    gaps have their completions summed (:func:`marginal_log_probability`).

    Examples
    --------
    >>> uniform = lambda codes: np.full(len(codes), np.log(0.25))
    >>> rows_log_probability(pd.DataFrame({"a": [0, None], "b": [1, 1]}), {"a": [0, 1], "b": [0, 1]},
    ...                      uniform).round(4).tolist()
    [-1.3863, -0.6931]
    """
    nodes = list(states)
    if isinstance(data, pd.DataFrame) and all(v in data.columns for v in nodes) \
            and not missing_cells(data, nodes).empty:  # fmt: skip
        codes, _ = encode_with_gaps(data[nodes], states)
        return marginal_log_probability(codes, [len(s) for s in states.values()], log_probability)
    return log_probability(encode_frame(data, states))


def complete_rows(table: IncompleteTable, log_probability: Callable[[np.ndarray], np.ndarray],
                  max_completions: int = MAX_COMPLETIONS, n_draws: int = N_DRAWS,
                  seed: int | np.random.Generator | None = 0, tail_mass: float = 0.0, max_kept: int | None = None,
                  n_tail_draws: int = 0, coupled_scopes: Sequence | None = None,
                  cache: dict | None = None) -> CompletedTable:  # fmt: skip
    """The E-step: every incomplete row spread over its completions by a model's posterior.

    Parameters
    ----------
    table : IncompleteTable
    log_probability : callable
        ``log_probability(codes)``: the model's log probability of complete rows of codes
        (shape ``(n, n_variables)``, columns in ``table.variables`` order); a joint up to a
        constant is enough for the completions (the result's ``log_likelihood`` is then off
        by that constant times the rows).
    max_completions : int, default=131072
        Rows with at most this many completions are completed exactly; others by draws, but
        for rows split into parts (below) of at most this many completions each, completed
        exactly too (their log-likelihood is left out of ``log_likelihood``, as before, so
        that it counts the same rows whatever the model).
    n_draws : int, default=200
        Gibbs draws for each row beyond ``max_completions``, from several chains per row when
        the rows are few, each burnt in for 20 sweeps
        (:func:`~pgmpy_sgm.core.completions.complete_by_draws`).
    seed : int or numpy.random.Generator, optional
        For the draws.
    tail_mass : float, default=0
        Each exactly completed row keeps only its most probable completions holding at least
        ``1 - tail_mass`` of its posterior (``0``: every completion) ...
    max_kept : int, optional
        ... and at most ``max_kept`` of them (``None``: no cap). When the completions not
        kept hold at most ``tail_mass`` they are dropped and the kept ones renormalised;
        otherwise the row counts as capped (``n_capped``) and ...
    n_tail_draws : int, default=0
        ... the rest of its posterior is carried by this many systematic draws from it, each
        with an equal share of the rest's mass (``0``: dropped, the kept ones renormalised).
        The draws use one uniform number per distinct row, the same for the same ``seed``.
        With draws, the expected counts are unbiased estimates of the exact ones; with
        ``max_kept`` at least the number of completions and ``tail_mass=0``, exact.
    coupled_scopes : sequence of tuples of column positions, optional
        Only with ``tail_mass=0`` and ``max_kept=None``, and with a ``log_probability``
        that declares its scopes: each row's parts (joined through these scopes too) are
        coupled instead of crossed (:func:`~pgmpy_sgm.core.posterior_parts.coupled_rows`).
        The expected counts of every set of variables inside one part, so inside one of
        these scopes or one of the model's, are then exact, in a table of at most the sum of
        the parts' completions per row; counts of sets spanning two parts are not. For fits
        that read only the counts of these scopes (parameter EM of a fixed structure).
    cache : dict, optional
        Keeps the rows' parts and their enumerated completions (which depend on the rows and
        the scopes, not on the model's values) for the next E-step on the same table with
        the same scopes; EM passes one dict through its iterations.

    Notes
    -----
    When ``log_probability`` declares its scopes (:func:`~pgmpy_sgm.core.posterior_parts.with_scopes`),
    rows with ``max_kept`` set (or ``coupled_scopes``) are split into independent parts and
    each part is enumerated on its own; the kept completions are the same as those of the
    whole-row enumeration (the most probable ``max_kept``, by a beam over the parts), but
    ties between completions of equal probability may be cut in another order, and the tail
    draws walk the posterior in another order (first part slowest): both unbiased. Rows whose
    reference completion (every missing cell in its first state) is impossible are completed
    whole, as are rows of a ``log_probability`` without scopes.

    Returns
    -------
    CompletedTable

    Examples
    --------
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 0, 1, None], "b": [0, 0, 1, 1]}))
    >>> flat = lambda codes: np.zeros(len(codes))  # every completion equally likely
    >>> done = complete_rows(table, flat)
    >>> done.frame.assign(count=done.counts).to_dict("records")
    [{'a': 0, 'b': 0, 'count': 2.0}, {'a': 0, 'b': 1, 'count': 0.5}, {'a': 1, 'b': 1, 'count': 1.5}]
    """
    rng = np.random.default_rng(seed)
    cards = table.cards
    hidden_mask = table.codes < 0
    complete = ~hidden_mask.any(axis=1)
    rows, counts = [table.codes[complete]], [table.counts[complete]]
    log_likelihood = float(np.dot(log_probability(table.codes[complete]), table.counts[complete]))
    n_exact = n_drawn = n_capped = 0.0
    incomplete_rows, incomplete_counts = table.codes[~complete], table.counts[~complete]
    coupled = coupled_scopes is not None
    if coupled and (tail_mass > 0 or max_kept is not None):
        raise ValueError("coupled_scopes keeps every part's whole posterior: it takes tail_mass=0 and "
                         f"max_kept=None. Got: tail_mass={tail_mass!r}, max_kept={max_kept!r}")  # fmt: skip
    scopes = _joined_scopes(log_probability, coupled_scopes)
    head = None if tail_mass <= 0 and max_kept is None else Head(float(tail_mass), max_kept, int(n_tail_draws))
    uniforms = rng.random(len(incomplete_rows)) if head is not None and n_tail_draws > 0 else None
    beyond = count_completions(incomplete_rows, cards) > max_completions
    split = _split_rows(incomplete_rows, cards, log_probability, scopes, max_completions,
                        coupled or (head is not None and max_kept is not None))  # fmt: skip
    parts = split_rows(incomplete_rows[split], cards, scopes, log_probability, cache) \
        if split.any() else None  # fmt: skip
    if parts is not None and not splittable(parts).all():  # a reference completion of probability zero
        good = splittable(parts)
        split[np.flatnonzero(split)[~good]] = False
        parts = parts.subset(good) if good.any() else None
    if parts is not None:
        split_counts = incomplete_counts[split]
        done_rows, done_counts, capped, split_log_likelihood = _complete_split(
            parts, cards, split_counts, ~beyond[split], coupled, head, None if uniforms is None else uniforms[split])
        log_likelihood += split_log_likelihood
        n_capped += float(split_counts[capped].sum())
        n_exact += float(split_counts[~capped].sum())
        rows.append(done_rows)
        counts.append(done_counts)
    whole = ~split & ~beyond
    if whole.any():
        done_rows, done_counts, done_log_likelihood, whole_capped = complete_exactly(
            incomplete_rows[whole], incomplete_counts[whole], cards, log_probability, head,
            None if uniforms is None else uniforms[whole],
        )
        n_capped += whole_capped
        n_exact += float(incomplete_counts[whole].sum()) - whole_capped
        log_likelihood += done_log_likelihood
        rows.append(done_rows)
        counts.append(done_counts)
    drawn = ~split & beyond
    if drawn.any():
        done_rows, done_counts = complete_by_draws(incomplete_rows[drawn], incomplete_counts[drawn], cards,
                                                    log_probability, rng, n_draws)  # fmt: skip
        n_drawn = float(incomplete_counts[drawn].sum())
        rows.append(done_rows)
        counts.append(done_counts)
    distinct, pooled = _pooled_with_gaps(np.concatenate(rows), cards, np.concatenate(counts))
    return CompletedTable(table._frame(distinct), ExpectedCounts(pooled), n_exact, n_drawn, log_likelihood, distinct,
                          n_capped)  # fmt: skip


def _complete_split(parts, cards: list[int], counts: np.ndarray, within: np.ndarray, coupled: bool, head,
                    uniforms: np.ndarray | None) -> tuple:  # fmt: skip
    """Split rows completed part by part: ``(rows, counts, capped, log-likelihood of the rows ``within``)``.

    ``within`` marks the rows of at most ``max_completions`` completions, the only ones the
    observed-data log-likelihood counts (as for rows completed whole). Coupled completions
    (``coupled``) keep every part's whole posterior; otherwise ``head`` caps each row.
    """
    log_likelihood = float(np.dot(row_log_probability(parts)[within], counts[within]))
    if coupled:
        done_rows, done_counts = coupled_rows(parts, cards, counts)
        return done_rows, done_counts, np.zeros(len(counts), dtype=bool), log_likelihood
    done_rows, done_counts, capped = head_and_tail_rows(parts, cards, counts, head.tail_mass, head.max_kept,
                                                        head.n_tail_draws, uniforms)  # fmt: skip
    return done_rows, done_counts, capped, log_likelihood


def _joined_scopes(log_probability, coupled_scopes: Sequence | None) -> tuple | None:
    """The scopes that make a row's parts: ``log_probability``'s (None if it declares none) and ``coupled_scopes``."""
    scopes = scopes_of(log_probability)
    if scopes is None or coupled_scopes is None:
        return scopes
    return tuple(dict.fromkeys([*scopes, *(tuple(s) for s in coupled_scopes)]))  # each scope once


def _split_rows(rows: np.ndarray, cards: list[int], log_probability, scopes, max_completions: int,
                wanted: bool) -> np.ndarray:  # fmt: skip
    """Incomplete rows completed part by part (see :mod:`~pgmpy_sgm.core.posterior_parts`).

    Those whose parts (joined through ``scopes``) have at most ``max_completions``
    completions each; none unless ``wanted`` and ``scopes`` are known.
    """
    split = np.zeros(len(rows), dtype=bool)
    if not wanted or scopes is None or not len(rows):
        return split
    n_parts, largest = part_sizes(rows, cards, scopes)
    return (n_parts > 0) & (largest <= max_completions)


def mask_cells(data: pd.DataFrame, rate: float, seed: int | None = None, given: str | None = None) -> pd.DataFrame:
    """A copy of ``data`` with cells removed (set to NaN), for checking how a method copes with gaps.

    Completely at random (MCAR) by default: every cell independently with probability
    ``rate``. With ``given`` (a column, never masked itself), at random given that column
    (MAR): a cell is removed with probability ``1.6 * rate`` in rows where ``given`` holds its
    first (sorted) state and ``0.4 * rate`` elsewhere.

    Examples
    --------
    >>> frame = pd.DataFrame({"a": [0, 1] * 500, "b": [1, 0] * 500})
    >>> masked = mask_cells(frame, 0.2, seed=0)
    >>> round(float(masked.isna().to_numpy().mean()), 2)  # 2000 cells, each gone with probability 0.2
    0.21
    >>> mask_cells(frame, 0.2, seed=0, given="a")["a"].isna().sum()
    np.int64(0)
    """
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 0.625:
        raise ValueError(f"rate must be a number from 0 to 0.625 (1.6 * rate is a probability). Got: {rate!r}")
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
    rng = np.random.default_rng(seed)
    p = np.full(data.shape, float(rate))
    if given is not None:
        if given not in data.columns:
            raise ValueError(f"given={given!r} is not a column of the data: {list(data.columns)}")
        first = (data[given] == sorted_states(data[given].dropna().unique())[0]).to_numpy()
        p = np.where(first[:, None], 1.6 * rate, 0.4 * rate) * np.ones((1, data.shape[1]))
        p[:, list(data.columns).index(given)] = 0.0
    return data.astype(object).mask(rng.random(data.shape) < p)


def observed_log_likelihood(table: IncompleteTable, log_probability, max_completions: int) -> float:
    """The observed-data log-likelihood EM monitors: over the rows with at most ``max_completions`` completions.

    Examples
    --------
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 1, None]}))
    >>> round(observed_log_likelihood(table, lambda codes: np.log(np.array([0.25, 0.75])[codes[:, 0]]), 10), 4)
    -1.674
    """
    values = marginal_log_probability(table.codes, table.cards, log_probability, max_completions, "nan")
    return float(np.nansum(values * table.counts))


def e_step_seed(seed: int | None) -> int:
    """The seed of the draws of every E-step of an EM fitted with ``seed``: each E-step draws with the same numbers.

    Raises
    ------
    TypeError, ValueError
        If ``seed`` is not None or an integer >= 0.

    Examples
    --------
    >>> e_step_seed(0) == e_step_seed(0), e_step_seed(0) == e_step_seed(1)
    (True, False)
    >>> e_step_seed(-1)
    Traceback (most recent call last):
        ...
    ValueError: seed must be an integer >= 0. Got: -1
    """
    return int(random_generator(seed).integers(2**63))


def parameter_em(table: IncompleteTable, fit: Callable[[CompletedTable], Callable], options: EMOptions,
                 seed: int | None = 0) -> pd.DataFrame:  # fmt: skip
    """EM for the parameters of a fixed structure; ``fit(completed)`` fits them and returns the row log-probability.

    Starts from ``fit`` on the complete cases when there are at least
    :data:`MIN_COMPLETE_CASES` of them (and twice the variables), else from the Chow-Liu tree
    of the pairwise available cases
    (:func:`~pgmpy_sgm.core.tree_start.chow_liu_log_probability`: 5-6 iterations instead of 8
    from independent variables on child with 20% of cells missing, to the same
    log-likelihood); then alternates the E-step
    (:func:`complete_rows`) and ``fit`` until the observed-data log-likelihood (over the rows
    completed exactly) rises by less than ``options.threshold`` of it. The E-steps are first
    *capped* (each row keeps at most ``options.max_kept`` completions, the rest of its
    posterior carried by ``options.n_tail_draws`` draws; ``options.tail_mass`` is for
    structural EM only), which makes the early iterations cheap on rows with many
    completions; once they settle (or at the last iteration), the E-steps keep every
    completion until EM settles again. When no row was capped, the first phase was exact
    and EM stops there. With maximum-likelihood fits an exact iteration never lowers the
    observed-data log-likelihood. Every E-step draws with the same random numbers.

    When the row log-probability that ``fit`` returns declares its scopes (the package's
    models do), ``fit`` is taken to read only the counts of those scopes (a model's families
    or cliques), and the exact E-steps couple each row's independent parts
    (``coupled_scopes`` of :func:`complete_rows`): the same expected counts of those scopes,
    so the same fit, in a table that grows with the sum of the parts' completions instead of
    their product.

    Returns
    -------
    pandas.DataFrame
        One row per iteration: ``log_likelihood``, ``gain`` (NaN at the first iteration from
        the tree, which is not one of the model's fits) and ``e_step`` (``"capped"`` when
        the E-step capped a row, else ``"exact"``); ``attrs["start"]`` names the start.

    Examples
    --------
    >>> table = IncompleteTable.from_frame(pd.DataFrame({"a": [0, 0, 1, None]}))
    >>> def fit(completed):  # maximum likelihood of one variable
    ...     p = np.bincount(completed.frame["a"], weights=completed.counts, minlength=2) / completed.counts.sum()
    ...     return lambda codes: np.log(p[codes[:, 0]])
    >>> history = parameter_em(table, fit, EMOptions(tol=1e-9, rtol=0))
    >>> round(float(history["log_likelihood"].iloc[-1]), 4)  # 3 log(2/3) + log(1/3)
    -1.9095
    """
    if table.enough_complete_cases():
        log_probability, start = fit(table.complete_cases()), "complete cases"
        fit_scopes = scopes_of(log_probability)
        before = observed_log_likelihood(table, log_probability, options.max_completions)
    else:  # the tree is not one of the model's fits, so the first iteration has no gain over it
        log_probability, start = chow_liu_log_probability(table.codes, table.counts, table.cards), TREE_START
        fit_scopes, before = None, math.nan
    draw_seed = e_step_seed(seed)
    cache: dict = {}  # the rows' parts, the same while the scopes are
    history = []
    e_step = "exact" if options.max_kept is None else "capped"
    for iteration in range(1, options.max_iter + 1):
        if iteration == options.max_iter:
            e_step = "exact"  # the fit returned always comes from an exact E-step
        cap = (options.max_kept, options.n_tail_draws) if e_step == "capped" else (None, 0)
        coupled = fit_scopes if e_step == "exact" else None  # the fit reads only its model's scopes
        completed = complete_rows(table, log_probability, options.max_completions, options.n_draws, draw_seed, 0.0,
                                  *cap, coupled_scopes=coupled, cache=cache)  # fmt: skip
        log_probability = fit(completed)
        fit_scopes = scopes_of(log_probability)
        after = observed_log_likelihood(table, log_probability, options.max_completions)
        label = "capped" if completed.n_capped > 0 else "exact"  # a capped E-step that capped no row was exact
        history.append({"iteration": iteration, "log_likelihood": after, "gain": after - before, "e_step": label})
        settled, before = after - before < options.threshold(after), after
        if settled and (e_step == "exact" or completed.n_capped == 0):
            break
        if settled:
            e_step = "exact"
    frame = pd.DataFrame(history).set_index("iteration")
    frame.attrs["start"] = start
    return frame
