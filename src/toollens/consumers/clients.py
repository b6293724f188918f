"""Clients whose code cannot run here: Claude Code, Claude Desktop, Cursor, VS Code, Gemini CLI.

Each judge applies its rules (:mod:`toollens.consumers.rules`) to the tool list as the server
sent it: first the listing check of the MCP TypeScript SDK (:mod:`toollens.consumers.ts_sdk`)
where the client is known to refuse a whole list on it, then per tool (renames, rewrites,
filters), then the request (tool counts, names a prefix pushes too far).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from toollens.consumers import names
from toollens.consumers.model import (
    ClientVerdict,
    ConsumerJudgement,
    RequestVerdict,
    RuleHit,
    ToolList,
    tool_name,
)
from toollens.consumers.rules import rule
from toollens.consumers.ts_sdk import iter_problems
from toollens.core.providers.walk import is_array_node, iter_schema_nodes
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonObject

__all__ = ["JUDGES"]

# (part, keyword) of a TypeScript SDK refusal -> the rule each client has a source for.
_LISTING: Mapping[str, Mapping[tuple[str, str], str]] = {
    "claude-code": {
        ("input", "type"): "claude-code.input-not-object",
        ("input", "inputSchema"): "claude-code.input-not-object",
        ("input", "required"): "claude-code.required-null",
        ("input", "properties"): "claude-code.properties-not-object",
        ("output", "type"): "claude-code.output-not-object",
        ("output", "outputSchema"): "claude-code.output-not-object",
    },
    "claude-desktop": {
        ("input", "type"): "claude-desktop.input-not-object",
        ("input", "inputSchema"): "claude-desktop.input-not-object",
        ("output", "type"): "claude-desktop.output-not-object",
        ("output", "outputSchema"): "claude-desktop.output-not-object",
    },
    "cursor": {
        ("output", "type"): "cursor.output-not-object",
        ("output", "outputSchema"): "cursor.output-not-object",
    },
    "gemini-cli": {
        ("input", "type"): "gemini-cli.input-not-object",
        ("input", "inputSchema"): "gemini-cli.input-not-object",
        ("input", "properties"): "gemini-cli.properties-not-object",
        ("input", "required"): "gemini-cli.required-not-list",
        ("output", "type"): "gemini-cli.output-not-object",
        ("output", "outputSchema"): "gemini-cli.output-not-object",
        ("output", "properties"): "gemini-cli.properties-not-object",
        ("output", "required"): "gemini-cli.required-not-list",
        ("tool", "name"): "gemini-cli.tool-malformed",
        ("tool", "title"): "gemini-cli.tool-malformed",
        ("tool", "description"): "gemini-cli.tool-malformed",
        ("tool", "annotations"): "gemini-cli.tool-malformed",
        ("tool", "tool"): "gemini-cli.tool-malformed",
    },
}

TOOL_LIMIT = 128
CURSOR_NAME_LIMIT = 60
CURSOR_TOOL_WARNING = 80
NAME_LIMIT = 64

_Sent = tuple[str, object, list[RuleHit]]


def listing_hits(client: str, listing: ToolList) -> list[RuleHit]:
    """The TypeScript SDK refusals of ``listing`` this client has a rule (a source) for."""
    table = _LISTING.get(client, {})
    return [
        RuleHit(rule(table[(p.part, p.keyword)]), f"tool {p.tool!r}: {p.message}", p.pointer)
        for p in iter_problems(listing.tools)
        if (p.part, p.keyword) in table
    ]


# What a client does to one tool: (the name it sends, the schema it sends, the rules hit).
PerTool = Callable[[ToolList, str, Mapping[str, Any]], tuple[str, object, list[RuleHit]]]
Requests = Callable[[str, ToolList], Iterator[RequestVerdict]]


def _no_requests(client: str, listing: ToolList) -> Iterator[RequestVerdict]:
    return iter(())


def judge_each(
    client: str, listing: ToolList, per_tool: PerTool, requests: Requests = _no_requests
) -> ConsumerJudgement:
    """The shape every client here shares: the listing check (a refusal loses the server),
    then ``per_tool`` on each tool, then the request verdicts."""
    refused = listing_hits(client, listing)
    if refused:
        return ConsumerJudgement.server_dropped(client, listing, refused)
    verdicts = []
    for i, tool in enumerate(listing.tools):
        name = tool_name(tool, i)
        sent_name, schema, hits = per_tool(listing, name, tool)
        description = tool.get("description")
        sent: JsonObject = {
            "name": sent_name,
            "description": description if isinstance(description, str) else "",
            "inputSchema": schema,
        }
        verdicts.append(ClientVerdict.from_hits(client, name, hits, sent))
    return ConsumerJudgement(client, tuple(verdicts), tuple(requests(client, listing)))


def _count(limit: int, rule_id: str) -> Requests:
    """A request verdict when the server alone lists more than ``limit`` tools."""

    def over(client: str, listing: ToolList) -> Iterator[RequestVerdict]:
        if len(listing.tools) > limit:
            found = rule(rule_id)
            message = f"{len(listing.tools)} tools from this server alone, over {limit}"
            yield RequestVerdict(
                client, found.verdict, RuleHit(found, message), listing.names[limit:]
            )

    return over


def _long_names(namer: Callable[[str, str], str], pattern: str, rule_id: str) -> Requests:
    """A request verdict naming the tools whose prefixed name passes 64 characters."""

    def over(client: str, listing: ToolList) -> Iterator[RequestVerdict]:
        long = tuple(n for n in listing.names if len(namer(listing.server_name, n)) > NAME_LIMIT)
        if long:
            found = rule(rule_id)
            text = f"{len(long)} tool name(s) pass {NAME_LIMIT} characters as {pattern}"
            yield RequestVerdict(client, found.verdict, RuleHit(found, text), long)

    return over


def _both(*parts: Requests) -> Requests:
    def joined(client: str, listing: ToolList) -> Iterator[RequestVerdict]:
        for part in parts:
            yield from part(client, listing)

    return joined


# -- Claude Code --------------------------------------------------------------------------


_PROPERTY_KEY = re.compile(r"[a-zA-Z0-9_.-]{1,64}")


def _bad_property_keys(schema: object) -> list[str]:
    """The root property keys the Anthropic API refuses (it checks the root only)."""
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return []
    return [str(key) for key in props if not _PROPERTY_KEY.fullmatch(str(key))]


def _claude_code_tool(listing: ToolList, name: str, tool: Mapping[str, Any]) -> _Sent:
    schema = tool.get("inputSchema")
    bad = _bad_property_keys(schema)
    hits = []
    if bad:
        text = f"property key(s) {', '.join(repr(k) for k in bad)} outside [a-zA-Z0-9_.-]{{1,64}}"
        hits.append(RuleHit(rule("claude-code.property-key-invalid"), text, "/properties"))
    return names.claude_code_name(listing.server_name, name), schema, hits


def judge_claude_code(listing: ToolList) -> ConsumerJudgement:
    long = _long_names(
        names.claude_code_name, "mcp__<server>__<tool>", "claude-code.prefixed-name-too-long"
    )
    return judge_each("claude-code", listing, _claude_code_tool, long)


# -- Claude Desktop -----------------------------------------------------------------------


def _strip_nullable_anyof(schema: object) -> tuple[object, list[str]]:
    """The schema with each property's ``anyOf`` holding ``{"type": "null"}`` removed."""
    if not isinstance(schema, Mapping) or not isinstance(schema.get("properties"), Mapping):
        return schema, []
    out = copy.deepcopy(dict(schema))
    stripped = []
    for prop, sub in out["properties"].items():
        options = sub.get("anyOf") if isinstance(sub, dict) else None
        if isinstance(options, list) and any(
            isinstance(o, Mapping) and o.get("type") == "null" for o in options
        ):
            del sub["anyOf"]
            stripped.append(str(prop))
    return out, stripped


def _claude_desktop_tool(listing: ToolList, name: str, tool: Mapping[str, Any]) -> _Sent:
    found = rule("claude-desktop.nullable-anyof-stripped")
    schema, stripped = _strip_nullable_anyof(tool.get("inputSchema"))
    hits = [
        RuleHit(found, f"property {p!r} loses its anyOf with null", f"/properties/{p}/anyOf")
        for p in stripped
    ]
    return names.claude_code_name(listing.server_name, name), schema, hits


def judge_claude_desktop(listing: ToolList) -> ConsumerJudgement:
    return judge_each("claude-desktop", listing, _claude_desktop_tool)


# -- Cursor -------------------------------------------------------------------------------


def _cursor_tool(listing: ToolList, name: str, tool: Mapping[str, Any]) -> _Sent:
    length = names.cursor_length(listing.server_name, name)
    hits = []
    if length >= CURSOR_NAME_LIMIT:
        text = (
            f"server name {listing.server_name!r} + tool name {name!r} is {length} "
            f"characters; Cursor keeps names under {CURSOR_NAME_LIMIT}"
        )
        hits.append(RuleHit(rule("cursor.name-too-long"), text))
    return name, tool.get("inputSchema"), hits


def judge_cursor(listing: ToolList) -> ConsumerJudgement:
    warning = _count(CURSOR_TOOL_WARNING, "cursor.too-many-tools")
    return judge_each("cursor", listing, _cursor_tool, warning)


# -- VS Code Copilot ----------------------------------------------------------------------


def _arrays_without_items(schema: object) -> list[str]:
    return [
        node.pointer
        for node in iter_schema_nodes(schema)
        if isinstance(node.value, dict) and is_array_node(node.value) and "items" not in node.value
    ]


def _vscode_tool(listing: ToolList, name: str, tool: Mapping[str, Any]) -> _Sent:
    found = rule("vscode-copilot.array-without-items")
    schema = tool.get("inputSchema")
    hits = [
        RuleHit(found, "an array schema has no 'items'", at) for at in _arrays_without_items(schema)
    ]
    return names.vscode_name(listing.server_name, name), schema, hits


def judge_vscode(listing: ToolList) -> ConsumerJudgement:
    requests = _both(
        _count(TOOL_LIMIT, "vscode-copilot.too-many-tools"),
        _long_names(
            names.vscode_name, "mcp_<server>_<tool>", "vscode-copilot.prefixed-name-too-long"
        ),
    )
    return judge_each("vscode-copilot", listing, _vscode_tool, requests)


# -- Gemini CLI ---------------------------------------------------------------------------


def nullable_types(
    value: object, at: str = "", found: list[str] | None = None
) -> tuple[object, list[str]]:
    """``discoverTools``' rewrite: every ``type: [X, "null"]`` (two entries) becomes
    ``type: X, nullable: true``, at any depth; also the JSON pointers it rewrote."""
    found = [] if found is None else found
    if isinstance(value, list):
        return [
            nullable_types(v, join_pointer(at, i), found)[0] for i, v in enumerate(value)
        ], found
    if not isinstance(value, Mapping):
        return value, found
    out = dict(value)
    kind = out.get("type")
    if isinstance(kind, list) and len(kind) == 2 and "null" in kind:
        other = kind[1 - kind.index("null")]
        if isinstance(other, str):
            out["type"] = other
            out["nullable"] = True
            found.append(join_pointer(at, "type"))
    for key in list(out):
        out[key] = nullable_types(out[key], join_pointer(at, key), found)[0]
    return out, found


_SUBSCHEMA_LISTS = ("anyOf", "allOf", "oneOf")


def _js_truthy(value: object) -> bool:
    """JavaScript's truthiness: every object and array is true, even an empty one."""
    if isinstance(value, (Mapping, list)):
        return True
    return bool(value) and value is not None


def missing_type(schema: object, at: str = "") -> str | None:
    """Where Gemini CLI's ``hasValidTypes`` (mcp-client.ts) finds a node without a type,
    walking as it does: a node lacks one when it has no ``type`` and no anyOf/allOf/oneOf
    list (whose branches are then checked); it descends into the properties of an object
    and the items of an array. ``None`` when every node it reaches is typed."""
    todo: list[tuple[object, str]] = [(schema, at)]
    while todo:
        node, where = todo.pop()
        if not isinstance(node, (Mapping, list)):
            continue  # JavaScript: not an object, nothing to find
        value: Mapping[str, Any] = node if isinstance(node, Mapping) else {}
        kind = value.get("type")
        if not _js_truthy(kind):
            lists = [(k, value[k]) for k in _SUBSCHEMA_LISTS if isinstance(value.get(k), list)]
            if not lists:
                return where
            todo += [
                (b, join_pointer(where, k, str(i))) for k, bs in lists for i, b in enumerate(bs)
            ]
        props = value.get("properties")
        if kind == "object" and isinstance(props, Mapping):
            todo += [(sub, join_pointer(where, "properties", str(n))) for n, sub in props.items()]
        if kind == "array" and _js_truthy(value.get("items")):
            todo.append((value["items"], join_pointer(where, "items")))
    return None


def _gemini_cli_tool(listing: ToolList, name: str, tool: Mapping[str, Any]) -> _Sent:
    untyped = missing_type(tool.get("inputSchema"))
    if untyped is not None:
        hit = RuleHit(rule("gemini-cli.missing-types"), f"no type at {untyped or '/'}", untyped)
        return name, tool.get("inputSchema"), [hit]
    sent_name = names.gemini_cli_name(listing.server_name, name)
    hits = []
    if sent_name != f"mcp_{listing.server_name}_{name}":
        hits.append(RuleHit(rule("gemini-cli.renamed"), f"sent as {sent_name!r}"))
    schema = tool.get("inputSchema")
    if schema is None:
        schema = {"type": "object", "properties": {}}
    schema, at = nullable_types(schema)
    rewritten = rule("gemini-cli.nullable-type")
    hits += [RuleHit(rewritten, "type [X, 'null'] sent as X with nullable", p) for p in at]
    return sent_name, schema, hits


def judge_gemini_cli(listing: ToolList) -> ConsumerJudgement:
    requests = _count(TOOL_LIMIT, "gemini-cli.too-many-tools")
    return judge_each("gemini-cli", listing, _gemini_cli_tool, requests)


JUDGES: Mapping[str, Callable[[ToolList], ConsumerJudgement]] = {
    "claude-code": judge_claude_code,
    "claude-desktop": judge_claude_desktop,
    "cursor": judge_cursor,
    "vscode-copilot": judge_vscode,
    "gemini-cli": judge_gemini_cli,
}
