"""Every bad input gets its exact exception type and a message naming the culprit.

One table covers data, stratified graph specifications, score and estimator parameters, model
files and the command line. For the command line the "exception" is :data:`EXIT_2`: exit status
2, one readable ``pgmpy-sgm ... error:`` line on stderr and no traceback.

Decisions recorded here:

* a column with a single state is allowed (scoring and fitting work);
* more than 255 states in a column are allowed (codes widen to ``uint16``);
* a single row is allowed for scoring and for fitting parameters, while
  :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` requires at least 2 rows, as pgmpy's
  structure learners (through scikit-learn's validation) do;
* a contingency table larger than ``max_cells`` is refused before it is allocated.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import pgmpy_sgm.core.data as data_module
from pgmpy_sgm import SGMScore, StratifiedGraph
from pgmpy_sgm.causal_discovery import NonReversibleMCMC
from pgmpy_sgm.cli import main
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.models import StrataNotShownWarning, StratifiedGraphicalModel
from pgmpy_sgm.readwrite import read_json, to_json_dict, write_json

EXIT_2 = "exit status 2"

DF = pd.DataFrame({"a": [0, 1, 1, 0], "b": [0, 1, 0, 1], "c": [1, 1, 0, 0]})
WIDE = pd.DataFrame({v: np.arange(40) % 10 for v in "abcd"})  # 10 states each
K4 = [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]


def _mcmc(**params):
    return lambda tmp: NonReversibleMCMC(**{"n_iter": 5, "show_progress": False, **params}).fit(DF)


def _json_file(tmp, text):
    path = tmp / "model.json"
    path.write_text(text, encoding="utf-8")
    return read_json(path)


def _document(**changes):
    doc = to_json_dict(StratifiedGraph([("a", "b"), ("b", "c")], state_names={"a": ["lo", "hi"]}))
    return json.dumps({**doc, **changes})


def _nested(depth):
    value = [0]
    for _ in range(depth):
        value = [value]
    return value


def _csv(tmp, text, name="data.csv"):
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _cli(*argv):
    def run(tmp):
        return main([str(a).replace("{tmp}", str(tmp)) for a in argv])

    return run


def _model(tmp):
    path = tmp / "m.json"
    if not path.exists():
        write_json(StratifiedGraph([("a", "b")]), path)
    return str(path)


def _folder(tmp, name):
    (tmp / name).mkdir()
    return str(tmp / name)


def _binary(tmp, name):
    (tmp / name).write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    return str(tmp / name)


def _irregular():
    """Labels of two edges of a 4-clique whose closure labels edge (a, d) in all four contexts."""
    strata = {("a", "d"): [{"b": 0, "c": 0}, {"b": 0, "c": 1}, {"b": 1, "c": 0}],
              ("b", "d"): [{"a": 0, "c": 1}, {"a": 1, "c": 1}]}
    return StratifiedGraph(K4, strata=strata, state_names={v: [0, 1] for v in "abcd"})


CONTINUOUS_CSV = "a,b\n" + "".join(f"{0.013 * i + 0.001},{i % 2}\n" for i in range(30))

CASES = [
    # -- data ------------------------------------------------------------------------------
    ("nan", lambda tmp: SGMScore(DF.assign(b=[0, np.nan, 1, 1])), ValueError,
     r"^Column 'b' has 1 missing value\(s\) \(NaN\); 1 of 4 rows is incomplete\. Drop or impute"),
    ("continuous-floats", lambda tmp: SGMScore(pd.DataFrame({"x": np.linspace(0, 1, 50)})), ValueError,
     r"^Column 'x' looks continuous \(50 distinct float values in 50 observations.*pandas\.cut"),
    ("few-continuous-floats", lambda tmp: SGMScore(pd.DataFrame({"x": [0.123, 0.373, 0.5, 0.91, 0.2, 0.11],
                                                                  "y": [0, 1] * 3})), ValueError,
     r"^Column 'x' looks continuous \(6 distinct float values in 6 observations, e\.g\. 0\.123\).*pandas\.cut"),
    ("row-id-column", lambda tmp: SGMScore(pd.DataFrame({"id": range(30), "y": [0, 1] * 15})), ValueError,
     r"^Column 'id' has a different value in each of its 30 rows: a row identifier"),
    ("mixed-types", lambda tmp: SGMScore(DF.assign(a=[1, "1", 0, 0])), ValueError,
     r"^Column 'a' holds both 1 \(int\) and '1' \(str\), which would be two states"),
    ("weights-series-index", lambda tmp: SGMScore(DF, weights=pd.Series([1, 1, 1, 1], index=[1, 2, 3, 4])),
     ValueError, r"^weights is a Series whose index does not match the data's index \(row label 0 of the data"),
    ("weights-beyond-2-53", lambda tmp: SGMScore(DF.assign(n=[2.0**53, 8, 8, 8]), weights="n"), ValueError,
     r"^The counts \(weights column 'n'\) sum to 9\.007e\+15, more than 2\*\*53"),
    ("weights-imprecise", lambda tmp: SGMScore(DF.assign(n=[1e14, 1, 1, 1]), weights="n"), ValueError,
     r"^Column '[abc]' is nearly constant: .* \(weights column 'n'\) are 0, so its scores would be exact only"),
    ("infinite-value", lambda tmp: SGMScore(DF.assign(b=[0.0, np.inf, 1.0, 1.0])), ValueError,
     r"^Column 'b' has 1 infinite value\(s\)"),
    ("empty-frame", lambda tmp: SGMScore(pd.DataFrame()), ValueError, r"^The data have no columns"),
    ("no-rows", lambda tmp: SGMScore(DF.iloc[:0]), ValueError, r"^The data have no rows"),
    ("duplicate-columns", lambda tmp: SGMScore(pd.DataFrame([[0, 1]], columns=["a", "a"])), ValueError,
     r"^Column names must be unique; duplicated: \['a'\]"),
    ("non-string-columns", lambda tmp: SGMScore(pd.DataFrame({0: [0, 1], "b": [1, 0]})), TypeError,
     r"^Column names must be strings \(variable names\); got \[0\]"),
    ("unhashable-cells", lambda tmp: SGMScore(DF.assign(c=[[0], [1], [0], [1]])), TypeError,
     r"^Column 'c' holds unhashable values"),
    ("unhashable-cells-many-rows", lambda tmp: SGMScore(pd.DataFrame({"c": [{"x": i} for i in range(30)]})),
     TypeError, r"^Column 'c' holds unhashable values"),
    ("index-column", lambda tmp: SGMScore(pd.read_csv(_csv(tmp, ",a,b\n0,0,1\n1,1,0\n"))), ValueError,
     r"^Column 'Unnamed: 0' had no name in its CSV file \(the index written by DataFrame\.to_csv\(\)\?\)"),
    ("weights-negative", lambda tmp: SGMScore(DF, weights=[1, -2, 1, 1]), ValueError,
     r"^weights must be non-negative; found \[-2\.0\]"),
    ("weights-fractional", lambda tmp: SGMScore(DF.assign(n=[1, 0.5, 2, 1]), weights="n"), ValueError,
     r"^weights column 'n' must be whole counts; found \[0\.5\]"),
    ("weights-wrong-length", lambda tmp: SGMScore(DF, weights=[1, 2, 3]), ValueError,
     r"^weights must hold one count per row \(4\); got shape \(3,\)"),
    ("weights-infinite", lambda tmp: SGMScore(DF, weights=[1, np.inf, 1, 1]), ValueError,
     r"^weights must be finite counts; found 1 infinite"),
    ("weights-unknown-column", lambda tmp: SGMScore(DF, weights="n"), ValueError,
     r"^weights column 'n' is not a column of the data"),
    ("weights-text", lambda tmp: SGMScore(DF.assign(n=list("wxyz")), weights="n"), TypeError,
     r"^weights column 'n' must be numeric counts"),
    ("all-weights-zero", lambda tmp: SGMScore(DF, weights=[0, 0, 0, 0]), ValueError, r"no observations"),
    ("state-names-missing-a-state", lambda tmp: SGMScore(DF, state_names={"a": [0]}), ValueError,
     r"^Column 'a' has values \[1\] that are not in state_names\['a'\]"),
    ("state-names-unknown-variable", lambda tmp: SGMScore(DF, state_names={"z": [0, 1]}), ValueError,
     r"^state_names names variables that are not columns of the data: \['z'\]"),
    ("state-names-not-a-list", lambda tmp: SGMScore(DF, state_names={"a": "01"}), TypeError,
     r"^state_names\['a'\] must be a list of states"),
    # -- stratified graph specifications ---------------------------------------------------------
    ("edge-unknown-variable-score", lambda tmp: SGMScore(DF).score(StratifiedGraph([("a", "z")])), ValueError,
     r"^The graph has node\(s\) \['z'\] that are not columns of the data"),
    ("edge-unknown-variable-fit", lambda tmp: StratifiedGraphicalModel([("a", "z")]).fit(DF), ValueError,
     r"^The data lack the model's variable\(s\) \['z'\]"),
    ("self-loop", lambda tmp: StratifiedGraph([("a", "b"), ("b", "b")]), ValueError, r"^Self-loop on 'b'"),
    ("self-loop-score", lambda tmp: SGMScore(DF).score([("a", "a")]), ValueError, r"^Self-loop on 'a'"),
    ("not-decomposable", lambda tmp: SGMScore(WIDE).score([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]),
     ValueError, r"not decomposable \(chordal\): the cycle .* has no chord"),
    ("label-on-non-edge", lambda tmp: StratifiedGraph([("a", "b")], strata={("a", "c"): [{"b": 0}]}), ValueError,
     r"^Cannot label \('a', 'c'\): it is not an edge"),
    ("cyclic-digraph", lambda tmp: SGMScore(DF).score(nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])), ValueError,
     r"^The directed graph has the cycle \['a', 'b', 'c'\]"),
    ("irregular-labels", lambda tmp: _irregular().check_model(), ValueError,
     r"^The labels of clique \('a', 'b', 'c', 'd'\) imply \(by closure\) a label on edge \('a', 'd'\) in every"),
    ("clique-exceeds-max-cells", lambda tmp: SGMScore(WIDE, max_cells=1000).score(K4), ValueError,
     r"^The contingency table of \['a', 'b', 'c', 'd'\] would have 10,000 cells, more than max_cells=1,000"),
    # -- score and estimator parameters ---------------------------------------------------------
    ("score-prior", lambda tmp: SGMScore(DF, prior="flat"), ValueError, r"^prior must be one of .*Got: 'flat'"),
    ("score-max-labelled-clique", lambda tmp: SGMScore(DF, max_labelled_clique=1), ValueError,
     r"^max_labelled_clique must be an integer >= 2\. Got: 1"),
    ("mcmc-n-iter-zero", _mcmc(n_iter=0), ValueError, r"^n_iter must be an integer >= 1\. Got: 0"),
    ("mcmc-n-iter-float", _mcmc(n_iter=10.5), ValueError, r"^n_iter must be an integer >= 1\. Got: 10\.5"),
    ("mcmc-n-chains", _mcmc(n_chains=0), ValueError, r"^n_chains must be an integer >= 1\. Got: 0"),
    ("mcmc-seed-negative", _mcmc(seed=-1), ValueError, r"^seed must be an integer >= 0\. Got: -1"),
    ("mcmc-seed-text", _mcmc(seed="42"), ValueError, r"^seed must be an integer >= 0\. Got: '42'"),
    ("mcmc-start-name", _mcmc(start="full"), ValueError, r"^start must be one of \('auto', 'empty', .*'full'"),
    ("mcmc-start-unknown-variable", _mcmc(start=[("a", "z")]), ValueError,
     r"^start has node\(s\) that are not variables of the data.*Got: \['z'\]"),
    ("mcmc-start-type", _mcmc(start=3), TypeError, r"^start must be one of \(.*\), a graph .*Got: 3"),
    ("mcmc-prior", _mcmc(prior="flat"), ValueError, r"^prior must be one of .*Got: 'flat'"),
    ("mcmc-max-labelled-clique", _mcmc(max_labelled_clique=1), ValueError,
     r"^max_labelled_clique must be an integer >= 2\. Got: 1"),
    ("mcmc-single-row", lambda tmp: NonReversibleMCMC(n_iter=5, show_progress=False).fit(DF.iloc[:1]), ValueError,
     r"^n_samples = 1, at least 2 are required"),
    # -- model files ---------------------------------------------------------------------------
    ("json-wrong-type", lambda tmp: _json_file(tmp, _document(nodes="abc")), TypeError,
     r"^Field 'nodes' must be a list; got str"),
    ("json-wrong-node-type", lambda tmp: _json_file(tmp, _document(edges=[["a", 1.5]])), TypeError,
     r"^Field 'edges\[0\]' must name a node \(str or int\); got 1\.5"),
    ("json-huge-declared-size", lambda tmp: _json_file(tmp, _document(
        edges=[["a", "b"], ["b", "c"], ["a", "c"]], state_names=[[v, list(range(400))] for v in "abc"])),
     ValueError, r"^Field 'state_names': clique \('a', 'b', 'c'\) would have 64,000,000 configurations"),
    ("json-deep-nesting", lambda tmp: _json_file(tmp, "[" * 100_000 + "]" * 100_000), ValueError,
     r"nested too deeply"),
    ("json-nested-field", lambda tmp: _json_file(tmp, _document(strata=_nested(20))),
     ValueError, r"^The JSON document is nested deeper than 16 levels"),
    ("json-truncated", lambda tmp: _json_file(tmp, _document()[:50]), ValueError, r"model\.json' is not valid JSON"),
    ("json-not-a-model", lambda tmp: _json_file(tmp, '{"format": "other"}'), ValueError,
     r"^Field 'format' must be 'pgmpy-sgm'; got 'other'"),
    # -- command line --------------------------------------------------------------------------
    ("cli-missing-file", _cli("learn", "{tmp}/missing.csv"), EXIT_2, r"data file not found: .*missing\.csv$"),
    ("cli-non-discrete-column", lambda tmp: main(["learn", _csv(tmp, CONTINUOUS_CSV), "--quiet"]), EXIT_2,
     r"Column 'a' looks continuous \(30 distinct float values"),
    ("cli-unknown-counts-column", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,0\n"), "--counts-column", "n"]),
     EXIT_2, r"counts column 'n' is not in .*data\.csv; columns: \['a', 'b'\]"),
    ("cli-empty-cell", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,\n"), "--quiet"]), EXIT_2,
     r"column 'b' of .*data\.csv has 1 empty cell\(s\) \(missing values\)"),
    ("cli-iterations", _cli("learn", "--iterations", "0"), EXIT_2, r"argument --iterations: must be a positive"),
    ("cli-output-folder-missing", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,0\n"), "--quiet", "--json",
                                                    str(tmp / "no" / "m.json")]), EXIT_2,
     r"cannot write .*m\.json: directory '.*no' does not exist"),
    ("cli-output-is-data", _cli("learn", "{tmp}/d.json", "--quiet", "--json", "{tmp}/d.json"), EXIT_2,
     r"--json .*d\.json is also an input file"),
    ("cli-output-is-model", lambda tmp: main(["convert", _model(tmp), "--xmlbif", _model(tmp), "--data",
                                              _csv(tmp, "a,b\n0,1\n1,0\n")]), EXIT_2,
     r"--xmlbif .*m\.json is also an input file"),
    ("cli-output-is-directory", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,0\n"), "--json",
                                                  _folder(tmp, "out.json")]), EXIT_2,
     r"--json .*out\.json: is a directory"),
    ("cli-plot-suffix", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,0\n"), "--plot", str(tmp / "x.foo")]),
     EXIT_2, r"--plot .*x\.foo: unknown suffix '\.foo'"),
    ("cli-json-suffix", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,0\n"), "--json", str(tmp / "m.txt")]),
     EXIT_2, r"--json .*m\.txt: unknown suffix '\.txt'"),
    ("cli-same-output-twice", lambda tmp: main(["convert", _model(tmp), "--bif", str(tmp / "o.bif"), "--xmlbif",
                                                str(tmp / "o.bif")]), EXIT_2, r"--xmlbif .*o\.bif"),
    ("cli-index-column", lambda tmp: main(["learn", _csv(tmp, ",a,b\n0,0,1\n1,1,0\n"), "--quiet"]), EXIT_2,
     r"column 1 of .*data\.csv has no name \(the index written by DataFrame\.to_csv\(\)\?"),
    ("cli-trailing-separator", lambda tmp: main(["learn", _csv(tmp, "a,b,\n0,1,\n1,0,\n"), "--quiet"]), EXIT_2,
     r"column 3 of .*data\.csv has no name \(a separator too many at the end of the header\?"),
    ("cli-duplicate-header", lambda tmp: main(["learn", _csv(tmp, "a,a,b\n0,0,1\n1,1,0\n"), "--quiet"]), EXIT_2,
     r"column 'a' appears twice in the header of .*data\.csv"),
    ("cli-other-separator", lambda tmp: main(["learn", _csv(tmp, "a;b\n0;1\n1;0\n"), "--quiet"]), EXIT_2,
     r"data\.csv was read as the single column 'a;b'; if its fields are separated by ';', pass --sep ';'"),
    ("cli-na-state", lambda tmp: main(["learn", _csv(tmp, "a,b\nNA,1\nx,0\n"), "--quiet"]), EXIT_2,
     r"column 'a' of .*data\.csv has 1 cell\(s\) such as 'NA' that pandas reads as missing.*--keep-na-strings"),
    ("cli-infinite-count", lambda tmp: main(["learn", _csv(tmp, "a,b,n\n0,1,inf\n1,0,2\n"), "--counts-column", "n",
                                             "--quiet"]), EXIT_2,
     r"counts column 'n' of .*data\.csv holds 'inf' in data row 1"),
    ("cli-text-count", lambda tmp: main(["learn", _csv(tmp, "a,b,n\n0,1,3\n1,0,x12\n"), "--counts-column", "n",
                                         "--quiet"]), EXIT_2,
     r"counts column 'n' of .*data\.csv holds 'x12' in data row 2"),
    ("cli-huge-count", lambda tmp: main(["learn", _csv(tmp, "a,b,n\n0,1,1e18\n1,0,2\n"), "--counts-column", "n",
                                         "--quiet"]), EXIT_2, r"The counts \(weights column 'n'\) sum to 1e\+18"),
    ("cli-binary-model", lambda tmp: main(["score", _csv(tmp, "a,b\n0,1\n1,0\n"), _binary(tmp, "out.png")]),
     EXIT_2, r"out\.png' is not a JSON model file: it is not UTF-8 text"),
    ("cli-corrupt-model", lambda tmp: main(["score", _csv(tmp, "a,b\n0,1\n1,0\n"), _csv(tmp, "{", "m.json")]),
     EXIT_2, r"m\.json' is not valid JSON"),
]


@pytest.mark.parametrize(("action", "error", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_gets_exact_type_and_names_the_culprit(action, error, message, tmp_path, capsys):
    if error == EXIT_2:
        try:
            status = action(tmp_path)
        except SystemExit as exit_:  # argparse
            status = exit_.code
        stderr = capsys.readouterr().err
        errors = [line for line in stderr.splitlines() if line.startswith("pgmpy-sgm") and "error:" in line]
        assert status == 2, stderr
        assert "Traceback" not in stderr and len(errors) == 1, stderr
        assert re.search(message, errors[0]), errors[0]
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrataNotShownWarning)
        with pytest.raises(error, match=message) as info:
            action(tmp_path)
    assert type(info.value) is error, f"{type(info.value).__module__}.{type(info.value).__name__}: {info.value}"
    assert "\n" not in str(info.value).strip(), "the message is one line"


def test_table_is_broad():
    groups = {c[0].split("-")[0] for c in CASES}
    assert len(CASES) >= 20 and {"mcmc", "json", "cli"} <= groups


# -- inputs that are allowed ----------------------------------------------------------------------
def test_single_state_column_scores_and_fits():
    frame = pd.DataFrame({"a": ["x", "x", "x", "x"], "b": [0, 1, 0, 1]})
    score = SGMScore(frame)
    assert score.encoded.cardinality["a"] == 1
    value = score.score(StratifiedGraph([("a", "b")], state_names={"a": ["x"]}))
    assert np.isfinite(value)
    # a one-state variable adds nothing: the edge has the same likelihood as no edge
    assert np.isclose(score.log_marginal_likelihood([("a", "b")]),
                      score.log_marginal_likelihood(StratifiedGraph(nodes=["a", "b"])))
    model = StratifiedGraphicalModel([("a", "b")]).fit(frame)
    assert model.states("a") == ("x",) and model.check_model()
    est = NonReversibleMCMC(n_iter=20, n_chains=1, seed=0, show_progress=False).fit(frame)
    assert np.isfinite(est.best_score_)


def test_more_than_255_states_score_and_fit():
    frame = pd.DataFrame({"a": np.arange(600) % 300, "b": (np.arange(600) // 300)})
    enc = EncodedData(frame)
    assert enc.cardinality["a"] == 300 and enc.codes.dtype == np.uint16
    assert enc.counts(("a", "b")).sum() == 600
    score = SGMScore(frame)
    assert np.isfinite(score.score(StratifiedGraph([("a", "b")])))
    model = StratifiedGraphicalModel([("a", "b")]).fit(frame)
    assert len(model.states("a")) == 300 and model.check_model()


def test_single_row_scores_and_fits_parameters():
    row = DF.iloc[:1]
    score = SGMScore(row)
    assert score.encoded.n == 1
    assert np.isfinite(score.score([("a", "b")]))
    assert StratifiedGraphicalModel([("a", "b")]).fit(row).check_model()


def test_clique_beyond_max_cells_is_refused_before_allocating(monkeypatch):
    sizes = []
    real = np.bincount

    def spy(index, weights=None, minlength=0):
        sizes.append(minlength)
        return real(index, weights=weights, minlength=minlength)

    monkeypatch.setattr(data_module.np, "bincount", spy)
    score = SGMScore(WIDE, max_cells=1000)
    assert np.isfinite(score.score([("a", "b"), ("b", "c"), ("a", "c")]))  # 1,000 cells: allowed
    with pytest.raises(ValueError, match=r"\['a', 'b', 'c', 'd'\] would have 10,000 cells"):
        score.score(K4)
    assert sizes and max(sizes) <= 1000
    assert ("a", "b", "c", "d") not in score.encoded._cache


def test_module_entry_point_has_no_traceback(tmp_path):
    result = subprocess.run([sys.executable, "-m", "pgmpy_sgm", "learn", "missing.csv"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == "pgmpy-sgm: error: data file not found: missing.csv"


def test_weights_series_is_aligned_by_index():
    frame = pd.DataFrame({"a": [0, 1, 0, 1, 0, 1], "b": [0, 0, 0, 1, 1, 1]})
    weights = pd.Series([1, 2, 3, 4, 5, 6], index=[5, 4, 3, 2, 1, 0])  # row 0 has weight 6, row 5 weight 1
    by_index = EncodedData(frame, weights=weights).counts(["a"]).tolist()
    assert by_index == [6 + 4 + 2, 5 + 3 + 1]
    assert EncodedData(frame, weights=weights.to_numpy()).counts(["a"]).tolist() == [1 + 3 + 5, 2 + 4 + 6]
    shuffled = frame.sample(frac=1, random_state=0)
    assert np.isclose(SGMScore(shuffled, weights=weights).score([("a", "b")]),
                      SGMScore(frame, weights=weights.reindex(frame.index)).score([("a", "b")]))


def test_cli_refuses_outputs_before_reading_anything(tmp_path, capsys):
    data = tmp_path / "d.csv"
    data.write_text("a,b\n0,1\n1,0\n", encoding="utf-8")
    before = data.read_bytes()
    # the output check comes first: the missing model file is not even looked at
    assert main(["convert", str(tmp_path / "missing.json"), "--data", str(data), "--bif", str(data)]) == 2
    assert "is also an input file" in capsys.readouterr().err
    assert main(["learn", str(data), "--quiet", "--plot", str(data)]) == 2
    assert data.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["d.csv"]


def test_repeated_csv_header_renamed_by_pandas_gets_a_warning(tmp_path):
    frame = pd.read_csv(_csv(tmp_path, "a,a,b\n0,1,0\n1,0,1\n"))
    assert list(frame.columns) == ["a", "a.1", "b"]
    with pytest.warns(UserWarning, match=r"^Columns 'a' and 'a\.1': pandas\.read_csv names a repeated header"):
        EncodedData(frame)
