"""Decomposable graphs as bitmasks, with local edge toggles and an exact incremental score.

============== ==================================================================
term           meaning
============== ==================================================================
node           a variable, by its column index ``0 .. d-1`` in the data
set mask       a set of nodes as an integer bitmask (bit ``i`` = node ``i``)
pair index     the position of the pair ``i < j`` in :attr:`ScoreEngine.pairs <pgmpy_sgm.core.engine.ScoreEngine.pairs>`
key            a graph as an integer bitmask over pair indices (its edges)
toggle         adding a missing edge or removing an existing one
============== ==================================================================

A toggle of ``{u, v}`` in a chordal graph ``G`` is decided locally, with
``CN = N(u) ∩ N(v)`` and ``K = CN ∪ {u, v}``:

* removing the edge keeps ``G`` chordal iff ``CN`` is complete (the edge then lies in
  exactly one maximal clique, ``K``);
* adding it keeps ``G`` chordal iff ``u`` and ``v`` are disconnected in ``G - CN``
  (``K`` is then the only maximal clique of the new graph holding the edge).

The test for an added edge never walks more than a neighbourhood. With ``CN`` empty, ``u``
and ``v`` must lie in different components (kept per node as a set mask and updated by the
toggles that join or split components: a removed edge with no common neighbours is a
bridge). With ``CN`` not empty, every node of a shortest ``u``–``v`` path in ``G - CN`` is
adjacent to every ``c`` in ``CN`` (the cycle the path closes through ``c`` can only be
triangulated by chords from ``c``), so the search is confined to the nodes adjacent to all
of ``CN``: within a neighbourhood of one node, whatever the size of the component.

The log unnormalized posterior of the graph with its optimal strata is

    ``sum_C D(C) - sum_S D(S) + sum_C gain(C, forbidden(C)) + (d - f(G)) log 2``

(:mod:`pgmpy_sgm.core.engine`, whose terms and labelling caches every state shares). The plain part is kept as a signed
multiset of set masks; a toggle changes it by ``±([K\\u] + [K\\v] - [K] - [CN])``.
Only cliques sharing two or more nodes with ``K`` can change their forbidden pairs and
so their labelling gain. The score is the correctly rounded sum of the multiset's values
(:func:`math.fsum`; a state keeps the exact sum as an integer, :func:`exact_value`, so a
toggle adds only the values it changes), so the score of a graph is one exact function of
the graph, whatever path reached it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from pgmpy_sgm.core.engine import LOG2, ScoreEngine, iter_bits
from pgmpy_sgm.core.graph_masks import adjacent_to_all, chordal_families, component_masks, reach

__all__ = [
    "DecomposableState", "Move", "iter_bits", "chordal_families", "component_masks", "exact_value", "key_from_edges",
    "LOG2", "EXACT_BITS", "EXACT_ONE",
]  # fmt: skip


#: Every finite float is an integer multiple of ``2 ** -EXACT_BITS``.
EXACT_BITS = 1074
#: The number 1 as :func:`exact_value` gives it: ``exact_total / EXACT_ONE`` is the correctly rounded sum.
EXACT_ONE = 1 << EXACT_BITS


def exact_value(x: float) -> int:
    """The float ``x`` as the integer ``x * 2 ** EXACT_BITS`` (exact: sums of these are exact).

    A state keeps the sum of its score's values this way, so a proposal adds only the values it
    changes; ``total / 2 ** EXACT_BITS`` is then the correctly rounded sum, the value
    :func:`math.fsum` gives for the whole list.

    Examples
    --------
    >>> import math
    >>> values = [1e16, 1.0, -1e16, 0.1]
    >>> sum(map(exact_value, values)) / 2**EXACT_BITS == math.fsum(values) == 1.1
    True
    """
    num, den = x.as_integer_ratio()
    return num << (EXACT_BITS + 1 - den.bit_length())


class Move:
    """A decomposable toggle with everything needed to score and commit it.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> move = DecomposableState(engine).propose(0, 1)
    >>> move.add, move.removed, move.added
    (True, (2, 1), [3])
    """

    __slots__ = ("i", "j", "add", "removed", "added", "dterms", "counts", "gains", "f", "score", "total")

    def __init__(self, i, j, add, removed, added, dterms, counts, gains, f, score, total=None):
        self.i, self.j, self.add = i, j, add
        self.removed, self.added, self.dterms = removed, added, dterms
        self.counts, self.gains, self.f, self.score = counts, gains, f, score
        self.total = total  # the exact sum of the values after the move (exact_value), if known


class DecomposableState:
    """A chordal graph over the data's variables with its cliques and exact score.

    Parameters
    ----------
    engine : ScoreEngine
        The score terms and caches (shared with the ``SGMScore`` it came from, if any).
    key : int, default=0
        The edges as a bitmask over pair indices (0 = the empty graph).
    strata : bool, default=True
        Score each graph with its optimal strata (False: ordinary decomposable models).

    Raises
    ------
    ValueError
        If the graph is not chordal.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> state = DecomposableState(engine)
    >>> move = state.propose(0, 3)  # add smoking - systolic_bp
    >>> state.commit(move)
    >>> state.key == 1 << engine.pair_index[0][3], round(state.score - move.score, 12)
    (True, 0.0)
    """

    def __init__(self, engine: ScoreEngine, key: int = 0, strata: bool = True):
        self.engine = engine
        self.strata = bool(strata)
        n = engine.n
        adj = [0] * n
        for p in iter_bits(key):
            i, j = engine.pairs[p]
            adj[i] |= 1 << j
            adj[j] |= 1 << i
        families = chordal_families(adj)
        if families is None:
            raise ValueError("The graph is not decomposable (chordal).")
        self.adj = adj
        self.key = key
        self._component = component_masks(adj)
        terms: dict[int, int] = {}
        for v, earlier in families:
            terms[earlier | 1 << v] = terms.get(earlier | 1 << v, 0) + 1
            if earlier:
                terms[earlier] = terms.get(earlier, 0) - 1
        self.terms = {m: c for m, c in terms.items() if c}
        self.f = sum(c * engine.size_term(m) for m, c in self.terms.items())
        fams = sorted((earlier | 1 << v for v, earlier in families), key=int.bit_count, reverse=True)
        cliques: list[int] = []
        holding: dict[int, list[int]] = {}  # the maximal cliques found so far holding each node
        for m in fams:  # a family inside another lies inside a larger maximal clique, found before it
            low = (m & -m).bit_length() - 1
            if not any(m & c == m for c in holding.get(low, ())):
                cliques.append(m)
                for v in iter_bits(m):
                    holding.setdefault(v, []).append(m)
        # how many maximal cliques hold each pair (pairs of no clique are absent: linear in the graph)
        self.count: dict[int, int] = {}
        if self.strata:
            count = self.count
            for c in cliques:
                for p in engine.clique_pairs(c):
                    count[p] = count.get(p, 0) + 1
        self.gains = {c: (engine.local_gain(c, self._local_forbidden(c, {})) if self.strata else 0.0) for c in cliques}
        # the maximal cliques holding each node: a toggle looks only at cliques near it
        self._node_cliques: list[set[int]] = [set() for _ in range(n)]
        for c in cliques:
            for v in iter_bits(c):
                self._node_cliques[v].add(c)
        self._own_cliques = set(range(n))  # nodes whose set above no copy shares (copy-on-write)
        self._rebuild_values()
        self._total = sum(map(exact_value, self._values))
        self.score = math.fsum(self._values + [self._prior(self.f)])

    def copy(self) -> DecomposableState:
        """An independent copy of this state (same graph, score and caches; cheaper than building it again).

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> state = DecomposableState(engine, key_from_edges(engine, [(0, 1)]))
        >>> twin = state.copy()
        >>> twin.commit(twin.propose(1, 2))
        >>> state.edges(), twin.edges(), twin.score == DecomposableState(engine, twin.key).score
        ([(0, 1)], [(0, 1), (1, 2)], True)
        """
        new = object.__new__(DecomposableState)
        new.engine, new.strata, new.key, new.f, new.score = self.engine, self.strata, self.key, self.f, self.score
        new.adj = list(self.adj)
        new._component = list(self._component)
        new.terms = dict(self.terms)
        new.count = dict(self.count)
        new.gains = dict(self.gains)
        new._node_cliques = list(self._node_cliques)  # the sets are shared until either state changes one
        new._own_cliques = set()
        self._own_cliques = set()  # the original now shares its sets too, so it copies them before writing
        new._values = list(self._values)
        new._total = self._total
        return new

    # -- helpers -----------------------------------------------------------------
    def _prior(self, f: int) -> float:
        return self.engine.log_prior(f)

    def _local_forbidden(self, clique: int, delta: dict) -> int:
        """A clique's pairs held by more than one maximal clique once ``delta`` is added to the counts.

        As bits over the clique's own pairs (:meth:`ScoreEngine.local_forbidden`).
        """
        count = self.count
        local = 0
        for k, p in enumerate(self.engine.clique_pairs(clique)):
            if count.get(p, 0) + delta.get(p, 0) > 1:
                local |= 1 << k
        return local

    def _rebuild_values(self) -> None:
        values = []
        d = self.engine.set_term
        for m, c in self.terms.items():
            x = d(m)
            values.extend([x] * c if c > 0 else [-x] * -c)
        values.extend(g for g in self.gains.values() if g)
        self._values = values

    @property
    def tables(self) -> ScoreEngine:
        """The engine (an older name of :attr:`engine`).

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> DecomposableState(engine).tables is engine
        True
        """
        return self.engine

    @property
    def exact_total(self) -> int:
        """The exact sum of the score's values without the prior, as :func:`exact_value` gives it.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> state = DecomposableState(engine, key_from_edges(engine, [(0, 1)]))
        >>> state.exact_total / EXACT_ONE == state.log_marginal_likelihood
        True
        """
        return self._total

    @property
    def log_marginal_likelihood(self) -> float:
        """The score without the structure prior, ``log p(X | G_L)``.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> state = DecomposableState(engine, key_from_edges(engine, [(0, 1)]))
        >>> round(state.score - state.log_marginal_likelihood, 6) == round(engine.log_prior(state.f), 6)
        True
        """
        return math.fsum(self._values)

    def forbidden(self, clique: int) -> int:
        """Pair-index mask of the edges of a maximal clique that lie in a separator (in another clique).

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> state = DecomposableState(engine, key_from_edges(engine, [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]))
        >>> state.forbidden(0b0111) == 1 << engine.pair_index[1][2]
        True
        """
        if self.strata:
            local = self._local_forbidden(clique, {})
            return sum(1 << p for k, p in enumerate(self.engine.clique_pairs(clique)) if local >> k & 1)
        shared = 0
        for other in self.gains:
            if other != clique and (other & clique).bit_count() >= 2:
                for p in self.engine.clique_pairs(other & clique):
                    shared |= 1 << p
        return shared

    @property
    def cliques(self) -> list[int]:
        """Maximal cliques as set masks (isolated nodes are cliques).

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> sorted(DecomposableState(engine, key_from_edges(engine, [(0, 1)])).cliques)
        [3, 4, 8, 16, 32]
        """
        return list(self.gains)

    def has_edge(self, i: int, j: int) -> bool:
        """Whether nodes ``i`` and ``j`` are adjacent.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> DecomposableState(engine, key_from_edges(engine, [(0, 1)])).has_edge(1, 0)
        True
        """
        return bool(self.adj[i] >> j & 1)

    # -- moves ------------------------------------------------------------------
    def propose(self, i: int, j: int) -> Move | None:
        """Toggle ``{i, j}``: the scored move, or None if the result is not chordal.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> path = DecomposableState(engine, key_from_edges(engine, [(0, 1), (1, 2), (2, 3)]))
        >>> path.propose(0, 3) is None  # would close a chordless 4-cycle
        True
        >>> path.propose(0, 2) is not None
        True
        """
        adj = self.adj
        bi, bj = 1 << i, 1 << j
        cn = adj[i] & adj[j]
        k = cn | bi | bj
        ku, kv = k ^ bi, k ^ bj
        if adj[i] & bj:
            added = self._cliques_after_removal(cn, ku, kv, bi, bj)
            if added is None:
                return None
            removed, add, sign = (k,), False, 1
        else:
            if not self._addition_keeps_chordal(i, j, cn):
                return None
            gains = self.gains
            removed = tuple(a for a in (ku, kv) if a in gains)
            added, add, sign = [k], True, -1
        dterms = ((ku, sign), (kv, sign), (k, -sign), (cn, -sign))
        engine = self.engine
        extra = []
        f = self.f
        for mask, c in dterms:
            if mask:
                x = engine.set_term(mask)
                extra.append(x if c > 0 else -x)
                f += c * engine.size_term(mask)
        counts: dict = {}
        new_gains: dict = {}
        if self.strata:
            self._label_changes(k, removed, added, counts, new_gains, extra)
        else:
            for a in added:
                new_gains[a] = 0.0
        # the exact sum of the values plus the changed ones, correctly rounded: fsum(values + extra + [prior])
        total = sum(map(exact_value, extra), self._total)
        score = (total + exact_value(self._prior(f))) / EXACT_ONE
        return Move(i, j, add, removed, added, dterms, counts, new_gains, f, score, total)

    def _cliques_after_removal(self, cn: int, ku: int, kv: int, bi: int, bj: int) -> list | None:
        """Removing the edge: None unless the common neighbours ``cn`` form a clique; else the new cliques.

        ``ku`` and ``kv`` (the clique ``cn + {i, j}`` without ``i``, without ``j``) are new
        cliques unless a node outside them is adjacent to all of them.
        """
        adj = self.adj
        m = cn
        while m:
            low = m & -m
            if (adj[low.bit_length() - 1] | low) & cn != cn:
                return None
            m ^= low
        added = []
        for a, excluded in ((ku, bi), (kv, bj)):
            if not adjacent_to_all(adj, a) & ~(a | excluded):
                added.append(a)
        return added

    def _addition_keeps_chordal(self, i: int, j: int, cn: int) -> bool:
        """Adding the edge keeps the graph chordal: ``i`` and ``j`` apart once their common neighbours are left out.

        Without common neighbours: whether they lie in different components; with them: a
        search from ``i`` through the nodes adjacent to all of ``cn`` (module notes).
        """
        bj = 1 << j
        if not cn:
            return not self._component[i] & bj
        allowed = adjacent_to_all(self.adj, cn) & ~cn
        return not reach(self.adj, i, allowed) & bj

    def _label_changes(self, k: int, removed: tuple, added: list, counts: dict, new_gains: dict,
                       extra: list) -> None:  # fmt: skip
        """The labels' side of a move: pair counts, new gains of the cliques it touches, their changes in ``extra``."""
        engine, gains = self.engine, self.gains
        for r in removed:
            for p in engine.clique_pairs(r):
                counts[p] = counts.get(p, 0) - 1
            if gains[r]:
                extra.append(-gains[r])
        for a in added:
            for p in engine.clique_pairs(a):
                counts[p] = counts.get(p, 0) + 1
        low_size, high_size = 3, engine.max_labelled_clique
        node_cliques = self._node_cliques
        near = set()
        m = k
        while m:
            low = m & -m
            near |= node_cliques[low.bit_length() - 1]
            m ^= low
        for c in near:  # the order does not matter: the score is an exact sum
            g = gains[c]
            if (c & k).bit_count() >= 2 and c not in removed and low_size <= c.bit_count() <= high_size:
                g_new = engine.local_gain(c, self._local_forbidden(c, counts))
                if g_new != g:
                    new_gains[c] = g_new
                    if g:
                        extra.append(-g)
                    if g_new:
                        extra.append(g_new)
        for a in added:
            g_new = engine.local_gain(a, self._local_forbidden(a, counts))
            new_gains[a] = g_new
            if g_new:
                extra.append(g_new)

    def commit(self, move: Move) -> None:
        """Apply a move returned by :meth:`propose` on this very state.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> state = DecomposableState(engine)
        >>> state.commit(state.propose(0, 1))
        >>> state.edges()
        [(0, 1)]
        """
        i, j = move.i, move.j
        adj = self.adj
        bridge = not adj[i] & adj[j]  # no common neighbours: the toggle joins or splits components
        adj[i] ^= 1 << j
        adj[j] ^= 1 << i
        if bridge:
            self._update_components(i, j, move.add)
        self.key ^= 1 << self.engine.pair_index[i][j]
        terms, values, set_term = self.terms, self._values, self.engine.set_term
        for mask, c in move.dterms:  # the values change with the terms: one copy of +-D(mask) in or out
            if mask:
                old = terms.get(mask, 0)
                value = old + c
                if value:
                    terms[mask] = value
                else:
                    del terms[mask]
                x = set_term(mask)
                if old * c < 0:
                    values.remove(x if old > 0 else -x)
                else:
                    values.append(x if c > 0 else -x)
        count = self.count
        for p, c in move.counts.items():
            value = count.get(p, 0) + c
            if value:
                count[p] = value
            else:
                del count[p]
        gains = self.gains
        for r in move.removed:
            g = gains.pop(r)
            if g:
                values.remove(g)
            for v in iter_bits(r):
                self._cliques_of(v).discard(r)
        for a in move.added:
            for v in iter_bits(a):
                self._cliques_of(v).add(a)
        for c, g in move.gains.items():
            old = gains.get(c)
            if old:
                values.remove(old)
            if g:
                values.append(g)
            gains[c] = g
        self.f = move.f
        self.score = move.score
        self._total = sum(map(exact_value, values)) if move.total is None else move.total

    def _cliques_of(self, v: int) -> set[int]:
        """The maximal cliques holding node ``v``, as a set this state alone holds (copied first if shared)."""
        if v not in self._own_cliques:
            self._node_cliques[v] = set(self._node_cliques[v])
            self._own_cliques.add(v)
        return self._node_cliques[v]

    def _update_components(self, i: int, j: int, joined: bool) -> None:
        """Component masks after the bridge ``{i, j}`` was added (``joined``) or removed."""
        components = self._component
        old = components[i] | components[j]
        parts = (old,) if joined else (reach(self.adj, i, old), reach(self.adj, j, old))
        for mask in parts:
            for v in iter_bits(mask):
                components[v] = mask

    def edges(self) -> list[tuple[int, int]]:
        """Edges as index pairs ``(i, j)``, ``i < j``.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
        >>> DecomposableState(engine, key_from_edges(engine, [(3, 1)])).edges()
        [(1, 3)]
        """
        pairs = self.engine.pairs
        return [pairs[p] for p in iter_bits(self.key)]


def key_from_edges(engine: ScoreEngine, edges: Iterable[tuple[int, int]]) -> int:
    """The key of a graph given by index pairs.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> key_from_edges(engine, [(1, 0)])
    1
    """
    return engine.pairs_key(edges)
