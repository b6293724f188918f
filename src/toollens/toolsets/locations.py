"""Where a Python tool is written: the file and line of its ``def``, of one parameter, of its
return annotation.

Every reader that records where a tool came from (a toolset entry's origin, the project's
lock, GitHub annotations) asks these functions, so they all point at the same line.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SourceLocation", "parameter_line", "return_line", "source_location"]


@dataclass(frozen=True)
class SourceLocation:
    """Where a function is defined: its file and the line of its ``def``."""

    file: Path
    line: int


def source_location(obj: object) -> SourceLocation | None:
    """The file and ``def`` (or ``class``) line of ``obj``; ``None`` without source."""
    if not callable(obj):  # a JSON schema or any other value: no source to point at
        return None
    try:
        target = inspect.unwrap(obj)
        file = inspect.getsourcefile(target)
        lines, start = inspect.getsourcelines(target)
    except (OSError, TypeError, ValueError):  # builtins, C code, source not on disk
        return None
    if file is None:
        return None
    # getsourcelines starts at the first decorator; a reviewer wants the def line.
    offset = next((i for i, text in enumerate(lines) if text.lstrip().startswith(_HEADS)), 0)
    return SourceLocation(Path(file), max(start, 1) + offset)


_HEADS = ("def ", "async def ", "class ")


def parameter_line(obj: object, parameter: str) -> int | None:
    """The line where ``parameter`` is declared in ``obj``'s signature, if it is there."""
    found = _parse_def(obj)
    if found is None:
        return None
    func, start = found
    args = func.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    for arg in every:
        if arg is not None and arg.arg == parameter:
            return start + arg.lineno - 1
    return None


def return_line(obj: object) -> int | None:
    """The line of ``obj``'s return annotation (``-> T``), if it has one."""
    found = _parse_def(obj)
    if found is None or found[0].returns is None:
        return None
    func, start = found
    assert func.returns is not None
    return start + func.returns.lineno - 1


def _parse_def(obj: object) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, int] | None:
    if not callable(obj):
        return None
    try:
        target = inspect.unwrap(obj)
        lines, start = inspect.getsourcelines(target)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, ValueError, SyntaxError):  # no source, or a lambda mid-line
        return None
    func = next(
        (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
        None,
    )
    return None if func is None else (func, max(start, 1))
