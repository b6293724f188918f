"""A framework comparison -> HTML (escaped through ``tag()``) and plain text.

``frameworks_panel_html(comparison, pair=(a, b))`` is the Frameworks view the explorer
shows: the frameworks with their versions and status, the per-parameter matrix with every
disagreement marked, and the diff between the two chosen columns. ``comparison_html`` is
the same panel with the stylesheet, for a notebook's display; ``comparison_text`` is the
CLI's text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toollens.render.css import style_tag
from toollens.render.markup import Child, Markup, badge, code, join, note, tag

if TYPE_CHECKING:
    from toollens.frameworks.compare import Comparison, FrameworkComparison
    from toollens.frameworks.matrix import Cell, MatrixRow

__all__ = [
    "FRAMEWORKS_STYLE",
    "comparison_html",
    "comparison_text",
    "default_pair",
    "frameworks_panel_html",
    "pair_diff_text",
]

#: Rules of this view only; everything else comes from the shared stylesheet.
FRAMEWORKS_STYLE = """
.tl-root .tl-fw-scroll { overflow-x: auto; max-width: 100%; }
.tl-root .tl-fw-status code { font-size: 0.85em; overflow-wrap: anywhere; }
.tl-root .tl-fw-status td:last-child { min-width: 16em; }
.tl-root .tl-fw-matrix td { vertical-align: top; font-size: 0.92em; }
.tl-root .tl-fw-matrix td.tl-fw-disagree { background: var(--tl-changed); }
.tl-root .tl-fw-matrix .tl-fw-attr { display: block; white-space: nowrap; }
.tl-root .tl-fw-matrix .tl-fw-attr.tl-fw-differs { font-weight: 600; }
.tl-root .tl-fw-matrix .tl-fw-absent { color: var(--tl-error); font-weight: 600; }
.tl-root .tl-fw-status-refused { color: var(--tl-error); }
.tl-root .tl-fw-status-not-installed { color: var(--tl-faint); }
"""

_STATUS_LABELS = {"accepted": "accepted", "refused": "refused", "not-installed": "not installed"}
_CELL_ATTRIBUTES = ("description", "required", "type", "default", "closed")


def default_pair(comparison: Comparison) -> tuple[str, str] | None:
    """The pair shown first: the reference and the first framework that accepted."""
    keys = comparison.participants
    return (keys[0], keys[1]) if len(keys) >= 2 else None


def _attr_text(cell: Cell, attribute: str) -> str | None:
    if attribute == "description":
        return f"description: {cell.description}"
    if attribute == "required":
        return None if cell.required is None else ("required" if cell.required else "optional")
    if attribute == "type":
        return cell.type
    if attribute == "default":
        return f"default {_json(cell.default)}" if cell.default_sent else None
    if attribute == "closed":
        return None if cell.closed is None else ("closed" if cell.closed else "open object")
    raise KeyError(attribute)


def _json(value: Any, limit: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- HTML ---------------------------------------------------------------------------------


def _status_table(comparison: Comparison) -> Markup:
    head = tag(
        "tr", [tag("th", t) for t in ("framework", "version", "API", "status", "vs toollens")]
    )
    rows = []
    for entry in comparison.entries:
        result = entry.result
        status = result.status.value
        if entry.diff is not None:
            summary: Child = _versus_reference(entry)
        else:
            summary = result.message or entry.error or ""
        rows.append(
            tag(
                "tr",
                tag("td", result.label, class_="tl-name"),
                tag("td", result.version or "—"),
                tag("td", code(result.api)),
                tag("td", _STATUS_LABELS[status], class_=f"tl-fw-status-{status}"),
                tag("td", summary),
                data_framework=result.framework,
            )
        )
    return tag("table", tag("thead", head), tag("tbody", rows), class_="tl-table tl-fw-status")


def _versus_reference(entry: FrameworkComparison) -> str:
    diff = entry.diff
    if diff is None or not diff.changes:
        return "the same schema"
    if not entry.material:
        return f"{diff.headline}; all explained by strict mode or titles"
    return f"{diff.headline}; {len(entry.material)} not explained by strict mode"


def _cell_html(row: MatrixRow, key: str) -> Markup:
    cell = row.cell(key)
    if not cell.present:
        return tag("td", tag("span", "not sent", class_="tl-fw-absent"), class_="tl-fw-disagree")
    parts = []
    for attribute in _CELL_ATTRIBUTES:
        text = _attr_text(cell, attribute)
        if text is None:
            continue
        differs = attribute in row.disagreements
        classes = "tl-fw-attr tl-fw-differs" if differs else "tl-fw-attr"
        title = cell.description_text if attribute == "description" else None
        parts.append(tag("span", text, class_=classes, title=title))
    disagree = any(a in row.disagreements for a in _CELL_ATTRIBUTES)
    return tag("td", parts, class_="tl-fw-disagree" if disagree else None)


def _matrix_table(comparison: Comparison) -> Markup:
    matrix = comparison.matrix
    head = tag(
        "tr",
        tag("th", "parameter"),
        [tag("th", key, data_framework=key) for key in matrix.columns],
    )
    rows = [
        tag(
            "tr",
            tag(
                "td",
                row.parameter,
                tag("br"),
                badge(f"differs: {', '.join(row.disagreements)}", "tl-sev-warning")
                if row.disagreements
                else badge("agree", "tl-on"),
                class_="tl-name",
            ),
            [_cell_html(row, key) for key in matrix.columns],
            data_parameter=row.parameter,
        )
        for row in matrix.rows
    ]
    return tag("table", tag("thead", head), tag("tbody", rows), class_="tl-table tl-fw-matrix")


def _pair_html(comparison: Comparison, pair: tuple[str, str] | None) -> Markup:
    if pair is None:
        return note("Fewer than two schemas to compare.")
    a, b = pair
    try:
        result = comparison.pair_diff(a, b)
    except KeyError as exc:
        return note(f"No schema for {exc.args[0]!s}: pick a framework that accepted the function.")
    title = tag("h4", "Diff ", code(a), " → ", code(b), ": ", result.headline)
    if not result.changes:
        return join(title, note("The two schemas are the same."))
    items = [
        tag(
            "li",
            badge(c.severity.value, f"tl-sev-{c.severity.value}"),
            " ",
            code(c.where),
            " ",
            tag("span", c.keyword, class_="tl-rule"),
            ": ",
            c.message,
        )
        for c in result.changes
    ]
    return join(title, tag("ul", items, class_="tl-edit"))


def _pair_picker(comparison: Comparison, pair: tuple[str, str] | None) -> Markup:
    """Two selects naming the columns to diff; the explorer's front end turns a change into
    its ``frameworks_pair`` trait (``data-tl-pair`` says which side)."""

    def side(which: str, chosen: str | None) -> Markup:
        options = [
            tag("option", key, value=key, selected=key == chosen) for key in comparison.participants
        ]
        return tag("select", options, data_tl_pair=which, aria_label=f"framework {which}")

    a, b = pair if pair is not None else (None, None)
    return tag("div", "Diff ", side("a", a), " against ", side("b", b), class_="tl-fw-picker")


def frameworks_panel_html(
    comparison: Comparison, pair: tuple[str, str] | None = None, *, picker: bool = False
) -> str:
    """The Frameworks view as an HTML fragment (no stylesheet: the host page has it).

    Args:
        comparison: from ``toollens.compare(func)``.
        pair: the two column keys to diff (``"toollens"`` is the reference); default
            :func:`default_pair`. A key without a schema shows a note, never an error.
        picker: add two selects (``data-tl-pair="a"``/``"b"``) to choose the pair, for
            the explorer; a static copy has nothing to send the choice to.

    Returns:
        ``<div class="tl-fw" data-view="frameworks">``: the status table (rows carry
        ``data-framework``), the matrix (header cells carry ``data-framework``, rows
        ``data-parameter``) and the pair's diff (``data-pair="a b"``).
    """
    pair = default_pair(comparison) if pair is None else pair
    findings = [
        tag("li", badge(f.severity.value, f"tl-sev-{f.severity.value}"), " ", f.message)
        for f in comparison.findings
        if f.rule != "framework.not-installed"
    ]
    return str(
        tag(
            "div",
            tag("style", Markup(FRAMEWORKS_STYLE)),
            tag("h4", "What each framework sends for ", code(comparison.target)),
            _status_table(comparison),
            tag("ul", findings, class_="tl-findings") if findings else None,
            tag("div", _matrix_table(comparison), class_="tl-fw-scroll"),
            _pair_picker(comparison, pair) if picker else None,
            tag("div", _pair_html(comparison, pair), data_pair=" ".join(pair) if pair else None),
            class_="tl-fw",
            data_view="frameworks",
        )
    )


def comparison_html(comparison: Comparison, pair: tuple[str, str] | None = None) -> str:
    """The Frameworks view with the stylesheet: what a notebook displays."""
    return str(
        tag(
            "div",
            style_tag(),
            Markup(frameworks_panel_html(comparison, pair)),
            class_="tl-root",
            data_toollens="frameworks",
        )
    )


# -- text ---------------------------------------------------------------------------------


def _status_lines(comparison: Comparison) -> list[str]:
    width = max((len(e.framework) for e in comparison.entries), default=0)
    lines = []
    for entry in comparison.entries:
        result = entry.result
        head = f"{result.framework:<{width}}  {result.version or '-':<8}  "
        if entry.diff is not None:
            lines.append(f"{head}accepted  vs toollens: {_versus_reference(entry)}")
        else:
            status = _STATUS_LABELS[result.status.value]
            lines.append(f"{head}{status}  {result.message or entry.error or ''}".rstrip())
    return lines


def _matrix_lines(comparison: Comparison) -> list[str]:
    matrix = comparison.matrix
    width = max((len(k) for k in matrix.columns), default=0)
    lines = []
    for row in matrix.rows:
        verdict = f"differs: {', '.join(row.disagreements)}" if row.disagreements else "agree"
        lines.append(f"{row.parameter}  [{verdict}]")
        for key in matrix.columns:
            cell = row.cell(key)
            if not cell.present:
                lines.append(f"  {key:<{width}}  ! not sent")
                continue
            texts = [
                ("*" if a in row.disagreements else "") + text
                for a in _CELL_ATTRIBUTES
                if (text := _attr_text(cell, a)) is not None
            ]
            lines.append(f"  {key:<{width}}  " + "; ".join(texts))
    return lines


def pair_diff_text(comparison: Comparison, a: str, b: str) -> str:
    """The diff between two columns as text (``KeyError`` when one has no schema)."""
    return f"diff {a} -> {b}: {comparison.pair_diff(a, b)}"


def comparison_text(comparison: Comparison, pairs: Sequence[tuple[str, str]] = ()) -> str:
    """The status of each framework, the matrix (``*`` marks a disagreement) and diffs."""
    agreement = comparison.agreement
    verdict = "all agree" if agreement is None else f"worst difference: {agreement.value}"
    lines = [f"frameworks for {comparison.target}: {verdict}", "", *_status_lines(comparison)]
    absent = comparison.not_installed
    if absent:
        lines += [
            "",
            f"{len(absent)} of {len(comparison.entries)} not installed, so not compared: "
            f"{', '.join(absent)} (pip install 'toollens[frameworks]' to compare them too)",
        ]
    lines += ["", "per parameter (* = the frameworks disagree)", *_matrix_lines(comparison)]
    findings = [str(f) for f in comparison.findings if f.rule != "framework.not-installed"]
    if findings:
        lines += ["", "findings", *(f"  {f}" for f in findings)]
    for a, b in pairs:
        lines += ["", pair_diff_text(comparison, a, b)]
    return "\n".join(lines) + "\n"
