"""A toolset as HTML: totals, one row per tool, and each tool's views; and as plain text.

Pure functions over a :class:`~toollens.toolsets.Toolset`, escaped through
:mod:`toollens.render.markup`. :func:`render_toolset_page` is one self-contained page (its
stylesheet and a small sort-and-filter script inline; nothing fetched) for CI artifacts and
code review; :func:`render_toolset_html` is the fragment a notebook shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from toollens.core.records import SEVERITY_ORDER, Finding, Severity, severity_counts
from toollens.render.markup import Markup, badge, tag

if TYPE_CHECKING:
    from toollens.core.report import Report
    from toollens.toolsets import ToolEntry, Toolset

__all__ = [
    "TOOLSET_STYLE",
    "ToolRowView",
    "across_html",
    "render_toolset_html",
    "render_toolset_page",
    "render_toolset_text",
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
.tl-root .tl-ts-cost {
  display: inline-block; height: 0.7em; margin-right: 6px; background: var(--tl-accent);
  opacity: 0.6; vertical-align: baseline;
}
"""

# Sorting and filtering of the static page: plain DOM, no library, no network.
_SCRIPT = """
(function () {
  var root = document.currentScript.parentNode;
  var table = root.querySelector(".tl-ts-tools");
  var body = table.tBodies[0];
  var filter = root.querySelector(".tl-ts-filter");
  var level = root.querySelector(".tl-ts-level");
  function apply() {
    var text = (filter.value || "").toLowerCase();
    var want = level.value;
    Array.prototype.forEach.call(body.rows, function (row) {
      var hit = row.textContent.toLowerCase().indexOf(text) >= 0;
      var rank = Number(row.getAttribute("data-rank"));
      var ok = want === "" || rank <= Number(want);
      row.hidden = !(hit && ok);
    });
  }
  filter.addEventListener("input", apply);
  level.addEventListener("change", apply);
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
    th.addEventListener("click", function () {
      var up = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
        c.removeAttribute("aria-sort");
      });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[index].getAttribute("data-key");
        var y = b.cells[index].getAttribute("data-key");
        var nx = Number(x), ny = Number(y);
        var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return up ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
"""

_UNCHECKED = len(SEVERITY_ORDER)


@dataclass(frozen=True)
class ToolRowView:
    """What one row of the toolset table shows (the widget sends these to its table).

    Attributes:
        index: the tool's position in the toolset (rows keep it when sorted).
        name, source, kind, role: the tool's name and where it came from.
        parameters: how many top-level parameters it has (``None`` when not read).
        providers: per provider, the worst severity of its findings (``"ok"`` when none,
            ``"not read"``/``"not checked"`` otherwise).
        strict: ``"strict"``, ``"off"`` or ``"cannot be strict"``.
        lint: how many lint findings.
        findings: every finding of the tool (its own, then the cross-tool ones about it).
        rank: the worst severity's position (0 is error), for sorting and filtering.
        error: why the tool could not be read.
        tokens: what the tool's definition costs on the toolset's model (``None`` when it
            could not be counted: not read, or no tokenizer installed).
    """

    index: int
    name: str
    source: str
    kind: str
    role: str | None
    parameters: int | None
    providers: dict[str, str]
    strict: str
    lint: int
    findings: int
    rank: int
    error: str | None
    tokens: int | None = None


def _worst(findings: Sequence[Finding]) -> tuple[str, int]:
    counts = severity_counts(findings)
    for rank, severity in enumerate(SEVERITY_ORDER):
        if counts[severity]:
            return severity.value, rank
    return "ok", len(SEVERITY_ORDER) - 1  # as good as "info" for filtering


def _strict_state(rep: Report) -> str:
    if not rep.options.strict:
        return "off"
    return "strict" if rep.schema is not None else "cannot be strict"


def _token_count(rep: Report, model: str) -> int | None:
    """The tool's own tokens on ``model``, or ``None`` when it cannot be counted here."""
    from toollens.core.errors import ToolLensError
    from toollens.tokens import tokens

    try:
        return tokens(rep, model).tools[0].tokens
    except ToolLensError:  # no tokenizer installed, a schema the counter cannot read
        return None


def _row(
    index: int, entry: ToolEntry, ts: Toolset, providers: Sequence[str], model: str
) -> ToolRowView:
    origin = entry.origin
    base = ToolRowView(
        index,
        entry.name,
        str(origin),
        origin.kind,
        origin.role,
        None,
        {},
        "-",
        0,
        0,
        0,
        entry.error,
    )
    if entry.report is None:
        state = "not read" if entry.error is not None else "not checked"
        # An unread tool sorts and filters with the errors; an unchecked one after "ok".
        rank = 0 if entry.error is not None else _UNCHECKED
        return replace(base, providers=dict.fromkeys(providers, state), rank=rank)
    from toollens.toolsets.rules import concerns_provider

    cross = ts.findings_for(entry.name)
    cells, every = {}, [*entry.report.lint, *cross]
    for provider in providers:
        rep = entry.report_for(provider)
        found = rep.provider_findings if rep is not None else ()
        # A name the provider rejects is that provider's problem too, not only the set's.
        cells[provider] = _worst([*found, *(f for f in cross if concerns_provider(f, provider))])[0]
        every.extend(found)
    props = (entry.parameters_schema or {}).get("properties")
    return replace(
        base,
        parameters=len(props) if isinstance(props, dict) else 0,
        providers=cells,
        strict=_strict_state(entry.report),
        lint=len(entry.report.lint),
        findings=len(every),
        rank=_worst(every)[1],
        tokens=_token_count(entry.report, model),
    )


def toolset_row_views(ts: Toolset, providers: Sequence[str] | None = None) -> list[ToolRowView]:
    """One row per tool, in toolset order."""
    chosen = list(providers or [_provider_of(ts)])
    model = token_model(ts)
    return [_row(i, entry, ts, chosen, model) for i, entry in enumerate(ts.tools)]


def token_model(ts: Toolset) -> str:
    """The model the token column counts for: the toolset provider's default model."""
    from toollens.tokens.models import model_for_provider

    return model_for_provider(_provider_of(ts))


def _provider_of(ts: Toolset) -> str:
    from toollens.core.choices import DEFAULT_PROVIDER

    return ts.options.provider if ts.options is not None else DEFAULT_PROVIDER


# -- HTML -----------------------------------------------------------------------------------


def _sev_badge(text: str) -> Markup:
    return badge(text, f"tl-sev-{text}") if text in {s.value for s in Severity} else badge(text)


def totals_html(ts: Toolset, rows: Sequence[ToolRowView]) -> Markup:
    """Badges: how many tools, findings per severity, unread tools, cross-tool findings."""
    counts = ts.finding_counts
    unread = sum(1 for r in rows if r.error is not None)
    parts = [badge(f"{len(rows)} tool{'' if len(rows) == 1 else 's'}", "tl-on")]
    parts += [
        badge(f"{n} {s.value}{'' if n == 1 else 's'}", f"tl-sev-{s.value}")
        for s, n in counts.items()
        if n
    ]
    if unread:
        parts.append(badge(f"{unread} not read", "tl-sev-error"))
    if ts.findings:
        parts.append(badge(f"{len(ts.findings)} across tools"))
    return tag("div", *parts, class_="tl-ts-totals")


def _cell(text: object, key: object = None) -> Markup:
    return tag("td", str(text), data_key=str(text if key is None else key))


def _tokens_cell(tokens: int | None, most: int) -> Markup:
    if tokens is None:
        return tag("td", "-", data_key=-1, class_="tl-ts-tokens")
    width = max(1, round(60 * tokens / most)) if most else 1
    bar = tag("span", "", class_="tl-ts-cost", style=f"width: {width}px")
    return tag("td", bar, str(tokens), data_key=tokens, class_="tl-ts-tokens")


def _table(rows: Sequence[ToolRowView], providers: Sequence[str], *, links: bool) -> Markup:
    head = ["#", "tool", "source", "params", "tokens", *providers, "strict", "lint", "findings"]
    most = max((r.tokens for r in rows if r.tokens is not None), default=0)
    header = tag("thead", tag("tr", *(tag("th", c, scope="col") for c in head)))
    body = []
    for row in rows:
        name: Markup | str = row.name + (f" ({row.role})" if row.role else "")
        if links:
            name = tag("a", name, href=f"#tl-tool-{row.index}")
        cells = [
            _cell(row.index + 1, row.index),
            tag("td", name, data_key=row.name),
            tag(
                "td", f"{row.source}: {row.error}" if row.error else row.source, data_key=row.source
            ),
            _cell("-" if row.parameters is None else row.parameters, row.parameters or 0),
            _tokens_cell(row.tokens, most),
            *(
                tag("td", _sev_badge(row.providers[p]), data_key=row.providers[p])
                for p in providers
            ),
            _cell(row.strict),
            _cell(row.lint),
            _cell(row.findings),
        ]
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
            " ",
            i.finding.message,
            tag("div", "fix: ", i.finding.fix, class_="tl-muted"),
        )
        for i in ts.cross_findings
    ]
    return tag("div", tag("h3", "Across tools"), tag("ul", *items))


def render_toolset_html(ts: Toolset, providers: Sequence[str] | None = None) -> str:
    """The notebook fragment: stylesheet, totals, the table and the cross-tool findings."""
    from toollens.render.css import style_tag

    chosen = list(providers or [_provider_of(ts)])
    rows = toolset_row_views(ts, chosen)
    return str(
        tag(
            "div",
            style_tag(),
            Markup(f"<style>{TOOLSET_STYLE}</style>"),
            tag("h2", ts.label),
            totals_html(ts, rows),
            _table(rows, chosen, links=False),
            across_html(ts),
            class_="tl-root",
            data_toollens="toolset",
        )
    )


def _tool_section(index: int, entry: ToolEntry) -> Markup:
    from toollens.core.report import View
    from toollens.render.html import render_header, render_panels

    heading = tag(
        "h2", f"{index + 1}. {entry.name}", tag("span", f"  {entry.origin}", class_="tl-muted")
    )
    if entry.report is None:
        why = entry.error or f"{entry.origin.role}: listed, not checked (no schema)"
        return tag(
            "section",
            heading,
            tag("p", why, class_="tl-note"),
            class_="tl-ts-tool",
            id=f"tl-tool-{index}",
        )
    panels = render_panels(entry.report)
    keys = (View.SIGNATURE, View.STRICT, View.OUTPUT, View.METADATA, View.FINDINGS)
    grid = tag("div", *(Markup(panels[k]) for k in keys if k in panels), class_="tl-grid")
    return tag(
        "section",
        heading,
        render_header(entry.report),
        grid,
        class_="tl-ts-tool",
        id=f"tl-tool-{index}",
    )


def render_toolset_page(ts: Toolset, providers: Sequence[str] | None = None) -> str:
    """One self-contained HTML document: the table (sortable, filterable) and every tool."""
    from toollens.render.css import STYLE

    chosen = list(providers or [_provider_of(ts)])
    rows = toolset_row_views(ts, chosen)
    bar = tag(
        "div",
        tag(
            "input",
            type="search",
            placeholder="filter tools",
            class_="tl-ts-filter",
            aria_label="filter tools",
        ),
        tag(
            "select",
            tag("option", "every tool", value=""),
            *(
                tag("option", f"{s.value} or worse", value=str(i))
                for i, s in enumerate(SEVERITY_ORDER)
            ),
            class_="tl-ts-level",
            aria_label="worst finding",
        ),
        class_="tl-ts-bar",
    )
    body = tag(
        "div",
        tag("h1", "toollens: ", ts.label),
        totals_html(ts, rows),
        bar,
        _table(rows, chosen, links=True),
        across_html(ts),
        *(_tool_section(i, e) for i, e in enumerate(ts.tools)),
        Markup(f"<script>{_SCRIPT}</script>"),
        class_="tl-root",
        data_toollens="toolset",
    )
    head = tag(
        "head",
        Markup('<meta charset="utf-8">'),
        tag("title", f"toollens: {ts.label}"),
        Markup(f"<style>{STYLE}{TOOLSET_STYLE}</style>"),
    )
    return "<!DOCTYPE html>\n" + str(tag("html", head, tag("body", body), lang="en")) + "\n"


# -- text -----------------------------------------------------------------------------------


def render_toolset_text(ts: Toolset) -> str:
    """A short plain-text summary: one line per tool, then the findings across tools."""
    rows = toolset_row_views(ts)
    lines = [f"Toolset {ts.label}: {len(rows)} tools"]
    for row in rows:
        state = row.error or ", ".join(f"{p}: {s}" for p, s in row.providers.items())
        lines.append(f"  {row.name} ({row.source}): {state}")
    lines.extend(f"  {f}" for f in ts.findings)
    return "\n".join(lines)


def toolset_mimebundle(ts: Toolset) -> dict[str, str]:
    """How a notebook shows a Toolset without the widget: text and the HTML table."""
    return {"text/plain": render_toolset_text(ts), "text/html": render_toolset_html(ts)}
