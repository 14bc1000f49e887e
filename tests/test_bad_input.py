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

import numpy as np
import pandas as pd
import pytest

import pgmpy_sgm.core.data as data_module
from pgmpy_sgm import SGMScore, StratifiedGraph
from pgmpy_sgm.causal_discovery import NonReversibleMCMC
from pgmpy_sgm.cli import main
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.models import StrataNotShownWarning, StratifiedGraphicalModel
from pgmpy_sgm.readwrite import read_json, to_json_dict

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


CONTINUOUS_CSV = "a,b\n" + "".join(f"{0.013 * i + 0.001},{i % 2}\n" for i in range(30))

CASES = [
    # -- data ------------------------------------------------------------------------------
    ("nan", lambda tmp: SGMScore(DF.assign(b=[0, np.nan, 1, 1])), ValueError,
     r"^Column 'b' has 1 missing value\(s\) \(NaN\)\. Drop or impute"),
    ("continuous-floats", lambda tmp: SGMScore(pd.DataFrame({"x": np.linspace(0, 1, 50)})), ValueError,
     r"^Column 'x' looks continuous \(50 distinct float values\)\. Discretize it first"),
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
     r"Column 'a' looks continuous \(30 distinct float values\)"),
    ("cli-unknown-counts-column", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,0\n"), "--counts-column", "n"]),
     EXIT_2, r"counts column 'n' is not in .*data\.csv; columns: \['a', 'b'\]"),
    ("cli-empty-cell", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,\n"), "--quiet"]), EXIT_2,
     r"column 'b' of .*data\.csv has 1 empty cell\(s\) \(missing values\)"),
    ("cli-iterations", _cli("learn", "--iterations", "0"), EXIT_2, r"argument --iterations: must be a positive"),
    ("cli-output-folder-missing", lambda tmp: main(["learn", _csv(tmp, "a,b\n0,1\n1,0\n"), "--quiet", "--json",
                                                    str(tmp / "no" / "m.json")]), EXIT_2,
     r"cannot write .*m\.json: directory '.*no' does not exist"),
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
