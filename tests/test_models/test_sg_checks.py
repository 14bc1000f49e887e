"""Checks of a stratified graph (pgmpy_sgm.models._sg_checks): each refuses what Nyman et al. exclude, by name."""

import pytest

from pgmpy_sgm.core.decomposition import decompose, edge_clique_counts
from pgmpy_sgm.core.labelling import CliqueLabelling
from pgmpy_sgm.models import StratifiedGraph
from pgmpy_sgm.models._sg_checks import check_centers, check_group_ids, check_regular, check_strata


def _counts(sg):
    return edge_clique_counts(decompose(sg)[0])


def test_a_label_on_a_separator_edge_is_refused():
    # two triangles sharing the edge (2, 3): a label on it would lie in a separator
    sg = StratifiedGraph([(1, 2), (1, 3), (2, 3), (2, 4), (3, 4)])
    sg.add_label(2, 3, {1: 0, 4: 0})
    with pytest.raises(ValueError, match=r"Edge \(2, 3\) lies in a separator"):
        check_strata(sg, _counts(sg))


def test_a_stratum_needs_common_neighbours():
    sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)])
    sg.add_label(2, 3, {1: 1})
    check_strata(sg, _counts(sg))
    with pytest.raises(ValueError, match="has no common neighbours"):
        check_strata(StratifiedGraph([(1, 2)], strata={(1, 2): [{}]}), {frozenset((1, 2)): 1})


def test_labelled_edges_of_a_clique_need_a_common_node():
    check_centers([(1, 2, 3)], {(1, 2): [{3: 0}], (1, 3): [{2: 0}]})
    with pytest.raises(ValueError, match="share no node"):
        check_centers([(1, 2, 3, 4)], {(1, 2): [{3: 0, 4: 0}], (3, 4): [{1: 0, 2: 0}]})


def test_a_closure_that_removes_an_edge_is_refused():
    # parents (1, 2) of center 3, configurations (1, 2) in C order: (0, 0) and (0, 1) merged is one label
    check_regular([CliqueLabelling(3, (0, 0, 1, 2), clique=(1, 2, 3))], lambda w: (0, 1))
    with pytest.raises(ValueError, match=r"edge \(2, 3\) in every context"):
        # 2 is ignored whatever 1 is: every line along 2 lies inside one group
        check_regular([CliqueLabelling(3, (0, 0, 1, 1), clique=(1, 2, 3))], lambda w: (0, 1))


def test_group_ids_need_one_id_per_configuration():
    check_group_ids([0, 1, 2, 0, 1, 2], (1, 2), lambda w: (0, 1, 2) if w == 2 else (0, 1))
    with pytest.raises(ValueError, match="6 non-negative integer group ids"):
        check_group_ids([0, -1, 2, 0, 1, 2], (1, 2), lambda w: (0, 1, 2) if w == 2 else (0, 1))
