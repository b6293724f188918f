"""Provider payload lists: the ``tools`` of a request to OpenAI, Anthropic or Gemini.

Accepted shapes, each entry recognised by the providers' own payload table
(:func:`toollens.targets.unwrap_payload`):

- ``{"tools": [...]}`` or a bare list of tools: OpenAI Chat Completions
  (``{"type": "function", "function": {...}}``), OpenAI Responses
  (``{"type": "function", "name": ...}``), Anthropic (``{"name", "input_schema"}``);
- Gemini's ``{"tools": [{"functionDeclarations": [...]}]}`` (or ``function_declarations``):
  each declaration is one tool;
- one tool payload on its own.

An entry that is no function tool (a malformed dict, a built-in tool such as
``{"type": "web_search"}``) becomes one entry with its error, at its index.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toollens.core.schema.types import JsonMapping
from toollens.toolsets.entries import ToolEntry, ToolOrigin

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions

__all__ = ["is_payload_list", "payload_entries", "payload_entry"]

_DECLARATION_KEYS = ("functionDeclarations", "function_declarations")


def is_payload_list(data: object) -> bool:
    """Whether ``data`` is a request's tool list (``{"tools": [...]}``) or a Gemini tool."""
    if not isinstance(data, Mapping):
        return False
    return isinstance(data.get("tools"), list) or any(
        isinstance(data.get(key), list) for key in _DECLARATION_KEYS
    )


def payload_entries(
    data: JsonMapping | Sequence[object], *, label: str, options: ReportOptions | None = None
) -> list[ToolEntry]:
    """One entry per tool of a payload list, in order; an unreadable item is an error entry."""
    items = _items(data)
    return [payload_entry(item, index, label, options) for index, item in enumerate(items)]


def _items(data: JsonMapping | Sequence[object]) -> list[Any]:
    if isinstance(data, Mapping):
        if isinstance(data.get("tools"), list):
            return list(_flatten(data["tools"]))
        if is_payload_list(data):
            return list(_flatten([data]))
        return [data]
    return list(_flatten(data))


def _flatten(tools: Sequence[Any]) -> Iterator[Any]:
    # A Gemini Tool holds several declarations; each is one tool for the model.
    for item in tools:
        key = next((k for k in _DECLARATION_KEYS if isinstance(item, Mapping) and k in item), None)
        if key is not None and isinstance(item[key], list):
            yield from item[key]
        else:
            yield item


def payload_entry(item: object, index: int, label: str, options: ReportOptions | None) -> ToolEntry:
    """The entry of one item of a payload list, at ``index``."""
    from toollens.targets import unwrap_payload

    origin = ToolOrigin(kind="json", label=label, index=index)
    if not isinstance(item, Mapping):
        return ToolEntry.failed(
            f"#{index}", origin, f"tool {index} is a {type(item).__name__}, not an object"
        )
    unwrapped = unwrap_payload(item) if "name" in item or "function" in item else None
    if unwrapped is None:
        return _bare_or_failed(item, index, origin, options)
    if not unwrapped.name:
        return ToolEntry.failed(f"#{index}", origin, f"tool {index} has no string 'name'")
    given = _strictness(item, options)
    return ToolEntry.from_definition(
        unwrapped.name, unwrapped.description, unwrapped.schema, origin=origin, options=given
    )


def _bare_or_failed(
    item: Mapping[str, Any], index: int, origin: ToolOrigin, options: ReportOptions | None
) -> ToolEntry:
    from toollens.toolsets.definitions import definition_entry

    kind = item.get("type")
    if isinstance(item.get("name"), str) and kind in (None, "function"):
        # A declaration without a parameters key takes no arguments (Gemini, Anthropic);
        # an MCP-style {"name", "inputSchema"} is read as a definition.
        return definition_entry(item, index, label=origin.label, options=options)
    if isinstance(kind, str):
        return ToolEntry.failed(
            kind, origin, f"tool {index} is a built-in tool of type {kind!r}, with no schema"
        )
    return ToolEntry.failed(f"#{index}", origin, f"tool {index} has no string 'name'")


def _strictness(item: Mapping[str, Any], options: ReportOptions | None) -> ReportOptions | None:
    # A payload that says how strict it is sent wins over the toolset's default.
    strict = item.get("strict")
    if strict is None and isinstance(item.get("function"), Mapping):
        strict = item["function"].get("strict")
    if not isinstance(strict, bool):
        return options
    from toollens.core.report import ReportOptions

    return dataclasses.replace(options or ReportOptions(), strict=strict)
