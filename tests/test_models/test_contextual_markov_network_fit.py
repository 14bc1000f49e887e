"""Tests of ContextualMarkovNetwork's parameters: cyclical projection, likelihood, inference, sampling.

Every reference value is computed here by brute force over the joint table.
"""

from itertools import product

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.models import ContextualMarkovNetwork

MODELS = {
    # the context sits on the chord, which lies in both triangles
    "chorded_cycle": ([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")],
                      {("a", "c"): [{"b": "y", "d": 1}]}, {"b": ["x", "y", "z"]}),
    # a 4-cycle (not chordal) with a triangle whose edge has contexts
    "cycle_and_triangle": ([("p", "q"), ("q", "r"), ("r", "s"), ("s", "p"), ("p", "t"), ("q", "t")],
                           {("p", "q"): [{"t": "v"}, {"t": "w"}]}, {"t": ["u", "v", "w"]}),
    # contexts on two edges of a 4-clique that share no node (not a stratified graph)
    "clique_two_edges": ([("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")],
                         {("b", "c"): [{"a": 0, "d": 1}], ("a", "d"): [{"b": 1, "c": 1}, {"b": 0, "c": 0}]}, {}),
    "plain_cycle": ([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")], {}, {"a": [0, 1, 2]}),
}


def _model(name):
    edges, contexts, states = MODELS[name]
    return ContextualMarkovNetwork(edges, contexts=contexts, state_names=states)


def _cells(cmn):
    nodes = list(cmn.nodes())
    return nodes, list(product(*(range(len(cmn.node_states(v))) for v in nodes)))


def _brute_joint(cmn):
    """``{cell: probability}`` from the factors' values, one cell at a time."""
    nodes, cells = _cells(cmn)
    pos = {v: i for i, v in enumerate(nodes)}
    weights = {}
    for cell in cells:
        w = 1.0
        for f in cmn.get_factors():
            w *= float(f.values[tuple(cell[pos[v]] for v in f.variables)])
        weights[cell] = w
    total = sum(weights.values())
    return {c: w / total for c, w in weights.items()}


def _random_data(cmn, n, seed):
    """Rows drawn from a random distribution over all cells (not in the model)."""
    rng = np.random.default_rng(seed)
    nodes, cells = _cells(cmn)
    p = rng.dirichlet(np.full(len(cells), 2.0))
    picks = rng.choice(len(cells), size=n, p=p)
    return pd.DataFrame({v: [cmn.node_states(v)[cells[k][i]] for k in picks] for i, v in enumerate(nodes)})


def _empirical(cmn, data, pseudo_count):
    nodes, cells = _cells(cmn)
    counts = dict.fromkeys(cells, 0.0)
    for row in data[nodes].itertuples(index=False):
        counts[tuple(cmn.node_states(v).index(x) for v, x in zip(nodes, row, strict=True))] += 1
    total = len(data) + pseudo_count
    return {c: (k + pseudo_count / len(cells)) / total for c, k in counts.items()}


def _model_functions(cmn):
    """A basis (columns, over the joint cells) of the log-linear functions the model is made of."""
    nodes, cells = _cells(cmn)
    pos = {v: i for i, v in enumerate(nodes)}
    index = {c: i for i, c in enumerate(cells)}
    span = []
    for clique in nx.find_cliques(cmn):
        for values in product(*(range(len(cmn.node_states(w))) for w in clique)):
            span.append([float(all(c[pos[w]] == s for w, s in zip(clique, values, strict=True))) for c in cells])
    span = np.array(span).T
    rows = []
    for (u, v), found in cmn.contexts.items():
        for context in found:
            for c in cells:
                if c[pos[u]] == 0 or c[pos[v]] == 0 or any(
                        cmn.node_states(w).index(s) != c[pos[w]] for w, s in context.items()):
                    continue
                row = np.zeros(len(cells))
                for a, b, sign in ((c[pos[u]], c[pos[v]], 1), (0, c[pos[v]], -1), (c[pos[u]], 0, -1), (0, 0, 1)):
                    moved = list(c)
                    moved[pos[u]], moved[pos[v]] = a, b
                    row[index[tuple(moved)]] += sign
                rows.append(row)
    if not rows:
        return span
    _, s, vt = np.linalg.svd(np.array(rows) @ span)
    return span @ vt[int((s > 1e-9).sum()):].T


def _csi_gaps(cmn, joint):
    """Largest |p(xu, xv, r) p(xu', xv', r) - p(xu, xv', r) p(xu', xv, r)| over every context's outcomes."""
    nodes, cells = _cells(cmn)
    pos = {v: i for i, v in enumerate(nodes)}
    worst = 0.0
    for (u, v), found in cmn.contexts.items():
        for context in found:
            for c in cells:
                if any(cmn.node_states(w).index(s) != c[pos[w]] for w, s in context.items()):
                    continue
                for a, b in product(range(len(cmn.node_states(u))), range(len(cmn.node_states(v)))):
                    p = {}
                    for x, y in ((a, b), (0, 0), (a, 0), (0, b)):
                        moved = list(c)
                        moved[pos[u]], moved[pos[v]] = x, y
                        p[x, y] = joint[tuple(moved)]
                    worst = max(worst, abs(p[a, b] * p[0, 0] - p[a, 0] * p[0, b]))
    return worst


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("pseudo_count", [0.0, 2.5])
def test_fit_matches_the_sufficient_statistics_and_keeps_the_contexts(name, pseudo_count):
    cmn = _model(name)
    data = _random_data(cmn, 400, seed=len(name))
    cmn.fit(data, pseudo_count=pseudo_count, tol=1e-10)
    assert cmn.converged_
    joint = _brute_joint(cmn)
    target = _empirical(cmn, data, pseudo_count)
    _, cells = _cells(cmn)
    fitted = np.array([joint[c] for c in cells])
    wanted = np.array([target[c] for c in cells])
    functions = _model_functions(cmn)
    assert np.abs(functions.T @ (fitted - wanted)).max() < 1e-8
    assert _csi_gaps(cmn, joint) < 1e-12


def test_cliques_without_contexts_get_the_data_marginal():
    cmn = _model("cycle_and_triangle")
    data = _random_data(cmn, 300, seed=3)
    cmn.fit(data, pseudo_count=0, tol=1e-11)
    joint = _brute_joint(cmn)
    nodes, cells = _cells(cmn)
    for edge in [("q", "r"), ("r", "s"), ("s", "p")]:
        for values in product(range(2), range(2)):
            fitted = sum(p for c, p in joint.items() if (c[nodes.index(edge[0])], c[nodes.index(edge[1])]) == values)
            observed = np.mean([(cmn.node_states(edge[0]).index(x), cmn.node_states(edge[1]).index(y)) == values
                                for x, y in zip(data[edge[0]], data[edge[1]], strict=True)])
            assert fitted == pytest.approx(observed, abs=1e-9)


def test_the_fit_beats_other_members_of_the_model():
    """The maximum: moving the fitted log-probabilities along any model direction lowers the likelihood."""
    cmn = _model("clique_two_edges")
    data = _random_data(cmn, 250, seed=7)
    cmn.fit(data, pseudo_count=0, tol=1e-11)
    _, cells = _cells(cmn)
    log_joint = np.log([_brute_joint(cmn)[c] for c in cells])
    counts = np.array([_empirical(cmn, data, 0.0)[c] for c in cells])
    functions = _model_functions(cmn)
    rng = np.random.default_rng(0)
    best = counts @ log_joint
    for _ in range(20):
        moved = log_joint + 0.05 * functions @ rng.normal(size=functions.shape[1])
        moved -= np.log(np.exp(moved).sum())
        assert counts @ moved < best + 1e-12


@pytest.mark.parametrize("name", list(MODELS))
def test_log_likelihood_against_the_joint(name):
    cmn = _model(name)
    data = _random_data(cmn, 120, seed=1)
    cmn.fit(data)
    joint = _brute_joint(cmn)
    nodes, cells = _cells(cmn)
    rows = _random_data(cmn, 15, seed=2)
    expected = [np.log(joint[tuple(cmn.node_states(v).index(x) for v, x in zip(nodes, row, strict=True))])
                for row in rows[nodes].itertuples(index=False)]
    assert cmn.log_likelihood(rows, per_row=True) == pytest.approx(expected, abs=1e-10)
    assert cmn.log_likelihood(rows) == pytest.approx(sum(expected), abs=1e-9)
    gappy = rows.astype(object)
    gappy.iloc[0, 0] = None
    gappy.iloc[1, [0, 2]] = None
    observed = [np.log(sum(p for c, p in joint.items() if all(
        x is None or cmn.node_states(v).index(x) == c[i] for i, (v, x) in enumerate(zip(nodes, row, strict=True)))))
        for row in gappy[nodes].itertuples(index=False)]
    assert cmn.log_likelihood(gappy, per_row=True) == pytest.approx(observed, abs=1e-10)


@pytest.mark.parametrize("name", ["chorded_cycle", "cycle_and_triangle", "plain_cycle"])
def test_exact_inference_with_pgmpy(name):
    from pgmpy.inference import BeliefPropagation, VariableElimination

    cmn = _model(name)
    cmn.fit(_random_data(cmn, 200, seed=4))
    joint = _brute_joint(cmn)
    nodes, _ = _cells(cmn)
    tree = cmn.to_junction_tree()
    network = cmn.to_markov_network()
    for pair in [nodes[:2], [nodes[0], nodes[2]], [nodes[-1]]]:
        shape = [len(cmn.node_states(v)) for v in pair]
        expected = np.zeros(shape)
        for c, p in joint.items():
            expected[tuple(c[nodes.index(v)] for v in pair)] += p
        for engine in (BeliefPropagation(tree), VariableElimination(network), VariableElimination(cmn)):
            found = engine.query(pair, joint=True, show_progress=False)
            found = found.values.transpose([found.variables.index(v) for v in pair])
            if isinstance(engine, VariableElimination):  # pgmpy leaves Markov network queries unnormalised
                found = found / found.sum()
            assert found == pytest.approx(expected, abs=1e-12)
    assert nx.is_chordal(nx.Graph([(u, v) for c in tree.nodes() for u in c for v in c if u != v]))


def test_simulate_follows_the_joint():
    cmn = _model("chorded_cycle")
    cmn.fit(_random_data(cmn, 200, seed=5))
    joint = _brute_joint(cmn)
    nodes, cells = _cells(cmn)
    draws = cmn.simulate(n_samples=20000, seed=11)
    assert list(draws.columns) == nodes and set(draws["b"]) <= {"x", "y", "z"}
    frequencies = draws.value_counts(normalize=True)
    for c in cells:
        key = tuple(cmn.node_states(v)[s] for v, s in zip(nodes, c, strict=True))
        assert frequencies.get(key, 0.0) == pytest.approx(joint[c], abs=0.015)
    again = cmn.simulate(n_samples=50, seed=11)
    pd.testing.assert_frame_equal(again, cmn.simulate(n_samples=50, seed=11))


def test_weights_equal_repeated_rows():
    cmn = _model("chorded_cycle")
    data = _random_data(cmn, 60, seed=6)
    pooled = data.value_counts().rename("n").reset_index()
    a = cmn.copy().fit(data).log_likelihood(data)
    b = cmn.copy().fit(pooled, weights="n").log_likelihood(data)
    assert a == pytest.approx(b, abs=1e-9)


def test_fit_learns_unknown_states_and_refuses_bad_input():
    data = pd.DataFrame({"a": ["lo", "hi", "hi"], "b": [0, 1, 1]})
    cmn = ContextualMarkovNetwork([("a", "b")]).fit(data)
    assert cmn.state_names == {"a": ("hi", "lo"), "b": (0, 1)}
    with pytest.raises(ValueError, match=r"pseudo_count must be a finite number >= 0. Got: -1"):
        cmn.fit(data, pseudo_count=-1)
    with pytest.raises(ValueError, match=r"max_iter must be an integer >= 1. Got: 0"):
        cmn.fit(data, max_iter=0)
    with pytest.raises(ValueError, match=r"lack the model's variable\(s\) \['b'\]"):
        cmn.fit(data[["a"]])
    with pytest.raises(ValueError, match="weights column 'n' is not a column"):
        cmn.fit(data, weights="n")
    with pytest.raises(ValueError, match="no factors; call fit"):
        ContextualMarkovNetwork([("a", "b")]).log_likelihood(data)
    with pytest.raises(ValueError, match=r"Column 'a' has state\(s\) \['mid'\] unknown"):
        cmn.log_likelihood(pd.DataFrame({"a": ["mid"], "b": [0]}))


def test_context_states_must_exist_in_the_data_states():
    cmn = ContextualMarkovNetwork([("a", "b"), ("a", "c"), ("b", "c")], contexts={("b", "c"): [{"a": 1}]})
    with pytest.raises(ValueError, match=r"Edge \('b', 'c'\) has a context with state 1 of 'a', which has states "
                                         r"\('x', 'y'\)"):
        cmn.fit(pd.DataFrame({"a": ["x", "y"], "b": [0, 1], "c": [1, 0]}))
    assert cmn.state_names["a"] == (0, 1)  # left as it was


def test_slow_convergence_warns():
    from pgmpy_sgm.causal_discovery import ConvergenceWarning

    cmn = _model("plain_cycle")
    with pytest.warns(ConvergenceWarning, match="max_iter=1 sweeps"):
        cmn.fit(_random_data(cmn, 100, seed=8), max_iter=1, tol=1e-12)
    assert not cmn.converged_


@pytest.mark.parametrize("which", ["best", "second", "gm"])
def test_decomposable_case_equals_the_closed_form_of_stratified_graphical_models(which, heart_reference_models,
                                                                                heart_counts):
    """On the heart data's stratified graphs the maximum likelihood has a closed form (an independent code path)."""
    from pgmpy_sgm.models import StratifiedGraphicalModel

    sg, _ = heart_reference_models[which]
    sgm = StratifiedGraphicalModel(sg).fit(heart_counts, estimator="mle", weights="count")
    cmn = ContextualMarkovNetwork(list(sg.edges()), contexts=sg.strata, nodes=list(sg.nodes()))
    cmn.fit(heart_counts, weights="count", pseudo_count=0, tol=1e-11)
    rows = heart_counts[list(sg.nodes())]
    assert cmn.log_likelihood(rows, per_row=True) == pytest.approx(sgm.log_likelihood(rows, per_row=True), abs=1e-8)
    assert cmn.n_free_parameters() == sg.n_free_parameters()


def test_too_dense_for_exact_computation():
    nodes = [f"v{i}" for i in range(26)]
    cmn = ContextualMarkovNetwork([(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1:]])
    data = pd.DataFrame({v: [0, 1] for v in nodes})
    with pytest.raises(ValueError, match="largest clique has 26 variables"):
        cmn.fit(data)


def test_contexts_tying_too_large_a_block():
    hub = [(f"w{i}", "u") for i in range(9)] + [(f"w{i}", "v") for i in range(9)] + [("u", "v")]
    states = {f"w{i}": [0, 1, 2] for i in range(9)}
    context = {f"w{i}": 0 for i in range(9)}
    cmn = ContextualMarkovNetwork(hub, contexts={("u", "v"): [context]}, state_names=states)
    data = pd.DataFrame({v: [0, 1] for v in cmn.nodes()})
    with pytest.raises(ValueError, match=r"The contexts of edge \('u', 'v'\) tie cliques over 11 variables"):
        cmn.fit(data)


def test_log_probability_function_is_the_normalised_joint_in_any_column_and_state_order():
    data = pd.DataFrame({"a": [0, 0, 1, 1, 1, 0], "b": ["x", "y", "y", "y", "x", "x"], "c": [1, 1, 0, 1, 0, 0]})
    cmn = ContextualMarkovNetwork([("a", "b"), ("b", "c"), ("a", "c")], state_names={"b": ["x", "y"]}).fit(data)
    f = cmn.log_probability_function(["c", "b", "a"], {"a": [1, 0], "b": ["y", "x"], "c": [0, 1]})
    codes = np.array([[i, j, k] for i in range(2) for j in range(2) for k in range(2)])
    values = np.exp(f(codes))
    assert values.sum() == pytest.approx(1.0, abs=1e-12)
    joint = cmn.joint()
    for (i, j, k), value in zip(codes, values, strict=True):
        cell = {"c": [0, 1][i], "b": ["y", "x"][j], "a": [1, 0][k]}
        assert value == pytest.approx(joint.get_value(**cell), rel=1e-10)


def test_default_pseudo_count_adds_five_observations_spread_over_the_cells():
    """On one clique (a, b) with 2 x 3 states the default fit is (counts + 5 / 6) / (n + 5), cell by cell."""
    data = pd.DataFrame({"a": [0, 0, 1, 1, 1, 0, 1], "b": ["x", "y", "y", "z", "z", "x", "x"]})
    cmn = ContextualMarkovNetwork([("a", "b")], state_names={"a": [0, 1], "b": ["x", "y", "z"]}).fit(data)
    counts = pd.crosstab(data["a"], data["b"]).reindex(index=[0, 1], columns=["x", "y", "z"], fill_value=0)
    expected = (counts.to_numpy() + 5 / 6) / (len(data) + 5)
    assert np.allclose(cmn.joint().values, expected, atol=1e-9)


def _masked(data, rate, seed):
    return data.astype(object).mask(np.random.default_rng(seed).random(data.shape) < rate)


def _observed_log_likelihood(cmn, rows):
    """The log-probability of each row's observed cells, summed over the joint's cells one by one."""
    nodes, cells = _cells(cmn)
    joint = _brute_joint(cmn)
    total = 0.0
    for row in rows[nodes].itertuples(index=False):
        wanted = [None if pd.isna(x) else cmn.node_states(v).index(x) for v, x in zip(nodes, row, strict=True)]
        seen = [c for c in cells if all(w is None or w == s for w, s in zip(wanted, c, strict=True))]
        total += np.log(sum(joint[c] for c in seen))
    return total


@pytest.mark.parametrize("name", ["chorded_cycle", "clique_two_edges"])
def test_parameter_em_never_lowers_the_observed_likelihood_and_keeps_the_contexts(name):
    from pgmpy_sgm.core.missing import EMOptions

    cmn = _model(name)
    masked = _masked(_random_data(cmn, 500, seed=3), 0.25, seed=4)
    cmn.fit(masked, pseudo_count=1.0, missing=EMOptions(max_iter=8, tol=0.0, rtol=0.0), tol=1e-10)
    history = cmn.em_history_
    exact = history[history["e_step"] == "exact"]
    assert len(exact) >= 2 and (exact["gain"] >= -1e-9).all()
    assert history["log_likelihood"].iloc[-1] == pytest.approx(_observed_log_likelihood(cmn, masked), abs=1e-6)
    assert _csi_gaps(cmn, _brute_joint(cmn)) < 1e-12


def test_missing_choices_without_gaps_give_the_complete_fit_and_the_others_do_what_they_say():
    import warnings

    from pgmpy_sgm.core.missing import MissingValuesWarning

    cmn = _model("chorded_cycle")
    data = _random_data(cmn, 300, seed=5)
    reference = _brute_joint(_model("chorded_cycle").fit(data))
    for choice in ("error", "complete_cases", "em", "state"):
        other = _brute_joint(_model("chorded_cycle").fit(data, missing=choice))
        assert max(abs(reference[c] - other[c]) for c in reference) == 0.0
    masked = _masked(data, 0.1, seed=6)
    with pytest.raises(ValueError, match="missing"):
        _model("chorded_cycle").fit(masked)
    with pytest.raises(ValueError, match="missing must be one of"):
        _model("chorded_cycle").fit(masked, missing="drop")
    with pytest.raises(ValueError, match="pseudo_count='cv'"):
        _model("chorded_cycle").fit(masked, missing="em", pseudo_count="cv")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dropped = _brute_joint(_model("chorded_cycle").fit(masked, missing="complete_cases"))
    assert any(issubclass(w.category, MissingValuesWarning) for w in caught)
    complete = _brute_joint(_model("chorded_cycle").fit(masked.dropna()))
    assert max(abs(dropped[c] - complete[c]) for c in complete) < 1e-12
