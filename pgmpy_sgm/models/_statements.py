"""Context-specific independence statements of stratified graphs."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ContextSpecificIndependence"]


@dataclass(frozen=True)
class ContextSpecificIndependence:
    """The statement ``u ⟂ v | context`` carried by one label.

    Examples
    --------
    >>> str(ContextSpecificIndependence("systolic_bp", "lipoprotein_ratio", (("smoking", 0),)))
    'systolic_bp ⟂ lipoprotein_ratio | smoking=0'
    """

    u: object
    v: object
    context: tuple

    def __post_init__(self):
        pairs = self.context
        if not isinstance(pairs, tuple) or not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
            raise TypeError(f"context must be a tuple of (variable, state) pairs. Got: {pairs!r}")

    def __str__(self) -> str:
        given = ", ".join(f"{w}={s}" for w, s in self.context)
        return f"{self.u} ⟂ {self.v} | {given}"
