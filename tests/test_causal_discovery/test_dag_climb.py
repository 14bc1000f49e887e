"""The cached tabu climb against pgmpy's HillClimbSearch, and the candidate screening of LDAGSearch."""

import itertools

import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG
from pgmpy.causal_discovery import ExpertKnowledge, HillClimbSearch
from pgmpy.structure_score import BDeu

import pgmpy_sgm.causal_discovery.ldag_search as ldag_module
from pgmpy_sgm.causal_discovery import LDAGSearch
from pgmpy_sgm.causal_discovery._candidates import candidate_limit, candidate_parents, pairwise_gains
from pgmpy_sgm.causal_discovery._dag_climb import (
    SCREEN_LABEL_FACTOR,
    SCREEN_MARGIN,
    ClimbMemory,
    _Climb,
    _descendants,
    tabu_climb,
)
from pgmpy_sgm.causal_discovery._dag_moves import climb_dag, climb_memory, mask_unlabelled
from pgmpy_sgm.causal_discovery._equivalence_search import greedy_equivalence_search
from pgmpy_sgm.core.bitsets import iter_bits
from pgmpy_sgm.structure_score import LDAGScore


class _PgmpyOrderedClimb(HillClimbSearch):
    """pgmpy's climb with ties broken by (kind of move, parent's column, child's column): the reference."""

    n_moves = 0

    def _legal_operations_dag(self, *args, **kwargs):
        position = {v: i for i, v in enumerate(self.variables_)}
        ops = sorted(super()._legal_operations_dag(*args, **kwargs),
                     key=lambda t: (t[0][0], position[t[0][1][0]], position[t[0][1][1]]))  # fmt: skip
        self.n_moves += len(ops)
        return iter(ops)


def _data(n, d, seed):
    """Binary and ternary variables, each a noisy function of up to two earlier ones."""
    rng = np.random.default_rng(seed)
    cols = {}
    for j in range(d):
        card = 2 + j % 2
        earlier = list(cols)[-3:]
        if earlier and rng.random() < 0.8:
            picked = rng.choice(earlier, size=min(len(earlier), 2), replace=False)
            signal = sum(cols[p] for p in picked) % card
            cols[f"v{j}"] = np.where(rng.random(n) < 0.75, signal, rng.integers(0, card, n))
        else:
            cols[f"v{j}"] = rng.integers(0, card, n)
    return pd.DataFrame(cols)


def _masks(dag, columns):
    position = {v: i for i, v in enumerate(columns)}
    out = [0] * len(columns)
    for u, v in dag.edges():
        out[position[v]] |= 1 << position[u]
    return out


def _family(score, columns):
    return lambda y, m: score.local_score(columns[y], tuple(columns[i] for i in iter_bits(m)))


@pytest.mark.parametrize(("seed", "tabu_length", "max_indegree", "kicks"),
                         [(0, 100, None, 0), (1, 2, None, 8), (2, 100, 2, 6), (3, 0, 1, 0)])  # fmt: skip
def test_climb_makes_pgmpy_hill_climbs_moves(seed, tabu_length, max_indegree, kicks):
    data = _data(600, 6, seed)
    columns = list(data.columns)
    score = LDAGScore(data)
    start = DAG()
    start.add_nodes_from(columns)
    start = ldag_module.perturb(start, kicks, max_indegree, np.random.default_rng(seed))
    ref = _PgmpyOrderedClimb(scoring_method=score, start_dag=start.copy(), tabu_length=tabu_length,
                             max_indegree=max_indegree, return_type="dag", show_progress=False).fit(data)  # fmt: skip
    ours = tabu_climb(_family(score, columns), _masks(start, columns), None, tabu_length, max_indegree)
    assert ours.parents == _masks(ref.causal_graph_, columns)
    assert ours.n_moves_scored == ref.n_moves


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_column_maxima_give_the_flat_argmax_under_ties(seed):
    """Small integer terms tie everywhere: the first best must be the flat array's first maximum."""
    rng = np.random.default_rng(seed)
    d = 7
    terms: dict = {}

    def family(y, mask):
        if (y, mask) not in terms:
            terms[y, mask] = float(rng.integers(-2, 3)) if rng.random() > 0.05 else -np.inf
        return terms[y, mask]

    climb = _Climb(family, [0] * d, None, 3)
    for _ in range(40):
        best = climb._first_best()
        flat = climb.delta.reshape(-1)
        i = int(np.argmax(flat))
        if flat[i] == -np.inf:
            assert best is None
            break
        kind, rest = divmod(i, d * d)
        assert best == (kind, *divmod(rest, d), float(flat[i]))
        before = climb.delta.copy()
        move = climb.best_move(_descendants(climb.ch), set())
        assert np.array_equal(climb.delta, before)  # entries hidden for illegal moves are restored
        if move is None:
            break
        climb.apply(*move[:3])


@pytest.mark.parametrize("seed", [0, 1])
def test_candidates_act_as_pgmpys_forbidden_edges(seed):
    data = _data(600, 6, seed)
    columns = list(data.columns)
    score = LDAGScore(data)
    rng = np.random.default_rng(seed)
    pairs = [p for p in itertools.combinations(range(6), 2) if rng.random() < 0.5]
    candidates = [0] * 6
    for a, b in pairs:
        candidates[a] |= 1 << b
        candidates[b] |= 1 << a
    forbidden = [(columns[x], columns[y]) for x, y in itertools.permutations(range(6), 2) if (min(x, y), max(x, y))
                 not in pairs]  # fmt: skip
    ref = _PgmpyOrderedClimb(scoring_method=score, expert_knowledge=ExpertKnowledge(forbidden_edges=forbidden),
                             return_type="dag", show_progress=False).fit(data)  # fmt: skip
    ours = tabu_climb(_family(score, columns), [0] * 6, candidates)
    assert ours.parents == _masks(ref.causal_graph_, columns)
    assert all(candidates[y] >> x & 1 for y in range(6) for x in iter_bits(ours.parents[y]))


def test_pairwise_gains_are_bdeu_differences():
    data = _data(300, 5, 7)
    gains = pairwise_gains(data.to_numpy(), [2, 3, 2, 3, 2], np.ones(300), 3.0)
    bdeu = BDeu(data, equivalent_sample_size=3)
    for x, y in itertools.permutations(range(5), 2):
        expected = bdeu.local_score(f"v{y}", (f"v{x}",)) - bdeu.local_score(f"v{y}", ())
        assert gains[x, y] == pytest.approx(expected, abs=1e-8)
    assert np.all(np.isneginf(np.diag(gains)))


def test_candidate_parents_keep_each_nodes_best_partners_both_ways():
    gains = np.array([[-np.inf, 3, 1, 0], [3, -np.inf, 2, 5], [1, 2, -np.inf, 4], [0, 5, 4, -np.inf]], dtype=float)
    masks = candidate_parents(gains, 1)
    # best partners: 0 -> 1, 1 -> 3, 2 -> 3, 3 -> 1; pairs 0-1, 1-3, 2-3 in both directions
    assert [sorted(iter_bits(m)) for m in masks] == [[1], [0, 3], [3], [1, 2]]
    assert candidate_parents(gains, 3) is None
    assert candidate_limit(64) is None and candidate_limit(65) < 64


def test_equivalence_search_inserts_only_candidate_pairs():
    data = _data(800, 6, 3)
    columns = list(data.columns)
    score = LDAGScore(data, labels=False)

    def family(y, m):
        return score.unlabelled_score(columns[y], tuple(columns[i] for i in iter_bits(m)))

    everyone = [0b111111 & ~(1 << y) for y in range(6)]
    assert greedy_equivalence_search(family, 6, candidates=everyone).steps == greedy_equivalence_search(family, 6).steps
    chain = [(1 << (y - 1) if y else 0) | (1 << (y + 1) if y < 5 else 0) for y in range(6)]  # 0-1-2-3-4-5
    found = greedy_equivalence_search(family, 6, candidates=chain)
    assert all(abs(x - y) == 1 for kind, x, y, _, _ in found.steps if kind == "insert")


def _reference_climb(score, X, start, tabu_length, max_indegree, max_iter, candidates=None, deadline=None,
                     swaps=False, screen=False, memory=None):  # fmt: skip
    """The climb LDAGSearch ran before its cache: pgmpy's HillClimbSearch with ordered ties (built afresh each time)."""
    assert candidates is None and deadline is None and not swaps and not screen
    est = _PgmpyOrderedClimb(scoring_method=score, start_dag=start, tabu_length=tabu_length,
                             max_indegree=max_indegree, max_iter=max_iter, return_type="dag",
                             show_progress=False).fit(X)  # fmt: skip
    dag = DAG()
    dag.add_nodes_from(X.columns)
    dag.add_edges_from(est.causal_graph_.edges())
    return dag, float(score.score(dag)), 0.0, 0, est.n_moves


class _Unscreened(LDAGSearch):
    _candidate_limit = staticmethod(lambda d: d - 1)


def _summary(est):
    return (sorted(est.causal_graph_.edges()), est.model_.labels(), est.best_score_, est.climb_scores_,
            est.climb_moves_, est.restarts_stopped_by_)  # fmt: skip


def test_a_limit_that_cannot_bind_gives_the_pgmpy_climbs_result(monkeypatch):
    data = _data(1500, 7, 5)
    settings = {"n_restarts": 4, "seed": 3, "show_progress": False, "parent_swaps": False, "screen_moves": False}
    ours = _Unscreened(**settings).fit(data)
    monkeypatch.setattr(ldag_module, "climb_dag", _reference_climb)
    reference = _Unscreened(**settings).fit(data)
    assert _summary(ours) == _summary(reference)


class _Screened(LDAGSearch):
    _candidate_limit = staticmethod(lambda d: 1)


def test_a_binding_limit_keeps_every_edge_between_candidate_partners():
    data = _data(1500, 7, 5)
    est = _Screened(n_restarts=4, seed=3, show_progress=False, widen_candidates=False).fit(data)
    columns = est.scorer_.variables
    gains = pairwise_gains(est.scorer_.encoded.codes, [est.scorer_.encoded.cardinality[v] for v in columns],
                           est.scorer_.encoded.weights, est.ess_)  # fmt: skip
    allowed = candidate_parents(gains, 1)
    position = {v: i for i, v in enumerate(columns)}
    assert est.causal_graph_.edges()
    for u, v in est.causal_graph_.edges():
        assert allowed[position[v]] >> position[u] & 1


def test_families_scored_minus_infinity_are_never_made():
    data = _data(600, 6, 0)
    columns = list(data.columns)
    score = LDAGScore(data)
    inner = _family(score, columns)
    found = tabu_climb(lambda y, m: -np.inf if m.bit_count() > 1 else inner(y, m), [0] * 6)
    assert max(m.bit_count() for m in found.parents) == 1
    start = DAG()
    start.add_nodes_from(columns)
    one_parent = lambda child, parents: len(parents) < 2  # noqa: E731
    kicked = ldag_module.perturb(start, 12, None, np.random.default_rng(0), None, one_parent)
    assert kicked.number_of_edges() > 0 and max(d for _, d in kicked.in_degree()) == 1


def test_the_equivalence_search_makes_no_family_beyond_the_largest_table(monkeypatch):
    """Families above ``largest_table`` cells are scored -inf in the equivalence search too, so never made."""
    rng = np.random.default_rng(0)
    parents = rng.integers(0, 2, (3000, 3))
    noisy = np.where(rng.random(3000) < 0.1, rng.integers(0, 2, 3000), (parents.sum(axis=1) >= 2).astype(int))
    data = pd.DataFrame({"a": parents[:, 0], "b": parents[:, 1], "c": parents[:, 2], "y": noisy})
    score = LDAGScore(data)
    columns = list(data.columns)
    search = LDAGSearch(seed=0, show_progress=False)
    search._candidates, search._deadline = None, None
    unlimited = search._ges_dag(score, columns)
    assert max(len(unlimited.get_parents(v)) for v in columns) == 3  # y with its three parents: 16 cells
    from pgmpy_sgm.causal_discovery import _dag_moves

    monkeypatch.setattr(_dag_moves, "largest_table", lambda score: 8)
    limited = search._ges_dag(score, columns)
    assert max(len(limited.get_parents(v)) for v in columns) == 2


# -- parent swaps ----------------------------------------------------------------------------


def _is_acyclic(parents):
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(parents)))
    graph.add_edges_from((x, y) for y, mask in enumerate(parents) for x in iter_bits(mask))
    return nx.is_directed_acyclic_graph(graph)


def _gains_left(family, parents, max_indegree, swaps=True):
    """Every single-edge move and parent swap that keeps the DAG acyclic, with its gain (brute force)."""
    d = len(parents)
    total = sum(family(y, parents[y]) for y in range(d))
    gains = []
    for y in range(d):
        for x in range(d):
            if x == y:
                continue
            changed = [list(parents)]
            if parents[y] >> x & 1:
                changed.append(parents[:y] + [parents[y] & ~(1 << x)] + parents[y + 1:])  # removal
                flipped = list(changed[-1])
                flipped[x] |= 1 << y
                changed.append(flipped)  # reversal
                for z in range(d) if swaps else ():  # swaps of x for z
                    if z not in (x, y) and not parents[y] >> z & 1:
                        swapped = list(changed[1])
                        swapped[y] |= 1 << z
                        changed.append(swapped)
            elif not parents[x] >> y & 1:
                added = list(parents)
                added[y] |= 1 << x
                changed.append(added)
            for other in changed[1:]:
                if _is_acyclic(other) and max(m.bit_count() for m in other) <= max_indegree:
                    gains.append(sum(family(v, other[v]) for v in range(d)) - total)
    return gains


@pytest.mark.parametrize("seed", range(1, 5))
def test_a_climb_with_swaps_ends_where_no_move_and_no_swap_gains(seed):
    data = _data(800, 6, seed)
    columns = list(data.columns)
    family = _family(LDAGScore(data), columns)
    plain = tabu_climb(family, [0] * 6, tabu_length=0, max_indegree=2)
    swapped = tabu_climb(family, [0] * 6, tabu_length=0, max_indegree=2, swaps=True)
    assert _is_acyclic(swapped.parents)
    assert max(_gains_left(family, swapped.parents, 2)) < 1e-4
    # the two climbs agree until the plain one stops; swaps only go on from there
    score = lambda parents: sum(family(y, m) for y, m in enumerate(parents))  # noqa: E731
    assert score(swapped.parents) > score(plain.parents) + 1  # on these data a swap gains
    assert swapped.n_steps > plain.n_steps


def test_a_swap_is_made_only_where_no_single_move_gains_and_never_to_a_descendant():
    # node 2 has parent 0 and gains 1 from parent 1 instead; each half alone loses
    terms = {(2, 0b001): 1.0, (2, 0b010): 2.0, (2, 0b000): -1.0, (2, 0b011): -5.0}
    family = lambda y, m: terms.get((y, m), 0.0)  # noqa: E731
    assert tabu_climb(family, [0, 0, 0b001]).parents == [0, 0, 0b001]
    assert tabu_climb(family, [0, 0, 0b001], swaps=True).parents == [0, 0, 0b010]
    # with 1 a child of 2, taking 1 as a parent of 2 would close a cycle: no swap
    terms[(1, 0b100)] = 3.0
    assert tabu_climb(family, [0, 0b100, 0b001], swaps=True).parents == [0, 0b100, 0b001]
    # a single move that gains comes first: node 0 gains from parent 1, then the swap follows
    del terms[(1, 0b100)]
    terms[(0, 0b010)] = 0.5
    found = tabu_climb(family, [0, 0, 0b001], swaps=True)
    assert found.parents == [0b010, 0, 0b010] and found.n_steps == 2


def test_a_move_giving_a_new_parent_is_scored_only_when_its_bound_is_within_the_margin():
    # node 2 has parent 0 (term 1) and gains 1 from parent 1 instead (term 2); each half alone loses
    terms = {(2, 0b001): 1.0, (2, 0b010): 2.0, (2, 0b000): -1.0, (2, 0b011): -5.0}
    asked = []

    def family(y, m):
        asked.append((y, m))
        return terms.get((y, m), 0.0)

    def climb(bounds, start=(0, 0, 0b001)):
        asked.clear()
        floor = lambda y, m: bounds.get((y, m), terms.get((y, m), 0.0))  # noqa: E731
        return tabu_climb(family, list(start), swaps=True, floor=floor).parents

    # an exact bound scores the swap: the same climb as without a screen
    assert climb({}) == [0, 0, 0b010]
    # the swap's bound 3.5 below its term, 2.5 below the current family's bound: not scored, not made
    assert climb({(2, 0b010): 2.0 - 3.5}) == [0, 0, 0b001] and (2, 0b010) not in asked
    # 1.5 below the current family's bound: within the margin, so scored and made
    assert SCREEN_MARGIN == 2.0 and climb({(2, 0b010): 2.0 - 2.5}) == [0, 0, 0b010]
    # the current family's bound 1 below its term (what labels gain there): the swap's labels may gain twice
    # that, so a bound up to 2 + 1 below the current family's bound is scored, and one further below is not
    assert SCREEN_LABEL_FACTOR == 2.0
    assert climb({(2, 0b010): -3.0, (2, 0b001): 0.0}) == [0, 0, 0b010]
    assert climb({(2, 0b010): -3.5, (2, 0b001): 0.0}) == [0, 0, 0b001] and (2, 0b010) not in asked
    # an addition the same: node 0 gains 0.5 from parent 1, but its bound is 3 below the empty family's
    terms[(0, 0b010)] = 0.5
    assert climb({})[0] == 0b010
    assert climb({(0, 0b010): -3.0})[0] == 0 and (0, 0b010) not in asked


@pytest.mark.parametrize("seed", range(1, 3))
def test_swaps_screened_by_the_terms_without_labels_end_where_no_move_gains(seed):
    data = _data(800, 6, seed)
    columns = list(data.columns)
    score = LDAGScore(data)
    family, floor = _family(score, columns), mask_unlabelled(score, columns)
    found = tabu_climb(family, [0] * 6, tabu_length=0, max_indegree=2, swaps=True, floor=floor)
    assert _is_acyclic(found.parents)
    assert max(_gains_left(family, found.parents, 2, swaps=False)) < 1e-4
    for y in range(6):  # the bound is one: no labelled family scores below its term without labels
        for mask in range(1 << 6):
            if not mask >> y & 1 and mask.bit_count() <= 2:
                assert floor(y, mask) <= family(y, mask) + 1e-9


@pytest.mark.parametrize(("seed", "max_indegree", "with_floor", "with_candidates"),
                         [(0, None, False, False), (1, 2, False, True), (2, None, True, False), (3, 3, True, True)])
def test_a_climb_rebased_from_a_kept_state_is_the_climb_built_afresh(seed, max_indegree, with_floor, with_candidates,
                                                                     random_dag_masks):
    """Every entry of the moved state equals a fresh state's; the climbs from it end alike, with the same count."""
    rng = np.random.default_rng(seed)
    d = 8
    terms, bounds = {}, {}

    def family(y, mask):
        if (y, mask) not in terms:
            terms[y, mask] = float(rng.normal(0, 2)) - mask.bit_count() + (-np.inf if rng.random() < 0.03 else 0.0)
        return terms[y, mask]

    def floor(y, mask):
        if (y, mask) not in bounds:
            bounds[y, mask] = family(y, mask) - float(rng.exponential(2.0))
        return bounds[y, mask]

    floor = floor if with_floor else None
    candidates = [int(rng.integers(0, 1 << d)) & ~(1 << y) for y in range(d)] if with_candidates else None
    memory = ClimbMemory(family, floor)
    for step in range(8):
        start = random_dag_masks(d, 0.3, rng)
        if step % 2:  # a DAG near the last end (a node's parents dropped): climbed from it, moved
            start = list(memory.states[-1].pa)
            start[int(rng.integers(d))] = 0
        kept = tabu_climb(family, start, candidates, 5, max_indegree, swaps=True, floor=floor, memory=memory)
        fresh = tabu_climb(family, start, candidates, 5, max_indegree, swaps=True, floor=floor)
        assert (kept.parents, kept.n_moves_scored, kept.n_steps) == (fresh.parents, fresh.n_moves_scored,
                                                                      fresh.n_steps)  # fmt: skip
        for state in memory.states:  # and a state moved to a nearby DAG has every entry of one built there
            near = list(state.pa)
            y = int(rng.integers(d))
            near[y] = 0
            moved, built = state.rebased(near), _Climb(family, near, candidates, max_indegree, floor)
            moved._update_maxima()
            built._update_maxima()
            np.testing.assert_array_equal(moved.delta, built.delta)
            np.testing.assert_array_equal(moved.column_max, built.column_max)
            assert (moved.pa, moved.ch, moved.fam) == (built.pa, built.ch, built.fam)
            np.testing.assert_array_equal(moved.least, built.least)  # NaN where a family is impossible
    assert memory.n_rebased >= 4


def test_a_climb_memory_refuses_bad_sizes_and_climbs_it_was_not_made_for():
    def family(y, mask):
        return 0.0

    for kept in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="kept must be a positive integer"):
            ClimbMemory(family, kept=kept)
    with pytest.raises(ValueError, match="own family and floor"):
        tabu_climb(lambda y, mask: 0.0, [0, 0], memory=ClimbMemory(family))
    data = _data(200, 3, 0)
    score = LDAGScore(data)
    empty = DAG()
    empty.add_nodes_from(data.columns)
    with pytest.raises(ValueError, match="made with screen=False; got screen=True"):
        climb_dag(score, data, empty, 10, None, 100, screen=True, memory=climb_memory(score, list(data.columns)))
