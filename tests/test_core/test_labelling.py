"""One clique labelling type and the translation between groups and named contexts."""

import itertools

import numpy as np
import pytest

from pgmpy_sgm.core.labelling import CliqueLabelling, Groups, contexts_from_groups, groups_from_contexts
from pgmpy_sgm.models import StratifiedGraph


def _brute_groups(parents, states, contexts):
    """Connected components of the configurations merged by each label, by repeated relabelling."""
    configs = list(itertools.product(*(range(len(states[w])) for w in parents)))
    group = list(range(len(configs)))
    for u, listed in contexts.items():
        d = parents.index(u)
        for context in listed:
            members = [
                c
                for c, config in enumerate(configs)
                if all(states[w][config[k]] == context[w] for k, w in enumerate(parents) if w != u)
            ]
            target = min(group[c] for c in members)
            old = {group[c] for c in members}
            group = [target if g in old else g for g in group]
            assert len(members) == len(states[parents[d]])
    first = {}
    return tuple(first.setdefault(g, len(first)) for g in group)


def _closed_contexts(parents, states, groups):
    """Every line (as a context) whose configurations share one group."""
    out = {}
    for u in parents:
        others = [w for w in parents if w != u]
        for values in itertools.product(*(states[w] for w in others)):
            context = dict(zip(others, values, strict=True))
            line = []
            for s in states[u]:
                full = {**context, u: s}
                index = np.ravel_multi_index(
                    [states[w].index(full[w]) for w in parents], [len(states[w]) for w in parents]
                )
                line.append(groups[int(index)])
            if len(set(line)) == 1:
                out.setdefault(u, []).append(context)
    return out


@pytest.mark.parametrize("seed", range(20))
def test_contexts_and_groups_translate_both_ways(seed):
    rng = np.random.default_rng(seed)
    n_parents = int(rng.integers(1, 4))
    parents = tuple(f"p{i}" for i in range(n_parents))
    states = {w: [f"{w}s{k}" for k in range(int(rng.integers(2, 4)))] for w in parents}
    contexts = {}
    for u in parents:
        others = [w for w in parents if w != u]
        for values in itertools.product(*(states[w] for w in others)):
            if rng.random() < 0.3:
                contexts.setdefault(u, []).append(dict(zip(others, values, strict=True)))
    groups = groups_from_contexts(parents, contexts, states)
    assert groups == _brute_groups(parents, states, contexts)
    closed = contexts_from_groups(parents, groups, states)
    assert closed == _closed_contexts(parents, states, groups)
    assert groups_from_contexts(parents, closed, states) == groups


def test_unknown_state_in_a_context_is_named():
    with pytest.raises(ValueError, match="gives 'b' the state 'z'"):
        groups_from_contexts(("a", "b"), {"a": [{"b": "z"}]}, {"a": [0, 1], "b": ["x", "y"]})


def test_one_type_for_the_score_and_the_models(heart_score, heart_paper):
    sg = StratifiedGraph(heart_paper.edges, strata=heart_paper.best_strata, nodes=heart_paper.nodes)
    labelled = [cl for cl in sg.clique_labels() if cl.center is not None]
    assert all(type(cl) is CliqueLabelling for cl in sg.clique_labels())
    assert [(cl.clique, cl.center, cl.parents) for cl in labelled] == [
        (("smoking", "systolic_bp", "lipoprotein_ratio"), "systolic_bp", ("smoking", "lipoprotein_ratio"))
    ]
    best = heart_score.best_clique_labelling(("smoking", "systolic_bp", "lipoprotein_ratio"), [(0, 2)])
    assert type(best) is CliqueLabelling
    assert best.group_ids == labelled[0].group_ids == (0, 0, 1, 0)
    assert isinstance(best.group_ids, Groups) and hash(best) == hash(best)
