"""CPT-trees with tied leaves: construction, validation, evaluation and rendering.

Terminology
-----------
configuration
    One joint state of the evidence (parent) variables. Configurations are numbered in pgmpy's
    column order: C order over the evidence, the last evidence variable varying fastest.
group
    A set of configurations sharing one conditional distribution, identified by an integer id.
tree
    A nested, immutable structure of plain tuples:

    * ``("leaf", group_id)``: every configuration reaching this node belongs to ``group_id``;
    * ``("split", variable, ((state, subtree), ...))``: branch on ``variable``, one
      ``(state, subtree)`` pair per state, in the variable's state order.

tied leaves
    Two or more leaves holding the same group id: they share one distribution. Groups that are
    not sub-cubes of the configuration grid can only be expressed with tied leaves.

Internally the module works on *index trees*, where the split variable is an evidence position
and branches are a tuple indexed by state number: ``("leaf", g)`` / ``("split", axis, (t0, t1, ...))``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from numbers import Integral
from typing import Any

import numpy as np

__all__: list[str] = []

#: Above this number of partial assignments the exact split search is replaced by a greedy one.
EXACT_SEARCH_LIMIT = 60_000


# --------------------------------------------------------------------------- argument checks
def check_scope(variable, variable_card, evidence, evidence_card) -> tuple[list, list[int]]:
    if isinstance(variable_card, (bool, np.bool_)) or not isinstance(variable_card, Integral):
        raise TypeError(f"variable_card must be an integer; got {variable_card!r}")
    if variable_card < 1:
        raise ValueError(f"variable_card must be positive; got {variable_card}")
    if not hashable(variable) or variable is None:
        raise TypeError(f"variable must be hashable (e.g. a str) and not None; got {variable!r}")
    if isinstance(evidence, str):
        raise TypeError(f"evidence must be a list of variables, not the string {evidence!r}")
    if evidence is not None and not isinstance(evidence, Iterable):
        raise TypeError(f"evidence must be a list of variables; got {evidence!r}")
    evidence = [] if evidence is None else list(evidence)
    unhashable = [v for v in evidence if not hashable(v) or v is None]
    if unhashable:
        raise TypeError(f"evidence variables must be hashable (e.g. a str) and not None; got {unhashable}")
    if isinstance(evidence_card, (str, Integral)) or not isinstance(evidence_card, Iterable | None):
        raise TypeError(f"evidence_card must be a list of integers; got {evidence_card!r}")
    evidence_card = [] if evidence_card is None else list(evidence_card)
    if len(evidence) != len(evidence_card):
        raise ValueError(f"evidence {evidence} and evidence_card {evidence_card} differ in length")
    for var, card in zip(evidence, evidence_card, strict=True):
        if isinstance(card, (bool, np.bool_)) or not isinstance(card, Integral) or card < 1:
            raise TypeError(f"evidence_card of {var!r} must be a positive integer; got {card!r}")
    if variable in evidence:
        raise ValueError(f"variable {variable!r} cannot be its own evidence")
    if len(set(evidence)) != len(evidence):
        raise ValueError(f"evidence has repeated variables: {evidence}")
    return evidence, [int(k) for k in evidence_card]


def complete_state_names(state_names, variables: list, cards: list) -> dict:
    if state_names is None:
        state_names = {}
    if not isinstance(state_names, Mapping):
        raise TypeError(f"state_names must be a dict {{variable: list_of_states}}; got {type(state_names).__name__}")
    names = {}
    for var, card in zip(variables, cards, strict=True):
        if var not in state_names:
            names[var] = list(range(int(card)))
            continue
        states = state_names[var]
        if isinstance(states, str) or not isinstance(states, Sequence | np.ndarray):
            raise TypeError(f"state names of {var!r} must be a list; got {states!r}")
        states = list(states)
        if len(states) != card:
            raise ValueError(f"state names of {var!r} must have {card} entries; got {len(states)}: {states}")
        if len(set(states)) != len(states):
            raise ValueError(f"state names of {var!r} are repeated: {states}")
        names[var] = states
    return names


def check_groups(groups, n_conf: int) -> np.ndarray:
    arr = np.array(groups)
    if arr.ndim != 1 or arr.shape[0] != n_conf:
        raise ValueError(f"groups must have one entry per evidence configuration ({n_conf}); got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"groups must be integer group ids; got dtype {arr.dtype}")
    return arr.astype(np.intp)


def check_group_values(group_values, variable_card: int, groups: np.ndarray) -> np.ndarray:
    try:
        values = np.array(group_values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"group_values must be numbers (probabilities); got {group_values!r}") from None
    if values.ndim != 2 or values.shape[0] != variable_card:
        raise ValueError(f"group_values must have shape (variable_card={variable_card}, n_groups); got {values.shape}")
    n_groups = values.shape[1]
    groups = np.asarray(groups).reshape(-1)
    outside = (groups < 0) | (groups >= n_groups)
    if outside.any():
        bad = sorted({int(g) for g in groups[outside]})
        raise ValueError(f"group ids {bad} are outside 0..{n_groups - 1} (group_values has {n_groups} columns)")
    used = np.zeros(n_groups, dtype=bool)
    used[groups] = True
    if not used.all():
        unused = np.flatnonzero(~used).tolist()
        raise ValueError(f"groups {unused} have no configuration; every group id 0..{n_groups - 1} must be used")
    checks = (("has non-finite entries", ~np.isfinite(values).all(axis=0)),
              ("has negative entries", (values < 0).any(axis=0)))  # fmt: skip
    for what, wrong in checks:
        if wrong.any():
            g = int(np.argmax(wrong))
            raise ValueError(f"group_values column {g} (group {g}) {what}: {values[:, g].tolist()}")
    sums = values.sum(axis=0)
    off = np.abs(sums - 1.0) > 1e-8
    if off.any():
        g = int(np.argmax(off))
        raise ValueError(f"group_values column {g} (group {g}) sums to {float(values[:, g].sum())!r}, not 1")
    return values


def check_cpd_dict(data: Any, keys: Sequence[str]) -> dict:
    """Check a TreeCPD dict (see ``TreeCPD.to_dict``); return its state names keyed by variable."""
    if not isinstance(data, Mapping):
        raise TypeError(f"from_dict expects a mapping; got {type(data).__name__}")
    missing = [k for k in keys if k not in data]
    unknown = [k for k in data if k not in (*keys, "tree")]
    if missing or unknown:
        raise ValueError(f"TreeCPD dict has missing keys {missing} and unknown keys {unknown}")
    for key in ("evidence", "evidence_card", "groups", "group_values"):
        if not isinstance(data[key], (list, tuple)):
            raise TypeError(f"TreeCPD dict field {key!r} must be a list; got {type(data[key]).__name__}")
    raw_names = data["state_names"]
    if not isinstance(raw_names, Mapping):
        raise TypeError(f"TreeCPD dict field 'state_names' must be a dict; got {type(raw_names).__name__}")
    names = {}
    for var in [data["variable"], *data["evidence"]]:
        key = var if var in raw_names else str(var)
        if key not in raw_names:
            raise ValueError(f"TreeCPD dict field 'state_names' has no entry for variable {var!r}")
        names[var] = raw_names[key]
    return names


def py(x: Any) -> Any:
    """Plain-Python (JSON-ready) copy: numpy scalars unwrapped, tuples turned into lists."""
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, (tuple, list)):
        return [py(v) for v in x]
    return x


# --------------------------------------------------------------------------- construction
def build_index_tree(groups_nd: np.ndarray) -> tuple:
    """Return an index tree with few leaves reproducing ``groups_nd`` (shape = evidence cards).

    A node whose configurations all lie in one group becomes a leaf. Otherwise the split variable
    minimises the number of leaves of the resulting subtree (exact search with memoisation over
    partial assignments); ties go to the earliest evidence variable. For very large parent sets
    a greedy rule is used instead: minimise the summed number of distinct groups in the children.
    A node whose configurations are all in different groups (an unlabelled family) needs a leaf per
    configuration whatever the order, so it splits on its free variables in order without a search.
    """
    cards = groups_nd.shape
    exact = int(np.prod([k + 1 for k in cards])) <= EXACT_SEARCH_LIMIT
    memo: dict[tuple, tuple[int, int | None]] = {}

    def sub(assign: tuple) -> np.ndarray:
        return groups_nd[tuple(slice(None) if a is None else a for a in assign)]

    def child(assign: tuple, axis: int, state: int) -> tuple:
        return assign[:axis] + (state,) + assign[axis + 1 :]

    def best(assign: tuple) -> tuple[int, int | None]:
        if assign in memo:
            return memo[assign]
        block = sub(assign)
        if (block == block.flat[0]).all():
            result: tuple[int, int | None] = (1, None)
        else:
            result = (0, None)
            for axis, fixed in enumerate(assign):
                if fixed is not None:
                    continue
                if exact:
                    cost = sum(best(child(assign, axis, s))[0] for s in range(cards[axis]))
                else:
                    cost = sum(len(np.unique(sub(child(assign, axis, s)))) for s in range(cards[axis]))
                if result[1] is None or cost < result[0]:
                    result = (cost, axis)
        memo[assign] = result
        return result

    def full(assign: tuple) -> tuple:
        free = next((i for i, a in enumerate(assign) if a is None), None)
        if free is None:
            return ("leaf", int(groups_nd[assign]))
        return ("split", free, tuple(full(child(assign, free, s)) for s in range(cards[free])))

    def make(assign: tuple) -> tuple:
        if _all_apart(sub(assign)):  # every split order gives a leaf per configuration: the earliest axis wins
            return full(assign)
        _, axis = best(assign)
        if axis is None:
            return ("leaf", int(sub(assign).flat[0]))
        return ("split", axis, tuple(make(child(assign, axis, s)) for s in range(cards[axis])))

    return make((None,) * len(cards))


def _all_apart(block: np.ndarray) -> bool:
    """Whether every configuration of ``block`` (two or more) is in a group of its own."""
    return block.size > 1 and np.unique(block).size == block.size


def index_tree_groups(index_tree: tuple, cards: Sequence[int]) -> np.ndarray:
    """Return the groups array (shape ``cards``) that an index tree assigns to the configurations."""
    out = np.full(tuple(cards), -1, dtype=int)

    def fill(node: tuple, assign: list) -> None:
        if node[0] == "leaf":
            out[tuple(assign)] = node[1]
            return
        axis = node[1]
        for state, subtree in enumerate(node[2]):
            assign[axis] = state
            fill(subtree, assign)
        assign[axis] = slice(None)

    fill(index_tree, [slice(None)] * len(cards))
    return out


def relabel_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Group ids for the distinct rows of ``keys`` (numbered by first appearance) and each group's first row."""
    keys = keys.reshape(len(keys), -1)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return rank[inverse.reshape(-1)], first[order]


def group_counts(groups_nd: np.ndarray, gone: Sequence[int], n_groups: int) -> np.ndarray:
    """For each configuration of the axes not in ``gone``: how often each group occurs over the ``gone`` axes."""
    keep = [i for i in range(groups_nd.ndim) if i not in gone]
    block = np.moveaxis(groups_nd, [*keep, *gone], list(range(groups_nd.ndim)))
    block = block.reshape(int(np.prod([groups_nd.shape[i] for i in keep], dtype=np.int64)), -1)
    return np.stack([(block == g).sum(axis=1) for g in range(n_groups)], axis=1)


def count_leaves(index_tree: tuple) -> int:
    """Number of leaves of an index tree."""
    if index_tree[0] == "leaf":
        return 1
    return sum(count_leaves(t) for t in index_tree[2])


# --------------------------------------------------------------------------- public <-> index trees
def to_named_tree(index_tree: tuple, evidence: Sequence[Hashable], state_names: Mapping) -> tuple:
    """Convert an index tree to the public tree format (variable names and state names)."""
    if index_tree[0] == "leaf":
        return index_tree
    var = evidence[index_tree[1]]
    names = state_names[var]
    return (
        "split",
        var,
        tuple((names[s], to_named_tree(t, evidence, state_names)) for s, t in enumerate(index_tree[2])),
    )


def parse_tree(
    tree: object, evidence: Sequence[Hashable], state_names: Mapping, n_groups: int, path: str = "root"
) -> tuple:
    """Validate a public-format tree and convert it to an index tree.

    Raises
    ------
    TypeError
        If a node is not a tuple/list or a leaf id is not an integer.
    ValueError
        If a node tag is unknown, a variable is not in the evidence or is split twice on one path,
        a branch names an unknown state, a state is missing or repeated, or a leaf id is out of range.
    """
    return _parse(tree, list(evidence), state_names, n_groups, path, frozenset())


def _parse(node: object, evidence: list, state_names: Mapping, n_groups: int, path: str, used: frozenset) -> tuple:
    if not isinstance(node, (tuple, list)) or len(node) == 0:
        raise TypeError(f"tree node at {path} must be ('leaf', group) or ('split', variable, branches); got {node!r}")
    tag = node[0]
    if tag == "leaf":
        if len(node) != 2:
            raise ValueError(f"leaf at {path} must have the form ('leaf', group); got {node!r}")
        gid = node[1]
        if isinstance(gid, (bool, np.bool_)) or not isinstance(gid, Integral):
            raise TypeError(f"leaf at {path} must hold an integer group id; got {gid!r}")
        if not 0 <= gid < n_groups:
            raise ValueError(f"leaf at {path} holds group {gid}, outside 0..{n_groups - 1}")
        return ("leaf", int(gid))
    if tag != "split":
        raise ValueError(f"tree node at {path} has unknown tag {tag!r}; expected 'leaf' or 'split'")
    if len(node) != 3:
        raise ValueError(f"split at {path} must have the form ('split', variable, branches); got {node!r}")
    var, branches = node[1], node[2]
    if not hashable(var) or var not in evidence:
        raise ValueError(f"split at {path} uses variable {var!r}, which is not an evidence variable {evidence}")
    if var in used:
        raise ValueError(f"split at {path} splits on {var!r} again; a variable may be split on once per path")
    if isinstance(branches, Mapping):
        items = list(branches.items())
    elif isinstance(branches, (tuple, list)) and all(isinstance(b, (tuple, list)) and len(b) == 2 for b in branches):
        items = [tuple(b) for b in branches]
    else:
        raise TypeError(f"split on {var!r} at {path}: branches must be {{state: subtree}} or (state, subtree) pairs")
    names = list(state_names[var])
    children: dict[int, tuple] = {}
    for state, subtree in items:
        if not hashable(state) or state not in names:
            raise ValueError(f"split on {var!r} at {path} has a branch for unknown state {state!r}; states are {names}")
        s = names.index(state)
        if s in children:
            raise ValueError(f"split on {var!r} at {path} has two branches for state {state!r}")
        children[s] = _parse(subtree, evidence, state_names, n_groups, f"{path} > {var}={state}", used | {var})
    missing = [names[s] for s in range(len(names)) if s not in children]
    if missing:
        raise ValueError(f"split on {var!r} at {path} is missing branches for states {missing}")
    return ("split", evidence.index(var), tuple(children[s] for s in range(len(names))))


def hashable(x: object) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


# --------------------------------------------------------------------------- rendering
def leaf_label(gid: int) -> str:
    """Spreadsheet-style label of a group id: 0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    label = ""
    n = gid + 1
    while n:
        n, r = divmod(n - 1, 26)
        label = chr(65 + r) + label
    return label


def render(
    index_tree: tuple,
    variable: Hashable,
    evidence: Sequence[Hashable],
    state_names: Mapping,
    groups: np.ndarray,
    group_values: np.ndarray,
    digits: int = 4,
) -> str:
    """Readable rendering: tree with leaf labels, then the configurations of every group."""
    var_states = state_names[variable]
    leaf_counts = np.zeros(group_values.shape[1], dtype=int)

    def dist(g: int) -> str:
        return ", ".join(f"P({variable}={s})={group_values[i, g]:.{digits}g}" for i, s in enumerate(var_states))

    seen: set[int] = set()

    def leaf(g: int) -> str:
        leaf_counts[g] += 1
        if g in seen:
            return f"leaf {leaf_label(g)} (tied)"
        seen.add(g)
        return f"leaf {leaf_label(g)}: {dist(g)}"

    lines = [f"P({variable} | {', '.join(map(str, evidence))})" if len(evidence) else f"P({variable})"]

    def walk(node: tuple, depth: int) -> None:
        axis = node[1]
        var = evidence[axis]
        for s, subtree in enumerate(node[2]):
            head = "    " * depth + f"{var} = {state_names[var][s]}"
            if subtree[0] == "leaf":
                lines.append(f"{head} -> {leaf(subtree[1])}")
            else:
                lines.append(head)
                walk(subtree, depth + 1)

    if index_tree[0] == "leaf":
        lines.append(f"(no split) -> {leaf(index_tree[1])}")
    else:
        walk(index_tree, 0)

    if len(evidence):
        cards = groups.shape
        lines.append(f"configurations ({', '.join(map(str, evidence))}) per leaf distribution:")
        flat = groups.reshape(-1)
        for g in range(group_values.shape[1]):
            confs = []
            for c in np.flatnonzero(flat == g):
                idx = np.unravel_index(c, cards)
                confs.append("(" + ", ".join(str(state_names[v][i]) for v, i in zip(evidence, idx, strict=True)) + ")")
            n = int(leaf_counts[g])
            tied = f", {n} tied leaves" if n > 1 else ""
            noun = "configuration" if len(confs) == 1 else "configurations"
            lines.append(f"    {leaf_label(g)} [{len(confs)} {noun}{tied}]: {', '.join(confs)}")
    return "\n".join(lines)
