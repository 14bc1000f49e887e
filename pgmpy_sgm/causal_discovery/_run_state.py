"""The state of a whole run (every chain, traces, visited graphs), its checkpoint records and their checks."""

from __future__ import annotations

import base64
import itertools
import math
import os
from array import array
from dataclasses import dataclass, field

import numpy as np

from pgmpy_sgm.causal_discovery._chain import BUFFER_SIZE, ChainState, SegmentResult
from pgmpy_sgm.core.graph_store import GraphStore
from pgmpy_sgm.core.moves import DecomposableState

__all__ = ["RunState", "N_SCORES_VERIFIED"]

#: On resume, the scores of this many top visited graphs are recomputed and compared.
N_SCORES_VERIFIED = 20

_CHAIN_FIELDS = {
    "chain": int,
    "iteration": int,
    "key": str,
    "rng": dict,
    "pair_pos": int,
    "u_pos": int,
    "n_accepted": int,
    "n_draws": int,
    "best_key": str,
    "best_iteration": int,
    "n_relocations": int,
    "n_relocations_accepted": int,
}


def _pack(values: list) -> str:
    """Trace values as base64 text of little-endian float64 (exact, and fast to write)."""
    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode("ascii")


def _unpack(text) -> list | None:
    """Inverse of :func:`_pack`; None if ``text`` is not such a trace."""
    if not isinstance(text, str):
        return None
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        return None
    if len(raw) % 8:
        return None
    return np.frombuffer(raw, dtype="<f8").tolist()


@dataclass
class RunState:
    """Chains, their traces and the pooled visited graphs of one fit.

    ``visited`` maps a graph key to its log unnormalized posterior; ``seen_by`` to a bit
    mask of the chains that visited it (both :class:`~pgmpy_sgm.core.graph_store.GraphStore`,
    so that their memory follows the graphs' edges). What changed since the last checkpoint
    record is tracked so that a record holds only the new part: the visited graphs from the
    ``_n_saved``-th on (they are only ever added) and the graphs whose ``seen_by`` changed.
    A run without a checkpoint file calls :meth:`untracked` and keeps no such record (it would
    hold every graph's key a third time).
    """

    identity: dict
    chains: list
    traces: list = field(default_factory=list)
    visited: GraphStore = field(default_factory=GraphStore)
    seen_by: GraphStore = field(default_factory=GraphStore)
    _n_saved: int = 0
    _dirty: GraphStore | None = field(default_factory=GraphStore)
    _saved_trace: list = field(default_factory=list)

    def __post_init__(self):
        if not self.traces:
            self.traces = [array("d") for _ in self.chains]  # 8 bytes per iteration
        if not self._saved_trace:
            self._saved_trace = [len(t) for t in self.traces]

    def merge(self, out: SegmentResult) -> None:
        """Take in one segment's result."""
        state = out.state
        c = state.chain
        self.chains[c] = state
        self.traces[c].extend(out.trace)
        bit = 1 << c
        for key, value in out.visited.items():
            self.visited.setdefault(key, value)
            seen = self.seen_by.get(key, 0)
            if not seen & bit:
                self.seen_by[key] = seen | bit
                if self._dirty is not None:
                    self._dirty[key] = True

    def add_found(self, found: dict, mask: int) -> None:
        """Take in graphs found outside the chains' segments (``{key: score}``), as seen by the chains of ``mask``."""
        for key, value in found.items():
            self.visited.setdefault(key, value)
            seen = self.seen_by.get(key, 0)
            if seen | mask != seen:
                self.seen_by[key] = seen | mask
                if self._dirty is not None:
                    self._dirty[key] = True

    def untracked(self) -> RunState:
        """Keep no record of what changed since the last checkpoint (a run without a file); returns the run."""
        self._dirty = None
        return self

    def record(self) -> dict:
        """The checkpoint record of everything new since the last :meth:`mark_saved`."""
        if self._dirty is None:
            self.rewind()
        return {
            "chains": [state.to_dict() for state in self.chains],
            "traces": [_pack(t[s:]) for t, s in zip(self.traces, self._saved_trace, strict=True)],
            "visited": {hex(k): self.visited[k] for k in self.visited.keys_from(self._n_saved)},
            "seen_by": {hex(k): self.seen_by[k] for k in sorted(self._dirty)},
        }

    def mark_saved(self) -> None:
        """Everything so far is in the checkpoint."""
        self._n_saved = len(self.visited)
        self._dirty = GraphStore()
        self._saved_trace = [len(t) for t in self.traces]

    def rewind(self) -> None:
        """Nothing is in the checkpoint yet (a new file)."""
        self._n_saved = 0
        self._dirty = self.seen_by.copy()
        self._saved_trace = [0] * len(self.traces)

    # -- resuming -------------------------------------------------------------------
    @classmethod
    def from_records(cls, path, identity: dict, records: list, tables, n_iter: int | None, strata: bool) -> RunState:
        """Rebuild a run from verified checkpoint records, checking that every field makes sense.

        Raises
        ------
        ValueError
            Naming the file, the record and the field at fault.
        """
        name = os.fspath(path)
        n_chains = cls._checked_identity(name, identity)
        run = cls(identity, [None] * n_chains)
        n_pairs = len(tables.pairs)
        for number, record in enumerate(records, start=2):

            def bad(what: str, number=number) -> ValueError:
                return ValueError(f"Checkpoint {name!r}, line {number}: {what}; refusing to resume from it.")

            for part in ("chains", "traces", "visited", "seen_by"):
                if part not in record:
                    raise bad(f"field {part!r} is missing")
            chains, traces = record["chains"], record["traces"]
            if not isinstance(chains, list) or len(chains) != n_chains:
                raise bad(f"field 'chains' must list {n_chains} chains")
            if not isinstance(traces, list) or len(traces) != n_chains:
                raise bad(f"field 'traces' must list {n_chains} traces")
            for c, (body, trace) in enumerate(zip(chains, traces, strict=True)):
                state = cls._chain_state(body, c, n_pairs, bad)
                previous = run.chains[c]
                if previous is not None and state.iteration < previous.iteration:
                    raise bad(f"chain {c} goes back from iteration {previous.iteration} to {state.iteration}")
                if n_iter is not None and state.iteration > n_iter:
                    raise bad(f"chain {c} has run {state.iteration} iterations, more than n_iter={n_iter}")
                values = _unpack(trace)
                if values is None:
                    raise bad(f"trace of chain {c} must be base64 text of float64 values")
                if not all(math.isfinite(v) for v in values):
                    raise bad(f"trace of chain {c} holds a value that is not finite. Got: "
                              f"{next(v for v in values if not math.isfinite(v))!r}")
                run.chains[c] = state
                run.traces[c].extend(values)
            for part, target, kind in (("visited", run.visited, float), ("seen_by", run.seen_by, int)):
                entries = record[part]
                if not isinstance(entries, dict):
                    raise bad(f"field {part!r} must be an object")
                for text, value in entries.items():
                    key = cls._key(text, n_pairs, bad, part)
                    if kind is float and (not isinstance(value, float | int) or not math.isfinite(value)):
                        raise bad(f"{part} score of graph {text} is not a finite number. Got: {value!r}")
                    if kind is int and (not isinstance(value, int) or not 0 < value < 1 << n_chains):
                        raise bad(f"{part} of graph {text} is not a mask of the {n_chains} chains. Got: {value!r}")
                    target[key] = kind(value)
        if any(state is None for state in run.chains):
            raise ValueError(f"Checkpoint {name!r} holds no complete record; refusing to resume from it.")
        run._check_consistency(name, tables, strata)
        run.mark_saved()  # everything read is in the file already
        return run

    @staticmethod
    def _checked_identity(name: str, identity: dict) -> int:
        """The number of chains of the header's identity, after range checks of its counts and seed."""
        n_chains, entropy = identity.get("n_chains"), identity.get("seed_entropy")
        if isinstance(n_chains, bool) or not isinstance(n_chains, int) or n_chains < 1:
            raise ValueError(f"Checkpoint {name!r}, line 1: n_chains must be an integer >= 1. Got: {n_chains!r}; "
                             "refusing to resume from it.")
        if isinstance(entropy, bool) or not isinstance(entropy, int) or entropy < 0:
            raise ValueError(f"Checkpoint {name!r}, line 1: seed_entropy must be an integer >= 0. Got: {entropy!r}; "
                             "refusing to resume from it.")
        return n_chains

    @staticmethod
    def _check_ranges(state: ChainState, c: int, bad) -> None:
        """Refuse counters and buffer positions that no run can reach (each names the field and value)."""
        for what, score in (("score", state.score), ("best_score", state.best_score)):
            if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)
                                      or not math.isfinite(score)):
                raise bad(f"chain {c} field {what!r} must be a finite number or null. Got: {score!r}")
        for what, saved, pos in (("pair", state.pair_rng, state.pair_pos), ("u", state.u_rng, state.u_pos)):
            if saved is not None and not isinstance(saved, dict):
                raise bad(f"chain {c} field '{what}_rng' must be a generator state (an object) or null. Got: {saved!r}")
            limit = 0 if saved is None else BUFFER_SIZE
            if pos > limit:
                raise bad(f"chain {c} field '{what}_pos' must be at most {limit} (buffer of {limit} draws). Got: {pos}")
        limits = (("n_accepted", state.n_accepted, "iteration", state.iteration),
                  ("n_relocations", state.n_relocations, "iteration", state.iteration),
                  ("n_relocations_accepted", state.n_relocations_accepted, "n_relocations", state.n_relocations),
                  ("n_relocations_accepted", state.n_relocations_accepted, "n_accepted", state.n_accepted))
        for what, value, bound_name, bound in limits:
            if value > bound:
                raise bad(f"chain {c} field {what!r} is {value}, more than its {bound_name} {bound}")
        if state.n_accepted - state.n_relocations_accepted > state.n_draws:
            raise bad(f"chain {c} accepted {state.n_accepted - state.n_relocations_accepted} proposals but drew only "
                      f"{state.n_draws}")
        if state.score is None and (state.iteration or state.best_score is not None):
            raise bad(f"chain {c} field 'score' is null after {state.iteration} iterations")

    @staticmethod
    def _key(text, n_pairs: int, bad, what: str) -> int:
        try:
            key = int(text, 16)
        except (TypeError, ValueError):
            raise bad(f"{what} has a graph key that is not hexadecimal. Got: {text!r}") from None
        if key < 0 or key >> n_pairs:
            raise bad(f"{what} has a graph key with edges beyond the {n_pairs} pairs of the data. Got: {text}")
        return key

    @classmethod
    def _chain_state(cls, body, c: int, n_pairs: int, bad) -> ChainState:
        if not isinstance(body, dict):
            raise bad(f"chain {c} must be an object")
        for name, kind in _CHAIN_FIELDS.items():
            value = body.get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise bad(f"chain {c} field {name!r} must be a {kind.__name__}. Got: {value!r}")
            if kind is int and value < 0:
                raise bad(f"chain {c} field {name!r} must be >= 0. Got: {value}")
        if body["chain"] != c:
            raise bad(f"chain {c} is stored as chain {body['chain']}")
        if not isinstance(body.get("settled", False), bool):
            raise bad(f"chain {c} field 'settled' must be true or false. Got: {body['settled']!r}")
        settle_round = body.get("settle_round", 0)
        if not isinstance(settle_round, int) or isinstance(settle_round, bool) or not 0 <= settle_round <= 60:
            raise bad(f"chain {c} field 'settle_round' must be an integer from 0 to 60. Got: {settle_round!r}")
        for name in ("key", "best_key"):
            cls._key(body[name], n_pairs, bad, f"chain {c} field {name!r}")
        if body.get("polished_key") is not None:
            cls._key(body["polished_key"], n_pairs, bad, f"chain {c} field 'polished_key'")
        try:
            state = ChainState.from_dict(body)
            np.random.default_rng().bit_generator.state = state.rng
            for saved in (state.pair_rng, state.u_rng):
                if saved is not None:
                    np.random.default_rng().bit_generator.state = saved
        except (TypeError, ValueError, KeyError) as err:
            raise bad(f"chain {c} has an invalid random generator state ({err})") from None
        if state.best_iteration > state.iteration:
            raise bad(f"chain {c} best_iteration {state.best_iteration} is after its iteration {state.iteration}")
        cls._check_ranges(state, c, bad)
        return state

    def _check_consistency(self, name: str, tables, strata: bool) -> None:
        def bad(what: str) -> ValueError:
            return ValueError(f"Checkpoint {name!r}: {what}; refusing to resume from it.")

        for c, (state, trace) in enumerate(zip(self.chains, self.traces, strict=True)):
            if state.score is None and state.iteration == 0 and not trace:
                continue  # a chain that has not started yet
            if len(trace) != state.iteration + 1:
                raise bad(f"chain {c} has {len(trace)} trace values for {state.iteration} iterations")
            for what, key, score in (("current", state.key, state.score), ("best", state.best_key, state.best_score)):
                exact = self._exact(tables, key, strata)
                if exact is None:
                    raise bad(f"the {what} graph of chain {c} is not decomposable (key {hex(key)})")
                if score is None or not math.isclose(score, exact, rel_tol=1e-9, abs_tol=1e-9):
                    raise bad(f"the {what} score of chain {c} is {score!r}, but its graph scores {exact!r}")
            if state.key not in self.visited or state.best_key not in self.visited:
                raise bad(f"the graphs of chain {c} are missing from the visited graphs")
        for key in itertools.islice(self.visited.sorted_keys(reverse=True), N_SCORES_VERIFIED):
            exact = self._exact(tables, key, strata)
            if exact is None:
                raise bad(f"the visited graph {hex(key)} is not decomposable")
            if not math.isclose(self.visited[key], exact, rel_tol=1e-9, abs_tol=1e-9):
                raise bad(f"the visited graph {hex(key)} is stored with score {self.visited[key]!r}, "
                          f"but it scores {exact!r}")  # fmt: skip
        if len(self.seen_by) != len(self.visited) or None in self.seen_by.values_for(self.visited):
            raise bad("the visited graphs and the chains that visited them do not match")

    @staticmethod
    def _exact(tables, key: int, strata: bool) -> float | None:
        try:
            return DecomposableState(tables, key, strata).score
        except ValueError:  # not chordal
            return None
