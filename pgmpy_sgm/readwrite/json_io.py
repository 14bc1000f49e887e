"""Lossless JSON files for stratified graphs and models, and BIF/XMLBIF export through pgmpy.

JSON layout (``"format": "pgmpy-sgm"``, ``"version": 1``)::

    {"format": "pgmpy-sgm", "version": 1, "type": "StratifiedGraph" | "StratifiedGraphicalModel",
     "nodes": [node, ...],                              # node order
     "state_names": [[node, [state, ...]], ...],        # declared states only
     "edges": [[u, v], ...],
     "strata": [{"edge": [u, v], "contexts": [[[w, state], ...], ...]}, ...],
     "parameters": null | [                             # models only, in the perfect ordering
        {"clique": [...], "separator": [...], "new": [...], "center": node | null,
         "labelled_center": node | null, "parents": [...], "group_ids": [int, ...] | null,
         "table": [float, ...],                         # C order over separator + new without center
         "group_values": [[float, ...], ...] | null},   # one row per center state, one column per group
        ...]}

Node names are strings or integers; states are strings, integers, booleans or finite floats,
and keep their Python type. Floats are written with ``repr`` precision, so parameters
round-trip bit for bit. Files are never pickled, writes are atomic (with the mode the umask
gives new files), and loading checks the schema before building anything large, in time
linear in the file's size.
"""

from __future__ import annotations

import json
import os
import re

import networkx as nx
import numpy as np
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.readwrite import BIFWriter, XMLBIFWriter

from pgmpy_sgm.core.decomposition import decompose
from pgmpy_sgm.factors import TreeCPD
from pgmpy_sgm.models import StratifiedGraph, StratifiedGraphicalModel
from pgmpy_sgm.models._factor_plan import CliqueFactor, cell_count
from pgmpy_sgm.readwrite._fields import (
    atomic_write_text,
    check_node,
    check_path,
    check_state,
    json_list,
    node_ref,
    probabilities,
    state_value,
)

__all__ = [
    "to_json_dict",
    "from_json_dict",
    "write_json",
    "read_json",
    "load_json_document",
    "write_bif",
    "write_xmlbif",
]

FORMAT = "pgmpy-sgm"
VERSION = 1
#: Largest table (cells of one clique's configurations) a file may declare.
DEFAULT_MAX_CELLS = 10_000_000
#: Largest file :func:`read_json` reads.
DEFAULT_MAX_BYTES = 64 * 2**20
MAX_DEPTH = 16

_TOP_KEYS = ("format", "version", "type", "nodes", "state_names", "edges", "strata", "parameters")
_TYPES = ("StratifiedGraph", "StratifiedGraphicalModel")
_FACTOR_KEYS = ("clique", "separator", "new", "center", "labelled_center", "parents", "group_ids", "table",
                "group_values")
_BIF_NAME = re.compile(r"^[\w.\-]+$")


# -- writing -----------------------------------------------------------------------------
def to_json_dict(model: StratifiedGraph) -> dict:
    """JSON-ready description of a :class:`StratifiedGraph` or :class:`StratifiedGraphicalModel`.

    Examples
    --------
    >>> d = to_json_dict(StratifiedGraph([("a", "b")], state_names={"a": ["lo", "hi"]}))
    >>> d["type"], d["nodes"], d["state_names"], d["edges"]
    ('StratifiedGraph', ['a', 'b'], [['a', ['lo', 'hi']]], [['a', 'b']])
    """
    if not isinstance(model, StratifiedGraph):
        raise TypeError(f"Expected a StratifiedGraph or StratifiedGraphicalModel; got {type(model).__name__}")
    nodes = [check_node(v, "nodes") for v in model.nodes()]
    declared = model.graph.get("state_names", {})
    names = [[v, [check_state(s, f"state_names of {v!r}") for s in declared[v]]] for v in nodes if v in declared]
    out = {
        "format": FORMAT,
        "version": VERSION,
        "type": "StratifiedGraph",
        "nodes": nodes,
        "state_names": names,
        "edges": [[u, v] for u, v in model.edges()],
        "strata": [
            {"edge": [u, v], "contexts": [[[w, check_state(s, f"stratum of ({u!r}, {v!r})")] for w, s in c.items()]
                                          for c in contexts]}
            for (u, v), contexts in model.strata.items()
        ],
    }
    if isinstance(model, StratifiedGraphicalModel):
        out["type"] = "StratifiedGraphicalModel"
        out["parameters"] = None
        if model.clique_factors:
            model.require_parameters()
            out["parameters"] = [
                {
                    "clique": list(f.clique),
                    "separator": list(f.separator),
                    "new": list(f.new),
                    "center": f.center,
                    "labelled_center": f.labelled_center,
                    "parents": list(f.parents),
                    "group_ids": None if f.group_ids is None else [int(g) for g in f.group_ids],
                    "table": np.asarray(f.table, dtype=np.float64).ravel().tolist(),
                    "group_values": None if f.group_values is None else np.asarray(f.group_values).tolist(),
                }
                for f in model.clique_factors
            ]
    return out


def write_json(model: StratifiedGraph, path, overwrite: bool = False) -> None:
    """Write a stratified graph or model to ``path`` as JSON (atomically).

    Parameters
    ----------
    model : StratifiedGraph or StratifiedGraphicalModel
    path : str or path-like
    overwrite : bool, default=False
        Replace an existing file; otherwise an existing file raises ``FileExistsError``.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
    >>> write_json(sg, os.path.join(folder, "sg.json"))
    >>> read_json(os.path.join(folder, "sg.json")) == sg
    True
    """
    text = json.dumps(to_json_dict(model), allow_nan=False)
    atomic_write_text(path, text, overwrite)


# -- reading -----------------------------------------------------------------------------
def _depth(obj, limit: int, level: int = 0) -> None:
    if level > limit:
        raise ValueError(f"The JSON document is nested deeper than {limit} levels")
    if isinstance(obj, dict):
        for value in obj.values():
            _depth(value, limit, level + 1)
    elif isinstance(obj, list):
        for value in obj:
            if isinstance(value, dict | list):
                _depth(value, limit, level + 1)


def _read_graph(data: dict, max_cells: int) -> tuple[list, dict]:
    nodes = _read_nodes(data)
    known = set(nodes)
    names = _read_state_names(data, known)
    edges = _read_edges(data, known)
    _check_cliques(nodes, edges, names, max_cells)
    strata = _read_strata(data, known)
    try:
        sg = StratifiedGraph(edges, strata=strata, nodes=nodes, state_names=names)
        sg.check_model()
    except ValueError as err:
        raise ValueError(f"Field 'strata': {err}") from None
    return sg, names


def _read_nodes(data: dict) -> list:
    nodes = json_list(data["nodes"], "nodes")
    for i, v in enumerate(nodes):
        if isinstance(v, bool) or not isinstance(v, str | int):
            raise TypeError(f"Field 'nodes[{i}]' must be a str or int node name; got {v!r}")
    if len(set(nodes)) != len(nodes):
        raise ValueError("Field 'nodes' lists a node twice")
    return nodes


def _read_state_names(data: dict, known: set) -> dict:
    names = {}
    for i, entry in enumerate(json_list(data["state_names"], "state_names")):
        field = f"state_names[{i}]"
        if not isinstance(entry, list) or len(entry) != 2:
            raise TypeError(f"Field {field!r} must be a pair [node, [states]]")
        v = node_ref(entry[0], known, f"{field}[0]")
        states = [state_value(s, f"{field}[1][{j}]") for j, s in enumerate(json_list(entry[1], f"{field}[1]"))]
        if v in names:
            raise ValueError(f"Field {field!r} repeats the states of {v!r}")
        if not states or len({(type(s), s) for s in states}) != len(states) or len(set(states)) != len(states):
            raise ValueError(f"Field {field!r} must list distinct states of {v!r}")
        names[v] = states
    return names


def _read_edges(data: dict, known: set) -> list[tuple]:
    edges = []
    for i, edge in enumerate(json_list(data["edges"], "edges")):
        if not isinstance(edge, list) or len(edge) != 2:
            raise TypeError(f"Field 'edges[{i}]' must be a pair [u, v]")
        u, v = (node_ref(w, known, f"edges[{i}]") for w in edge)
        if u == v:
            raise ValueError(f"Field 'edges[{i}]' is a self-loop on {u!r}")
        edges.append((u, v))
    return edges


def _check_cliques(nodes: list, edges: list[tuple], names: dict, max_cells: int) -> None:
    """Refuse a repeated edge, a graph that is not decomposable, or a clique of more than ``max_cells`` cells."""
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    if graph.number_of_edges() != len(edges):
        raise ValueError("Field 'edges' lists an edge twice")
    try:
        cliques, _ = decompose(graph)
    except ValueError as err:
        raise ValueError(f"Field 'edges': {err}") from None
    for clique in cliques:
        size = cell_count(len(names.get(v, (0, 1))) for v in clique)
        if size > max_cells:
            raise ValueError(f"Field 'state_names': clique {clique} would have {size:,} configurations, more than "
                             f"max_cells={max_cells:,}")


def _read_strata(data: dict, known: set) -> dict:
    strata = {}
    for i, entry in enumerate(json_list(data["strata"], "strata")):
        field = f"strata[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"edge", "contexts"}:
            raise ValueError(f"Field {field!r} must be an object with exactly the keys 'edge' and 'contexts'")
        edge = json_list(entry["edge"], f"{field}.edge")
        if len(edge) != 2:
            raise ValueError(f"Field '{field}.edge' must be a pair [u, v]")
        u, v = (node_ref(w, known, f"{field}.edge") for w in edge)
        strata[(u, v)] = [_read_context(context, known, f"{field}.contexts[{j}]")
                          for j, context in enumerate(json_list(entry["contexts"], f"{field}.contexts"))]
    return strata


def _read_context(context, known: set, field: str) -> dict:
    pairs = {}
    for pair in json_list(context, field):
        if not isinstance(pair, list) or len(pair) != 2:
            raise TypeError(f"Field {field!r} must hold [node, state] pairs")
        pairs[node_ref(pair[0], known, field)] = state_value(pair[1], field)
    return pairs


def _read_factor(entry, i: int, model: StratifiedGraphicalModel) -> CliqueFactor:
    field = f"parameters[{i}]"
    if not isinstance(entry, dict):
        raise TypeError(f"Field {field!r} must be an object; got {type(entry).__name__}")
    unknown = [k for k in entry if k not in _FACTOR_KEYS]
    missing = [k for k in _FACTOR_KEYS if k not in entry]
    if unknown or missing:
        raise ValueError(f"Field {field!r} has unknown keys {unknown} and missing keys {missing}")
    known = set(model.nodes())
    parts = {}
    for key in ("clique", "separator", "new", "parents"):
        parts[key] = tuple(node_ref(w, known, f"{field}.{key}") for w in json_list(entry[key], f"{field}.{key}"))
    for key in ("center", "labelled_center"):
        parts[key] = None if entry[key] is None else node_ref(entry[key], known, f"{field}.{key}")
    center = parts["center"]
    group_ids = None
    if entry["group_ids"] is not None:
        group_ids = json_list(entry["group_ids"], f"{field}.group_ids")
        if any(isinstance(g, bool) or not isinstance(g, int) or g < 0 for g in group_ids):
            raise TypeError(f"Field '{field}.group_ids' must hold non-negative integers")
        group_ids = tuple(group_ids)
    if (center is None) != (group_ids is None) or (center is None) != (entry["group_values"] is None):
        raise ValueError(f"Field '{field}': center, group_ids and group_values must be all null or all given")
    step = CliqueFactor(parts["clique"], parts["separator"], parts["new"], center, parts["parents"], group_ids,
                        labelled_center=parts["labelled_center"])
    cards = [len(model.states(w)) for w in step.table_variables]
    table = probabilities(entry["table"], cell_count(cards), f"{field}.table").reshape(cards)
    values = None
    if center is not None:
        n_configs = cell_count(len(model.states(w)) for w in step.parents)
        if len(group_ids) != n_configs:
            raise ValueError(f"Field '{field}.group_ids' must hold {n_configs} group ids; got {len(group_ids)}")
        n_groups = max(group_ids) + 1 if group_ids else 0
        rows = json_list(entry["group_values"], f"{field}.group_values")
        k = len(model.states(center))
        if len(rows) != k:
            raise ValueError(f"Field '{field}.group_values' must have {k} rows (states of {center!r}); got {len(rows)}")
        values = np.stack([probabilities(r, n_groups, f"{field}.group_values[{j}]") for j, r in enumerate(rows)])
    return step.with_values(table, values)


def from_json_dict(data: dict, max_cells: int = DEFAULT_MAX_CELLS) -> StratifiedGraph:
    """Rebuild a graph or model from :func:`to_json_dict` output, checking the schema.

    Raises
    ------
    TypeError
        If a field has the wrong type (the message names it).
    ValueError
        On unknown or missing keys, a wrong format or version, unknown nodes, inconsistent
        sizes, declared tables beyond ``max_cells``, excessive nesting, or invalid
        probabilities (the message names the field).

    Examples
    --------
    >>> sg = StratifiedGraph([("a", "b")], state_names={"a": [1.5, 2.5]})
    >>> from_json_dict(to_json_dict(sg)).states("a")
    (1.5, 2.5)
    >>> from_json_dict({**to_json_dict(sg), "colour": "red"})
    Traceback (most recent call last):
        ...
    ValueError: Unknown field(s) ['colour'] in the JSON document
    """
    if not isinstance(data, dict):
        raise TypeError(f"The JSON document must be an object; got {type(data).__name__}")
    _depth(data, MAX_DEPTH)
    if data.get("type") == "LabeledBayesianNetwork":
        raise ValueError("The JSON document holds a labelled DAG (type 'LabeledBayesianNetwork'); read it with "
                         "read_ldag_json")
    unknown = [k for k in data if k not in _TOP_KEYS]
    if unknown:
        raise ValueError(f"Unknown field(s) {unknown} in the JSON document")
    if data.get("format") != FORMAT:
        raise ValueError(f"Field 'format' must be {FORMAT!r}; got {data.get('format')!r}")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise TypeError(f"Field 'version' must be an integer; got {version!r}")
    if version != VERSION:
        raise ValueError(f"Field 'version' {version} is not supported (this package reads version {VERSION})")
    kind = data.get("type")
    if kind not in _TYPES:
        raise ValueError(f"Field 'type' must be one of {list(_TYPES)}; got {kind!r}")
    required = [k for k in _TOP_KEYS if k != "parameters" or kind == "StratifiedGraphicalModel"]
    missing = [k for k in required if k not in data]
    if missing:
        raise ValueError(f"Missing field(s) {missing} in the JSON document")
    if kind == "StratifiedGraph" and "parameters" in data:
        raise ValueError("Field 'parameters' is only allowed for type 'StratifiedGraphicalModel'")
    sg, _ = _read_graph(data, max_cells)
    if kind == "StratifiedGraph":
        return sg
    model = StratifiedGraphicalModel(sg)
    if data["parameters"] is None:
        return model
    factors = [_read_factor(e, i, model) for i, e in enumerate(json_list(data["parameters"], "parameters"))]
    try:
        model.set_clique_factors(factors, warn=False)
    except ValueError as err:
        model.clique_factors = []
        raise ValueError(f"Field 'parameters': {err}") from None
    return model


def read_json(path, max_bytes: int = DEFAULT_MAX_BYTES, max_cells: int = DEFAULT_MAX_CELLS) -> StratifiedGraph:
    """Read a graph or model written by :func:`write_json`.

    Parameters
    ----------
    path : str or path-like
    max_bytes : int, default=64 MiB
        Refuse larger files.
    max_cells : int, default=10_000_000
        Refuse cliques whose configurations exceed this.

    Examples
    --------
    >>> import tempfile, os
    >>> from pgmpy_sgm.models import StratifiedGraphicalModel
    >>> model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")], state_names={"b": [True, False]}), seed=0)
    >>> path = os.path.join(tempfile.mkdtemp(), "model.json")
    >>> write_json(model, path)
    >>> read_json(path) == model
    True
    """
    return from_json_dict(load_json_document(path, max_bytes), max_cells=max_cells)


def load_json_document(path, max_bytes: int = DEFAULT_MAX_BYTES):
    """The parsed JSON of a model file, with one-line errors naming the file (size, encoding, syntax).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "m.json")
    >>> _ = open(path, "w").write('{"format": "x"')
    >>> load_json_document(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: '...m.json' is not valid JSON: ...
    """
    check_path(path)
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        raise ValueError(f"max_bytes must be a positive integer. Got: {max_bytes!r}")
    if os.path.isdir(path):
        raise IsADirectoryError(f"Cannot read {str(path)!r}: it is a directory, not a JSON model file")
    if not os.path.exists(path):
        raise FileNotFoundError(f"No such model file: {str(path)!r}")
    size = os.path.getsize(path)
    if size > max_bytes:
        raise ValueError(f"{str(path)!r} has {size:,} bytes, more than max_bytes={max_bytes:,}")
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except UnicodeDecodeError as err:
        raise ValueError(f"{str(path)!r} is not a JSON model file: it is not UTF-8 text (byte {err.start})") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{str(path)!r}: the JSON document is nested too deeply") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"{str(path)!r} is not valid JSON: {err}") from None


# -- BIF / XMLBIF ----------------------------------------------------------------------------
def _network_for_export(model):

    if not isinstance(model, StratifiedGraphicalModel):
        raise TypeError(f"Expected a StratifiedGraphicalModel with parameters; got {type(model).__name__}")
    for v in model.nodes():
        if not isinstance(v, str) or not _BIF_NAME.match(v):
            raise ValueError(f"Variable name {v!r} cannot be written to BIF/XMLBIF: use letters, digits, '_', '-', '.'")
        texts = [str(s) for s in model.states(v)]
        bad = [t for t in texts if not _BIF_NAME.match(t)]
        if bad or len(set(texts)) != len(texts):
            raise ValueError(f"States {list(model.states(v))} of {v!r} cannot be written to BIF/XMLBIF: as text they "
                             "must be distinct and use letters, digits, '_', '-', '.'")
    bn = model.to_bayesian_network()
    network = DiscreteBayesianNetwork()
    network.add_nodes_from(bn.nodes())
    network.add_edges_from(bn.edges())
    network.add_cpds(*[c.to_tabular() if isinstance(c, TreeCPD) else c for c in bn.get_cpds()])
    return network


def write_bif(model: StratifiedGraphicalModel, path, overwrite: bool = False) -> None:
    """Write the model's Bayesian network as BIF with pgmpy's ``BIFWriter`` (atomically).

    TreeCPDs are written as full tables; probabilities with ``repr`` precision, so pgmpy's
    ``BIFReader`` reads them back exactly. BIF stores states as text: ``0`` comes back as ``"0"``
    (``BIFReader(...).get_model(state_name_type=int)`` restores integer states).

    Examples
    --------
    >>> import tempfile, os
    >>> from pgmpy.readwrite import BIFReader
    >>> from pgmpy_sgm.models import StratifiedGraphicalModel
    >>> model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")]), seed=0)
    >>> path = os.path.join(tempfile.mkdtemp(), "model.bif")
    >>> write_bif(model, path)
    >>> sorted(BIFReader(path).get_model().edges())
    [('a', 'b')]
    """
    atomic_write_text(path, str(BIFWriter(_network_for_export(model))), overwrite)


def write_xmlbif(model: StratifiedGraphicalModel, path, overwrite: bool = False) -> None:
    """Write the model's Bayesian network as XMLBIF with pgmpy's ``XMLBIFWriter`` (atomically).

    Examples
    --------
    >>> import tempfile, os
    >>> from pgmpy.readwrite import XMLBIFReader
    >>> from pgmpy_sgm.models import StratifiedGraphicalModel
    >>> model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")]), seed=0)
    >>> path = os.path.join(tempfile.mkdtemp(), "model.xml")
    >>> write_xmlbif(model, path)
    >>> sorted(XMLBIFReader(path).get_model().edges())
    [('a', 'b')]
    """
    atomic_write_text(path, str(XMLBIFWriter(_network_for_export(model))), overwrite)
