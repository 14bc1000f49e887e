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


def test_a_run_without_a_file_keeps_no_record_of_changes_and_one_with_a_file_does(tmp_path):
    """Without a checkpoint the changed graphs are not tracked (a third copy of every key); a record still works."""
    untracked = RunLog(Checkpoint()).load_or_start(IDENTITY, 1, None, 100, True, 0)
    tracked = RunLog(Checkpoint(tmp_path / "run.ckpt")).load_or_start(IDENTITY, 1, None, 100, True, 0)
    for run in (untracked, tracked):
        run.add_found({0b101: -3.0, 0b11: -4.0}, 0b01)
        run.add_found({0b11: -4.0}, 0b10)
    assert untracked._dirty is None and len(tracked._dirty) == 2
    for run in (untracked, tracked):
        record = run.record()
        assert record["seen_by"] == {"0x5": 1, "0x3": 3} and record["visited"] == {"0x5": -3.0, "0x3": -4.0}
