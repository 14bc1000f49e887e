"""``missing="state"`` on models whose strata or contexts name a state of a column with gaps."""

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.models import ContextualMarkovNetwork, StratifiedGraphicalModel

EDGES = [("a", "b"), ("b", "c"), ("a", "c")]


def _data():
    rng = np.random.default_rng(0)
    data = pd.DataFrame(rng.integers(0, 2, (300, 3)), columns=list("abc")).astype(float)
    data.iloc[:12, 2] = np.nan  # c has gaps; its strata and contexts below name its integer state 0
    return data


def _as_the_user_would_write_it(data):
    """c as strings with its own "missing" state: what missing="state" should be equivalent to."""
    out = data.copy().astype(object)
    out["c"] = [("missing" if pd.isna(x) else str(int(x))) for x in data["c"]]
    out[["a", "b"]] = data[["a", "b"]].astype(int)
    return out


@pytest.mark.parametrize("kind", ["sgm", "cmn"])
def test_missing_as_a_state_restates_the_strata_and_fits_as_the_string_columns_would(kind):
    data = _data()
    if kind == "sgm":
        model = StratifiedGraphicalModel(EDGES, strata={("a", "b"): [{"c": 0}]}).fit(data, missing="state")
        same = StratifiedGraphicalModel(EDGES, strata={("a", "b"): [{"c": "0"}]},
                                        state_names={"c": ["0", "1", "missing"]})  # fmt: skip
        same.fit(_as_the_user_would_write_it(data))
        found, reference = model.strata, same.strata
    else:
        model = ContextualMarkovNetwork(EDGES, contexts={("a", "b"): [{"c": 0}]}).fit(data, missing="state")
        same = ContextualMarkovNetwork(EDGES, contexts={("a", "b"): [{"c": "0"}]},
                                       state_names={"c": ["0", "1", "missing"]})  # fmt: skip
        same.fit(_as_the_user_would_write_it(data))
        found, reference = model.contexts, same.contexts
    assert found == reference == {("a", "b"): [{"c": "0"}]}
    assert tuple(model.state_names["c"]) == ("0", "1", "missing")
    rows = _as_the_user_would_write_it(data)
    assert model.log_likelihood(rows) == pytest.approx(same.log_likelihood(rows), abs=1e-9)
    model.fit(data, missing="state")  # a refit reads its own recorded states
    assert model.log_likelihood(rows) == pytest.approx(same.log_likelihood(rows), abs=1e-9)


@pytest.mark.parametrize("kind", ["sgm", "cmn"])
def test_a_failed_fit_leaves_the_strata_and_states_as_they_were(kind):
    data = _data()
    if kind == "sgm":
        model = StratifiedGraphicalModel(EDGES, strata={("a", "b"): [{"c": 0}]})
    else:
        model = ContextualMarkovNetwork(EDGES, contexts={("a", "b"): [{"c": 0}]})
    states = dict(model.state_names)
    with pytest.raises(ValueError, match="'a'"):
        model.fit(data, missing="state", state_names={"a": ["only"]})  # a's data are not its declared states
    assert (model.strata if kind == "sgm" else model.contexts) == {("a", "b"): [{"c": 0}]}
    assert dict(model.state_names) == states
