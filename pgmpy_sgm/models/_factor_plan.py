"""The plan of a stratified graphical model's parameters: one step per clique along a perfect ordering.

A decomposable graph factorizes along any rooted junction tree: visiting the cliques
parent-before-child, clique ``C`` with separator ``S`` (its intersection with its parent
clique, equivalently with all earlier cliques) contributes ``P(X_{C \\ S} | X_S)``. The
*new* variables ``C \\ S`` are ordered so that a labelled clique's center comes last
whenever the center is new; the center's conditional given ``C \\ {center}`` is then the
grouped table of the stratified graph, and the rest of the clique is an ordinary
conditional table. When the center lies in ``S`` (another clique already holds it), the
clique's conditional is a full table and its strata are *not shown* by the parameters.

========= =====================================================================
term      meaning
========= =====================================================================
step      one clique in the perfect ordering, a :class:`CliqueFactor`
separator ``C`` intersected with the earlier cliques (empty for a root)
new       ``C \\ separator``, node order, the shown center moved last
table     ``P(new' | separator)`` with ``new' = new`` minus the shown center;
          axes ``separator + new'`` (C order), each separator slice sums to 1
groups    the center's parent configurations (C order over ``parents``) and
          ``group_values[:, g] = P(center | group g)``
========= =====================================================================
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

import numpy as np

from pgmpy_sgm.core.decomposition import junction_tree_edges
from pgmpy_sgm.core.labelling import CliqueLabelling, groups_from_contexts
from pgmpy_sgm.core.unionfind import DisjointSets

__all__ = ["CliqueFactor", "plan_factors", "cell_count"]


def cell_count(cards) -> int:
    """Number of cells of a table with these cardinalities (Python int, no overflow).

    Examples
    --------
    >>> cell_count([2, 3, 4])
    24
    """
    out = 1
    for k in cards:
        out *= int(k)
    return out


@dataclass(frozen=True, eq=False)
class CliqueFactor:
    """One clique of the perfect ordering with its parameters.

    Attributes
    ----------
    clique : tuple
        The clique, in node order.
    separator : tuple
        Its intersection with the earlier cliques, in node order.
    new : tuple
        ``clique \\ separator``; node order with the shown ``center`` moved last.
    center : hashable or None
        The center whose grouped conditional is shown (None: no labels, or not shown).
    parents : tuple
        ``clique \\ {center}`` in clique order (the C order of ``group_ids``); () without center.
    group_ids : tuple of int or None
        Group of every configuration of ``parents``.
    table : numpy.ndarray or None
        ``P(new' | separator)`` over axes ``separator + new'`` (``new'`` = ``new`` without the center).
    group_values : numpy.ndarray or None
        Shape ``(k_center, n_groups)``; column ``g`` is ``P(center | group g)``.
    labelled_center : hashable or None
        The clique's center in the stratified graph (set even when it is not shown).

    Examples
    --------
    >>> from pgmpy_sgm.models import StratifiedGraph
    >>> sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]})
    >>> step = plan_factors(sg)[0]
    >>> step.new, step.center, step.parents, step.group_ids
    (('a', 'b', 'c'), 'c', ('a', 'b'), (0, 1, 2, 2))
    """

    clique: tuple
    separator: tuple
    new: tuple
    center: object = None
    parents: tuple = ()
    group_ids: tuple | None = None
    table: np.ndarray | None = None
    group_values: np.ndarray | None = None
    labelled_center: object = None

    @property
    def table_variables(self) -> tuple:
        """Axes of :attr:`table`: ``separator`` then the new variables other than the center."""
        return self.separator + tuple(w for w in self.new if w != self.center)

    def with_values(self, table, group_values=None) -> CliqueFactor:
        """A copy carrying the given (read-only) arrays."""
        table = np.array(table, dtype=np.float64)
        table.setflags(write=False)
        if group_values is not None:
            group_values = np.array(group_values, dtype=np.float64)
            group_values.setflags(write=False)
        return replace(self, table=table, group_values=group_values)

    def same_structure(self, other: CliqueFactor) -> bool:
        """Whether both describe the same step (ignoring the arrays)."""
        fields = ("clique", "separator", "new", "center", "parents", "group_ids", "labelled_center")
        return all(getattr(self, f) == getattr(other, f) for f in fields)


def _center_options(sg, cl, strata) -> list[CliqueLabelling]:
    """Labellings of a labelled clique by each possible center: both ends of a single labelled edge."""
    options = [cl]
    edges = [e for e in strata if set(e) <= set(cl.clique)]
    if len(edges) == 1:
        (a, b) = edges[0]
        other = a if b == cl.center else b
        parents = tuple(w for w in cl.clique if w != other)
        states = {w: sg.states(w) for w in parents}
        groups = groups_from_contexts(parents, {cl.center: strata[edges[0]]}, states)
        options.append(CliqueLabelling(other, groups, clique=cl.clique))
    return options


def _components(cliques) -> list[list[int]]:
    sets = DisjointSets(len(cliques))
    owner = {}
    for i, clique in enumerate(cliques):
        for v in clique:
            if v in owner:
                sets.union(owner[v], i)
            else:
                owner[v] = i
    return sets.components()


def _junction_tree(cliques, members) -> dict[int, list[int]]:
    """Adjacency of a junction tree (grown from the first member) of one component's cliques."""
    adj = {i: [] for i in members}
    for a, b in junction_tree_edges([cliques[i] for i in members]):
        adj[members[a]].append(members[b])
        adj[members[b]].append(members[a])
    for i in adj:
        adj[i].sort()
    return adj


def _rooted(adj, root) -> list[tuple[int, int | None]]:
    """Breadth-first (clique, parent) pairs from ``root``, children in clique order."""
    out = [(root, None)]
    seen = {root}
    queue = deque([root])
    while queue:
        i = queue.popleft()
        for j in adj[i]:
            if j not in seen:
                seen.add(j)
                out.append((j, i))
                queue.append(j)
    return out


def plan_factors(sg) -> list[CliqueFactor]:
    """The perfect ordering and per-clique layout (no arrays) used to parameterize ``sg``.

    For every connected component the junction tree is rooted at the clique that
    minimises the number of labelled cliques whose center lies in their separator
    (ties: the earliest clique of :attr:`StratifiedGraph.cliques`); a clique with a
    single labelled edge may use either end as its center, whichever is new.

    Examples
    --------
    >>> from pgmpy_sgm.models import StratifiedGraph
    >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3), (3, 4)])
    >>> [(s.clique, s.separator, s.new) for s in plan_factors(sg)]
    [((1, 2, 3), (), (1, 2, 3)), ((3, 4), (3,), (4,))]
    """
    labels = sg.clique_labels()
    strata = sg.strata
    cliques = [cl.clique for cl in labels]
    options = [_center_options(sg, cl, strata) if cl.center is not None else [] for cl in labels]
    steps: list[CliqueFactor] = []
    for members in _components(cliques):
        adj = _junction_tree(cliques, members)

        def hidden(i, parent):
            if not options[i] or parent is None:
                return 0
            sep = set(cliques[i]) & set(cliques[parent])
            return int(all(option.center in sep for option in options[i]))

        best_root = min(members, key=lambda r: (sum(hidden(i, p) for i, p in _rooted(adj, r)), r))
        for i, p in _rooted(adj, best_root):
            clique = cliques[i]
            sep_set = set(clique) & set(cliques[p]) if p is not None else set()
            separator = tuple(w for w in clique if w in sep_set)
            new = [w for w in clique if w not in sep_set]
            chosen = next((option for option in options[i] if option.center not in sep_set), None)
            labelled = labels[i].center
            if chosen is None:
                steps.append(CliqueFactor(clique, separator, tuple(new), labelled_center=labelled))
                continue
            center, parents, groups = chosen.center, chosen.parents, chosen.group_ids
            new = [w for w in new if w != center] + [center]
            steps.append(CliqueFactor(clique, separator, tuple(new), center, parents, groups, labelled_center=center))
    return steps
