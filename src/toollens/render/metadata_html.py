"""The Metadata view of the static report, and where each value is written (spans).

Each parameter's row shows the value that won for each attribute and, on request, every
candidate with its source and why it lost; a value carries ``data-span`` so the explorer
can point at where it is written. :func:`resolve_span` turns a span key back into the
span, located only then; :func:`schema_spans` maps the strict schema's lines to spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from toollens.core.metadata import Candidate, ParameterMetadata
from toollens.core.records import join_pointer
from toollens.core.report import Report
from toollens.core.spans import SourceSpan, may_locate
from toollens.render.display import plural
from toollens.render.markup import Child, Markup, badge, code, join, note, safe_repr, tag
from toollens.render.model import MetadataView
from toollens.render.panel import panel, table
from toollens.render.rows import (
    Cand,
    candidate,
    context_metadata_row,
    metadata_row,
    value_cell,
    why_item,
)

__all__ = ["metadata_panel", "resolve_span", "schema_spans", "span_text"]

_note, _badge, _code = note, badge, code


# Where a value is written travels in ``data-span``: the span's label (``"l1:c1-l2:c2"``)
# in a static report, or, in the explorer, a key naming the value that the kernel locates
# when the author clicks it (:func:`resolve_span`), so typing never waits for spans. Keys:
# ``t3`` (the tool's fourth candidate), ``p1.2`` (the second parameter's third candidate),
# ``s/properties/city`` (the strict schema's line at that pointer).


def span_text(span: SourceSpan | None) -> str:
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


def metadata_panel(view: MetadataView, span_keys: bool) -> Markup:
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
        table(columns, rows, "tl-table tl-meta") if rows else _note("No parameters."),
        _note(
            Markup(
                "Each cell shows the value the model sees and where it came from; unfold "
                "&ldquo;other sources&rdquo; for the values that lost (hover for why)."
            )
        ),
        _why_list(view),
    )
    return panel("metadata", "Metadata", body, subtitle="what the model sees, and from where")


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
        return panel("metadata", "Metadata", _note(view.absent))
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
    return panel(
        "metadata",
        "Metadata",
        join(table(columns, rows, "tl-table"), note),
        subtitle=plural(len(rows), "property", "properties"),
    )
