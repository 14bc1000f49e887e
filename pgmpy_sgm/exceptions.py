"""Warnings of pgmpy-sgm shared by several modules."""

from __future__ import annotations

__all__ = ["StrataNotShownWarning"]


class StrataNotShownWarning(UserWarning):
    """Some strata cannot be shown by the parameters (a center lies in its clique's separator).

    The affected strata are listed in the model's ``strata_not_shown``.

    Examples
    --------
    >>> issubclass(StrataNotShownWarning, UserWarning)
    True
    """
