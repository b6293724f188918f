"""How ``toollens check`` shows a toolset: a table, then findings grouped by tool; JSON; GitHub."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toollens.core.problems import explained_by_lint, set_counts
from toollens.core.records import SEVERITY_ORDER, Severity
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from toollens.cli.check_clients import ClientsCheck
    from toollens.core.checks import ToolCheck
    from toollens.core.records import Finding
    from toollens.project.annotations import Locator
    from toollens.project.github import Annotation, Level
    from toollens.project.places import Place
    from toollens.render.toolset_table import ToolRowView
    from toollens.toolsets import ToolEntry, Toolset

__all__ = ["ToolRow", "format_github", "format_text", "toolset_data"]


@dataclass(frozen=True)
class ToolRow:
    """One tool of a checked toolset: the entry and its check result (``None`` if unread)."""

    entry: ToolEntry
    result: ToolCheck | None


_LEVELS: dict[str, Level] = {"error": "error", "warning": "warning", "info": "notice"}


def _findings_of(result: Any) -> list[Finding]:
    """A tool's lint findings, then each provider's."""
    return [*result.lint, *(f for found in result.providers.values() for f in found)]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counts(rows: Sequence[ToolRow], findings: Sequence[Finding]) -> dict[Severity, int]:
    """The check's problems per severity: each tool's as ``check TOOL`` counts them, and
    ``findings`` (the set's and the check's own)."""
    return set_counts((r.result.counts() for r in rows if r.result is not None), findings)


def _counts_text(counts: dict[Severity, int], view_errors: int = 0) -> str:
    parts = [_plural(n, sev.value) for sev, n in counts.items() if n]
    if view_errors:
        parts.append(_plural(view_errors, "view error"))
    return ", ".join(parts) if parts else "ok"


def _table(
    ts: Toolset,
    rows: Sequence[ToolRow],
    providers: Sequence[str],
    clients: ClientsCheck | None = None,
) -> list[str]:
    """The table the static page and the widget show (one model), as text, with a column
    per chosen client."""
    from toollens.render.toolset_table import Cell, Column, table_text, toolset_table

    model = toolset_table(ts, providers, checks=[r.result for r in rows])
    chosen = clients.chosen if clients is not None else ()

    def client_column(client: str) -> Column:
        def cell(row: ToolRowView) -> Cell:
            text = _client_cell(clients, client, row.name)
            return Cell(text, text)

        return Column(client, client, cell, "verdict")

    model = model.with_columns([client_column(c) for c in chosen])
    return table_text(model, ["tool", *providers, "lint", *chosen])


def _client_cell(clients: ClientsCheck | None, client: str, tool: str) -> str:
    if clients is None:
        return ""
    verdict = clients.report.judgement(client).verdict_for(tool)
    return "-" if verdict is None else verdict.verdict.value


def _name(entry: ToolEntry) -> str:
    role = entry.origin.role
    return f"{entry.name} ({role})" if role else entry.name


def headline(ts: Toolset, rows: Sequence[ToolRow], more: Sequence[Finding] = ()) -> str:
    """One line: the tools, those not read, and the findings by severity (``more``: the
    check's own findings besides the tools' and the toolset's, e.g. token budgets)."""
    unread = sum(1 for r in rows if r.entry.error is not None)
    view_errors = sum(len(r.result.view_errors) for r in rows if r.result is not None)
    counts = _counts_text(_counts(rows, [*ts.findings, *more]), view_errors)
    extra = f", {unread} could not be read" if unread else ""
    return f"{ts.label}: {_plural(len(rows), 'tool')}{extra}; {counts.replace('ok', 'no findings')}"


def format_text(
    ts: Toolset,
    rows: Sequence[ToolRow],
    providers: Sequence[str],
    clients: ClientsCheck | None = None,
    more: Sequence[Finding] = (),
) -> str:
    """The table, the clients' verdicts, the findings across tools, then each tool's."""
    lines = [headline(ts, rows, more), "", *_table(ts, rows, providers, clients)]
    if clients is not None:
        from toollens.cli.clients_format import clients_lines

        lines += ["", *clients_lines(clients)]
    if ts.cross_findings:
        lines += ["", "across tools:"]
        from toollens.toolsets.rules import grouped_findings, some_names

        for item in grouped_findings(ts.cross_findings):
            named = f" (tools: {some_names(item.tools)})" if item.tools else ""
            lines.append(_finding_line(item.finding) + named)
            lines.append(f"      fix: {item.finding.fix}")
    for row in rows:
        lines.extend(_tool_lines(row))
    return "\n".join(lines) + "\n"


def _tool_lines(row: ToolRow) -> Iterator[str]:
    entry, result = row.entry, row.result
    if entry.error is not None:
        yield from ("", f"{entry.name} ({entry.origin}): could not be read: {entry.error}")
        return
    if result is None or not (_findings_of(result) or result.view_errors):
        return
    yield from ("", f"{_name(entry)} ({entry.origin}):")
    for view, message in result.view_errors.items():
        yield f"  error[view.{view}]: {message}"
    for label, findings in [("lint", result.lint), *result.providers.items()]:
        same = explained_by_lint(result.lint, findings) if label != "lint" else {}
        for finding in sorted(findings, key=_rank):
            yield f"{_finding_line(finding)}  [{label}]"
            yield f"      fix: {finding.fix}"
            if id(finding) in same:
                yield f"      same problem as {same[id(finding)]} above (counted once)"


def _finding_line(finding: Finding) -> str:
    where = f" at {finding.pointer or '/'}" if finding.pointer is not None else ""
    return f"  {finding.severity.value}[{finding.rule}]{where}: {finding.message}"


def _rank(finding: Finding) -> int:
    return SEVERITY_ORDER.index(Severity(finding.severity))


# -- JSON -----------------------------------------------------------------------------------


def toolset_data(
    ts: Toolset,
    rows: Sequence[ToolRow],
    providers: Sequence[str],
    clients: ClientsCheck | None = None,
    more: Sequence[Finding] = (),
) -> JsonObject:
    """The check of a toolset as JSON data; keys in a fixed order (``more``: the check's
    own findings, counted in ``ok`` and ``counts``; their records are the caller's)."""
    data = _toolset_json(ts, rows, providers, more)
    if clients is not None:
        from toollens.cli.clients_format import clients_data

        by_tool, whole = clients_data(clients)
        for tool in data["tools"]:
            tool["clients"] = by_tool.get(tool["name"], [])
        data["clients"] = whole
    return data


def _toolset_json(
    ts: Toolset, rows: Sequence[ToolRow], providers: Sequence[str], more: Sequence[Finding]
) -> JsonObject:
    return {
        "source": ts.label,
        "ok": not any(
            r.entry.error is not None or (r.result is not None and r.result.errors) for r in rows
        )
        and not any(f.severity is Severity.ERROR for f in [*ts.findings, *more]),
        "providers": list(providers),
        "counts": {s.value: n for s, n in _counts(rows, [*ts.findings, *more]).items()},
        "tools": [
            {
                "name": r.entry.name,
                "origin": r.entry.origin.to_json(),
                "error": r.entry.error,
                "check": r.result.to_dict() if r.result is not None else None,
            }
            for r in rows
        ],
        "findings": [
            {**item.finding.to_json(), "tools": list(item.tools)} for item in ts.cross_findings
        ],
    }


# -- GitHub ---------------------------------------------------------------------------------


def format_github(
    ts: Toolset,
    rows: Sequence[ToolRow],
    source: str | None = None,
    clients: ClientsCheck | None = None,
    more: Sequence[Finding] = (),
) -> str:
    """Each tool's annotations (on its ``def`` when it is Python), unread tools, cross-tool.

    ``source`` is the toolset as named on the command line: annotations about the whole set,
    or a tool with no place of its own, point at where it is defined.
    """
    from toollens.cli.project import format_located_checks_github
    from toollens.project.places import NOWHERE, entry_place, source_place

    whole = source_place(source) if source else NOWHERE
    places = {id(r.entry): entry_place(r.entry, whole) for r in rows}
    checked = [(r.result, _locator(r.entry, places)) for r in rows if r.result is not None]
    text = format_located_checks_github(checked) if checked else ""
    lines = [str(a) for a in _extra_annotations(ts, rows, places, whole)]
    if clients is not None:
        from toollens.cli.clients_format import client_annotations

        lines += [str(a) for a in client_annotations(clients, whole)]
    from toollens.project.github import plain_line

    return text + "\n".join([*lines, plain_line(headline(ts, rows, more))]) + "\n"


def _locator(entry: ToolEntry, places: dict[int, Place]) -> Locator:
    # The object and FunctionSchema annotations point at; a report read in another process
    # is not kept, so its tool points where its origin says (module file and def line).
    from toollens.project.annotations import Locator

    rep = entry.report
    obj, function = (rep.target, rep.function) if rep is not None else (None, None)
    return Locator(obj, function, place=places[id(entry)])


def _extra_annotations(
    ts: Toolset, rows: Sequence[ToolRow], places: dict[int, Place], whole: Place
) -> Iterator[Annotation]:
    from toollens.project.github import Annotation

    for row in rows:
        if row.entry.error is not None:
            place = places[id(row.entry)]
            yield Annotation(
                level="error",
                title=f"toollens: tool {row.entry.name} could not be read",
                message=f"{row.entry.origin}: {row.entry.error}",
                file=place.file,
                line=place.line,
            )
    by_name = {r.entry.name: places[id(r.entry)] for r in rows}
    for item in ts.cross_findings:
        finding = item.finding
        # The first tool it names that has a place; else the whole source.
        place = next((by_name[t] for t in item.tools if by_name.get(t)), whole)
        yield Annotation(
            level=_LEVELS[finding.severity.value],
            title=f"toollens toolset: {finding.rule}",
            message=f"{finding.message} Fix: {finding.fix}",
            file=place.file,
            line=place.line,
        )
