"""What the package's structure scores share: pgmpy's local-score cache, kept picklable."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

__all__ = ["LocalScoreCache", "LOCAL_SCORE_CACHE_SIZE"]

#: Family terms kept per score instance (as pgmpy's own scores do).
LOCAL_SCORE_CACHE_SIZE = 100_000


class LocalScoreCache:
    """Mixin for a pgmpy ``BaseStructureScore``: the per-instance ``lru_cache`` of ``_local_score``.

    The cache wrapper cannot be pickled, so it is dropped when pickling and rebuilt after
    unpickling (scores travel to joblib workers).

    Examples
    --------
    >>> import pickle
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> score = SGMScore(load_heart_disease(as_counts=True), weights="count")
    >>> copy = pickle.loads(pickle.dumps(score))
    >>> copy.local_score("smoking", ("systolic_bp",)) == score.local_score("smoking", ("systolic_bp",))
    True
    """

    def __sklearn_clone__(self):
        """The score itself: a score is bound to its data and does not change, so a copy is not needed.

        A learner given a score instance (``scoring_method=``) can then be copied by
        ``sklearn.base.clone``, as in grid searches, without copying the data.

        Examples
        --------
        >>> from sklearn.base import clone
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> score = SGMScore(load_heart_disease())
        >>> clone(score) is score
        True
        """
        return self

    def _init_local_score_cache(self) -> None:
        self._cached_local_score = lru_cache(maxsize=LOCAL_SCORE_CACHE_SIZE)(self._checked_local_score)

    def local_score(self, variable, parents) -> float:
        """The family term of ``variable`` given ``parents`` (a tuple of column names), cached.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> score = SGMScore(load_heart_disease(as_counts=True), weights="count")
        >>> score.local_score("smoking", ["systolic_bp"]) == score.local_score("smoking", ("systolic_bp",))
        True
        >>> score.local_score("smoking", "systolic_bp")
        Traceback (most recent call last):
            ...
        TypeError: parents must be a tuple of column names, not the string 'systolic_bp'
        """
        try:
            return self._cached_local_score(variable, parents)
        except TypeError:  # unhashable arguments (a list of parents): check them, then take them as a tuple
            self._check_family(variable, parents if isinstance(parents, str | bytes) else list(parents)
                               if isinstance(parents, Iterable) else parents)
            return self._cached_local_score(variable, tuple(parents))

    def _checked_local_score(self, variable, parents) -> float:
        self._check_family(variable, parents)
        return self._local_score(variable, tuple(parents))

    def _check_family(self, variable, parents) -> None:
        """Refuse, naming them, parents that are a string, unknown columns, or the variable itself."""
        if type(parents) is not tuple:  # a tuple, as the searches pass them, needs neither check
            if isinstance(parents, str | bytes):
                raise TypeError(f"parents must be a tuple of column names, not the string {parents!r}")
            if not isinstance(parents, Iterable):
                raise TypeError(f"parents must be a tuple of column names. Got: {parents!r}")
        columns = self.encoded.cardinality
        unknown = [v for v in (variable, *parents) if not _known(v, columns)]
        if unknown:
            raise ValueError(f"{unknown} are not columns of the data {list(columns)}")
        if variable in parents:
            raise ValueError(f"Variable {variable!r} cannot be its own parent")

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_cached_local_score", None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._init_local_score_cache()


def _known(value, columns: dict) -> bool:
    """Whether ``value`` is a key of ``columns`` (an unhashable value is not)."""
    try:
        return value in columns
    except TypeError:
        return False
