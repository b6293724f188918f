"""How ``toollens check`` shows a toolset: a table, then findings grouped by tool; JSON; GitHub."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from typing import TYPE_CHECKING

from toollens.core.problems import explained_by_lint
from toollens.core.records import SEVERITY_ORDER, Severity
from toollens.core.schema.types import JsonObject
from toollens.toolsets.rules import grouped_findings, some_names

if TYPE_CHECKING:
    from toollens.assess import Assessment, ToolRow
    from toollens.core.checks import ToolCheck
    from toollens.core.records import Finding
    from toollens.project.annotations import Locator
    from toollens.project.github import Annotation, Level
    from toollens.project.places import Place
    from toollens.render.toolset_table import Column, ToolsetTable
    from toollens.toolsets import Tool, Toolset

__all__ = ["format_github", "format_text", "headline", "toolset_data"]


_LEVELS: dict[str, Level] = {"error": "error", "warning": "warning", "info": "notice"}


def _findings_of(result: ToolCheck) -> list[Finding]:
    """A tool's lint findings, then each provider's."""
    return [*result.lint, *(f for found in result.providers.values() for f in found)]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counts_text(counts: dict[Severity, int], view_errors: int = 0) -> str:
    parts = [_plural(n, sev.value) for sev, n in counts.items() if n]
    if view_errors:
        parts.append(_plural(view_errors, "view error"))
    return ", ".join(parts) if parts else "ok"


#: The widest table ``check`` prints as is; a wider one groups the clients that agree.
WIDTH = 120


def _table(result: Assessment) -> list[str]:
    """The table the static page and the widget show (one model), as text, with a column
    per chosen client; wider than :data:`WIDTH`, the clients that agree on every tool share
    a column (named below the table), and still wider, each tool is a few lines."""
    # lazy: the table (render.toolset_table, ~5 ms) is for text output only
    from toollens.render.toolset_table import table_text
    from toollens.render.toolset_table import toolset_table as table_model

    assert result.toolset is not None
    model = table_model(result.toolset, result.providers, verdicts=result.verdicts)
    chosen = [f"client:{c}" for c in (result.clients.chosen if result.clients else ())]
    fixed = ["tool", *result.providers, "lint"]
    lines = table_text(model, [*fixed, *chosen])
    if max(map(len, lines)) <= WIDTH or len(chosen) < 2:
        return lines
    groups = _agreeing(model, chosen)
    merged = model.with_columns([_group_column(model, i, g) for i, g in enumerate(groups)])
    ids = [f"clients:{i}" for i in range(len(groups))]
    legend = [
        line
        for i, g in enumerate(groups)
        for line in textwrap.wrap(
            f"{_group_title(i, g)}: {', '.join(_client(c) for c in g)}",
            WIDTH,
            initial_indent="  ",
            subsequent_indent="    ",
            break_on_hyphens=False,
        )
    ]
    lines = table_text(merged, [*fixed, *ids])
    if max(map(len, lines)) <= WIDTH:
        return [*lines, "clients that agree on every tool share a column:", *legend]
    return _turned(merged, fixed, ids, legend)


def _client(column_id: str) -> str:
    return column_id.removeprefix("client:")


def _agreeing(model: ToolsetTable, chosen: list[str]) -> list[list[str]]:
    """The chosen client columns grouped by their verdicts on every row, in first-seen order."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for column_id in chosen:
        cell = model.column(column_id).cell
        groups.setdefault(tuple(cell(row).text for row in model.rows), []).append(column_id)
    return list(groups.values())


def _group_title(index: int, group: list[str]) -> str:
    first = _client(group[0])
    return first if len(group) == 1 else f"{first} +{len(group) - 1}"


def _group_column(model: ToolsetTable, index: int, group: list[str]) -> Column:
    # lazy: the table (render.toolset_table, ~5 ms) is for text output only
    from toollens.render.toolset_table import Column

    shown = model.column(group[0])  # every client of the group shows the same verdict
    return Column(f"clients:{index}", _group_title(index, group), shown.cell, "client")


def _turned(model: ToolsetTable, fixed: list[str], ids: list[str], legend: list[str]) -> list[str]:
    """The table turned: a line per tool, then its clients' verdicts, a group a line."""
    lines = []
    for row in model.rows:
        cells = [f"{model.column(c).title} {model.column(c).cell(row).text}" for c in fixed[1:]]
        lines.append(f"{model.column('tool').cell(row).text}: {'; '.join(cells)}")
        lines += [f"  {model.column(c).title}: {model.column(c).cell(row).text}" for c in ids]
    return [*lines, "client groups (each agrees on every tool):", *legend]


def _name(entry: Tool) -> str:
    role = entry.origin.role
    return f"{entry.name} ({role})" if role else entry.name


def headline(result: Assessment) -> str:
    """One line: the tools, those not read, and the findings by severity (the token rules'
    too)."""
    assert result.toolset is not None
    counts = _counts_text(result.counts, result.view_errors)
    extra = f", {result.unread} could not be read" if result.unread else ""
    tools = _plural(len(result.rows), "tool")
    return f"{result.toolset.label}: {tools}{extra}; {counts.replace('ok', 'no findings')}"


def format_text(result: Assessment) -> str:
    """The table, the clients' verdicts, the findings across tools, then each tool's."""
    ts = result.toolset
    assert ts is not None
    lines = [headline(result), "", *_table(result)]
    if result.clients is not None:
        # lazy: render.check_clients (~1.5 ms), for the clients' verdicts only
        from toollens.render.check_clients import clients_lines

        lines += ["", *clients_lines(result.clients)]
    if ts.cross_findings:
        lines += ["", "across tools:"]

        for item in grouped_findings(ts.cross_findings):
            named = f" (tools: {some_names(item.tools)})" if item.tools else ""
            lines.append(_finding_line(item.finding) + named)
            lines.append(f"      fix: {item.finding.fix}")
    for row in result.rows:
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


def toolset_data(result: Assessment) -> JsonObject:
    """The assessment of a toolset as JSON data; keys in a fixed order."""
    ts = result.toolset
    assert ts is not None
    data: JsonObject = {
        "source": ts.label,
        "ok": result.ok,  # what gates on this path: named clients, named providers
        "providers": list(result.providers),
        "counts": {s.value: n for s, n in result.counts.items()},
        "tools": [
            {
                "name": r.entry.name,
                "origin": r.entry.origin.to_json(),
                "error": r.entry.error,
                "check": r.result.to_json() if r.result is not None else None,
                "verdicts": v.columns(),
            }
            for r, v in zip(result.rows, result.verdicts, strict=True)
        ],
        "findings": [
            {**item.finding.to_json(), "tools": list(item.tools)} for item in ts.cross_findings
        ],
    }
    if result.clients is not None:
        # lazy: render.check_clients (~1.5 ms), for the clients' verdicts only
        from toollens.render.check_clients import clients_data

        by_tool, whole = clients_data(result.clients)
        for tool in data["tools"]:
            tool["clients"] = by_tool.get(tool["name"], [])
        data["clients"] = whole
    return data


# -- GitHub ---------------------------------------------------------------------------------


def format_github(result: Assessment) -> str:
    """Each tool's annotations (on its ``def`` when it is Python), unread tools, cross-tool.

    Annotations about the whole set, or a tool with no place of its own, point at where the
    target as named is defined.
    """
    # lazy: project.places, project.github and render.check_github (~4 ms), for --format github
    from toollens.project.github import plain_line
    from toollens.project.places import NOWHERE, entry_place, source_place
    from toollens.render.check_github import format_located_checks_github

    ts, rows = result.toolset, result.rows
    assert ts is not None
    whole = source_place(result.target) if result.target else NOWHERE
    places = {id(r.entry): entry_place(r.entry, whole) for r in rows}
    checked = [(r.result, _locator(r.entry, places)) for r in rows if r.result is not None]
    text = format_located_checks_github(checked) if checked else ""
    lines = [str(a) for a in _extra_annotations(ts, rows, places, whole)]
    if result.clients is not None:
        # lazy: render.check_clients (~1.5 ms), for the clients' verdicts only
        from toollens.render.check_clients import client_annotations

        lines += [str(a) for a in client_annotations(result.clients, whole)]

    return text + "\n".join([*lines, plain_line(headline(result))]) + "\n"


def _locator(entry: Tool, places: dict[int, Place]) -> Locator:
    # The object and FunctionSchema annotations point at; a report read in another process
    # is not kept, so its tool points where its origin says (module file and def line).
    # lazy: project.annotations (~3 ms), for --format github only
    from toollens.project.annotations import Locator

    rep = entry.report
    obj, function = (rep.target, rep.function) if rep is not None else (None, None)
    return Locator(obj, function, place=places[id(entry)])


def _extra_annotations(
    ts: Toolset, rows: tuple[ToolRow, ...], places: dict[int, Place], whole: Place
) -> Iterator[Annotation]:
    # lazy: project.github (~1 ms), for --format github only
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
