"""No function in ``src/`` longer than about a screen, no class longer than about three.

A unit is measured from its first statement after the docstring to its last line, so a
docstring that explains a function does not count against it (comments and blank lines do).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "toollens"
LIMITS = {"function": 60, "class": 200}


def _body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    body = node.body
    first = body[0]
    is_docstring = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
    if is_docstring and len(body) > 1:
        first = body[1]
    end = node.end_lineno or node.lineno
    return end - first.lineno + 1


def _units() -> Iterator[tuple[str, str, int]]:
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                kind = "class"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "function"
            else:
                continue
            where = f"{path.relative_to(SRC.parent)}:{node.lineno} {node.name}"
            yield kind, where, _body_lines(node)


def test_the_measure_counts_a_body_without_its_docstring() -> None:
    tree = ast.parse('def f():\n    """Doc.\n\n    More.\n    """\n    a = 1\n    return a\n')
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    assert _body_lines(node) == 2


def test_the_source_tree_is_found() -> None:
    assert sum(1 for _ in _units()) > 500


@pytest.mark.parametrize("kind", sorted(LIMITS))
def test_no_unit_is_too_long(kind: str) -> None:
    limit = LIMITS[kind]
    too_long = [
        f"{where} ({lines} lines)" for k, where, lines in _units() if k == kind and lines > limit
    ]
    assert not too_long, f"{kind}s over {limit} lines; split them:\n" + "\n".join(too_long)


MODULE_LIMIT = 500  # lines; split a module along its concepts before it grows past this


def test_no_module_is_too_long() -> None:
    too_long = [
        f"{path.relative_to(SRC.parent)} ({lines} lines)"
        for path in sorted(SRC.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LIMIT
    ]
    assert not too_long, f"modules over {MODULE_LIMIT} lines; split them:\n" + "\n".join(too_long)
