"""Report -> HTML: the view panels, the findings, and the schema diff.

Pure functions over a :class:`~toollens.core.report.Report`, formatting what
:func:`toollens.render.model.view_model` decided each view shows. Everything is built with
:func:`~toollens.render.markup.tag`, which escapes every string it is given, so user text
(names, docstrings, descriptions, enum values, defaults' reprs, error text) never reaches
the browser unescaped. ``render_html`` is the static fallback shown where no JavaScript
runs (GitHub, nbconvert), so it is complete on its own: stylesheet, header, panels. The
Metadata panel and the source spans are in ``metadata_html``, the panel frame in ``panel``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from toollens.core.problems import worst_severity
from toollens.core.records import Change, Finding, join_pointer
from toollens.core.report import Report, View
from toollens.core.strict import REASONS, StrictRule
from toollens.render.css import style_tag
from toollens.render.diff_html import render_diff_html, render_edit_changes
from toollens.render.display import (
    enum_value,
    kind_short,
    plural,
)
from toollens.render.highlight import LineMark, highlight_json
from toollens.render.line_diff import diff_sides, inline_diff, side_by_side
from toollens.render.markup import (
    Child,
    Markup,
    badge,
    code,
    join,
    note,
    tag,
)
from toollens.render.metadata_html import metadata_panel, resolve_span, schema_spans, span_text
from toollens.render.model import (
    FindingsView,
    OutputView,
    SignatureView,
    StrictView,
    header,
    view_model,
)
from toollens.render.panel import panel, table

if TYPE_CHECKING:
    from toollens.render.clients_view import ToolClients
from toollens.render.rows import (
    change_item,
    compact_change_item,
    finding_item,
    signature_row,
    source_link,
)
from toollens.render.verdict import verdict_html

__all__ = [
    "PANEL_KEYS",
    "render_diff_html",
    "render_edit_changes",
    "render_header",
    "render_html",
    "render_panels",
    "resolve_span",
    "schema_spans",
    "span_text",
]

PANEL_KEYS = (View.SIGNATURE, View.METADATA, View.STRICT, View.OUTPUT, View.FINDINGS)

#: Which layouts of the strict diff a panel carries.
StrictLayout = Literal["both", "inline", "side-by-side"]


def _error_box(message: str, *, label: str = "error") -> Markup:
    return tag("div", tag("strong", label + ": "), message, class_="tl-error-box", role="alert")


_note, _badge, _code = note, badge, code


def _change_marks(changes: Iterable[Change]) -> dict[str, LineMark]:
    marks: dict[str, list[str]] = {}
    for change in changes:
        marks.setdefault(change.pointer, []).append(f"{enum_value(change.rule)}: {change.reason}")
    return {p: LineMark("tl-changed", tuple(r)) for p, r in marks.items()}


def _changes_list(changes: Sequence[Change]) -> Markup:
    if not changes:
        return _note("Strict conversion changed nothing.")
    items = [change_item(c.pointer, enum_value(c.rule), c.reason) for c in changes]
    full = tag("ol", items, class_="tl-changes")
    if len(changes) <= _FULL_CHANGE_LIST:
        return full
    # Long lists: one line per pointer (rules' reasons on hover), the full list folded.
    by_pointer: dict[str, list[tuple[str, str]]] = {}
    for change in changes:
        by_pointer.setdefault(change.pointer, []).append((enum_value(change.rule), change.reason))
    compact = [compact_change_item(pointer, tuple(rules)) for pointer, rules in by_pointer.items()]
    return join(
        tag("ul", compact, class_="tl-changes"),
        tag("details", tag("summary", f"Every change with its reason ({len(changes)})"), full),
    )


_FULL_CHANGE_LIST = 6


# ------------------------------------------------------------------------------- header


def render_header(report: Report) -> Markup:
    """Title, target kind, strict flag, provider and finding counts."""
    head = header(report)
    badges = [
        _badge(head.target_kind),
        _badge("strict" if head.strict else "strict off", "tl-on" if head.strict else ""),
        _badge(head.provider),
        *(
            _badge(plural(n, sev.value), f"tl-sev-{sev.value}")
            for sev, n in head.counts.items()
            if n
        ),
    ]
    if head.view_errors:
        badges.append(_badge(plural(head.view_errors, "view error"), "tl-sev-error"))
    return tag(
        "div",
        tag("span", head.title, class_="tl-title"),
        badges,
        tag("p", head.description, class_="tl-desc") if head.description else None,
        class_="tl-header",
    )


# ---------------------------------------------------------------------------- signature


def _signature_panel(view: SignatureView, target_kind: str) -> Markup:
    if view.line is None:
        return panel("signature", "Signature", _note(view.absent), subtitle=target_kind)
    rows = []
    for index, row in enumerate(view.rows):
        extra: tuple[str, ...] = ()
        if row.is_context:
            extra = ("context",)
        elif row.schema_name:
            extra = ("alias", row.schema_name)
        rows.append(
            signature_row(
                index + 1,
                row.name,
                row.type,
                extra,
                kind_short(row.kind),
                row.kind.value,
                row.default,
                row.is_context,
            )
        )
    columns = ("#", "parameter", "kind", "default")
    body = join(
        tag("pre", tag("code", view.line), class_="tl-code tl-sig"),
        table(columns, rows, "tl-table") if rows else _note("No parameters."),
    )
    subtitle = f"{view.in_schema} in schema"
    if view.context:
        subtitle += f", context {view.context!r}"
    return panel("signature", "Signature", body, subtitle=subtitle)


# ------------------------------------------------------------------------------- strict


def _strict_panel(
    view: StrictView, spans: Mapping[str, str], folded_lines: int | None, layout: StrictLayout
) -> Markup:
    if not view.applies:
        return panel("strict", "Strict schema", _note(view.absent))
    parts: list[Child] = []
    if view.error:
        parts.append(_error_box(view.error, label="strict conversion failed"))
    subtitle = "strict off"
    if view.schema is not None and view.strict:
        subtitle = plural(len(view.changes), "change")
        parts.append(_strict_diff(view, spans, folded_lines, layout))
        parts.append(tag("h4", "What strict conversion changed"))
        parts.append(_changes_list(view.changes))
    elif view.schema is not None:
        parts.append(_note("Strict mode is off: this is the schema as pydantic built it."))
        parts.append(highlight_json(view.schema))
    if view.before is not None:
        parts.append(tag("h4", "Before strict conversion"))
        parts.append(highlight_json(view.before))
    return panel("strict", "Strict schema", parts, subtitle=subtitle)


# Where each strict rewrite shows: the keyword it adds, rewrites or removes, under the
# node the change's pointer names (a rule not listed marks the node itself).
_RULE_KEYWORD = {
    "close-object": "additionalProperties",
    "require-all-properties": "required",
    "drop-none-default": "default",
    "oneof-to-anyof": "anyOf",
    "infer-object-type": "type",
    "root-type-list": "type",
}


def _rule_doc(rule: str) -> str:
    try:
        text = REASONS[StrictRule(rule)]
    except (ValueError, KeyError):
        return ""
    return text.replace("{before}", "...").replace("{after}", "...")


def _strict_diff(
    view: StrictView, spans: Mapping[str, str], folded_lines: int | None, layout: StrictLayout
) -> Markup:
    """The strict schema as a diff against the raw one, each rewrite tagged with its rule;
    a diff too long to show while typing is the schema with its changed lines marked."""
    before, after = diff_sides(view.raw_schema, view.schema)
    if before is None:
        return highlight_json(view.schema, marks=_change_marks(view.changes), highlighted=after.doc)
    for change in view.changes:
        rule = enum_value(change.rule)
        title = f"{rule}: {change.reason}\n\nThe rule: {_rule_doc(rule)}"
        keyword = _RULE_KEYWORD.get(rule)
        pointer = join_pointer(change.pointer, keyword) if keyword else change.pointer
        if (line := after.line(pointer)) is not None:
            after.tag_at(line, rule, title)
        elif (line := before.line(pointer)) is not None:
            before.tag_at(line, rule, title)
        elif (line := after.line(change.pointer, exact=False)) is not None:
            after.tag_at(line, rule, title)
    after.link(spans)
    titles = ("Before strict conversion", "After: what the model receives")
    inline = side = None
    if layout != "side-by-side":
        inline = tag("div", inline_diff(before, after), class_="tl-inline-view")
    if layout != "inline":
        columns = side_by_side(before, after, titles, max_lines=folded_lines)
        side = tag("div", columns, class_="tl-sbs-view")
    return join(inline, side)


# ------------------------------------------------------------------------------- output


def _output_panel(view: OutputView, folded_lines: int | None) -> Markup:
    out = view.output
    parts: list[Child] = []
    if view.error:
        parts.append(_error_box(view.error, label="output schema failed"))
    if out is None:
        if not view.error:
            parts.append(_note("No output type for this target."))
        return panel("output", "Output schema", parts)
    head = tag(
        "p",
        _badge(out.label, "tl-on"),
        _code(out.name),
        " ",
        _badge("strict" if out.strict else "not strict", "tl-on" if out.strict else ""),
    )
    parts.extend([head, tag("p", out.explain())])
    if view.lax:
        parts.append(_note("Shown without strict conversion."))
    if out.json_schema is None:
        parts.append(_note("No schema is sent: the model answers with text."))
    else:
        parts.append(highlight_json(out.json_schema, marks=_change_marks(out.strict_changes)))
        if out.strict_changes:
            parts.append(
                tag(
                    "details",
                    tag("summary", f"What strict conversion changed ({len(out.strict_changes)})"),
                    _changes_list(out.strict_changes),
                )
            )
        if view.before is not None:
            parts.append(
                tag(
                    "details",
                    tag("summary", "Before strict conversion"),
                    highlight_json(view.before, max_lines=folded_lines),
                )
            )
    return panel("output", "Output schema", parts, subtitle=out.label)


# ----------------------------------------------------------------------------- findings


def _finding_item(finding: Finding) -> Markup:
    return finding_item(
        enum_value(finding.severity),
        enum_value(finding.rule),
        finding.pointer,
        finding.message,
        finding.fix,
        finding.cite,
    )


def _findings_list(findings: Sequence[Finding], empty: str) -> Markup:
    if not findings:
        return _note(empty)
    return tag("ul", [_finding_item(f) for f in findings], class_="tl-findings")


def _joined_item(finding: Finding, angles: Sequence[Finding], provider: str) -> Markup:
    """One problem with both sources: the lint finding, and how the provider sees it."""
    sev = enum_value(worst_severity([finding, *angles]))
    rules = [tag("span", enum_value(f.rule), class_="tl-rule") for f in (finding, *angles)]
    seen = tag(
        "ul",
        [tag("li", tag("span", f"{provider}: ", class_="tl-muted"), f.message) for f in angles],
        class_="tl-angle",
    )
    where = _code(finding.pointer or "/") if finding.pointer is not None else None
    return tag(
        "li",
        _badge(sev, f"tl-sev-{sev}"),
        join(*(join(rule, " + ") for rule in rules[:-1]), rules[-1]),
        " ",
        where,
        " " if where else None,
        finding.message,
        seen,
        tag("div", "Fix: ", finding.fix, class_="tl-fix") if finding.fix else None,
        *(source_link(f.cite) for f in (finding, *angles)),
        class_=f"tl-finding tl-joined tl-sev-item-{sev}",
    )


def _grouped_findings_list(view: FindingsView) -> Markup:
    if not view.lint:
        return _note(view.lint_empty)
    items = []
    for index, finding in enumerate(view.lint):
        more = view.angles.get(index)
        items.append(_joined_item(finding, more, view.provider) if more else _finding_item(finding))
    return tag("ul", items, class_="tl-findings")


def _findings_panel(view: FindingsView, folded_lines: int | None) -> Markup:
    parts: list[Child] = [tag("h4", "Lint")]
    if view.lint_error is not None:
        parts.append(_error_box(view.lint_error, label="lint failed"))
    parts.append(_grouped_findings_list(view))
    parts.append(tag("h4", "Provider ", _code(view.provider)))
    if view.provider_error is not None:
        parts.append(_error_box(view.provider_error, label="provider view failed"))
    if view.verdict is not None:
        parts.append(verdict_html(view.verdict))
    parts.append(_findings_list(view.provider_rest, view.provider_empty))
    if view.payload is not None:
        parts.append(
            tag(
                "details",
                tag("summary", f"What {view.provider} receives"),
                highlight_json(view.payload, max_lines=folded_lines),
            )
        )
    if view.given is not None:  # a payload written for another provider: its own fields
        parts += [tag("h4", "Payload as written, for ", _code(view.given.provider))]
        parts += [_note(view.given.note), _findings_list(view.given.findings, view.given.empty)]
    subtitle = ", ".join(plural(n, sev.value) for sev, n in view.counts.items() if n) or "none"
    return panel("findings", "Findings", parts, subtitle=subtitle)


# ------------------------------------------------------------------------------ public


def render_panels(
    report: Report,
    *,
    folded_lines: int | None = None,
    strict_layout: StrictLayout = "both",
    span_keys: bool = False,
) -> dict[str, str]:
    """One self-contained HTML fragment per view (no stylesheet; see ``style_tag``).

    Args:
        report: what to show.
        folded_lines: show at most this many lines of each JSON document that starts
            folded (the schema before strict conversion, the provider payload), with a note
            saying how many are left out; ``None`` shows every line. The explorer limits
            them so that an edit of a big tool does not resend pages nobody unfolded.
        strict_layout: which layouts of the strict diff to include: ``"both"`` (the static
            report: a style rule shows one), or only ``"inline"`` or ``"side-by-side"``
            (the explorer sends the one its toolbar shows).
        span_keys: ``data-span`` attributes carry keys that :func:`resolve_span` locates
            on request instead of span labels, so no span is located while rendering
            (the explorer resolves the one the author clicks).

    Returns:
        Keys ``"signature"``, ``"metadata"``, ``"strict"``, ``"output"``, ``"findings"``.
    """
    model = view_model(report)
    # Plain str, not Markup: front ends serialise a str subclass in their own ways (marimo
    # does not send it as a string).
    return {
        View.SIGNATURE: str(_signature_panel(model.signature, report.target_kind)),
        View.METADATA: str(metadata_panel(model.metadata, span_keys)),
        View.STRICT: str(
            _strict_panel(
                model.strict, schema_spans(report, keys=span_keys), folded_lines, strict_layout
            )
        ),
        View.OUTPUT: str(_output_panel(model.output, folded_lines)),
        View.FINDINGS: str(_findings_panel(model.findings, folded_lines)),
    }


def render_html(
    report: Report, *, clients: ToolClients | None = None, client: str | None = None
) -> str:
    """The whole report as static HTML: stylesheet, header, the panels, the findings.

    Args:
        report: the tool's views.
        clients: for a tool of an MCP tool list, what each client does with it
            (:func:`toollens.render.clients_view.tool_clients`): the Clients view, last.
        client: the client unfolded there (default: the first that changes the tool).
    """
    panels = render_panels(report)
    shown = None
    if clients is not None:
        # lazy: the clients' panel (~25 ms); opening an Explorer must not load it (issue 50)
        from toollens.render.clients_html import clients_panel_html

        shown = Markup(clients_panel_html(clients, client))
    # Three narrow views side by side (stacking when narrow), then the metadata table and
    # the findings on rows of their own (their panels carry ``tl-full``).
    grid = tag(
        "div",
        *(
            Markup(panels[key])
            for key in (View.SIGNATURE, View.STRICT, View.OUTPUT, View.METADATA, View.FINDINGS)
        ),
        shown,
        class_="tl-grid",
    )
    return str(
        tag(
            "div",
            style_tag(),
            render_header(report),
            grid,
            class_="tl-root",
            data_toollens="report",
        )
    )
