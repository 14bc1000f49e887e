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
from collections import OrderedDict
from dataclasses import dataclass, field, fields

import numpy as np

from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.moves import DecomposableState
from pgmpy_sgm.core.search import pair_gains, polish, recombine, relocate, steepest_ascent, triple_partners

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
    return engine.memo("triple_partners", lambda: triple_partners(engine, pair_gains(engine)))


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


@dataclass(frozen=True)
class SearchPlan:
    """What every chain of one fit does (the same for all chains; small and picklable).

    Attributes
    ----------
    strata : bool
        Score graphs with their optimal strata.
    pair_cdf : tuple of float or None
        Cumulative proposal weights of the pairs (None: uniform, the paper's proposal).
    relocate_every : int
        Every this many iterations the proposal is a relocation
        (:func:`~pgmpy_sgm.core.search.relocate`) instead of one toggle; 0 never.
    polish_every : int
        Every this many iterations, if the chain's best graph is new since the last
        polish, a :func:`~pgmpy_sgm.core.search.polish` (relocation sweeps,
        clique-insertion sweeps with ``clique_partners`` and relocating-insertion sweeps
        with ``relocating_insertions``) starts from it and the chain
        jumps to the result when it is better; 0 never.
    deadline : float or None
        Wall-clock time (:func:`time.time`) at which every chain stops.
    clique_partners : tuple of tuple of int or None
        :func:`~pgmpy_sgm.core.search.clique_partners` for the polish's clique insertions
        (None: relocation sweeps only).
    owner_pid : int or None
        Process id of the fit; a worker process started by it (its direct child) exits
        when that process has gone, e.g. after ``kill -9``.
    graft_every : int
        Every this many iterations, when the chain's current graph differs from its best,
        the parts in which the current graph is better are imported into the best graph
        (:func:`~pgmpy_sgm.core.search.recombine`); 0 never.
    relocating_insertions : bool
        Polishes try relocating insertions, with the run's
        :func:`~pgmpy_sgm.core.search.triple_partners`, computed the first time a polish
        needs them (:func:`triples_for`).
    polish_after : int
        A polish also starts as soon as the chain's best graph, not yet polished, has
        stood for this many iterations without a better one; 0 never.
    settle_age : int
        A chain *settles* (stops) once its best graph has been polished (when the plan
        polishes) and has stood for ``max(settle_age, settle_ratio * best_iteration)``
        iterations, times ``2 ** settle_round`` of the chain (:class:`ChainState`); 0: chains
        run their iterations.
    settle_ratio : float
        See ``settle_age``.
    """

    strata: bool = True
    pair_cdf: tuple | None = None
    relocate_every: int = 0
    polish_every: int = 0
    deadline: float | None = None
    owner_pid: int | None = None
    clique_partners: tuple | None = None
    graft_every: int = 0
    relocating_insertions: bool = False
    polish_after: int = 0
    settle_age: int = 0
    settle_ratio: float = 0.0

    def settled(self, iteration: int, best_iteration: int, best_key: int, polished_key: int, settle_round: int) -> bool:
        """Whether a chain in this position has settled (see ``settle_age``).

        Examples
        --------
        >>> plan = SearchPlan(polish_after=100, settle_age=1000, settle_ratio=0.5)
        >>> plan.settled(3000, 1500, best_key=7, polished_key=7, settle_round=0)  # stood 1500 >= max(1000, 750)
        True
        >>> plan.settled(3000, 1500, best_key=7, polished_key=7, settle_round=1)  # needs 3000 in round 1
        False
        >>> plan.settled(3000, 1500, best_key=7, polished_key=5, settle_round=0)  # best not polished yet
        False
        """
        if not self.settle_age or (self.polishes and best_key != polished_key):
            return False
        need = max(self.settle_age, int(self.settle_ratio * best_iteration)) << settle_round
        return iteration - best_iteration >= need

    @property
    def polishes(self) -> bool:
        """Whether chains polish their best graphs."""
        return bool(self.polish_every or self.polish_after)

    def polish_due(self, iteration: int, best_iteration: int) -> bool:
        """Whether a chain polishes at ``iteration`` (if its best graph is new since the last polish).

        Examples
        --------
        >>> plan = SearchPlan(polish_every=5000, polish_after=800)
        >>> plan.polish_due(5000, 4900), plan.polish_due(1800, 1000), plan.polish_due(1700, 1000)
        (True, True, False)
        """
        periodic = self.polish_every and iteration % self.polish_every == 0
        return bool(periodic or (self.polish_after and iteration - best_iteration >= self.polish_after))


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
    visited : dict
        ``{key: log posterior}`` of the states entered in this segment (a relocation's
        intermediate states included: their scores are exact).
    trace : list of float
        Log posterior after each iteration (preceded by the start state's for a fresh chain).
    interrupted : bool
        Stopped by KeyboardInterrupt.
    learned : dict
        Clique labellings computed in this segment (to share with other processes).
    """

    state: ChainState
    visited: dict
    trace: list
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

    Each iteration draws pairs from the plan's proposal until one toggle keeps the graph
    decomposable and accepts it with the Metropolis-Hastings probability; every
    ``plan.relocate_every``-th iteration proposes a relocation of one node instead
    (accepted with the same probability, as one move).

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
    tables = tables_for(data)
    if known:
        tables.absorb(known)
    pairs = tables.pairs
    n_pairs = len(pairs)
    cdf = None if plan.pair_cdf is None else np.asarray(plan.pair_cdf, dtype=np.float64)
    relocate_every = int(plan.relocate_every)
    deadline = plan.deadline if stop_at is None else min(stop_at, plan.deadline or stop_at)
    graph = DecomposableState(tables, state.key, plan.strata)
    rng = np.random.default_rng()
    rng.bit_generator.state = state.rng
    rng_state, pair_rng, u_rng = state.rng, state.pair_rng, state.u_rng
    pair_pos, u_pos = int(state.pair_pos), int(state.u_pos)
    n_accepted, n_draws = state.n_accepted, state.n_draws
    n_reloc, n_reloc_acc = state.n_relocations, state.n_relocations_accepted
    polished_key = state.polished_key
    graft_every = int(plan.graft_every)
    iteration = state.iteration
    best = (state.best_key, state.best_score, state.best_iteration)
    visited: dict[int, float] = {}
    trace: list[float] = []
    fresh = state.score is None
    if fresh:
        trace.append(graph.score)
        visited[graph.key] = graph.score
        best = (graph.key, graph.score, 0)

    def draw_pairs() -> list:
        if cdf is None:
            return rng.integers(0, n_pairs, BUFFER_SIZE).tolist()
        draws = np.searchsorted(cdf, rng.random(BUFFER_SIZE) * cdf[-1], side="right")
        return np.minimum(draws, n_pairs - 1).tolist()

    def draw_logu() -> list:
        with np.errstate(divide="ignore"):
            return np.log(rng.random(BUFFER_SIZE)).tolist()

    pair_buf: list = []
    u_buf: list = []
    if pair_rng is not None:  # the buffers in use: kept in memory, or redrawn from their generator state
        if state.pair_buffer is not None:
            pair_buf = state.pair_buffer
        else:
            rng.bit_generator.state = pair_rng
            pair_buf = draw_pairs()
    if u_rng is not None:
        if state.u_buffer is not None:
            u_buf = state.u_buffer
        else:
            rng.bit_generator.state = u_rng
            u_buf = draw_logu()
    rng.bit_generator.state = rng_state

    settled = state.settled

    def snapshot():
        return ChainState(
            state.chain, iteration, graph.key, graph.score, rng_state, pair_rng, pair_pos, u_rng, u_pos,
            n_accepted, n_draws, best[0], best[1], best[2], n_reloc, n_reloc_acc, polished_key, pair_buf, u_buf,
            settled, state.settle_round,
        )  # fmt: skip

    saved = snapshot()
    interrupted = False
    reported = 0
    try:
        for step in range(n_steps):
            if settled or (deadline is not None and step and time.time() >= deadline):  # at least one step
                break
            if n_pairs:
                if pair_pos == len(pair_buf):
                    pair_rng = rng.bit_generator.state
                    pair_buf, pair_pos, rng_state = draw_pairs(), 0, rng.bit_generator.state
                if relocate_every and (iteration + 1) % relocate_every == 0:
                    node = _relocation_node(tables, pair_buf[pair_pos], (iteration + 1) // relocate_every)
                    pair_pos += 1
                    n_reloc += 1
                    move = relocate(graph, node)
                    relocation = True
                else:
                    relocation = False
                    while True:
                        if pair_pos == len(pair_buf):
                            pair_rng = rng.bit_generator.state
                            pair_buf, pair_pos, rng_state = draw_pairs(), 0, rng.bit_generator.state
                        i, j = pairs[pair_buf[pair_pos]]
                        pair_pos += 1
                        n_draws += 1
                        move = graph.propose(i, j)
                        if move is not None:
                            break
                if u_pos == len(u_buf):
                    u_rng = rng.bit_generator.state
                    u_buf, u_pos, rng_state = draw_logu(), 0, rng.bit_generator.state
                log_u = u_buf[u_pos]
                u_pos += 1
                if move is not None:
                    delta = move.score - graph.score
                    if delta >= 0.0 or log_u < delta:
                        if relocation:
                            graph = move
                            n_reloc_acc += 1
                        else:
                            graph.commit(move)
                        n_accepted += 1
                        if graph.key not in visited:
                            visited[graph.key] = graph.score
            iteration += 1
            if best[0] != polished_key and plan.polish_due(iteration, best[2]):
                start = graph if graph.key == best[0] else DecomposableState(tables, best[0], plan.strata)
                triples = functools.partial(triples_for, data) if plan.relocating_insertions else None
                polished = polish(start, plan.clique_partners, plan.deadline, visited, triples)
                polished_key = polished.key
                if polished.score > graph.score and polished.key != graph.key:
                    graph = polished
            if graft_every and iteration % graft_every == 0 and graph.key != best[0] and graph.score <= best[1]:
                # the parts in which the current graph beats the best one, imported into it: the chain jumps there
                grafted = recombine(DecomposableState(tables, best[0], plan.strata), graph.key, visited, plan.deadline)
                if grafted.score > best[1]:
                    graph = grafted
            trace.append(graph.score)
            if graph.score > best[1]:
                best = (graph.key, graph.score, iteration)
            settled = plan.settled(iteration, best[2], best[0], polished_key, state.settle_round)
            saved = snapshot()
            if progress is not None and iteration % PROGRESS_EVERY == 0:
                progress(PROGRESS_EVERY, best[1], n_accepted / max(iteration, 1))
                reported += PROGRESS_EVERY
    except KeyboardInterrupt:
        interrupted = True
    n_done = saved.iteration - state.iteration
    trace = trace[: n_done + (1 if fresh else 0)]
    if progress is not None and n_done > reported:
        progress(n_done - reported, saved.best_score, saved.n_accepted / max(saved.iteration, 1))
    return SegmentResult(saved, visited, trace, interrupted, tables.take_fresh())
