"""End to end on realistic multi-state data: simulate from a bnlearn network, learn, convert, query, save."""

import gzip
from pathlib import Path

import numpy as np
import pytest
from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader

from pgmpy_sgm import NonReversibleMCMC, SGMScore, StratifiedGraphicalModel
from pgmpy_sgm.readwrite import read_json, write_json

DATA = Path(__file__).resolve().parent / "data"


def _network(name):
    with gzip.open(DATA / f"{name}.bif.gz", "rt") as fh:
        return BIFReader(string=fh.read()).get_model()


@pytest.mark.parametrize(("name", "n_rows"), [("asia", 3000), ("child", 1500)])
def test_learn_convert_query_and_save(name, n_rows, tmp_path):
    network = _network(name)
    data = network.simulate(n_rows, seed=7, show_progress=False)
    data = data[sorted(data.columns)].astype(str)
    est = NonReversibleMCMC(n_iter=400, n_chains=1, seed=0, show_progress=False).fit(data)
    sg = est.model_
    assert sg.check_model() and sg.is_maximal_regular()
    assert set(sg.nodes()) == set(data.columns)
    # the reported score is the score of the reported model, recomputed from scratch
    assert SGMScore(data).score(sg) == pytest.approx(est.best_score_, rel=1e-12)
    assert est.posterior_["probability"].sum() == pytest.approx(1.0)

    model = StratifiedGraphicalModel(sg).fit(data)
    bn = model.to_bayesian_network()
    assert bn.check_model()
    target = sorted(data.columns)[0]
    marginal = VariableElimination(bn).query([target], show_progress=False)
    assert marginal.values.sum() == pytest.approx(1.0)
    empirical = data[target].value_counts(normalize=True)
    for state, p in zip(marginal.state_names[target], marginal.values, strict=True):
        assert p == pytest.approx(empirical.get(state, 0.0), abs=0.03)

    held_out = network.simulate(500, seed=8, show_progress=False)[sorted(data.columns)].astype(str)
    held_out = held_out[np.all([held_out[c].isin(data[c].unique()) for c in held_out.columns], axis=0)]
    per_row = est.predict_log_likelihood(held_out)
    assert np.all(np.isfinite(per_row)) and np.all(per_row < 0)
    assert model.log_likelihood(held_out) == pytest.approx(float(np.sum(model.log_likelihood(held_out, per_row=True))))

    path = tmp_path / "model.json"
    write_json(model, path)
    assert read_json(path) == model
