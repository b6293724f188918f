"""The check the MCP TypeScript SDK's client runs on every ``tools/list`` answer.

``Client.listTools()`` of ``@modelcontextprotocol/sdk`` parses the answer with its zod
``ListToolsResultSchema``; one tool that fails the ``ToolSchema`` fails the whole call, so a
client built on it (Gemini CLI in its own code; Claude Code, Claude Desktop and Cursor going
by the zod errors their users report) loses every tool of the server. This module restates
that schema (``dist/esm/types.js``, ``ToolSchema``, identical in SDK 1.23.0 and 1.32.2):

- ``name`` a string; ``title`` and ``description`` strings when present;
- ``inputSchema`` an object whose ``type`` is the literal ``"object"``, whose ``properties``
  (when present) is an object of objects and whose ``required`` (when present) is a list of
  strings; ``outputSchema`` the same when present;
- ``annotations`` an object when present.

Each problem is a :class:`Problem` naming the tool and the JSON pointer into the answer.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toollens.core.schema.pointer import join_pointer

__all__ = ["Problem", "SchemaPart", "iter_problems"]

SchemaPart = str  # "input" | "output" | "tool": which part of the tool the problem is in


@dataclass(frozen=True)
class Problem:
    """One place the SDK's zod schema refuses, and what it expected."""

    index: int
    tool: str
    part: SchemaPart
    keyword: str  # "type", "properties", "required" or the tool field
    pointer: str  # into the tools/list result: /tools/3/inputSchema/type
    message: str


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, Mapping) else type(value).__name__


def iter_problems(tools: Sequence[object]) -> Iterator[Problem]:
    """Every place the TypeScript SDK's ``ToolSchema`` refuses a tool of ``tools``."""
    for index, tool in enumerate(tools):
        base = join_pointer("/tools", str(index))
        name = tool.get("name") if isinstance(tool, Mapping) else None
        label = name if isinstance(name, str) and name else f"#{index}"
        if not isinstance(tool, Mapping):
            yield Problem(index, label, "tool", "tool", base, "a tool must be an object")
            continue
        yield from _fields(tool, index, label, base)
        yield from _schema(tool.get("inputSchema"), index, label, "input", base)
        if "outputSchema" in tool:  # optional, but null is refused like any non-object
            yield from _schema(tool["outputSchema"], index, label, "output", base)


def _fields(tool: Mapping[str, Any], index: int, label: str, base: str) -> Iterator[Problem]:
    if not isinstance(tool.get("name"), str):
        yield Problem(
            index, label, "tool", "name", join_pointer(base, "name"), "'name' must be a string"
        )
    for key in ("title", "description"):
        if key in tool and not isinstance(tool[key], str):  # zod: optional, never null
            yield Problem(
                index, label, "tool", key, join_pointer(base, key),
                f"'{key}' must be a string, not {_json_kind(tool[key])}",
            )  # fmt: skip
    notes = tool.get("annotations")
    if "annotations" in tool and not isinstance(notes, Mapping):
        yield Problem(
            index, label, "tool", "annotations", join_pointer(base, "annotations"),
            f"'annotations' must be an object, not {_json_kind(notes)}",
        )  # fmt: skip


def _schema(
    schema: object, index: int, label: str, part: SchemaPart, base: str
) -> Iterator[Problem]:
    key = "inputSchema" if part == "input" else "outputSchema"
    at = join_pointer(base, key)
    if not isinstance(schema, Mapping):
        yield Problem(
            index, label, part, key, at, f"'{key}' must be an object, not {_json_kind(schema)}"
        )
        return
    if schema.get("type") != "object":
        found = "no 'type'" if "type" not in schema else f"type {schema['type']!r}"
        yield Problem(
            index, label, part, "type", join_pointer(at, "type"),
            f"'{key}' must have type \"object\" at its root, it has {found}",
        )  # fmt: skip
    props = schema.get("properties")
    if "properties" in schema:
        if not isinstance(props, Mapping):
            yield Problem(
                index, label, part, "properties", join_pointer(at, "properties"),
                f"'properties' must be an object of schemas, not {_json_kind(props)}",
            )  # fmt: skip
        else:
            for prop, sub in props.items():
                if not isinstance(sub, Mapping):
                    yield Problem(
                        index, label, part, "properties",
                        join_pointer(at, "properties", str(prop)),
                        f"property {prop!r} must be a schema object, not {_json_kind(sub)}",
                    )  # fmt: skip
    if "required" in schema:
        names = schema["required"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            yield Problem(
                index, label, part, "required", join_pointer(at, "required"),
                f"'required' must be a list of strings, not {_json_kind(names)}",
            )  # fmt: skip
