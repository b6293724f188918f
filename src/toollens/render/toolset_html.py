"""A toolset as HTML: totals, the table, the findings across tools; and as plain text.

Pure functions over a :class:`~toollens.toolsets.Toolset`, escaped through
:mod:`toollens.render.markup`, drawing the one table model of
:mod:`toollens.render.toolset_table`. :func:`render_toolset_html` is the fragment a notebook
shows (no script: saved notebooks and nbconvert drop scripts);
:func:`~toollens.render.toolset_page.render_toolset_page` is the self-contained page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from toollens.assess import Assessment, AssessRequest, assess_toolset
from toollens.core.choices import DEFAULT_PROVIDER
from toollens.core.errors import ToolLensError
from toollens.core.records import Severity
from toollens.render.css import style_tag
from toollens.render.markup import Markup, badge, join, tag
from toollens.render.toolset_table import Cell, ToolRowView, ToolsetTable, toolset_table
from toollens.tokens import tokens
from toollens.tokens.models import model_for_provider
from toollens.toolsets.rules import grouped_findings, some_names

if TYPE_CHECKING:
    from toollens.toolsets import Tool, Toolset

__all__ = [
    "TOOLSET_STYLE",
    "ToolRowView",
    "across_html",
    "assessed",
    "assessment_table",
    "render_toolset_html",
    "render_toolset_text",
    "rows_html",
    "shared_html",
    "table_html",
    "table_of",
    "token_model",
    "toolset_mimebundle",
    "toolset_row_views",
    "totals_html",
]

TOOLSET_STYLE = """
.tl-root .tl-ts-totals { margin: 6px 0 10px; display: flex; gap: 6px; flex-wrap: wrap; }
.tl-root .tl-ts-tools { border-collapse: collapse; width: 100%; font-size: 0.92em; }
.tl-root .tl-ts-tools th, .tl-root .tl-ts-tools td {
  border-bottom: 1px solid var(--tl-border); padding: 3px 8px; text-align: left;
  vertical-align: top;
}
.tl-root .tl-ts-tools th { cursor: pointer; user-select: none; white-space: nowrap; }
.tl-root .tl-ts-tools th[aria-sort="ascending"]::after { content: " \\25B2"; }
.tl-root .tl-ts-tools th[aria-sort="descending"]::after { content: " \\25BC"; }
.tl-root .tl-ts-tools tr.tl-ts-row:hover { background: var(--tl-code-bg); cursor: pointer; }
.tl-root .tl-ts-tools tr.tl-ts-selected { box-shadow: inset 3px 0 0 var(--tl-accent); }
.tl-root .tl-ts-bar { margin: 6px 0; display: flex; gap: 8px; align-items: center; }
.tl-root .tl-sev-error { color: var(--tl-error); border-color: currentColor; }
.tl-root .tl-sev-warning { color: var(--tl-warn); border-color: currentColor; }
.tl-root .tl-sev-info { color: var(--tl-info); border-color: currentColor; }
.tl-root .tl-ts-tool { margin-top: 18px; border-top: 2px solid var(--tl-border); }
.tl-root .tl-ts-tokens { white-space: nowrap; }
/* Spelled out: marimo's page resets headings, lists and form controls to bare text. */
.tl-root.tl-ts > h3, .tl-root .tl-ts-across h3 {
  font-size: 1.17em; font-weight: 600; margin: 8px 0 4px;
}
.tl-root .tl-ts-across ul { list-style: disc; padding-left: 1.3em; margin: 4px 0; }
.tl-root .tl-ts-bar input, .tl-root .tl-ts-bar select, .tl-root .tl-ts-bar button {
  font: inherit; color: var(--tl-fg); background: var(--tl-bg);
  border: 1px solid var(--tl-border); border-radius: 3px; padding: 2px 6px;
}
.tl-root .tl-ts-source { margin: 4px 0; overflow-wrap: anywhere; }
.tl-root .tl-ts-bar .tl-ts-where { min-width: 9em; text-align: center; }
.tl-root .tl-ts-detail:empty { display: none; }
.tl-root .tl-ts-cost {
  display: inline-block; height: 0.7em; margin-right: 6px; background: var(--tl-accent);
  opacity: 0.6; vertical-align: baseline;
}
"""


def toolset_row_views(ts: Toolset, providers: Sequence[str] | None = None) -> list[ToolRowView]:
    """One row per tool, in toolset order (the rows of :func:`table_of`)."""
    return list(table_of(ts, providers).rows)


def assessed(subject: Toolset | Assessment, providers: Sequence[str] | None = None) -> Assessment:
    """``subject``'s assessment: itself, or a toolset as read judged for ``providers`` (its
    clients' verdicts too when it is an MCP tool list), as ``check`` judges it."""
    if isinstance(subject, Assessment):
        return subject
    request = AssessRequest(target=subject, providers=tuple(providers or ()))
    return assess_toolset(subject, request, providers)


def assessment_table(result: Assessment) -> ToolsetTable:
    """The assessment's table, with the token column on the toolset provider's model and,
    for an MCP tool list, a verdict column per client shown (a browser shows the one
    picked)."""
    ts = result.toolset
    assert ts is not None
    model = token_model(ts)
    return toolset_table(
        ts,
        result.providers,
        verdicts=result.verdicts,
        tokens=lambda entry: _token_count(entry, model),
    )


def table_of(ts: Toolset, providers: Sequence[str] | None = None) -> ToolsetTable:
    """The table of a toolset as read (:func:`assessed`, then :func:`assessment_table`)."""
    return assessment_table(assessed(ts, providers))


def _token_count(entry: Tool, model: str) -> int | None:
    """The tool's own tokens on ``model``, or ``None`` when it cannot be counted here."""
    if entry.report is None:
        return None
    try:
        return tokens(entry.report, model).tools[0].tokens
    except ToolLensError:  # no tokenizer installed, a schema the counter cannot read
        return None


def token_model(ts: Toolset) -> str:
    """The model the token column counts for: the toolset provider's default model."""
    return model_for_provider(ts.options.provider if ts.options is not None else DEFAULT_PROVIDER)


# -- HTML -----------------------------------------------------------------------------------

_SEVERITIES = {s.value for s in Severity}


def _sev_badge(text: str) -> Markup:
    return badge(text, f"tl-sev-{text}") if text in _SEVERITIES else badge(text)


def verdict_badge(cell: Cell) -> Markup:
    """A verdict cell's badge: its counts, coloured by its worst (an unread tool as an error)."""
    state = "error" if cell.state == "not read" else cell.state
    return badge(cell.text, f"tl-sev-{state}") if state in _SEVERITIES else badge(cell.text)


def totals_html(result: Assessment) -> Markup:
    """Badges: how many tools, findings per severity (as the assessment counts them: what
    ``check`` prints), unread tools, cross-tool findings."""
    ts = result.toolset
    assert ts is not None
    count = len(result.rows)
    parts = [badge(f"{count} tool{'' if count == 1 else 's'}", "tl-on")]
    parts += [
        badge(f"{n} {s.value}{'' if n == 1 else 's'}", f"tl-sev-{s.value}")
        for s, n in result.counts.items()
        if n
    ]
    if result.unread:
        parts.append(badge(f"{result.unread} not read", "tl-sev-error"))
    if ts.findings:
        parts.append(badge(f"{len(ts.findings)} across tools"))
    return tag("div", *parts, class_="tl-ts-totals")


def _td(kind: str, cell: Cell, most: int) -> Markup:
    if kind in ("verdict", "client"):
        return tag("td", verdict_badge(cell), data_key=cell.key)
    if kind == "tokens":
        if not isinstance(cell.key, int) or cell.key < 0:
            return tag("td", "-", data_key=-1, class_="tl-ts-tokens")
        width = max(1, round(60 * cell.key / most)) if most else 1
        bar = tag("span", "", class_="tl-ts-cost", style=f"width: {width}px")
        return tag("td", bar, cell.text, data_key=cell.key, class_="tl-ts-tokens")
    return tag("td", cell.text, data_key=cell.key)


def table_html(table: ToolsetTable) -> Markup:
    """The table as HTML, every row in toolset order, and the sources its rows share."""
    return join(shared_html(table), rows_html(table, table.rows))


def shared_html(table: ToolsetTable) -> Markup:
    """The sources the rows share, one line each (empty when they share none)."""
    lines = [tag("div", line, class_="tl-ts-source") for line in table.group_lines()]
    return tag("div", *lines, class_="tl-ts-shared")


def rows_html(table: ToolsetTable, rows: Sequence[ToolRowView], *, links: bool = False) -> Markup:
    """The ``<table>`` of ``rows``; with ``links``, each tool's name links to its views."""
    most = max((r.tokens for r in table.rows if r.tokens is not None), default=0)
    columns = table.drawn()
    header = tag("thead", tag("tr", *(tag("th", c.title, scope="col") for c in columns)))
    body = []
    for row in rows:
        cells = []
        for column in columns:
            cell = _td(column.kind, column.cell(row), most)
            if links and column.id == "tool":
                link = tag("a", column.cell(row).text, href=f"#tl-tool-{row.index}")
                cell = tag("td", link, data_key=column.cell(row).key)
            cells.append(cell)
        body.append(tag("tr", *cells, class_="tl-ts-row", data_index=row.index, data_rank=row.rank))
    return tag("table", header, tag("tbody", *body), class_="tl-ts-tools")


def across_html(ts: Toolset) -> Markup | None:
    """The cross-tool findings as a list, or ``None`` when there are none."""
    if not ts.cross_findings:
        return None
    items = [
        tag(
            "li",
            _sev_badge(i.finding.severity.value),
            " ",
            tag("code", i.finding.rule),
            # the pointer tells apart one finding at two places (inputSchema, outputSchema)
            join(" at ", tag("code", i.finding.pointer or "/"), ":")
            if i.finding.pointer is not None
            else None,
            " ",
            i.finding.message,
            tag("div", "tools: ", some_names(i.tools), class_="tl-muted") if i.tools else None,
            tag("div", "fix: ", i.finding.fix, class_="tl-muted"),
        )
        for i in grouped_findings(ts.cross_findings)
    ]
    return tag("div", tag("h3", "Across tools"), tag("ul", *items))


def render_toolset_html(
    subject: Toolset | Assessment, providers: Sequence[str] | None = None
) -> str:
    """The notebook fragment: stylesheet, totals, the table and the cross-tool findings."""
    result = assessed(subject, providers)
    assert result.toolset is not None
    return str(
        tag(
            "div",
            style_tag(),
            Markup(f"<style>{TOOLSET_STYLE}</style>"),
            tag("h2", result.toolset.label),
            totals_html(result),
            table_html(assessment_table(result)),
            across_html(result.toolset),
            class_="tl-root",
            data_toollens="toolset",
        )
    )


# -- text -----------------------------------------------------------------------------------


def render_toolset_text(ts: Toolset) -> str:
    """A short plain-text summary: one line per tool, then the findings across tools."""
    table = toolset_table(ts)
    lines = [f"Toolset {ts.label}: {len(table.rows)} tools", *table.group_lines()]
    for row in table.rows:
        state = row.error or ", ".join(f"{p}: {s}" for p, s in row.provider_text.items())
        where = f" ({row.source})" if row.source else ""
        lines.append(f"  {row.name}{where}: {state}")
    for item in grouped_findings(ts.cross_findings):
        f = item.finding
        named = f" (tools: {some_names(item.tools)})" if item.tools else ""
        lines.append(f"  {f.headline}{named}" + (f" Fix: {f.fix}" if f.fix else ""))
    return "\n".join(lines)


def toolset_mimebundle(ts: Toolset) -> dict[str, str]:
    """How a notebook shows a Toolset without the widget: text and the HTML table."""
    return {"text/plain": render_toolset_text(ts), "text/html": render_toolset_html(ts)}
