"""The pgmpy-sgm command line: learn, score, convert, and one-line errors."""

import subprocess
import sys

import matplotlib.colors as mcolors
import numpy as np
import pandas as pd
import pytest

import pgmpy_sgm.plotting as plotting
from pgmpy_sgm.cli import main
from pgmpy_sgm.datasets import load_heart_disease


@pytest.fixture(scope="module")
def heart_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("data") / "heart.csv"
    load_heart_disease(as_counts=True).to_csv(path, index=False)
    return path


def test_learn_without_data_reports_the_paper_models(capsys):
    assert main(["learn", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Best stratified graph: log unnormalized posterior (SG prior) -6715.90" in out
    assert "systolic_bp ⟂ lipoprotein_ratio | smoking=0" in out
    assert "smoking ⟂ systolic_bp | lipoprotein_ratio=1" in out
    assert ("Best ordinary decomposable graphical model (same budget): log unnormalized posterior (SG prior) -6720.18"
            in out)
    assert "Log Bayes factor, stratified vs ordinary: 4.28" in out
    assert "free parameters: 12 (underlying graph: 14)" in out


def test_learn_writes_plot_json_and_bif(tmp_path, capsys, monkeypatch):
    figures = []
    real_save = plotting.save_figure

    def recording_save(fig, path, *args, **kwargs):
        figures.append(fig)
        return real_save(fig, path, *args, **kwargs)

    monkeypatch.setattr(plotting, "save_figure", recording_save)
    png, js, bif = tmp_path / "sg.png", tmp_path / "sg.json", tmp_path / "sg.bif"
    assert main(["learn", "--quiet", "--plot", str(png), "--json", str(js), "--bif", str(bif)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ax = figures[0].axes[0]
    labelled = plotting.artists_by_gid(ax, "sgm-labelled")
    plain = plotting.artists_by_gid(ax, "sgm-edge")
    assert len(labelled) == 2 and len(plain) == 4
    red = np.array(mcolors.to_rgba("red"))
    for artist in labelled:
        assert np.allclose(np.asarray(mcolors.to_rgba_array(artist.get_color()))[0], red)
    for artist in plain:
        assert not np.allclose(np.asarray(mcolors.to_rgba_array(artist.get_color()))[0], red)
    texts = " ".join(t.get_text() for t in plotting.artists_by_gid(ax, "sgm-strata"))
    assert "smoking=0" in texts and "lipoprotein_ratio=1" in texts
    assert js.stat().st_size > 0 and "variable systolic_bp" in bif.read_text()
    capsys.readouterr()
    assert main(["score", str(_heart_csv(tmp_path)), str(js), "--counts-column", "count"]) == 0
    assert "log unnormalized posterior (SG prior) -6715.8986" in capsys.readouterr().out
    out_bif = tmp_path / "converted.bif"
    assert main(["convert", str(js), "--bif", str(out_bif), "--data", str(_heart_csv(tmp_path)),
                 "--counts-column", "count"]) == 0
    assert "variable systolic_bp" in out_bif.read_text()


def _heart_csv(folder):
    path = folder / "heart.csv"
    if not path.exists():
        load_heart_disease(as_counts=True).to_csv(path, index=False)
    return path


def test_learn_from_csv_with_counts_and_no_strata(heart_csv, capsys):
    assert main(["learn", str(heart_csv), "--counts-column", "count", "--no-strata", "--quiet",
                 "--iterations", "500"]) == 0
    out = capsys.readouterr().out
    assert "Best ordinary decomposable graphical model: log unnormalized posterior (SG prior) -6720.18" in out
    assert "Bayes factor" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["learn", "missing.csv"], "data file not found: missing.csv"),
        (["learn", "{cont}"], "Column 'x' looks continuous"),
        (["learn", "{heart}", "--counts-column", "n"], "counts column 'n' is not in"),
        (["learn", "{empty}"], "cannot read"),
        (["score", "{heart}", "missing.json"], "model file not found: missing.json"),
        (["convert", "{json}"], "convert needs --bif"),
        (["convert", "{json}", "--bif", "out.bif"], "holds a graph without parameters"),
    ],
)
def test_errors_are_one_readable_line(argv, message, tmp_path, heart_csv, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    pd.DataFrame({"x": rng.random(50), "y": rng.integers(0, 2, 50)}).to_csv(tmp_path / "cont.csv", index=False)
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "sg.json").write_text("")
    from pgmpy_sgm import StratifiedGraph
    from pgmpy_sgm.readwrite import write_json

    write_json(StratifiedGraph([("smoking", "mental_work")]), tmp_path / "g.json", overwrite=True)
    names = {"cont": tmp_path / "cont.csv", "heart": heart_csv, "empty": tmp_path / "empty.csv",
             "json": tmp_path / "g.json"}
    argv = [a.format(**names) for a in argv] + (["--quiet"] if argv[0] == "learn" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("pgmpy-sgm: error: ") and message in err[-1]
    assert not any("Traceback" in line for line in err)


def test_module_entry_point_reports_errors_without_traceback(tmp_path):
    result = subprocess.run([sys.executable, "-m", "pgmpy_sgm", "learn", str(tmp_path / "nope.csv")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "data file not found" in result.stderr


def test_data_line_printed_once_and_terms_explained(heart_csv, capsys):
    assert main(["learn", str(heart_csv), "--counts-column", "count", "--quiet", "--iterations", "50",
                 "--chains", "1", "--no-strata"]) == 0
    captured = capsys.readouterr()
    assert (captured.out + captured.err).count(str(heart_csv)) == 1 and captured.err == ""
    assert "Note: log unnormalized posterior (SG prior) = log marginal likelihood" in captured.out
    assert "a stratum of an edge is a context" in captured.out


def test_forgotten_counts_column_is_named_in_a_warning(heart_csv, tmp_path, capsys):
    from pgmpy_sgm import StratifiedGraph
    from pgmpy_sgm.readwrite import write_json

    write_json(StratifiedGraph([("smoking", "mental_work")]), tmp_path / "g.json")
    assert main(["score", str(heart_csv), str(tmp_path / "g.json")]) == 0
    err = capsys.readouterr().err
    assert "pgmpy-sgm: warning: column 'count'" in err and "pass --counts-column count" in err
    assert main(["score", str(heart_csv), str(tmp_path / "g.json"), "--counts-column", "count"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_sep_and_keep_na_strings(tmp_path, capsys):
    rows = "".join(f"{s};{i % 2}\n" for i, s in enumerate(["NA", "None", "x"] * 4))
    (tmp_path / "d.csv").write_text("a;b\n" + rows, encoding="utf-8")
    assert main(["learn", str(tmp_path / "d.csv"), "--sep", ";", "--quiet"]) == 2
    assert "such as 'NA'" in capsys.readouterr().err
    out = tmp_path / "m.json"
    assert main(["learn", str(tmp_path / "d.csv"), "--sep", ";", "--keep-na-strings", "--quiet", "--iterations",
                 "20", "--chains", "1", "--json", str(out)]) == 0
    from pgmpy_sgm.readwrite import read_json

    assert sorted(read_json(out).nodes()) == ["a", "b"]
    assert "12 observations, 2 variables" in capsys.readouterr().out


def test_report_piped_into_head_ends_quietly(tmp_path):
    command = (f"'{sys.executable}' -m pgmpy_sgm learn --quiet --iterations 50 --chains 1 --no-strata | head -n 1")
    result = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.stdout.startswith("Data: bundled heart-disease data") and result.stderr == ""


def test_learn_reports_the_chains_spread_and_takes_a_time_budget(capsys):
    assert main(["learn", "--quiet", "--max-time", "30", "--iterations", "400", "--method", "paper"]) == 0
    out = capsys.readouterr().out
    assert "Chains' best scores spread over 0.00 log-units (they agree)" in out
    assert "log unnormalized posterior (SG prior) -6715.90" in out


@pytest.mark.parametrize("value", ["0", "-3", "inf", "soon"])
def test_max_time_must_be_a_positive_number(value, capsys):
    with pytest.raises(SystemExit):
        main(["learn", "--max-time", value])
    assert "--max-time" in capsys.readouterr().err


def _random_csv(folder, n=90, seed=3, missing=False):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    df = pd.DataFrame({"a": a, "b": np.where(rng.random(n) < 0.8, a, 1 - a), "c": rng.choice(["x", "y", "z"], n)})
    if missing:
        df["b"] = df["b"].astype(object)
        df.loc[[5, 70], "b"] = None
    path = folder / "rows.csv"
    df.to_csv(path, index=False)
    return path, df


def test_chunked_csv_and_parquet_encode_exactly_as_one_read(tmp_path, monkeypatch):
    from pgmpy_sgm.cli import read_data
    from pgmpy_sgm.core.data import EncodedData

    monkeypatch.setattr("pgmpy_sgm.readwrite.data_file.CHUNK_ROWS", 7)
    path, _ = _random_csv(tmp_path)
    whole = EncodedData(pd.read_csv(path))
    frame, weights, description = read_data(str(path), None)
    assert description.endswith("(90 observations, 3 variables)")
    pooled = EncodedData(frame, weights=weights)
    assert pooled.state_names == whole.state_names
    np.testing.assert_array_equal(pooled.codes, whole.codes)
    np.testing.assert_array_equal(pooled.weights, whole.weights)
    pytest.importorskip("pyarrow")
    pq = tmp_path / "rows.parquet"
    pd.read_csv(path).to_parquet(pq, row_group_size=10)
    frame, weights, _ = read_data(str(pq), None)
    from_parquet = EncodedData(frame, weights=weights)
    assert from_parquet.state_names == whole.state_names
    np.testing.assert_array_equal(from_parquet.weights, whole.weights)


def test_learn_from_parquet_equals_csv(tmp_path, capsys, monkeypatch):
    pytest.importorskip("pyarrow")
    monkeypatch.setattr("pgmpy_sgm.readwrite.data_file.CHUNK_ROWS", 11)
    path, df = _random_csv(tmp_path)
    pq = tmp_path / "rows.pq"
    df.to_parquet(pq)
    argv = ["--quiet", "--iterations", "200", "--chains", "1"]
    assert main(["learn", str(path), *argv]) == 0
    from_csv = capsys.readouterr().out.replace(str(path), "FILE")
    assert main(["learn", str(pq), *argv]) == 0
    assert capsys.readouterr().out.replace(str(pq), "FILE") == from_csv
    assert main(["learn", str(pq), "--ldag", "--restarts", "1", "--quiet"]) == 0


def test_parquet_without_pyarrow_names_the_package(tmp_path, capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("pyarrow"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    (tmp_path / "d.parquet").write_bytes(b"PAR1")
    monkeypatch.setattr(builtins, "__import__", fake_import)
    assert main(["learn", str(tmp_path / "d.parquet"), "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"pgmpy-sgm: error: reading the Parquet file {tmp_path / 'd.parquet'} needs pyarrow: pip install pyarrow"
    )


def test_errors_count_rows_over_all_chunks(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("pgmpy_sgm.readwrite.data_file.CHUNK_ROWS", 4)
    path, _ = _random_csv(tmp_path, missing=True)
    assert main(["learn", str(path), "--quiet"]) == 2
    assert "column 'b' of" in (err := capsys.readouterr().err) and "has 2 empty cell(s) (missing values)" in err
    counts = tmp_path / "counts.csv"
    counts.write_text("a,n\n" + "".join(f"{i % 2},{i}\n" for i in range(8)) + "1,x\n")
    assert main(["learn", str(counts), "--counts-column", "n", "--quiet"]) == 2
    assert "counts column 'n' of" in (err := capsys.readouterr().err) and "holds 'x' in data row 9" in err


def test_progress_bar_over_the_file_unless_quiet(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("pgmpy_sgm.readwrite.data_file.PROGRESS_DELAY", 0)
    path, _ = _random_csv(tmp_path)
    argv = ["learn", str(path), "--iterations", "50", "--chains", "1", "--no-strata"]
    assert main([*argv, "--quiet"]) == 0
    assert "Reading" not in capsys.readouterr().err
    assert main(argv) == 0
    assert "Reading" in capsys.readouterr().err


def test_dask_option_pools_the_file_with_dask(tmp_path, capsys):
    pytest.importorskip("dask.dataframe")
    path, _ = _random_csv(tmp_path)
    argv = ["learn", str(path), "--quiet", "--iterations", "200", "--chains", "1"]
    assert main(argv) == 0
    in_chunks = capsys.readouterr().out
    assert main([*argv, "--dask"]) == 0
    assert capsys.readouterr().out == in_chunks


def test_dask_option_without_dask_names_the_extra(tmp_path, capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("dask"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    path, _ = _random_csv(tmp_path)
    monkeypatch.setattr(builtins, "__import__", fake_import)
    assert main(["learn", str(path), "--quiet", "--dask"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("pgmpy-sgm: error: --dask: ") and err.endswith('pip install "pgmpy-sgm[dask]"')
    assert len(err.splitlines()) == 1


def test_dask_option_with_a_scheduler_address(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    path, _ = _random_csv(tmp_path)
    argv = ["score", str(path), str(_learned_json(path, capsys))]
    assert main(argv) == 0
    in_chunks = capsys.readouterr().out
    cluster_args = dict(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    with distributed.LocalCluster(**cluster_args) as cluster:
        assert main([*argv, "--dask", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == in_chunks


def _learned_json(data, capsys):
    out = data.parent / "m.json"
    assert main(["learn", str(data), "--quiet", "--iterations", "100", "--chains", "1", "--json", str(out)]) == 0
    capsys.readouterr()
    return out


def test_score_warns_about_counts_written_as_floats(tmp_path, capsys):
    from pgmpy_sgm import StratifiedGraph
    from pgmpy_sgm.readwrite import write_json

    data = tmp_path / "d.csv"
    data.write_text("a,b,count\n0,1,3.0\n1,0,5.0\n1,1,2.0\n0,0,7.0\n", encoding="utf-8")
    write_json(StratifiedGraph([("a", "b")]), tmp_path / "g.json")
    assert main(["score", str(data), str(tmp_path / "g.json")]) == 0
    err = capsys.readouterr().err
    assert "warning: column 'count'" in err and "(integers 2..7)" in err and "--counts-column count" in err
    assert main(["learn", str(data), "--ldag", "--restarts", "0", "--quiet"]) == 0
    assert "warning: column 'count'" in capsys.readouterr().err


@pytest.fixture(scope="module")
def gappy_csv(tmp_path_factory):
    data = load_heart_disease().astype(object).mask(np.random.default_rng(0).random((1841, 6)) < 0.05)
    path = tmp_path_factory.mktemp("gaps") / "heart_gaps.csv"
    data.to_csv(path, index=False)
    return path


def test_learn_with_missing_cells(gappy_csv, tmp_path, capsys):
    assert main(["learn", str(gappy_csv), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "'smoking' (" in err and "'family_history' (" in err and "--missing" in err
    bif = tmp_path / "em.bif"
    assert main(["learn", str(gappy_csv), "--quiet", "--missing", "em", "--bif", str(bif)]) == 0
    out = capsys.readouterr().out
    assert "structural EM from the DAG of the penalised node-average likelihood (available cases per family), " in out
    assert "EM iteration 2:" in out
    assert "lipoprotein_ratio" in out and bif.exists()
    assert main(["learn", str(gappy_csv), "--quiet", "--missing", "em", "--ldag"]) == 0
    out = capsys.readouterr().out
    assert "EM iteration 1:" in out and "structural EM from the DAG of the node-average BDeu score" in out
    assert main(["learn", str(gappy_csv), "--quiet", "--missing", "em", "--ldag", "--em-start", "tree"]) == 0
    assert "structural EM from the Chow-Liu tree (pairwise available cases)," in capsys.readouterr().out
    assert main(["learn", str(gappy_csv), "--quiet", "--missing", "complete_cases", "--iterations", "300"]) == 0


def test_learn_em_start_best_reports_each_start_and_em_start_needs_em(gappy_csv, capsys):
    assert main(["learn", str(gappy_csv), "--quiet", "--missing", "em", "--ldag", "--em-start", "best"]) == 0
    out = capsys.readouterr().out
    assert ("observed-data criterion of each start's result: DAG of the node-average BDeu score "
            "(available cases per family) -") in out
    assert ", DAG of the penalised node-average likelihood (available cases per family) -" in out
    assert ", Chow-Liu tree (pairwise available cases) -" in out and ", complete cases -" in out
    assert main(["learn", str(gappy_csv), "--quiet", "--missing", "complete_cases", "--em-start", "tree"]) == 2
    assert "--em-start applies to --missing em only" in capsys.readouterr().err


def test_learn_em_reports_the_second_look_unless_skipped(gappy_csv, tmp_path, capsys):
    holes = load_heart_disease().astype(object).mask(np.random.default_rng(4).random((1841, 6)) < 0.2)
    holes.to_csv(tmp_path / "holes.csv", index=False)  # here the available cases support new parents
    assert main(["learn", str(tmp_path / "holes.csv"), "--quiet", "--missing", "em", "--ldag"]) == 0
    out = capsys.readouterr().out
    assert "EM's second look, from the settled DAG with " in out and "observed-data criterion" in out
    assert main(["learn", str(tmp_path / "holes.csv"), "--quiet", "--missing", "em", "--ldag", "--no-em-revisit"]) == 0
    assert "second look" not in capsys.readouterr().out
    assert main(["learn", str(gappy_csv), "--quiet", "--missing", "state", "--no-em-revisit"]) == 2
    assert "--no-em-revisit applies to --missing em only" in capsys.readouterr().err
