"""Count public functions whose signature mentions ``Any`` (issue 26's measure).

A function is public when its name, its class's name (if any) and its module's name do not
start with an underscore. Its signature mentions ``Any`` when a parameter or return
annotation contains the name ``Any`` (``dict[str, Any]`` included). Run it from the
repository root: ``python scripts/count_any.py [--list] [--aliases]`` (``--list`` marks a
function whose ``Any`` has no ``# Any: why`` comment).

``--aliases`` also counts the names in ``toollens.core.schema.types`` whose values are
``Any`` by design (``JsonSchema``, ``JsonObject``, ``JsonMapping``, ``ToolFunction``), so
both figures can be reported: ``Any`` written out, and ``Any`` behind a named alias.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "toollens"
ANY_ALIASES = frozenset({"JsonSchema", "JsonObject", "JsonMapping", "ToolFunction"})


def _mentions_any(node: ast.expr | None, names: frozenset[str] = frozenset({"Any"})) -> bool:
    if node is None:
        return False
    return any(
        (isinstance(sub, ast.Name) and sub.id in names)
        or (isinstance(sub, ast.Attribute) and sub.attr in names)
        or (
            isinstance(sub, ast.Constant)
            and isinstance(sub.value, str)
            and any(n in sub.value for n in names)
        )
        for sub in ast.walk(node)
    )


def _annotations(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr | None]:
    args = fn.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        yield arg.annotation
    for arg in (args.vararg, args.kwarg):
        if arg is not None:
            yield arg.annotation
    yield fn.returns


def _public_functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if not node.name.startswith("_"):
                yield node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                is_fn = isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                if is_fn and not item.name.startswith("_"):
                    yield item


def functions_with_any(
    names: frozenset[str] = frozenset({"Any"}),
) -> tuple[int, list[tuple[Path, ast.FunctionDef | ast.AsyncFunctionDef]]]:
    """How many public functions there are, and those whose signature mentions ``names``."""
    total, found = 0, []
    for path in sorted(SOURCE.rglob("*.py")):
        if any(part.startswith("_") and part != "__init__.py" for part in path.parts[-2:]):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in _public_functions(tree):
            total += 1
            if any(_mentions_any(a, names) for a in _annotations(fn)):
                found.append((path, fn))
    return total, found


def is_justified(path: Path, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a ``# Any: why`` comment sits above the function (or its decorators) or on
    a line of its signature."""
    lines = path.read_text(encoding="utf-8").splitlines()
    first = min([fn.lineno, *(d.lineno for d in fn.decorator_list)]) - 1
    body = fn.body[0].lineno - 1
    above = first - 1
    while above >= 0 and lines[above].lstrip().startswith("#"):
        above -= 1
    return any("# Any:" in line for line in lines[above + 1 : body])


def main(argv: list[str]) -> int:
    names = frozenset({"Any"} | (ANY_ALIASES if "--aliases" in argv else set()))
    total, found = functions_with_any(names)
    if "--list" in argv:
        for path, fn in found:
            mark = "" if is_justified(path, fn) else "  (no '# Any:' comment)"
            print(f"{path.relative_to(SOURCE)}:{fn.lineno} {fn.name}{mark}")
    what = "Any or an Any-valued alias" if "--aliases" in argv else "Any"
    print(f"{len(found)} of {total} public functions have {what} in their signature")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
