"""The claims of tutorial 07 (contextual Markov networks on Fair's affairs data), with its own settings."""

import warnings
from itertools import product

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.causal_discovery import MPLSearch, NonReversibleMCMC
from pgmpy_sgm.models import ContextualMarkovNetwork, StratifiedGraphicalModel


@pytest.fixture(scope="module")
def affairs():
    sm = pytest.importorskip("statsmodels.api")
    raw = sm.datasets.fair.load_pandas().data
    return pd.DataFrame({
        "affair": np.where(raw["affairs"] > 0, "yes", "no"),
        "marriage": np.where(raw["rate_marriage"] >= 4, "happy", "unhappy"),
        "religious": np.where(raw["religious"] >= 3, "yes", "no"),
        "age": np.where(raw["age"] > 27, "over_27", "up_to_27"),
        "years_married": np.where(raw["yrs_married"] > 6, "over_6", "up_to_6"),
        "children": np.where(raw["children"] > 0, "yes", "no"),
        "education": np.where(raw["educ"] > 14, "degree", "no_degree"),
        "occupation": np.where(raw["occupation"] >= 4, "high", "low"),
        "husband_occ": np.where(raw["occupation_husb"] >= 4, "high", "low"),
    })


@pytest.fixture(scope="module")
def learned(affairs):
    return MPLSearch(seed=0).fit(affairs).model_


def test_07_the_best_graph_is_not_chordal_and_has_its_contexts(learned):
    assert learned.number_of_edges() == 17 and not nx.is_chordal(learned)
    cycle = ["affair", "religious", "age", "years_married"]  # chordless: neither chord is an edge
    assert all(learned.has_edge(u, v) for u, v in zip(cycle, cycle[1:] + cycle[:1], strict=True))
    assert not learned.has_edge("affair", "age") and not learned.has_edge("religious", "years_married")
    assert set(learned.neighbors("affair")) == {"marriage", "religious", "years_married", "children", "education"}
    assert [str(s) for s in learned.independencies()] == [
        "affair ⟂ children | marriage=happy, years_married=over_6, education=no_degree",
        "affair ⟂ children | marriage=happy, years_married=up_to_6, education=degree",
        "affair ⟂ children | marriage=unhappy, years_married=over_6, education=no_degree",
        "years_married ⟂ education | affair=yes, children=yes, husband_occ=high",
        "education ⟂ husband_occ | years_married=up_to_6, occupation=low"]
    assert (learned.n_free_parameters(), learned.n_free_parameters(contexts=False)) == (30, 35)


def test_07_the_fitted_context_holds_given_every_outcome_of_the_rest(affairs, learned):
    """education ⟂ husband_occ given the rest when years_married=up_to_6 and occupation=low, not when high."""
    fitted = ContextualMarkovNetwork(learned).fit(affairs)
    joint = fitted.joint()
    fixed = ("education", "husband_occ", "occupation", "years_married")
    rest = [v for v in affairs.columns if v not in fixed]
    ratios = {"low": [], "high": []}
    for values in product(*(fitted.node_states(v) for v in rest)):
        for occupation in ratios:
            evidence = [*zip(rest, values, strict=True), ("occupation", occupation), ("years_married", "up_to_6")]
            table = joint.reduce(evidence, inplace=False)
            t = table.values.transpose([table.variables.index("education"), table.variables.index("husband_occ")])
            ratios[occupation].append(t[0, 0] * t[1, 1] / (t[0, 1] * t[1, 0]))
    assert np.allclose(ratios["low"], 1.0, atol=1e-9)
    assert min(abs(np.log(ratios["high"]))) > 0.1


def test_07_held_out_the_network_beats_the_stratified_graph_with_fewer_parameters(affairs):
    train = affairs.sample(frac=0.5, random_state=0)
    test = affairs.drop(train.index)
    mpl = MPLSearch(seed=0).fit(train)
    assert mpl.graph_criterion_ == "bic"  # every variable is binary
    assert mpl.added_edges_ == [("affair", "children"), ("marriage", "religious")]
    network = ContextualMarkovNetwork(mpl.model_).fit(train)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sg = StratifiedGraphicalModel(NonReversibleMCMC(seed=0, n_iter=3000, show_progress=False).fit(train).model_)
    sg.fit(train)
    assert nx.is_chordal(sg) and not nx.is_chordal(network)
    assert network.n_free_parameters() < sg.n_free_parameters()
    assert network.log_likelihood(test) > sg.log_likelihood(test)
