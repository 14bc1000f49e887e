"""One chain of the non-reversible Metropolis-Hastings search, as a picklable top-level worker.

A chain's state between segments is a JSON-friendly dict (graph key as hex, RNG state,
unused random numbers, counters), so that segments may run in any process, be
checkpointed, and resume bit for bit.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pgmpy_sgm.core.moves import DecomposableState, ScoreTables

__all__ = [
    "ChainData",
    "tables_for",
    "register_tables",
    "clear_tables",
    "new_chain_state",
    "run_segment",
    "greedy_decomposable",
]

#: Random numbers drawn at once (pair choices and acceptance uniforms).
BUFFER_SIZE = 4096

#: How often (iterations) a sequential chain reports progress.
PROGRESS_EVERY = 256

_TABLES: OrderedDict[str, ScoreTables] = OrderedDict()
_MAX_TABLES = 4


@dataclass(frozen=True)
class ChainData:
    """The encoded data a chain needs (small and picklable), with a fingerprint."""

    codes: np.ndarray
    weights: np.ndarray
    variables: tuple
    cards: tuple
    prior: str
    max_labelled_clique: int
    fingerprint: str

    @classmethod
    def from_scorer(cls, scorer) -> ChainData:
        enc = scorer.encoded
        codes = np.ascontiguousarray(enc.codes)
        weights = np.ascontiguousarray(enc.weights, dtype=np.float64)
        variables = tuple(enc.variables)
        cards = tuple(int(enc.cardinality[v]) for v in variables)
        digest = hashlib.sha1()
        digest.update(codes.tobytes())
        digest.update(str(codes.dtype).encode())
        digest.update(weights.tobytes())
        digest.update(repr((variables, cards, scorer.prior, int(scorer.max_labelled_clique))).encode())
        return cls(codes, weights, variables, cards, scorer.prior, int(scorer.max_labelled_clique), digest.hexdigest())

    def scorer(self):
        from pgmpy_sgm.structure_score import SGMScore

        frame = pd.DataFrame(self.codes.astype(np.int64), columns=list(self.variables))
        state_names = {v: list(range(k)) for v, k in zip(self.variables, self.cards, strict=True)}
        return SGMScore(
            frame,
            state_names=state_names,
            weights=self.weights,
            prior=self.prior,
            max_labelled_clique=self.max_labelled_clique,
        )


def register_tables(data: ChainData, tables: ScoreTables) -> None:
    """Make ``tables`` the process's cached tables for ``data`` (shares caches with the caller)."""
    _TABLES[data.fingerprint] = tables
    _TABLES.move_to_end(data.fingerprint)
    while len(_TABLES) > _MAX_TABLES:
        _TABLES.popitem(last=False)


def tables_for(data: ChainData, scorer=None) -> ScoreTables:
    """The process's cached :class:`ScoreTables` for ``data`` (built on first use, from ``scorer`` if given)."""
    tables = _TABLES.get(data.fingerprint)
    if tables is None:
        tables = ScoreTables(data.scorer() if scorer is None else scorer)
        register_tables(data, tables)
    else:
        _TABLES.move_to_end(data.fingerprint)
    return tables


def clear_tables() -> None:
    """Forget the cached tables of this process."""
    _TABLES.clear()


def greedy_decomposable(tables: ScoreTables, key: int = 0) -> int:
    """Deterministic steepest-ascent hill climb over decomposable graphs without strata.

    Examples
    --------
    >>> from pgmpy_sgm import SGMScore, load_heart_disease
    >>> tables = ScoreTables(SGMScore(load_heart_disease(as_counts=True), weights="count"))
    >>> round(DecomposableState(tables, greedy_decomposable(tables), strata=False).score, 2)  # a local optimum
    -6727.69
    """
    state = DecomposableState(tables, key, strata=False)
    while True:
        best = None
        for i, j in tables.pairs:
            move = state.propose(i, j)
            if move is not None and move.score > state.score + 1e-9 and (best is None or move.score > best.score):
                best = move
        if best is None:
            return state.key
        state.commit(best)


def new_chain_state(chain: int, seed_seq: np.random.SeedSequence, start_key: int) -> dict:
    """The state of a chain before its first iteration."""
    rng = np.random.default_rng(seed_seq)
    return {
        "chain": int(chain),
        "iteration": 0,
        "key": hex(start_key),
        "score": None,
        "rng": rng.bit_generator.state,
        "pairs": [],
        "pair_pos": 0,
        "logu": [],
        "u_pos": 0,
        "n_accepted": 0,
        "n_draws": 0,
        "best_key": hex(start_key),
        "best_score": None,
        "best_iteration": 0,
    }


def run_segment(data: ChainData, state: dict, n_steps: int, strata: bool, progress=None, known=None) -> dict:
    """Run ``n_steps`` iterations of one chain from ``state``.

    Parameters
    ----------
    data : ChainData
    state : dict
        From :func:`new_chain_state` or a previous segment.
    n_steps : int
    strata : bool
    progress : callable, optional
        ``progress(n_new_iterations, best_score, acceptance_rate)``, called now and then
        (only for chains run in the calling process).
    known : dict, optional
        Clique labellings computed by other processes (:meth:`ScoreTables.absorb`).

    Returns
    -------
    dict
        ``state`` (the new state), ``visited`` ({key: log posterior} of the states entered
        in this segment), ``trace`` (the log posterior after each iteration, preceded by
        the start state's for a fresh chain), ``interrupted`` (bool) and ``learned`` (the
        clique labellings computed in this segment).
    """
    tables = tables_for(data)
    if known:
        tables.absorb(known)
    pairs = tables.pairs
    n_pairs = len(pairs)
    graph = DecomposableState(tables, int(state["key"], 16), strata)
    rng = np.random.default_rng()
    rng.bit_generator.state = state["rng"]
    rng_state = state["rng"]
    pair_buf, pair_pos = list(state["pairs"]), int(state["pair_pos"])
    u_buf, u_pos = list(state["logu"]), int(state["u_pos"])
    n_accepted, n_draws = int(state["n_accepted"]), int(state["n_draws"])
    iteration = int(state["iteration"])
    best_key, best_score, best_iteration = int(state["best_key"], 16), state["best_score"], int(state["best_iteration"])
    visited: dict[int, float] = {}
    trace: list[float] = []
    if state["score"] is None:
        trace.append(graph.score)
        visited[graph.key] = graph.score
        best_key, best_score = graph.key, graph.score
    best = (best_key, best_score, best_iteration)
    snapshot = (graph.key, graph.score, rng_state, pair_buf, pair_pos, u_buf, u_pos)
    snapshot += (n_accepted, n_draws, iteration, best)
    interrupted = False
    reported = 0
    try:
        for _ in range(n_steps):
            if n_pairs:
                while True:
                    if pair_pos == len(pair_buf):
                        pair_buf = rng.integers(0, n_pairs, BUFFER_SIZE).tolist()
                        rng_state = rng.bit_generator.state
                        pair_pos = 0
                    i, j = pairs[pair_buf[pair_pos]]
                    pair_pos += 1
                    n_draws += 1
                    move = graph.propose(i, j)
                    if move is not None:
                        break
                if u_pos == len(u_buf):
                    with np.errstate(divide="ignore"):
                        u_buf = np.log(rng.random(BUFFER_SIZE)).tolist()
                    rng_state = rng.bit_generator.state
                    u_pos = 0
                log_u = u_buf[u_pos]
                u_pos += 1
                delta = move.score - graph.score
                if delta >= 0.0 or log_u < delta:
                    graph.commit(move)
                    n_accepted += 1
                    if graph.key not in visited:
                        visited[graph.key] = graph.score
            iteration += 1
            trace.append(graph.score)
            if graph.score > best[1]:
                best = (graph.key, graph.score, iteration)
            snapshot = (graph.key, graph.score, rng_state, pair_buf, pair_pos, u_buf, u_pos)
            snapshot += (n_accepted, n_draws, iteration, best)
            if progress is not None and iteration % PROGRESS_EVERY == 0:
                progress(PROGRESS_EVERY, best[1], n_accepted / max(iteration, 1))
                reported += PROGRESS_EVERY
    except KeyboardInterrupt:
        interrupted = True
    key, score, rng_state, pair_buf, pair_pos, u_buf, u_pos, n_accepted, n_draws, iteration, best = snapshot
    n_done = iteration - int(state["iteration"])
    trace = trace[: n_done + (1 if state["score"] is None else 0)]
    if progress is not None and n_done > reported:
        progress(n_done - reported, best[1], n_accepted / max(iteration, 1))
    new_state = {
        "chain": int(state["chain"]),
        "iteration": iteration,
        "key": hex(key),
        "score": score,
        "rng": rng_state,
        "pairs": pair_buf,
        "pair_pos": pair_pos,
        "logu": u_buf,
        "u_pos": u_pos,
        "n_accepted": n_accepted,
        "n_draws": n_draws,
        "best_key": hex(best[0]),
        "best_score": best[1],
        "best_iteration": best[2],
    }
    learned = tables.take_fresh()
    return {"state": new_state, "visited": visited, "trace": trace, "interrupted": interrupted, "learned": learned}
