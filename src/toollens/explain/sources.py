"""Where a place is written: the file and line of a Python tool's parameter (the spans the
explorer already has, :mod:`toollens.core.spans`), or of a key in a JSON tool list."""

from __future__ import annotations

import inspect
import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.core.metadata.provenance import Source
from toollens.core.schema.pointer import split_pointer
from toollens.core.schema.types import JsonObject
from toollens.explain.records import Part

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema
    from toollens.toolsets import Tool

__all__ = ["SourceLine", "relative_line", "source_line"]

# The candidate whose span stands for a parameter, best first: its annotation (the type is
# what providers judge), then where its description or default is written.
_PREFERRED = (Source.TYPE, Source.DOCSTRING, Source.DEFAULT)


@dataclass(frozen=True)
class SourceLine:
    """A file and a 1-based line in it."""

    file: str
    line: int

    def to_json(self) -> JsonObject:
        return {"file": self.file, "line": self.line}

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


def source_line(tool: Tool, pointer: str | None, part: Part) -> SourceLine | None:
    """Where ``pointer`` of ``tool`` is written; ``None`` when the tool has no file."""
    function = tool.function
    if function is not None and tool.report is not None and tool.report.function is not None:
        return _python_line(function, tool.report.function, pointer, part)
    if tool.origin.kind in ("json", "mcp") and os.path.isfile(tool.origin.label):
        return _json_line(tool.origin.label, tool.name, pointer)
    return None


def _python_line(
    function: object, fs: FunctionSchema, pointer: str | None, part: Part
) -> SourceLine | None:
    try:
        file = inspect.getsourcefile(function)  # type: ignore[arg-type]
        _, start = inspect.getsourcelines(function)  # type: ignore[arg-type]
    except (OSError, TypeError):  # a builtin, a class without source: no line to show
        return None
    if file is None:
        return None
    tokens = split_pointer(pointer) if pointer else []
    if part != "parameters" or len(tokens) < 2 or tokens[0] != "properties":
        return SourceLine(file, start)
    line = _parameter_line(fs, tokens[1])
    return SourceLine(file, start if line is None else start + line - 1)


def relative_line(fs: FunctionSchema, pointer: str | None) -> int | None:
    """The line of ``pointer``'s parameter in the function's own source text (1 is the
    first line ``inspect.getsource`` gives: the text the explorer's editor shows)."""
    tokens = split_pointer(pointer) if pointer else []
    if len(tokens) < 2 or tokens[0] != "properties":
        return None
    return _parameter_line(fs, tokens[1])


def _parameter_line(fs: FunctionSchema, schema_name: str) -> int | None:
    """The line (in the function's source) where the parameter is written."""
    for parameter in fs.parameters:
        if parameter.schema_name != schema_name:
            continue
        spans = {c.source: c.span for c in parameter.candidates if c.span is not None}
        for source in _PREFERRED:
            if source in spans:
                return spans[source].start_line
        return next((s.start_line for s in spans.values() if s is not None), None)
    return None


def _json_line(path: str, name: str, pointer: str | None) -> SourceLine | None:
    """The line of the tool's name in a JSON file, then of each key of ``pointer`` after it
    (keys are found in file order, the order a tool list keeps)."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    at = _find(lines, f'"name": {json.dumps(name)}', 0)
    if at is None:
        return None
    for token in split_pointer(pointer) if pointer else []:
        if token.isdigit():
            continue  # a position in a list: no key to find
        found = _find(lines, f"{json.dumps(token)}:", at)
        if found is None:
            break
        at = found
    return SourceLine(path, at + 1)


def _find(lines: list[str], needle: str, start: int) -> int | None:
    compact = needle.replace(" ", "")
    for number in range(start, len(lines)):
        if needle in lines[number] or compact in lines[number].replace(" ", ""):
            return number
    return None
