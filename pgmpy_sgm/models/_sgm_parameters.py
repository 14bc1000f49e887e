"""Parameterization of stratified graphical models along a perfect ordering of the cliques.

A decomposable graph factorizes along any rooted junction tree: visiting the cliques
parent-before-child, clique ``C`` with separator ``S`` (its intersection with its parent
clique, equivalently with all earlier cliques) contributes ``P(X_{C \\ S} | X_S)``. The
*new* variables ``C \\ S`` are ordered so that a labelled clique's center comes last
whenever the center is new; the center's conditional given ``C \\ {center}`` is then the
grouped table of the stratified graph, and the rest of the clique is an ordinary
conditional table. When the center lies in ``S`` (another clique already holds it), the
clique's conditional is a full table and its strata are *not shown* by the parameters.

========= =====================================================================
term      meaning
========= =====================================================================
step      one clique in the perfect ordering, a :class:`CliqueFactor`
separator ``C`` intersected with the earlier cliques (empty for a root)
new       ``C \\ separator``, node order, the shown center moved last
table     ``P(new' | separator)`` with ``new' = new`` minus the shown center;
          axes ``separator + new'`` (C order), each separator slice sums to 1
groups    the center's parent configurations (C order over ``parents``) and
          ``group_values[:, g] = P(center | group g)``
========= =====================================================================
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

import numpy as np

from pgmpy_sgm.core.decomposition import junction_tree_edges
from pgmpy_sgm.core.labelling import CliqueLabelling, groups_from_contexts
from pgmpy_sgm.core.lines import groups_from_labels
from pgmpy_sgm.core.unionfind import DisjointSets

__all__ = [
    "CliqueFactor",
    "plan_factors",
    "conditional_table",
    "clique_pseudo_count",
    "pooled_group_values",
    "cell_count",
    "marginal",
    "broadcast",
    "clique_array",
    "check_distribution",
    "factor_from_joint",
    "log_probabilities",
    "forward_sample",
    "random_stratified_graph",
]


def cell_count(cards) -> int:
    """Number of cells of a table with these cardinalities (Python int, no overflow).

    Examples
    --------
    >>> cell_count([2, 3, 4])
    24
    """
    out = 1
    for k in cards:
        out *= int(k)
    return out


@dataclass(frozen=True, eq=False)
class CliqueFactor:
    """One clique of the perfect ordering with its parameters.

    Attributes
    ----------
    clique : tuple
        The clique, in node order.
    separator : tuple
        Its intersection with the earlier cliques, in node order.
    new : tuple
        ``clique \\ separator``; node order with the shown ``center`` moved last.
    center : hashable or None
        The center whose grouped conditional is shown (None: no labels, or not shown).
    parents : tuple
        ``clique \\ {center}`` in clique order (the C order of ``group_ids``); () without center.
    group_ids : tuple of int or None
        Group of every configuration of ``parents``.
    table : numpy.ndarray or None
        ``P(new' | separator)`` over axes ``separator + new'`` (``new'`` = ``new`` without the center).
    group_values : numpy.ndarray or None
        Shape ``(k_center, n_groups)``; column ``g`` is ``P(center | group g)``.
    labelled_center : hashable or None
        The clique's center in the stratified graph (set even when it is not shown).

    Examples
    --------
    >>> from pgmpy_sgm.models import StratifiedGraph
    >>> sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]})
    >>> step = plan_factors(sg)[0]
    >>> step.new, step.center, step.parents, step.group_ids
    (('a', 'b', 'c'), 'c', ('a', 'b'), (0, 1, 2, 2))
    """

    clique: tuple
    separator: tuple
    new: tuple
    center: object = None
    parents: tuple = ()
    group_ids: tuple | None = None
    table: np.ndarray | None = None
    group_values: np.ndarray | None = None
    labelled_center: object = None

    @property
    def table_variables(self) -> tuple:
        """Axes of :attr:`table`: ``separator`` then the new variables other than the center."""
        return self.separator + tuple(w for w in self.new if w != self.center)

    def with_values(self, table, group_values=None) -> CliqueFactor:
        """A copy carrying the given (read-only) arrays."""
        table = np.array(table, dtype=np.float64)
        table.setflags(write=False)
        if group_values is not None:
            group_values = np.array(group_values, dtype=np.float64)
            group_values.setflags(write=False)
        return replace(self, table=table, group_values=group_values)

    def same_structure(self, other: CliqueFactor) -> bool:
        """Whether both describe the same step (ignoring the arrays)."""
        fields = ("clique", "separator", "new", "center", "parents", "group_ids", "labelled_center")
        return all(getattr(self, f) == getattr(other, f) for f in fields)


def _center_options(sg, cl, strata) -> list[CliqueLabelling]:
    """Labellings of a labelled clique by each possible center: both ends of a single labelled edge."""
    options = [cl]
    edges = [e for e in strata if set(e) <= set(cl.clique)]
    if len(edges) == 1:
        (a, b) = edges[0]
        other = a if b == cl.center else b
        parents = tuple(w for w in cl.clique if w != other)
        states = {w: sg.states(w) for w in parents}
        groups = groups_from_contexts(parents, {cl.center: strata[edges[0]]}, states)
        options.append(CliqueLabelling(other, groups, clique=cl.clique))
    return options


def _components(cliques) -> list[list[int]]:
    sets = DisjointSets(len(cliques))
    owner = {}
    for i, clique in enumerate(cliques):
        for v in clique:
            if v in owner:
                sets.union(owner[v], i)
            else:
                owner[v] = i
    return sets.components()


def _junction_tree(cliques, members) -> dict[int, list[int]]:
    """Adjacency of a junction tree (grown from the first member) of one component's cliques."""
    adj = {i: [] for i in members}
    for a, b in junction_tree_edges([cliques[i] for i in members]):
        adj[members[a]].append(members[b])
        adj[members[b]].append(members[a])
    for i in adj:
        adj[i].sort()
    return adj


def _rooted(adj, root) -> list[tuple[int, int | None]]:
    """Breadth-first (clique, parent) pairs from ``root``, children in clique order."""
    out = [(root, None)]
    seen = {root}
    queue = deque([root])
    while queue:
        i = queue.popleft()
        for j in adj[i]:
            if j not in seen:
                seen.add(j)
                out.append((j, i))
                queue.append(j)
    return out


def plan_factors(sg) -> list[CliqueFactor]:
    """The perfect ordering and per-clique layout (no arrays) used to parameterize ``sg``.

    For every connected component the junction tree is rooted at the clique that
    minimises the number of labelled cliques whose center lies in their separator
    (ties: the earliest clique of :attr:`StratifiedGraph.cliques`); a clique with a
    single labelled edge may use either end as its center, whichever is new.

    Examples
    --------
    >>> from pgmpy_sgm.models import StratifiedGraph
    >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3), (3, 4)])
    >>> [(s.clique, s.separator, s.new) for s in plan_factors(sg)]
    [((1, 2, 3), (), (1, 2, 3)), ((3, 4), (3,), (4,))]
    """
    labels = sg.clique_labels()
    strata = sg.strata
    cliques = [cl.clique for cl in labels]
    options = [_center_options(sg, cl, strata) if cl.center is not None else [] for cl in labels]
    steps: list[CliqueFactor] = []
    for members in _components(cliques):
        adj = _junction_tree(cliques, members)

        def hidden(i, parent):
            if not options[i] or parent is None:
                return 0
            sep = set(cliques[i]) & set(cliques[parent])
            return int(all(option.center in sep for option in options[i]))

        best_root = min(members, key=lambda r: (sum(hidden(i, p) for i, p in _rooted(adj, r)), r))
        for i, p in _rooted(adj, best_root):
            clique = cliques[i]
            sep_set = set(clique) & set(cliques[p]) if p is not None else set()
            separator = tuple(w for w in clique if w in sep_set)
            new = [w for w in clique if w not in sep_set]
            chosen = next((option for option in options[i] if option.center not in sep_set), None)
            labelled = labels[i].center
            if chosen is None:
                steps.append(CliqueFactor(clique, separator, tuple(new), labelled_center=labelled))
                continue
            center, parents, groups = chosen.center, chosen.parents, chosen.group_ids
            new = [w for w in new if w != center] + [center]
            steps.append(CliqueFactor(clique, separator, tuple(new), center, parents, groups, labelled_center=center))
    return steps


def conditional_table(counts: np.ndarray, n_given: int, pseudo: float) -> np.ndarray:
    """``(counts + pseudo) / (row total + pseudo * n_cells)`` per configuration of the first axes.

    Rows whose denominator is zero (maximum likelihood with no data) become uniform.

    Parameters
    ----------
    counts : numpy.ndarray
        Counts over ``given + new`` axes.
    n_given : int
        Number of leading (conditioning) axes.
    pseudo : float
        Pseudo-count added to every cell.

    Examples
    --------
    >>> conditional_table(np.array([[3.0, 1.0], [0.0, 0.0]]), 1, 0.0).tolist()
    [[0.75, 0.25], [0.5, 0.5]]
    >>> conditional_table(np.array([[3.0, 1.0], [0.0, 0.0]]), 1, 1.0).tolist()
    [[0.6666666666666666, 0.3333333333333333], [0.5, 0.5]]
    """
    counts = np.asarray(counts, dtype=np.float64)
    shape = counts.shape
    n_rows = cell_count(shape[:n_given])
    flat = counts.reshape(n_rows, -1) + pseudo
    totals = flat.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(totals > 0, flat / np.where(totals > 0, totals, 1.0), 1.0 / flat.shape[1])
    return out.reshape(shape)


def clique_pseudo_count(spec, n_cells: int) -> float:
    """Pseudo-count per cell of a clique of ``n_cells`` cells under an estimator's settings.

    ``spec`` is an :class:`~pgmpy_sgm.models._estimators.EstimatorSpec`: 0 for maximum
    likelihood, 1 for ``"bayes"`` and K2, ``ESS / n_cells`` for BDeu, the number given for
    a Dirichlet prior (0 without one).

    Examples
    --------
    >>> from pgmpy_sgm.models._estimators import EstimatorSpec
    >>> clique_pseudo_count(EstimatorSpec("bdeu", 8), 4), clique_pseudo_count(EstimatorSpec("k2"), 4)
    (2.0, 1.0)
    """
    import numbers

    if spec.kind == "mle":
        return 0.0
    if spec.kind in ("bayes", "k2"):
        return 1.0
    value, what = (
        (spec.equivalent_sample_size, "equivalent_sample_size")
        if spec.kind == "bdeu"
        else (0 if spec.pseudo_counts is None else spec.pseudo_counts, "pseudo_counts")
    )
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{what} of a StratifiedGraphicalModel's estimator must be one number (per-variable "
                         f"values do not fit clique tables; fit to_bayesian_network() for those). Got: {value!r}")
    if not (np.isfinite(value) and value >= 0):
        raise ValueError(f"{what} must be a non-negative number. Got: {value!r}")
    return float(value) / n_cells if spec.kind == "bdeu" else float(value)


def pooled_group_values(counts2d: np.ndarray, group_ids, pseudo_per_config: float) -> np.ndarray:
    """``P(center = i | group B) = (n_iB + a lambda_B) / (n_B + k a lambda_B)`` with ``a = pseudo_per_config``.

    ``counts2d`` has one row per parent configuration and one column per center state;
    ``lambda_B`` is the number of configurations in ``B``. Groups without data and
    ``a = 0`` get the uniform distribution. Returns shape ``(k, n_groups)``.

    Examples
    --------
    >>> pooled_group_values(np.array([[3.0, 1.0], [1.0, 3.0], [0.0, 0.0]]), [0, 1, 0], 1.0).tolist()
    [[0.625, 0.3333333333333333], [0.375, 0.6666666666666666]]
    """
    group_ids = np.asarray(group_ids, dtype=np.int64)
    counts2d = np.asarray(counts2d, dtype=np.float64)
    k = counts2d.shape[1]
    n_groups = int(group_ids.max()) + 1
    pooled = np.zeros((n_groups, k))
    np.add.at(pooled, group_ids, counts2d)
    lam = np.bincount(group_ids, minlength=n_groups).astype(np.float64)
    return conditional_table(pooled + pseudo_per_config * lam[:, None], 1, 0.0).T


def marginal(values: np.ndarray, nodes: list, variables) -> np.ndarray:
    """Marginal of a joint array (axes in ``nodes`` order) with axes in ``variables`` order.

    Examples
    --------
    >>> marginal(np.arange(8.0).reshape(2, 2, 2), ["a", "b", "c"], ["c", "a"]).tolist()
    [[2.0, 10.0], [4.0, 12.0]]
    """
    keep = [nodes.index(v) for v in variables]
    drop = tuple(i for i in range(len(nodes)) if i not in keep)
    return np.transpose(values.sum(axis=drop), np.argsort(np.argsort(keep)))


def broadcast(array: np.ndarray, variables, nodes) -> np.ndarray:
    """View of ``array`` (axes in ``variables`` order) broadcastable against a joint over ``nodes``.

    Examples
    --------
    >>> broadcast(np.zeros((3, 2)), ["c", "a"], ["a", "b", "c"]).shape
    (2, 1, 3)
    """
    position = [nodes.index(v) for v in variables]
    order = np.argsort(position)
    shape = [1] * len(nodes)
    for axis in order:
        shape[position[axis]] = array.shape[axis]
    return np.transpose(array, order).reshape(shape)


def clique_array(factor: CliqueFactor, states) -> np.ndarray:
    """``P(X_{C \\ S} | X_S)`` of one clique as an array over ``factor.clique`` (its axes in clique order).

    ``states(v)`` gives the states of ``v``. The product of the arrays of all cliques is the joint.

    Examples
    --------
    >>> step = CliqueFactor(("a", "b"), ("a",), ("b",)).with_values([[0.9, 0.1], [0.2, 0.8]])
    >>> clique_array(step, lambda v: (0, 1)).tolist()
    [[0.9, 0.1], [0.2, 0.8]]
    """
    clique = list(factor.clique)
    out = broadcast(factor.table, factor.table_variables, clique)
    if factor.center is not None:
        k = len(states(factor.center))
        parent_cards = [len(states(w)) for w in factor.parents]
        center = factor.group_values[:, list(factor.group_ids)].reshape([k, *parent_cards])
        out = out * broadcast(center, (factor.center, *factor.parents), clique)
    return np.broadcast_to(out, [len(states(w)) for w in clique]).copy()


def check_distribution(array, shape, n_given: int, what: str, tol: float = 1e-8) -> None:
    """Raise ``ValueError`` unless ``array`` has ``shape`` and holds conditionals over its last axes.

    Examples
    --------
    >>> check_distribution(np.array([[0.5, 0.6]]), (1, 2), 1, "table")
    Traceback (most recent call last):
        ...
    ValueError: The table has distributions summing to 1.1, not 1
    """
    if array is None or tuple(array.shape) != tuple(shape):
        got = None if array is None else tuple(array.shape)
        raise ValueError(f"The {what} has shape {got}; expected {tuple(shape)}")
    if not np.isfinite(array).all() or (array < 0).any():
        raise ValueError(f"The {what} holds negative or non-finite probabilities")
    sums = array.reshape(cell_count(shape[:n_given]), -1).sum(axis=1)
    if np.any(np.abs(sums - 1.0) > tol):
        raise ValueError(f"The {what} has distributions summing to {float(sums[np.argmax(np.abs(sums - 1))])!r}, not 1")


def factor_from_joint(step: CliqueFactor, values: np.ndarray, nodes: list, states, atol: float) -> CliqueFactor:
    """The parameters of ``step`` read off a joint array; checks that a center's groups hold.

    ``states(v)`` gives the states of ``v``. Conditioning configurations of probability zero
    get uniform conditionals.
    """
    n_sep = len(step.separator)
    if step.center is None:
        return step.with_values(conditional_table(marginal(values, nodes, step.separator + step.new), n_sep, 0.0))
    table = conditional_table(marginal(values, nodes, step.table_variables), n_sep, 0.0)
    k = len(states(step.center))
    counts = marginal(values, nodes, step.parents + (step.center,)).reshape(-1, k)
    group_values = pooled_group_values(counts, step.group_ids, 0.0)
    mass = counts.sum(axis=1)
    cond = counts / np.where(mass > 0, mass, 1.0)[:, None]
    deviation = np.abs(cond - group_values.T[list(step.group_ids)]).max(axis=1) * (mass > atol)
    if deviation.max() > atol:
        config = int(np.argmax(deviation))
        raise ValueError(
            f"The joint does not satisfy the strata of clique {step.clique}: P({step.center} | {step.parents}) "
            f"at configuration {config} differs by {deviation.max():.3g} from its group's distribution."
        )
    return step.with_values(table, group_values)


def log_probabilities(factors, codes: np.ndarray, nodes: list, states) -> np.ndarray:
    """Log probability of every row of ``codes`` (state indices, columns in ``nodes`` order).

    ``states(v)`` gives the states of ``v``; rows of probability zero get ``-inf``.
    """
    index = {v: j for j, v in enumerate(nodes)}
    total = np.zeros(len(codes))
    with np.errstate(divide="ignore"):
        for f in factors:
            total += np.log(f.table[tuple(codes[:, index[w]] for w in f.table_variables)])
            if f.center is not None:
                cards = [len(states(w)) for w in f.parents]
                configs = np.ravel_multi_index([codes[:, index[w]] for w in f.parents], cards)
                groups = np.asarray(f.group_ids)[configs]
                total += np.log(f.group_values[codes[:, index[f.center]], groups])
    return total


def forward_sample(factors, states, n: int, rng: np.random.Generator) -> dict:
    """``{variable: state indices}`` of ``n`` rows drawn clique by clique along the perfect ordering."""
    codes: dict = {}

    def draw(probabilities: np.ndarray) -> np.ndarray:
        if not n:
            return np.zeros(0, dtype=np.int64)
        cdf = np.cumsum(probabilities, axis=1)
        u = rng.random(len(probabilities)) * cdf[:, -1]
        return np.minimum((u[:, None] >= cdf).sum(axis=1), probabilities.shape[1] - 1)

    for f in factors:
        sep_cards = [len(states(w)) for w in f.separator]
        rest = list(f.table_variables[len(f.separator):])
        rows = np.ravel_multi_index([codes[w] for w in f.separator], sep_cards) if f.separator else np.zeros(n, int)
        drawn = draw(f.table.reshape(cell_count(sep_cards), -1)[rows])
        for w, c in zip(rest, np.unravel_index(drawn, [len(states(w)) for w in rest]) if rest else [], strict=True):
            codes[w] = np.asarray(c, dtype=np.int64)
        if f.center is not None:
            configs = np.ravel_multi_index([codes[w] for w in f.parents], [len(states(w)) for w in f.parents])
            codes[f.center] = draw(f.group_values.T[np.asarray(f.group_ids)[configs]])
    return codes


def random_stratified_graph(n_nodes: int, seed: int | None = None, max_states: int = 2, edge_prob: float = 0.6,
                            label_prob: float = 0.7, state_kinds=("int",)):
    """A random decomposable, maximal regular stratified graph (for tests and benchmarks).

    Nodes ``X0 .. X{n-1}`` are added one at a time, each joined to a random subset of a
    random maximal clique of the earlier nodes (so the graph stays chordal). Each variable
    gets 2..``max_states`` states of a kind drawn from ``state_kinds`` (``"int"``, ``"str"``,
    ``"bool"`` (binary only) or ``"float"``). Each clique of three or more nodes is labelled
    with probability ``label_prob``: a random center and random lines in directions whose
    edge is free; the groups are kept when they are regular and touch no separator edge.

    Examples
    --------
    >>> sg = random_stratified_graph(6, seed=3)
    >>> sg.check_model(), sg.is_maximal_regular()
    (True, True)
    """
    import networkx as nx

    from pgmpy_sgm.core.decomposition import edge_clique_counts
    from pgmpy_sgm.core.lines import is_regular, line_table, touches_forbidden
    from pgmpy_sgm.models.stratified_graph import StratifiedGraph

    rng = np.random.default_rng(seed)
    nodes = [f"X{i}" for i in range(n_nodes)]
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i in range(1, n_nodes):
        cliques = sorted(sorted(c) for c in nx.find_cliques(graph.subgraph(nodes[:i])))
        chosen = cliques[int(rng.integers(len(cliques)))]
        graph.add_edges_from((nodes[i], w) for w in chosen if rng.random() < edge_prob)
    names = {}
    for v in nodes:
        k = int(rng.integers(2, max_states + 1))
        kind = state_kinds[int(rng.integers(len(state_kinds)))]
        kind = "int" if kind == "bool" and k != 2 else kind
        names[v] = {"int": list(range(k)), "str": [f"s{j}" for j in range(k)], "bool": [False, True],
                    "float": [j + 0.5 for j in range(k)]}[kind]
    sg = StratifiedGraph(graph, nodes=nodes, state_names=names)
    counts = edge_clique_counts(sg.cliques)
    for clique in sg.cliques:
        if len(clique) < 3 or rng.random() > label_prob:
            continue
        center = clique[int(rng.integers(len(clique)))]
        parents = tuple(w for w in clique if w != center)
        cards = tuple(len(names[w]) for w in parents)
        forbidden = [counts[frozenset((u, center))] > 1 for u in parents]
        lines = [(d, r) for d, table in enumerate(line_table(cards)) if not forbidden[d] for r in range(len(table))]
        for _ in range(10):
            picked = [line for line in lines if rng.random() < 0.4]
            groups = groups_from_labels(cards, picked)
            if picked and is_regular(cards, groups) and not touches_forbidden(cards, groups, forbidden):
                sg.set_clique_groups(clique, center, groups)
                break
    return sg
