"""Informed moves over decomposable graphs: the best forest, pair weights, steepest ascent, relocation.

These are the building blocks of the search that
:class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` runs by default (``method="informed"``).
Every state they produce is a decomposable graph scored exactly by
:class:`~pgmpy_sgm.core.moves.DecomposableState`, so the paper's estimator of the posterior
(normalising the exact scores of the distinct states visited) stays valid whatever way the
states were found.

=============== ===================================================================
term            meaning
=============== ===================================================================
pair gain       score of the graph with the single edge ``{i, j}`` minus the score
                of the empty graph: the evidence for ``i - j`` on its own
informed pairs  pairs with a positive pair gain; the chain proposes them more often
relocation      remove every edge of one node, then climb greedily over the pairs
                touching that node and its former neighbours; the result is one
                proposal, accepted or rejected as a whole
sweep           relocate every node in turn, keeping each relocation that raises
                the score, until a whole round raises nothing (a local optimum for
                relocations)
clique          make a node and two or three of its partners (the nodes with the
insertion       largest pair gains with it) pairwise adjacent, then climb greedily
                over the pairs touching them: the move that builds the moral family
                of a v-structure at once, whose single edges (between the
                marginally independent parents) each lower the score
triple          the score of a triangle on three nodes minus that of the best path
interaction     on them (no strata): evidence that the three belong in one clique
                beyond what their pairs show, as when one of them depends on the
                others only jointly
relocating      remove every edge of a node, make it a clique with two nodes with
insertion       which it has a positive triple interaction, then climb over the
                pairs touching them: the node leaves the family it was in for one
                it is barely correlated with pair by pair
polish          relocation sweeps, clique-insertion sweeps and relocating-insertion
                sweeps in turn, until none raises the score
recombination   import into one graph the parts in which another graph differs
                from it, one connected part at a time, keeping each that raises
                the score: the score is a sum over cliques, so two local optima
                that are each better in a different region combine into a graph
                better than both
=============== ===================================================================

The best forest is exact: a forest's cliques are its edges and nodes, no clique of a
forest can carry labels, and its score is the empty graph's plus the sum of its pair
gains, so Kruskal's algorithm on positive pair gains maximises it.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import time
from collections.abc import Callable, Sequence

import numpy as np

from pgmpy_sgm.core.candidates import CandidatePairs
from pgmpy_sgm.core.moves import EXACT_ONE, DecomposableState, chordal_families, exact_value, iter_bits
from pgmpy_sgm.core.unionfind import DisjointSets

__all__ = [
    "pair_gains",
    "cached_triple_partners",
    "best_forest_key",
    "climbed_start_key",
    "pair_proposal_weights",
    "steepest_ascent",
    "greedy_climb",
    "relocate",
    "relocation_sweep",
    "clique_partners",
    "insert_clique",
    "clique_sweep",
    "triple_partners",
    "relocate_into",
    "triple_sweep",
    "polish",
    "touching_pairs",
    "changed_region",
    "changed_state",
    "check_node_indices",
    "key_with_clique",
    "without_strata",
    "difference_parts",
    "recombine",
]

#: Partners per node for clique insertions (the nodes with the largest pair gains).
CLIQUE_PARTNERS = 6

#: Sizes of the partner sets joined to a node by one clique insertion.
CLIQUE_SIZES = (2, 3)

#: A clique sweep scores an insertion with strata only when, without strata, it ends at most
#: this many log-units below the current graph (labelling every candidate would cost far more).
SCREEN_SLACK = 5.0

#: Triples are screened among each node's this many partners by pair gain.
TRIPLE_POOL = 20

#: Triples kept per node for relocating insertions (those with the largest positive interaction).
TRIPLES_PER_NODE = 3

#: Share of proposals drawn uniformly over all pairs (the rest go to informed pairs).
UNIFORM_SHARE = 0.2

#: :func:`recombine` applies at most this many toggles one by one to a copy of the graph
#: (more: the graph is built anew).
INCREMENTAL_TOGGLES = 40

#: :func:`recombine` imports every two parts together when the graphs differ in at most this
#: many parts (otherwise only a part that is not decomposable alone, with each other part).
MAX_PAIRED_PARTS = 12


def _past(deadline: float | None) -> bool:
    """Whether the wall-clock ``deadline`` (:func:`time.time`; None: none) has passed."""
    return deadline is not None and time.time() >= deadline


def pair_gains(tables) -> np.ndarray:
    """Score gain of each single edge added to the empty graph, in the order of ``tables.pairs``.

    Computed once per engine (a pass over every pair: seconds at hundreds of variables)
    and returned read-only.

    Parameters
    ----------
    tables : ScoreEngine
        The score's cached terms.

    Returns
    -------
    numpy.ndarray of shape (n_pairs,)

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> gains = pair_gains(tables)
    >>> tables.pairs[int(gains.argmax())]  # mental work - physical work
    (1, 2)
    >>> pair_gains(tables) is gains
    True
    """
    return tables.memo("pair_gains", lambda: _single_edge_gains(tables))


#: From this many variables on, :func:`pair_gains` computes every pair's term in one product
#: (:meth:`~pgmpy_sgm.core.engine.ScoreEngine.prime_pair_terms`; identical values); below it,
#: counting the pairs one by one is as fast (``benchmarks/bench_pair_gains.py``).
PRIME_PAIRS_FROM = 150


def _single_edge_gains(tables) -> np.ndarray:
    """Every pair's gain, as ``DecomposableState.propose`` on the empty graph gives it, bit for bit.

    A single edge on the empty graph replaces the terms of its two nodes by that of the pair,
    and changes the free parameters by ``|X_ij| - |X_i| - |X_j| + 1``; the new score is the
    correctly rounded exact sum (:func:`~pgmpy_sgm.core.moves.exact_value`), as a proposal
    computes it, without building a proposal per pair.
    """
    primed = tables.prime_pair_terms() if tables.n >= PRIME_PAIRS_FROM else None
    primed = None if primed is None else primed.tolist()
    empty = DecomposableState(tables, 0, strata=False)
    set_term, cards = tables.set_term, tables.cards
    without_node = [exact_value(-set_term(1 << v)) for v in range(tables.n)]
    node_size = [tables.size_term(1 << v) for v in range(tables.n)]
    exact_prior: dict[int, int] = {}
    empty_total, empty_f, empty_score = empty.exact_total, empty.f, empty.score
    out = np.empty(len(tables.pairs))
    for p, (i, j) in enumerate(tables.pairs):
        f = empty_f - node_size[i] - node_size[j] + (cards[i] * cards[j] - 1)
        prior = exact_prior.get(f)
        if prior is None:
            prior = exact_prior[f] = exact_value(tables.log_prior(f))
        term = primed[p] if primed is not None else set_term(1 << i | 1 << j)
        total = empty_total + without_node[i] + without_node[j] + exact_value(term)
        out[p] = (total + prior) / EXACT_ONE - empty_score
    out.flags.writeable = False
    return out


def cached_triple_partners(tables) -> list:
    """:func:`triple_partners` of the engine's :func:`pair_gains`, computed once per engine.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> cached_triple_partners(tables) is cached_triple_partners(tables), len(cached_triple_partners(tables))
    (True, 6)
    """
    return tables.memo("triple_partners", lambda: triple_partners(tables, pair_gains(tables)))


def best_forest_key(tables, gains: np.ndarray | None = None) -> int:
    """The highest-scoring forest (exact), as a graph key.

    Parameters
    ----------
    tables : ScoreEngine
    gains : numpy.ndarray, optional
        :func:`pair_gains` (computed when omitted).

    Returns
    -------
    int
        The forest's edges as a bitmask over pair indices.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> state = DecomposableState(tables, best_forest_key(tables))
    >>> state.edges(), round(state.score, 2)
    ([(0, 2), (1, 2), (1, 4), (3, 4)], -6727.69)
    """
    if gains is None:
        gains = pair_gains(tables)
    components = DisjointSets(tables.n)
    key = 0
    # stable order: larger gain first, then pair index (deterministic ties)
    for p in sorted(np.flatnonzero(gains > 0).tolist(), key=lambda q: (-gains[q], q)):
        if components.union(*tables.pairs[p]):
            key |= 1 << p
    return key


def climbed_start_key(
    tables,
    gains: np.ndarray | None = None,
    strata: bool = True,
    deadline: float | None = None,
    candidates: CandidatePairs | None = None,
) -> int:
    """The best forest, climbed by :func:`greedy_climb` and then by :func:`polish` (deterministic).

    Parameters
    ----------
    tables : ScoreEngine
    gains : numpy.ndarray, optional
        :func:`pair_gains` (computed when omitted).
    strata : bool, default=True
        Score graphs with their optimal strata.
    deadline : float, optional
        Wall-clock time (:func:`time.time`) after which the climb and the sweep stop early
        (the best graph found so far is returned).
    candidates : CandidatePairs, optional
        The polish after the climb follows them (:func:`polish`); the greedy climb itself
        runs over all pairs (over candidate pairs only it can end at a worse local optimum:
        771 log-units lower on 500 binary variables, ``benchmarks/bench_climbed_start.py``).

    Returns
    -------
    int
        The graph key: a local optimum for single toggles, relocations and clique
        insertions, unless the deadline cut the search short.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> round(DecomposableState(tables, climbed_start_key(tables)).score, 2)  # the paper's best stratified graph
    -6715.9
    """
    gains = pair_gains(tables) if gains is None else gains
    state = DecomposableState(tables, best_forest_key(tables, gains), strata)
    greedy_climb(state, deadline=deadline)
    return polish(state, clique_partners(tables, gains), deadline, candidates=candidates).key


def pair_proposal_weights(gains: np.ndarray, uniform_share: float = UNIFORM_SHARE) -> np.ndarray:
    """Proposal probabilities of the pairs: ``uniform_share`` spread evenly, the rest over informed pairs.

    Every pair keeps a positive probability, so every decomposable graph stays reachable.

    Examples
    --------
    >>> pair_proposal_weights(np.array([2.0, -1.0, 0.5, -3.0])).round(3).tolist()
    [0.45, 0.05, 0.45, 0.05]
    """
    if not 0.0 <= uniform_share <= 1.0:
        raise ValueError(f"uniform_share must be a probability in [0, 1]. Got: {uniform_share!r}")
    n = len(gains)
    if n == 0:
        return np.zeros(0)
    informed = gains > 0
    if not informed.any() or informed.all():
        return np.full(n, 1.0 / n)
    return uniform_share / n + (1.0 - uniform_share) * informed / informed.sum()


def steepest_ascent(state: DecomposableState, pairs: Sequence[tuple[int, int]] | None = None) -> int:
    """Commit the best improving toggle among ``pairs`` until none improves; return the number of moves.

    Parameters
    ----------
    state : DecomposableState
        Changed in place.
    pairs : sequence of (int, int), optional
        Candidate toggles (default: every pair).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> state = DecomposableState(tables, strata=False)
    >>> steepest_ascent(state), round(state.score, 2)
    (4, -6727.69)
    """
    candidates = state.tables.pairs if pairs is None else pairs
    n_moves = 0
    while True:
        best = None
        for i, j in candidates:
            move = state.propose(i, j)
            if move is not None and move.score > state.score + 1e-9 and (best is None or move.score > best.score):
                best = move
        if best is None:
            return n_moves
        state.commit(best)
        n_moves += 1


def greedy_climb(
    state: DecomposableState, pairs: Sequence[tuple[int, int]] | None = None, deadline: float | None = None
) -> int:
    """Commit improving toggles among ``pairs``, best first by their last known gain, until none improves.

    A lazy steepest ascent: the gain of every candidate toggle is computed once and kept in
    a priority queue; the top candidate is re-scored against the current graph and committed
    when it still improves the score and beats every other candidate's last known gain
    (otherwise it goes back with its new gain). When no candidate in the queue improves,
    every candidate is re-scored once more; the climb ends when that finds nothing, so the
    result is a local optimum for single toggles among ``pairs``, as with
    :func:`steepest_ascent`, at a fraction of its cost on large graphs (each commit re-scores
    a few toggles instead of all of them). Deterministic: ties go to the lower position in
    ``pairs``.

    Parameters
    ----------
    state : DecomposableState
        Changed in place.
    pairs : sequence of (int, int), optional
        Candidate toggles (default: every pair).
    deadline : float, optional
        Wall-clock time (:func:`time.time`) after which the climb stops early.

    Returns
    -------
    int
        The number of committed toggles.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> state = DecomposableState(tables)
    >>> greedy_climb(state), round(state.score, 2)  # the paper's best stratified graph
    (8, -6715.9)
    """

    candidates = list(state.tables.pairs if pairs is None else pairs)
    n_moves = 0
    while True:
        heap = []
        for position, (i, j) in enumerate(candidates):
            move = state.propose(i, j)
            if move is not None and move.score > state.score + 1e-9:
                heap.append((state.score - move.score, position))
        if not heap:
            return n_moves
        heapq.heapify(heap)
        while heap:
            if _past(deadline):
                return n_moves
            _, position = heapq.heappop(heap)
            move = state.propose(*candidates[position])
            if move is None or move.score <= state.score + 1e-9:
                continue
            loss = state.score - move.score
            if heap and (loss, position) > heap[0]:
                heapq.heappush(heap, (loss, position))
                continue
            state.commit(move)
            n_moves += 1


def relocate(state: DecomposableState, node: int, candidates: CandidatePairs | None = None) -> DecomposableState | None:
    """Remove every edge of ``node``, then climb over the pairs touching it and its former neighbours.

    With ``candidates`` (:class:`~pgmpy_sgm.core.candidates.CandidatePairs`) the climb looks
    at their candidate pairs only. The result is a new state (``state`` is unchanged), or
    None when the edges could not be removed one by one through decomposable graphs. (For a chordal graph they always
    can: an edge to a neighbour that is simplicial among the node's neighbours lies in one
    maximal clique; the loop retries the others until one is removable.)

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.moves import key_from_edges
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> wrong = DecomposableState(tables, key_from_edges(tables, [(0, 1), (1, 5)]))
    >>> better = relocate(wrong, 1)
    >>> better.score > wrong.score, better.has_edge(1, 5)
    (True, False)
    """
    tables = state.tables
    if not 0 <= node < tables.n:
        raise ValueError(f"node must be a variable index in 0..{tables.n - 1}. Got: {node!r}")
    isolated = _isolated(state, node)
    if isolated is None:
        return None
    new, neighbours = isolated
    greedy_climb(new, touching_pairs(new, [node, *neighbours], candidates))
    return new


def touching_pairs(state: DecomposableState, nodes: Sequence[int], candidates: CandidatePairs | None = None) -> list:
    """The pairs a move rebuilding ``nodes`` climbs over: every pair touching them, or the candidates' (screened).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> touching_pairs(DecomposableState(tables), [0, 1])
    [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 2), (1, 3), (1, 4), (1, 5)]
    """
    if candidates is not None:
        return candidates.touching(state.adj, nodes)
    touched = set(nodes)
    return [(i, j) for i, j in state.tables.pairs if i in touched or j in touched]


def _isolated(state: DecomposableState, node: int) -> tuple[DecomposableState, list[int]] | None:
    """A copy of ``state`` with every edge of ``node`` removed (through decomposable graphs), and its old neighbours."""
    new = state.copy()
    neighbours = list(iter_bits(new.adj[node]))
    pending = list(neighbours)
    stalls = 0
    while pending:
        other = pending.pop(0)
        move = new.propose(node, other)
        if move is None:
            pending.append(other)
            stalls += 1
            if stalls > len(pending) + 1:
                return None
            continue
        stalls = 0
        new.commit(move)
    return new, neighbours


def relocation_sweep(
    state: DecomposableState,
    deadline: float | None = None,
    visited: dict | None = None,
    candidates: CandidatePairs | None = None,
    nodes: Sequence[int] | None = None,
) -> DecomposableState:
    """Relocate every node in turn, keeping improvements, until a round improves nothing.

    Parameters
    ----------
    state : DecomposableState
        The start (not changed).
    deadline : float, optional
        Wall-clock time (:func:`time.time`) after which the sweep stops early.
    visited : dict, optional
        ``{key: score}``; every improved state is added.

    Returns
    -------
    DecomposableState
        The best state found (``state`` itself if nothing improved it).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.moves import key_from_edges
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> start = DecomposableState(tables, key_from_edges(tables, [(0, 1), (1, 5), (2, 3)]))
    >>> round(relocation_sweep(start).score, 2)
    -6715.9
    """
    return _sweep(state, functools.partial(_relocate_at, candidates=candidates), deadline, visited, nodes)


def _relocate_at(state: DecomposableState, node: int, candidates: CandidatePairs | None) -> DecomposableState | None:
    return relocate(state, node, candidates)


def _sweep(
    state: DecomposableState, move_at, deadline: float | None, visited: dict | None, nodes: Sequence[int] | None = None
) -> DecomposableState:
    """Apply ``move_at(best, node)`` for every node in turn, keeping improvements, until a round keeps none.

    With ``nodes``, the first round visits those nodes only and each further round the
    nodes near the changes the previous round kept (:func:`changed_region`), until a round
    keeps none: the sweep follows the part of the graph that changes.
    """
    if nodes is not None:
        return _region_sweep(state, move_at, deadline, visited, nodes)
    best = state
    improved = True
    while improved:
        improved = False
        for node in range(best.tables.n):
            if _past(deadline):
                return best
            new = move_at(best, node)
            if new is not None and new.score > best.score + 1e-9:
                best = new
                improved = True
                if visited is not None:
                    visited.setdefault(new.key, new.score)
    return best


def _region_sweep(state: DecomposableState, move_at, deadline: float | None, visited: dict | None, nodes):
    best = state
    todo = sorted(set(nodes))
    while todo:
        changed: set[int] = set()
        for node in todo:
            if _past(deadline):
                return best
            new = move_at(best, node)
            if new is not None and new.score > best.score + 1e-9:
                changed |= changed_region(best, new.key, new.adj)
                best = new
                if visited is not None:
                    visited.setdefault(new.key, new.score)
        todo = sorted(changed)
    return best


def changed_region(state: DecomposableState, key: int, adj: Sequence[int] | None = None) -> set[int]:
    """The nodes of the pairs in which the graph ``key`` differs from ``state``, with their neighbours in both.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.moves import key_from_edges
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> before = DecomposableState(tables, key_from_edges(tables, [(0, 1), (1, 2)]))
    >>> sorted(changed_region(before, key_from_edges(tables, [(0, 1), (1, 2), (3, 4)])))
    [3, 4]
    >>> sorted(changed_region(before, before.key))
    []
    """
    pairs = state.tables.pairs
    out: set[int] = set()
    for p in iter_bits(key ^ state.key):
        out.update(pairs[p])
    near = set(out)
    for v in out:
        near.update(iter_bits(state.adj[v]))
        if adj is not None:
            near.update(iter_bits(adj[v]))
    return near


def clique_partners(tables, gains: np.ndarray, top: int = CLIQUE_PARTNERS) -> tuple[tuple[int, ...], ...]:
    """For every node, its ``top`` partners: the nodes with the largest pair gains with it.

    The gains may be negative: a parent of a v-structure can be nearly independent of the
    child on its own and still belong to its moral family.

    Parameters
    ----------
    tables : ScoreEngine
    gains : numpy.ndarray
        :func:`pair_gains`.
    top : int, default=CLIQUE_PARTNERS

    Returns
    -------
    tuple of tuple of int
        Partners of node ``v`` at position ``v``, best first (ties to the lower index).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> clique_partners(tables, pair_gains(tables), top=2)[1]  # mental work: physical work, then lipoprotein ratio
    (2, 4)
    """
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 0:
        raise ValueError(f"top must be a non-negative integer. Got: {top!r}")
    gains = np.asarray(gains, dtype=float)
    if gains.shape != (len(tables.pairs),):
        raise ValueError(f"gains must hold one value per pair ({len(tables.pairs)}). Got shape {gains.shape}.")
    by_node: list[list[tuple[float, int]]] = [[] for _ in range(tables.n)]
    for p, (i, j) in enumerate(tables.pairs):
        by_node[i].append((-gains[p], j))
        by_node[j].append((-gains[p], i))
    return tuple(tuple(v for _, v in sorted(options)[:top]) for options in by_node)


def insert_clique(
    state: DecomposableState, members: Sequence[int], candidates: CandidatePairs | None = None
) -> DecomposableState | None:
    """Make ``members`` pairwise adjacent, then climb over the pairs touching them (the ``candidates``' only, if given).

    The result is a new state (``state`` is unchanged), or None when the members are
    already a clique or joining them would make the graph non-decomposable.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> new = insert_clique(DecomposableState(tables), [0, 1, 2])
    >>> new.score > DecomposableState(tables).score, new.has_edge(1, 2)
    (True, True)
    """
    tables = state.tables
    members = sorted(set(members))
    check_node_indices(tables, members, "clique members")
    key = key_with_clique(state, members)
    new = None if key == state.key else changed_state(state, key)
    if new is None:
        return None
    greedy_climb(new, touching_pairs(new, members, candidates))
    return new


def check_node_indices(tables, nodes: Sequence, what: str) -> None:
    """Refuse, naming the value, anything in ``nodes`` that is not a variable index of ``tables``.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> check_node_indices(tables, [0, 9], "clique members")
    Traceback (most recent call last):
        ...
    ValueError: clique members must be variable indices in 0..5. Got: 9
    """
    for v in nodes:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v < tables.n:
            raise ValueError(f"{what} must be variable indices in 0..{tables.n - 1}. Got: {v!r}")


def key_with_clique(state: DecomposableState, members: Sequence[int]) -> int:
    """``state``'s key with ``members`` made pairwise adjacent.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> key_with_clique(DecomposableState(tables), [0, 1, 2]) == tables.pairs_key([(0, 1), (0, 2), (1, 2)])
    True
    """
    return state.key | state.tables.pairs_key(itertools.combinations(members, 2))


def clique_sweep(
    state: DecomposableState,
    partners: Sequence[Sequence[int]],
    deadline: float | None = None,
    visited: dict | None = None,
    candidates: CandidatePairs | None = None,
    nodes: Sequence[int] | None = None,
) -> DecomposableState:
    """For every node in turn, the best of its clique insertions when it raises the score; rounds until none does.

    With strata, each insertion is first climbed without strata (no clique labelling); only
    those that end at most ``SCREEN_SLACK`` below the current graph's score without strata
    are scored with their optimal strata and climbed again over the pairs touching them.
    Every state returned is scored exactly.

    Parameters
    ----------
    state : DecomposableState
        The start (not changed).
    partners : sequence of sequence of int
        :func:`clique_partners`: node ``v`` is joined to every set of ``CLIQUE_SIZES``
        of ``partners[v]``.
    deadline : float, optional
        Wall-clock time (:func:`time.time`) after which the sweep stops early.
    visited : dict, optional
        ``{key: score}``; every improved state is added.

    Returns
    -------
    DecomposableState
        The best state found (``state`` itself if nothing improved it).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> start = DecomposableState(tables)
    >>> clique_sweep(start, clique_partners(tables, pair_gains(tables))).score > start.score
    True
    """
    if len(partners) != state.tables.n:
        raise ValueError(f"partners must list one sequence per variable ({state.tables.n}). Got {len(partners)}.")
    plain_of: dict[int, DecomposableState] = {}

    def best_at(best: DecomposableState, node: int) -> DecomposableState | None:
        return _best_insertion(best, without_strata(best, plain_of), node, partners[node], deadline, candidates)

    return _sweep(state, best_at, deadline, visited, nodes)


def without_strata(state: DecomposableState, cache: dict[int, DecomposableState]) -> DecomposableState:
    """``state`` itself without strata, or its graph scored without strata (built once per graph, cached).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> state = DecomposableState(tables, tables.pairs_key([(0, 1), (0, 2), (1, 2)]))
    >>> plain = without_strata(state, {})
    >>> plain.strata, plain.key == state.key, plain.score <= state.score
    (False, True, True)
    """
    if not state.strata:
        return state
    if state.key not in cache:
        cache.clear()
        cache[state.key] = DecomposableState(state.tables, state.key, strata=False)
    return cache[state.key]


def _best_insertion(
    state: DecomposableState,
    plain: DecomposableState,
    node: int,
    partners: Sequence[int],
    deadline: float | None,
    candidates: CandidatePairs | None = None,
) -> DecomposableState | None:
    """The best clique insertion joining ``node`` to 2 or 3 of ``partners`` (None if none raises the score).

    Every insertion is screened on ``plain`` (``state``'s graph without strata: no
    labelling); the promising ones are scored with strata when ``state`` has them.
    """
    tables = state.tables
    chosen = None
    for size in CLIQUE_SIZES:
        for others in itertools.combinations(partners, size):
            if _past(deadline):
                return chosen
            new = insert_clique(plain, (node, *others), candidates)
            if new is None or new.score <= plain.score - (SCREEN_SLACK if state.strata else 0.0):
                continue
            if state.strata:
                members = {node, *others}
                new = DecomposableState(tables, new.key, strata=True)
                greedy_climb(new, touching_pairs(new, sorted(members), candidates))
            if new.score > (state.score if chosen is None else chosen.score) + 1e-9:
                chosen = new
    return chosen


def triple_partners(
    tables, gains: np.ndarray, pool: int = TRIPLE_POOL, top: int = TRIPLES_PER_NODE
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For every node, the pairs of other nodes with which it has the largest positive triple interaction.

    The interaction of ``{v, a, b}`` is ``D(vab)`` minus the best of the three paths on
    them (``D(xy) + D(yz) - D(y)``), with the set terms ``D`` of the score without strata:
    how much a triangle explains beyond the best tree on the three nodes. Only pairs
    ``a, b`` among ``v``'s ``pool`` partners by pair gain are screened.

    Parameters
    ----------
    tables : ScoreEngine
    gains : numpy.ndarray
        :func:`pair_gains`.
    pool : int, default=TRIPLE_POOL
    top : int, default=TRIPLES_PER_NODE

    Returns
    -------
    tuple of tuple of (int, int)
        At position ``v``, at most ``top`` pairs ``(a, b)`` with ``a < b``, largest
        interaction first (ties to the smaller pair).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> triples = triple_partners(tables, pair_gains(tables), top=1)
    >>> len(triples), all(len(t) <= 1 for t in triples)
    (6, True)
    """
    for name, value in (("pool", pool), ("top", top)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer. Got: {value!r}")
    term = tables.set_term

    def interaction(v: int, a: int, b: int) -> float:
        single = {x: term(1 << x) for x in (v, a, b)}
        pair = {(x, y): term((1 << x) | (1 << y)) for x, y in ((v, a), (v, b), (a, b))}
        paths = max(
            pair[v, a] + pair[v, b] - single[v],
            pair[v, a] + pair[a, b] - single[a],
            pair[v, b] + pair[a, b] - single[b],
        )
        return term((1 << v) | (1 << a) | (1 << b)) - paths

    partners = clique_partners(tables, gains, top=pool)
    out = []
    for v in range(tables.n):
        scored = [(-interaction(v, a, b), (min(a, b), max(a, b))) for a, b in itertools.combinations(partners[v], 2)]
        out.append(tuple(pair for neg, pair in sorted(scored)[:top] if neg < 0))
    return tuple(out)


def relocate_into(
    state: DecomposableState, node: int, others: Sequence[int], candidates: CandidatePairs | None = None
) -> DecomposableState | None:
    """Remove every edge of ``node``, make ``node`` and ``others`` a clique, then climb over the pairs touching them.

    The climb covers the pairs touching ``node``, its former neighbours and ``others``.
    The result is a new state (``state`` is unchanged), or None when the move is not
    possible through decomposable graphs.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.moves import key_from_edges
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> start = DecomposableState(tables, key_from_edges(tables, [(0, 5)]))
    >>> new = relocate_into(start, 0, (1, 2))
    >>> new.has_edge(0, 1) or new.has_edge(0, 2) or new.has_edge(1, 2), new.score > start.score
    (True, True)
    """
    tables = state.tables
    check_node_indices(tables, (node, *others), "nodes")
    isolated = _isolated(state, node)
    if isolated is None:
        return None
    new, neighbours = isolated
    members = sorted({node, *others})
    key = key_with_clique(new, members)
    inserted = changed_state(new, key) if key != new.key else new
    if inserted is None:
        return None
    greedy_climb(inserted, touching_pairs(inserted, sorted(set(neighbours) | set(members)), candidates))
    return inserted


def triple_sweep(
    state: DecomposableState,
    triples: Sequence[Sequence[tuple[int, int]]],
    deadline: float | None = None,
    visited: dict | None = None,
    candidates: CandidatePairs | None = None,
    nodes: Sequence[int] | None = None,
) -> DecomposableState:
    """For every node in turn, the best of its relocating insertions when it raises the score; rounds until none does.

    As in :func:`clique_sweep`, with strata each move is first made without strata and
    made again with strata only when it ends at most ``SCREEN_SLACK`` below the current graph.

    Parameters
    ----------
    state : DecomposableState
        The start (not changed).
    triples : sequence of sequence of (int, int)
        :func:`triple_partners`.
    deadline : float, optional
    visited : dict, optional
        ``{key: score}``; every improved state is added.

    Returns
    -------
    DecomposableState
        The best state found (``state`` itself if nothing improved it).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> start = DecomposableState(tables)
    >>> triple_sweep(start, triple_partners(tables, pair_gains(tables))).score >= start.score
    True
    """
    if len(triples) != state.tables.n:
        raise ValueError(f"triples must list one sequence per variable ({state.tables.n}). Got {len(triples)}.")
    plain_of: dict[int, DecomposableState] = {}

    def best_at(best: DecomposableState, node: int) -> DecomposableState | None:
        plain = without_strata(best, plain_of)
        chosen = None
        for others in triples[node]:
            if _past(deadline):
                break
            new = relocate_into(plain, node, others, candidates)
            if new is None or new.score <= plain.score - (SCREEN_SLACK if best.strata else 0.0):
                continue
            if best.strata:  # the move again with strata (its climb may end elsewhere)
                new = relocate_into(best, node, others, candidates)
                if new is None:
                    continue
            if new.score > (best.score if chosen is None else chosen.score) + 1e-9:
                chosen = new
        return chosen

    return _sweep(state, best_at, deadline, visited, nodes)


def polish(
    state: DecomposableState,
    partners: Sequence[Sequence[int]] | None = None,
    deadline: float | None = None,
    visited: dict | None = None,
    triples: Sequence[Sequence[tuple[int, int]]] | Callable[[], Sequence] | None = None,
    candidates: CandidatePairs | None = None,
    region: Sequence[int] | None = None,
) -> DecomposableState:
    """Relocation sweeps, then clique-insertion or relocating-insertion sweeps, until none raises the score.

    Parameters
    ----------
    state : DecomposableState
        The start (not changed).
    partners : sequence of sequence of int, optional
        :func:`clique_partners` for clique-insertion sweeps.
    deadline : float, optional
        Wall-clock time (:func:`time.time`) after which polishing stops early.
    visited : dict, optional
        ``{key: score}``; every improved state is added.
    triples : sequence of sequence of (int, int), or callable, optional
        :func:`triple_partners` for relocating-insertion sweeps, tried when a clique sweep
        finds nothing; a callable without arguments is called for them only then (their
        screening costs seconds on large data). Without ``partners`` and ``triples``, a
        :func:`relocation_sweep` only.
    candidates : CandidatePairs, optional
        Moves climb over the candidate pairs only. When they screen pairs out
        (:attr:`~pgmpy_sgm.core.candidates.CandidatePairs.screened`), the sweeps also follow
        the changes: the first visits the nodes of ``region`` (default: every node), each
        later one the nodes near what the previous sweeps changed (:func:`changed_region`).
    region : sequence of int, optional
        With screening candidates, the nodes the first sweep visits, e.g. the nodes near
        what changed since the last polish.

    Returns
    -------
    DecomposableState
        The best state found (``state`` itself if nothing improved it).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> round(polish(DecomposableState(tables), clique_partners(tables, pair_gains(tables))).score, 2)
    -6715.9
    """
    if candidates is not None and candidates.screened:
        return _polish_regions(state, partners, deadline, visited, triples, candidates, region)
    best = relocation_sweep(state, deadline, visited)
    while partners is not None or triples is not None:
        moved = best
        if partners is not None:
            moved = clique_sweep(best, partners, deadline, visited)
        if triples is not None and moved.score <= best.score + 1e-9:
            if callable(triples):
                if _past(deadline):  # the screening alone takes seconds at width
                    break
                triples = triples()
            moved = triple_sweep(best, triples, deadline, visited)
        if moved.score <= best.score + 1e-9:
            break
        best = relocation_sweep(moved, deadline, visited)
    return best


def _polish_regions(state, partners, deadline, visited, triples, candidates, region) -> DecomposableState:
    """:func:`polish` with screened candidates: each sweep visits the nodes near the changes before it."""
    nodes = set(range(state.tables.n) if region is None else region)
    best = relocation_sweep(state, deadline, visited, candidates, sorted(nodes))
    nodes |= changed_region(state, best.key, best.adj)
    while partners is not None or triples is not None:
        moved = best
        if partners is not None:
            moved = clique_sweep(best, partners, deadline, visited, candidates, sorted(nodes))
        if triples is not None and moved.score <= best.score + 1e-9:
            if callable(triples):
                if _past(deadline):
                    break
                triples = triples()
            moved = triple_sweep(best, triples, deadline, visited, candidates, sorted(nodes))
        if moved.score <= best.score + 1e-9:
            break
        nodes = changed_region(best, moved.key, moved.adj)
        best = relocation_sweep(moved, deadline, visited, candidates, sorted(nodes))
        nodes |= changed_region(moved, best.key, best.adj)
    return best


def difference_parts(engine, key: int, other: int) -> list[list[int]]:
    """The pairs in which two graphs differ, grouped into parts that share no node.

    Two differing pairs are in the same part when they are joined by a path of differing
    pairs (a connected component of the graph of differences); parts are listed by their
    smallest pair index.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.moves import key_from_edges
    >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> a = key_from_edges(engine, [(0, 1), (2, 3)])
    >>> b = key_from_edges(engine, [(1, 4), (2, 5)])
    >>> [[engine.pairs[p] for p in part] for part in difference_parts(engine, a, b)]
    [[(0, 1), (1, 4)], [(2, 3), (2, 5)]]
    """
    _check_key(engine, key, "key")
    _check_key(engine, other, "other")
    differing = list(iter_bits(key ^ other))
    sets = DisjointSets(engine.n)
    for p in differing:
        sets.union(*engine.pairs[p])
    parts: dict[int, list[int]] = {}
    for p in differing:
        parts.setdefault(sets.find(engine.pairs[p][0]), []).append(p)
    return list(parts.values())


def _check_key(engine, key, name: str) -> None:
    if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < 1 << len(engine.pairs):
        raise ValueError(
            f"{name} must be a graph key: an integer bitmask over the {len(engine.pairs)} pairs, "
            f"in 0..2**{len(engine.pairs)} - 1. Got: {key!r}"
        )


def recombine(
    state: DecomposableState, donor: int, visited: dict | None = None, deadline: float | None = None
) -> DecomposableState:
    """Import from the graph ``donor`` every part in which it differs from ``state`` and that raises the score.

    The pairs in which the two graphs differ are grouped into parts that share no node
    (:func:`difference_parts`); each part in turn is set as in ``donor`` when the result is
    decomposable and scores higher. When no single part does, two parts are imported
    together (every two parts when there are at most ``MAX_PAIRED_PARTS``, otherwise a part
    whose import alone is not decomposable with each other part): parts share no node, but
    a chordless cycle through both can tie them. The parts are computed again after each
    round, until a round imports nothing. The score is a sum of clique and separator terms, so
    when two local optima are each better in a different region of the graph, the result
    holds the better version of each region: a move between local optima that no sequence
    of single toggles, relocations or clique insertions climbs to.

    Parameters
    ----------
    state : DecomposableState
        The graph to improve (not changed).
    donor : int
        The other graph, as a key (a bitmask over pair indices).
    visited : dict, optional
        ``{key: score}``; every improved state is added.
    deadline : float, optional
        Wall-clock time (:func:`time.time`) after which no further part is tried.

    Returns
    -------
    DecomposableState
        The best state found (``state`` itself if no part raised the score).

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> from pgmpy_sgm.core.moves import key_from_edges
    >>> engine = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> left = DecomposableState(engine, key_from_edges(engine, [(1, 2), (0, 3)]))
    >>> right = DecomposableState(engine, key_from_edges(engine, [(1, 2), (1, 4)]))
    >>> both = recombine(left, right.key)
    >>> both.score > max(left.score, right.score), both.has_edge(0, 3), both.has_edge(1, 4)
    (True, True, True)
    """
    engine = state.tables
    _check_key(engine, donor, "donor")
    best = state
    improved = True
    while improved:
        improved = False
        parts = difference_parts(engine, best.key, donor)
        blocked = []  # parts whose import alone breaks decomposability
        for part in parts:
            if _past(deadline):
                return best
            new = _imported(best, donor, part)
            if new is None:
                blocked.append(part)
            elif new.score > best.score + 1e-9:
                best, improved = new, True
                if visited is not None:
                    visited.setdefault(new.key, new.score)
        if improved:
            continue
        pairs = itertools.combinations(parts, 2) if len(parts) <= MAX_PAIRED_PARTS else (
            (a, b) for a in blocked for b in parts if b is not a
        )  # fmt: skip
        for a, b in pairs:
            if _past(deadline):
                return best
            new = _imported(best, donor, a + b)
            if new is not None and new.score > best.score + 1e-9:
                best, improved = new, True
                if visited is not None:
                    visited.setdefault(new.key, new.score)
                break
    return best


def _imported(state: DecomposableState, donor: int, pairs: Sequence[int]) -> DecomposableState | None:
    """``state`` with ``pairs`` set as in ``donor`` (None when that is not decomposable).

    The same state as :func:`changed_state` gives, in the other order: the toggles are first
    made one by one, each through decomposable graphs, which proves the result decomposable
    without checking the whole graph (most imports of a recombination are); only when that
    fails is the whole graph checked.
    """
    mask = 0
    for p in pairs:
        mask |= 1 << p
    key = (state.key & ~mask) | (donor & mask)
    toggles = _toggles(state, key)
    new = _toggled(state, toggles)
    if new is not None:
        return new
    if not _decomposable_after(state, toggles):
        return None
    return DecomposableState(state.tables, key, state.strata)


def changed_state(state: DecomposableState, key: int) -> DecomposableState | None:
    """The graph ``key`` as a new state like ``state``, or None when it is not decomposable.

    Decomposability is checked on ``state``'s adjacency with only the differing pairs
    toggled, before any score term is computed.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> start = DecomposableState(tables, tables.pairs_key([(0, 1), (1, 2), (2, 3)]))
    >>> changed_state(start, tables.pairs_key([(0, 1), (1, 2), (2, 3), (3, 0)])) is None  # a chordless 4-cycle
    True
    >>> changed_state(start, tables.pairs_key([(0, 1), (1, 2)])).key == tables.pairs_key([(0, 1), (1, 2)])
    True
    """
    toggles = _toggles(state, key)
    if not _decomposable_after(state, toggles):
        return None
    return _toggled(state, toggles) or DecomposableState(state.tables, key, state.strata)


def _toggles(state: DecomposableState, key: int) -> list[tuple[int, int]]:
    """The pairs in which the graph ``key`` differs from ``state``'s, in pair-index order."""
    pairs = state.tables.pairs
    return [pairs[p] for p in iter_bits(key ^ state.key)]


def _decomposable_after(state: DecomposableState, toggles: list[tuple[int, int]]) -> bool:
    """Whether ``state``'s graph with ``toggles`` made is decomposable (a check of the whole graph)."""
    adj = list(state.adj)
    for i, j in toggles:
        adj[i] ^= 1 << j
        adj[j] ^= 1 << i
    return chordal_families(adj) is not None


def _toggled(state: DecomposableState, toggles: list[tuple[int, int]]) -> DecomposableState | None:
    """A copy of ``state`` with ``toggles`` made one by one through decomposable graphs (None when they cannot be).

    Removals go first; a toggle that would make the graph non-decomposable is retried after
    the others. The score is an exact function of the graph, so it equals that of the graph
    built anew.
    """
    if len(toggles) > INCREMENTAL_TOGGLES:
        return None
    new = state.copy()
    pending = sorted(toggles, key=lambda t: not new.has_edge(*t))
    stalls = 0
    while pending:
        i, j = pending.pop(0)
        move = new.propose(i, j)
        if move is None:
            pending.append((i, j))
            stalls += 1
            if stalls > len(pending):
                return None
            continue
        stalls = 0
        new.commit(move)
    return new
