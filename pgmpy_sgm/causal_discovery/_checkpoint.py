"""Append-only, digest-chained checkpoints of MCMC runs (JSON lines, never pickle).

A checkpoint file holds one JSON object per line, ``{"digest": ..., "body": ...}``:

* line 1, the *header*: format, version, and the run's identity (data fingerprint, seed,
  number of chains and every setting that changes the chains' paths);
* then one *record* per checkpoint: the chains' states, the trace values and the visited
  graphs added since the previous record.

Each line's ``digest`` is the SHA-256 of the previous line's digest and of the exact text of
its ``body``, so a changed, dropped or reordered line is detected on reading (the body is
serialized once, whatever its size). Writing a
record appends one line, so checkpointing costs time linear in the run (rewriting the
whole trace at every checkpoint was quadratic). A process killed while appending leaves
at most one incomplete last line; it is dropped when the run resumes, and the records
before it are intact. The header is created atomically (temporary file, fsync, rename).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace

from pgmpy_sgm.causal_discovery._parameters import boolean, check_parameters, integer, path_or_none, seconds
from pgmpy_sgm.readwrite._fields import atomic_write_text

__all__ = [
    "CHECKPOINT_FORMAT",
    "CHECKPOINT_VERSION",
    "Checkpoint",
    "CheckpointLog",
    "checkpoint_or_none",
    "checkpoint_setting",
    "read_checkpoint",
]

CHECKPOINT_FORMAT = "pgmpy_sgm.NonReversibleMCMC.checkpoint"
CHECKPOINT_VERSION = 2

#: Appended records are fsynced at most this often (seconds); the file is always flushed.
FSYNC_SECONDS = 1.0


_PREFIX = '{"digest":"'
_INFIX = '","body":'
_BODY_START = len(_PREFIX) + 64 + len(_INFIX)


@dataclass(frozen=True)
class Checkpoint:
    """Where and how often a run of :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` is checkpointed.

    ``NonReversibleMCMC(checkpoint="run.ckpt")`` is ``checkpoint=Checkpoint("run.ckpt")``;
    the object gathers the settings of checkpointing in one argument.

    Parameters
    ----------
    path : str or os.PathLike, optional
        File (JSON lines) to which the run is written every ``every`` iterations or
        ``seconds`` seconds, whichever comes first, and when the run is interrupted. Each
        checkpoint appends what is new, and the file is never overwritten: a new run
        refuses an existing file unless ``resume=True``. None writes no file; ``every``
        then only sets how often parallel chains first synchronize.
    resume : bool, default=False
        Continue the run stored in ``path`` (a missing file starts a new run). The result
        is identical to an uninterrupted run with the same seed; a checkpoint of another
        run (other data, seed or settings) is refused, naming what differs.
    every : int, default=1000
        Iterations between checkpoints; parallel chains also synchronize this often.
    seconds : float, default=30.0
        Longest time between checkpoints.

    Examples
    --------
    >>> Checkpoint("run.ckpt", resume=True)
    Checkpoint(path='run.ckpt', resume=True, every=1000, seconds=30.0)
    >>> Checkpoint("run.ckpt", every=0)
    Traceback (most recent call last):
        ...
    ValueError: every must be an integer >= 1. Got: 0
    >>> Checkpoint(resume=True)
    Traceback (most recent call last):
        ...
    ValueError: resume=True needs a checkpoint file. Got: path=None
    """

    path: str | os.PathLike | None = None
    resume: bool = False
    every: int = 1000
    seconds: float = 30.0

    def __post_init__(self) -> None:
        check_parameters(self, {"path": path_or_none(), "resume": boolean(), "every": integer(1),
                                "seconds": seconds(none_ok=False)})  # fmt: skip
        if self.resume and self.path is None:
            raise ValueError("resume=True needs a checkpoint file. Got: path=None")


#: The keywords ``NonReversibleMCMC`` took before :class:`Checkpoint`, and the field each sets.
LEGACY_KEYWORDS = {"resume": "resume", "checkpoint_every": "every", "checkpoint_seconds": "seconds"}
_LEGACY_CONSTRAINTS = {"resume": boolean(), "checkpoint_every": integer(1), "checkpoint_seconds": seconds(False)}


def checkpoint_setting(checkpoint, legacy: dict, owner: str = "NonReversibleMCMC"):
    """``checkpoint`` with the earlier keywords ``resume``, ``checkpoint_every`` and ``checkpoint_seconds`` folded in.

    The earlier keywords still work, with a ``FutureWarning`` naming the new form.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     setting = checkpoint_setting("run.ckpt", {"resume": True, "checkpoint_every": 50})
    >>> setting, caught[0].category.__name__
    (Checkpoint(path='run.ckpt', resume=True, every=50, seconds=30.0), 'FutureWarning')
    >>> checkpoint_setting("run.ckpt", {}) == "run.ckpt"
    True
    """
    if not legacy:
        return checkpoint
    check_parameters(SimpleNamespace(**legacy), {k: v for k, v in _LEGACY_CONSTRAINTS.items() if k in legacy})
    if legacy.get("resume") and checkpoint is None:
        raise ValueError("resume=True needs a checkpoint file. Got: checkpoint=None")
    fields = ", ".join(f"{LEGACY_KEYWORDS[k]}={v!r}" for k, v in legacy.items())
    warnings.warn(f"{owner}({', '.join(f'{k}=' for k in legacy)}...) is deprecated: pass "
                  f"checkpoint=Checkpoint(path, {fields}).", FutureWarning, stacklevel=5)  # fmt: skip
    if isinstance(checkpoint, Checkpoint):
        base = checkpoint
    elif checkpoint is None or isinstance(checkpoint, str | os.PathLike):
        base = Checkpoint(checkpoint)
    else:
        return checkpoint  # refused by the learner's parameter check, naming the value
    return replace(base, **{LEGACY_KEYWORDS[k]: v for k, v in legacy.items()})


def checkpoint_or_none(checkpoint) -> Checkpoint | None:
    """The :class:`Checkpoint` a learner's ``checkpoint`` argument stands for (a path is one with defaults).

    Examples
    --------
    >>> checkpoint_or_none("run.ckpt").every, checkpoint_or_none(None)
    (1000, None)
    """
    if checkpoint is None or isinstance(checkpoint, Checkpoint):
        return checkpoint
    return Checkpoint(checkpoint)


def _digest(previous: str, body_text: str) -> str:
    return hashlib.sha256((previous + body_text).encode("utf-8")).hexdigest()


def _line(previous: str, body: dict) -> tuple[str, str]:
    text = json.dumps(body, separators=(",", ":"))
    digest = _digest(previous, text)
    return f"{_PREFIX}{digest}{_INFIX}{text}}}\n", digest


class CheckpointLog:
    """Writer of one run's checkpoint file.

    Parameters
    ----------
    path : str or path
    digest : str
        Digest of the last line already in the file.
    size : int
        Byte length of the valid part of the file; anything after it (an incomplete line
        left by a killed process) is cut off before the next append.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "run.ckpt")
    >>> log = CheckpointLog.create(path, {"seed": 1})
    >>> log.append({"chains": [], "note": "first"})
    >>> header, records, _ = read_checkpoint(path)
    >>> header["identity"], [r["note"] for r in records]
    ({'seed': 1}, ['first'])
    """

    def __init__(self, path, digest: str, size: int):
        self.path = Path(path)
        self._digest = digest
        self._size = size
        self._last_sync = 0.0

    @classmethod
    def create(cls, path, identity: dict) -> CheckpointLog:
        """Start a new checkpoint file holding only the header (atomically replaces ``path``)."""
        path = Path(path)
        header = {"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, "identity": identity}
        text, digest = _line("", header)
        atomic_write_text(path, text, overwrite=True)
        return cls(path, digest, len(text.encode("utf-8")))

    def append(self, record: dict) -> None:
        """Append one record (flushed; fsynced at most every ``FSYNC_SECONDS``)."""
        text, digest = _line(self._digest, record)
        data = text.encode("utf-8")
        with open(self.path, "r+b") as handle:
            handle.truncate(self._size)  # drop an incomplete line left by a killed writer
            handle.seek(self._size)
            handle.write(data)
            handle.flush()
            now = time.monotonic()
            if now - self._last_sync >= FSYNC_SECONDS:
                os.fsync(handle.fileno())
                self._last_sync = now
        self._size += len(data)
        self._digest = digest


def read_checkpoint(path) -> tuple[dict, list[dict], CheckpointLog]:
    """Read and verify a checkpoint: ``(header, records, log)`` where ``log`` appends after the last valid record.

    An incomplete last line (a writer killed mid-append) is ignored; any other damage is an error.

    Raises
    ------
    ValueError
        One line naming the file and what is wrong: not a checkpoint, unknown version,
        invalid JSON, a missing field, or a digest that does not match (edited content).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "run.ckpt")
    >>> CheckpointLog.create(path, {"seed": 1}).append({"n": 1})
    >>> with open(path, "ab") as handle:  # a writer killed mid-append
    ...     _ = handle.write(b'{"digest":"00')
    >>> header, records, log = read_checkpoint(path)
    >>> records
    [{'n': 1}]
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise ValueError(f"Cannot read the checkpoint {os.fspath(path)!r}: {err.strerror or err}.") from None
    lines = raw.split(b"\n")
    complete = lines[:-1]  # the part after the last newline is incomplete (or empty)
    if not complete:
        raise ValueError(f"{os.fspath(path)!r} is not a NonReversibleMCMC checkpoint (no complete header line).")
    entries = []
    previous = ""
    for number, raw_line in enumerate(complete, start=1):
        try:
            line = raw_line.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"Checkpoint {os.fspath(path)!r}, line {number}: not UTF-8 text.") from None
        if not (line.startswith(_PREFIX) and line[len(_PREFIX) + 64 :].startswith(_INFIX) and line.endswith("}")):
            if number == 1:
                raise ValueError(f"{os.fspath(path)!r} is not a NonReversibleMCMC checkpoint (no digest header).")
            raise ValueError(f"Checkpoint {os.fspath(path)!r}, line {number}: not a checkpoint record.")
        stored, text = line[len(_PREFIX) : len(_PREFIX) + 64], line[_BODY_START:-1]
        if stored != _digest(previous, text):
            raise ValueError(
                f"Checkpoint {os.fspath(path)!r}, line {number}: the digest does not match the content "
                "(the file was edited or damaged); refusing to resume from it."
            )
        previous = stored
        try:
            body = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"Checkpoint {os.fspath(path)!r}, line {number}: invalid JSON: {err.msg}.") from None
        if not isinstance(body, dict):
            raise ValueError(
                f"Checkpoint {os.fspath(path)!r}, line {number}: expected a JSON object. Got: {type(body).__name__}"
            )
        entries.append(body)
    header = entries[0]
    if header.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{os.fspath(path)!r} is not a NonReversibleMCMC checkpoint. Got format: "
                         f"{header.get('format')!r}")  # fmt: skip
    if header.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"Checkpoint {os.fspath(path)!r} has an unsupported version. Got: {header.get('version')!r}")
    if not isinstance(header.get("identity"), dict):
        raise ValueError(f"Checkpoint {os.fspath(path)!r}, line 1: field 'identity' is missing or not an object.")
    size = sum(len(line) + 1 for line in complete)
    return header, entries[1:], CheckpointLog(path, previous, size)
