"""Numba's cache of the package's kernels lives in a per-user folder, never in the package folder.

Cache files left in ``site-packages/pgmpy_sgm/core/__pycache__`` survive ``pip uninstall`` and
turn the folder into a namespace package that hides a later install.
"""

import importlib
import os
import pkgutil
import subprocess
import sys

from numba.core.caching import FunctionCache
from numba.core.registry import CPUDispatcher

import pgmpy_sgm
from pgmpy_sgm._numba_cache import PackageCacheLocator, cache_dir

PACKAGE_DIR = os.path.dirname(os.path.realpath(pgmpy_sgm.__file__))


def _cached_kernels():
    found = {}
    for info in pkgutil.walk_packages(pgmpy_sgm.__path__, "pgmpy_sgm."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and isinstance(getattr(value, "_cache", None), FunctionCache):
                found[f"{value.py_func.__module__}.{value.py_func.__qualname__}"] = value
    return found


def test_every_cached_kernel_uses_the_user_cache_folder():
    kernels = _cached_kernels()
    assert kernels, "no numba kernel with cache=True found"
    for name, kernel in kernels.items():
        path = os.path.realpath(kernel._cache.cache_path)
        if not os.environ.get("NUMBA_CACHE_DIR"):
            assert isinstance(kernel._cache._impl.locator, PackageCacheLocator), name
        assert os.path.commonpath([path, PACKAGE_DIR]) != PACKAGE_DIR, (name, path)


def test_cache_folder_is_per_user_and_outside_the_package():
    folder = os.path.realpath(cache_dir())
    assert folder.endswith(os.path.join("pgmpy-sgm", "numba"))
    assert os.path.commonpath([folder, PACKAGE_DIR]) != PACKAGE_DIR


def test_locator_leaves_other_packages_to_numba(tmp_path):
    source = tmp_path / "elsewhere.py"
    source.write_text("def f():\n    return 1\n")
    namespace: dict = {}
    exec(compile(source.read_text(), str(source), "exec"), namespace)
    assert PackageCacheLocator.from_function(namespace["f"], str(source)) is None


def test_numba_cache_dir_still_wins(tmp_path):
    kernel = next(iter(_cached_kernels().values()))
    module, name = kernel.py_func.__module__, kernel.py_func.__name__
    code = f"import os, {module} as m; print(os.path.realpath(m.{name}._cache.cache_path))"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith(os.path.realpath(tmp_path))
