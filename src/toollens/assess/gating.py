"""Which findings gate on a request's path, and the exit code they make.

A cross-tool error that speaks for some providers (Anthropic's strict request limits, a name
Gemini refuses) fails only when one of the judged providers is among them, and is a warning
otherwise (:func:`unjudged_providers`); the MCP specification's and SDK's errors fail only
when no client was named, since the named clients' verdicts then say what happens on the
user's path; an MCP tool list no provider is named for reaches a model through its clients,
so its tools' provider findings are shown and do not fail.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toollens.core.records import Finding, Severity
from toollens.tokens.tooldefs import DeferredMarks
from toollens.toolsets.rules import (
    concerns_provider,
    finding_providers,
    off_path,
    speaks_for_providers,
)

if TYPE_CHECKING:
    from toollens.assess.reading import ToolRow
    from toollens.core.checks import ToolCheck
    from toollens.toolsets import Tool, Toolset

__all__ = ["EXIT_FINDINGS", "EXIT_OK", "deferred_marks", "exit_code", "unjudged_providers"]

EXIT_OK, EXIT_FINDINGS = 0, 1


def exit_code(
    ts: Toolset,
    rows: Sequence[ToolRow],
    providers: Sequence[str] = (),
    *,
    clients_chosen: bool = False,
    providers_gate: bool = True,
) -> int:
    """1 on an error finding that gates, a view error or a tool that could not be read,
    else 0 (a source that cannot be read at all never gets here: it raises, exit 3).
    Without ``providers_gate`` (an MCP tool list no provider is named for) a tool's provider
    findings are shown and do not fail."""

    def failed(result: ToolCheck) -> bool:
        if providers_gate:
            return bool(result.errors)
        lint = any(f.severity is Severity.ERROR for f in result.lint)
        return lint or bool(result.view_errors)

    bad = any(row.entry.error is not None for row in rows)
    bad = bad or any(row.result is not None and failed(row.result) for row in rows)
    bad = bad or any(
        f.severity is Severity.ERROR and _gates(f, providers, clients_chosen) for f in ts.findings
    )
    return EXIT_FINDINGS if bad else EXIT_OK


def _gates(finding: Finding, providers: Sequence[str], clients_chosen: bool) -> bool:
    if finding.rule.startswith("mcp."):
        return not clients_chosen
    if not speaks_for_providers(finding) or not providers:
        return True
    return any(concerns_provider(finding, p) for p in providers)


def unjudged_providers(ts: Toolset, providers: Sequence[str]) -> Toolset:
    """``ts`` with its cross-tool errors that speak only for providers outside ``providers``
    (Anthropic's strict request limits, when OpenAI is judged) as warnings (:func:`off_path`)."""

    def shown(finding: Finding) -> Finding:
        concerned = finding_providers(finding)
        if not concerned:
            return finding
        where = " or ".join(concerned)
        why = f"No provider judged is {where} (--provider {concerned[0]} judges it)"
        return off_path(finding, concerned, providers, why)

    kept = tuple(dataclasses.replace(i, finding=shown(i.finding)) for i in ts.cross_findings)
    return dataclasses.replace(ts, cross_findings=kept)


def deferred_marks(ts: Toolset) -> DeferredMarks:
    """``ts`` with the entries its payload marks ``defer_loading`` (Anthropic tools with tool
    search, OpenAI Responses functions), as the token count reads them: from the payload
    each tool's report kept when it was read, not from the file again."""
    marked = frozenset(i for i, entry in enumerate(ts.tools) if _deferred(entry))
    return DeferredMarks(ts, marked)


def _deferred(entry: Tool) -> bool:
    given = entry.report.given if entry.report is not None else None
    return given is not None and given.own_fields.get("defer_loading") is True
