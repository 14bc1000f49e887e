"""Atomic writing of matplotlib figures."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = ["save_figure"]


def save_figure(fig, path, overwrite: bool = True, dpi: float = 150, **savefig_kwargs) -> Path:
    """Write a figure atomically: to a temporary file beside ``path``, then ``os.replace``.

    A reader never sees a half-written file, and a failed save leaves an existing file intact.

    Parameters
    ----------
    fig : matplotlib.figure.Figure or matplotlib.axes.Axes
        The figure (an Axes stands for its figure).
    path : str or os.PathLike
        Destination; the format follows the suffix (``.png``, ``.pdf``, ``.svg``, ...).
    overwrite : bool, default=True
        When False, an existing ``path`` raises ``FileExistsError``.
    dpi : float, default=150
        Resolution of raster formats.
    **savefig_kwargs
        Passed to ``Figure.savefig`` (``bbox_inches="tight"`` unless given).

    Returns
    -------
    pathlib.Path
        The written path.

    Raises
    ------
    TypeError
        If ``fig`` is not a Figure or Axes.
    ValueError
        If the suffix is not a format matplotlib can write.
    FileExistsError
        If ``path`` exists and ``overwrite`` is False.
    FileNotFoundError
        If the parent directory does not exist.

    Examples
    --------
    >>> import os, tempfile
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [1, 0])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = save_figure(fig, os.path.join(tmp, "line.png"))
    ...     print(out.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n", sorted(os.listdir(tmp)))
    True ['line.png']
    """
    if isinstance(fig, Axes):
        fig = fig.figure
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure or Axes. Got: {type(fig).__name__}")
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or path. Got: {type(path).__name__}")
    if isinstance(dpi, bool) or not isinstance(dpi, int | float) or not 0 < dpi < float("inf"):
        raise ValueError(f"dpi must be a positive number. Got: {dpi!r}")
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"Cannot write {str(path)!r}: it is a directory; give a file name.")
    fmt = path.suffix.lstrip(".").lower()
    supported = fig.canvas.get_supported_filetypes()
    if fmt not in supported:
        raise ValueError(f"Cannot write {path.name!r}: the suffix must be one of {sorted(supported)}. Got: {fmt!r}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise FileNotFoundError(f"Cannot write {str(path)!r}: directory {str(parent)!r} does not exist.")
    if path.exists() and not overwrite:
        raise FileExistsError(f"{str(path)!r} exists; pass overwrite=True to replace it.")
    savefig_kwargs.setdefault("bbox_inches", "tight")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp.{fmt}", dir=parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            fig.savefig(handle, format=fmt, dpi=dpi, **savefig_kwargs)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        if not overwrite and path.exists():
            raise FileExistsError(f"{str(path)!r} exists; pass overwrite=True to replace it.")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
