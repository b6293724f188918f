"""The MCP specification as a judge of a server's tools, revision by revision.

A server's ``tools/list`` answer is judged by the revision of the specification it speaks
(the ``protocolVersion`` it answered ``initialize`` with, :func:`revision_for`), or one
chosen (:func:`parse_judge`: ``mcp@2025-11-25``). What each revision says about a tool:

- every revision: ``inputSchema`` is a JSON Schema of ``type: "object"``;
- 2025-06-18: ``outputSchema`` (new) is an object schema too;
- 2025-11-25: tool names SHOULD be 1-128 characters of ``[A-Za-z0-9_.-]`` and unique within
  the server; JSON Schema 2020-12 is the default dialect (a schema that declares another
  one may not be understood);
- 2026-07-28: ``outputSchema`` may be any schema; ``x-mcp-header`` on a property maps it to
  an HTTP header, and a client drops a tool whose annotation is invalid; network ``$ref``s
  are never dereferenced.

The official conformance suite checks names at 64 characters: a warning of its own. The
checks here mirror the MCP Python SDK 2.x's own (``mcp.shared.tool_name_validation``,
``mcp.shared.inbound.find_invalid_x_mcp_header``), which the tests use as oracles.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from toollens.core.providers.rules import (
    E,
    Hit,
    ProviderRule,
    Scope,
    W,
    make_finding,
)
from toollens.core.providers.walk import iter_schema_nodes, show
from toollens.core.records import Citation, Finding, Severity
from toollens.core.schema.pointer import join_pointer, split_pointer
from toollens.core.schema.types import JsonMapping

__all__ = [
    "DEFAULT_REVISION",
    "MCP_REVISIONS",
    "MCP_SPEC_RULES",
    "McpSpecFinding",
    "check_mcp_tools",
    "judge_id",
    "parse_judge",
    "revision_for",
]

# Every protocol version, oldest first (the MCP SDK's KNOWN_PROTOCOL_VERSIONS); the ones
# toollens has a judge for are the revisions that changed what a tool may be.
KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
MCP_REVISIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
DEFAULT_REVISION = MCP_REVISIONS[-1]
"""The revision a tool list is judged by when the server's protocol version is unknown (a
saved list that does not say, a version newer than toollens knows): the newest."""


def _spec(revision: str, what: str, anchor: str = "") -> Citation:
    return Citation(
        f"MCP specification {revision}, {what}",
        f"https://modelcontextprotocol.io/specification/{revision}/server/tools{anchor}",
        "2026-12-01",
    )


SPEC_0618 = _spec("2025-06-18", "tools: inputSchema and outputSchema", "#tool")
SPEC_1125_NAMES = _spec("2025-11-25", "tool names", "#tool-names")
SPEC_1125_SCHEMA = _spec("2025-11-25", "JSON Schema usage (2020-12 is the default dialect)")
SPEC_0728 = _spec("2026-07-28", "tools: x-mcp-header, any outputSchema, no network $ref")
CONFORMANCE = Citation(
    "MCP conformance suite: tool names checked at 1-64 characters",
    "https://github.com/modelcontextprotocol/conformance",
    "2026-12-01",
    evidence="report",
)
SDK_HEADER = Citation(
    "mcp 2.3.0 SDK, shared/inbound.py find_invalid_x_mcp_header (the client drops the tool)",
    "https://github.com/modelcontextprotocol/python-sdk",
    "2026-12-02",
    evidence="code",
)

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110 field-name token
_HEADER_TYPES = frozenset({"string", "integer", "boolean"})
DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
CONFORMANCE_NAME_LIMIT = 64


def judge_id(revision: str) -> str:
    """The judge's id, ``mcp@<revision>``."""
    return f"mcp@{revision}"


def revision_for(protocol_version: str | None) -> str:
    """The revision to judge a server by, from the protocol version it answered with: the
    latest revision at or before it; the oldest judge for older versions; the default for
    an unknown or missing version."""
    if protocol_version not in KNOWN_VERSIONS:
        return DEFAULT_REVISION
    at = KNOWN_VERSIONS.index(protocol_version)
    known = [r for r in MCP_REVISIONS if KNOWN_VERSIONS.index(r) <= at]
    return known[-1] if known else MCP_REVISIONS[0]


def parse_judge(text: str) -> str:
    """The revision named by ``mcp@2025-11-25`` (or ``2025-11-25``); ``ValueError`` names
    the ones there are."""
    revision = text.removeprefix("mcp@")
    if revision not in MCP_REVISIONS:
        names = ", ".join(judge_id(r) for r in MCP_REVISIONS)
        raise ValueError(f"unknown MCP specification revision {text!r}; use one of {names}")
    return revision


def _at_least(revision: str, since: str) -> bool:
    return MCP_REVISIONS.index(revision) >= MCP_REVISIONS.index(since)


# --------------------------------------------------------------------------------------------
# The tools as the checks read them


@dataclass(frozen=True)
class _Tool:
    name: str
    input_schema: object
    output_schema: object | None
    index: int


def _read(tools: Sequence[JsonMapping]) -> list[_Tool]:
    out = []
    for index, item in enumerate(tools):
        name = item.get("name")
        schema = item.get("inputSchema", item.get("input_schema"))
        output = item.get("outputSchema", item.get("output_schema"))
        out.append(_Tool(name if isinstance(name, str) else "", schema, output, index))
    return out


@dataclass(frozen=True)
class _Context:
    tools: list[_Tool]
    revision: str


@dataclass(frozen=True)
class _SpecHit:
    tools: tuple[str, ...]
    hit: Hit


SpecCheck = Callable[[_Context], Iterator[_SpecHit]]


@dataclass(frozen=True)
class McpSpecRule:
    """One rule of the MCP specification: the revision it starts at (and ends before)."""

    rule: ProviderRule
    spec_check: SpecCheck
    since: str = MCP_REVISIONS[0]
    until: str | None = None

    def applies(self, revision: str) -> bool:
        after = self.until is None or not _at_least(revision, self.until)
        return _at_least(revision, self.since) and after


@dataclass(frozen=True)
class McpSpecFinding:
    """A finding of the MCP specification judge and the tools it concerns."""

    finding: Finding
    tools: tuple[str, ...]
    judge: str = field(default=judge_id(DEFAULT_REVISION))


# --------------------------------------------------------------------------------------------
# Checks


def _one(tool: _Tool, pointer: str | None, **fields: Any) -> _SpecHit:
    return _SpecHit((tool.name,), Hit(pointer, fields))


def _named_once(ctx: _Context) -> Iterator[_Tool]:
    """The first tool of each name (a duplicate is a rule of its own)."""
    seen: set[str] = set()
    for tool in ctx.tools:
        if tool.name not in seen:
            seen.add(tool.name)
            yield tool


def name_outside(ctx: _Context) -> Iterator[_SpecHit]:
    for tool in _named_once(ctx):
        if not _NAME.fullmatch(tool.name):
            yield _one(tool, None, name=show(tool.name), length=len(tool.name))


def name_over_conformance(ctx: _Context) -> Iterator[_SpecHit]:
    for tool in _named_once(ctx):
        if _NAME.fullmatch(tool.name) and len(tool.name) > CONFORMANCE_NAME_LIMIT:
            yield _one(tool, None, name=show(tool.name), length=len(tool.name))


def duplicate_names(ctx: _Context) -> Iterator[_SpecHit]:
    counts: dict[str, int] = {}
    for tool in ctx.tools:
        counts[tool.name] = counts.get(tool.name, 0) + 1
    for name, count in counts.items():
        if count > 1:
            yield _SpecHit((name,), Hit(None, {"name": show(name), "count": count}))


def _not_object(schema: object) -> str | None:
    if not isinstance(schema, dict):
        return type(schema).__name__
    return None if schema.get("type") == "object" else f"type {show(schema.get('type'))}"


def input_not_object(ctx: _Context) -> Iterator[_SpecHit]:
    for tool in ctx.tools:
        kind = _not_object(tool.input_schema)
        if kind is not None:
            yield _one(tool, "/inputSchema", kind=kind)


def output_not_object(ctx: _Context) -> Iterator[_SpecHit]:
    for tool in ctx.tools:
        if tool.output_schema is not None:
            kind = _not_object(tool.output_schema)
            if kind is not None:
                yield _one(tool, "/outputSchema", kind=kind)


def other_dialect(ctx: _Context) -> Iterator[_SpecHit]:
    for tool in ctx.tools:
        for key, schema in (
            ("inputSchema", tool.input_schema),
            ("outputSchema", tool.output_schema),
        ):
            declared = schema.get("$schema") if isinstance(schema, dict) else None
            if isinstance(declared, str) and declared.rstrip("#") != DIALECT_2020_12:
                yield _one(tool, f"/{key}/$schema", dialect=show(declared))


def network_refs(ctx: _Context) -> Iterator[_SpecHit]:
    for tool in ctx.tools:
        for node in iter_schema_nodes(tool.input_schema):
            ref = node.value.get("$ref") if isinstance(node.value, dict) else None
            if isinstance(ref, str) and not ref.startswith("#"):
                pointer = join_pointer("/inputSchema" + node.pointer, "$ref")
                yield _one(tool, pointer, ref=show(ref))


def invalid_headers(ctx: _Context) -> Iterator[_SpecHit]:
    for tool in ctx.tools:
        why = header_problem(tool.input_schema)
        if why is not None:
            pointer, reason = why
            yield _one(tool, "/inputSchema" + pointer, reason=reason)


def header_problem(schema: object) -> tuple[str, str] | None:
    """``(pointer, reason)`` of the first invalid ``x-mcp-header`` annotation in ``schema``
    (the MCP SDK's ``find_invalid_x_mcp_header``, with a pointer), or ``None``."""
    seen: dict[str, str] = {}
    for node in iter_schema_nodes(schema):
        value = node.value
        if not isinstance(value, dict) or "x-mcp-header" not in value:
            continue
        pointer = join_pointer(node.pointer, "x-mcp-header")
        path = _properties_path(node.pointer)
        if not path:
            return pointer, "it is not on a property reached from the root through properties"
        where = ".".join(path)
        header = value["x-mcp-header"]
        if not isinstance(header, str):
            return pointer, f"on {where!r} it is a {type(header).__name__}, not a string"
        if not _TOKEN.fullmatch(header):
            return pointer, f"on {where!r}, {header!r} is not an HTTP header name token"
        kind = value.get("type")
        if not isinstance(kind, str) or kind not in _HEADER_TYPES:
            return (
                pointer,
                f"on {where!r} the type is {show(kind)}: only string, integer or boolean",
            )
        if header.lower() in seen:
            return pointer, f"{header!r} on {where!r} repeats the one on {seen[header.lower()]!r}"
        seen[header.lower()] = where
    return None


def _properties_path(pointer: str) -> tuple[str, ...] | None:
    """The property names from the root when ``pointer`` goes through ``properties`` only."""
    tokens = split_pointer(pointer) if pointer else []
    if len(tokens) % 2:
        return None
    pairs = [tokens[i : i + 2] for i in range(0, len(tokens), 2)]
    if any(keyword != "properties" for keyword, _ in pairs):
        return None
    return tuple(name for _, name in pairs)


# --------------------------------------------------------------------------------------------
# The rule table


def _rule(
    id: str,
    severity: Severity,
    summary: str,
    message: str,
    fix: str,
    cite: Citation,
    check: SpecCheck,
    *,
    until: str | None = None,
) -> McpSpecRule:
    # The ProviderRule carries the text and source; the MCP check reads the whole list.
    text = ProviderRule(id, severity, Scope.ALWAYS, summary, message, fix, cite, lambda _: iter(()))
    return McpSpecRule(text, check, until=until)


def _from(revision: str, *rules: McpSpecRule) -> tuple[McpSpecRule, ...]:
    """The rules a revision brought (each holds until a later one drops it)."""
    return tuple(dataclasses.replace(r, since=revision) for r in rules)


# fmt: off
MCP_SPEC_RULES: tuple[McpSpecRule, ...] = (
    *_from("2025-06-18",
        _rule("mcp.input-schema-not-object", E, "inputSchema is not type object",
              "inputSchema must be a JSON Schema of type \"object\", found {kind}",
              "wrap the arguments in an object schema", SPEC_0618, input_not_object),
        _rule("mcp.output-schema-not-object", E,
              "outputSchema is not type object (before 2026-07-28)",
              "outputSchema must be of type \"object\" in this revision, found {kind}; "
              "clients of this revision refuse the tool",
              "return an object (wrap the value in one property)", SPEC_0618,
              output_not_object, until="2026-07-28")),
    *_from("2025-11-25",
        _rule("mcp.name-invalid", W, "a tool name outside 1-128 of [A-Za-z0-9_.-]",
              "tool name {name} ({length} characters) should be 1-128 characters of "
              "A-Z a-z 0-9 _ - .", "rename the tool", SPEC_1125_NAMES, name_outside),
        _rule("mcp.name-over-64", W, "a tool name over 64 characters",
              "tool name {name} has {length} characters; the conformance suite and many "
              "model APIs stop at 64", "shorten the name to 64 characters or fewer",
              CONFORMANCE, name_over_conformance),
        _rule("mcp.duplicate-name", E, "two tools of one server share a name",
              "{count} tools are named {name}; tool names are unique within a server",
              "rename all but one; clients call tools by name", SPEC_1125_NAMES,
              duplicate_names),
        _rule("mcp.schema-dialect", W, "a schema declaring a dialect other than 2020-12",
              "$schema {dialect} is not JSON Schema 2020-12, the default dialect; "
              "clients need not support another", "drop $schema, or use 2020-12",
              SPEC_1125_SCHEMA, other_dialect)),
    *_from("2026-07-28",
        _rule("mcp.x-mcp-header-invalid", E, "an invalid x-mcp-header annotation",
              "x-mcp-header {reason}; clients drop the tool",
              "put x-mcp-header only on string, integer or boolean properties reached "
              "through properties, with a unique header-name token", SDK_HEADER,
              invalid_headers),
        _rule("mcp.network-ref", W, "a $ref to another document",
              "$ref {ref} points outside the schema; clients never dereference it",
              "inline the definition under $defs", SPEC_0728, network_refs)),
)
# fmt: on


def check_mcp_tools(
    tools: Sequence[JsonMapping], revision: str = DEFAULT_REVISION
) -> list[McpSpecFinding]:
    """What revision ``revision`` of the MCP specification says about ``tools`` (each a
    ``tools/list`` tool: ``name``, ``inputSchema``, ``outputSchema``; snake_case keys are
    read too). Pointers point into the tool; findings are in rule order, then tool order."""
    revision = parse_judge(revision)
    ctx = _Context(_read(tools), revision)
    out: list[McpSpecFinding] = []
    for item in MCP_SPEC_RULES:
        if not item.applies(revision):
            continue
        for spec_hit in item.spec_check(ctx):
            finding = make_finding(item.rule, spec_hit.hit, lambda _: None)
            out.append(McpSpecFinding(finding, spec_hit.tools, judge_id(revision)))
    return out
