"""Atomic JSON checkpoints of MCMC runs (never pickle)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

__all__ = ["CHECKPOINT_FORMAT", "CHECKPOINT_VERSION", "write_checkpoint", "read_checkpoint"]

CHECKPOINT_FORMAT = "pgmpy_sgm.NonReversibleMCMC.checkpoint"
CHECKPOINT_VERSION = 1


def write_checkpoint(path, payload: dict) -> None:
    """Write ``payload`` as JSON to ``path`` atomically.

    The text goes to a temporary file in the same folder, is flushed and fsynced, and
    then replaces ``path`` with :func:`os.replace`; a crash leaves either the old or
    the new file, never a truncated one.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> write_checkpoint(os.path.join(folder, "run.json"), {"a": 1})
    >>> read_checkpoint(os.path.join(folder, "run.json"))["a"]
    1
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    body = dict(payload)
    body.setdefault("format", CHECKPOINT_FORMAT)
    body.setdefault("version", CHECKPOINT_VERSION)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(body, handle, separators=(",", ":"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable where the platform allows it
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def read_checkpoint(path) -> dict:
    """Read a checkpoint written by :func:`write_checkpoint`, checking its format.

    Raises
    ------
    ValueError
        If the file is not a checkpoint of this format and version.
    """
    with open(path, encoding="utf-8") as handle:
        try:
            body = json.load(handle)
        except json.JSONDecodeError as err:
            raise ValueError(f"{path} is not a valid checkpoint (invalid JSON: {err}).") from None
    if not isinstance(body, dict) or body.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path} is not a NonReversibleMCMC checkpoint. Got format: {body.get('format')!r}")
    if body.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"Unsupported checkpoint version. Got: {body.get('version')!r}")
    return body
