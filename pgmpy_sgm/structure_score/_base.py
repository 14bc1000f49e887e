"""What the package's structure scores share: pgmpy's local-score cache, kept picklable."""

from __future__ import annotations

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

    def _init_local_score_cache(self) -> None:
        self._cached_local_score = lru_cache(maxsize=LOCAL_SCORE_CACHE_SIZE)(self._local_score)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_cached_local_score", None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._init_local_score_cache()
