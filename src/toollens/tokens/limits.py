"""Description lengths that a provider rejects or a major client cuts, each with its source.

Only limits someone documents or reports with the exact error are listed; each row says
where it comes from and where sources disagree. Lengths are counted in characters (Python
``len``), as the sources count them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from toollens.core.records import Citation, Finding, Severity
from toollens.tokens.tooldefs import ToolDef


@dataclass(frozen=True)
class DescriptionLimit:
    """A maximum tool-description length and what happens past it; ``provider``: the
    provider whose refusal it is (a client's own cut has none)."""

    rule: str
    max_chars: int
    severity: Severity
    consequence: str
    fix: str
    cite: Citation
    provider: str | None = None


LIMITS: tuple[DescriptionLimit, ...] = (
    DescriptionLimit(
        rule="limits.openai-description-length",
        max_chars=1024,
        severity=Severity.ERROR,
        consequence="OpenAI Chat Completions rejects the request "
        "(string_above_max_length on tools[i].function.description)",
        fix="move detail into parameter descriptions or the system prompt",
        cite=Citation(
            "the API's own error, quoted in public issue threads (e.g. getsentry/sentry-mcp "
            "#106, langchain-ai/open_deep_research #80, OpenHands #4838); OpenAI's guides do "
            "not state the limit, and OpenAI-compatible servers differ",
            "",
            "2026-12-01",
            "report",
        ),
        provider="openai-chat",
    ),
    DescriptionLimit(
        rule="limits.claude-code-description-truncated",
        max_chars=2048,
        severity=Severity.WARNING,
        consequence="Claude Code cuts MCP tool descriptions here and the model reads "
        "'… [truncated]'",
        fix="put what matters first and keep the description under the limit",
        cite=Citation(
            "Claude Code MCP docs ('truncates tool descriptions and server instructions at "
            "2KB each'); issue threads anthropics/claude-code #41593 and #81268 find a "
            "2048-character cut in the client (the docs say 2KB; the MCP spec sets no limit)",
            "",
            "2026-12-01",
            "docs",
        ),
    ),
)


def limit_provider(rule: str) -> str | None:
    """The provider whose refusal the description limit ``rule`` is (``None``: a client's
    cut, or no such limit)."""
    return next((limit.provider for limit in LIMITS if limit.rule == rule), None)


def iter_limit_findings(tools: Sequence[ToolDef]) -> Iterator[Finding]:
    """A finding for each tool description over each documented limit."""
    for tool in tools:
        length = len(tool.description or "")
        for limit in LIMITS:
            if length > limit.max_chars:
                yield Finding(
                    limit.rule,
                    limit.severity,
                    None,
                    f"tool {tool.name!r} has a {length}-character description, over "
                    f"{limit.max_chars}: {limit.consequence}.",
                    limit.fix,
                    cite=limit.cite,
                )
