"""Edits applied to a JSON tool list or payload file, key order and indentation kept
(:mod:`toollens.fixes.json_text` writes only what changed).

The file is read with its keys in order, the tool objects are found in document order (an
MCP ``tools/list``, a bare list, a request's ``tools`` in any provider's layout, Gemini's
``function_declarations``), each edit changes its tool's object in place, and the document
is written back with the indentation the file used.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from toollens.core.schema.types import JsonValue
from toollens.fixes.json_text import rewrite
from toollens.fixes.model import Edit, JsonOp

__all__ = ["ToolObject", "apply_json_edits", "tool_objects"]

# Where each layout keeps the parameters schema, in the order the shapes are tried.
_SCHEMA_KEYS = (
    "inputSchema",
    "input_schema",
    "parameters",
    "parameters_json_schema",
    "parametersJsonSchema",
)


@dataclass(frozen=True)
class ToolObject:
    """One tool's object in the document: the dict holding its name, and its schema's, and
    the tool's whole object (the one holding ``function`` in the Chat layout)."""

    named: dict[str, Any]
    holder: dict[str, Any]
    key: str
    outer: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.named.get("name"))

    @property
    def schema(self) -> JsonValue:
        return self.holder.get(self.key)


def _tool_object(item: object) -> ToolObject | None:
    if not isinstance(item, dict):
        return None
    function = item.get("function")
    holder = function if isinstance(function, dict) and "name" in function else item
    if "name" not in holder:
        return None
    key = next((k for k in _SCHEMA_KEYS if isinstance(holder.get(k), dict)), None)
    return None if key is None else ToolObject(holder, holder, key, item)


def tool_objects(doc: object) -> Iterator[ToolObject]:
    """Every tool object in ``doc``, in document order."""
    found = _tool_object(doc)
    if found is not None:
        yield found
        return
    if isinstance(doc, dict):
        for value in doc.values():
            if isinstance(value, (dict, list)):
                yield from tool_objects(value)
    elif isinstance(doc, list):
        for item in doc:
            yield from tool_objects(item)


def _lift(outer: dict[str, Any], key: str) -> None:
    """``outer[key]``'s fields moved into ``outer`` in place, right after ``type``."""
    inner = outer.get(key)
    if not isinstance(inner, dict):
        return
    items = [(k, v) for k, v in outer.items() if k != key]
    outer.clear()
    for k, v in items[:1] if items[:1] and items[0][0] == "type" else []:
        outer[k] = v
    outer.update(inner)
    for k, v in items:
        outer.setdefault(k, v)


def _apply(op: JsonOp, tool: ToolObject) -> None:
    if op.lift is not None:
        _lift(tool.outer, op.lift)
        return
    if op.path is None:
        tool.named.update(dict(op.set))
        return
    node: Any = tool.schema
    for token in op.path:
        node = node[int(token)] if isinstance(node, list) else node[token]
    for key in op.remove:
        node.pop(key, None)
    for key, value in op.set:
        node[key] = value
    if op.note is not None:
        said = node.get("description")
        node["description"] = (
            f"{said.rstrip()} ({op.note})"
            if isinstance(said, str) and said.strip()
            else f"({op.note})"
        )


def apply_json_edits(text: str, edits: Sequence[Edit], index_of: dict[str, int]) -> str:
    """``text`` (a JSON document) with ``edits`` made; ``index_of`` gives each tool's position
    among the document's tool objects (the order toollens read them in)."""
    doc = json.loads(text)
    tools = list(tool_objects(doc))
    # A tool's name can change (a rename): find every tool before any edit runs.
    targets = [(edit, tools[index_of[edit.tool]]) for edit in edits if isinstance(edit.op, JsonOp)]
    for edit, tool in targets:
        assert isinstance(edit.op, JsonOp)
        _apply(edit.op, tool)
    return rewrite(text, doc)
