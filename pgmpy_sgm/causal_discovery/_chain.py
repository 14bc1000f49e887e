"""One chain of the non-reversible Metropolis-Hastings search, as a picklable top-level worker.

A chain's state between segments is a :class:`ChainState` (graph key, RNG state, unused
random numbers, counters) with a JSON-friendly form, so that segments may run in any
process, be checkpointed, and resume bit for bit.
"""

from __future__ import annotations

import functools
import os
import threading
import time
import uuid
from array import array
from collections import OrderedDict
from dataclasses import dataclass, field, fields

import numpy as np

from pgmpy_sgm.causal_discovery._search_plan import SearchPlan
from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.graph_store import GraphStore
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.core.search import (
    cached_triple_partners,
    changed_region,
    polish,
    recombine,
    relocate,
    steepest_ascent,
)

__all__ = [
    "ChainData",
    "ChainState",
    "SearchPlan",
    "SegmentResult",
    "tables_for",
    "release",
    "triples_for",
    "new_chain_state",
    "run_segment",
    "Chain",
    "RandomStreams",
    "metropolis_accepts",
    "greedy_decomposable",
]

#: Random numbers drawn at once (pair choices and acceptance uniforms).
BUFFER_SIZE = 4096

#: How often (iterations) a sequential chain reports progress.
PROGRESS_EVERY = 256

#: Engines of the runs served by this process, keyed by run token (see :func:`tables_for`).
_RUN_ENGINES: OrderedDict[str, ScoreEngine] = OrderedDict()
#: Runs a worker process keeps engines for (a fit uses one; older tokens are never asked for again).
_MAX_RUNS = 2


@dataclass(frozen=True)
class ChainData:
    """What a chain needs: the score engine of its run, the data's fingerprint and the run's token.

    The engine pickles as its encoded data and settings; a process that receives it builds
    the engine's caches once per run (:func:`tables_for`), keyed by ``run``, a token unique
    to one fit, so that no fit ever uses the caches of another, whatever their data.

    Examples
    --------
    >>> import pickle
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> data = ChainData.from_scorer(SGMScore(load_heart_disease(as_counts=True), weights="count"))
    >>> copy = pickle.loads(pickle.dumps(data))
    >>> copy.engine.fingerprint == data.fingerprint, copy.run == data.run
    (True, True)
    >>> ChainData.from_scorer(SGMScore(load_heart_disease(as_counts=True), weights="count")).run == data.run
    False
    """

    engine: ScoreEngine
    fingerprint: str
    run: str = field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def from_scorer(cls, scorer) -> ChainData:
        """The chain data of a new run on ``scorer``'s engine (a fresh run token)."""
        return cls(scorer.engine, scorer.engine.fingerprint)


def tables_for(data: ChainData) -> ScoreEngine:
    """The :class:`~pgmpy_sgm.core.engine.ScoreEngine` of ``data``'s run in this process.

    In the process that made ``data`` this is ``data.engine`` itself (the score's own
    engine, with its caches); a process that received a pickled copy keeps the first copy
    it unpickled for that run, so that the caches persist across the run's segments.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> scorer = SGMScore(load_heart_disease(as_counts=True), weights="count")
    >>> data = ChainData.from_scorer(scorer)
    >>> tables_for(data) is scorer.engine
    True
    >>> release(data)
    """
    engine = _RUN_ENGINES.get(data.run)
    if engine is None:
        engine = _RUN_ENGINES[data.run] = data.engine
        while len(_RUN_ENGINES) > _MAX_RUNS:
            _RUN_ENGINES.popitem(last=False)
    else:
        _RUN_ENGINES.move_to_end(data.run)
    return engine


def release(data: ChainData) -> None:
    """Forget this process's reference to the engine of ``data``'s run (at the end of a fit)."""
    _RUN_ENGINES.pop(data.run, None)


def triples_for(data: ChainData) -> tuple:
    """:func:`~pgmpy_sgm.core.search.triple_partners` of the run's engine, computed once per engine.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> data = ChainData.from_scorer(SGMScore(load_heart_disease(as_counts=True), weights="count"))
    >>> triples_for(data) is triples_for(data), len(triples_for(data))
    (True, 6)
    >>> release(data)
    """
    engine = tables_for(data)
    return cached_triple_partners(engine)


def greedy_decomposable(tables: ScoreEngine, key: int = 0) -> int:
    """Deterministic steepest-ascent hill climb over decomposable graphs without strata.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = SGMScore(load_heart_disease(as_counts=True), weights="count").engine
    >>> round(DecomposableState(tables, greedy_decomposable(tables), strata=False).score, 2)  # a local optimum
    -6727.69
    """
    state = DecomposableState(tables, key, strata=False)
    steepest_ascent(state)
    return state.key


@dataclass
class ChainState:
    """Everything a chain needs to continue bit for bit, in any process (JSON-friendly via :meth:`to_dict`).

    Random numbers are drawn in buffers of ``BUFFER_SIZE``; a buffer is not stored but
    redrawn from the generator state that produced it (``pair_rng``, ``u_rng``), so a
    state stays small.
    """

    chain: int
    iteration: int
    key: int
    score: float | None
    rng: dict
    pair_rng: dict | None
    pair_pos: int
    u_rng: dict | None
    u_pos: int
    n_accepted: int = 0
    n_draws: int = 0
    best_key: int = 0
    best_score: float | None = None
    best_iteration: int = 0
    n_relocations: int = 0
    n_relocations_accepted: int = 0
    polished_key: int = -1
    #: The buffers themselves, kept while the state stays in memory (never written out).
    pair_buffer: list | None = field(default=None, repr=False, compare=False)
    u_buffer: list | None = field(default=None, repr=False, compare=False)
    #: The chain stopped because it settled (:meth:`SearchPlan.settled`).
    settled: bool = False
    #: Rounds of settling so far: each round doubles the time a best must stand.
    settle_round: int = 0

    _TRANSIENT = ("pair_buffer", "u_buffer")

    @classmethod
    def new(cls, chain: int, seed_seq: np.random.SeedSequence, start_key: int) -> ChainState:
        """The state of chain ``chain`` before its first iteration."""
        rng = np.random.default_rng(seed_seq)
        return cls(
            int(chain), 0, int(start_key), None, rng.bit_generator.state, None, 0, None, 0, best_key=int(start_key)
        )

    def to_dict(self) -> dict:
        """JSON-friendly form (graph keys as hex strings)."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in self._TRANSIENT}
        out["key"] = hex(self.key)
        out["best_key"] = hex(self.best_key)
        out["polished_key"] = hex(self.polished_key) if self.polished_key >= 0 else None
        return out

    @classmethod
    def from_dict(cls, body: dict) -> ChainState:
        """Inverse of :meth:`to_dict`."""
        values = dict(body)
        values["key"] = int(values["key"], 16)
        values["best_key"] = int(values["best_key"], 16)
        polished = values.get("polished_key")
        values["polished_key"] = -1 if polished is None else int(polished, 16)
        names = {f.name for f in fields(cls)} - set(cls._TRANSIENT)
        return cls(**{k: v for k, v in values.items() if k in names})


@dataclass
class SegmentResult:
    """What one segment of one chain returns.

    Attributes
    ----------
    state : ChainState
        The chain's new state.
    visited : GraphStore
        ``{key: log posterior}`` of the states entered in this segment (a relocation's
        intermediate states included: their scores are exact).
    trace : array.array of float ("d")
        Log posterior after each iteration (preceded by the start state's for a fresh chain).
    interrupted : bool
        Stopped by KeyboardInterrupt.
    learned : dict
        Clique labellings computed in this segment (to share with other processes).
    """

    state: ChainState
    visited: GraphStore
    trace: array
    interrupted: bool
    learned: dict


#: How often (seconds) a worker process checks that the fit that started it is still alive.
PARENT_CHECK_SECONDS = 2.0

_WATCHING: list = []


def _exit_with_parent(owner_pid: int | None) -> None:
    """In a worker process started by the fit (its direct child), exit soon after the fit's process dies.

    Worker pools keep idle workers for reuse; when their parent is killed they would otherwise
    live on. Processes that are not direct children (e.g. Dask workers) are left alone.
    """
    if owner_pid is None or _WATCHING or os.getpid() == owner_pid or os.getppid() != owner_pid:
        return

    def watch():
        while os.getppid() == owner_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="pgmpy-sgm-parent-watch", daemon=True).start()
    _WATCHING.append(owner_pid)


def new_chain_state(chain: int, seed_seq: np.random.SeedSequence, start_key: int) -> ChainState:
    """The state of a chain before its first iteration (see :meth:`ChainState.new`)."""
    return ChainState.new(chain, seed_seq, start_key)


def _relocation_node(tables: ScoreEngine, pair: int, round_index: int) -> int:
    i, j = tables.pairs[pair]
    return i if round_index % 2 == 0 else j


def metropolis_accepts(delta: float, log_u: float) -> bool:
    """The Metropolis-Hastings acceptance of a move changing the log posterior by ``delta``.

    The paper's proposal is symmetric (a pair drawn uniformly, the toggle kept only when the
    graph stays decomposable), so a move is accepted with probability ``min(1, exp(delta))``:
    always when it does not lower the score, otherwise when ``log u < delta`` for a uniform
    ``u`` (given as ``log_u``).

    Examples
    --------
    >>> metropolis_accepts(0.5, -0.1), metropolis_accepts(-2.0, -2.5), metropolis_accepts(-2.0, -1.5)
    (True, True, False)
    """
    return delta >= 0.0 or log_u < delta


class RandomStreams:
    """A chain's random numbers: pair indices and log uniforms, drawn in buffers of ``BUFFER_SIZE``.

    Both buffers come from one generator; the generator state that drew each buffer is
    kept (``pair_rng``, ``u_rng``), so that a :class:`ChainState` holds the generator
    state and positions only and a buffer is redrawn when a state resumes in another
    process.

    Examples
    --------
    >>> state = new_chain_state(0, np.random.SeedSequence(3), 0)
    >>> streams = RandomStreams(state, n_pairs=10)
    >>> first = np.random.default_rng(np.random.SeedSequence(3)).integers(0, 10, BUFFER_SIZE)[:3].tolist()
    >>> [streams.next_pair() for _ in range(3)] == first, streams.pair_pos
    (True, 3)
    >>> state.pair_rng, state.pair_pos = streams.pair_rng, streams.pair_pos
    >>> RandomStreams(state, n_pairs=10).next_pair() == streams.next_pair()  # resumed bit for bit
    True
    """

    def __init__(self, state: ChainState, n_pairs: int, pair_cdf: tuple | None = None):
        self.n_pairs = n_pairs
        self.cdf = None if pair_cdf is None else np.asarray(pair_cdf, dtype=np.float64)
        self.rng = np.random.default_rng()
        self.pair_rng, self.pair_pos, self.pair_buffer = state.pair_rng, int(state.pair_pos), []
        self.u_rng, self.u_pos, self.u_buffer = state.u_rng, int(state.u_pos), []
        if self.pair_rng is not None:  # the buffers in use: kept in memory, or redrawn from their generator state
            self.pair_buffer = state.pair_buffer
            if self.pair_buffer is None:
                self.rng.bit_generator.state = self.pair_rng
                self.pair_buffer = self._draw_pairs()
        if self.u_rng is not None:
            self.u_buffer = state.u_buffer
            if self.u_buffer is None:
                self.rng.bit_generator.state = self.u_rng
                self.u_buffer = self._draw_log_u()
        self.rng.bit_generator.state = self.rng_state = state.rng

    def _draw_pairs(self) -> list:
        if self.cdf is None:
            return self.rng.integers(0, self.n_pairs, BUFFER_SIZE).tolist()
        draws = np.searchsorted(self.cdf, self.rng.random(BUFFER_SIZE) * self.cdf[-1], side="right")
        return np.minimum(draws, self.n_pairs - 1).tolist()

    def _draw_log_u(self) -> list:
        with np.errstate(divide="ignore"):
            return np.log(self.rng.random(BUFFER_SIZE)).tolist()

    def next_pair(self) -> int:
        """The index of the next proposed pair (in the engine's ``pairs``)."""
        pos = self.pair_pos
        if pos == len(self.pair_buffer):
            self.pair_rng = self.rng.bit_generator.state
            self.pair_buffer, pos = self._draw_pairs(), 0
            self.rng_state = self.rng.bit_generator.state
        self.pair_pos = pos + 1
        return self.pair_buffer[pos]

    def next_log_u(self) -> float:
        """The logarithm of the next acceptance uniform."""
        pos = self.u_pos
        if pos == len(self.u_buffer):
            self.u_rng = self.rng.bit_generator.state
            self.u_buffer, pos = self._draw_log_u(), 0
            self.rng_state = self.rng.bit_generator.state
        self.u_pos = pos + 1
        return self.u_buffer[pos]


class Chain:
    """One chain in memory: a :class:`ChainState` brought to life, moved one iteration per :meth:`step`.

    Each iteration proposes a move (a toggle of a pair drawn from the plan's proposal,
    redrawn until the graph stays decomposable; every ``plan.relocate_every``-th iteration a
    relocation of one node instead), accepts it by :func:`metropolis_accepts`, then runs
    the plan's polish and graft when due and records the score. :meth:`snapshot` gives the
    state to continue from.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> data = ChainData.from_scorer(SGMScore(load_heart_disease(as_counts=True), weights="count"))
    >>> chain = Chain(data, new_chain_state(0, np.random.SeedSequence(1), 0), SearchPlan(strata=False))
    >>> for _ in range(50):
    ...     chain.step()
    >>> state = chain.snapshot()
    >>> state.iteration, state.best_score >= chain.trace[0], len(chain.trace)
    (50, True, 51)
    >>> release(data)
    """

    def __init__(self, data: ChainData, state: ChainState, plan: SearchPlan, known: dict | None = None):
        self.data, self.start, self.plan = data, state, plan
        self.tables = tables_for(data)
        if known:
            self.tables.absorb(known)
        self.streams = RandomStreams(state, len(self.tables.pairs), plan.pair_cdf)
        self.relocate_every, self.graft_every = int(plan.relocate_every), int(plan.graft_every)
        self.graph = DecomposableState(self.tables, state.key, plan.strata)
        self.iteration, self.settled, self.polished_key = state.iteration, state.settled, state.polished_key
        self.n_accepted, self.n_draws = state.n_accepted, state.n_draws
        self.n_relocations, self.n_relocations_accepted = state.n_relocations, state.n_relocations_accepted
        self.best = (state.best_key, state.best_score, state.best_iteration)
        self.visited = GraphStore()  # {key: score} of the graphs this segment visited
        self.trace = array("d")  # 8 bytes per iteration (a list of floats takes 32)
        if state.score is None:  # a fresh chain: its start state is the first visited and traced
            self.trace.append(self.graph.score)
            self.visited[self.graph.key] = self.graph.score
            self.best = (self.graph.key, self.graph.score, 0)

    def snapshot(self) -> ChainState:
        """The state after the iterations run so far."""
        streams, best = self.streams, self.best
        return ChainState(
            self.start.chain, self.iteration, self.graph.key, self.graph.score, streams.rng_state,
            streams.pair_rng, streams.pair_pos, streams.u_rng, streams.u_pos, self.n_accepted, self.n_draws,
            best[0], best[1], best[2], self.n_relocations, self.n_relocations_accepted, self.polished_key,
            streams.pair_buffer, streams.u_buffer, self.settled, self.start.settle_round,
        )  # fmt: skip

    def step(self) -> None:
        """One iteration: a Metropolis-Hastings move, then the plan's polish and graft when due."""
        if self.streams.n_pairs:
            move, relocation = self._propose()
            log_u = self.streams.next_log_u()
            if move is not None and metropolis_accepts(move.score - self.graph.score, log_u):
                self._accept(move, relocation)
        self.iteration = iteration = self.iteration + 1
        best_key, best_score, best_iteration = self.best
        if best_key != self.polished_key and self.plan.polish_due(iteration, best_iteration):
            self._polish()
        graph, every = self.graph, self.graft_every
        if every and iteration % every == 0 and graph.key != best_key and graph.score <= best_score:
            self._graft()
            graph = self.graph
        self.trace.append(graph.score)
        if graph.score > best_score:
            self.best = (graph.key, graph.score, iteration)
        plan = self.plan
        self.settled = bool(plan.settle_age) and plan.settled(iteration, self.best[2], self.best[0],
                                                              self.polished_key, self.start.settle_round)  # fmt: skip

    def _propose(self) -> tuple:
        """``(move, is_relocation)``: a relocation when due, else the first toggle keeping the graph decomposable."""
        every, upcoming = self.relocate_every, self.iteration + 1
        if every and upcoming % every == 0:
            node = _relocation_node(self.tables, self.streams.next_pair(), upcoming // every)
            self.n_relocations += 1
            return relocate(self.graph, node, self.plan.candidates), True
        pairs, next_pair, propose = self.tables.pairs, self.streams.next_pair, self.graph.propose
        draws = 0
        while True:
            i, j = pairs[next_pair()]
            draws += 1
            move = propose(i, j)
            if move is not None:
                self.n_draws += draws
                return move, False

    def _accept(self, move, relocation: bool) -> None:
        if relocation:
            self.graph = move
            self.n_relocations_accepted += 1
        else:
            self.graph.commit(move)
        self.n_accepted += 1
        if self.graph.key not in self.visited:
            self.visited[self.graph.key] = self.graph.score

    def _polish(self) -> None:
        """Polish the best graph; the chain jumps to the result when it beats the current graph."""
        plan, best_key = self.plan, self.best[0]
        start = self.graph if self.graph.key == best_key else DecomposableState(self.tables, best_key, plan.strata)
        triples = functools.partial(triples_for, self.data) if plan.relocating_insertions else None
        region = None if self.polished_key < 0 else changed_region(start, self.polished_key)
        polished = polish(start, plan.clique_partners, plan.deadline, self.visited, triples, plan.candidates, region)
        self.polished_key = polished.key
        if polished.score > self.graph.score and polished.key != self.graph.key:
            self.graph = polished

    def _graft(self) -> None:
        """Import into the best graph the parts in which the current graph beats it; the chain jumps there if better."""
        best = DecomposableState(self.tables, self.best[0], self.plan.strata)
        grafted = recombine(best, self.graph.key, self.visited, self.plan.deadline)
        if grafted.score > self.best[1]:
            self.graph = grafted


def run_segment(
    data: ChainData,
    state: ChainState,
    n_steps: int,
    plan: SearchPlan,
    progress=None,
    known=None,
    stop_at: float | None = None,
) -> SegmentResult:
    """Run up to ``n_steps`` iterations of one chain from ``state`` (fewer if the plan's deadline passes).

    The iterations are :meth:`Chain.step`; the chain stops early when it settles
    (:meth:`SearchPlan.settled`) or at the deadline (at least one iteration runs).

    Parameters
    ----------
    data : ChainData
    state : ChainState
        From :func:`new_chain_state` or a previous segment (not modified).
    n_steps : int
    plan : SearchPlan
    progress : callable, optional
        ``progress(n_new_iterations, chain_best_score, acceptance_rate)``, called now and
        then (only for chains run in the calling process).
    known : dict, optional
        Clique labellings computed by other processes (:meth:`ScoreEngine.absorb`).
    stop_at : float, optional
        Wall-clock time (:func:`time.time`) at which this segment ends (at least one
        iteration runs); where segments end does not change the chain's path.

    Returns
    -------
    SegmentResult
    """
    _exit_with_parent(plan.owner_pid)
    chain = Chain(data, state, plan, known)
    deadline = plan.deadline if stop_at is None else min(stop_at, plan.deadline or stop_at)
    saved, interrupted, reported = chain.snapshot(), False, 0
    try:
        for step in range(n_steps):
            if saved.settled or (deadline is not None and step and time.time() >= deadline):
                break
            chain.step()
            saved = chain.snapshot()
            if progress is not None and saved.iteration % PROGRESS_EVERY == 0:
                progress(PROGRESS_EVERY, saved.best_score, saved.n_accepted / max(saved.iteration, 1))
                reported += PROGRESS_EVERY
    except KeyboardInterrupt:
        interrupted = True
    n_done = saved.iteration - state.iteration
    trace = chain.trace[: n_done + (1 if state.score is None else 0)]
    if progress is not None and n_done > reported:
        progress(n_done - reported, saved.best_score, saved.n_accepted / max(saved.iteration, 1))
    return SegmentResult(saved, chain.visited, trace, interrupted, chain.tables.take_fresh())
