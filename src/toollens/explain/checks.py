"""Every finding toollens has for one tool on the path an error came by: the provider's rules
(strict and not, since the error does not say which was sent), the tool's own lint and
provider findings, the cross-tool findings that name it, and a client's own rules and its
provider step when the place came through a client and the target is an MCP tool list."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toollens.consumers import CONSUMERS, judge_consumers
from toollens.core.providers import check_provider
from toollens.core.records import Finding
from toollens.explain.records import ErrorPlace

if TYPE_CHECKING:
    from toollens.toolsets import Tool, Toolset

__all__ = ["findings_on_path"]


def findings_on_path(ts: Toolset, tool: Tool, place: ErrorPlace) -> Iterator[Finding]:
    """The findings that could predict ``place`` for ``tool``, each once."""
    seen: set[tuple[str, str | None]] = set()
    for finding in _all(ts, tool, place):
        key = (finding.rule, finding.pointer)
        if key not in seen:
            seen.add(key)
            yield finding


def _all(ts: Toolset, tool: Tool, place: ErrorPlace) -> Iterator[Finding]:
    yield from _provider(tool, place)
    family = (place.provider or "").split("-")[0]
    # the tool's own findings: its lint, and its provider findings of this provider's family
    yield from (f for f in tool.findings if f.rule.startswith(("lint.", f"{family}.")))
    yield from tool.payload_findings
    yield from ts.findings_for(tool.name)
    if place.client is not None and ts.listing is not None:
        yield from _client(ts, tool, place.client)


def _provider(tool: Tool, place: ErrorPlace) -> Iterator[Finding]:
    if place.provider is None:
        return
    function = tool.report.function if tool.report is not None else None
    if function is not None:  # a Python tool: as toollens sends it, then not strict
        yield from check_provider(function, place.provider)
    schema = tool.input_schema
    if isinstance(schema, dict):
        for strict in (False, True):
            yield from check_provider(schema, place.provider, name=tool.name, strict=strict)
    given = tool.report.given if tool.report is not None else None
    if given is not None:  # a payload's own fields, and its layout, as that provider reads them
        yield from given.findings_for(place.provider)


def _client(ts: Toolset, tool: Tool, client: str) -> Iterator[Finding]:
    if client not in CONSUMERS or ts.listing is None:
        return
    report = judge_consumers(ts.listing, [client])
    for verdict in report.verdicts_for(tool.name):
        yield from (hit.finding() for hit in verdict.hits)
        if verdict.provider is not None:
            yield from verdict.provider.findings
