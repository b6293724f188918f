"""Deferred tools: definitions marked ``defer_loading`` are not in the prompt up front.

Anthropic (``defer_loading: true`` on a tool, with a tool-search server tool) and OpenAI's
Responses API (``defer_loading: true`` on a function, with a ``tool_search`` tool, gpt-5.4
and later) keep a deferred definition out of the prompt until the model finds it; a found
tool then costs its definition. So a count says what is paid up front (``up_front``: every
tool not deferred, and the overhead) and what each deferred tool costs once loaded (its own
``tokens``, with ``deferred`` set).

The tool-search tool's own definition is part of the request too. Neither provider publishes
its size in tokens, so toollens does not add a number for it; the note says so.

A client may defer a server's tools itself (:data:`CLIENT_TOOL_SEARCH`: Claude Code past a
share of the context window, a behaviour known from third-party reports only);
``check --client`` counts what such a client sends up front and what it defers, and says how
the rule is known.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from toollens.core.record_json import record_json
from toollens.core.schema.types import JsonObject
from toollens.tokens.result import TokenCount

SEARCH_TOOL = {
    "anthropic": "Anthropic's tool search tool (tool_search_tool_regex / _bm25)",
    "openai": "OpenAI's tool_search tool (Responses API, gpt-5.4 and later)",
}


def with_deferred(counted: TokenCount, provider: str) -> TokenCount:
    """``counted`` with a note on what its deferred tools cost up front and once loaded."""
    deferred = [t for t in counted.tools if t.deferred]
    if not deferred:
        return counted
    search = SEARCH_TOOL.get(provider, "the provider's tool search tool")
    note = (
        f"deferred: {len(deferred)} of {len(counted.tools)} tools are marked defer_loading and "
        f"cost nothing up front ({counted.deferred} tokens once all are loaded); "
        f"{counted.up_front} tokens up front. Not included: the tool search tool's own "
        f"definition ({search}; its size is not published)"
    )
    return dataclasses.replace(counted, notes=(*counted.notes, note))


@dataclass(frozen=True)
class ClientToolSearch:
    """A client that defers a server's tools behind a tool search of its own, past a share
    of the model's context window.

    Attributes:
        client: the client's id (``--client``).
        rule: a stable id for what it does.
        share: the share of the context window the tools' definitions may take up front;
            past it every one is deferred (loaded when the model searches for it).
        context_window: the context window the share is taken of.
        summary: what the client does, one sentence.
        source: where the behaviour is read from.
        date: ISO date the source was read.
        evidence: ``docs``, ``code``, ``issue`` or ``report`` (a third-party write-up: a
            reported behaviour, never presented as documented; see :attr:`attested`).
    """

    client: str
    rule: str
    share: float
    context_window: int
    summary: str
    source: str
    date: str
    evidence: str

    @property
    def attested(self) -> str:
        """How the behaviour is known, for people: ``documented``, ``read in its code``,
        ``reported on its tracker`` or ``reported``."""
        return _ATTESTED.get(self.evidence, "reported")

    @property
    def threshold(self) -> int:
        """The most tokens of definitions the client still sends up front."""
        return int(self.context_window * self.share)

    def defers(self, definitions: int) -> bool:
        """Whether definitions costing ``definitions`` tokens are deferred."""
        return definitions > self.threshold

    def to_json(self) -> JsonObject:
        return record_json(self, ("id", "rule"), "threshold", "source", "date", "evidence")


_ATTESTED = {"docs": "documented", "code": "read in its code", "issue": "reported on its tracker"}

CLIENT_TOOL_SEARCH: dict[str, ClientToolSearch] = {
    "claude-code": ClientToolSearch(
        client="claude-code",
        rule="claude-code.tool-search",
        share=0.10,
        context_window=200_000,
        summary="reported, not documented: Claude Code's MCP Tool Search "
        "(ENABLE_TOOL_SEARCH=auto) defers the MCP tools' definitions when they would take "
        "more than 10% of the context window and loads each through a search tool when the "
        "model needs it; later reports say it defers them by default, and a 1M-token "
        "window or ENABLE_TOOL_SEARCH=false changes it",
        source="https://claudefa.st/blog/tools/mcp-extensions/mcp-tool-search",
        date="2026-12-02",
        evidence="report",
    ),
}
"""The clients known to defer MCP tools, by id; every other client sends them up front."""
