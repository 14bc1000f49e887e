"""Moves of LDAGSearch over pgmpy DAGs: one tabu climb from a DAG, a random kick, a turn, and the family-size guard.

The climb itself runs on parent bit masks (:func:`~pgmpy_sgm.causal_discovery._dag_climb.tabu_climb`);
:func:`climb_dag` takes a pgmpy ``DAG`` and a score to it and back. :func:`perturb` is the kick
of the restarts (:func:`~pgmpy_sgm.causal_discovery._iterated_climb.iterated_climb`);
:func:`turn_edges` the start of a turn (:func:`~pgmpy_sgm.causal_discovery._iterated_climb.turn_sweeps`).
Families larger than :func:`largest_table` cells are neither scored nor made by a kick or a turn.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable

import networkx as nx
import numpy as np
from pgmpy.base import DAG

from pgmpy_sgm.causal_discovery._dag_climb import ClimbMemory, tabu_climb
from pgmpy_sgm.core.bitsets import iter_bits

__all__ = ["perturb", "turn_edges", "turn_candidates", "largest_table", "table_cells", "mask_fits", "name_fits",
           "mask_family", "mask_unlabelled", "parent_masks", "climb_memory", "climb_dag"]


def perturb(dag: DAG, n_moves: int, max_indegree: int | None, rng: np.random.Generator,
             candidates: list[int] | None = None, fits=None) -> DAG:  # fmt: skip
    """``n_moves`` random edge additions, deletions or reversals that keep the graph acyclic.

    With ``candidates`` (parent masks over the DAG's node order), an edge is added only
    between candidate partners; a draw of another pair counts as a try. With ``fits``
    (``fits(child, parents)``), an edge or reversal that makes a family it refuses is not made.
    At most ``50 n_moves`` pairs are drawn.

    Examples
    --------
    >>> import networkx as nx
    >>> dag = DAG([("a", "b"), ("b", "c")])
    >>> kicked = perturb(dag, 3, max_indegree=1, rng=np.random.default_rng(0))
    >>> nx.is_directed_acyclic_graph(kicked), max(d for _, d in kicked.in_degree()) <= 1
    (True, True)
    """
    out = DAG()
    out.add_nodes_from(dag.nodes())
    out.add_edges_from(dag.edges())
    nodes = list(out.nodes())
    index = {v: i for i, v in enumerate(nodes)}
    done, tries = 0, 0
    while done < n_moves and tries < 50 * n_moves and len(nodes) > 1:
        tries += 1
        u, v = (nodes[i] for i in rng.choice(len(nodes), 2, replace=False))
        if out.has_edge(u, v):
            if rng.random() < 0.5:
                out.remove_edge(u, v)
                done += 1
                continue
            out.remove_edge(u, v)
            if ((max_indegree is None or out.in_degree(u) < max_indegree) and not nx.has_path(out, u, v)
                    and (fits is None or fits(u, [*out.predecessors(u), v]))):  # fmt: skip
                out.add_edge(v, u)
                done += 1
            else:
                out.add_edge(u, v)
        elif not out.has_edge(v, u):
            if candidates is not None and not candidates[index[v]] >> index[u] & 1:
                continue
            if ((max_indegree is None or out.in_degree(v) < max_indegree) and not nx.has_path(out, v, u)
                    and (fits is None or fits(v, [*out.predecessors(v), u]))):  # fmt: skip
                out.add_edge(u, v)
                done += 1
    return out


def turn_edges(dag: DAG, node, into: bool, max_indegree: int | None = None, fits=None) -> DAG | None:
    """``dag`` with every edge at ``node`` turned to point into it (``into``) or out of it; None if that cannot be.

    A climb reverses one edge at a time, so it cannot leave a DAG where ``node`` sends edges
    to two variables that together explain it (a v-structure drawn the wrong way round): each
    single reversal lowers the score, all of them together raise it. A turn makes ``node`` a
    sink of all its neighbours (or their source) in one step, for a climb to repair from
    there. The result is acyclic (a cycle would pass through ``node``, which now has edges
    in one direction only). None when a family would exceed ``max_indegree`` parents or,
    with ``fits`` (``fits(child, parents)``), be refused by it.

    Examples
    --------
    >>> dag = DAG([("c", "a"), ("c", "b"), ("d", "c")])
    >>> sorted(turn_edges(dag, "c", into=True).edges())
    [('a', 'c'), ('b', 'c'), ('d', 'c')]
    >>> sorted(turn_edges(dag, "c", into=False).edges())
    [('c', 'a'), ('c', 'b'), ('c', 'd')]
    >>> turn_edges(dag, "c", into=True, max_indegree=2) is None
    True
    """
    out = DAG()
    out.add_nodes_from(dag.nodes())
    out.add_edges_from(dag.edges())
    moved = list(out.successors(node)) if into else list(out.predecessors(node))
    for other in moved:
        if into:
            out.remove_edge(node, other)
            out.add_edge(other, node)
        else:
            out.remove_edge(other, node)
            out.add_edge(node, other)
    changed = [node] if into else moved
    for child in changed:
        parents = list(out.predecessors(child))
        too_many = max_indegree is not None and len(parents) > max_indegree
        if too_many or (fits is not None and not fits(child, parents)):
            return None
    return out


def turn_candidates(dag: DAG, order: list) -> list[tuple]:
    """The turns worth trying on ``dag``: ``(node, into)`` for every node with two or more edges to turn.

    A node with at least two children may be turned into a sink (``into=True``), one with at
    least two parents into a source; one edge is a reversal, which the climb already tries.
    Larger turns come first, then the nodes in ``order``, sinks before sources.

    Examples
    --------
    >>> dag = DAG([("c", "a"), ("c", "b"), ("a", "b")])
    >>> turn_candidates(dag, ["a", "b", "c"])
    [('b', False), ('c', True)]
    """
    position = {v: i for i, v in enumerate(order)}
    found = [(node, True, dag.out_degree(node)) for node in dag.nodes() if dag.out_degree(node) >= 2]
    found += [(node, False, dag.in_degree(node)) for node in dag.nodes() if dag.in_degree(node) >= 2]
    found.sort(key=lambda t: (-t[2], position[t[0]], not t[1]))
    return [(node, into) for node, into, _ in found]


def largest_table(score) -> int:
    """Cells of the largest family the searches consider: ``16 n``, ``n`` the data's observations.

    A larger family (many parents with many states) has more than 16 cells per observation,
    almost all of them empty: the data cannot estimate it, yet BDeu does not charge for its
    empty cells, so on data with many-state variables the searches grew families of millions
    of configurations, which the fitted model stores cell by cell. Such families are scored
    ``-inf``, and the kicks and turns do not make them.

    Examples
    --------
    >>> from pgmpy_sgm import LDAGScore, load_heart_disease
    >>> score = LDAGScore(load_heart_disease())
    >>> score.encoded.n, largest_table(score)
    (1841.0, 29456)
    """
    return 16 * int(math.ceil(score.encoded.n))


def table_cells(score, variables) -> int:
    """Cells of the contingency table of ``variables`` under ``score``'s state spaces.

    Examples
    --------
    >>> from pgmpy_sgm import LDAGScore, load_heart_disease
    >>> table_cells(LDAGScore(load_heart_disease()), ["smoking", "mental_work", "family_history"])
    8
    """
    cardinality = score.encoded.cardinality
    return math.prod(cardinality[v] for v in variables)


def mask_fits(score, columns: list) -> Callable[[int, int], bool]:
    """``fits(node, parent_mask)`` over ``columns``: whether the family's table has at most :func:`largest_table` cells.

    Examples
    --------
    >>> from pgmpy_sgm import LDAGScore, load_heart_disease
    >>> score = LDAGScore(load_heart_disease())  # six binary variables
    >>> fits = mask_fits(score, score.variables)
    >>> fits(0, 0b111110)
    True
    """
    cards, limit = [score.encoded.cardinality[v] for v in columns], largest_table(score)
    return lambda y, mask: math.prod(cards[i] for i in iter_bits(mask)) * cards[y] <= limit


def name_fits(score) -> Callable[[object, list], bool]:
    """``fits(child, parents)`` by column names: whether the family's table has at most :func:`largest_table` cells.

    The kicks and turns build pgmpy DAGs, so they ask by name; the climbs ask by mask (:func:`mask_fits`).

    Examples
    --------
    >>> from pgmpy_sgm import LDAGScore, load_heart_disease
    >>> score = LDAGScore(load_heart_disease())
    >>> name_fits(score)("smoking", ["mental_work", "family_history"])
    True
    """
    limit = largest_table(score)
    return lambda child, parents: table_cells(score, [child, *parents]) <= limit


def mask_family(score, columns: list):
    """``family(node, parent_mask)`` over ``columns`` (the score's column order), cached for one climb.

    Examples
    --------
    >>> from pgmpy_sgm import LDAGScore, load_heart_disease
    >>> score = LDAGScore(load_heart_disease())
    >>> family = mask_family(score, score.variables)
    >>> family(0, 0b10) == score.local_score(score.variables[0], (score.variables[1],))
    True
    """
    return _mask_terms(score.local_score, columns, mask_fits(score, columns))


def mask_unlabelled(score, columns: list):
    """``floor(node, parent_mask)``: the family's term without labels, a lower bound of :func:`mask_family`'s.

    An LDAG family's best labelling is at least as good as no label (every configuration its
    own class), so this term, which needs no search over labellings, bounds the labelled one
    from below (cached for one climb; ``-inf`` where the family is never made).

    Examples
    --------
    >>> from pgmpy_sgm import LDAGScore, load_heart_disease
    >>> score = LDAGScore(load_heart_disease())
    >>> floor, family = mask_unlabelled(score, score.variables), mask_family(score, score.variables)
    >>> bool(floor(0, 0b110) <= family(0, 0b110))
    True
    """
    return _mask_terms(score.unlabelled_score, columns, mask_fits(score, columns))


def _mask_terms(term, columns: list, fits):
    """``term(name, parent_names)`` asked by node index and parent mask, cached; ``-inf`` where ``fits`` refuses."""

    @functools.cache
    def by_mask(y: int, mask: int) -> float:
        if not fits(y, mask):
            return -math.inf
        return term(columns[y], tuple(columns[i] for i in iter_bits(mask)))

    return by_mask


def parent_masks(dag: DAG, columns: list) -> list[int]:
    """The parents of each of ``columns`` in ``dag``, as bit masks over the positions in ``columns``.

    Examples
    --------
    >>> [bin(m) for m in parent_masks(DAG([("a", "c"), ("b", "c")]), ["a", "b", "c"])]
    ['0b0', '0b0', '0b11']
    """
    position = {v: i for i, v in enumerate(columns)}
    masks = [0] * len(columns)
    for u, v in dag.edges():
        masks[position[v]] |= 1 << position[u]
    return masks


def climb_memory(score, columns: list, screen: bool = False) -> ClimbMemory:
    """A :class:`~pgmpy_sgm.causal_discovery._dag_climb.ClimbMemory` for climbs over ``columns`` under ``score``.

    Its family (and, with ``screen``, floor) callables are cached for every climb given it.

    Examples
    --------
    >>> from pgmpy_sgm import LDAGScore, load_heart_disease
    >>> data = load_heart_disease()
    >>> score = LDAGScore(data)
    >>> memory = climb_memory(score, list(data.columns))
    >>> empty = DAG()
    >>> empty.add_nodes_from(data.columns)
    >>> first = climb_dag(score, data, empty, 100, None, 1000, memory=memory)
    >>> again = climb_dag(score, data, first[0], 100, None, 1000, memory=memory)
    >>> again[1] == first[1], memory.n_rebased
    (True, 1)
    """
    return ClimbMemory(mask_family(score, columns), mask_unlabelled(score, columns) if screen else None)


def climb_dag(score, X, start: DAG, tabu_length: int, max_indegree, max_iter: int, candidates: list[int] | None = None,
              deadline: float | None = None, swaps: bool = False, screen: bool = False,
              memory: ClimbMemory | None = None) -> tuple:  # fmt: skip
    """One tabu climb (ended at ``deadline``): the DAG reached, its score, seconds, families labelled anew, moves.

    The climb of pgmpy's ``HillClimbSearch`` (:func:`~pgmpy_sgm.causal_discovery._dag_climb.tabu_climb`,
    which caches the moves' changes of score), ties broken by (kind of move, the columns'
    positions in ``X``); additions only to the ``candidates`` parents of each node when given;
    with ``swaps``, parent swaps where no single move gains. With ``screen``, a move that gives a
    node a new parent is labelled only when the family's term without labels
    (:func:`mask_unlabelled`) shows that it may gain (``tabu_climb``'s ``floor``). With ``memory``
    (:func:`climb_memory`, made with the same ``screen``), the climb starts from the state of an
    earlier climb that ended near ``start`` (the same climb, built at less cost).

    Examples
    --------
    >>> from pgmpy_sgm import LDAGScore, load_heart_disease
    >>> data = load_heart_disease()
    >>> score = LDAGScore(data)
    >>> empty = DAG()
    >>> empty.add_nodes_from(data.columns)
    >>> dag, value, seconds, n_new, n_moves = climb_dag(score, data, empty, 100, None, 1000)
    >>> round(value, 2) == round(score.score(dag), 2), dag.number_of_edges() > 0
    (True, True)
    """
    t0, n0 = time.perf_counter(), score.n_families_labelled
    columns = list(X.columns)
    if memory is None:
        family, floor = mask_family(score, columns), mask_unlabelled(score, columns) if screen else None
    else:
        if (memory.floor is not None) != bool(screen):
            raise ValueError(f"The climb's memory was made with screen={memory.floor is not None}; "
                             f"got screen={screen}.")  # fmt: skip
        family, floor = memory.family, memory.floor
    found = tabu_climb(family, parent_masks(start, columns), candidates, tabu_length, max_indegree, max_iter,
                       deadline=deadline, swaps=swaps, floor=floor, memory=memory)  # fmt: skip
    dag = DAG()
    dag.add_nodes_from(columns)  # the columns' order, on which the kicks draw
    dag.add_edges_from((columns[x], columns[y]) for y, mask in enumerate(found.parents) for x in iter_bits(mask))
    return dag, float(score.score(dag)), time.perf_counter() - t0, score.n_families_labelled - n0, found.n_moves_scored
