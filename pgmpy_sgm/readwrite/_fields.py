"""Checks of the fields of the package's JSON files, and the atomic text writer every file write uses."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

import numpy as np

__all__ = [
    "atomic_write_text",
    "check_path",
    "check_node", "check_state", "json_list", "node_ref", "state_value", "probabilities",
    "json_nodes", "json_state_names", "json_edges"]


def check_node(node, where: str):
    """``node`` if it can be written as a JSON node name (str or int), else a TypeError naming ``where``.

    Examples
    --------
    >>> check_node("a", "edges"), check_node(3, "edges")
    ('a', 3)
    """
    if isinstance(node, bool) or not isinstance(node, str | int):
        raise TypeError(f"{where}: node names must be str or int to be written as JSON; got {node!r}")
    return node



def check_state(state, where: str):
    """``state`` as a JSON value (numpy scalars as Python ones), or an error naming ``where``.

    Examples
    --------
    >>> check_state(np.int64(2), "state_names of 'a'"), check_state("yes", "state_names of 'a'")
    (2, 'yes')
    >>> check_state(float("nan"), "state_names of 'a'")
    Traceback (most recent call last):
        ...
    ValueError: state_names of 'a': state nan is not finite
    """
    if isinstance(state, np.generic):
        state = state.item()
    if isinstance(state, float) and not math.isfinite(state):
        raise ValueError(f"{where}: state {state!r} is not finite")
    if not isinstance(state, str | int | float):  # bool is an int
        raise TypeError(f"{where}: states must be str, int, bool or float; got {state!r}")
    return state



def _umask() -> int:
    """The process's file-creation mask (read by setting it and restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask



def check_path(path) -> None:
    """A TypeError naming ``path`` unless it is a str or path-like.

    Examples
    --------
    >>> check_path(3)
    Traceback (most recent call last):
        ...
    TypeError: path must be a str or os.PathLike. Got: int 3
    """
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or os.PathLike. Got: {type(path).__name__} {path!r}")



def atomic_write_text(path, text: str, overwrite: bool) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file renamed), never replacing a file unless ``overwrite``.

    The file gets the mode the umask gives new files; an existing file without
    ``overwrite`` raises ``FileExistsError``, also when it appears while writing.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "note.txt")
    >>> atomic_write_text(path, "one", overwrite=False)
    >>> atomic_write_text(path, "two", overwrite=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    FileExistsError: '...note.txt' exists; pass overwrite=True to replace it
    >>> atomic_write_text(path, "two", overwrite=True)
    >>> open(path).read()
    'two'
    """
    check_path(path)
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"Cannot write {str(path)!r}: it is a directory; give a file name")
    if path.exists() and not overwrite:
        raise FileExistsError(f"{str(path)!r} exists; pass overwrite=True to replace it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(f"Cannot write {str(path)!r}: directory {str(folder)!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files; give the mode open() would
        if overwrite:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails if the target appeared meanwhile
            except FileExistsError:
                raise FileExistsError(f"{str(path)!r} exists; pass overwrite=True to replace it") from None
            except OSError:  # file systems without hard links
                if path.exists():
                    raise FileExistsError(f"{str(path)!r} exists; pass overwrite=True to replace it") from None
                os.replace(tmp, path)
        try:
            dir_fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except OSError:
            pass
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)



def json_list(value, field: str) -> list:
    """``value`` if it is a list, else a TypeError naming ``field``.

    Examples
    --------
    >>> json_list("ab", "edges")
    Traceback (most recent call last):
        ...
    TypeError: Field 'edges' must be a list; got str
    """
    if not isinstance(value, list):
        raise TypeError(f"Field {field!r} must be a list; got {type(value).__name__}")
    return value



def node_ref(value, known: set, field: str):
    """``value`` if it names one of the ``known`` nodes, else an error naming ``field``.

    Examples
    --------
    >>> node_ref("a", {"a", "b"}, "edges[0]")
    'a'
    >>> node_ref("z", {"a", "b"}, "edges[0]")
    Traceback (most recent call last):
        ...
    ValueError: Field 'edges[0]' names the unknown node 'z'
    """
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise TypeError(f"Field {field!r} must name a node (str or int); got {value!r}")
    if value not in known:
        raise ValueError(f"Field {field!r} names the unknown node {value!r}")
    return value



def state_value(value, field: str):
    """``value`` if it is a state a file may hold (str, int, bool or finite float), else an error naming ``field``.

    Examples
    --------
    >>> state_value(1.5, "state_names of 'a'")
    1.5
    """
    if not isinstance(value, str | int | float):
        raise TypeError(f"Field {field!r} must be a state (str, int, bool or float); got {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"Field {field!r} holds the non-finite state {value!r}")
    return value



def probabilities(value, size: int, field: str) -> np.ndarray:
    """``value`` as an array of ``size`` finite non-negative numbers, else an error naming ``field``.

    Examples
    --------
    >>> probabilities([0.25, 0.75], 2, "table")
    array([0.25, 0.75])
    >>> probabilities([0.5], 2, "table")
    Traceback (most recent call last):
        ...
    ValueError: Field 'table' must hold 2 probabilities; got 1
    """
    json_list(value, field)
    if len(value) != size:
        raise ValueError(f"Field {field!r} must hold {size} probabilities; got {len(value)}")
    if any(isinstance(p, bool) or not isinstance(p, int | float) for p in value):
        raise TypeError(f"Field {field!r} must hold numbers only")
    try:
        array = np.asarray(value, dtype=np.float64)
    except OverflowError:
        raise ValueError(f"Field {field!r} holds a number too large for a float") from None
    if not np.isfinite(array).all():
        raise ValueError(f"Field {field!r} holds non-finite probabilities")
    if (array < 0).any():
        raise ValueError(f"Field {field!r} holds negative probabilities")
    return array


def json_nodes(value) -> list:
    """The ``nodes`` field: a list of distinct valid nodes.

    Examples
    --------
    >>> json_nodes(["a", "b"])
    ['a', 'b']
    >>> json_nodes(["a", "a"])
    Traceback (most recent call last):
    ...
    ValueError: Field 'nodes' repeats a node
    """
    nodes = json_list(value, "nodes")
    for v in nodes:
        check_node(v, "nodes")
    if len(set(nodes)) != len(nodes):
        raise ValueError("Field 'nodes' repeats a node")
    return nodes


def json_state_names(value, known: set) -> dict:
    """The ``state_names`` field, ``[[node, [states]], ...]``, as ``{node: [states]}``.

    Examples
    --------
    >>> json_state_names([["a", ["lo", "hi"]]], {"a"})
    {'a': ['lo', 'hi']}
    """
    names = {}
    for i, entry in enumerate(json_list(value, "state_names")):
        if not isinstance(entry, list) or len(entry) != 2:
            raise TypeError(f"Field 'state_names[{i}]' must be [node, [states]]")
        v = node_ref(entry[0], known, f"state_names[{i}]")
        names[v] = [state_value(s, f"state_names of {v!r}") for s in json_list(entry[1], f"state_names of {v!r}")]
    return names


def json_edges(value, known: set) -> list[tuple]:
    """The ``edges`` field, ``[[u, v], ...]``, as pairs of known nodes.

    Examples
    --------
    >>> json_edges([["a", "b"]], {"a", "b"})
    [('a', 'b')]
    """
    edges = []
    for i, edge in enumerate(json_list(value, "edges")):
        if not isinstance(edge, list) or len(edge) != 2:
            raise TypeError(f"Field 'edges[{i}]' must be [u, v]")
        edges.append((node_ref(edge[0], known, f"edges[{i}]"), node_ref(edge[1], known, f"edges[{i}]")))
    return edges
