"""Lossless JSON files for labelled DAGs (:class:`~pgmpy_sgm.models.LabeledBayesianNetwork`).

JSON layout (``"format": "pgmpy-sgm"``, ``"version": 1``, ``"type": "LabeledBayesianNetwork"``)::

    {"format": "pgmpy-sgm", "version": 1, "type": "LabeledBayesianNetwork",
     "nodes": [node, ...],
     "state_names": [[node, [state, ...]], ...],
     "edges": [[u, v], ...],
     "classes": [{"node": v, "parents": [...], "group_ids": [int, ...]}, ...],   # labelled nodes
     "cpds": null | [{"node": v, "parents": [...], "group_ids": [int, ...],
                      "group_values": [[float, ...], ...]}, ...]}               # one row per state

Node names are strings or integers; states keep their JSON type; floats are written with
``repr`` precision, so parameters round-trip bit for bit. Writes are atomic and never
overwrite silently (the helpers of :mod:`pgmpy_sgm.readwrite.json_io`).
"""

from __future__ import annotations

import json
import math

import numpy as np

from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models import LabeledBayesianNetwork
from pgmpy_sgm.readwrite._fields import (
    atomic_write_text,
    check_node,
    check_state,
    json_edges,
    json_list,
    json_nodes,
    json_state_names,
    node_ref,
    probabilities,
)
from pgmpy_sgm.readwrite.json_io import DEFAULT_MAX_BYTES, FORMAT, VERSION, load_json_document

__all__ = ["ldag_to_json_dict", "ldag_from_json_dict", "write_ldag_json", "read_ldag_json"]

TYPE = "LabeledBayesianNetwork"
_TOP_KEYS = ("format", "version", "type", "nodes", "state_names", "edges", "classes", "cpds")
#: Optional: the BDeu equivalent sample size a later ``fit`` without an estimator uses.
_OPTIONAL_KEYS = ("equivalent_sample_size",)


def ldag_to_json_dict(model: LabeledBayesianNetwork) -> dict:
    """JSON-ready description of a labelled DAG, with its TreeCPDs when fitted.

    Examples
    --------
    >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
    >>> m.set_classes("y", ("a", "b"), [0, 1, 0, 2])
    >>> d = ldag_to_json_dict(m)
    >>> d["classes"], d["cpds"]
    ([{'node': 'y', 'parents': ['a', 'b'], 'group_ids': [0, 1, 0, 2]}], None)
    """
    if not isinstance(model, LabeledBayesianNetwork):
        raise TypeError(f"Expected a LabeledBayesianNetwork; got {type(model).__name__}")
    nodes = [check_node(v, "nodes") for v in model.nodes()]
    names = []
    for v in nodes:
        try:
            states = model.label_states(v)
        except ValueError:
            continue
        names.append([v, [check_state(s, f"state_names of {v!r}") for s in states]])
    classes = []
    for v in model.labelled_nodes():
        parents, ids = model.get_classes(v)
        classes.append({"node": v, "parents": list(parents), "group_ids": [int(g) for g in ids]})
    cpds = None
    if model.cpds:
        cpds = []
        for v in nodes:
            cpd = model.get_cpds(v)
            parents = list(cpd.variables[1:])
            if isinstance(cpd, TreeCPD):
                ids, values = cpd.groups, cpd.group_values
            else:
                ids = np.arange(int(np.prod(cpd.cardinality[1:], dtype=np.int64)))
                values = cpd.get_values()
            cpds.append(
                {
                    "node": v,
                    "parents": parents,
                    "group_ids": [int(g) for g in ids],
                    "group_values": np.asarray(values, dtype=np.float64).tolist(),
                }
            )
    document = {
        "format": FORMAT,
        "version": VERSION,
        "type": TYPE,
        "nodes": nodes,
        "state_names": names,
        "edges": [[u, v] for u, v in model.edges()],
        "classes": classes,
        "cpds": cpds,
    }
    if model.equivalent_sample_size is not None:
        document["equivalent_sample_size"] = float(model.equivalent_sample_size)
    return document


def ldag_from_json_dict(data: dict) -> LabeledBayesianNetwork:
    """Rebuild a labelled DAG from :func:`ldag_to_json_dict` output (schema checked).

    Raises
    ------
    TypeError, ValueError
        Naming the field at fault.

    Examples
    --------
    >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
    >>> m.set_classes("y", ("a", "b"), [0, 1, 0, 2])
    >>> ldag_from_json_dict(ldag_to_json_dict(m)).labels()
    {('a', 'y'): [{'b': 0}]}
    """
    _check_header(data)
    nodes = json_nodes(data["nodes"])
    known = set(nodes)
    names = json_state_names(data["state_names"], known)
    model = LabeledBayesianNetwork(state_names=names)
    model.add_nodes_from(nodes)
    for i, (u, v) in enumerate(json_edges(data["edges"], known)):
        try:
            model.add_edge(u, v)
        except ValueError as err:  # pgmpy refuses self-loops and cycles
            raise ValueError(f"Field 'edges[{i}]' ({u!r}, {v!r}): {err}".splitlines()[0]) from None
    for i, entry in enumerate(json_list(data["classes"], "classes")):
        model.set_classes(*_read_classes(entry, i, known))
    if data["cpds"] is not None:
        cpds = _read_cpds(data["cpds"], nodes, names)
        model.add_cpds(*cpds)
        model.check_model()
    ess = data.get("equivalent_sample_size")
    if ess is not None:
        if isinstance(ess, bool) or not isinstance(ess, int | float) or not math.isfinite(ess) or ess <= 0:
            raise ValueError(f"Field 'equivalent_sample_size' must be a positive number. Got: {ess!r}")
        model.equivalent_sample_size = float(ess)
    return model


def _check_header(data) -> None:
    """Refuse a document that is not an object of this format's fields, type and version."""
    if not isinstance(data, dict):
        raise TypeError(f"A labelled DAG document must be a JSON object; got {type(data).__name__}")
    if data.get("type") in ("StratifiedGraph", "StratifiedGraphicalModel"):
        raise ValueError(f"The document's type is {data['type']!r}, not a labelled DAG; read it with read_json")
    unknown = sorted(set(data) - set(_TOP_KEYS) - set(_OPTIONAL_KEYS))
    if unknown:
        raise ValueError(f"Unknown field(s) {unknown} in the document")
    missing = [k for k in _TOP_KEYS if k not in data]
    if missing:
        raise ValueError(f"Missing field(s) {missing} in the document")
    if data["format"] != FORMAT or data["version"] != VERSION or data["type"] != TYPE:
        raise ValueError(
            f"Not a {FORMAT} v{VERSION} {TYPE} document: format={data['format']!r}, "
            f"version={data['version']!r}, type={data['type']!r}"
        )


def _read_classes(entry, i: int, known: set) -> tuple:
    """``(node, parents, group_ids)`` of the entry ``classes[i]``."""
    if not isinstance(entry, dict) or set(entry) != {"node", "parents", "group_ids"}:
        raise ValueError(f"Field 'classes[{i}]' must have the keys node, parents, group_ids")
    v = node_ref(entry["node"], known, f"classes[{i}].node")
    parents = [node_ref(p, known, f"classes[{i}].parents") for p in json_list(entry["parents"], "parents")]
    ids = json_list(entry["group_ids"], f"classes[{i}].group_ids")
    if any(isinstance(g, bool) or not isinstance(g, int) for g in ids):
        raise TypeError(f"Field 'classes[{i}].group_ids' must hold integers")
    return v, parents, ids


def _read_cpds(field, nodes: list, names: dict) -> list[TreeCPD]:
    """The TreeCPDs of the field ``cpds``, one per node."""
    known = set(nodes)
    cpds = []
    for i, entry in enumerate(json_list(field, "cpds")):
        cpds.append(_read_cpd(entry, i, known, names, cpds))
    missing = [v for v in nodes if v not in {cpd.variable for cpd in cpds}]
    if missing:
        raise ValueError(f"Field 'cpds' has no CPD for the node(s) {missing}")
    return cpds


def _read_cpd(entry, i: int, known: set, names: dict, earlier: list[TreeCPD]) -> TreeCPD:
    """The TreeCPD of the entry ``cpds[i]`` (refused when a CPD of ``earlier`` has its node)."""
    if not isinstance(entry, dict) or set(entry) != {"node", "parents", "group_ids", "group_values"}:
        raise ValueError(f"Field 'cpds[{i}]' must have the keys node, parents, group_ids, group_values")
    v = node_ref(entry["node"], known, f"cpds[{i}].node")
    if any(cpd.variable == v for cpd in earlier):
        raise ValueError(f"Field 'cpds[{i}]' repeats the CPD of {v!r}")
    parents = [node_ref(p, known, f"cpds[{i}].parents") for p in json_list(entry["parents"], "parents")]
    if v not in names or any(p not in names for p in parents):
        raise ValueError(f"Field 'cpds[{i}]': the states of {v!r} and its parents must be in state_names")
    ids = json_list(entry["group_ids"], f"cpds[{i}].group_ids")
    if any(isinstance(g, bool) or not isinstance(g, int) for g in ids):
        raise TypeError(f"Field 'cpds[{i}].group_ids' must hold integers")
    rows = json_list(entry["group_values"], f"cpds[{i}].group_values")
    n_groups = max(ids, default=-1) + 1
    values = np.array([probabilities(r, n_groups, f"cpds[{i}].group_values") for r in rows])
    cards = [len(names[p]) for p in parents]
    return TreeCPD(v, len(names[v]), parents, cards, ids, values, state_names={w: names[w] for w in (v, *parents)})


def write_ldag_json(model: LabeledBayesianNetwork, path, overwrite: bool = False) -> None:
    """Write a labelled DAG to ``path`` as JSON (atomically; refuses to overwrite unless asked).

    Examples
    --------
    >>> import tempfile, os
    >>> m = LabeledBayesianNetwork([("a", "y"), ("b", "y")], state_names={v: [0, 1] for v in "aby"})
    >>> path = os.path.join(tempfile.mkdtemp(), "ldag.json")
    >>> write_ldag_json(m, path)
    >>> sorted(read_ldag_json(path).edges())
    [('a', 'y'), ('b', 'y')]
    """
    text = json.dumps(ldag_to_json_dict(model), indent=1, allow_nan=False)
    atomic_write_text(path, text, overwrite)


def read_ldag_json(path, max_bytes: int = DEFAULT_MAX_BYTES) -> LabeledBayesianNetwork:
    """Read a labelled DAG written by :func:`write_ldag_json`.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "ldag.json")
    >>> write_ldag_json(LabeledBayesianNetwork([("a", "b")]), path)
    >>> list(read_ldag_json(path).edges())
    [('a', 'b')]
    """
    return ldag_from_json_dict(load_json_document(path, max_bytes))
