"""Greedy equivalence search (GES) over CPDAGs under a decomposable, score-equivalent local score.

The search of Chickering (2002): a forward phase inserts edges and a backward phase deletes
them, each step taking the best valid operator of the current equivalence class (its CPDAG),
and each operator's change of score computed from two family terms. Over equivalence
classes the greedy search does not commit to an edge's direction when it adds the edge,
which is how a hill climb over DAGs gets trapped (an edge added early in the wrong direction,
then compensated by extra parents).

Nodes are ``0 .. d - 1`` and node sets are bit masks (Python integers). A PDAG is held as
three lists of masks: directed parents ``pa``, directed children ``ch`` and undirected
neighbours ``ne``. Operators are evaluated from the cached local scores first and checked for
validity only in order of their gain, so the cost per step is a few set operations per pair
of nodes plus the family terms not seen before.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pgmpy_sgm.core.bitsets import iter_bits

__all__ = ["EquivalenceSearchResult", "greedy_equivalence_search", "cpdag_of_dag", "dag_extension"]

#: Largest number of conditioning sets (``T`` of an insertion, ``H`` of a deletion) tried per
#: ordered pair in one step; beyond it the smallest sets are tried first and the rest skipped.
MAX_SUBSETS_PER_PAIR = 256


def _adjacency(pa: list[int], ch: list[int], ne: list[int]) -> list[int]:
    return [p | c | n for p, c, n in zip(pa, ch, ne, strict=True)]


def _is_clique(adj: list[int], nodes: int) -> bool:
    for v in iter_bits(nodes):
        if (nodes & ~(1 << v)) & ~adj[v]:
            return False
    return True


def _orient(pa: list[int], ch: list[int], ne: list[int], a: int, b: int) -> None:
    """Turn the undirected edge ``a - b`` into ``a -> b`` (in place)."""
    ne[a] &= ~(1 << b)
    ne[b] &= ~(1 << a)
    pa[b] |= 1 << a
    ch[a] |= 1 << b


def _semidirected_path(ch, ne, start: int, goal: int, blocked: int) -> bool:
    """Whether a path from ``start`` to ``goal`` along undirected edges and edges pointing away
    from ``start`` avoids every node in ``blocked``."""
    seen = (1 << start) | blocked
    frontier = 1 << start
    while frontier:
        reach = 0
        for u in iter_bits(frontier):
            reach |= ch[u] | ne[u]
        if reach & (1 << goal):
            return True
        frontier = reach & ~seen
        seen |= frontier
    return False


def _cliques_within(adj: list[int], candidates: int, limit: int) -> list[int]:
    """Subsets of ``candidates`` that are cliques (the empty set first), at most ``limit``, smallest first."""
    out = [0]
    layer = [0]
    while layer and len(out) < limit:
        nxt = []
        for subset in layer:
            top = subset.bit_length()  # extend with larger nodes only: every subset once
            for v in iter_bits(candidates >> top << top):
                if subset & ~adj[v]:
                    continue
                nxt.append(subset | (1 << v))
                if len(out) + len(nxt) >= limit:
                    break
            if len(out) + len(nxt) >= limit:
                break
        out.extend(nxt)
        layer = nxt
    return out[:limit]


def _subsets(mask: int, limit: int) -> list[int]:
    """Subsets of ``mask`` by increasing size, at most ``limit``."""
    members = list(iter_bits(mask))
    out = [0]
    layer = [(0, 0)]  # (subset, index of the next member that may be added)
    while layer and len(out) < limit:
        nxt = []
        for subset, start in layer:
            for i in range(start, len(members)):
                nxt.append((subset | (1 << members[i]), i + 1))
        out.extend(s for s, _ in nxt)
        layer = nxt
    return out[:limit]


def dag_extension(pa: list[int], ch: list[int], ne: list[int]) -> list[int]:
    """Parent masks of a DAG that extends a PDAG (Dor & Tarsi, 1992).

    Repeatedly removes a node that has no directed child left and whose undirected
    neighbours are adjacent to all its other neighbours, orienting its undirected edges
    towards it. The last such node (in column order) is taken, so the extension is
    deterministic and, where the class leaves it free, points edges from earlier columns
    to later ones.

    Parameters
    ----------
    pa, ch, ne : list of int
        Directed parents, directed children and undirected neighbours of each node (bit masks).

    Returns
    -------
    list of int
        Parent mask of every node in the extension.

    Raises
    ------
    ValueError
        If the PDAG has no consistent extension.

    Examples
    --------
    >>> dag_extension([0, 0], [0, 0], [0b10, 0b01])  # 0 - 1 becomes 0 -> 1
    [0, 1]
    """
    d = len(pa)
    adj = _adjacency(pa, ch, ne)
    parents = list(pa)
    remaining = (1 << d) - 1

    def removable(x: int) -> bool:
        if ch[x] & remaining:
            return False
        around = (pa[x] | ne[x]) & remaining
        return all(not (around & ~(1 << y)) & ~adj[y] for y in iter_bits(ne[x] & remaining))

    # a removable node stays removable as others are removed: keep them in a heap, largest first
    ready = [-x for x in range(d) if removable(x)]
    heapq.heapify(ready)
    queued = {-x for x in ready}
    while remaining:
        if not ready:
            raise ValueError("The partially directed graph has no consistent DAG extension.")
        x = -heapq.heappop(ready)
        parents[x] |= ne[x] & remaining
        remaining &= ~(1 << x)
        for y in iter_bits(adj[x] & remaining):
            if y not in queued and removable(y):
                heapq.heappush(ready, -y)
                queued.add(y)
    return parents


def cpdag_of_dag(parents: list[int]) -> tuple[list[int], list[int], list[int]]:
    """The CPDAG (essential graph) of a DAG: its v-structures closed under Meek's rules 1-3.

    Parameters
    ----------
    parents : list of int
        Parent mask of every node.

    Returns
    -------
    tuple of three lists of int
        Directed parents, directed children and undirected neighbours of every node.

    Examples
    --------
    >>> pa, ch, ne = cpdag_of_dag([0, 0, 0b011])  # the v-structure 0 -> 2 <- 1
    >>> pa, ne
    ([0, 0, 3], [0, 0, 0])
    >>> cpdag_of_dag([0, 0b001, 0b010])[2]  # the chain 0 -> 1 -> 2 is undirected
    [2, 5, 2]
    """
    d = len(parents)
    children = [0] * d
    for y in range(d):
        for x in iter_bits(parents[y]):
            children[x] |= 1 << y
    adj = [parents[v] | children[v] for v in range(d)]
    pa, ch, ne = [0] * d, [0] * d, [0] * d
    for y in range(d):
        for x in iter_bits(parents[y]):
            if (parents[y] & ~(1 << x)) & ~adj[x]:  # x -> y <- z with x, z not adjacent
                pa[y] |= 1 << x
                ch[x] |= 1 << y
            else:
                ne[y] |= 1 << x
                ne[x] |= 1 << y

    changed = True
    while changed:
        changed = False
        for b in range(d):
            for c in list(iter_bits(ne[b])):
                if not ne[b] >> c & 1:
                    continue
                # rule 1: a -> b - c, a and c not adjacent
                if pa[b] & ~adj[c] & ~(1 << c):
                    _orient(pa, ch, ne, b, c)
                    changed = True
                    continue
                # rule 2: b -> a -> c and b - c
                if ch[b] & pa[c]:
                    _orient(pa, ch, ne, b, c)
                    changed = True
                    continue
                # rule 3: b - a1 -> c, b - a2 -> c, b - c, a1 and a2 not adjacent
                both = ne[b] & pa[c]
                if any(both & ~adj[a1] & ~(1 << a1) for a1 in iter_bits(both)):
                    _orient(pa, ch, ne, b, c)
                    changed = True
    return pa, ch, ne


def _insertions_into(y, pa, ne, adj, candidates, gain_of, max_indegree, min_improvement) -> list[tuple]:
    """Insert operators ``x -> y`` (``x`` among ``candidates``) with a gain above ``min_improvement``
    whose clique condition holds, as ``(-gain, y, x, T, NA(y, x))`` tuples, sorted.

    The path condition is left to the caller, which checks it in order of gain.
    """
    out = []
    for x in iter_bits(candidates & ~adj[y] & ~(1 << y)):
        na = ne[y] & adj[x]
        if not _is_clique(adj, na):
            continue
        # T must be a clique joined to all of NA: grow cliques among such neighbours
        joined = 0
        for t in iter_bits(ne[y] & ~adj[x] & ~(1 << x)):
            if not na & ~adj[t]:
                joined |= 1 << t
        for subset in _cliques_within(adj, joined, MAX_SUBSETS_PER_PAIR):
            base = pa[y] | na | subset
            if max_indegree is not None and bin(base).count("1") + 1 > max_indegree:
                continue
            gain = gain_of(y, base, base | (1 << x))
            if gain > min_improvement:
                out.append((-gain, y, x, subset, na))
    out.sort()
    return out


class _OperatorCache:
    """Operators per node, kept under a key of what they read and recomputed only when that key changes.

    A subclass gives :meth:`key` (everything the operators at a node read) and :meth:`compute`.
    """

    def __init__(self):
        self.kept: dict[int, tuple] = {}

    def key(self, y, pa, ne, adj) -> tuple:
        raise NotImplementedError

    def compute(self, y, pa, ne, adj) -> list[tuple]:
        raise NotImplementedError

    def operators(self, pa, ch, ne) -> list[list[tuple]]:
        """The operators at every node, one list per node."""
        adj = _adjacency(pa, ch, ne)
        out = []
        for y in range(len(pa)):
            key = self.key(y, pa, ne, adj)
            hit = self.kept.get(y)
            if hit is None or hit[0] != key:
                hit = self.kept[y] = (key, self.compute(y, pa, ne, adj))
            out.append(hit[1])
        return out


class _InsertionCache(_OperatorCache):
    """Insert operators per target node (sorted lists, for ``heapq.merge``).

    The operators into ``y`` read ``y``'s parents, neighbours and adjacency, the adjacency
    among ``y``'s undirected neighbours and, for each candidate ``x``, which of those
    neighbours are adjacent to ``x``.
    """

    def __init__(self, candidates: list[int], gain_of, max_indegree, min_improvement):
        super().__init__()
        self.candidates, self.gain_of = candidates, gain_of
        self.max_indegree, self.min_improvement = max_indegree, min_improvement

    def key(self, y, pa, ne, adj) -> tuple:
        around = ne[y]
        key = (pa[y], around, adj[y])
        if around:
            key += (tuple(adj[t] & around for t in iter_bits(around)),
                    tuple(adj[x] & around for x in iter_bits(self.candidates[y] & ~adj[y])))  # fmt: skip
        return key

    def compute(self, y, pa, ne, adj) -> list[tuple]:
        return _insertions_into(y, pa, ne, adj, self.candidates[y], self.gain_of, self.max_indegree,
                                self.min_improvement)  # fmt: skip


class _DeletionCache(_OperatorCache):
    """Delete operators of the edges at each node, as ``(-gain, y, x, H)``.

    The operators at ``y`` read ``y``'s parents and undirected neighbours, and which of those
    neighbours each parent or neighbour ``x`` is adjacent to (so the adjacency among the
    neighbours too).
    """

    def __init__(self, gain_of, min_improvement):
        super().__init__()
        self.gain_of, self.min_improvement = gain_of, min_improvement

    def key(self, y, pa, ne, adj) -> tuple:
        around = ne[y]
        if not around:
            return (pa[y], around)
        return (pa[y], around, tuple(adj[x] & around for x in iter_bits(pa[y] | around)))

    def compute(self, y, pa, ne, adj) -> list[tuple]:
        out = []
        for x in iter_bits(pa[y] | ne[y]):
            na = ne[y] & adj[x]
            for subset in _subsets(na, MAX_SUBSETS_PER_PAIR):
                kept = na & ~subset
                if not _is_clique(adj, kept):
                    continue
                base = (pa[y] | kept) & ~(1 << x)
                gain = -self.gain_of(y, base, base | (1 << x))
                if gain > self.min_improvement:
                    out.append((-gain, y, x, subset))
        return out


@dataclass
class EquivalenceSearchResult:
    """Outcome of :func:`greedy_equivalence_search`.

    Attributes
    ----------
    parents : list of int
        Parent masks of a DAG in the equivalence class found.
    score : float
        Sum of its local scores.
    n_inserts, n_deletes : int
        Operators applied in the forward and backward phases.
    n_evaluated : int
        Operators whose change of score was computed.
    steps : list of tuple
        ``(kind, x, y, subset, gain)`` for every operator applied, in order.

    Examples
    --------
    >>> EquivalenceSearchResult([0, 1], -3.0, 1, 0, 2).score
    -3.0
    """

    parents: list[int]
    score: float
    n_inserts: int
    n_deletes: int
    n_evaluated: int
    steps: list = field(default_factory=list)


def _insert(pa: list, ch: list, ne: list, x: int, y: int, subset: int) -> tuple[list, list, list]:
    """Chickering's ``Insert(x, y, T)`` (``T = subset``) on a CPDAG; the CPDAG of the result."""
    pa[y] |= 1 << x
    ch[x] |= 1 << y
    for t in iter_bits(subset):
        _orient(pa, ch, ne, t, y)
    return cpdag_of_dag(dag_extension(pa, ch, ne))


def _delete(pa: list, ch: list, ne: list, x: int, y: int, subset: int) -> tuple[list, list, list]:
    """Chickering's ``Delete(x, y, H)`` (``H = subset``) on a CPDAG; the CPDAG of the result."""
    for a, b in ((x, y), (y, x)):
        pa[b] &= ~(1 << a)
        ch[a] &= ~(1 << b)
        ne[a] &= ~(1 << b)
    for h in iter_bits(subset):
        _orient(pa, ch, ne, y, h)
        if ne[x] >> h & 1:
            _orient(pa, ch, ne, x, h)
    return cpdag_of_dag(dag_extension(pa, ch, ne))


def greedy_equivalence_search(
    local_score: Callable[[int, int], float],
    n_nodes: int,
    max_indegree: int | None = None,
    min_improvement: float = 1e-9,
    candidates: list[int] | None = None,
    deadline: float | None = None,
    on_step: Callable[[tuple], None] | None = None,
) -> EquivalenceSearchResult:
    """Greedy equivalence search from the empty graph: insertions, then deletions.

    Each step applies the operator of largest gain among the valid ones (Chickering 2002,
    theorems 15 and 17): ``Insert(x, y, T)`` adds ``x -> y`` and orients ``t -> y`` for ``t``
    in ``T`` (undirected neighbours of ``y`` not adjacent to ``x``), valid when
    ``NA(y, x) | T`` is a clique and blocks every semi-directed path from ``y`` to ``x``;
    ``Delete(x, y, H)`` removes the edge and orients ``y -> h`` (and ``x -> h``) for ``h`` in
    ``H`` (common neighbours), valid when ``NA(y, x) - H`` is a clique. Here ``NA(y, x)`` is
    the set of undirected neighbours of ``y`` adjacent to ``x``. After every operator the
    graph is brought back to its CPDAG. Ties go to the smallest ``(y, x)``, then the
    smallest set.

    Parameters
    ----------
    local_score : callable
        ``local_score(node, parent_mask)``, a score-equivalent family term (for example
        BDeu); called once per distinct family.
    n_nodes : int
    max_indegree : int, optional
        Insertions whose new family (``y``'s parents, ``NA(y, x) | T`` and ``x``) has more
        parents than this are skipped.
    min_improvement : float, default=1e-9
        Smallest gain of an applied operator.
    candidates : list of int, optional
        Mask of the nodes each node may be joined to by an insertion (``x`` in
        ``candidates[y]`` allows ``Insert(x, y, T)``); None: every pair.
    deadline : float, optional
        A ``time.time()`` value after which no further operator is applied (the
        phase under way ends; the deletions still run if the insertions were cut short, as
        they only remove edges the data do not support).
    on_step : callable, optional
        Called with each applied operator's ``(kind, x, y, subset, gain)`` (as in
        ``steps``), for progress reports on wide data.

    Returns
    -------
    EquivalenceSearchResult

    Examples
    --------
    >>> # a score that rewards the edges 0 - 2 and 1 - 2 but not 0 - 1
    >>> gain = {0b001: 5.0, 0b010: 5.0, 0b011: 12.0}
    >>> res = greedy_equivalence_search(lambda y, m: gain.get(m, 0.0) if y == 2 else (-1.0 if m else 0.0), 3)
    >>> res.parents  # the v-structure 0 -> 2 <- 1
    [0, 0, 3]
    >>> seen = []
    >>> _ = greedy_equivalence_search(lambda y, m: gain.get(m, 0.0) if y == 2 else (-1.0 if m else 0.0), 3,
    ...                               on_step=seen.append)
    >>> [(kind, x, y) for kind, x, y, _, _ in seen]
    [('insert', 0, 2), ('insert', 1, 2)]
    """
    d = n_nodes
    cache: dict[tuple[int, int], float] = {}

    def family(y: int, mask: int) -> float:
        key = (y, mask)
        value = cache.get(key)
        if value is None:
            value = cache[key] = float(local_score(y, mask))
        return value

    pa, ch, ne = [0] * d, [0] * d, [0] * d
    steps: list = []

    evaluated = [0]

    def gain_of(y: int, without: int, with_x: int) -> float:
        evaluated[0] += 1
        return family(y, with_x) - family(y, without)

    everyone = [((1 << d) - 1) & ~(1 << y) for y in range(d)]
    insertions = _InsertionCache(everyone if candidates is None else candidates, gain_of, max_indegree,
                                 min_improvement)  # fmt: skip
    while deadline is None or time.time() < deadline:  # forward phase
        for neg_gain, y, x, subset, na in heapq.merge(*insertions.operators(pa, ch, ne)):
            if not _semidirected_path(ch, ne, y, x, na | subset):
                pa, ch, ne = _insert(pa, ch, ne, x, y, subset)
                steps.append(("insert", x, y, subset, -neg_gain))
                if on_step is not None:
                    on_step(steps[-1])
                break
        else:
            break
    n_inserts = len(steps)

    deletions = _DeletionCache(gain_of, min_improvement)
    while deadline is None or time.time() < deadline:  # backward phase
        best = min(itertools.chain.from_iterable(deletions.operators(pa, ch, ne)), default=None)
        if best is None:
            break
        neg_gain, y, x, subset = best
        pa, ch, ne = _delete(pa, ch, ne, x, y, subset)
        steps.append(("delete", x, y, subset, -neg_gain))
        if on_step is not None:
            on_step(steps[-1])

    parents = dag_extension(pa, ch, ne)
    total = sum(family(v, parents[v]) for v in range(d))
    return EquivalenceSearchResult(parents, total, n_inserts, len(steps) - n_inserts, evaluated[0], steps)
