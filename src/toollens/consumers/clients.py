"""Clients whose code cannot run here: Claude Code, Claude Desktop, Cursor, VS Code, Gemini CLI.

Each judge applies its rules (:mod:`toollens.consumers.rules`) to the tool list as the server
sent it: first the listing check of the MCP TypeScript SDK (:mod:`toollens.consumers.ts_sdk`)
where the client is known to refuse a whole list on it, then per tool (renames, rewrites,
filters), then the request (tool counts, names a prefix pushes too far).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from toollens.consumers import names
from toollens.consumers.model import (
    ClientVerdict,
    ConsumerJudgement,
    RequestVerdict,
    RuleHit,
    ToolList,
    Verdict,
    tool_name,
)
from toollens.consumers.rules import rule
from toollens.consumers.ts_sdk import iter_problems
from toollens.core.providers.walk import is_array_node, iter_schema_nodes
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


def listing_hits(client: str, listing: ToolList) -> list[RuleHit]:
    """The TypeScript SDK refusals of ``listing`` this client has a rule (a source) for."""
    table = _LISTING.get(client, {})
    return [
        RuleHit(rule(table[(p.part, p.keyword)]), f"tool {p.tool!r}: {p.message}", p.pointer)
        for p in iter_problems(listing.tools)
        if (p.part, p.keyword) in table
    ]


def _dropped_server(client: str, listing: ToolList, hits: list[RuleHit]) -> ConsumerJudgement:
    verdicts = tuple(
        ClientVerdict(client, name, Verdict.SERVER_DROPPED, tuple(hits)) for name in listing.names
    )
    return ConsumerJudgement(client, verdicts)


def _sent(name: str, tool: Mapping[str, Any], schema: object) -> JsonObject:
    description = tool.get("description")
    return {
        "name": name,
        "description": description if isinstance(description, str) else "",
        "inputSchema": schema,
    }


def _verdict(client: str, tool: str, hits: list[RuleHit], sent: JsonObject | None) -> ClientVerdict:
    worst = Verdict.ACCEPTED
    for hit in hits:
        worst = hit.rule.verdict if hit.rule.verdict.rank > worst.rank else worst
    return ClientVerdict(client, tool, worst, tuple(hits), None if worst.rank >= 2 else sent)


def _count(client: str, listing: ToolList, limit: int, rule_id: str) -> Iterator[RequestVerdict]:
    if len(listing.tools) > limit:
        found = rule(rule_id)
        over = listing.names[limit:]
        message = f"{len(listing.tools)} tools from this server alone, over {limit}"
        yield RequestVerdict(client, found.verdict, RuleHit(found, message), over)


# -- Claude Code --------------------------------------------------------------------------


def judge_claude_code(listing: ToolList) -> ConsumerJudgement:
    client = "claude-code"
    hits = listing_hits(client, listing)
    if hits:
        return _dropped_server(client, listing, hits)
    verdicts, long = [], []
    for i, tool in enumerate(listing.tools):
        name = tool_name(tool, i)
        sent_name = names.claude_code_name(listing.server_name, name)
        if len(sent_name) > NAME_LIMIT:
            long.append(name)
        verdicts.append(_verdict(client, name, [], _sent(sent_name, tool, tool.get("inputSchema"))))
    requests = []
    if long:
        found = rule("claude-code.prefixed-name-too-long")
        text = f"{len(long)} tool name(s) pass {NAME_LIMIT} characters as mcp__<server>__<tool>"
        requests.append(RequestVerdict(client, found.verdict, RuleHit(found, text), tuple(long)))
    return ConsumerJudgement(client, tuple(verdicts), tuple(requests))


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


def judge_claude_desktop(listing: ToolList) -> ConsumerJudgement:
    client = "claude-desktop"
    hits = listing_hits(client, listing)
    if hits:
        return _dropped_server(client, listing, hits)
    verdicts = []
    found = rule("claude-desktop.nullable-anyof-stripped")
    for i, tool in enumerate(listing.tools):
        name = tool_name(tool, i)
        schema, stripped = _strip_nullable_anyof(tool.get("inputSchema"))
        tool_hits = [
            RuleHit(found, f"property {p!r} loses its anyOf with null", f"/properties/{p}/anyOf")
            for p in stripped
        ]
        sent_name = names.claude_code_name(listing.server_name, name)
        verdicts.append(_verdict(client, name, tool_hits, _sent(sent_name, tool, schema)))
    return ConsumerJudgement(client, tuple(verdicts))


# -- Cursor -------------------------------------------------------------------------------


def judge_cursor(listing: ToolList) -> ConsumerJudgement:
    client = "cursor"
    hits = listing_hits(client, listing)
    if hits:
        return _dropped_server(client, listing, hits)
    verdicts = []
    found = rule("cursor.name-too-long")
    for i, tool in enumerate(listing.tools):
        name = tool_name(tool, i)
        length = names.cursor_length(listing.server_name, name)
        tool_hits = []
        if length >= CURSOR_NAME_LIMIT:
            text = (
                f"server name {listing.server_name!r} + tool name {name!r} is {length} "
                f"characters; Cursor keeps names under {CURSOR_NAME_LIMIT}"
            )
            tool_hits.append(RuleHit(found, text))
        verdicts.append(
            _verdict(client, name, tool_hits, _sent(name, tool, tool.get("inputSchema")))
        )
    requests = []
    if len(listing.tools) > CURSOR_TOOL_WARNING:
        warn = rule("cursor.too-many-tools")
        text = f"{len(listing.tools)} tools from this server alone, over {CURSOR_TOOL_WARNING}"
        over = listing.names[CURSOR_TOOL_WARNING:]
        requests.append(RequestVerdict(client, warn.verdict, RuleHit(warn, text), over))
    return ConsumerJudgement(client, tuple(verdicts), tuple(requests))


# -- VS Code Copilot ----------------------------------------------------------------------


def _arrays_without_items(schema: object) -> list[str]:
    return [
        node.pointer
        for node in iter_schema_nodes(schema)
        if isinstance(node.value, dict) and is_array_node(node.value) and "items" not in node.value
    ]


def judge_vscode(listing: ToolList) -> ConsumerJudgement:
    client = "vscode-copilot"
    verdicts, long = [], []
    found = rule("vscode-copilot.array-without-items")
    for i, tool in enumerate(listing.tools):
        name = tool_name(tool, i)
        schema = tool.get("inputSchema")
        tool_hits = [
            RuleHit(found, "an array schema has no 'items'", at)
            for at in _arrays_without_items(schema)
        ]
        sent_name = names.vscode_name(listing.server_name, name)
        if len(sent_name) > NAME_LIMIT:
            long.append(name)
        verdicts.append(_verdict(client, name, tool_hits, _sent(sent_name, tool, schema)))
    requests = list(_count(client, listing, TOOL_LIMIT, "vscode-copilot.too-many-tools"))
    if long:
        warn = rule("vscode-copilot.prefixed-name-too-long")
        text = f"{len(long)} tool name(s) pass {NAME_LIMIT} characters as mcp_<server>_<tool>"
        requests.append(RequestVerdict(client, warn.verdict, RuleHit(warn, text), tuple(long)))
    return ConsumerJudgement(client, tuple(verdicts), tuple(requests))


# -- Gemini CLI ---------------------------------------------------------------------------


def nullable_types(
    value: object, at: str = "", found: list[str] | None = None
) -> tuple[object, list[str]]:
    """``discoverTools``' rewrite: every ``type: [X, "null"]`` (two entries) becomes
    ``type: X, nullable: true``, at any depth; also the JSON pointers it rewrote."""
    from toollens.core.schema.pointer import join_pointer

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


def judge_gemini_cli(listing: ToolList) -> ConsumerJudgement:
    client = "gemini-cli"
    hits = listing_hits(client, listing)
    if hits:
        return _dropped_server(client, listing, hits)
    verdicts = []
    renamed, rewritten = rule("gemini-cli.renamed"), rule("gemini-cli.nullable-type")
    for i, tool in enumerate(listing.tools):
        name = tool_name(tool, i)
        sent_name = names.gemini_cli_name(listing.server_name, name)
        tool_hits = []
        if sent_name != f"mcp_{listing.server_name}_{name}":
            tool_hits.append(RuleHit(renamed, f"sent as {sent_name!r}"))
        schema = tool.get("inputSchema")
        if schema is None:
            schema = {"type": "object", "properties": {}}
        schema, at = nullable_types(schema)
        tool_hits += [RuleHit(rewritten, "type [X, 'null'] sent as X with nullable", p) for p in at]
        verdicts.append(_verdict(client, name, tool_hits, _sent(sent_name, tool, schema)))
    requests = tuple(_count(client, listing, TOOL_LIMIT, "gemini-cli.too-many-tools"))
    return ConsumerJudgement(client, tuple(verdicts), requests)


JUDGES: Mapping[str, Callable[[ToolList], ConsumerJudgement]] = {
    "claude-code": judge_claude_code,
    "claude-desktop": judge_claude_desktop,
    "cursor": judge_cursor,
    "vscode-copilot": judge_vscode,
    "gemini-cli": judge_gemini_cli,
}
