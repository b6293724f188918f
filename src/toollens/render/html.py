"""Report -> HTML: the four view panels, the findings, and the schema diff.

Pure functions over a :class:`~toollens.core.report.Report`. Everything is built with
:func:`~toollens.render.markup.tag`, which escapes every string it is given, so user text
(names, docstrings, descriptions, enum values, defaults' reprs, error text) never reaches
the browser unescaped. ``render_html`` is the static fallback shown where no JavaScript
runs (GitHub, nbconvert), so it is complete on its own: stylesheet, header, panels.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toollens.core.metadata import Candidate, ParameterMetadata
from toollens.core.records import Change, Finding, join_pointer
from toollens.core.report import Report
from toollens.render.css import style_tag
from toollens.render.diff_html import render_diff_html, render_edit_changes
from toollens.render.display import (
    default_text,
    enum_value,
    kind_short,
    plural,
    signature_line,
    type_text,
)
from toollens.render.highlight import LineMark, highlight_json, line_for
from toollens.render.line_diff import Side, inline_diff, side_by_side, too_long
from toollens.render.markup import Child, Markup, badge, code, join, note, safe_repr, tag
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
]

PANEL_KEYS = ("signature", "metadata", "strict", "output", "findings")



_value = enum_value


def _panel(key: str, title: str, body: Child, *, subtitle: str | None = None) -> Markup:
    heading = tag(
        "div",
        title,
        tag("span", subtitle, class_="tl-muted") if subtitle else None,
        class_="tl-panel-title",
    )
    classes = f"tl-panel tl-panel-{key}" + (" tl-full" if key in _FULL_WIDTH else "")
    return tag("section", heading, body, class_=classes, data_view=key)


# Panels that take a whole row of the grid: the metadata table needs the width.
_FULL_WIDTH = frozenset({"metadata", "findings"})


def _error_box(message: str, *, label: str = "error") -> Markup:
    return tag("div", tag("strong", label + ": "), message, class_="tl-error-box", role="alert")


_note, _badge, _code = note, badge, code


def _change_marks(changes: Iterable[Change]) -> dict[str, LineMark]:
    marks: dict[str, list[str]] = {}
    for change in changes:
        marks.setdefault(change.pointer, []).append(f"{_value(change.rule)}: {change.reason}")
    return {p: LineMark("tl-changed", tuple(r)) for p, r in marks.items()}


def _changes_list(changes: Sequence[Change]) -> Markup:
    if not changes:
        return _note("Strict conversion changed nothing.")
    items = [change_item(c.pointer, _value(c.rule), c.reason) for c in changes]
    full = tag("ol", items, class_="tl-changes")
    if len(changes) <= _FULL_CHANGE_LIST:
        return full
    # Long lists: one line per pointer (rules' reasons on hover), the full list folded.
    by_pointer: dict[str, list[tuple[str, str]]] = {}
    for change in changes:
        by_pointer.setdefault(change.pointer, []).append((_value(change.rule), change.reason))
    compact = [compact_change_item(pointer, tuple(rules)) for pointer, rules in by_pointer.items()]
    return join(
        tag("ul", compact, class_="tl-changes"),
        tag("details", tag("summary", f"Every change with its reason ({len(changes)})"), full),
    )


_FULL_CHANGE_LIST = 6


# ------------------------------------------------------------------------------- header


def render_header(report: Report) -> Markup:
    """Title, target kind, strict flag, provider and finding counts."""
    options = report.options
    description = None
    if report.function is not None:
        description = report.function.description
    elif report.raw_schema is not None:
        text = report.raw_schema.get("description")
        description = text if isinstance(text, str) else None
    counts = _severity_counts(report.findings)
    badges = [
        _badge(report.target_kind),
        _badge("strict" if options.strict else "strict off", "tl-on" if options.strict else ""),
        _badge(report.provider),
        *(_badge(plural(n, sev), f"tl-sev-{sev}") for sev, n in counts.items() if n),
    ]
    if report.view_errors:
        badges.append(_badge(plural(len(report.view_errors), "view error"), "tl-sev-error"))
    return tag(
        "div",
        tag("span", report.title, class_="tl-title"),
        badges,
        tag("p", description, class_="tl-desc") if description else None,
        class_="tl-header",
    )


def _severity_counts(findings: Iterable[Finding]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in findings:
        key = _value(finding.severity)
        counts[key] = counts.get(key, 0) + 1
    return counts


# ---------------------------------------------------------------------------- signature


def _signature_panel(report: Report) -> Markup:
    fs = report.function
    if fs is None:
        return _panel(
            "signature",
            "Signature",
            _note(_NO_SIGNATURE[report.target_kind]),
            subtitle=report.target_kind,
        )
    inspected = {p.name: p for p in fs.callable_info.parameters}
    rows = []
    for index, meta in enumerate(fs.parameters):
        param = inspected.get(meta.name)
        default = default_text(meta, param.default if param else inspect.Parameter.empty)
        extra: tuple[str, ...] = ()
        if meta.is_context:
            extra = ("context",)
        elif meta.alias:
            extra = ("alias", meta.schema_name)
        rows.append(
            signature_row(
                index + 1,
                meta.name,
                type_text(meta.annotation),
                extra,
                kind_short(meta.kind),
                meta.kind.value,
                default,
                meta.is_context,
            )
        )
    table = tag(
        "div",
        tag(
            "table",
            tag("thead", tag("tr", *(tag("th", c) for c in ("#", "parameter", "kind", "default")))),
            tag("tbody", rows),
            class_="tl-table",
        ),
        class_="tl-scroll",
    )
    body = join(
        tag("pre", tag("code", signature_line(fs)), class_="tl-code tl-sig"),
        table if rows else _note("No parameters."),
    )
    subtitle = f"{len(fs.schema_parameters)} in schema"
    if fs.context_parameter:
        subtitle += f", context {fs.context_parameter!r}"
    return _panel("signature", "Signature", body, subtitle=subtitle)


_NO_SIGNATURE = {
    "model": "A pydantic model: its fields are the schema's properties (see Metadata).",
    "output-type": "An output type has no parameters; see the Output panel.",
    "json-schema": "A raw JSON schema has no Python signature.",
    "callable": "",
}


# ----------------------------------------------------------------------------- metadata


def span_text(span: Any) -> str:
    """A source span as ``"l1:c1-l2:c2"`` (the ``data-span`` the explorer's editor reads)."""
    if span is None:
        return ""
    return f"{span.start_line}:{span.start_column}-{span.end_line}:{span.end_column}"


def _cand(c: Candidate, *, show_source: bool = False) -> Cand:
    shown = (
        c.value
        if c.attribute == "description" and isinstance(c.value, str)
        else (safe_repr(c.value, limit=120))
    )
    label = c.source.label if show_source else c.attribute
    return (label, shown, c.won, c.reason, span_text(getattr(c, "span", None)))


def _sourced(c: Candidate) -> Cand:
    """A candidate with its source as the label: ``ge=1`` from ``Annotated Field(...)``."""
    label, shown, won, reason, span = _cand(c, show_source=True)
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


def schema_spans(report: Report) -> dict[str, str]:
    """JSON pointer -> the source span its value came from, for the schema's properties.

    A property's own line points at the span of its description (else its default); its
    ``description``, ``default`` and constraint keywords at the winning candidate's span.
    Empty when the engine records no spans.
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
            span = span_text(getattr(c, "span", None))
            if not c.won or not span:
                continue
            keyword = _CONSTRAINT_KEYWORDS.get(c.attribute, c.attribute)
            out.setdefault(join_pointer(base, keyword), span)
            # the description's span wins the property line: it is what authors edit
            if c.attribute == "description" or (c.attribute == "default" and base not in out):
                out[base] = span
    return out


# The Metadata table's value columns: the attribute each one shows, and what an empty cell
# says. Constraints (ge, max_length...) share one column.
_VALUE_COLUMNS = (("description", "·"), ("default", "required"))
_NOT_CONSTRAINTS = frozenset({"description", "default", "alias", "name"})


def _why_list(report: Report, params: Sequence[ParameterMetadata]) -> Markup:
    items: list[Markup] = []
    fs = report.function
    tool_level = list(fs.provenance) if fs is not None else []
    for attribute in dict.fromkeys(c.attribute for c in tool_level):
        cands = [c for c in tool_level if c.attribute == attribute]
        items.append(why_item(None, attribute, _why_cands(cands)))
    for param in params:
        for attribute in dict.fromkeys(c.attribute for c in param.candidates):
            cands = list(param.candidates_for(attribute))
            items.append(why_item(param.name, attribute, _why_cands(cands)))
    if not items:
        return _note("No parameter metadata.")
    return tag(
        "details",
        tag("summary", f"Why each value won ({len(items)})"),
        tag("ul", items, class_="tl-why"),
        class_="tl-details",
    )


def _why_cands(cands: Sequence[Candidate]) -> tuple[tuple[str, bool, str], ...]:
    return tuple((c.source.label, c.won, c.reason) for c in cands)


def _metadata_cells(meta: ParameterMetadata, shown: Mapping[str, bool]) -> tuple[Markup, ...]:
    by_attribute: dict[str, list[Cand]] = {}
    for c in meta.candidates:
        column = "constraints" if c.attribute not in _NOT_CONSTRAINTS else c.attribute
        by_attribute.setdefault(column, []).append(_sourced(c))
    cells = [value_cell(tuple(by_attribute.get(a, ())), empty) for a, empty in _VALUE_COLUMNS]
    cells += [
        value_cell(tuple(by_attribute.get(column, ())), "·")
        for column in ("constraints", "alias")
        if shown[column]
    ]
    return tuple(cells)


def _metadata_panel(report: Report) -> Markup:
    fs = report.function
    if fs is None:
        return _schema_properties_panel(report)
    params = fs.parameters
    # One column per attribute, the value the model sees first (its source as a label);
    # constraints and alias columns only when some parameter has them.
    shown = {
        "constraints": any(p.constraints for p in params if not p.is_context),
        "alias": any(p.alias for p in params if not p.is_context),
    }
    columns = ["parameter", "type", "description", "default"]
    columns += [column for column in ("constraints", "alias") if shown[column]]
    rows = []
    for meta in params:
        if meta.is_context:
            rows.append(
                context_metadata_row(meta.name, type_text(meta.annotation), len(columns) - 2)
            )
            continue
        cells = _metadata_cells(meta, shown)
        rows.append(metadata_row(meta.name, type_text(meta.annotation), cells))
    table = tag(
        "div",
        tag(
            "table",
            tag("thead", tag("tr", [tag("th", c) for c in columns])),
            tag("tbody", rows),
            class_="tl-table tl-meta",
        ),
        class_="tl-scroll",
    )
    body = join(
        _tool_provenance(report),
        table if rows else _note("No parameters."),
        _note(
            "Each cell shows the value the model sees and where it came from; unfold "
            "“other sources” for the values that lost (hover for why)."
        ),
        _why_list(report, params),
    )
    return _panel("metadata", "Metadata", body, subtitle="what the model sees, and from where")


def _tool_provenance(report: Report) -> Child:
    fs = report.function
    if fs is None or not fs.provenance:
        return None
    parts: list[Child] = []
    for attribute in ("name", "description"):
        cands = [c for c in fs.provenance if c.attribute == attribute]
        if cands:
            parts.append(
                tag(
                    "div",
                    tag("span", f"tool {attribute}", class_="tl-attr"),
                    [candidate(_cand(c, show_source=True)) for c in cands],
                )
            )
    return tag("div", parts, class_="tl-tool-provenance")


def _schema_type(node: Any) -> str:
    if not isinstance(node, Mapping):
        return "any"
    if "$ref" in node:
        return str(node["$ref"]).rsplit("/", 1)[-1]
    if "type" in node:
        t = node["type"]
        return " | ".join(map(str, t)) if isinstance(t, list) else str(t)
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(node.get(key), list):
            return " | ".join(_schema_type(n) for n in node[key])
    if "enum" in node:
        return "enum"
    if "const" in node:
        return "const"
    return "any"


def _schema_properties_panel(report: Report) -> Markup:
    schema = report.raw_schema
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping) or not props:
        text = (
            "An output type has no parameters."
            if report.target_kind == "output-type"
            else "The schema declares no properties."
        )
        return _panel("metadata", "Metadata", _note(text))
    required = set(schema.get("required", ())) if isinstance(schema, Mapping) else set()
    rows = []
    for pname, node in props.items():
        node_map = node if isinstance(node, Mapping) else {}
        desc = node_map.get("description")
        rows.append(
            tag(
                "tr",
                tag("td", str(pname), class_="tl-name"),
                tag("td", _code(_schema_type(node))),
                tag("td", "yes" if pname in required else "no"),
                tag(
                    "td",
                    str(desc) if desc is not None else "·",
                    class_=None if desc is not None else "tl-empty",
                ),
                tag(
                    "td", safe_repr(node_map["default"], limit=60) if "default" in node_map else "·"
                ),
            )
        )
    table = tag(
        "div",
        tag(
            "table",
            tag(
                "thead",
                tag(
                    "tr",
                    [
                        tag("th", c)
                        for c in ("property", "type", "required", "description", "default")
                    ],
                ),
            ),
            tag("tbody", rows),
            class_="tl-table",
        ),
        class_="tl-scroll",
    )
    note = _note(
        "Properties as the schema declares them; a model or schema has no "
        "docstring or Annotated sources to merge."
    )
    return _panel(
        "metadata",
        "Metadata",
        join(table, note),
        subtitle=plural(len(rows), "property", "properties"),
    )


# ------------------------------------------------------------------------------- strict


def _strict_panel(report: Report, folded_lines: int | None = None) -> Markup:
    if report.target_kind == "output-type":
        return _panel(
            "strict",
            "Strict schema",
            _note("An output type has no parameters schema; see the Output panel."),
        )
    parts: list[Child] = []
    error = report.view_errors.get("strict")
    if error:
        parts.append(_error_box(error, label="strict conversion failed"))
    subtitle = "strict off"
    if report.schema is not None and report.options.strict:
        subtitle = plural(len(report.strict_changes), "change")
        shown = _strict_diff(report, folded_lines)
        if shown is None:  # too long to diff while typing: mark the changed lines instead
            shown = highlight_json(report.schema, marks=_change_marks(report.strict_changes))
        parts.append(shown)
        parts.append(tag("h4", "What strict conversion changed"))
        parts.append(_changes_list(report.strict_changes))
    elif report.schema is not None:
        parts.append(_note("Strict mode is off: this is the schema as pydantic built it."))
        parts.append(highlight_json(report.schema))
    if report.raw_schema is not None and report.schema is None:
        parts.append(tag("h4", "Before strict conversion"))
        parts.append(highlight_json(report.raw_schema))
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
    return text.replace("{before}", "…").replace("{after}", "…")


def _strict_diff(report: Report, folded_lines: int | None) -> Markup | None:
    """The strict schema as a diff against the raw one, each rewrite tagged with its rule."""
    before, after = Side(report.raw_schema), Side(report.schema)
    if too_long(before, after):
        return None
    for change in report.strict_changes:
        rule = _value(change.rule)
        title = f"{rule}: {change.reason}\n\nThe rule: {_rule_doc(rule)}"
        keyword = _RULE_KEYWORD.get(rule)
        pointer = join_pointer(change.pointer, keyword) if keyword else change.pointer
        if pointer in after.line_of:
            after.tag_at(after.line_of[pointer], rule, title)
        elif pointer in before.line_of:
            before.tag_at(before.line_of[pointer], rule, title)
        else:
            line = line_for(change.pointer, after.line_of)
            if line is not None:
                after.tag_at(line, rule, title)
    after.link(schema_spans(report))
    titles = ("Before strict conversion", "After: what the model receives")
    return join(
        tag("div", inline_diff(before, after), class_="tl-inline-view"),
        tag(
            "div",
            side_by_side(before, after, titles, max_lines=folded_lines),
            class_="tl-sbs-view",
        ),
    )


# ------------------------------------------------------------------------------- output


def _output_panel(report: Report, folded_lines: int | None = None) -> Markup:
    out = report.output
    error = report.view_errors.get("output")
    parts: list[Child] = []
    if error:
        parts.append(_error_box(error, label="output schema failed"))
    if out is None:
        if not error:
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
    if error and not out.strict:
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
        if out.raw_json_schema is not None and out.raw_json_schema != out.json_schema:
            parts.append(
                tag(
                    "details",
                    tag("summary", "Before strict conversion"),
                    highlight_json(out.raw_json_schema, max_lines=folded_lines),
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
        _value(finding.severity),
        _value(finding.rule),
        finding.pointer,
        finding.message,
        finding.fix,
        _safe_href(finding.source),
    )


def _findings_list(findings: Sequence[Finding], empty: str) -> Markup:
    if not findings:
        return _note(empty)
    return tag("ul", [_finding_item(f) for f in findings], class_="tl-findings")


def group_findings(
    lint: Sequence[Finding], provider: Sequence[Finding]
) -> tuple[dict[int, list[Finding]], list[Finding]]:
    """Provider findings about the same problem as a lint finding, and the rest.

    One problem seen from two angles (a default strict mode drops: lint says the model never
    applies it, the provider check says the provider rejects it) is shown once: a provider
    finding joins the lint finding at its pointer or its parent whose rule names the same
    keyword (``openai.default`` at ``/properties/unit/default`` joins
    ``lint.default-not-applied`` at ``/properties/unit``).

    Returns:
        ``{index of the lint finding: [provider findings]}`` and the provider findings left.
    """
    angles: dict[int, list[Finding]] = {}
    rest: list[Finding] = []
    for finding in provider:
        pointer = finding.pointer or ""
        keyword = pointer.rsplit("/", 1)[-1]
        parent = pointer.rsplit("/", 1)[0]
        match = next(
            (
                index
                for index, item in enumerate(lint)
                if item.pointer in (pointer, parent) and keyword and keyword in _value(item.rule)
            ),
            None,
        )
        if match is None:
            rest.append(finding)
        else:
            angles.setdefault(match, []).append(finding)
    return angles, rest


def _grouped_findings_list(
    lint: Sequence[Finding], angles: Mapping[int, list[Finding]], provider: str, empty: str
) -> Markup:
    if not lint:
        return _note(empty)
    items = []
    for index, finding in enumerate(lint):
        item = _finding_item(finding)
        more = angles.get(index)
        if more:
            extra = tag(
                "div",
                tag("span", f"The same problem, as {provider} sees it:", class_="tl-muted"),
                tag("ul", [_finding_item(f) for f in more], class_="tl-findings"),
                class_="tl-angle",
            )
            item = Markup(item[: -len("</li>")] + extra + "</li>")
        items.append(item)
    return tag("ul", items, class_="tl-findings")


def _findings_panel(report: Report, folded_lines: int | None = None) -> Markup:
    parts: list[Child] = [tag("h4", "Lint")]
    if "lint" in report.view_errors:
        parts.append(_error_box(report.view_errors["lint"], label="lint failed"))
    lint_empty = (
        "No pitfalls found."
        if report.function is not None
        else "Lint checks callables (docstrings, Annotated metadata); nothing to check here."
    )
    angles, provider_rest = group_findings(report.lint, report.provider_findings)
    parts.append(_grouped_findings_list(report.lint, angles, report.provider, lint_empty))
    parts.append(tag("h4", "Provider ", _code(report.provider)))
    if "provider" in report.view_errors:
        parts.append(_error_box(report.view_errors["provider"], label="provider view failed"))
    verdict = report.provider_verdict
    if verdict is not None:
        parts.append(verdict_html(verdict))
    provider_empty = f"{report.provider} accepts this schema."
    if len(provider_rest) < len(report.provider_findings):
        provider_empty = "Shown with the lint findings above, where they concern the same thing."
    parts.append(_findings_list(provider_rest, provider_empty))
    if report.provider_payload is not None:
        parts.append(
            tag(
                "details",
                tag("summary", f"What {report.provider} receives"),
                highlight_json(report.provider_payload, max_lines=folded_lines),
            )
        )
    counts = _severity_counts(report.findings)
    subtitle = ", ".join(plural(n, sev) for sev, n in counts.items() if n) or "none"
    return _panel("findings", "Findings", parts, subtitle=subtitle)


# ------------------------------------------------------------------------------ public


def render_panels(report: Report, *, folded_lines: int | None = None) -> dict[str, str]:
    """One self-contained HTML fragment per view (no stylesheet; see ``style_tag``).

    Args:
        report: what to show.
        folded_lines: show at most this many lines of each JSON document that starts
            folded (the schema before strict conversion, the provider payload), with a note
            saying how many are left out; ``None`` shows every line. The explorer limits
            them so that an edit of a big tool does not resend pages nobody unfolded.

    Returns:
        Keys ``"signature"``, ``"metadata"``, ``"strict"``, ``"output"``, ``"findings"``.
    """
    return {
        "signature": str(_signature_panel(report)),
        "metadata": str(_metadata_panel(report)),
        "strict": str(_strict_panel(report, folded_lines)),
        "output": str(_output_panel(report, folded_lines)),
        "findings": str(_findings_panel(report, folded_lines)),
    }


def render_html(report: Report) -> str:
    """The whole report as static HTML: stylesheet, header, the panels, the findings."""
    panels = render_panels(report)
    # Three narrow views side by side (stacking when narrow), then the metadata table and
    # the findings on rows of their own (their panels carry ``tl-full``).
    grid = tag(
        "div",
        *(Markup(panels[key]) for key in ("signature", "strict", "output", "metadata", "findings")),
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
