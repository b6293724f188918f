"""The clients' verdicts in the lock: what each client does to each MCP tool, and what got worse.

An MCP tool's lock entry records, under ``clients``, each default consumer's verdict on it
(:data:`toollens.consumers.DEFAULT_CLIENTS`: ``{"cursor": "accepted", "vscode-copilot":
"tool-dropped", ...}``), judged on the whole server's tool list (:mod:`toollens.consumers`).
The framework consumers are left out, so a lock does not depend on which frameworks the
machine that wrote it had installed. ``diff --lock`` reports a verdict that got
worse (``accepted`` -> ``rewritten`` -> ``tool-dropped`` -> ``server-dropped`` ->
``request-rejected``) as a breaking change. The key is optional: locks without it stay valid.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toollens.consumers import ToolList, Verdict, judge_consumers
from toollens.consumers.registry import derived_name
from toollens.core.diff import ChangeKind, DiffSeverity, SchemaChange
from toollens.mcp.target import MCP_PREFIX

if TYPE_CHECKING:
    from toollens.project.tools import ProjectTool

__all__ = ["project_listings", "verdict_changes", "with_clients"]


def client_verdicts(listing: ToolList) -> dict[str, dict[str, str]]:
    """``{tool: {client: verdict}}`` of the default consumers on ``listing``; a request verdict that
    loses the request counts against every tool it names."""
    found: dict[str, dict[str, str]] = {}
    for judgement in judge_consumers(listing).judgements:
        for tool in judgement.tools:
            verdict = judgement.tool_verdict(tool.tool) or tool.verdict
            found.setdefault(tool.tool, {})[judgement.client] = verdict.value
    return found


def with_clients(tools: Sequence[ProjectTool], listing: ToolList) -> tuple[ProjectTool, ...]:
    """``tools`` with ``clients`` in the entries of the tools ``listing`` holds."""
    verdicts = client_verdicts(listing)
    return tuple(
        dataclasses.replace(t, entry={**t.entry, "clients": verdicts[t.name]})
        if t.name in verdicts
        else t
        for t in tools
    )


def project_listings(tools: Sequence[ProjectTool]) -> list[ToolList]:
    """One tool list per MCP server the project's tools come from (in first-seen order):
    each tool under MCP's names (:meth:`~toollens.toolsets.Tool.definition`), grouped by
    the server its origin names."""
    servers: dict[str, list[Mapping[str, Any]]] = {}
    for tool in tools:
        server = tool.tool.origin.server
        if server is not None:
            servers.setdefault(server, []).append(tool.tool.definition())
    return [ToolList(_server_name(s), tuple(defs)) for s, defs in servers.items()]


def _server_name(target: str) -> str:
    return derived_name(target.removeprefix(MCP_PREFIX))


def verdict_changes(old: object, new: object) -> tuple[SchemaChange, ...]:
    """A breaking change per client whose verdict got worse between two ``clients`` maps."""
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return ()
    known = {v.value: v for v in Verdict}
    changes = []
    for client, before in old.items():
        after = new.get(client)
        if before not in known or after not in known:
            continue
        if known[after].rank > known[before].rank:
            changes.append(
                SchemaChange(
                    "",
                    ChangeKind.CHANGED,
                    "tool.clients",
                    before,
                    after,
                    DiffSeverity.BREAKING,
                    f"{client} now {after} (was {before}); see `toollens check --client {client}`",
                )
            )
    return tuple(changes)
