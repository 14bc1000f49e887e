"""Structure metrics of a source tree of the package (printed as text, or as JSON with ``--json``).

Usage::

    python benchmarks/code_metrics.py [TREE] [--json]

``TREE`` is a checkout of the repository (default: this one); the package under
``TREE/pgmpy_sgm`` is read with :mod:`ast` (nothing is imported). Reported:

* *code lines* of a function: the lines of its body that hold code (blank lines, comment
  lines and docstrings excluded; a nested function counts in its enclosing one too);
* the longest functions, and the functions over 50 code lines;
* modules over 600 lines (all lines of the file);
* imports inside functions (``import``/``from ... import`` statements in a function body);
* cross-module private reach-ins: ``from module import _name`` of a private function, class
  or variable (not a private module) of another module, and ``obj._name`` where ``obj`` is
  not ``self``/``cls`` and ``_name`` is defined nowhere in the reading module;
* the constructor parameters of ``NonReversibleMCMC`` and ``LDAGSearch``;
* process-global caches: module-level containers created empty (``{}``, ``[]``, ``set()``,
  ``dict()``, ``OrderedDict()``, ...) and module-level functions decorated with
  ``functools.cache``/``lru_cache``.
"""

from __future__ import annotations

import ast
import io
import json
import sys
import tokenize
from pathlib import Path

LONG_FUNCTION = 50
LONG_MODULE = 600
LEARNERS = ("NonReversibleMCMC", "LDAGSearch")
_EMPTY_CALLS = {"dict", "list", "set", "OrderedDict", "defaultdict", "WeakValueDictionary", "WeakKeyDictionary"}
_CACHE_DECORATORS = {"cache", "lru_cache"}
#: Private names of the standard library that are its documented API.
_DOCUMENTED = {"_exit", "_getframe", "_asdict", "_replace", "_fields", "_make"}


def _code_lines(source: str) -> set[int]:
    """Line numbers holding code tokens (not comments, not blank)."""
    lines: set[int] = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skip:
            lines.update(range(token.start[0], token.end[0] + 1))
    return lines


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def _defined_names(tree: ast.AST) -> set[str]:
    """Names a module defines: functions, classes, arguments, assignment targets, attributes it assigns."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
    return names


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_of(root: Path, module: str | None, level: int, here: Path) -> Path | None:
    if level:
        base = here.parent
        for _ in range(level - 1):
            base = base.parent
        parts = module.split(".") if module else []
    else:
        if not module or not module.startswith("pgmpy_sgm"):
            return None
        base, parts = root, module.split(".")
    return base.joinpath(*parts) if parts else base


def _is_module(target: Path | None, name: str) -> bool:
    return target is not None and ((target / f"{name}.py").exists() or (target / name / "__init__.py").exists())


def analyse_module(root: Path, path: Path) -> dict:
    """The metrics of one module."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    code = _code_lines(source) - _docstring_lines(tree)
    rel = str(path.relative_to(root))
    defined = _defined_names(tree)
    functions, imports_inside, reach_ins, caches, learners = [], [], [], [], {}

    def visit(node, scope: str, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{scope}{child.name}"
                n = len([i for i in range(child.lineno, child.end_lineno + 1) if i in code])
                functions.append({"function": f"{rel}:{name}", "code_lines": n})
                visit(child, f"{name}.", True)
            elif isinstance(child, ast.ClassDef):
                if child.name in LEARNERS:
                    for item in child.body:
                        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                            learners[child.name] = _constructor_parameters(item.args)
                visit(child, f"{scope}{child.name}.", in_function)
            else:
                if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                    imports_inside.append(f"{rel}:{child.lineno}")
                visit(child, scope, in_function)

    visit(tree, "", False)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _module_of(root, node.module, node.level, path)
            if target is None:
                continue
            for alias in node.names:
                if _private(alias.name) and not _is_module(target, alias.name):
                    reach_ins.append(f"{rel}:{node.lineno} from {node.module or '.'} import {alias.name}")
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in defined | _DOCUMENTED:
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                reach_ins.append(f"{rel}:{node.lineno} {ast.unparse(owner)}.{node.attr}")
    for node in tree.body:
        value, targets = None, []
        if isinstance(node, ast.Assign):
            value, targets = node.value, [t for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
            value, targets = node.value, [node.target]
        elif isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                func = deco.func if isinstance(deco, ast.Call) else deco
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in _CACHE_DECORATORS:
                    caches.append(f"{rel}:{node.lineno} @{name} {node.name}")
        empty = (isinstance(value, ast.Dict) and not value.keys) or (
            isinstance(value, ast.List | ast.Set) and not value.elts
        )
        if isinstance(value, ast.Call) and not value.args:
            func = value.func
            empty = (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in _EMPTY_CALLS
        if empty and not targets[0].id.startswith("__") if targets else False:
            caches.extend(f"{rel}:{node.lineno} {t.id}" for t in targets)
    return {
        "lines": len(source.splitlines()),
        "functions": functions,
        "imports_inside": imports_inside,
        "reach_ins": reach_ins,
        "caches": caches,
        "learners": learners,
    }


def analyse(tree_root: Path) -> dict:
    """The metrics of the package under ``tree_root/pgmpy_sgm``."""
    root = tree_root.resolve()
    modules = {p: analyse_module(root, p) for p in sorted((root / "pgmpy_sgm").rglob("*.py"))}
    functions = sorted((f for m in modules.values() for f in m["functions"]), key=lambda f: -f["code_lines"])
    return {
        "tree": str(root),
        "longest_functions": functions[:10],
        "functions_over_50": [f for f in functions if f["code_lines"] > LONG_FUNCTION],
        "modules_over_600": {
            str(p.relative_to(root)): m["lines"] for p, m in modules.items() if m["lines"] > LONG_MODULE
        },
        "imports_inside_functions": [i for m in modules.values() for i in m["imports_inside"]],
        "private_reach_ins": [r for m in modules.values() for r in m["reach_ins"]],
        "constructor_parameters": {k: v for m in modules.values() for k, v in m["learners"].items()},
        "process_global_caches": [c for m in modules.values() for c in m["caches"]],
    }


def _constructor_parameters(args: ast.arguments) -> str:
    """``"N"``, or ``"N (+k deprecated)"`` when ``k`` parameters default to ``"deprecated"`` (kept for old callers)."""
    defaults = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    n_deprecated = sum(isinstance(d, ast.Constant) and d.value == "deprecated" for d in defaults)
    n = len(args.args) - 1 + len(args.kwonlyargs) - n_deprecated
    return f"{n} (+{n_deprecated} deprecated)" if n_deprecated else str(n)


def report(result: dict) -> str:
    """The metrics as text."""
    out = [f"tree: {result['tree']}", "longest functions (code lines):"]
    out += [f"  {f['code_lines']:4d}  {f['function']}" for f in result["longest_functions"]]
    out.append(f"functions over {LONG_FUNCTION} code lines: {len(result['functions_over_50'])}")
    out += [f"  {f['code_lines']:4d}  {f['function']}" for f in result["functions_over_50"]]
    out.append(f"modules over {LONG_MODULE} lines: {len(result['modules_over_600'])}")
    out += [f"  {n:5d}  {p}" for p, n in result["modules_over_600"].items()]
    for title, key in (("imports inside functions", "imports_inside_functions"),
                       ("cross-module private reach-ins", "private_reach_ins"),
                       ("process-global caches", "process_global_caches")):  # fmt: skip
        out.append(f"{title}: {len(result[key])}")
        out += [f"  {item}" for item in result[key]]
    out.append(f"constructor parameters: {result['constructor_parameters']}")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    trees = [a for a in argv if a != "--json"] or [str(Path(__file__).resolve().parent.parent)]
    result = analyse(Path(trees[0]))
    print(json.dumps(result, indent=1) if as_json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
