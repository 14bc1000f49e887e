"""Where numba caches the package's compiled kernels: a per-user cache folder, never the package folder.

The kernels are compiled with ``numba.njit(cache=True)``. By default numba writes its
cache files (``.nbi``/``.nbc``) next to the source, into ``pgmpy_sgm/core/__pycache__``.
``pip uninstall`` does not know those files, so they survive it; the leftover folder,
without its ``__init__.py``, then imports as a namespace package and hides a later
(editable) install of the package. This module registers a numba cache locator, before
any kernel is compiled, that puts the cache of every function defined in this package
into ``<user cache dir>/pgmpy-sgm/numba`` (e.g. ``~/.cache/pgmpy-sgm/numba`` on Linux)
instead. An explicit ``NUMBA_CACHE_DIR`` (or ``NUMBA_CACHE_LOCATOR_CLASSES``) still wins;
functions of other packages are not affected. If neither the user cache folder nor a
folder in the temporary directory is writable, numba's own locators decide.
"""

from __future__ import annotations

import os
import tempfile

from numba.core import caching, config
from numba.misc.appdirs import AppDirs

__all__ = ["cache_dir", "install"]

_PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))

# numba >= 0.61 names the locators without the leading underscore
_UserWideCacheLocator = getattr(caching, "UserWideCacheLocator", None) or caching._UserWideCacheLocator
_CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl


def cache_dir() -> str:
    """The folder holding the package's numba cache: ``<user cache dir>/pgmpy-sgm/numba``.

    Examples
    --------
    >>> cache_dir().endswith(os.path.join("pgmpy-sgm", "numba"))
    True
    """
    return os.path.join(AppDirs(appname="pgmpy-sgm", appauthor=False).user_cache_dir, "numba")


def _fallback_dir() -> str:
    return os.path.join(tempfile.gettempdir(), f"pgmpy-sgm-numba-{getattr(os, 'getuid', lambda: 'user')()}")


def _in_package(py_file: str) -> bool:
    path = os.path.realpath(py_file)
    return os.path.commonpath([path, _PACKAGE_DIR]) == _PACKAGE_DIR


class PackageCacheLocator(_UserWideCacheLocator):
    """Numba cache locator for this package's functions: a per-user folder, never ``__pycache__``.

    Examples
    --------
    >>> locator = PackageCacheLocator.from_function(install, __file__)
    >>> locator is None or not locator.get_cache_path().startswith(_PACKAGE_DIR)
    True
    """

    def __init__(self, py_func, py_file, base_dir: str | None = None):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(base_dir or cache_dir(), self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if config.CACHE_DIR or not os.path.exists(py_file) or not _in_package(py_file):
            return None  # NUMBA_CACHE_DIR set, a notebook cell, or another package: numba's own locators
        for base in (cache_dir(), _fallback_dir()):
            locator = cls(py_func, py_file, base)
            try:
                locator.ensure_cache_path()
            except OSError:
                continue
            return locator
        return None


def install() -> None:
    """Put :class:`PackageCacheLocator` first among numba's cache locators (idempotent).

    Examples
    --------
    >>> install()
    >>> _CacheImpl._locator_classes[0] is PackageCacheLocator
    True
    """
    locators = _CacheImpl._locator_classes
    if PackageCacheLocator not in locators:
        locators.insert(0, PackageCacheLocator)


install()
