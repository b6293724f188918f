"""Provider payload lists: the ``tools`` of a request to OpenAI, Anthropic or Gemini.

Accepted shapes, each entry recognised by the providers' own payload table
(:func:`toollens.targets.unwrap_payload`):

- ``{"tools": [...]}`` or a bare list of tools: OpenAI Chat Completions
  (``{"type": "function", "function": {...}}``), OpenAI Responses
  (``{"type": "function", "name": ...}``), Anthropic (``{"name", "input_schema"}``);
- Gemini's ``{"tools": [{"functionDeclarations": [...]}]}`` (or ``function_declarations``):
  each declaration is one tool;
- one tool payload on its own.

An OpenAI Responses ``{"type": "namespace", "tools": [...]}`` holds several tools: each is
one entry. A custom tool (``{"type": "custom", "format": {...}}``, free text or a grammar)
and a tool-search tool (OpenAI ``tool_search``, Anthropic ``tool_search_tool_*``) are listed,
not checked: they have no parameters schema. Any other entry that is no function tool (a
malformed dict, a built-in tool such as ``{"type": "web_search"}``) becomes one entry with
its error, at its index.

Each function tool's report is the one :func:`toollens.core.report.report` makes of the
payload alone (``check tool.json`` and ``check tools.json`` agree): it is also judged on
its payload's own fields (``input_examples``, ``defer_loading``, ``allowed_callers``,
Responses' ``strict`` default, unknown fields), and those findings are the tool's own
provider findings for the payload's provider (:mod:`toollens.core.providers.given`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toollens.core.errors import ToolLensError
from toollens.core.providers import unwrap_payload
from toollens.core.records import Finding
from toollens.core.report import report
from toollens.core.schema.types import JsonMapping
from toollens.mcp.records import is_mcp_tool
from toollens.toolsets.definitions import definition_entry
from toollens.toolsets.entries import Tool, ToolOrigin

if TYPE_CHECKING:
    from toollens.core.choices import ProviderId
    from toollens.core.report import ReportOptions

__all__ = [
    "holds_tool_list",
    "is_payload_list",
    "payload_entries",
    "payload_entry",
    "payload_provider",
]

_DECLARATION_KEYS = ("functionDeclarations", "function_declarations")


def is_payload_list(data: object) -> bool:
    """Whether ``data`` is a request's tool list (``{"tools": [...]}``) or a Gemini tool."""
    if not isinstance(data, Mapping):
        return False
    return isinstance(data.get("tools"), list) or any(
        isinstance(data.get(key), list) for key in _DECLARATION_KEYS
    )


def holds_tool_list(data: object) -> bool:
    """Whether JSON data is read as tools rather than one schema: a bare list, a request's
    tool list or a Gemini tool (:func:`is_payload_list`), or one MCP tool (read as a list of
    one: the MCP specification judges lists)."""
    return isinstance(data, list) or is_payload_list(data) or is_mcp_tool(data)


def payload_entries(
    data: JsonMapping | Sequence[object], *, label: str, options: ReportOptions | None = None
) -> list[Tool]:
    """One entry per tool of a payload list, in order; an unreadable item is an error entry.

    MCP tools (``{"name", "inputSchema"}``, a saved ``tools/list`` answer) are judged by the
    MCP specification together, as a server's list is: by ``options.mcp_revision`` when
    chosen, else by the ``protocolVersion`` the file records, else by the newest revision.
    """
    items = _items(data)
    entries = [payload_entry(item, index, label, options) for index, item in enumerate(items)]
    return _with_mcp_spec(entries, items, data, options)


def payload_provider(data: JsonMapping | Sequence[object]) -> ProviderId | None:
    """The provider a payload (one tool, or a list) is written for: the one whose shape
    every function tool in it has; ``None`` for a bare schema, MCP tools or mixed shapes."""
    found = {
        tool.provider
        for item in _items(data)
        if isinstance(item, Mapping) and (tool := unwrap_payload(item)) is not None
    }
    return found.pop() if len(found) == 1 else None


def _items(data: JsonMapping | Sequence[object]) -> list[Any]:
    if isinstance(data, Mapping):
        if isinstance(data.get("tools"), list):
            return list(_flatten(data["tools"]))
        if is_payload_list(data):
            return list(_flatten([data]))
        return [data]
    return list(_flatten(data))


def _flatten(tools: Sequence[Any]) -> Iterator[Any]:
    # A Gemini Tool holds several declarations, a Responses namespace several tools; each
    # is one tool for the model.
    for item in tools:
        key = next((k for k in _DECLARATION_KEYS if isinstance(item, Mapping) and k in item), None)
        if key is not None and isinstance(item[key], list):
            yield from item[key]
        elif _is_namespace(item):
            yield from item["tools"]
        else:
            yield item


def _is_namespace(item: object) -> bool:
    return (
        isinstance(item, Mapping)
        and item.get("type") == "namespace"
        and isinstance(item.get("tools"), list)
    )


def _listed_role(item: Mapping[str, Any]) -> str | None:
    """What a tool without a parameters schema is, when it is listed rather than refused."""
    kind = item.get("type")
    if kind == "custom" and "input_schema" not in item:
        grammar = item.get("format")
        syntax = grammar.get("syntax") if isinstance(grammar, Mapping) else None
        return f"custom tool, {syntax} grammar" if isinstance(syntax, str) else "custom tool"
    if kind == "tool_search" or (isinstance(kind, str) and kind.startswith("tool_search_tool_")):
        return "tool search"
    return None


def payload_entry(item: object, index: int, label: str, options: ReportOptions | None) -> Tool:
    """The entry of one item of a payload list, at ``index``."""
    origin = ToolOrigin(kind="json", label=label, index=index)
    if not isinstance(item, Mapping):
        return Tool.failed(
            f"#{index}", origin, f"tool {index} is a {type(item).__name__}, not an object"
        )
    role = _listed_role(item)
    if role is not None:
        name = item.get("name")
        shown = name if isinstance(name, str) and name else str(item.get("type"))
        description = item.get("description")
        return Tool(
            shown,
            dataclasses.replace(origin, role=role),
            description=description if isinstance(description, str) else None,
        )
    # lazy: the payload reader + strict converter (~8 ms), for provider payloads only
    from toollens.core.providers.given import given_payload

    given = given_payload(item)
    if given is None:
        return _bare_or_failed(item, index, origin, options)
    if not given.name:
        return Tool.failed(f"#{index}", origin, f"tool {index} has no string 'name'")
    # The report of the payload as written: the same one `check tool.json` makes of it alone.

    try:
        rep = report(item, options)
    except ToolLensError as exc:
        return Tool.failed(given.name, origin, str(exc))
    return Tool.from_report(rep, origin, description=given.description)


def _bare_or_failed(
    item: Mapping[str, Any], index: int, origin: ToolOrigin, options: ReportOptions | None
) -> Tool:
    kind = item.get("type")
    if isinstance(item.get("name"), str) and kind in (None, "function"):
        # A declaration without a parameters key takes no arguments (Gemini, Anthropic);
        # an MCP-style {"name", "inputSchema"} is read as a definition (the MCP
        # specification judges the list's MCP tools together: payload_entries).
        return definition_entry(item, index, label=origin.label, options=options)
    if isinstance(kind, str):
        return Tool.failed(
            kind, origin, f"tool {index} is a built-in tool of type {kind!r}, with no schema"
        )
    return Tool.failed(f"#{index}", origin, f"tool {index} has no string 'name'")


def _with_mcp_spec(
    entries: list[Tool],
    items: Sequence[Any],
    data: JsonMapping | Sequence[object],
    options: ReportOptions | None,
) -> list[Tool]:
    """The entries, each MCP tool's carrying what the MCP specification says of it (a
    finding about several tools, two of one name, rides on the first of them)."""
    mcp = [
        i
        for i, (entry, item) in enumerate(zip(entries, items, strict=True))
        if entry.ok and is_mcp_tool(item)
    ]
    if not mcp:
        return entries
    # lazy: the MCP spec's rules (~4 ms) load for MCP tools only
    from toollens.core.providers.mcp_spec import check_mcp_tools, parse_judge, revision_for

    chosen = options.mcp_revision if options is not None else None
    answered = data.get("protocolVersion") if isinstance(data, Mapping) else None
    revision = (
        parse_judge(chosen)
        if chosen is not None
        else revision_for(answered if isinstance(answered, str) else None)
    )
    found: dict[int, list[Finding]] = {}
    for spec in check_mcp_tools([items[i] for i in mcp], revision):
        owner = next(i for i in mcp if entries[i].name in spec.tools)
        found.setdefault(owner, []).append(spec.finding)
    return [
        dataclasses.replace(e, payload_findings=(*e.payload_findings, *found[i]))
        if i in found
        else e
        for i, e in enumerate(entries)
    ]
