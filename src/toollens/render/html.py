"""Report -> HTML: the four view panels, the findings, and the schema diff.

Pure functions over a :class:`~toollens.core.report.Report`, formatting what
:func:`toollens.render.model.view_model` decided each view shows. Everything is built with
:func:`~toollens.render.markup.tag`, which escapes every string it is given, so user text
(names, docstrings, descriptions, enum values, defaults' reprs, error text) never reaches
the browser unescaped. ``render_html`` is the static fallback shown where no JavaScript
runs (GitHub, nbconvert), so it is complete on its own: stylesheet, header, panels.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from toollens.core.metadata import Candidate, ParameterMetadata
from toollens.core.records import Change, Finding, join_pointer
from toollens.core.report import Report, View
from toollens.core.spans import may_locate
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
    collect,
    join,
    note,
    safe_repr,
    start_tag,
    tag,
)
from toollens.render.model import (
    FindingsView,
    MetadataView,
    OutputView,
    SignatureView,
    StrictView,
    header,
    view_model,
)
from toollens.render.rows import (
    Cand,
    candidate,
    change_item,
    compact_change_item,
    context_metadata_row,
    finding_item,
    metadata_row,
    signature_row,
    value_cell,
    why_item,
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
]

PANEL_KEYS = (View.SIGNATURE, View.METADATA, View.STRICT, View.OUTPUT, View.FINDINGS)

#: Which layouts of the strict diff a panel carries.
StrictLayout = Literal["both", "inline", "side-by-side"]


def _panel(key: str, title: str, body: Child, *, subtitle: str | None = None) -> Markup:
    opening, heading = _panel_parts(key, title, subtitle)
    out: list[str] = [opening, heading]
    collect([body], out)
    out.append("</section>")
    return Markup("".join(out))


@functools.lru_cache(maxsize=256)
def _panel_parts(key: str, title: str, subtitle: str | None) -> tuple[Markup, Markup]:
    """A panel's opening tag and its heading (the same on most renders)."""
    heading = tag(
        "div",
        title,
        tag("span", subtitle, class_="tl-muted") if subtitle else None,
        class_="tl-panel-title",
    )
    classes = f"tl-panel tl-panel-{key}" + (" tl-full" if key in _FULL_WIDTH else "")
    return start_tag("section", class_=classes, data_view=key), heading


# Panels that take a whole row of the grid: the metadata table needs the width.
_FULL_WIDTH = frozenset({"metadata", "findings"})


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
        return _panel("signature", "Signature", _note(view.absent), subtitle=target_kind)
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
        _table(columns, rows, "tl-table") if rows else _note("No parameters."),
    )
    subtitle = f"{view.in_schema} in schema"
    if view.context:
        subtitle += f", context {view.context!r}"
    return _panel("signature", "Signature", body, subtitle=subtitle)


# ----------------------------------------------------------------------------- metadata


# Where a value is written travels in ``data-span``: the span's label (``"l1:c1-l2:c2"``)
# in a static report, or, in the explorer, a key naming the value that the kernel locates
# when the author clicks it (:func:`resolve_span`), so typing never waits for spans. Keys:
# ``t3`` (the tool's fourth candidate), ``p1.2`` (the second parameter's third candidate),
# ``s/properties/city`` (the strict schema's line at that pointer).


def span_text(span: Any) -> str:
    """A source span as ``"l1:c1-l2:c2"`` (the ``data-span`` the explorer's editor reads)."""
    return "" if span is None else span.label


def _span_ref(c: Candidate, key: str | None) -> str:
    """``data-span`` of a candidate: its span's label, or ``key`` (None: labels)."""
    if key is None:
        return span_text(c.span)
    return key if may_locate(c) else ""


def _cand(c: Candidate, *, show_source: bool = False, key: str | None = None) -> Cand:
    shown = (
        c.value
        if c.attribute == "description" and isinstance(c.value, str)
        else (safe_repr(c.value, limit=120))
    )
    label = c.source.label if show_source else c.attribute
    return (label, shown, c.won, c.reason, _span_ref(c, key))


def _sourced(c: Candidate, key: str | None) -> Cand:
    """A candidate with its source as the label: ``ge=1`` from ``Annotated Field(...)``."""
    label, shown, won, reason, span = _cand(c, show_source=True, key=key)
    if c.attribute not in ("description", "default", "alias"):
        shown = f"{c.attribute}={safe_repr(c.value, limit=40)}"
    return (label, shown, won, reason, span)


# JSON Schema keyword of each constraint a parameter's metadata can carry.
_CONSTRAINT_KEYWORDS = {
    "ge": "minimum",
    "le": "maximum",
    "gt": "exclusiveMinimum",
    "lt": "exclusiveMaximum",
    "min_length": "minLength",
    "max_length": "maxLength",
    "pattern": "pattern",
    "multiple_of": "multipleOf",
}


def schema_spans(report: Report, *, keys: bool = False) -> dict[str, str]:
    """JSON pointer -> the source span its value came from, for the schema's properties.

    A property's own line points at the span of its description (else its default); its
    ``description``, ``default`` and constraint keywords at the winning candidate's span.
    Empty when the engine records no spans. With ``keys``, each pointer maps to the key
    ``"s" + pointer`` instead, and no span is located (see :func:`resolve_span`).
    """
    fs = report.function
    if fs is None:
        return {}
    out: dict[str, str] = {}
    for meta in fs.parameters:
        if meta.is_context:
            continue
        base = join_pointer("/properties", meta.schema_name)
        for c in meta.candidates:
            if not c.won or not (may_locate(c) if keys else c.span):
                continue
            label = "" if keys else span_text(c.span)  # keys: "s" + the pointer
            pointer = join_pointer(base, _CONSTRAINT_KEYWORDS.get(c.attribute, c.attribute))
            out.setdefault(pointer, label or "s" + pointer)
            # the description's span wins the property line: it is what authors edit
            if c.attribute == "description" or (c.attribute == "default" and base not in out):
                out[base] = label or "s" + base
    return out


_SPAN_KEY = re.compile(r"t(\d+)|p(\d+)\.(\d+)")


def resolve_span(report: Report, key: str) -> str | None:
    """The span label that a ``data-span`` key names (``render_panels(span_keys=True)``),
    located now; ``None`` when the key names nothing with a span in ``report``."""
    fs = report.function
    if fs is None or not isinstance(key, str):
        return None
    if key.startswith("s/"):
        return schema_spans(report).get(key[1:])
    found = _SPAN_KEY.fullmatch(key)
    if found is None:
        return None
    tool, param, index = found.groups()
    try:
        c = fs.provenance[int(tool)] if tool else fs.parameters[int(param)].candidates[int(index)]
    except IndexError:
        return None
    return span_text(c.span) or None


# The Metadata table's value columns: the attribute each one shows, and what an empty cell
# says. Constraints (ge, max_length...) share one column.
_EMPTY = Markup("&middot;")  # "·", as a character reference: see rows.CHECK
_VALUE_COLUMNS = (("description", _EMPTY), ("default", "required"))
_NOT_CONSTRAINTS = frozenset({"description", "default", "alias", "name"})


def _why_list(view: MetadataView) -> Markup:
    items = [
        why_item(None, attribute, cands) for attribute, cands in _why_groups(view.tool).items()
    ]
    for param in view.parameters:
        items.extend(
            why_item(param.name, attribute, cands)
            for attribute, cands in _why_groups(param.candidates).items()
        )
    if not items:
        return _note("No parameter metadata.")
    return tag(
        "details",
        tag("summary", f"Why each value won ({len(items)})"),
        tag("ul", items, class_="tl-why"),
        class_="tl-details",
    )


def _why_groups(cands: Iterable[Candidate]) -> dict[str, tuple[tuple[str, bool, str], ...]]:
    """Each attribute's candidates as (source, won, reason), attributes in first-seen order."""
    groups: dict[str, list[tuple[str, bool, str]]] = {}
    for c in cands:
        groups.setdefault(c.attribute, []).append((c.source.label, c.won, c.reason))
    return {attribute: tuple(found) for attribute, found in groups.items()}


def _metadata_cells(
    meta: ParameterMetadata, shown: Mapping[str, bool], number: int | None
) -> tuple[Markup, ...]:
    """The value cells of one parameter; ``number``: its index, to key spans by."""
    by_attribute: dict[str, list[Cand]] = {}
    for index, c in enumerate(meta.candidates):
        column = "constraints" if c.attribute not in _NOT_CONSTRAINTS else c.attribute
        key = None if number is None else f"p{number}.{index}"
        by_attribute.setdefault(column, []).append(_sourced(c, key))
    cells = [value_cell(tuple(by_attribute.get(a, ())), empty) for a, empty in _VALUE_COLUMNS]
    cells += [
        value_cell(tuple(by_attribute.get(column, ())), _EMPTY)
        for column in ("constraints", "alias")
        if shown[column]
    ]
    return tuple(cells)


def _metadata_panel(view: MetadataView, span_keys: bool) -> Markup:
    if not view.is_callable:
        return _schema_properties_panel(view)
    params = view.parameters
    # One column per attribute, the value the model sees first (its source as a label);
    # constraints and alias columns only when some parameter has them.
    shown = {
        "constraints": any(p.constraints for p in params if not p.is_context),
        "alias": any(p.alias for p in params if not p.is_context),
    }
    columns = ["parameter", "type", "description", "default"]
    columns += [column for column in ("constraints", "alias") if shown[column]]
    rows = []
    for number, (meta, type_) in enumerate(zip(params, view.types, strict=True)):
        if meta.is_context:
            rows.append(context_metadata_row(meta.name, type_, len(columns) - 2))
            continue
        cells = _metadata_cells(meta, shown, number if span_keys else None)
        rows.append(metadata_row(meta.name, type_, cells))
    body = join(
        _tool_provenance(view.tool, span_keys),
        _table(columns, rows, "tl-table tl-meta") if rows else _note("No parameters."),
        _note(
            Markup(
                "Each cell shows the value the model sees and where it came from; unfold "
                "&ldquo;other sources&rdquo; for the values that lost (hover for why)."
            )
        ),
        _why_list(view),
    )
    return _panel("metadata", "Metadata", body, subtitle="what the model sees, and from where")


def _table(columns: Sequence[str], rows: Sequence[Markup], classes: str) -> Markup:
    return tag(
        "div",
        tag("table", _table_head(tuple(columns)), tag("tbody", rows), class_=classes),
        class_="tl-scroll",
    )


@functools.lru_cache(maxsize=64)
def _table_head(columns: tuple[str, ...]) -> Markup:
    return tag("thead", tag("tr", [tag("th", c) for c in columns]))


def _tool_provenance(tool: Sequence[Candidate], span_keys: bool) -> Child:
    if not tool:
        return None
    parts: list[Child] = []
    for attribute in ("name", "description"):
        cands = [
            _cand(c, show_source=True, key=f"t{index}" if span_keys else None)
            for index, c in enumerate(tool)
            if c.attribute == attribute
        ]
        if cands:
            parts.append(
                tag(
                    "div",
                    tag("span", f"tool {attribute}", class_="tl-attr"),
                    [candidate(c) for c in cands],
                )
            )
    return tag("div", parts, class_="tl-tool-provenance")


def _schema_properties_panel(view: MetadataView) -> Markup:
    if not view.properties:
        return _panel("metadata", "Metadata", _note(view.absent))
    rows = [
        tag(
            "tr",
            tag("td", row.name, class_="tl-name"),
            tag("td", _code(row.type)),
            tag("td", "yes" if row.required else "no"),
            tag(
                "td",
                row.description if row.description is not None else _EMPTY,
                class_=None if row.description is not None else "tl-empty",
            ),
            tag("td", row.default if row.default is not None else _EMPTY),
        )
        for row in view.properties
    ]
    columns = ("property", "type", "required", "description", "default")
    note = _note(
        "Properties as the schema declares them; a model or schema has no "
        "docstring or Annotated sources to merge."
    )
    return _panel(
        "metadata",
        "Metadata",
        join(_table(columns, rows, "tl-table"), note),
        subtitle=plural(len(rows), "property", "properties"),
    )


# ------------------------------------------------------------------------------- strict


def _strict_panel(
    view: StrictView, spans: Mapping[str, str], folded_lines: int | None, layout: StrictLayout
) -> Markup:
    if not view.applies:
        return _panel("strict", "Strict schema", _note(view.absent))
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
    return _panel("strict", "Strict schema", parts, subtitle=subtitle)


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
    from toollens.core.strict import REASONS, StrictRule

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
        return _panel("output", "Output schema", parts)
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
    return _panel("output", "Output schema", parts, subtitle=out.label)


# ----------------------------------------------------------------------------- findings


def _safe_href(url: str | None) -> str | None:
    if url and url.lower().startswith(("https://", "http://")):
        return url
    return None


def _finding_item(finding: Finding) -> Markup:
    return finding_item(
        enum_value(finding.severity),
        enum_value(finding.rule),
        finding.pointer,
        finding.message,
        finding.fix,
        _safe_href(finding.source),
    )


def _findings_list(findings: Sequence[Finding], empty: str) -> Markup:
    if not findings:
        return _note(empty)
    return tag("ul", [_finding_item(f) for f in findings], class_="tl-findings")


def _joined_item(finding: Finding, angles: Sequence[Finding], provider: str) -> Markup:
    """One problem with both sources: the lint finding, and how the provider sees it."""
    from toollens.core.problems import worst_severity

    sev = enum_value(worst_severity([finding, *angles]))
    rules = [tag("span", enum_value(f.rule), class_="tl-rule") for f in (finding, *angles)]
    seen = tag(
        "ul",
        [tag("li", tag("span", f"{provider}: ", class_="tl-muted"), f.message) for f in angles],
        class_="tl-angle",
    )
    where = _code(finding.pointer or "/") if finding.pointer is not None else None
    links = [_safe_href(f.source) for f in (finding, *angles)]
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
        *(
            tag("a", "source", href=href, target="_blank", rel="noopener noreferrer")
            for href in links
            if href
        ),
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
    subtitle = ", ".join(plural(n, sev.value) for sev, n in view.counts.items() if n) or "none"
    return _panel("findings", "Findings", parts, subtitle=subtitle)


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
        View.METADATA: str(_metadata_panel(model.metadata, span_keys)),
        View.STRICT: str(
            _strict_panel(
                model.strict, schema_spans(report, keys=span_keys), folded_lines, strict_layout
            )
        ),
        View.OUTPUT: str(_output_panel(model.output, folded_lines)),
        View.FINDINGS: str(_findings_panel(model.findings, folded_lines)),
    }


def render_html(report: Report) -> str:
    """The whole report as static HTML: stylesheet, header, the panels, the findings."""
    panels = render_panels(report)
    # Three narrow views side by side (stacking when narrow), then the metadata table and
    # the findings on rows of their own (their panels carry ``tl-full``).
    grid = tag(
        "div",
        *(
            Markup(panels[key])
            for key in (View.SIGNATURE, View.STRICT, View.OUTPUT, View.METADATA, View.FINDINGS)
        ),
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
