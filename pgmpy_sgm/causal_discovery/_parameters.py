"""The learners' parameter constraints, declared once as a table and checked by one function.

Each learner lists ``_parameter_constraints = {name: constraint}``; :func:`check_parameters`
checks every entry and raises the package's one-line error naming the parameter, what it
accepts and the value given. A wrong *kind* of value (a string where a bool is expected)
raises ``TypeError`` where the constraint says so, otherwise ``ValueError``. Checks that
involve two parameters (``n_iter=None`` needs ``max_time``) stay in the learner.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

__all__ = [
    "Constraint",
    "check_parameters",
    "integer",
    "number",
    "boolean",
    "one_of",
    "seconds",
    "seed",
    "n_jobs",
    "state_names",
    "path_or_none",
    "DEPRECATED",
    "given_legacy",
]

#: Default of a deprecated keyword: the keyword was not given (scikit-learn's convention).
DEPRECATED = "deprecated"


@dataclass(frozen=True)
class Constraint:
    """What a parameter accepts: a test, its description for the error, and the error's type.

    Examples
    --------
    >>> positive = Constraint("a positive number", lambda v: isinstance(v, Real) and v > 0)
    >>> positive.accepts(2.5), positive.accepts(-1)
    (True, False)
    """

    description: str
    accepts: Callable[[object], bool]
    error: type[Exception] = ValueError


def _is_integer(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool | np.bool_)


def _is_real(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool | np.bool_)


def integer(low: int, none_ok: bool = False) -> Constraint:
    """An integer of at least ``low`` (or None).

    Examples
    --------
    >>> integer(1).description, integer(0, none_ok=True).accepts(None), integer(1).accepts(True)
    ('an integer >= 1', True, False)
    """
    return Constraint(f"an integer >= {low}{' or None' if none_ok else ''}",
                      lambda v: (none_ok and v is None) or (_is_integer(v) and v >= low))  # fmt: skip


def number(low: float = 0.0, strict: bool = True, high: float | None = None, none_ok: bool = False) -> Constraint:
    """A finite real number above ``low`` (or at least it, when ``strict`` is False), at most ``high``.

    Examples
    --------
    >>> number(0.0, strict=False).description, number(0.0).accepts(0.0), number(0.0).accepts(float("inf"))
    ('a non-negative number', False, False)
    >>> number(0.0, high=1.0).description, number(0.0, high=1.0).accepts(1.0)
    ('a number in (0, 1]', True)
    """
    if high is not None:
        description = f"a number in {'(' if strict else '['}{low:g}, {high:g}]"
    elif low == 0:
        description = "a positive number" if strict else "a non-negative number"
    else:
        description = f"a number {'>' if strict else '>='} {low:g}"

    def accepts(value) -> bool:
        if none_ok and value is None:
            return True
        if not _is_real(value) or not math.isfinite(value):
            return False
        above = value > low if strict else value >= low
        return above and (high is None or value <= high)

    return Constraint(description + (" or None" if none_ok else ""), accepts)


def boolean() -> Constraint:
    """True or False (numpy's bools too); anything else is a ``TypeError``.

    Examples
    --------
    >>> boolean().accepts(np.True_), boolean().accepts(1)
    (True, False)
    """
    return Constraint("a bool", lambda v: isinstance(v, bool | np.bool_), TypeError)


def one_of(*values) -> Constraint:
    """One of the given values (strings compared exactly).

    Examples
    --------
    >>> one_of("paper", "uniform").description
    "one of ('paper', 'uniform')"
    """
    return Constraint(f"one of {values}", lambda v: isinstance(v, str | Real | None) and v in values)


def seconds(none_ok: bool = True) -> Constraint:
    """A positive, finite number of seconds (or None: no limit).

    Examples
    --------
    >>> seconds().description
    'a positive number of seconds or None'
    >>> seconds().accepts(float("inf"))
    False
    """
    return Constraint(f"a positive number of seconds{' or None' if none_ok else ''}",
                      lambda v: (none_ok and v is None) or (_is_real(v) and 0 < v < math.inf))  # fmt: skip


def seed() -> Constraint:
    """A seed: an integer >= 0, or None for fresh entropy.

    Examples
    --------
    >>> seed().accepts(None), seed().accepts(-1)
    (True, False)
    """
    return integer(0, none_ok=True)


def n_jobs() -> Constraint:
    """joblib's ``n_jobs``: a non-zero integer (negative counts back from the CPUs) or None.

    Examples
    --------
    >>> n_jobs().accepts(-1), n_jobs().accepts(0), n_jobs().accepts(None)
    (True, False, True)
    """
    return Constraint("a non-zero integer (negative: CPUs + 1 + n_jobs) or None",
                      lambda v: v is None or (_is_integer(v) and v != 0))  # fmt: skip


def state_names() -> Constraint:
    """``{variable: [states]}`` or None; anything else is a ``TypeError``.

    Examples
    --------
    >>> state_names().accepts({"a": [0, 1]}), state_names().accepts([0, 1])
    (True, False)
    """
    return Constraint("a dict {variable: [states]} or None", lambda v: v is None or isinstance(v, Mapping), TypeError)


def path_or_none() -> Constraint:
    """A file path (``str`` or ``os.PathLike``) or None; anything else is a ``TypeError``.

    Examples
    --------
    >>> path_or_none().accepts("run.json"), path_or_none().accepts(3)
    (True, False)
    """
    return Constraint("a file path or None", lambda v: v is None or isinstance(v, str | os.PathLike), TypeError)


def check_parameters(estimator, constraints: Mapping[str, Constraint]) -> None:
    """Check each of ``estimator``'s parameters named in ``constraints``; a one-line error names the first bad one.

    Examples
    --------
    >>> class Learner:
    ...     n_chains, strata = 0, True
    >>> check_parameters(Learner(), {"n_chains": integer(1), "strata": boolean()})
    Traceback (most recent call last):
        ...
    ValueError: n_chains must be an integer >= 1. Got: 0
    """
    for name, constraint in constraints.items():
        value = getattr(estimator, name)
        if not constraint.accepts(value):
            raise constraint.error(f"{name} must be {constraint.description}. Got: {value!r}")


def given_legacy(estimator, names) -> dict:
    """The deprecated keywords among ``names`` that ``estimator`` was given (their default is :data:`DEPRECATED`).

    Examples
    --------
    >>> class Learner:
    ...     resume, checkpoint_every = True, DEPRECATED
    >>> given_legacy(Learner(), ["resume", "checkpoint_every"])
    {'resume': True}
    """
    out = {}
    for name in names:
        value = getattr(estimator, name)
        if not (isinstance(value, str) and value == DEPRECATED):
            out[name] = value
    return out
