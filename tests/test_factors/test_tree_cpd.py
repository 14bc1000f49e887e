"""Tests for pgmpy_sgm.factors.TreeCPD.

Expected values are built independently of the code under test: tables by explicit loops over
configurations, trees checked by walking them, joints by brute-force products of the defining numbers.
"""

import copy
import itertools
import json
import pickle

import numpy as np
import pytest
from pgmpy.factors.discrete import TabularCPD
from pgmpy.inference import VariableElimination
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.readwrite import BIFReader, BIFWriter, XMLBIFReader, XMLBIFWriter

from pgmpy_sgm.factors import TreeCPD

HEART_GROUPS = [0, 0, 1, 0]
HEART_VALUES = [[0.72, 0.55], [0.28, 0.45]]


def heart_cpd(state_names=None):
    return TreeCPD("systolic_bp", 2, ["smoking", "lipoprotein_ratio"], [2, 2], HEART_GROUPS, HEART_VALUES, state_names)


def expected_table(variable_card, evidence_card, groups, group_values):
    """Full table from groups, one explicit column per configuration (last parent fastest)."""
    configs = list(itertools.product(*[range(k) for k in evidence_card]))
    table = np.zeros((variable_card, len(configs)))
    for col, _ in enumerate(configs):
        for state in range(variable_card):
            table[state, col] = group_values[state][groups[col]]
    return table


def walk(tree, assignment):
    """Follow a public-format tree for ``assignment`` ({var: state}); return (group, path)."""
    path = []
    while tree[0] == "split":
        _, var, branches = tree
        assert var not in path, "variable split twice on one path"
        path.append(var)
        tree = dict(branches)[assignment[var]]
    assert tree[0] == "leaf"
    return tree[1], tuple(path)


def leaves(tree, context=()):
    """All leaves as (context, group) pairs."""
    if tree[0] == "leaf":
        return [(context, tree[1])]
    out = []
    for state, sub in tree[2]:
        out += leaves(sub, context + ((tree[1], state),))
    return out


def min_leaves_brute(groups_nd):
    """Smallest number of leaves of any CPT-tree for a groups array (naive recursion, no memo)."""
    if len(np.unique(groups_nd)) == 1:
        return 1
    return min(
        sum(min_leaves_brute(np.take(groups_nd, s, axis=ax)) for s in range(groups_nd.shape[ax]))
        for ax in range(groups_nd.ndim)
        if groups_nd.shape[ax] > 1
    )


def random_grouping(rng, n_conf):
    n_groups = int(rng.integers(1, min(n_conf, 5) + 1))
    raw = rng.integers(0, n_groups, size=n_conf)
    _, groups = np.unique(raw, return_inverse=True)  # ids 0..g-1, all used
    return groups.reshape(-1)


# ---------------------------------------------------------------------------------------------- table
def test_heart_table_written_out():
    cpd = heart_cpd()
    np.testing.assert_array_equal(cpd.get_values(), [[0.72, 0.72, 0.55, 0.72], [0.28, 0.28, 0.45, 0.28]])
    assert cpd.variables == ["systolic_bp", "smoking", "lipoprotein_ratio"]
    assert cpd.n_groups == 2 and cpd.n_leaves == 3 and cpd.n_free_parameters() == 2
    assert isinstance(cpd, TabularCPD)


@pytest.mark.parametrize("seed", range(40))
def test_random_groupings_table_and_tree(seed):
    rng = np.random.default_rng(seed)
    n_par = int(rng.integers(1, 5))
    cards = [int(k) for k in rng.choice([2, 3], size=n_par)]
    var_card = int(rng.integers(2, 4))
    n_conf = int(np.prod(cards))
    groups = random_grouping(rng, n_conf)
    n_groups = groups.max() + 1
    values = rng.dirichlet(np.ones(var_card), size=n_groups).T
    evidence = [f"p{i}" for i in range(n_par)]
    cpd = TreeCPD("v", var_card, evidence, cards, groups, values)

    np.testing.assert_array_equal(cpd.get_values(), expected_table(var_card, cards, groups, values))
    assert cpd.groups.tolist() == groups.tolist()
    assert cpd.n_free_parameters() == n_groups * (var_card - 1)

    # every configuration reaches a leaf of its own group
    for col, conf in enumerate(itertools.product(*[range(k) for k in cards])):
        group, _ = walk(cpd.tree, dict(zip(evidence, conf, strict=True)))
        assert group == groups[col]
        np.testing.assert_array_equal(cpd.get_values()[:, col], values[:, group])
    # tied leaves: the leaves pointing at a group cover exactly that group's configurations
    all_leaves = leaves(cpd.tree)
    assert len(all_leaves) == cpd.n_leaves
    for g in range(n_groups):
        covered = set()
        for context, leaf_group in all_leaves:
            if leaf_group != g:
                continue
            fixed = dict(context)
            for col, conf in enumerate(itertools.product(*[range(k) for k in cards])):
                if all(conf[evidence.index(v)] == s for v, s in fixed.items()):
                    covered.add(col)
        assert covered == set(np.flatnonzero(groups == g))
    # the tree is as small as possible (checked on the small cases)
    if n_conf <= 12:
        assert cpd.n_leaves == min_leaves_brute(groups.reshape(cards))


def test_non_subcube_group_gives_tied_leaves():
    cpd = heart_cpd()
    assert cpd.tree == (
        "split",
        "smoking",
        ((0, ("leaf", 0)), (1, ("split", "lipoprotein_ratio", ((0, ("leaf", 1)), (1, ("leaf", 0)))))),
    )
    assert [g for _, g in leaves(cpd.tree)].count(0) == 2


@pytest.mark.parametrize(
    ("cards", "groups", "n_leaves"),
    [
        ([2, 2], [0, 1, 1, 0], 4),  # xor: no split helps
        ([2, 2], [0, 0, 0, 0], 1),  # one group: a single leaf
        ([2, 2, 2], [0, 1, 0, 1, 0, 1, 0, 1], 2),  # only the last parent matters
        ([3, 2], [0, 0, 0, 1, 0, 0], 4),  # split on the binary parent first: 1 + 3 leaves
    ],
)
def test_tree_sizes(cards, groups, n_leaves):
    n_groups = max(groups) + 1
    values = np.full((2, n_groups), 0.5)
    values[:, 0] = [0.1, 0.9]
    cpd = TreeCPD("v", 2, [f"p{i}" for i in range(len(cards))], cards, groups, values)
    assert cpd.n_leaves == n_leaves


def test_last_parent_only_splits_on_it():
    cpd = TreeCPD("v", 2, ["a", "b", "c"], [2, 2, 2], [0, 1] * 4, [[0.2, 0.6], [0.8, 0.4]])
    assert cpd.tree == ("split", "c", ((0, ("leaf", 0)), (1, ("leaf", 1))))


def test_no_parents():
    cpd = TreeCPD("v", 3, None, None, [0], [[0.2], [0.3], [0.5]])
    assert cpd.tree == ("leaf", 0) and cpd.n_leaves == 1
    np.testing.assert_array_equal(cpd.get_values(), [[0.2], [0.3], [0.5]])
    assert "(no split) -> leaf A" in cpd.to_text()


# ---------------------------------------------------------------------------------------------- from_tree
def test_from_tree_round_trip():
    cpd = heart_cpd()
    back = TreeCPD.from_tree("systolic_bp", 2, ["smoking", "lipoprotein_ratio"], [2, 2], cpd.tree, HEART_VALUES)
    assert back.tree == cpd.tree and back.groups.tolist() == HEART_GROUPS
    np.testing.assert_array_equal(back.get_values(), cpd.get_values())


def test_from_tree_dict_branches_state_names_and_non_minimal_tree_kept():
    sn = {"a": ["lo", "hi"], "b": ["x", "y", "z"]}
    tree = (
        "split",
        "b",
        {"x": ("leaf", 0), "y": ("split", "a", {"lo": ("leaf", 1), "hi": ("leaf", 0)}), "z": ("leaf", 0)},
    )
    cpd = TreeCPD.from_tree("v", 2, ["a", "b"], [2, 3], tree, [[0.3, 0.9], [0.7, 0.1]], state_names=sn)
    # configurations (a, b) in C order: (lo,x) (lo,y) (lo,z) (hi,x) (hi,y) (hi,z)
    assert cpd.groups.tolist() == [0, 1, 0, 0, 0, 0]
    assert cpd.n_leaves == 4
    assert cpd.tree[1] == "b" and cpd.tree[2][1][0] == "y"
    assert cpd.group_of({"a": "lo", "b": "y"}) == 1 and cpd.group_of(["hi", "y"]) == 0


def test_from_tree_keeps_a_non_minimal_tree():
    sub = ["split", "b", [[0, ["leaf", 0]], [1, ["leaf", 1]], [2, ["leaf", 0]]]]  # JSON-style lists
    tree = ["split", "a", [[0, sub], [1, sub]]]
    cpd = TreeCPD.from_tree("v", 2, ["a", "b"], [2, 3], tree, [[0.3, 0.9], [0.7, 0.1]])
    assert cpd.groups.tolist() == [0, 1, 0, 0, 1, 0]
    assert cpd.n_leaves == 6 and cpd.tree[1] == "a"
    assert TreeCPD("v", 2, ["a", "b"], [2, 3], cpd.groups, cpd.group_values).n_leaves == 3


# ---------------------------------------------------------------------------------------------- copies
def test_copy_keeps_class_and_is_independent():
    cpd = heart_cpd({"smoking": ["no", "yes"]})
    dup = cpd.copy()
    assert type(dup) is TreeCPD and dup is not cpd
    assert dup.tree == cpd.tree and dup.groups.tolist() == HEART_GROUPS and dup == cpd
    assert dup.state_names["smoking"] == ["no", "yes"]
    dup.state_names["smoking"].append("maybe")
    assert cpd.state_names["smoking"] == ["no", "yes"]
    assert type(cpd.to_tabular()) is TabularCPD and cpd.to_tabular() == cpd


def test_normalize_keeps_a_given_tree_and_pickle_keeps_everything():
    sub = ("split", "b", ((0, ("leaf", 1)), (1, ("leaf", 0))))
    cpd = TreeCPD.from_tree("v", 2, ["a", "b"], [2, 2], ("split", "a", ((0, sub), (1, sub))), [[0.2, 0.6], [0.8, 0.4]])
    out = cpd.normalize(inplace=False)
    assert out.tree == cpd.tree and out.n_leaves == 4 and out.groups.tolist() == [1, 0, 1, 0]
    back = pickle.loads(pickle.dumps(cpd))
    assert type(back) is TreeCPD and back.tree == cpd.tree and back == cpd
    assert copy.deepcopy(cpd).tree == cpd.tree


def test_groups_are_read_only():
    cpd = heart_cpd()
    with pytest.raises(ValueError, match="read-only"):
        cpd.groups[0] = 1


# ---------------------------------------------------------------------------------------------- network
SN = {"smoking": ["no", "yes"], "ratio": ["low", "high"], "work": ["light", "mixed", "heavy"], "bp": ["normal", "high"]}
P_SMOKING = [0.3, 0.7]
P_RATIO_GIVEN_SMOKING = [[0.6, 0.45], [0.4, 0.55]]
WORK_GROUPS = [0, 1, 2, 0]  # work | (ratio, smoking): (low,no) (low,yes) (high,no) (high,yes)
WORK_VALUES = [[0.5, 0.2, 0.1], [0.3, 0.3, 0.2], [0.2, 0.5, 0.7]]
BP_GROUPS = [0, 0, 1, 0, 0, 0, 0, 1, 2, 0, 2, 1]  # bp | (smoking, ratio, work)
BP_VALUES = [[0.72, 0.55, 0.4], [0.28, 0.45, 0.6]]


def network():
    edges = [("smoking", "ratio"), ("smoking", "work"), ("ratio", "work"), ("smoking", "bp"), ("ratio", "bp")]
    model = DiscreteBayesianNetwork([*edges, ("work", "bp")])
    model.add_cpds(
        TabularCPD("smoking", 2, [[p] for p in P_SMOKING], state_names={"smoking": SN["smoking"]}),
        TreeCPD("ratio", 2, ["smoking"], [2], [0, 1], P_RATIO_GIVEN_SMOKING, state_names=SN),
        TreeCPD("work", 3, ["ratio", "smoking"], [2, 2], WORK_GROUPS, WORK_VALUES, state_names=SN),
        TreeCPD("bp", 2, ["smoking", "ratio", "work"], [2, 2, 3], BP_GROUPS, BP_VALUES, state_names=SN),
    )
    return model


def brute_joint():
    """Joint P(smoking, ratio, work, bp) as a 4-d array, from the defining numbers only."""
    joint = np.zeros((2, 2, 3, 2))
    for s, r, w, b in itertools.product(range(2), range(2), range(3), range(2)):
        bp_group = BP_GROUPS[s * 6 + r * 3 + w]
        joint[s, r, w, b] = (
            P_SMOKING[s]
            * P_RATIO_GIVEN_SMOKING[r][s]
            * WORK_VALUES[w][WORK_GROUPS[r * 2 + s]]
            * BP_VALUES[b][bp_group]
        )
    return joint


def test_network_check_model_and_inference():
    model = network()
    assert model.check_model()
    joint = brute_joint()
    assert joint.sum() == pytest.approx(1.0)
    infer = VariableElimination(model)
    res = infer.query(["smoking", "work"], evidence={"bp": "high"}, show_progress=False)
    expected = joint[:, :, :, 1].sum(axis=1)
    expected /= expected.sum()
    got = res.values if res.variables == ["smoking", "work"] else res.values.T
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    res2 = infer.query(["bp"], evidence={"ratio": "high", "work": "heavy"}, show_progress=False)
    exp2 = joint[:, 1, 2, :].sum(axis=0)
    np.testing.assert_allclose(res2.values, exp2 / exp2.sum(), rtol=1e-12)


def test_network_simulate():
    model = network()
    data = model.simulate(20000, seed=7, show_progress=False)
    assert set(data.columns) == set(SN)
    assert set(data["work"]) <= set(SN["work"])
    joint = brute_joint()
    freq = (data["bp"] == "high").mean()
    assert freq == pytest.approx(joint[..., 1].sum(), abs=0.02)
    cond = data[(data["smoking"] == "yes") & (data["ratio"] == "low")]
    p_heavy = joint[1, 0, 2].sum() / joint[1, 0].sum()
    assert (cond["work"] == "heavy").mean() == pytest.approx(p_heavy, abs=0.04)


def test_network_copy_do_and_remove_node_keep_tree_cpds():
    model = network()
    assert all(type(model.copy().get_cpds(v)) is TreeCPD for v in ("ratio", "work", "bp"))
    done = model.do(["work"])
    assert done.get_cpds("work").variables == ["work"]
    expected = np.array(WORK_VALUES)[:, WORK_GROUPS].mean(axis=1)
    np.testing.assert_allclose(done.get_cpds("work").get_values().ravel(), expected, rtol=1e-12)
    model.remove_node("smoking")
    assert model.check_model()
    assert isinstance(model.get_cpds("bp"), TreeCPD) and model.get_cpds("bp").variables == ["bp", "ratio", "work"]


@pytest.mark.parametrize(
    ("writer", "reader", "name"), [(BIFWriter, BIFReader, "net.bif"), (XMLBIFWriter, XMLBIFReader, "net.xml")]
)
def test_network_bif_round_trip(tmp_path, writer, reader, name):
    model = network()
    path = tmp_path / name
    writer(model).write(str(path))
    back = reader(str(path)).get_model()
    for var in SN:
        orig, new = model.get_cpds(var), back.get_cpds(var)
        assert new.variables == orig.variables
        assert [str(s) for s in new.state_names[var]] == [str(s) for s in orig.state_names[var]]
        np.testing.assert_array_equal(new.get_values(), orig.get_values())


# ---------------------------------------------------------------------------------------------- to_dict / from_dict
def test_to_dict_from_dict_lossless_through_json():
    cpd = TreeCPD(
        "v", 3, ["a", "b"], [2, 3], [0, 1, 0, 2, 0, 0],
        [[0.1, 1 / 3, 0.0], [0.2, 1 / 3, 0.25], [0.7, 1 / 3, 0.75]],
        state_names={"v": ["lo", "mid", "hi"], "b": ["x", "y", "z"]},
    )
    text = json.dumps(cpd.to_dict())
    back = TreeCPD.from_dict(json.loads(text))
    assert type(back) is TreeCPD
    assert back.variables == cpd.variables and back.state_names == cpd.state_names
    assert back.groups.tolist() == cpd.groups.tolist() and back.tree == cpd.tree
    np.testing.assert_array_equal(back.group_values, cpd.group_values)  # exact, not approximate
    np.testing.assert_array_equal(back.get_values(), cpd.get_values())


def test_to_dict_keeps_a_given_tree_and_int_variable_names():
    sub = ("split", 2, ((0, ("leaf", 0)), (1, ("leaf", 1))))
    cpd = TreeCPD.from_tree(0, 2, [1, 2], [2, 2], ("split", 1, ((0, sub), (1, sub))), [[0.5, 0.1], [0.5, 0.9]])
    back = TreeCPD.from_dict(json.loads(json.dumps(cpd.to_dict())))  # JSON turns int keys into strings
    assert back.variables == [0, 1, 2] and back.n_leaves == 4 and back.tree == cpd.tree


def test_from_dict_without_tree_builds_one():
    d = heart_cpd().to_dict()
    del d["tree"]
    assert TreeCPD.from_dict(d).n_leaves == 3


@pytest.mark.parametrize(
    ("change", "exc", "match"),
    [
        (lambda d: d.pop("groups"), ValueError, r"missing keys \['groups'\]"),
        (lambda d: d.update(colour="red"), ValueError, r"unknown keys \['colour'\]"),
        (lambda d: d.update(groups="0001"), TypeError, "'groups' must be a list"),
        (lambda d: d.update(state_names={"smoking": [0, 1]}), ValueError, "no entry for variable 'systolic_bp'"),
        (lambda d: d.update(groups=[0, 1, 0, 0]), ValueError, "disagree with the groups of 'tree'"),
    ],
)
def test_from_dict_validation(change, exc, match):
    d = heart_cpd().to_dict()
    change(d)
    with pytest.raises(exc, match=match):
        TreeCPD.from_dict(d)


def test_from_dict_rejects_non_mapping():
    with pytest.raises(TypeError, match="expects a mapping; got list"):
        TreeCPD.from_dict([1, 2])


# ---------------------------------------------------------------------------------------------- validation
def make(**overrides):
    args = dict(
        variable="v", variable_card=2, evidence=["a", "b"], evidence_card=[2, 2],
        groups=[0, 0, 1, 0], group_values=[[0.7, 0.5], [0.3, 0.5]], state_names=None,
    )
    args.update(overrides)
    return TreeCPD(**args)


@pytest.mark.parametrize(
    ("overrides", "exc", "match"),
    [
        ({"groups": [0, 0, 1]}, ValueError, r"one entry per evidence configuration \(4\)"),
        ({"groups": [0.0, 0.0, 1.0, 0.0]}, TypeError, "groups must be integer"),
        ({"groups": [0, 0, 3, 0]}, ValueError, r"group ids \[3\] are outside 0..1"),
        ({"groups": [0, 0, -1, 0]}, ValueError, r"group ids \[-1\]"),
        ({"groups": [0, 0, 0, 0]}, ValueError, r"groups \[1\] have no configuration"),
        ({"group_values": [[0.7, 0.5, 0.2], [0.3, 0.5, 0.8]]}, ValueError, r"groups \[2\] have no configuration"),
        ({"group_values": [[0.7, 0.5]]}, ValueError, r"shape \(variable_card=2, n_groups\); got \(1, 2\)"),
        ({"group_values": [[0.7, 1.5], [0.3, -0.5]]}, ValueError, r"column 1 \(group 1\) has negative"),
        ({"group_values": [[0.7, 0.5], [0.3, 0.4]]}, ValueError, r"column 1 \(group 1\) sums to 0\.9"),
        ({"group_values": [[0.7, np.nan], [0.3, 0.5]]}, ValueError, r"column 1 \(group 1\) has non-finite"),
        ({"variable_card": 2.0}, TypeError, "variable_card must be an integer"),
        ({"evidence": "ab"}, TypeError, "not the string 'ab'"),
        ({"evidence_card": [2]}, ValueError, r"evidence \['a', 'b'\] and evidence_card \[2\] differ"),
        ({"evidence_card": [2, 1.5]}, TypeError, "evidence_card of 'b' must be a positive integer"),
        ({"evidence": ["a", "v"]}, ValueError, "variable 'v' cannot be its own evidence"),
        ({"evidence": ["a", "a"]}, ValueError, "repeated variables"),
        ({"state_names": {"a": ["x"]}}, ValueError, r"state names of 'a' must have 2 entries"),
        ({"state_names": {"a": ["x", "x"]}}, ValueError, "state names of 'a' are repeated"),
        ({"state_names": {"a": "xy"}}, TypeError, "state names of 'a' must be a list"),
        ({"state_names": [("a", [0, 1])]}, TypeError, "state_names must be a dict"),
    ],
)
def test_constructor_validation(overrides, exc, match):
    with pytest.raises(exc, match=match):
        make(**overrides)


def test_sums_within_tolerance_are_accepted():
    cpd = make(group_values=[[0.7 + 5e-9, 0.5], [0.3, 0.5]])
    assert cpd.n_groups == 2


LEAF0, LEAF1 = ("leaf", 0), ("leaf", 1)


@pytest.mark.parametrize(
    ("tree", "exc", "match"),
    [
        (("split", "c", {0: LEAF0, 1: LEAF1}), ValueError, "variable 'c', which is not an evidence variable"),
        (("split", "a", {0: LEAF0, 2: LEAF1}), ValueError, "unknown state 2"),
        (("split", "a", {0: LEAF0}), ValueError, r"missing branches for states \[1\]"),
        (("split", "a", [(0, LEAF0), (0, LEAF1), (1, LEAF1)]), ValueError, "two branches for state 0"),
        (("split", "a", {0: LEAF0, 1: ("split", "a", {0: LEAF0, 1: LEAF1})}), ValueError, "splits on 'a' again"),
        (("split", "a", {0: LEAF0, 1: ("leaf", 2)}), ValueError, "root > a=1 holds group 2, outside 0..1"),
        (("split", "a", {0: LEAF0, 1: ("leaf", "1")}), TypeError, "integer group id; got '1'"),
        (("branch", "a", {0: LEAF0, 1: LEAF1}), ValueError, "unknown tag 'branch'"),
        (("split", "a", {0: LEAF0, 1: 1}), TypeError, "tree node at root > a=1 must be"),
        (("split", "a", "01"), TypeError, "branches must be"),
        (("split", "a", {0: LEAF0, 1: LEAF0}), ValueError, r"groups \[1\] have no configuration"),
    ],
)
def test_from_tree_validation(tree, exc, match):
    with pytest.raises(exc, match=match):
        TreeCPD.from_tree("v", 2, ["a", "b"], [2, 2], tree, [[0.7, 0.5], [0.3, 0.5]])


def test_group_of_validation():
    cpd = heart_cpd({"smoking": ["no", "yes"]})
    assert cpd.group_of({"smoking": "yes", "lipoprotein_ratio": 0}) == 1
    with pytest.raises(ValueError, match=r"missing: \['lipoprotein_ratio'\]"):
        cpd.group_of({"smoking": "yes"})
    with pytest.raises(ValueError, match="unknown state 1 of 'smoking'"):
        cpd.group_of([1, 0])
    with pytest.raises(ValueError, match="must have 2 states"):
        cpd.group_of(["yes"])


# ---------------------------------------------------------------------------------------------- state names
def test_state_names_default_partial_and_extra():
    assert heart_cpd().state_names == {"systolic_bp": [0, 1], "smoking": [0, 1], "lipoprotein_ratio": [0, 1]}
    cpd = heart_cpd({"smoking": ("no", "yes"), "unrelated": ["p", "q", "r"]})
    assert cpd.state_names == {"systolic_bp": [0, 1], "smoking": ["no", "yes"], "lipoprotein_ratio": [0, 1]}
    assert cpd.tree[2][1][0] == "yes"


# ---------------------------------------------------------------------------------------------- text
def test_to_text_heart_example():
    sn = {"smoking": ["no", "yes"], "lipoprotein_ratio": ["low", "high"], "systolic_bp": ["normal", "high"]}
    assert heart_cpd(sn).to_text() == "\n".join(
        [
            "P(systolic_bp | smoking, lipoprotein_ratio)",
            "smoking = no -> leaf A: P(systolic_bp=normal)=0.72, P(systolic_bp=high)=0.28",
            "smoking = yes",
            "    lipoprotein_ratio = low -> leaf B: P(systolic_bp=normal)=0.55, P(systolic_bp=high)=0.45",
            "    lipoprotein_ratio = high -> leaf A (tied)",
            "configurations (smoking, lipoprotein_ratio) per leaf distribution:",
            "    A [3 configurations, 2 tied leaves]: (no, low), (no, high), (yes, high)",
            "    B [1 configuration]: (yes, low)",
        ]
    )


def test_repr_and_str():
    cpd = heart_cpd()
    assert repr(cpd).startswith("<TreeCPD representing P(systolic_bp:2 | smoking:2, lipoprotein_ratio:2) with 2 groups")
    assert "systolic_bp(0)" in str(cpd)  # the table, as TabularCPD prints it


# ---------------------------------------------------------------------------------------------- table operations
def plain(cpd):
    """Independent plain TabularCPD with the same table, built from the expected table."""
    ev = cpd.variables[1:]
    return TabularCPD(cpd.variable, cpd.variable_card, cpd.get_values(), ev or None,
                      list(cpd.cardinality[1:]) or None, state_names={v: list(s) for v, s in cpd.state_names.items()})


def three_parent_cpd():
    groups = [0, 1, 0, 2, 0, 1, 1, 1, 2, 0, 0, 0]  # (a:2, b:2, c:3)
    return TreeCPD("v", 2, ["a", "b", "c"], [2, 2, 3], groups, [[0.9, 0.4, 0.25], [0.1, 0.6, 0.75]],
                   state_names={"c": ["x", "y", "z"]})


def test_reduce_keeps_structure_and_matches_tabular():
    cpd = three_parent_cpd()
    ref = plain(cpd)
    ref.reduce([("c", "y"), ("a", 1)])
    out = cpd.reduce([("c", "y"), ("a", 1)], inplace=False)
    assert type(out) is TreeCPD and out.variables == ["v", "b"]
    np.testing.assert_array_equal(out.get_values(), ref.get_values())
    assert out.groups.tolist() == [0, 1]  # configurations (a=1, b, c=y) had groups 1, 0: renumbered
    cpd.reduce([("b", 0)])  # in place
    assert type(cpd) is TreeCPD and cpd.variables == ["v", "a", "c"]
    assert cpd.groups.tolist() == [0, 1, 0, 1, 1, 2]  # (a, c) slice of b=0, ids unchanged
    with pytest.raises(ValueError, match="Reduce not allowed on the variable"):
        cpd.reduce([("v", 0)])


def test_marginalize_keeps_structure_and_matches_tabular():
    cpd = three_parent_cpd()
    ref = plain(cpd)
    ref.marginalize(["b"])
    out = cpd.marginalize(["b"], inplace=False)
    assert type(out) is TreeCPD and out.variables == ["v", "a", "c"]
    np.testing.assert_allclose(out.get_values(), ref.get_values(), rtol=1e-14)
    # (a, c) columns average the group pairs (over b) {0,2}, {1,0}, {0,1}, {1,0}, {1,0}, {2,0}
    assert out.groups.tolist() == [0, 1, 1, 1, 1, 0]
    assert out.n_groups == 2
    np.testing.assert_allclose(out.group_values[:, 0], [(0.9 + 0.25) / 2, (0.1 + 0.75) / 2], rtol=1e-14)
    cpd.marginalize(["a", "b", "c"])
    assert cpd.variables == ["v"] and cpd.tree == ("leaf", 0)
    with pytest.raises(ValueError, match="Marginalization not allowed"):
        cpd.marginalize(["v"])


def test_normalize_and_reorder_parents():
    cpd = three_parent_cpd()
    out = cpd.normalize(inplace=False)
    assert type(out) is TreeCPD and out.groups.tolist() == cpd.groups.tolist()
    expected = plain(cpd).reorder_parents(["c", "a", "b"], inplace=False)
    assert np.array_equal(cpd.reorder_parents(["c", "a", "b"], inplace=False), expected)
    assert cpd.variables == ["v", "a", "b", "c"]  # unchanged
    cpd.reorder_parents(["c", "a", "b"])
    assert type(cpd) is TreeCPD and cpd.variables == ["v", "c", "a", "b"]
    np.testing.assert_array_equal(cpd.get_values(), expected)
    assert cpd.state_names["c"] == ["x", "y", "z"]
    assert cpd.group_of({"a": 0, "b": 1, "c": "x"}) == 2
    for col, conf in enumerate(itertools.product(range(3), range(2), range(2))):
        group, _ = walk(cpd.tree, {"c": ["x", "y", "z"][conf[0]], "a": conf[1], "b": conf[2]})
        assert group == cpd.groups[col]


def test_factor_arithmetic_returns_tabular_and_refuses_inplace():
    cpd = heart_cpd()
    prod = cpd * cpd.to_factor()
    assert type(prod) is TabularCPD
    ref = plain(cpd) * plain(cpd).to_factor()  # pgmpy on an independent plain TabularCPD
    assert prod.variables == ref.variables
    np.testing.assert_array_equal(prod.values, ref.values)
    for name, arg in [("product", cpd.to_factor()), ("sum", cpd.to_factor()), ("divide", cpd.to_factor()),
                      ("maximize", ["smoking"])]:
        with pytest.raises(TypeError, match=f"TreeCPD.{name} with inplace=True would break the tree"):
            getattr(cpd, name)(arg)
    with pytest.raises(TypeError, match="set_value would break the groups"):
        cpd.set_value(0.5, systolic_bp=0, smoking=0, lipoprotein_ratio=0)
    np.testing.assert_array_equal(cpd.get_values(), [[0.72, 0.72, 0.55, 0.72], [0.28, 0.28, 0.45, 0.28]])


def test_large_parent_set_uses_a_valid_tree():
    rng = np.random.default_rng(3)
    n_par = 11  # beyond the exact search: the greedy split rule is used
    groups = (rng.random(2**n_par) < 0.5).astype(int)
    evidence = [f"p{i}" for i in range(n_par)]
    cpd = TreeCPD("v", 2, evidence, [2] * n_par, groups, [[0.1, 0.6], [0.9, 0.4]])
    for col, conf in enumerate(itertools.product(range(2), repeat=n_par)):
        assert walk(cpd.tree, dict(zip(evidence, conf, strict=True)))[0] == groups[col]
    assert cpd.n_leaves <= 2**n_par


@pytest.mark.parametrize("seed", range(6))
def test_configurations_all_apart_give_the_searched_tree_without_the_search(seed, monkeypatch):
    """Blocks whose configurations are all in different groups take the earliest free variable at every split,
    as the search does (every order ties); the tree equals the search's and reproduces the groups."""
    from pgmpy_sgm.factors import _cpt_tree

    rng = np.random.default_rng(seed)
    cards = tuple(int(k) for k in rng.integers(2, 4, int(rng.integers(2, 5))))
    groups = rng.permutation(int(np.prod(cards))).reshape(cards)  # all apart
    if seed % 2:  # a mixed table: the first parent's first state ties two configurations, the rest stay apart
        groups = groups.copy()
        groups[(0,) * len(cards)] = groups[(0,) * (len(cards) - 1) + (1,)]
    fast = _cpt_tree.build_index_tree(groups)
    assert np.array_equal(_cpt_tree.index_tree_groups(fast, cards), groups)
    monkeypatch.setattr(_cpt_tree, "_all_apart", lambda block: False)
    assert _cpt_tree.build_index_tree(groups) == fast


def test_the_tree_is_built_when_first_asked_for(monkeypatch):
    from pgmpy_sgm.factors import _cpt_tree

    built = []
    real = _cpt_tree.build_index_tree
    monkeypatch.setattr(_cpt_tree, "build_index_tree", lambda groups: built.append(groups.shape) or real(groups))
    values = np.full((2, 6), 0.5)
    cpd = TreeCPD("x", 2, ["a", "b"], [3, 2], [0, 1, 2, 3, 4, 5], values)
    assert cpd.get_values().shape == (2, 6) and cpd.copy().get_values().shape == (2, 6)
    assert built == []  # the table, a copy and its values need no tree
    assert cpd.tree == ("split", "a", tuple((i, ("split", "b", ((0, ("leaf", 2 * i)), (1, ("leaf", 2 * i + 1)))))
                                            for i in range(3)))  # fmt: skip
    assert cpd.n_leaves == 6 and built == [(3, 2)]  # built once, then kept
