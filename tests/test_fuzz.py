"""Fuzzing: mutated JSON model files and malformed data frames raise only the documented errors.

``read_json`` documents ``ValueError`` (JSON decode errors included, as ``json.JSONDecodeError``
is a ``ValueError``) and ``TypeError``; ``EncodedData`` and ``SGMScore`` document ``ValueError``
and ``TypeError``. Any other exception type is a bug. Every case is generated from a fixed seed,
so a failure names the case that reproduces it.
"""

from __future__ import annotations

import copy
import decimal
import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm import SGMScore, StratifiedGraph
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.models import StrataNotShownWarning, StratifiedGraphicalModel
from pgmpy_sgm.readwrite import read_json, write_json

N_CASES = 1000
DOCUMENTED = (ValueError, TypeError)


# -- JSON model files --------------------------------------------------------------------------
def _valid_documents(folder) -> list[str]:
    """Texts written by ``write_json`` for a stratified graph and for a fitted model."""
    sg = StratifiedGraph(
        [("a", "b"), ("a", "c"), ("b", "c"), ("c", "d")],
        strata={("b", "c"): [{"a": "lo"}]},
        state_names={"a": ["lo", "hi"], "d": [0, 1, 2]},
    )
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"a": rng.choice(["lo", "hi"], 200), "b": rng.integers(0, 2, 200),
                         "c": rng.integers(0, 2, 200), "d": rng.integers(0, 3, 200)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrataNotShownWarning)
        model = StratifiedGraphicalModel(sg).fit(data)
    texts = []
    for i, obj in enumerate((sg, model)):
        path = folder / f"valid{i}.json"
        write_json(obj, path)
        texts.append(path.read_text(encoding="utf-8"))
    return texts


_ODD_VALUES = [
    None, True, False, 0, -1, 1.5, 2**64, 10**400, -(10**30), "", "x" * 1000, "\u2603\U0001f600\x00", [], {},
    [[]], {"a": 1}, [None], ["a", "a"], list(range(50)), float("nan"), float("inf"), -0.0,
]
_TOKENS = ["NaN", "Infinity", "-Infinity", "1e999999", "-1e999999", "123456789012345678901234567890", "null",
           "true", '"\\ud800"', '"\\u0000"', "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
           "{}", "[]", '"a"', "-0", "1e-400"]


def _paths(obj, prefix=()):
    """Every (path, value) inside a JSON value, the root included."""
    yield prefix, obj
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _paths(value, prefix + (i,))


def _set(root, path, value):
    if not path:
        return value
    parent = root
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return root


def _nest(value, depth):
    for _ in range(depth):
        value = [value]
    return value


def _mutate_structure(doc, rng):
    paths = list(_paths(doc))
    for _ in range(int(rng.integers(1, 4))):
        path, value = paths[int(rng.integers(len(paths)))]
        kind = int(rng.integers(7))
        if kind == 0 and path:  # delete a key or an item
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            del parent[path[-1]]
            return doc
        if kind == 1:  # replace by an odd value
            doc = _set(doc, path, copy.deepcopy(_ODD_VALUES[int(rng.integers(len(_ODD_VALUES)))]))
        elif kind == 2:  # swap with another value of the document
            other = paths[int(rng.integers(len(paths)))][1]
            doc = _set(doc, path, copy.deepcopy(other))
        elif kind == 3:  # deep nesting
            return _set(doc, path, _nest(value, int(rng.choice([5, 20, 200]))))  # text mutations nest deeper
        elif kind == 4:  # huge or tiny numbers
            doc = _set(doc, path, [2**31, 2**63, 10**18, 1e308, -1e308, 5e-324][int(rng.integers(6))])
        elif kind == 5 and isinstance(value, list):  # duplicate or drop items
            doc = _set(doc, path, value + value if rng.random() < 0.5 else value[: len(value) // 2])
        elif kind == 6:  # type change: wrap in / unwrap from a list, stringify
            doc = _set(doc, path, [value] if rng.random() < 0.5 else json.dumps(value, allow_nan=True))
        paths = list(_paths(doc))
    return doc


def _mutate_text(text, rng):
    kind = int(rng.integers(5))
    if kind == 0:  # truncate
        return text[: int(rng.integers(len(text)))]
    if kind == 1:  # insert a token where a number or string starts
        starts = [i for i, ch in enumerate(text) if ch in '"0123456789-']
        i = starts[int(rng.integers(len(starts)))]
        end = i + 1
        while end < len(text) and text[end] not in ",]}":
            end += 1
        return text[:i] + _TOKENS[int(rng.integers(len(_TOKENS)))] + text[end:]
    if kind == 2:  # flip one character
        i = int(rng.integers(len(text)))
        return text[:i] + chr(int(rng.choice([0, 34, 44, 91, 93, 123, 125, 0x2603, 0xD7FF]))) + text[i + 1:]
    if kind == 3:  # nest the whole document
        depth = int(rng.choice([17, 1000, 100_000]))
        return "[" * depth + text + "]" * depth
    return text.replace('"', "'", int(rng.integers(1, 4)))  # not JSON quotes


def _json_cases(texts, rng):
    for case in range(N_CASES):
        text = texts[case % len(texts)]
        if rng.random() < 0.6:
            doc = _mutate_structure(json.loads(text), rng)
            yield case, json.dumps(doc, allow_nan=True)
        else:
            yield case, _mutate_text(text, rng)


def test_mutated_json_model_files_raise_only_documented_errors(tmp_path):
    texts = _valid_documents(tmp_path)
    rng = np.random.default_rng(20240601)
    outcomes = {"ok": 0, "ValueError": 0, "TypeError": 0}
    path = tmp_path / "mutated.json"
    for case, text in _json_cases(texts, rng):
        path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        try:
            model = read_json(path)
        except DOCUMENTED as err:
            outcomes["TypeError" if isinstance(err, TypeError) else "ValueError"] += 1
            assert str(err), f"case {case}: empty message"
            continue
        except Exception as err:  # noqa: BLE001 - any other type is the bug under test
            pytest.fail(f"case {case}: read_json raised {type(err).__name__}: {err}\n{text[:300]}")
        assert isinstance(model, StratifiedGraph), f"case {case}"
        assert model.check_model(), f"case {case}"
        outcomes["ok"] += 1
    # the mutations reach both the schema checks and the decoder, and some survive
    assert outcomes["ValueError"] > 100 and outcomes["TypeError"] > 50 and outcomes["ok"] > 0, outcomes


# -- malformed data frames ---------------------------------------------------------------------
class _Unhashable:
    __hash__ = None

    def __eq__(self, other):
        return self is other


def _objects(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


_COLUMN_KINDS = [
    lambda rng, n: rng.integers(0, 3, n),
    lambda rng, n: rng.integers(-(2**62), 2**62, n),
    lambda rng, n: rng.choice(["lo", "mid", "hi", "", "\u2603"], n),
    lambda rng, n: rng.random(n) < 0.5,
    lambda rng, n: rng.normal(size=n),
    lambda rng, n: np.where(rng.random(n) < 0.2, np.nan, rng.integers(0, 2, n).astype(float)),
    lambda rng, n: np.where(rng.random(n) < 0.2, np.inf, rng.integers(0, 2, n).astype(float)),
    lambda rng, n: rng.integers(0, 2, n) + 0.5,
    lambda rng, n: pd.Categorical(rng.choice(["x", "y"], n), categories=["y", "x", "unused"]),
    lambda rng, n: pd.array(np.where(rng.random(n) < 0.3, None, rng.integers(0, 2, n)), dtype="Int64"),
    lambda rng, n: pd.array(rng.choice(["a", "b"], n), dtype="string"),
    lambda rng, n: np.array([[1, "1", 1.0, True, None, b"1"][int(i)] for i in rng.integers(0, 6, n)], dtype=object),
    lambda rng, n: _objects([[[0], {"k": 1}, {1, 2}, (1, [2]), _Unhashable()][int(i)] for i in rng.integers(0, 5, n)]),
    lambda rng, n: _objects([(int(i), "t") for i in rng.integers(0, 2, n)]),
    lambda rng, n: np.array([decimal.Decimal(int(i)) for i in rng.integers(0, 2, n)], dtype=object),
    lambda rng, n: np.array([complex(int(i), 1) for i in rng.integers(0, 2, n)], dtype=object),
    lambda rng, n: pd.to_datetime(rng.integers(0, 3, n), unit="D"),
    lambda rng, n: np.array([float("nan")] * n),
    lambda rng, n: np.full(n, 7),
    lambda rng, n: np.arange(n) % 300,
    lambda rng, n: np.array([pd.NA if i else 0 for i in rng.integers(0, 2, n)], dtype=object),
]
_NAMES = ["a", "b", "c", "d", "", " ", "\u2603", "a.b", "0"]
_ODD_NAMES = [0, 1.5, None, ("t",), True]


def _random_frame(rng):
    n_rows = int(rng.choice([0, 1, 2, 5, 30]))
    n_cols = int(rng.integers(0, 5))
    columns = {}
    names = []
    for _ in range(n_cols):
        r = rng.random()
        name = _ODD_NAMES[int(rng.integers(len(_ODD_NAMES)))] if r < 0.05 else _NAMES[int(rng.integers(len(_NAMES)))]
        names.append(name)
        kind = _COLUMN_KINDS[int(rng.integers(len(_COLUMN_KINDS)))] if rng.random() < 0.5 else _COLUMN_KINDS[0]
        columns[len(columns)] = kind(rng, n_rows)
    frame = pd.DataFrame(columns, index=range(n_rows))
    if n_cols:
        frame.columns = names  # may repeat names
    return frame


def _random_kwargs(rng, frame):
    kwargs = {}
    r = rng.random()
    n = len(frame)
    weights = [None, "count", "a", list(rng.integers(0, 3, n)), [1.5] * n, [-1] * n, [1] * (n + 1), ["x"] * n,
               [np.nan] * n, [np.inf] * n, [2**70] * n, np.ones((n, 2)), 3, [None] * n, [True] * n]
    if r < 0.4:
        kwargs["weights"] = weights[int(rng.integers(len(weights)))]
    if rng.random() < 0.3:
        names = [{"a": [0, 1]}, {"a": [0]}, {"a": "01"}, {"a": [0, 0]}, {"zz": [1]}, ["a"], {"a": [[0], 1]},
                 {"a": {0: 1}}, {"a": None}, {"a": [0, 1, 2, "lo", "mid", "hi", "", "\u2603", True, 1.5]}]
        kwargs["state_names"] = names[int(rng.integers(len(names)))]
    if rng.random() < 0.2:
        kwargs["max_cells"] = [1, 0, -5, 10**30, "10", 2.5][int(rng.integers(6))]
    return kwargs


def test_malformed_frames_raise_only_documented_errors():
    rng = np.random.default_rng(7)
    outcomes = {"ok": 0, "error": 0}
    for case in range(N_CASES):
        frame = _random_frame(rng)
        kwargs = _random_kwargs(rng, frame)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # a warning from numpy/pandas is a missed check too
                enc = EncodedData(frame, **kwargs)
                for k in range(len(enc.variables) + 1):
                    table = enc.counts(enc.variables[:k])
                    assert math.isclose(float(np.sum(table)), enc.n, rel_tol=1e-9), f"case {case}"
                scorer = SGMScore(frame, **kwargs)
                chain = list(zip(scorer.variables, scorer.variables[1:], strict=False))
                value = scorer.score(StratifiedGraph(chain, nodes=scorer.variables))
                assert math.isfinite(value), f"case {case}: score {value}"
        except DOCUMENTED as err:
            assert str(err), f"case {case}: empty message"
            outcomes["error"] += 1
            continue
        except Exception as err:  # noqa: BLE001 - any other type is the bug under test
            pytest.fail(f"case {case}: {type(err).__name__}: {err}\ncolumns {list(frame.columns)} "
                        f"dtypes {list(frame.dtypes)} kwargs {kwargs}")
        assert enc.n > 0 and np.isfinite(enc.n)
        outcomes["ok"] += 1
    assert outcomes["ok"] > 100 and outcomes["error"] > 100, outcomes
