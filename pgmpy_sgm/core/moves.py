"""Decomposable graphs as bitmasks, with local edge toggles and an exact incremental score.

============== ==================================================================
term           meaning
============== ==================================================================
node           a variable, by its column index ``0 .. d-1`` in the data
set mask       a set of nodes as an integer bitmask (bit ``i`` = node ``i``)
pair index     the position of the pair ``i < j`` in :attr:`ScoreTables.pairs`
key            a graph as an integer bitmask over pair indices (its edges)
toggle         adding a missing edge or removing an existing one
============== ==================================================================

A toggle of ``{u, v}`` in a chordal graph ``G`` is decided locally, with
``CN = N(u) ∩ N(v)`` and ``K = CN ∪ {u, v}``:

* removing the edge keeps ``G`` chordal iff ``CN`` is complete (the edge then lies in
  exactly one maximal clique, ``K``);
* adding it keeps ``G`` chordal iff ``u`` and ``v`` are disconnected in ``G - CN``
  (``K`` is then the only maximal clique of the new graph holding the edge).

The log unnormalized posterior of the graph with its optimal strata is

    ``sum_C D(C) - sum_S D(S) + sum_C gain(C, forbidden(C)) + (d - f(G)) log 2``

(:class:`~pgmpy_sgm.structure_score.SGMScore`). The plain part is kept as a signed
multiset of set masks; a toggle changes it by ``±([K\\u] + [K\\v] - [K] - [CN])``.
Only cliques sharing two or more nodes with ``K`` can change their forbidden pairs and
so their labelling gain. Scores are summed with :func:`math.fsum` over the multiset,
so the score of a graph is one exact function of the graph, whatever path reached it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

__all__ = ["ScoreTables", "DecomposableState", "Move", "iter_bits", "chordal_families", "key_from_edges", "LOG2"]

LOG2 = math.log(2.0)


def iter_bits(mask: int):
    """The nodes of a set mask, in increasing order.

    Examples
    --------
    >>> list(iter_bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def chordal_families(adj: list[int]) -> list[tuple[int, int]] | None:
    """Families ``(v, earlier neighbours of v)`` of a maximum cardinality search, or None.

    The search order reversed is a perfect elimination order when the graph is chordal;
    the earlier neighbours of each node then form a clique (Tarjan & Yannakakis, 1984).
    Returns None when the graph is not chordal.

    Examples
    --------
    >>> chordal_families([0b110, 0b101, 0b011])  # a triangle
    [(0, 0), (1, 1), (2, 3)]
    >>> chordal_families([0b1010, 0b0101, 0b1010, 0b0101]) is None  # a 4-cycle
    True
    """
    n = len(adj)
    numbered = 0
    order_pos = [-1] * n
    weight = [0] * n
    families = []
    for step in range(n):
        best, best_w = -1, -1
        for v in range(n):
            if order_pos[v] < 0 and weight[v] > best_w:
                best, best_w = v, weight[v]
        v = best
        earlier = adj[v] & numbered
        if earlier:
            # the most recently numbered earlier neighbour must be adjacent to the others
            last = max(iter_bits(earlier), key=order_pos.__getitem__)
            rest = earlier & ~(1 << last)
            if rest & ~adj[last]:
                return None
        families.append((v, earlier))
        order_pos[v] = step
        numbered |= 1 << v
        for w in iter_bits(adj[v] & ~numbered):
            weight[w] += 1
    return families


class ScoreTables:
    """Cached terms of one data set, keyed by set masks: ``D(A)``, ``|X_A| - 1`` and clique gains.

    Parameters
    ----------
    scorer : SGMScore
        The score; node ``i`` is ``scorer.variables[i]``.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
    >>> tables.n, tables.pairs[:2], tables.size_term(0b11)
    (6, [(0, 1), (0, 2)], 3)
    """

    def __init__(self, scorer):
        self.scorer = scorer
        self.variables = list(scorer.variables)
        self.n = len(self.variables)
        self.cards = [int(scorer.encoded.cardinality[v]) for v in self.variables]
        self.prior_weight = LOG2 if scorer.prior == "paper" else 0.0
        self.max_labelled = int(scorer.max_labelled_clique)
        self.pairs = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        self.pair_index = [[-1] * self.n for _ in range(self.n)]
        for p, (i, j) in enumerate(self.pairs):
            self.pair_index[i][j] = self.pair_index[j][i] = p
        self._d: dict[int, float] = {0: 0.0}
        self._size: dict[int, int] = {0: 0}
        self._clique_pairs: dict[int, tuple[int, ...]] = {}
        self._labellings: dict[tuple[int, int], object] = {}
        self._center_cache: dict[tuple, tuple] = {}
        self._center_base: dict[tuple, float] = {}
        self._fresh: list[tuple] = []

    def set_term(self, mask: int) -> float:
        """``D(A)`` of a set mask (0 for the empty set).

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm import SGMScore
        >>> round(ScoreTables(SGMScore(pd.DataFrame({"a": [0, 1]}))).set_term(0b1), 6)
        -1.791759
        """
        value = self._d.get(mask)
        if value is None:
            value = self.scorer.set_term([self.variables[i] for i in iter_bits(mask)])
            self._d[mask] = value
        return value

    def size_term(self, mask: int) -> int:
        """``|X_A| - 1``, the free parameters of a saturated table over ``A``.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm import SGMScore
        >>> ScoreTables(SGMScore(pd.DataFrame({"a": [0, 1, 2], "b": [0, 1, 1]}))).size_term(0b11)
        5
        """
        value = self._size.get(mask)
        if value is None:
            value = math.prod(self.cards[i] for i in iter_bits(mask)) - 1
            self._size[mask] = value
        return value

    def clique_pairs(self, mask: int) -> tuple[int, ...]:
        """Pair indices of all pairs inside a set mask.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm import SGMScore
        >>> ScoreTables(SGMScore(pd.DataFrame({"a": [0, 1], "b": [0, 1], "c": [1, 0]}))).clique_pairs(0b111)
        (0, 1, 2)
        """
        value = self._clique_pairs.get(mask)
        if value is None:
            nodes = list(iter_bits(mask))
            index = self.pair_index
            value = tuple(index[a][b] for k, a in enumerate(nodes) for b in nodes[k + 1 :])
            self._clique_pairs[mask] = value
        return value

    def labelling(self, clique: int, forbidden: int):
        """Best labelling of a clique given the pair-index mask of its forbidden (separator) edges.

        Returns a :class:`~pgmpy_sgm.core.optimize.CliqueLabelling` equal to
        ``SGMScore.best_clique_labelling`` (``center`` indexes the clique's nodes in
        increasing order). The optimum for each center depends only on the forbidden
        pairs at that center, so it is cached per ``(clique, center, forbidden directions)``.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
        >>> best = tables.labelling(0b11001, 1 << tables.pair_index[0][4])  # smoking, systolic_bp, lipoprotein
        >>> best.center, best.group_ids.tolist()
        (1, [0, 0, 1, 0])
        """
        key = (clique, forbidden)
        value = self._labellings.get(key)
        if value is None:
            value = self._best_labelling(clique, forbidden)
            self._labellings[key] = value
        return value

    def _best_labelling(self, clique: int, forbidden: int):
        from pgmpy_sgm.core.optimize import CliqueLabelling, combine_centers

        nodes = list(iter_bits(clique))
        if len(nodes) < 3 or len(nodes) > self.max_labelled:
            return CliqueLabelling(center=None, group_ids=None, gain=0.0, exact=True, method="unlabelled")
        candidates = []
        for center, c in enumerate(nodes):
            flags = tuple(bool(forbidden >> self.pair_index[c][u] & 1) for u in nodes if u != c)
            res, base = self._center_groups(clique, center, flags)
            candidates.append((center, res, res.value - base))
        return combine_centers(candidates)

    def _center_groups(self, clique: int, center: int, flags: tuple):
        from pgmpy_sgm.core.lines import group_weights
        from pgmpy_sgm.core.optimize import optimal_groups

        cache = self._center_cache
        key = (clique, center, flags)
        hit = cache.get(key)
        if hit is None:
            nodes = list(iter_bits(clique))
            arr = self.scorer.encoded.counts(tuple(self.variables[i] for i in nodes))
            counts2d = np.moveaxis(np.asarray(arr, dtype=np.float64), center, -1).reshape(-1, arr.shape[center])
            cards = tuple(arr.shape[u] for u in range(len(nodes)) if u != center)
            res = optimal_groups(counts2d, cards, list(flags), method="auto", seed=0)
            base = self._center_base.get((clique, center))
            if base is None:
                base = group_weights(counts2d, np.arange(counts2d.shape[0]))
                self._center_base[(clique, center)] = base
            hit = cache[key] = (res, base)
            self._fresh.append(key)
        return hit

    def take_fresh(self) -> dict:
        """Per-center optima computed since the last call (to share with other processes).

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
        >>> _ = tables.gain(0b111, 0)
        >>> len(tables.take_fresh()), len(tables.take_fresh())  # one entry per center
        (3, 0)
        """
        out = {key: self._center_cache[key] for key in self._fresh}
        self._fresh = []
        return out

    def absorb(self, entries: dict) -> None:
        """Add per-center optima computed elsewhere (same data) to the cache.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> data = load_heart_disease(as_counts=True)
        >>> first, second = (ScoreTables(SGMScore(data, weights="count")) for _ in range(2))
        >>> _ = first.gain(0b111, 0)
        >>> second.absorb(first.take_fresh())
        >>> second.gain(0b111, 0) == first.gain(0b111, 0) and second.take_fresh() == {}
        True
        """
        for key, value in entries.items():
            self._center_cache.setdefault(key, value)

    def gain(self, clique: int, forbidden: int) -> float:
        """Gain of the best labelling over the unlabelled clique (0 for cliques that cannot be labelled).

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
        >>> tables.gain(0b11, 0)  # two variables: nothing to label
        0.0
        """
        size = clique.bit_count()
        if size < 3 or size > self.max_labelled:
            return 0.0
        return self.labelling(clique, forbidden).gain


class Move:
    """A decomposable toggle with everything needed to score and commit it.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
    >>> move = DecomposableState(tables).propose(0, 1)
    >>> move.add, move.removed, move.added
    (True, (2, 1), [3])
    """

    __slots__ = ("i", "j", "add", "removed", "added", "dterms", "counts", "gains", "f", "score")

    def __init__(self, i, j, add, removed, added, dterms, counts, gains, f, score):
        self.i, self.j, self.add = i, j, add
        self.removed, self.added, self.dterms = removed, added, dterms
        self.counts, self.gains, self.f, self.score = counts, gains, f, score


class DecomposableState:
    """A chordal graph over the data's variables with its cliques and exact score.

    Parameters
    ----------
    tables : ScoreTables
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
    >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
    >>> state = DecomposableState(tables)
    >>> move = state.propose(0, 3)  # add smoking - systolic_bp
    >>> state.commit(move)
    >>> state.key == 1 << tables.pair_index[0][3], round(state.score - move.score, 12)
    (True, 0.0)
    """

    def __init__(self, tables: ScoreTables, key: int = 0, strata: bool = True):
        self.tables = tables
        self.strata = bool(strata)
        n = tables.n
        adj = [0] * n
        for p in iter_bits(key):
            i, j = tables.pairs[p]
            adj[i] |= 1 << j
            adj[j] |= 1 << i
        families = chordal_families(adj)
        if families is None:
            raise ValueError("The graph is not decomposable (chordal).")
        self.adj = adj
        self.key = key
        terms: dict[int, int] = {}
        for v, earlier in families:
            terms[earlier | 1 << v] = terms.get(earlier | 1 << v, 0) + 1
            if earlier:
                terms[earlier] = terms.get(earlier, 0) - 1
        self.terms = {m: c for m, c in terms.items() if c}
        self.f = sum(c * tables.size_term(m) for m, c in self.terms.items())
        fams = sorted((earlier | 1 << v for v, earlier in families), key=int.bit_count, reverse=True)
        cliques: list[int] = []
        for m in fams:
            if not any(m & c == m for c in cliques):
                cliques.append(m)
        self.count = [0] * len(tables.pairs)
        if self.strata:
            for c in cliques:
                for p in tables.clique_pairs(c):
                    self.count[p] += 1
        self.gains = {c: (tables.gain(c, self._forbidden(c, {})) if self.strata else 0.0) for c in cliques}
        self._rebuild_values()
        self.score = math.fsum(self._values + [self._prior(self.f)])

    # -- helpers -----------------------------------------------------------------
    def _prior(self, f: int) -> float:
        return (self.tables.n - f) * self.tables.prior_weight

    def _forbidden(self, clique: int, delta: dict) -> int:
        count = self.count
        forb = 0
        for p in self.tables.clique_pairs(clique):
            if count[p] + delta.get(p, 0) > 1:
                forb |= 1 << p
        return forb

    def _rebuild_values(self) -> None:
        values = []
        d = self.tables.set_term
        for m, c in self.terms.items():
            x = d(m)
            values.extend([x] * c if c > 0 else [-x] * -c)
        values.extend(g for g in self.gains.values() if g)
        self._values = values

    @property
    def cliques(self) -> list[int]:
        """Maximal cliques as set masks (isolated nodes are cliques).

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
        >>> sorted(DecomposableState(tables, key_from_edges(tables, [(0, 1)])).cliques)
        [3, 4, 8, 16, 32]
        """
        return list(self.gains)

    def has_edge(self, i: int, j: int) -> bool:
        """Whether nodes ``i`` and ``j`` are adjacent.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
        >>> DecomposableState(tables, key_from_edges(tables, [(0, 1)])).has_edge(1, 0)
        True
        """
        return bool(self.adj[i] >> j & 1)

    # -- moves ------------------------------------------------------------------
    def propose(self, i: int, j: int) -> Move | None:
        """Toggle ``{i, j}``: the scored move, or None if the result is not chordal.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
        >>> path = DecomposableState(tables, key_from_edges(tables, [(0, 1), (1, 2), (2, 3)]))
        >>> path.propose(0, 3) is None  # would close a chordless 4-cycle
        True
        >>> path.propose(0, 2) is not None
        True
        """
        adj = self.adj
        bi, bj = 1 << i, 1 << j
        cn = adj[i] & adj[j]
        if adj[i] & bj:
            m = cn
            while m:
                low = m & -m
                if (adj[low.bit_length() - 1] | low) & cn != cn:
                    return None
                m ^= low
            k = cn | bi | bj
            ku, kv = k ^ bi, k ^ bj
            removed = (k,)
            added = []
            for a, excluded in ((ku, bi), (kv, bj)):
                common = -1
                m = a
                while m:
                    low = m & -m
                    common &= adj[low.bit_length() - 1]
                    m ^= low
                if not common & ~(a | excluded):
                    added.append(a)
            add = False
            sign = 1
        else:
            reach = frontier = bi
            blocked = cn | bi
            while frontier:
                nxt = 0
                m = frontier
                while m:
                    low = m & -m
                    nxt |= adj[low.bit_length() - 1]
                    m ^= low
                nxt &= ~(reach | blocked)
                if nxt & bj:
                    return None
                reach |= nxt
                frontier = nxt
            k = cn | bi | bj
            ku, kv = k ^ bi, k ^ bj
            gains = self.gains
            removed = tuple(a for a in (ku, kv) if a in gains)
            added = [k]
            add = True
            sign = -1
        tables = self.tables
        dterms = ((ku, sign), (kv, sign), (k, -sign), (cn, -sign))
        extra = []
        f = self.f
        for mask, c in dterms:
            if mask:
                x = tables.set_term(mask)
                extra.append(x if c > 0 else -x)
                f += c * tables.size_term(mask)
        counts: dict = {}
        new_gains: dict = {}
        if self.strata:
            gains = self.gains
            for r in removed:
                for p in tables.clique_pairs(r):
                    counts[p] = counts.get(p, 0) - 1
                if gains[r]:
                    extra.append(-gains[r])
            for a in added:
                for p in tables.clique_pairs(a):
                    counts[p] = counts.get(p, 0) + 1
            low_size, high_size = 3, tables.max_labelled
            for c, g in gains.items():
                if (c & k).bit_count() >= 2 and c not in removed and low_size <= c.bit_count() <= high_size:
                    g_new = tables.gain(c, self._forbidden(c, counts))
                    if g_new != g:
                        new_gains[c] = g_new
                        if g:
                            extra.append(-g)
                        if g_new:
                            extra.append(g_new)
            for a in added:
                g_new = tables.gain(a, self._forbidden(a, counts))
                new_gains[a] = g_new
                if g_new:
                    extra.append(g_new)
        else:
            for a in added:
                new_gains[a] = 0.0
        extra.append(self._prior(f))
        score = math.fsum(self._values + extra)
        return Move(i, j, add, removed, added, dterms, counts, new_gains, f, score)

    def commit(self, move: Move) -> None:
        """Apply a move returned by :meth:`propose` on this very state.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
        >>> state = DecomposableState(tables)
        >>> state.commit(state.propose(0, 1))
        >>> state.edges()
        [(0, 1)]
        """
        i, j = move.i, move.j
        self.adj[i] ^= 1 << j
        self.adj[j] ^= 1 << i
        self.key ^= 1 << self.tables.pair_index[i][j]
        terms = self.terms
        for mask, c in move.dterms:
            if mask:
                value = terms.get(mask, 0) + c
                if value:
                    terms[mask] = value
                else:
                    del terms[mask]
        count = self.count
        for p, c in move.counts.items():
            count[p] += c
        for r in move.removed:
            del self.gains[r]
        self.gains.update(move.gains)
        self.f = move.f
        self.score = move.score
        self._rebuild_values()

    def edges(self) -> list[tuple[int, int]]:
        """Edges as index pairs ``(i, j)``, ``i < j``.

        Examples
        --------
        >>> from pgmpy_sgm import SGMScore, load_heart_disease
        >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
        >>> DecomposableState(tables, key_from_edges(tables, [(3, 1)])).edges()
        [(1, 3)]
        """
        pairs = self.tables.pairs
        return [pairs[p] for p in iter_bits(self.key)]


def key_from_edges(tables: ScoreTables, edges: Iterable[tuple[int, int]]) -> int:
    """The key of a graph given by index pairs.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
    >>> key_from_edges(tables, [(1, 0)])
    1
    """
    key = 0
    for i, j in edges:
        key |= 1 << tables.pair_index[i][j]
    return key
