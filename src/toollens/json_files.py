"""Read a tool, a schema or a tool list from a JSON file, with one error policy: a missing or
unreadable file, JSON that does not parse (its line and column) and a top level that is no
tool each raise :class:`~toollens.core.errors.TargetError` naming the file and what to do.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from toollens.core.errors import TargetError, ToolLensError, one_line
from toollens.core.schema.given import parse_schema_text
from toollens.core.schema.types import JsonObject
from toollens.mcp.records import is_mcp_tool

__all__ = ["load_json_file", "load_json_value"]


def load_json_file(path: str | os.PathLike[str], *, shown: str | None = None) -> JsonObject:
    """Read a JSON Schema or a provider tool payload from a file.

    Raises:
        TargetError: the file is missing or unreadable, is not JSON (line and column are
            given), or its top level is not an object.
    """
    label = shown if shown is not None else os.fspath(path)
    data = _read_bytes(Path(path), label)
    try:
        return parse_schema_text(data)
    except ToolLensError as exc:
        raise TargetError(f"{label}: {exc.message}", pointer=exc.pointer, hint=exc.hint) from exc


def load_json_value(
    path: str | os.PathLike[str], *, shown: str | None = None
) -> JsonObject | list[object]:
    """Read a tool list from a file: a payload object (``{"tools": [...]}``, a schema) or a
    bare JSON list of tools (what a request's ``tools`` holds). One MCP tool on its own
    (``{"name", "inputSchema"}``) is the list of that tool, so it is judged as in a list.

    Raises:
        TargetError: as :func:`load_json_file`; the top level is neither an object nor a list.
    """
    label = shown if shown is not None else os.fspath(path)
    data = _read_bytes(Path(path), label)
    if data.lstrip()[:1] != b"[":  # an object (or not JSON): read and refused as before
        found = load_json_file(path, shown=shown)
        return [found] if is_mcp_tool(found) else found
    try:
        value = json.loads(data)
    except json.JSONDecodeError as exc:
        raise TargetError(
            f"{label}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            hint="fix the JSON syntax there",
        ) from exc
    except (ValueError, RecursionError) as exc:  # not UTF-8, or nested too deeply
        raise TargetError(f"{label}: cannot be read as JSON ({one_line(exc)})") from exc
    if not isinstance(value, list):  # "[" then junk is a decode error above; kept for mypy
        raise TargetError(f"{label}: a tool list must be a JSON list or object")
    if value and not any(isinstance(item, Mapping) for item in value):
        raise TargetError(
            f"{label} holds a JSON list with no tool in it; a tool must be an object "
            "(a JSON schema too)",
            hint="write the tools as objects, or the schema as one object",
        )
    return value


# The bytes of the files read lately, by path, change time and size: a command reads its
# target once though several steps look at it (is it a tool list? an MCP list? which
# provider is it written for?), and a file written since is read again.
_READ: dict[tuple[str, int, int], bytes] = {}
_READ_KEPT = 4


def _read_bytes(file: Path, label: str) -> bytes:
    try:
        stat = file.stat()
    except OSError:
        stat = None
    key = (os.fspath(file.resolve()), stat.st_mtime_ns, stat.st_size) if stat else None
    if key is not None and key in _READ:
        return _READ[key]
    data = _read_file(file, label)
    if key is not None:
        while len(_READ) >= _READ_KEPT:
            del _READ[next(iter(_READ))]
        _READ[key] = data
    return data


def _read_file(file: Path, label: str) -> bytes:
    if not file.is_file():
        raise TargetError(
            f"file {label!r} does not exist" if not file.exists() else f"{label!r} is not a file",
            hint="check the path (it is relative to the working directory)",
        )
    try:
        return file.read_bytes()
    except OSError as exc:
        raise TargetError(f"cannot read {label!r}: {exc.strerror or exc}") from exc
