"""Runs that lose nothing: a killed run resumes exactly, failed saves keep the old file, seeds reproduce.

* A checkpointing :class:`NonReversibleMCMC` fit in a subprocess is killed with SIGKILL once its
  checkpoint holds a few records, also in the middle of an append; the checkpoint reads, and
  resuming from it gives exactly the result of an uninterrupted run with the same seed.
* ``write_json``, ``save_figure`` and the checkpoint's header replace files atomically: a failure
  at any step leaves the previous file byte for byte and no temporary file behind; a failed
  checkpoint append leaves the earlier records readable.
* The same seed gives bit-identical results across runs, processes and ``n_jobs``.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
import time

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from pgmpy_sgm import StratifiedGraph
from pgmpy_sgm.causal_discovery import Checkpoint, CheckpointWarning, NonReversibleMCMC, _checkpoint
from pgmpy_sgm.plotting import _save, save_figure
from pgmpy_sgm.readwrite import json_io, read_json, write_json

RUN = {"n_iter": 1500, "n_chains": 2, "seed": 3, "weights": "count", "show_progress": False}

# the child pauses after each checkpoint so that the parent's SIGKILL lands mid-run
CHILD = textwrap.dedent(
    """
    import sys, time
    from pgmpy_sgm.causal_discovery import Checkpoint, NonReversibleMCMC, _checkpoint
    from pgmpy_sgm.datasets import load_heart_disease

    real = _checkpoint.CheckpointLog.append

    def slow_append(self, record):
        real(self, record)
        time.sleep(0.05)

    _checkpoint.CheckpointLog.append = slow_append
    params = {params}
    NonReversibleMCMC(**params, checkpoint=Checkpoint(sys.argv[1], every=25)).fit(load_heart_disease(as_counts=True))
    print("finished")
    """
)

DIGEST = textwrap.dedent(
    """
    from pgmpy_sgm.causal_discovery import NonReversibleMCMC
    from pgmpy_sgm.datasets import load_heart_disease
    import test_lose_nothing as t
    print(t.digest(NonReversibleMCMC(**t.RUN).fit(load_heart_disease(as_counts=True))))
    """
)


def digest(est) -> str:
    """A hash of every fitted result of ``est``, bit for bit."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(est.trace_).tobytes())
    h.update(np.float64(est.best_score_).tobytes())
    h.update(repr(sorted(est.model_.edges())).encode())
    h.update(repr(est.model_.strata).encode())
    h.update(repr(est.posterior_["edges"].tolist()).encode())
    for column in ("log_posterior", "probability"):
        h.update(est.posterior_[column].to_numpy(dtype=np.float64).tobytes())
    h.update(est.edge_probabilities_.to_numpy(dtype=np.float64).tobytes())
    h.update(est.chain_best_scores_.tobytes() + est.chain_best_iterations_.tobytes())
    h.update(repr((est.n_visited_, est.n_iter_, est.acceptance_rate_)).encode())
    return h.hexdigest()


@pytest.fixture(scope="module")
def heart():
    from pgmpy_sgm.datasets import load_heart_disease

    return load_heart_disease(as_counts=True)


@pytest.fixture(scope="module")
def uninterrupted(heart):
    return NonReversibleMCMC(**RUN).fit(heart)


def _env():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    paths = [here, root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


# -- SIGKILL and resume --------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkilled_run_leaves_an_intact_checkpoint_that_resumes_exactly(heart, uninterrupted, tmp_path):
    path = tmp_path / "run.ckpt"
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(params=repr(RUN)), str(path)], env=_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            if path.exists() and path.read_bytes().count(b"\n") >= 4:  # header and three records: mid-run
                break
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
    finally:
        _, stderr = child.communicate(timeout=60)
    assert child.returncode == -signal.SIGKILL, f"the run was not killed mid-way ({child.returncode}): {stderr}"
    with open(path, "ab") as handle:  # as if the kill had landed in the middle of an append
        handle.write(b'{"chains": [{"chain": 0, "iter')

    header, records, _ = _checkpoint.read_checkpoint(path)
    assert header["identity"]["seed_entropy"] == RUN["seed"]
    done = [state["iteration"] for state in records[-1]["chains"]]
    assert 0 < max(done) < RUN["n_iter"], done

    resumed = NonReversibleMCMC(**RUN, checkpoint=Checkpoint(str(path), every=25, resume=True)).fit(heart)
    assert [p.name for p in tmp_path.iterdir()] == ["run.ckpt"]  # nothing left behind
    assert resumed.n_iter_ == RUN["n_iter"]
    assert digest(resumed) == digest(uninterrupted)
    np.testing.assert_array_equal(resumed.trace_, uninterrupted.trace_)
    assert resumed.model_ == uninterrupted.model_
    assert resumed.posterior_.equals(uninterrupted.posterior_)


# -- atomic saves ------------------------------------------------------------------------------
def _fail(*args, **kwargs):
    raise OSError("simulated failure (disk full)")


def _leftovers(folder, keep):
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


@pytest.mark.parametrize("step", ["dumps", "write", "fsync", "replace"])
def test_failed_write_json_keeps_the_old_file(tmp_path, monkeypatch, step):
    path = tmp_path / "model.json"
    old = StratifiedGraph([("a", "b")])
    write_json(old, path)
    before = path.read_bytes()
    new = StratifiedGraph([("a", "b"), ("b", "c"), ("a", "c")], strata={("b", "c"): [{"a": 0}]})
    if step == "dumps":
        monkeypatch.setattr(json_io.json, "dumps", _fail)
    elif step == "write":  # the text is half written when the disk fills up
        real_fdopen = os.fdopen

        class HalfWriter:
            def __init__(self, handle):
                self.handle = handle

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.handle.close()

            def write(self, text):
                self.handle.write(text[: len(text) // 2])
                self.handle.flush()
                _fail()

        monkeypatch.setattr(json_io.os, "fdopen", lambda *a, **k: HalfWriter(real_fdopen(*a, **k)))
    else:
        monkeypatch.setattr(json_io.os, step, _fail)
    with pytest.raises(OSError, match="simulated failure"):
        write_json(new, path, overwrite=True)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert read_json(path) == old
    assert _leftovers(tmp_path, {"model.json"}) == []


@pytest.mark.parametrize("step", ["savefig", "replace"])
def test_failed_save_figure_keeps_the_old_file(tmp_path, monkeypatch, step):
    path = tmp_path / "figure.png"
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    save_figure(fig, path)
    before = path.read_bytes()
    ax.plot([0, 1], [1, 0])
    if step == "savefig":  # matplotlib writes part of the image, then fails
        def partial(self, handle, **kwargs):
            handle.write(b"\x89PNG\r\n\x1a\n half an image")
            _fail()

        monkeypatch.setattr(Figure, "savefig", partial)
    else:
        monkeypatch.setattr(_save.os, "replace", _fail)
    try:
        with pytest.raises(OSError, match="simulated failure"):
            save_figure(fig, path)
    finally:
        plt.close(fig)
    assert path.read_bytes() == before
    assert _leftovers(tmp_path, {"figure.png"}) == []


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_failed_checkpoint_header_keeps_the_old_file(tmp_path, monkeypatch, step):
    path = tmp_path / "run.ckpt"
    _checkpoint.CheckpointLog.create(path, {"run": 1}).append({"chains": [1, 2, 3]})
    before = path.read_bytes()
    monkeypatch.setattr(_checkpoint.os, step, _fail)
    with pytest.raises(OSError, match="simulated failure"):
        _checkpoint.CheckpointLog.create(path, {"run": 2})
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert _checkpoint.read_checkpoint(path)[1] == [{"chains": [1, 2, 3]}]
    assert _leftovers(tmp_path, {"run.ckpt"}) == []


def test_failed_checkpoint_during_fit_keeps_the_previous_records(heart, tmp_path, monkeypatch):
    path = tmp_path / "run.ckpt"
    real = _checkpoint.CheckpointLog.append
    calls = []

    def fail_second(self, record):
        calls.append(1)
        if len(calls) == 2:
            _fail()
        return real(self, record)

    monkeypatch.setattr(_checkpoint.CheckpointLog, "append", fail_second)
    est = NonReversibleMCMC(**{**RUN, "n_iter": 100}, checkpoint=Checkpoint(str(path), every=25))
    with pytest.warns(CheckpointWarning, match="simulated failure"):
        est.fit(heart)  # the run goes on and keeps its results
    monkeypatch.undo()
    assert est.trace_.shape == (RUN.get("n_chains", 2), 101) and not np.isnan(est.trace_).any()
    _, records, _ = _checkpoint.read_checkpoint(path)
    assert [[state["iteration"] for state in r["chains"]] for r in records] == [[25, 25], [75, 75], [100, 100]]
    assert _leftovers(tmp_path, {"run.ckpt"}) == []
    resumed = NonReversibleMCMC(**{**RUN, "n_iter": 100}, checkpoint=Checkpoint(str(path), resume=True)).fit(heart)
    assert digest(resumed) == digest(est)  # the record after the failed one carried what it missed


# -- reproducibility ------------------------------------------------------------------------------
def test_same_seed_is_bit_identical_across_runs(heart, uninterrupted):
    again = NonReversibleMCMC(**RUN).fit(heart)
    assert digest(again) == digest(uninterrupted)
    other = NonReversibleMCMC(**{**RUN, "seed": RUN["seed"] + 1}).fit(heart)
    assert digest(other) != digest(uninterrupted)  # the digest does see the seed


def test_same_seed_is_bit_identical_across_processes(uninterrupted):
    here = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run([sys.executable, "-c", DIGEST], env=_env(), cwd=here, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == digest(uninterrupted)


def test_same_seed_is_bit_identical_across_n_jobs(heart, uninterrupted):
    parallel = NonReversibleMCMC(**RUN, n_jobs=2).fit(heart)
    assert digest(parallel) == digest(uninterrupted)


# -- worker processes end with their parent ----------------------------------------------------
LONG_PARALLEL = textwrap.dedent(
    """
    import sys
    from pgmpy_sgm.causal_discovery import Checkpoint, NonReversibleMCMC
    from pgmpy_sgm.datasets import load_heart_disease
    NonReversibleMCMC(n_iter=10_000_000, n_chains=2, n_jobs=2, seed=0, weights="count", show_progress=False,
                      checkpoint=Checkpoint(sys.argv[1], every=200)).fit(load_heart_disease(as_counts=True))
    """
)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().decode(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not (hasattr(signal, "SIGKILL") and os.path.isdir("/proc")), reason="needs SIGKILL and /proc")
def test_worker_processes_end_when_the_fit_is_killed(tmp_path):
    path = tmp_path / "run.ckpt"
    child = subprocess.Popen([sys.executable, "-c", LONG_PARALLEL, str(path)], env=_env(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not (path.exists() and path.read_bytes().count(b"\n") >= 3):
            time.sleep(0.5)  # two records: the workers have run segments
        workers = [p for p in _children(child.pid) if "LokyProcess" in _cmdline(p)]
        assert len(workers) >= 2, "the workers did not start"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.5)
    assert not any(_alive(p) for p in workers), "worker processes outlived the killed fit"
