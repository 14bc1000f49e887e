"""The notebooks are executed once per test run by ``tests/test_notebooks.py``, which also compares
their outputs with the stored ones; ``--nbmake`` would execute them a second time."""

collect_ignore_glob = ["*.ipynb"]
