"""Small value types of stratified graphs: CSI statements and a clique's labels seen from its center."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ContextSpecificIndependence", "CliqueLabels"]


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

    def __str__(self) -> str:
        given = ", ".join(f"{w}={s}" for w, s in self.context)
        return f"{self.u} ⟂ {self.v} | {given}"


@dataclass(frozen=True)
class CliqueLabels:
    """The labels of one clique seen from its center, as groups of parent configurations.

    ``group_ids[i]`` is the group of the ``i``-th configuration of ``parents`` (C order,
    the last parent fastest); ``center`` is None for an unlabelled clique.

    Examples
    --------
    >>> from pgmpy_sgm.models import StratifiedGraph
    >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
    >>> sg.clique_labels()[0]
    CliqueLabels(clique=(1, 2, 3), center=3, parents=(1, 2), group_ids=(0, 1, 2, 2))
    """

    clique: tuple
    center: object = None
    parents: tuple = ()
    group_ids: tuple | None = None
