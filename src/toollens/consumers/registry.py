"""The consumers toollens knows, by id, and the one call that judges a tool list with them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from toollens.consumers.clients import JUDGES
from toollens.consumers.model import Consumer, ConsumerReport, ToolList
from toollens.consumers.python import judge_agents, judge_agents_strict, judge_mcp_python
from toollens.core.errors import TargetError
from toollens.mcp.target import MCP_PREFIX

if TYPE_CHECKING:
    from toollens.mcp.records import ServerTools

__all__ = [
    "ALL_CLIENTS",
    "CONSUMERS",
    "is_mcp_listing",
    "judge_consumers",
    "listing_from_payload",
    "listing_from_server",
    "resolve_clients",
    "sends_strict",
]

ALL_CLIENTS = "all"

# fmt: off
CONSUMERS: Mapping[str, Consumer] = {
    c.id: c
    for c in (
        Consumer("claude-code", "Claude Code", False, "mcp__<server>__<tool>", "client",
                 JUDGES["claude-code"]),
        Consumer("claude-desktop", "Claude Desktop", False, "mcp__<server>__<tool>", "client",
                 JUDGES["claude-desktop"]),
        Consumer("cursor", "Cursor", False, "<tool> (server + tool under 60 characters)",
                 "client", JUDGES["cursor"]),
        Consumer("vscode-copilot", "VS Code Copilot", False, "mcp_<server>_<tool>", "client",
                 JUDGES["vscode-copilot"]),
        Consumer("gemini-cli", "Gemini CLI", False, "generateValidName(<server>_<tool>)",
                 "client", JUDGES["gemini-cli"]),
        Consumer("mcp-python", "MCP Python SDK client", False, "<tool>", "framework",
                 judge_mcp_python),
        Consumer("openai-agents", "OpenAI Agents SDK (MCP default)", False, "<tool>",
                 "framework", judge_agents),
        Consumer("openai-agents-strict", "OpenAI Agents SDK, convert_schemas_to_strict=True",
                 True, "<tool>", "framework", judge_agents_strict),
    )
}
# fmt: on


def resolve_clients(asked: Iterable[str]) -> tuple[str, ...]:
    """The consumer ids ``--client`` asks for (``all`` for every one), in order, once each.

    Raises:
        TargetError: an id toollens does not know.
    """
    chosen: list[str] = []
    for item in asked:
        if item == ALL_CLIENTS:
            chosen.extend(CONSUMERS)
        elif item in CONSUMERS:
            chosen.append(item)
        else:
            raise TargetError(
                f"--client {item!r} is not a client toollens knows",
                hint=f"use one of {', '.join(CONSUMERS)}, or {ALL_CLIENTS}",
            )
    return tuple(dict.fromkeys(chosen))


def sends_strict(clients: Sequence[str]) -> bool:
    """Whether any of ``clients`` sends tools in strict mode."""
    return any(CONSUMERS[c].strict for c in clients)


def judge_consumers(listing: ToolList, clients: Sequence[str] | None = None) -> ConsumerReport:
    """Each consumer's verdicts on ``listing`` (every consumer when ``clients`` is None)."""
    chosen = resolve_clients(clients) if clients is not None else tuple(CONSUMERS)
    return ConsumerReport(listing, tuple(CONSUMERS[c].judge(listing) for c in chosen))


def is_mcp_listing(data: object) -> bool:
    """Whether ``data`` is a ``tools/list`` answer (tools with ``inputSchema``)."""
    tools = data.get("tools") if isinstance(data, Mapping) else data
    return (
        isinstance(tools, list)
        and bool(tools)
        and all(isinstance(t, Mapping) and "inputSchema" in t for t in tools)
    )


def derived_name(label: str) -> str:
    """A server name taken from a target or file name (``server.tools.json`` -> ``server``)."""
    stem = PurePath(label.split("#")[0]).name
    stem = re.sub(r"(\.tools)?\.json$", "", stem)
    return stem or "server"


def listing_from_payload(data: object, *, label: str, server_name: str | None = None) -> ToolList:
    """The tool list of a saved ``tools/list`` answer (``{"tools": [...]}``, optionally with
    ``serverInfo`` and ``protocolVersion``) or a bare list of MCP tools; raw JSON, judged as
    sent (nothing is typed first)."""
    meta: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
    listed = meta.get("tools", []) if isinstance(data, Mapping) else data
    tools = list(listed) if isinstance(listed, Sequence) and not isinstance(listed, str) else []
    info = meta.get("serverInfo")
    info_name = info.get("name") if isinstance(info, Mapping) else None
    name = server_name or (info_name if isinstance(info_name, str) and info_name else None)
    version = meta.get("protocolVersion")
    return ToolList(
        server_name=name or derived_name(label),
        tools=tuple(tools),
        protocol_version=version if isinstance(version, str) else None,
    )


def listing_from_server(served: ServerTools, server_name: str | None = None) -> ToolList:
    """The tool list an ``mcp:`` target answered, each tool as it was sent."""
    name = server_name or served.info.name or derived_name(served.target.removeprefix(MCP_PREFIX))
    return ToolList(
        server_name=name,
        # Every item as sent, the ones the SDK's types refuse included: clients judge those.
        tools=tuple(served.raw_tools) or tuple(tool.definition for tool in served.tools),
        protocol_version=served.info.protocol_version,
    )
