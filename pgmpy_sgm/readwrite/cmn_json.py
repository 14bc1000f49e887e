"""Lossless JSON files for contextual Markov networks (:class:`~pgmpy_sgm.models.ContextualMarkovNetwork`).

JSON layout (``"format": "pgmpy-sgm"``, ``"version": 1``, ``"type": "ContextualMarkovNetwork"``)::

    {"format": "pgmpy-sgm", "version": 1, "type": "ContextualMarkovNetwork",
     "nodes": [node, ...],                                  # node order
     "state_names": [[node, [state, ...]], ...],            # declared states only
     "edges": [[u, v], ...],
     "contexts": [{"edge": [u, v], "contexts": [[[w, state], ...], ...]}, ...],
     "factors": null | [{"scope": [node, ...], "values": [float, ...]}, ...]}   # C order over the scope

Node names are strings or integers; states keep their JSON type; floats are written with
``repr`` precision, so factors round-trip bit for bit. Writes are atomic and never overwrite
silently (the helpers of :mod:`pgmpy_sgm.readwrite.json_io`).
"""

from __future__ import annotations

import json
import math

import numpy as np
from pgmpy.factors.discrete import DiscreteFactor

from pgmpy_sgm.models import ContextualMarkovNetwork
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
    state_value,
)
from pgmpy_sgm.readwrite.json_io import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_CELLS,
    FORMAT,
    VERSION,
    load_json_document,
)

__all__ = ["cmn_to_json_dict", "cmn_from_json_dict", "write_cmn_json", "read_cmn_json"]

TYPE = "ContextualMarkovNetwork"
_TOP_KEYS = ("format", "version", "type", "nodes", "state_names", "edges", "contexts", "factors")


def cmn_to_json_dict(model: ContextualMarkovNetwork) -> dict:
    """JSON-ready description of a contextual Markov network, with its factors when it has any.

    Examples
    --------
    >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}]})
    >>> d = cmn_to_json_dict(cmn)
    >>> d["edges"], d["contexts"], d["factors"]
    ([[1, 2], [1, 3], [2, 3]], [{'edge': [2, 3], 'contexts': [[[1, 1]]]}], None)
    """
    if not isinstance(model, ContextualMarkovNetwork):
        raise TypeError(f"Expected a ContextualMarkovNetwork; got {type(model).__name__}")
    nodes = [check_node(v, "nodes") for v in model.nodes()]
    declared = model.graph.get("state_names", {})
    names = [[v, [check_state(s, f"state_names of {v!r}") for s in declared[v]]] for v in nodes if v in declared]
    factors = None
    if model.factors:
        factors = []
        for factor in model.factors:
            scope = [check_node(v, "factor scope") for v in factor.variables]
            for v in scope:
                if list(factor.state_names[v]) != list(model.node_states(v)):
                    raise ValueError(f"A factor over {scope} gives {v!r} the states {list(factor.state_names[v])}; "
                                     f"the network has {list(model.node_states(v))}.")
            factors.append({"scope": scope, "values": np.asarray(factor.values, dtype=np.float64).ravel().tolist()})
    return {
        "format": FORMAT,
        "version": VERSION,
        "type": TYPE,
        "nodes": nodes,
        "state_names": names,
        "edges": [[u, v] for u, v in model.edges()],
        "contexts": [
            {"edge": [u, v], "contexts": [[[w, check_state(s, f"context of ({u!r}, {v!r})")] for w, s in c.items()]
                                          for c in found]}
            for (u, v), found in model.contexts.items()
        ],
        "factors": factors,
    }


def _check_header(data) -> None:
    if not isinstance(data, dict):
        raise TypeError(f"A contextual Markov network document must be a JSON object; got {type(data).__name__}")
    unknown = sorted(set(data) - set(_TOP_KEYS))
    if data.get("type") != TYPE and "type" in data:
        raise ValueError(f"The document's type is {data['type']!r}, not {TYPE!r}; read it with the reader of that type")
    if unknown:
        raise ValueError(f"Unknown field(s) {unknown} in the document")
    missing = [k for k in _TOP_KEYS if k not in data]
    if missing:
        raise ValueError(f"Missing field(s) {missing} in the document")
    if data["format"] != FORMAT or data["version"] != VERSION:
        raise ValueError(f"Not a {FORMAT} v{VERSION} {TYPE} document: format={data['format']!r}, "
                         f"version={data['version']!r}")


def _read_structure(data: dict) -> ContextualMarkovNetwork:
    nodes = json_nodes(data["nodes"])
    known = set(nodes)
    names = json_state_names(data["state_names"], known)
    edges = json_edges(data["edges"], known)
    model = ContextualMarkovNetwork(edges, nodes=nodes, state_names=names)
    for i, entry in enumerate(json_list(data["contexts"], "contexts")):
        if not isinstance(entry, dict) or set(entry) != {"edge", "contexts"}:
            raise ValueError(f"Field 'contexts[{i}]' must have the keys edge, contexts")
        edge = json_list(entry["edge"], f"contexts[{i}].edge")
        if len(edge) != 2:
            raise TypeError(f"Field 'contexts[{i}].edge' must be [u, v]")
        u, v = (node_ref(w, known, f"contexts[{i}].edge") for w in edge)
        for context in json_list(entry["contexts"], f"contexts[{i}].contexts"):
            pairs = json_list(context, f"contexts[{i}].contexts")
            if any(not isinstance(p, list) or len(p) != 2 for p in pairs):
                raise TypeError(f"Field 'contexts[{i}].contexts' must hold lists of [node, state] pairs")
            model.add_context(u, v, {node_ref(w, known, f"contexts[{i}]"): state_value(s, f"contexts[{i}]")
                                     for w, s in pairs})
    return model


def cmn_from_json_dict(data: dict, max_cells: int = DEFAULT_MAX_CELLS) -> ContextualMarkovNetwork:
    """Rebuild a contextual Markov network from :func:`cmn_to_json_dict` output (schema checked).

    Raises
    ------
    TypeError, ValueError
        Naming the field at fault.

    Examples
    --------
    >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}]})
    >>> cmn_from_json_dict(cmn_to_json_dict(cmn)) == cmn
    True
    """

    _check_header(data)
    model = _read_structure(data)
    if data["factors"] is None:
        return model
    factors = []
    for i, entry in enumerate(json_list(data["factors"], "factors")):
        if not isinstance(entry, dict) or set(entry) != {"scope", "values"}:
            raise ValueError(f"Field 'factors[{i}]' must have the keys scope, values")
        scope = [node_ref(w, set(model.nodes()), f"factors[{i}].scope") for w in json_list(entry["scope"], "scope")]
        if len(set(scope)) != len(scope):
            raise ValueError(f"Field 'factors[{i}].scope' repeats a node")
        missing = [(a, b) for j, a in enumerate(scope) for b in scope[j + 1:] if not model.has_edge(a, b)]
        if missing:
            raise ValueError(f"Field 'factors[{i}].scope' {scope} is not a clique of the graph: no edge(s) {missing}")
        shape = [len(model.node_states(w)) for w in scope]
        if math.prod(shape) > max_cells:
            raise ValueError(f"Field 'factors[{i}]' has {math.prod(shape):,} cells, more than max_cells={max_cells:,}")
        values = probabilities(entry["values"], math.prod(shape), f"factors[{i}].values")
        factors.append(DiscreteFactor(scope, shape, values.reshape(shape),
                                      state_names={w: list(model.node_states(w)) for w in scope}))
    model.add_factors(*factors)
    model.check_model()
    return model


def write_cmn_json(model: ContextualMarkovNetwork, path, overwrite: bool = False) -> None:
    """Write a contextual Markov network to ``path`` as JSON (atomically; refuses to overwrite unless asked).

    Raises
    ------
    FileExistsError
        If ``path`` exists and ``overwrite`` is False.

    Examples
    --------
    >>> import tempfile, os
    >>> cmn = ContextualMarkovNetwork([(1, 2), (1, 3), (2, 3)], contexts={(2, 3): [{1: 1}]})
    >>> path = os.path.join(tempfile.mkdtemp(), "cmn.json")
    >>> write_cmn_json(cmn, path)
    >>> read_cmn_json(path) == cmn
    True
    """
    text = json.dumps(cmn_to_json_dict(model), allow_nan=False)
    atomic_write_text(path, text, overwrite)


def read_cmn_json(path, max_bytes: int = DEFAULT_MAX_BYTES,
                  max_cells: int = DEFAULT_MAX_CELLS) -> ContextualMarkovNetwork:
    """Read a contextual Markov network written by :func:`write_cmn_json`.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "cmn.json")
    >>> write_cmn_json(ContextualMarkovNetwork([("a", "b")]), path)
    >>> list(read_cmn_json(path).edges())
    [('a', 'b')]
    """
    return cmn_from_json_dict(load_json_document(path, max_bytes), max_cells=max_cells)
