"""Where a run of NonReversibleMCMC is checkpointed: a new run or the one a file holds, and its records appended.

A run is identified by its data's fingerprint, settings and seed; a checkpoint of another run
is refused, naming what differs. A write that fails (a full disk) warns with
:class:`CheckpointWarning` and the run goes on: the file's earlier records stay intact, and the
next checkpoint writes the run again from the start.
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from pgmpy_sgm.causal_discovery._chain import new_chain_state
from pgmpy_sgm.causal_discovery._checkpoint import Checkpoint, CheckpointLog, read_checkpoint
from pgmpy_sgm.causal_discovery._run_state import RunState

__all__ = ["RunLog", "CheckpointWarning"]


class CheckpointWarning(RuntimeWarning):
    """A checkpoint could not be written; the run went on and the previous checkpoint is intact.

    Examples
    --------
    >>> issubclass(CheckpointWarning, RuntimeWarning)
    True
    """


class RunLog:
    """The checkpoint file of one run (or none): starts or resumes the run, then appends its records.

    Parameters
    ----------
    checkpoint : Checkpoint
        Where (``path``, None for no file) and whether to ``resume``.

    Examples
    --------
    >>> from pgmpy_sgm.causal_discovery import Checkpoint
    >>> log = RunLog(Checkpoint())
    >>> log.path is None
    True
    """

    def __init__(self, checkpoint: Checkpoint):
        self.path = checkpoint.path
        self.resume = checkpoint.resume
        self._log: CheckpointLog | None = None
        self._read: tuple | None = None  # the file being resumed, read once

    def stored_identity(self) -> dict | None:
        """The identity of the run in the file being resumed (None when no file is resumed).

        Examples
        --------
        >>> from pgmpy_sgm.causal_discovery import Checkpoint
        >>> RunLog(Checkpoint()).stored_identity() is None
        True
        """
        if not (self.resume and self.path is not None and os.path.exists(self.path)):
            return None
        if self._read is None:
            self._read = read_checkpoint(self.path)
        return self._read[0]["identity"]

    def load_or_start(self, identity: dict, seed, tables, n_iter, strata: bool, start_key: int) -> RunState:
        """The run stored in the file (checked against ``identity`` and ``seed``), or a new one from ``start_key``.

        A new run with a path creates the file (refusing one that exists unless resuming).
        """
        path = self.path
        if path is not None and os.path.exists(path) and not self.resume:
            raise ValueError(
                f"The checkpoint file {os.fspath(path)!r} already exists: pass Checkpoint(path, resume=True) to "
                "continue the run it holds, or choose another path (or delete the file) to start a new run."
            )
        if self.stored_identity() is not None:
            header, records, log = self._read
            stored = header["identity"]
            _check_same_run(path, stored, identity, seed)
            run = RunState.from_records(path, stored, records, tables, n_iter, strata)
            self._log = log
            return run
        seq = np.random.SeedSequence(seed)
        children = seq.spawn(identity["n_chains"])
        identity = {**identity, "seed_entropy": seq.entropy}
        run = RunState(identity, [new_chain_state(c, children[c], start_key) for c in range(len(children))])
        if path is None:
            return run.untracked()
        self._log = self._guarded(lambda: CheckpointLog.create(path, identity))
        return run

    def save(self, run: RunState) -> None:
        """Append what is new in ``run`` (the whole run again if the file could not be written before)."""
        if self.path is None:
            return
        if self._log is None:  # the file could not be created before: try again from scratch
            self._log = self._guarded(lambda: CheckpointLog.create(self.path, run.identity))
            if self._log is None:
                return
            run.rewind()
        record = run.record()
        if self._guarded(lambda: self._log.append(record) or True) is not None:
            run.mark_saved()

    def _guarded(self, action):
        try:
            return action()
        except OSError as err:  # e.g. a full disk: keep running, the previous checkpoint is intact
            warnings.warn(
                f"Could not write the checkpoint {os.fspath(self.path)!r} ({err}); the run goes on "
                "and the previous checkpoint, if any, is intact.",
                CheckpointWarning,
                stacklevel=4,
            )
            return None


#: Identity fields that files of earlier versions do not have: not checked against such files.
ADDED_IDENTITY_FIELDS = ("start_setting",)


def _check_same_run(path, stored: dict, identity: dict, seed) -> None:
    """Refuse a checkpoint of another run (data, settings or seed), naming what differs."""
    for name, value in identity.items():
        if name in ADDED_IDENTITY_FIELDS and name not in stored:
            continue  # a file written before the field existed
        if stored.get(name) != value:
            what = {"fingerprint": "the data or max_labelled_clique/prior/state_names", "start_setting": "start"}.get(
                name, name)  # fmt: skip
            raise ValueError(
                f"The checkpoint {os.fspath(path)!r} belongs to another run: {what} differs. "
                f"Got: {stored.get(name)!r}, expected {value!r}"
            )
    entropy = stored.get("seed_entropy")
    if not isinstance(entropy, int) or isinstance(entropy, bool):
        raise ValueError(f"Checkpoint {os.fspath(path)!r}, line 1: seed_entropy must be an integer. Got: {entropy!r}")
    if seed is not None and entropy != int(seed):
        raise ValueError(
            f"The checkpoint {os.fspath(path)!r} was written with another seed. Got: {entropy}, expected {int(seed)}"
        )
