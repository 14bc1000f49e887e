"""Checkpoints are verified before a run resumes: digests, structure, semantics and identity."""

import json

import pytest

from pgmpy_sgm import load_heart_disease
from pgmpy_sgm.causal_discovery import Checkpoint, NonReversibleMCMC, _checkpoint
from pgmpy_sgm.structure_score import SGMScoreSettings

RUN = {"n_iter": 200, "n_chains": 2, "seed": 5, "weights": "count", "show_progress": False}


@pytest.fixture(scope="module")
def heart():
    return load_heart_disease(as_counts=True)


@pytest.fixture(scope="module")
def saved(heart, tmp_path_factory):
    path = tmp_path_factory.mktemp("ckpt") / "run.ckpt"
    NonReversibleMCMC(**RUN, checkpoint=Checkpoint(str(path), every=50)).fit(heart)
    return path.read_bytes()


def _lines(raw: bytes) -> list[dict]:
    return [json.loads(line)["body"] for line in raw.decode("utf-8").splitlines()]


def _forge(entries: list[dict]) -> bytes:
    """Rewrite a checkpoint with valid digests (a deliberate forgery the digest chain alone cannot stop)."""
    text, previous = "", ""
    for body in entries:
        line, previous = _checkpoint._line(previous, body)
        text += line
    return text.encode("utf-8")


def _resume(heart, path, **changes):
    return NonReversibleMCMC(**{**RUN, **changes}, checkpoint=Checkpoint(str(path), resume=True)).fit(heart)


def test_resume_from_an_intact_checkpoint(heart, saved, tmp_path):
    path = tmp_path / "run.ckpt"
    path.write_bytes(saved)
    assert _resume(heart, path, n_iter=300).n_iter_ == 300


def _edit(entries, line, position=None, **fields):
    entries = json.loads(json.dumps(entries))
    target = entries[line] if position is None else entries[line]["chains"][position]
    target.update(fields)
    return entries


EDITS = [
    ("edited score", lambda e: _edit(e, -1, 0, best_score=1e9), r"best score of chain 0 is 1000000000\.0"),
    ("negative iteration", lambda e: _edit(e, -1, 1, iteration=-5), r"chain 1 field 'iteration' must be >= 0"),
    ("iteration backwards", lambda e: _edit(e, -1, 0, iteration=e[-1]["chains"][0]["best_iteration"] + 1),
     r"chain 0 goes back from iteration 150 to \d+"),
    ("non-chordal key", lambda e: _edit(e, -1, 0, key=hex(1 << 0 | 1 << 5 | 1 << 9 | 1 << 2)),  # 4-cycle 0-1-2-3
     r"the current graph of chain 0 is not decomposable"),
    ("key out of range", lambda e: _edit(e, -1, 0, key=hex(1 << 40)), r"edges beyond the 15 pairs"),
    ("chain index", lambda e: _edit(e, -1, 1, **{"chain": 0}), r"chain 1 is stored as chain 0"),
    ("bad rng", lambda e: _edit(e, -1, 0, rng={"bit_generator": "nope"}), r"chain 0 has an invalid random generator"),
    ("bad trace", lambda e: _edit(e, -1, traces=["not base64!", e[-1]["traces"][1]]),
     r"trace of chain 0 must be base64 text of float64 values"),
    ("missing field", lambda e: [*e[:-1], {k: v for k, v in e[-1].items() if k != "traces"}],
     r"line 5: field 'traces' is missing"),
    ("added graph", lambda e: _edit(e, -1, visited={**e[-1]["visited"], hex(0b11): 5.0}, seen_by=e[-1]["seen_by"]),
     r"visited graph 0x3 is stored with score 5\.0|visited graphs and the chains"),
]  # fmt: skip


@pytest.mark.parametrize("name, edit, message", EDITS, ids=[e[0] for e in EDITS])
def test_forged_content_is_refused_with_the_field(heart, saved, tmp_path, name, edit, message):
    path = tmp_path / "run.ckpt"
    path.write_bytes(_forge(edit(_lines(saved))))
    with pytest.raises(ValueError, match=message) as info:
        _resume(heart, path, n_iter=300)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_edited_line_breaks_the_digest(heart, saved, tmp_path):
    path = tmp_path / "run.ckpt"
    lines = [json.loads(line) for line in saved.decode("utf-8").splitlines()]
    lines[-1]["body"]["chains"][0]["best_score"] = 1e9  # edited without fixing the digest
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in lines), encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 5: the digest does not match"):
        _resume(heart, path)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"[]\n", r"is not a NonReversibleMCMC checkpoint \(no digest header\)"),
        (b"null\n", r"is not a NonReversibleMCMC checkpoint \(no digest header\)"),
        (b"42\n", r"is not a NonReversibleMCMC checkpoint \(no digest header\)"),
        (b"", r"no complete header line"),
        (b"\xff\xfe{}\n", r"line 1: not UTF-8 text"),
        (_checkpoint._line("", {"format": "other"})[0].encode(), r"is not a NonReversibleMCMC checkpoint\. Got format"),
        (_checkpoint._line("", [1, 2])[0].encode(), r"line 1: expected a JSON object\. Got: list"),
        (b'{"digest":"' + b"0" * 64 + b'","body":{not json}\n', r"line 1: the digest does not match"),
    ],
)
def test_damaged_files_name_the_file(heart, tmp_path, content, message):
    path = tmp_path / "run.ckpt"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message) as info:
        _resume(heart, path)
    assert str(path) in str(info.value)


def test_other_settings_are_refused_with_the_reason(heart, saved, tmp_path):
    path = tmp_path / "run.ckpt"
    path.write_bytes(saved)
    with pytest.raises(ValueError, match=r"another run: strata differs"):
        _resume(heart, path, strata=False)
    with pytest.raises(ValueError, match=r"another run: start differs"):
        _resume(heart, path, start="empty")
    with pytest.raises(ValueError, match=r"another run: the data or max_labelled_clique"):
        _resume(heart, path, scoring_method=SGMScoreSettings(max_labelled_clique=3))


def test_a_resumed_run_keeps_its_recorded_start_without_computing_it_again(heart, tmp_path, monkeypatch):
    path = tmp_path / "climbed.ckpt"
    first = NonReversibleMCMC(**RUN, start="climbed", checkpoint=Checkpoint(str(path), every=50)).fit(heart)
    header = _lines(path.read_bytes())[0]
    assert header["identity"]["start_setting"] == "climbed"
    from pgmpy_sgm.causal_discovery import nonreversible_mcmc

    def no_second_climb(*args, **kwargs):
        raise AssertionError("the climbed start was computed again on resume")

    monkeypatch.setattr(nonreversible_mcmc, "climbed_start_key", no_second_climb)
    resumed = _resume(heart, path, start="climbed", n_iter=300)
    assert resumed.n_iter_ == 300 and resumed.best_score_ >= first.best_score_
    with pytest.raises(ValueError, match=r"another run: start differs. Got: 'climbed', expected 'best_forest'"):
        _resume(heart, path, start="best_forest", n_iter=400)


def test_a_file_written_before_the_start_setting_was_recorded_resumes(heart, saved, tmp_path):
    entries = _lines(saved)
    del entries[0]["identity"]["start_setting"]
    path = tmp_path / "earlier.ckpt"
    path.write_bytes(_forge(entries))
    assert _resume(heart, path, n_iter=300).n_iter_ == 300


def test_a_recorded_start_that_is_not_a_graph_key_is_refused_naming_the_file(heart, saved, tmp_path):
    entries = _lines(saved)
    entries[0]["identity"]["start"] = "not hex"
    path = tmp_path / "forged.ckpt"
    path.write_bytes(_forge(entries))
    with pytest.raises(ValueError, match=r"forged\.ckpt', line 1: the identity has no valid 'start'. Got: 'not hex'"):
        _resume(heart, path, n_iter=300)


def test_earlier_keywords_warn_and_give_the_same_run(heart, tmp_path):
    grouped = NonReversibleMCMC(**RUN, checkpoint=Checkpoint(tmp_path / "a.ckpt", every=50)).fit(heart)
    with pytest.warns(FutureWarning, match=r"checkpoint=Checkpoint\(path, every=50\)"):
        earlier = NonReversibleMCMC(**RUN, checkpoint=str(tmp_path / "b.ckpt"), checkpoint_every=50).fit(heart)
    assert earlier.best_score_ == grouped.best_score_
    assert (tmp_path / "a.ckpt").read_text().count("\n") == (tmp_path / "b.ckpt").read_text().count("\n")
    with pytest.raises(ValueError, match="^checkpoint_every must be an integer >= 1"):
        NonReversibleMCMC(**RUN, checkpoint_every=0).fit(heart)
    with pytest.raises(ValueError, match="resume=True needs a checkpoint file"):
        NonReversibleMCMC(**RUN, resume=True).fit(heart)


def test_checkpoint_settings_are_checked_by_name():
    with pytest.raises(ValueError, match=r"^seconds must be a positive number of seconds\. Got: 0"):
        Checkpoint("run.ckpt", seconds=0)
    with pytest.raises(TypeError, match=r"^path must be a file path or None\. Got: 3"):
        Checkpoint(3)
    with pytest.raises(TypeError, match=r"^resume must be a bool\. Got: 'yes'"):
        Checkpoint("run.ckpt", resume="yes")
