"""RunLog: a run's checkpoint file, started or resumed, and records appended."""

import pytest

from pgmpy_sgm.causal_discovery import Checkpoint
from pgmpy_sgm.causal_discovery._run_log import RunLog

IDENTITY = {"fingerprint": "f", "n_chains": 2, "strata": True}


def test_a_new_run_writes_its_header_and_refuses_to_overwrite(tmp_path):
    path = tmp_path / "run.ckpt"
    run = RunLog(Checkpoint(path)).load_or_start(IDENTITY, 7, None, 100, True, 0)
    assert path.exists() and len(run.chains) == 2 and run.identity["seed_entropy"] == 7
    with pytest.raises(ValueError, match="already exists: pass Checkpoint\\(path, resume=True\\)"):
        RunLog(Checkpoint(path)).load_or_start(IDENTITY, 7, None, 100, True, 0)


def test_a_checkpoint_of_another_run_or_seed_is_refused_naming_what_differs(tmp_path):
    path = tmp_path / "run.ckpt"
    RunLog(Checkpoint(path)).load_or_start(IDENTITY, 7, None, 100, True, 0)
    with pytest.raises(ValueError, match="belongs to another run: strata differs"):
        RunLog(Checkpoint(path, resume=True)).load_or_start({**IDENTITY, "strata": False}, 7, None, 100, False, 0)
    with pytest.raises(ValueError, match="another seed. Got: 7, expected 8"):
        RunLog(Checkpoint(path, resume=True)).load_or_start(IDENTITY, 8, None, 100, True, 0)


def test_without_a_path_nothing_is_written(tmp_path):
    log = RunLog(Checkpoint())
    run = log.load_or_start(IDENTITY, 1, None, 100, True, 0)
    log.save(run)
    assert list(tmp_path.iterdir()) == []
