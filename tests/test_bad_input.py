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

import base64
import json
import re
import subprocess
import sys
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import pgmpy_sgm.causal_discovery._checkpoint as checkpoint_module
import pgmpy_sgm.core.data as data_module
from pgmpy_sgm import SGMScore, StratifiedGraph
from pgmpy_sgm.causal_discovery import Checkpoint, LDAGSearch, ModelAverage, NonReversibleMCMC
from pgmpy_sgm.cli import main
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.pooling import pool_data
from pgmpy_sgm.datasets import load_heart_disease, simulate_paper_synthetic
from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models import (
    ContextSpecificIndependence,
    LabeledBayesianNetwork,
    StrataNotShownWarning,
    StratifiedGraphicalModel,
)
from pgmpy_sgm.plotting import graph_layout, plot_labeled_dag, plot_stratified_graph, save_figure
from pgmpy_sgm.readwrite import (
    from_json_dict,
    ldag_from_json_dict,
    ldag_to_json_dict,
    read_json,
    read_ldag_json,
    to_json_dict,
    write_json,
    write_ldag_json,
)
from pgmpy_sgm.structure_score import LDAGScore, SGMScoreSettings

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


V2 = [[0.2, 0.7], [0.8, 0.3]]


def _fitted():
    return StratifiedGraphicalModel([("a", "b")], nodes=["c"]).fit(DF)


def _mcmc_fitted():
    return NonReversibleMCMC(n_iter=5, n_chains=1, seed=0, show_progress=False).fit(DF)


def _ldag():
    model = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
    model.set_classes("y", ("a", "b"), [0, 1, 0, 2])
    return model.fit(pd.DataFrame({"a": [0, 0, 1, 1, 1], "b": [0, 1, 0, 1, 1], "y": [0, 1, 0, 0, 1]}))


def _ldag_document(change_cpds):
    document = ldag_to_json_dict(_ldag())
    return {**document, "cpds": change_cpds(document["cpds"])}


def _tree():
    return TreeCPD("y", 2, ["a", "b"], [2, 2], [0, 1, 0, 2], [[0.2, 0.7, 0.4], [0.8, 0.3, 0.6]])


def _figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.figure()


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
    ("mcmc-n-iter-zero", _mcmc(n_iter=0), ValueError, r"^n_iter must be 'auto', an integer >= 1 or None\. Got: 0"),
    ("mcmc-n-iter-float", _mcmc(n_iter=10.5), ValueError,
     r"^n_iter must be 'auto', an integer >= 1 or None\. Got: 10\.5"),
    ("mcmc-n-chains", _mcmc(n_chains=0), ValueError, r"^n_chains must be an integer >= 1\. Got: 0"),
    ("mcmc-seed-negative", _mcmc(seed=-1), ValueError, r"^seed must be an integer >= 0 or None\. Got: -1"),
    ("mcmc-seed-text", _mcmc(seed="42"), ValueError, r"^seed must be an integer >= 0 or None\. Got: '42'"),
    ("mcmc-start-name", _mcmc(start="full"), ValueError, r"^start must be one of \('auto', 'empty', .*'full'"),
    ("mcmc-start-unknown-variable", _mcmc(start=[("a", "z")]), ValueError,
     r"^start has node\(s\) that are not variables of the data.*Got: \['z'\]"),
    ("mcmc-start-type", _mcmc(start=3), TypeError, r"^start must be one of \(.*\), a graph .*Got: 3"),
    ("mcmc-prior", lambda tmp: SGMScoreSettings(prior="flat"), ValueError, r"^prior must be one of .*Got: 'flat'"),
    ("mcmc-max-labelled-clique", lambda tmp: SGMScoreSettings(max_labelled_clique=1), ValueError,
     r"^max_labelled_clique must be an integer >= 2\. Got: 1"),
    ("mcmc-scoring-method", _mcmc(scoring_method="bdeu"), ValueError,
     r"^scoring_method must be None, 'sgm', an SGMScore or an SGMScoreSettings\. Got: 'bdeu'"),
    ("ldag-scoring-method", lambda tmp: LDAGSearch(scoring_method="bic").fit(DF), ValueError,
     r"^scoring_method must be None, 'ldag', 'bdeu', an LDAGScore or an LDAGScoreSettings\. Got: 'bic'"),
    ("mcmc-single-row", lambda tmp: NonReversibleMCMC(n_iter=5, show_progress=False).fit(DF.iloc[:1]), ValueError,
     r"^n_samples = 1, at least 2 are required"),
    ("mcmc-fit-text", lambda tmp: NonReversibleMCMC(n_iter=5, show_progress=False).fit("data.csv"), TypeError,
     r"^X must be a pandas DataFrame, a Dask DataFrame or a 2-D array\. Got: str 'data\.csv'"),
    ("mcmc-fit-dict", lambda tmp: NonReversibleMCMC(n_iter=5, show_progress=False).fit({"a": [0, 1]}), TypeError,
     r"^X must be a pandas DataFrame, a Dask DataFrame or a 2-D array\. Got: dict"),
    ("mcmc-fit-one-dimensional", lambda tmp: NonReversibleMCMC(n_iter=5, show_progress=False).fit([0, 1, 1]),
     ValueError, r"^X must be two-dimensional \(observations x variables\)\. Got shape \(3,\)"),
    ("ldag-search-fit-text", lambda tmp: LDAGSearch(n_restarts=0, show_progress=False).fit("data.csv"), TypeError,
     r"^X must be a pandas DataFrame, a Dask DataFrame or a 2-D array\. Got: str 'data\.csv'"),
    ("ldag-search-fit-one-dimensional", lambda tmp: LDAGSearch(n_restarts=0, show_progress=False).fit([0, 1, 1]),
     ValueError, r"^X must be two-dimensional \(observations x variables\)\. Got shape \(3,\)"),
    ("mcmc-backend-name", _mcmc(backend="foo", n_jobs=2), ValueError,
     r"^backend must be one of \[.*'loky'.*\] or None\. Got: 'foo'"),
    ("mcmc-backend-type", _mcmc(backend=2), TypeError, r"^backend must be a joblib backend name or None\. Got: 2"),
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
    # -- missing values: every column with gaps, with counts, and the incomplete rows -----------
    ("nan-several-columns", lambda tmp: SGMScore(DF.assign(a=[0, np.nan, 1, 1], b=[np.nan, np.nan, 1, 0])),
     ValueError, r"^Columns 'a' \(1\), 'b' \(2\) have missing values \(NaN\); 2 of 4 rows are incomplete\."),
    ("nan-and-infinite", lambda tmp: SGMScore(DF.assign(a=[0, np.nan, 1, 1], c=[np.inf, 0.0, 1.0, 1.0])), ValueError,
     r"^Column 'a' has 1 missing value\(s\) \(NaN\) and column 'c' has 1 infinite value\(s\); 2 of 4 rows"),
    ("nan-pooled-chunks", lambda tmp: pool_data([DF.assign(b=[np.nan, 0, 1, 1]), DF.assign(c=[np.nan] * 4)]),
     ValueError, r"^Columns 'b' \(1\), 'c' \(4\) have missing values \(NaN\); 5 of 8 rows are incomplete"),
    ("cli-empty-cells-several-columns", lambda tmp: main(["learn", _csv(tmp, "a,b,c\n0,,1\n,0,\n1,0,1\n1,1,0\n"),
                                                          "--quiet"]), EXIT_2,
     r"columns 'a' \(1\), 'b' \(1\), 'c' \(1\) of .*data\.csv have empty cell\(s\) \(missing values\); "
     r"2 of 4 data rows are incomplete"),
    # -- graphs ------------------------------------------------------------------------------------
    ("graph-edges-not-a-list", lambda tmp: StratifiedGraph(5), TypeError,
     r"^edges must be a list of \(u, v\) pairs\. Got: 5"),
    ("graph-unhashable-node", lambda tmp: StratifiedGraph([(["a"], "b")]), TypeError,
     r"^A node must be hashable .*edge \(\['a'\], 'b'\) has \['a'\]"),
    ("graph-none-node", lambda tmp: StratifiedGraph([("a", None)]), ValueError,
     r"^None cannot be a node; edge \('a', None\) has None"),
    ("graph-nodes-not-a-list", lambda tmp: StratifiedGraph(nodes=5), TypeError,
     r"^Nodes must be a list of nodes\. Got: 5"),
    ("graph-nodes-string", lambda tmp: StratifiedGraph(nodes="abc"), TypeError,
     r"^Nodes must be a list of nodes, not the string 'abc'"),
    ("graph-strata-not-a-dict", lambda tmp: StratifiedGraph([("a", "b")], strata=5), TypeError,
     r"^strata must be a dict .*Got: 5"),
    ("graph-stratum-not-a-list", lambda tmp: StratifiedGraph(K4, strata={("a", "b"): 5}), TypeError,
     r"^strata\[\('a', 'b'\)\] must be a list of contexts \(dicts\)\. Got: 5"),
    ("graph-states-string", lambda tmp: StratifiedGraph([("a", "b")], state_names={"a": "01"}), TypeError,
     r"^The states of 'a' must be a list such as \['0', '1'\], not the string '01'"),
    ("graph-states-set", lambda tmp: StratifiedGraph([("a", "b")], state_names={"a": {0, 1}}), TypeError,
     r"^The states of 'a' must be a list \(ordered\)\. Got: \{0, 1\}"),
    ("graph-states-not-a-list", lambda tmp: StratifiedGraph([("a", "b")], state_names={"a": 5}), TypeError,
     r"^The states of 'a' must be a list \(ordered\)\. Got: 5"),
    ("graph-add-edges-not-pairs", lambda tmp: StratifiedGraph().add_edges_from([("a",)]), ValueError,
     r"^Each edge must be a pair \(u, v\)\. Got: \('a',\)"),
    ("graph-remove-labels-non-edge", lambda tmp: StratifiedGraph([("a", "b")]).remove_labels("a", "z"), ValueError,
     r"^Cannot remove the labels of \('a', 'z'\): it is not an edge"),
    ("graph-common-neighbours-unknown", lambda tmp: StratifiedGraph([("a", "b")]).common_neighbours("a", "z"),
     ValueError, r"^Node\(s\) \['z'\] are not in the graph"),
    ("graph-clique-groups-length", lambda tmp: StratifiedGraph(K4[:3] + [("b", "c")]).set_clique_groups(
        ("a", "b", "c"), "a", [0]), ValueError, r"^group_ids must hold 4 non-negative integer group ids.*Got: \[0\]"),
    ("graph-clique-groups-unknown-center", lambda tmp: StratifiedGraph(K4).set_clique_groups(("a", "b"), "z", [0, 1]),
     ValueError, r"^Node\(s\) \['z'\] are not in the graph"),
    ("model-simulate-seed", lambda tmp: _fitted().simulate(5, seed="x"), TypeError,
     r"^seed must be None, an integer >= 0 or a numpy Generator\. Got: 'x'"),
    ("model-simulate-negative-seed", lambda tmp: _fitted().simulate(5, seed=-1), ValueError,
     r"^seed must be an integer >= 0\. Got: -1"),
    ("model-fit-unknown-weights", lambda tmp: StratifiedGraphicalModel([("a", "b")]).fit(DF, weights="n"),
     ValueError, r"^weights column 'n' is not a column of the data"),
    # -- labelled DAGs -----------------------------------------------------------------------------
    ("ldag-edges-not-a-list", lambda tmp: LabeledBayesianNetwork(5), TypeError,
     r"^ebunch must be a list of \(u, v\) pairs\. Got: 5"),
    ("ldag-edge-not-a-pair", lambda tmp: LabeledBayesianNetwork([("a",)]), ValueError,
     r"^Each edge must be a pair \(u, v\)\. Got: \('a',\)"),
    ("ldag-cycle", lambda tmp: LabeledBayesianNetwork([("a", "b"), ("b", "a")]), ValueError,
     r"^The edges have the cycle \['a', 'b'\]"),
    ("ldag-states-string", lambda tmp: LabeledBayesianNetwork([("a", "b")], state_names={"a": "01"}), TypeError,
     r"^The states of 'a' must be a list such as \['0', '1'\], not the string '01'"),
    ("ldag-classes-not-a-dict", lambda tmp: LabeledBayesianNetwork([("a", "b")], classes=5), TypeError,
     r"^classes must be a dict .*Got: 5"),
    ("ldag-classes-parents-not-a-list", lambda tmp: _ldag().set_classes("y", 5, [0, 1, 0, 2]), TypeError,
     r"^The parents of 'y' must be a list of nodes\. Got: 5"),
    ("ldag-classes-unhashable-node", lambda tmp: _ldag().set_classes(["y"], ("a", "b"), [0, 1, 0, 2]), ValueError,
     r"^Node \['y'\] is not in the model"),
    ("ldag-fit-not-a-frame", lambda tmp: _ldag().fit("x"), TypeError, r"^data must be a pandas DataFrame\. Got: str"),
    ("ldag-search-score-true-graph-nodes", lambda tmp: LDAGSearch(n_restarts=0).fit(DF).score(
        true_graph=nx.DiGraph([("x", "y")])), ValueError,
     r"^true_graph must have the learned graph's nodes; missing: \['a', 'b', 'c'\], unknown: \['x', 'y'\]"),
    ("ldag-search-score-true-graph-type", lambda tmp: LDAGSearch(n_restarts=0).fit(DF).score(true_graph=5), TypeError,
     r"^true_graph must be a pgmpy DAG or PDAG\. Got: int"),
    ("cli-jobs-zero", _cli("learn", "--jobs", "0"), EXIT_2, r"argument --jobs: must not be 0"),
    ("ldag-fit-unknown-weights", lambda tmp: _ldag().fit(DF.assign(y=0).rename(columns={"c": "b"}), weights="n"),
     ValueError, r"^weights column 'n' is not a column of the data"),
    ("ldag-json-cyclic-edge", lambda tmp: ldag_from_json_dict({**ldag_to_json_dict(_ldag()),
                                                               "edges": [["a", "y"], ["y", "a"]]}),
     ValueError, r"^Field 'edges\[1\]' \('y', 'a'\): .*loop"),
    ("ldag-json-missing-cpd", lambda tmp: ldag_from_json_dict(_ldag_document(lambda cpds: cpds[:1])), ValueError,
     r"^Field 'cpds' has no CPD for the node\(s\)"),
    ("ldag-json-repeated-cpd", lambda tmp: ldag_from_json_dict(_ldag_document(lambda cpds: cpds + cpds[:1])),
     ValueError, r"^Field 'cpds\[3\]' repeats the CPD of"),
    ("json-holds-a-labelled-dag", lambda tmp: from_json_dict(ldag_to_json_dict(_ldag())), ValueError,
     r"^The JSON document holds a labelled DAG \(type 'LabeledBayesianNetwork'\); read it with read_ldag_json"),
    # -- TreeCPD -----------------------------------------------------------------------------------
    ("treecpd-unhashable-variable", lambda tmp: TreeCPD(["y"], 2, ["a"], [2], [0, 1], V2), TypeError,
     r"^variable must be hashable .*got \['y'\]"),
    ("treecpd-evidence-not-a-list", lambda tmp: TreeCPD("y", 2, 5, [2], [0, 1], V2), TypeError,
     r"^evidence must be a list of variables; got 5"),
    ("treecpd-values-text", lambda tmp: TreeCPD("y", 2, ["a"], [2], [0, 1], [["x", 0.5], [0.2, 0.5]]), TypeError,
     r"^group_values must be numbers \(probabilities\); got \[\['x'"),
    ("treecpd-reduce-unknown-parent", lambda tmp: _tree().reduce([("z", 0)], inplace=False), ValueError,
     r"^values: \['z'\] are not parents of 'y'"),
    ("treecpd-reduce-unknown-state", lambda tmp: _tree().reduce([("a", 7)], inplace=False), ValueError,
     r"^7 is not a state of 'a'; its states are \[0, 1\]"),
    ("treecpd-reduce-not-a-list", lambda tmp: _tree().reduce(5, inplace=False), TypeError,
     r"^values must be a list of \(parent, state\) pairs\. Got: 5"),
    ("treecpd-marginalize-string", lambda tmp: _tree().marginalize("a", inplace=False), TypeError,
     r"^variables must be a list of parents of 'y'\. Got: 'a'"),
    ("treecpd-marginalize-unknown", lambda tmp: _tree().marginalize(["z"], inplace=False), ValueError,
     r"^variables: \['z'\] are not parents of 'y'"),
    ("treecpd-reorder-missing-parent", lambda tmp: _tree().reorder_parents(["a"]), ValueError,
     r"^new_order must list every parent of 'y' once, \['a', 'b'\]\. Got: \['a'\]"),
    ("treecpd-get-value-unknown-state", lambda tmp: _tree().get_value(y=9, a=0, b=0), ValueError,
     r"^9 is not a state of 'y'"),
    ("treecpd-get-value-unknown-variable", lambda tmp: _tree().get_value(z=0), ValueError,
     r"^get_value needs a state of every variable .*unknown: \['z'\]"),
    ("treecpd-divide-number", lambda tmp: _tree().divide(5, inplace=False), TypeError,
     r"^TreeCPD\.divide needs a factor\. Got: 5"),
    ("treecpd-group-of-number", lambda tmp: _tree().group_of(5), TypeError,
     r"^configuration must be a dict .*got 5"),
    # -- scores ------------------------------------------------------------------------------------
    ("score-model-not-a-graph", lambda tmp: SGMScore(DF).score(5), TypeError,
     r"^model must be a StratifiedGraph, an undirected networkx graph or a list of edges\. Got: 5"),
    ("score-parents-string", lambda tmp: LDAGScore(DF).local_score("a", "bc"), TypeError,
     r"^parents must be a tuple of column names, not the string 'bc'"),
    ("score-unknown-variable", lambda tmp: SGMScore(DF).local_score("z", []), ValueError,
     r"^\['z'\] are not columns of the data \['a', 'b', 'c'\]"),
    ("score-own-parent", lambda tmp: SGMScore(DF).local_score("a", ["a"]), ValueError,
     r"^Variable 'a' cannot be its own parent"),
    ("score-ldag-model-not-a-dag", lambda tmp: LDAGScore(DF).score(5), TypeError,
     r"^model must be a DAG .*Got: 5"),
    ("score-class-ids-not-integers", lambda tmp: LDAGScore(DF).family_score("a", ("b",), [0.5, 1]), ValueError,
     r"^group_ids must hold one integer class id per parent configuration \(2\)\. Got: \[0\.5, 1\]"),
    ("score-labels-not-a-bool", lambda tmp: LDAGScore(DF, labels="x"), TypeError, r"^labels must be a bool\. Got: 'x'"),
    ("graph-statement-context", lambda tmp: ContextSpecificIndependence("a", "b", 5), TypeError,
     r"^context must be a tuple of \(variable, state\) pairs\. Got: 5"),
    ("plot-strata-per-line", lambda tmp: plot_stratified_graph(StratifiedGraph([("a", "b")]), strata_per_line=0),
     ValueError, r"^strata_per_line must be a positive integer or None\. Got: 0"),
    ("score-max-cells", lambda tmp: SGMScore(DF, max_cells="x"), ValueError,
     r"^max_cells must be a positive integer or None\. Got: 'x'"),
    ("mcmc-score-true-graph-type", lambda tmp: _mcmc_fitted().score(true_graph=5), TypeError,
     r"^true_graph must be a pgmpy DAG or PDAG\. Got: int"),
    ("mcmc-score-true-graph-nodes", lambda tmp: _mcmc_fitted().score(true_graph=nx.DiGraph([("x", "y")])), ValueError,
     r"^true_graph must have the learned graph's nodes; missing: \['a', 'b', 'c'\], unknown: \['x', 'y'\]"),
    ("mcmc-score-data-scalar", lambda tmp: _mcmc_fitted().score(X=5), TypeError,
     r"^X must be a pandas DataFrame or a 2-D array\. Got: int"),
    ("average-models-not-a-list", lambda tmp: ModelAverage(5, [1]), TypeError,
     r"^models must be a list of fitted StratifiedGraphicalModels\. Got: 5"),
    ("average-weights-text", lambda tmp: ModelAverage([_fitted(), _fitted()], "x"), TypeError,
     r"^weights must be numbers, one per model\. Got: 'x'"),
    # -- files, plots, data sets -------------------------------------------------------------------
    ("file-path-not-a-path", lambda tmp: read_json(5), TypeError, r"^path must be a str or os\.PathLike\. Got: int 5"),
    ("file-read-directory", lambda tmp: read_ldag_json(tmp), IsADirectoryError,
     r"^Cannot read .*: it is a directory, not a JSON model file"),
    ("file-write-directory", lambda tmp: write_ldag_json(_ldag(), tmp, overwrite=True), IsADirectoryError,
     r"^Cannot write .*: it is a directory; give a file name"),
    ("plot-layout-not-a-graph", lambda tmp: graph_layout(5), TypeError,
     r"^sg must be a graph .*Got: int"),
    ("plot-ldag-partial-positions", lambda tmp: plot_labeled_dag(_ldag(), pos={"a": (0, 0)}), ValueError,
     r"^pos has no position for nodes: \['y', 'b'\]"),
    ("plot-dpi", lambda tmp: save_figure(_figure(), tmp / "x.png", dpi=-1), ValueError,
     r"^dpi must be a positive number\. Got: -1"),
    ("data-synthetic-seed", lambda tmp: simulate_paper_synthetic(10, seed="x"), TypeError,
     r"^seed must be None, an integer >= 0 or a numpy Generator\. Got: 'x'"),
    ("data-as-counts", lambda tmp: load_heart_disease("x"), TypeError, r"^as_counts must be True or False\. Got: 'x'"),
    # -- command line: labelled DAGs ---------------------------------------------------------------
    ("cli-sg-option-with-ldag", _cli("learn", "--ldag", "--chains", "3", "--quiet"), EXIT_2,
     r"--chains applies to the stratified-graph search, not to --ldag"),
    ("cli-ldag-option-without-ldag", _cli("learn", "--restart-budget", "none", "--quiet"), EXIT_2,
     r"--restart-budget applies to the labelled-DAG search; add --ldag"),
    ("cli-restart-budget", _cli("learn", "--ldag", "--restart-budget", "-1"), EXIT_2,
     r"argument --restart-budget: must be a non-negative number or 'none', got '-1'"),
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
    assert len(CASES) >= 20 and {"mcmc", "json", "cli", "graph", "ldag", "treecpd", "score", "file"} <= groups


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


# -- resumed checkpoints: every field range-checked ------------------------------------------------
CHECKPOINT_RUN = {"n_iter": 120, "n_chains": 2, "seed": 5, "show_progress": False}


@pytest.fixture(scope="module")
def checkpoint_entries(tmp_path_factory):
    path = tmp_path_factory.mktemp("ckpt") / "run.ckpt"
    NonReversibleMCMC(**CHECKPOINT_RUN, checkpoint=Checkpoint(str(path), every=40)).fit(DF)
    return [json.loads(line)["body"] for line in path.read_text(encoding="utf-8").splitlines()]


def _forged(entries, tmp) -> str:
    """The entries written back with valid digests (a forgery the digest chain alone cannot stop)."""
    text, previous = "", ""
    for body in entries:
        line, previous = checkpoint_module._line(previous, body)
        text += line
    path = tmp / "forged.ckpt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _chain_edit(**fields):
    def edit(entries):
        entries = json.loads(json.dumps(entries))
        entries[-1]["chains"][0].update(fields)
        return entries

    return edit


def _nan_trace(entries):
    entries = json.loads(json.dumps(entries))
    values = np.frombuffer(base64.b64decode(entries[-1]["traces"][0]), dtype="<f8").copy()
    values[0] = np.nan
    entries[-1]["traces"][0] = base64.b64encode(values.astype("<f8").tobytes()).decode("ascii")
    return entries


def _identity_edit(**fields):
    def edit(entries):
        entries = json.loads(json.dumps(entries))
        entries[0]["identity"].update(fields)
        return entries

    return edit


CHECKPOINT_EDITS = [
    ("score-text", _chain_edit(score="high"), {},
     r"chain 0 field 'score' must be a finite number or null\. Got: 'high'"),
    ("best-score-infinite", _chain_edit(best_score=1e999), {},
     r"chain 0 field 'best_score' must be a finite number or null\. Got: inf"),
    ("pair-pos-beyond-buffer", _chain_edit(pair_pos=10_000), {},
     r"chain 0 field 'pair_pos' must be at most 4096 \(buffer of 4096 draws\)\. Got: 10000"),
    ("u-pos-without-buffer", _chain_edit(u_rng=None, u_pos=3), {},
     r"chain 0 field 'u_pos' must be at most 0 \(buffer of 0 draws\)\. Got: 3"),
    ("accepted-beyond-iterations", _chain_edit(n_accepted=10**6), {},
     r"chain 0 field 'n_accepted' is 1000000, more than its iteration 120"),
    ("relocations-accepted-beyond-relocations", _chain_edit(n_relocations=0, n_relocations_accepted=2), {},
     r"chain 0 field 'n_relocations_accepted' is 2, more than its n_relocations 0"),
    ("accepted-beyond-draws", _chain_edit(n_draws=0), {}, r"chain 0 accepted \d+ proposals but drew only 0"),
    ("trace-not-finite", _nan_trace, {}, r"trace of chain 0 holds a value that is not finite\. Got: nan"),
    ("negative-seed-entropy", _identity_edit(seed_entropy=-1), {"seed": None},
     r"line 1: seed_entropy must be an integer >= 0\. Got: -1"),
]


@pytest.mark.parametrize(("edit", "changes", "message"), [c[1:] for c in CHECKPOINT_EDITS],
                         ids=[c[0] for c in CHECKPOINT_EDITS])
def test_resumed_checkpoint_fields_are_range_checked(checkpoint_entries, edit, changes, message, tmp_path):
    path = _forged(edit(checkpoint_entries), tmp_path)
    settings = {**CHECKPOINT_RUN, "n_iter": 200, **changes}
    with pytest.raises(ValueError, match=message) as info:
        NonReversibleMCMC(**settings, checkpoint=Checkpoint(path, resume=True)).fit(DF)
    assert path in str(info.value) and "\n" not in str(info.value)


def test_an_intact_forged_copy_resumes(checkpoint_entries, tmp_path):
    path = _forged(checkpoint_entries, tmp_path)  # the same content: the checks above refuse only the edits
    resumed = NonReversibleMCMC(**{**CHECKPOINT_RUN, "n_iter": 200}, checkpoint=Checkpoint(path, resume=True))
    assert resumed.fit(DF).n_iter_ == 200


@pytest.mark.parametrize("found", [["b", "c", "d", "a"], ["a", "d", "c", "b"], ["c", "b", "a", "d"]])
def test_chordless_cycle_is_named_the_same_whatever_order_networkx_finds_it(found, monkeypatch):
    # networkx's chordless_cycles starts and turns as its sets iterate, which depends on PYTHONHASHSEED
    import pgmpy_sgm.core.decomposition as decomposition

    monkeypatch.setattr(decomposition.nx, "chordless_cycles", lambda graph: iter([found]))
    with pytest.raises(ValueError, match=r"the cycle \['a', 'b', 'c', 'd'\] has no chord"):
        StratifiedGraph([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]).check_model()
