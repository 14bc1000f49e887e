"""Checks of a stratified graph: strata on free edges over the right contexts, one center per clique, regularity."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import numpy as np

from pgmpy_sgm.core.labelling import CliqueLabelling
from pgmpy_sgm.core.lines import leak_directions

__all__ = ["check_strata", "check_centers", "check_regular", "check_group_ids"]


def check_strata(graph, counts: Mapping) -> None:
    """Refuse a stratum of ``graph`` on an edge in a separator (``counts``: the cliques of every edge), over
    other variables than the edge's common neighbours, with an unknown state, or holding every context.

    Examples
    --------
    >>> from pgmpy_sgm.core.decomposition import decompose, edge_clique_counts
    >>> from pgmpy_sgm.models import StratifiedGraph
    >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 0}]})
    >>> check_strata(sg, edge_clique_counts(decompose(sg)[0]))
    >>> sg.add_label(2, 3, {1: 1})
    >>> check_strata(sg, edge_clique_counts(decompose(sg)[0]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: The stratum of edge (2, 3) is the whole outcome space of [1]: that removes the edge; ...
    """
    for (u, v), contexts in graph.strata.items():
        if counts[frozenset((u, v))] > 1:
            raise ValueError(
                f"Edge ({u!r}, {v!r}) lies in a separator (it is shared by {counts[frozenset((u, v))]} cliques); "
                "labels are only allowed on free edges."
            )
        shared = graph.common_neighbours(u, v)
        if not shared:
            raise ValueError(f"Edge ({u!r}, {v!r}) has no common neighbours, so it cannot carry a stratum.")
        for context in contexts:
            if set(context) != set(shared):
                raise ValueError(
                    f"Edge ({u!r}, {v!r}) has the context {context} over {sorted(context, key=str)}; a context "
                    f"must give exactly the common neighbours {shared}."
                )
            for w, state in context.items():
                if state not in graph.states(w):
                    raise ValueError(
                        f"Edge ({u!r}, {v!r}) has a label with state {state!r} of {w!r}, "
                        f"which has states {graph.states(w)}."
                    )
        size = int(np.prod([len(graph.states(w)) for w in shared]))
        if len(contexts) >= size:
            raise ValueError(
                f"The stratum of edge ({u!r}, {v!r}) is the whole outcome space of {shared}: "
                "that removes the edge; delete the edge instead (regularity)."
            )


def check_centers(cliques: Iterable[tuple], strata: Mapping) -> None:
    """Refuse a clique whose labelled edges (the keys of ``strata``) share no node.

    Examples
    --------
    >>> check_centers([(1, 2, 3, 4)], {(1, 2): [{3: 0, 4: 0}], (3, 4): [{1: 0, 2: 0}]})
    Traceback (most recent call last):
        ...
    ValueError: In clique (1, 2, 3, 4), the labelled edges [(1, 2), (3, 4)] share no node (no center).
    """
    labelled = {frozenset(e) for e in strata}
    for clique in cliques:
        edges = [e for e in labelled if e <= set(clique)]
        if edges and not frozenset.intersection(*edges):
            names = sorted(tuple(sorted(e, key=str)) for e in edges)
            raise ValueError(f"In clique {clique}, the labelled edges {names} share no node (no center).")


def check_regular(labellings: Iterable[CliqueLabelling], states: Callable) -> None:
    """Refuse a clique labelling whose closure labels an edge to its center in every context
    (``states(w)``: the states of ``w``).

    Examples
    --------
    >>> lab = CliqueLabelling(3, (0, 0, 0, 0), clique=(1, 2, 3))
    >>> check_regular([lab], lambda w: (0, 1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: The labels of clique (1, 2, 3) imply (by closure) a label on edge (1, 3) in every context ...
    """
    for cl in labellings:
        if cl.center is None:
            continue
        cards = tuple(len(states(w)) for w in cl.parents)
        for parent, leaks in zip(cl.parents, leak_directions(cards, np.asarray(cl.group_ids)), strict=True):
            if not leaks:
                raise ValueError(
                    f"The labels of clique {cl.clique} imply (by closure) a label on edge ({parent!r}, "
                    f"{cl.center!r}) in every context of its common neighbours: that removes the edge; delete "
                    "the edge instead (regularity)."
                )


def check_group_ids(group_ids, parents: tuple, states: Callable) -> None:
    """Refuse ``group_ids`` unless they hold one non-negative integer per configuration of ``parents``.

    Examples
    --------
    >>> check_group_ids([0, 1, 1], (1, 2), lambda w: (0, 1))
    Traceback (most recent call last):
        ...
    ValueError: group_ids must hold 4 non-negative integer group ids, one per configuration of [1, 2]. Got: [0, 1, 1]
    """
    size = int(np.prod([len(states(w)) for w in parents]))
    ids = np.asarray(group_ids)
    if ids.shape != (size,) or not np.issubdtype(ids.dtype, np.integer) or (ids < 0).any():
        raise ValueError(f"group_ids must hold {size} non-negative integer group ids, one per configuration "
                         f"of {list(parents)}. Got: {group_ids!r}")
