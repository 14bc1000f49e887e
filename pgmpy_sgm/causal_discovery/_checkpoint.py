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
import tempfile
import time
from pathlib import Path

__all__ = ["CHECKPOINT_FORMAT", "CHECKPOINT_VERSION", "CheckpointLog", "read_checkpoint"]

CHECKPOINT_FORMAT = "pgmpy_sgm.NonReversibleMCMC.checkpoint"
CHECKPOINT_VERSION = 2

#: Appended records are fsynced at most this often (seconds); the file is always flushed.
FSYNC_SECONDS = 1.0


_PREFIX = '{"digest":"'
_INFIX = '","body":'
_BODY_START = len(_PREFIX) + 64 + len(_INFIX)


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
        folder = path.parent if str(path.parent) else Path(".")
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
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
