"""Report -> plain text, for the command line and the ``text/plain`` display.

It formats :func:`toollens.render.model.view_model`, as the HTML renderer does, so both say
the same things; only what HTML folds away is left out here (the output schema before strict
conversion) or listed flat (provider findings, beside the lint finding they join in HTML).
Deterministic: the same report gives the same bytes. ``render_view`` prints one view as text
or as JSON; the JSON of a schema view is exactly ``json.dumps(value, indent=2)`` plus a
newline, so it can be piped into other tools and diffed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toollens.core.errors import TargetError, ToolLensError
from toollens.core.metadata import MISSING, Candidate, ParameterMetadata
from toollens.core.records import Change, Finding
from toollens.core.report import Report, View
from toollens.core.schema.types import JsonObject
from toollens.render.display import enum_value, type_text
from toollens.render.markup import safe_repr
from toollens.render.model import (
    FindingsView,
    MetadataView,
    OutputView,
    PropertyRow,
    SignatureView,
    StrictView,
    view_model,
)
from toollens.render.verdict import verdict_lines

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema

__all__ = ["FORMATS", "VIEWS", "render_text", "render_view", "view_data"]

#: The views the text renderer and the command line can show, one at a time.
VIEWS = (View.SIGNATURE, View.METADATA, View.STRICT, View.RAW, View.OUTPUT, View.PROVIDER)
FORMATS = ("text", "json")


_value = enum_value


def _dump(value: Any) -> str:
    try:
        return json.dumps(value, indent=2)
    except (TypeError, ValueError):
        # A dict schema built in Python may hold bytes, sets or objects: print the same
        # layout with their reprs, as the HTML view does, rather than fail the whole view.
        from toollens.render.highlight import pretty_json  # pygments: only when needed

        return pretty_json(value, ensure_ascii=True)[0]


def _rule(title: str) -> str:
    return f"== {title} " + "=" * max(3, 60 - len(title))


def _indent(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def _changes_text(changes: Sequence[Change]) -> list[str]:
    if not changes:
        return ["strict conversion changed nothing"]
    return [f"  {c.pointer or '/'}  [{_value(c.rule)}] {c.reason}" for c in changes]


def _finding_text(finding: Finding) -> str:
    # The layout `toollens check` uses: the finding on its line, its fix on the next.
    return f"{finding.headline}\n    fix: {finding.fix}" if finding.fix else finding.headline


# ------------------------------------------------------------------------------- views


def _signature_text(view: SignatureView) -> str:
    if view.line is None:
        return view.absent
    lines = [view.line]
    rows = [
        (
            row.name,
            row.kind.label,
            row.type,
            "run context: injected, not in schema" if row.is_context else row.default,
        )
        for row in view.rows
    ]
    widths = [max((len(r[i]) for r in rows), default=0) for i in range(3)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append("  " + "  ".join([*cells, row[3]]))
    return "\n".join(lines)


def _metadata_text(view: MetadataView) -> str:
    if not view.is_callable:
        return "\n".join(_property_line(row) for row in view.properties) or view.absent
    lines: list[str] = []
    for c in view.tool:
        lines.append(_candidate_line(f"tool {c.attribute}", c))
    for meta, type_ in zip(view.parameters, view.types, strict=True):
        lines.append(_param_header(meta, type_))
        if meta.is_context:
            lines.append("  injected run context, not in schema")
            continue
        for c in meta.candidates:
            lines.append(_candidate_line(f"  {c.attribute}", c))
    return "\n".join(lines)


def _property_line(row: PropertyRow) -> str:
    facts = [row.type, "required" if row.required else "optional"]
    if row.default is not None:
        facts.append(f"default {row.default}")
    line = f"  {row.name} ({', '.join(facts)})"
    return f"{line}: {row.description}" if row.description is not None else line


def _param_header(meta: ParameterMetadata, type_: str) -> str:
    extra = []
    if meta.alias:
        extra.append(f"alias {meta.alias!r}")
    if meta.constraints:
        extra.append(", ".join(f"{k}={safe_repr(v)}" for k, v in meta.constraints.items()))
    suffix = f"  ({'; '.join(extra)})" if extra else ""
    return f"{meta.name}: {type_} [{meta.kind.label}]{suffix}"


def _candidate_line(label: str, c: Any) -> str:
    value = (
        c.value if isinstance(c.value, str) and c.attribute == "description" else safe_repr(c.value)
    )
    mark = "✓" if c.won else "✗"
    return f"{label} {mark} {c.source.label}: {value}  -- {c.reason}"


def _strict_text(view: StrictView) -> str:
    if not view.applies:
        return view.absent
    parts: list[str] = []
    if view.error:
        parts.append("error: " + view.error)
    if view.schema is not None:
        parts.append(_dump(view.schema))
        if view.strict:
            parts.append("changes:")
            parts.extend(_changes_text(view.changes))
        else:
            parts.append("strict mode is off")
    if view.before is not None:
        parts.append("before strict conversion:")
        parts.append(_dump(view.before))
    return "\n".join(parts or ["no parameters schema"])


def _output_text(view: OutputView) -> str:
    out = view.output
    parts: list[str] = []
    if view.error:
        parts.append("error: " + view.error)
    if out is None:
        return "\n".join(parts or ["no output type"])
    parts.append(f"path: {_value(out.path)}  name: {out.name}  strict: {str(out.strict).lower()}")
    parts.append(out.explain())
    if view.lax:
        parts.append("shown without strict conversion")
    if out.json_schema is None:
        parts.append("no schema is sent: the model answers with text")
    else:
        parts.append(_dump(out.json_schema))
        if out.strict_changes:
            parts.append("changes:")
            parts.extend(_changes_text(out.strict_changes))
        # the schema before strict conversion is left out: the changes list says what differs
    return "\n".join(parts)


def _provider_text(view: FindingsView) -> str:
    parts: list[str] = [f"provider: {view.provider}"]
    if view.provider_error is not None:
        parts.append("error: " + view.provider_error)
    if view.payload is not None:
        parts.append(_dump(view.payload))
    if view.verdict is not None:
        parts.extend(verdict_lines(view.verdict))
    parts.extend(_finding_text(f) for f in view.provider_findings)
    if not view.provider_findings:
        parts.append("no provider findings")
    if view.given is not None:  # a payload written for another provider: its own fields
        found = [_finding_text(f) for f in view.given.findings]
        parts += [view.given.note, *(found or [view.given.empty])]
    return "\n".join(parts)


def _findings_text(view: FindingsView) -> str:
    parts: list[str] = []
    if view.lint_error is not None:
        parts.append("lint error: " + view.lint_error)
    parts.extend(_finding_text(f) for f in view.lint)
    if not view.lint and view.lint_error is None:
        parts.append("no lint findings")
    return "\n".join(parts)


def render_text(report: Report) -> str:
    """Every view of the report as plain text (ends with a newline)."""
    model = view_model(report)
    head = model.header
    sections = [
        f"toollens: {head.title} ({head.target_kind}, "
        f"{'strict' if head.strict else 'strict off'}, provider {head.provider})"
    ]
    if head.description:
        sections.append(_indent(head.description))
    for title, body in (
        ("Signature", _signature_text(model.signature)),
        ("Metadata", _metadata_text(model.metadata)),
        ("Strict schema", _strict_text(model.strict)),
        ("Output", _output_text(model.output)),
        ("Lint", _findings_text(model.findings)),
        ("Provider", _provider_text(model.findings)),
    ):
        sections.append(_rule(title) + "\n" + body)
    return "\n\n".join(sections) + "\n"


# --------------------------------------------------------------------------- one view


def view_data(report: Report, view: str) -> object:
    """What the library returns for one view, as JSON-ready data.

    ``strict`` -> ``report.schema``, ``raw`` -> ``report.raw_schema``, ``output`` -> the
    output's ``json_schema`` (``None`` on the plain-text path), ``provider`` -> the payload;
    ``signature`` and ``metadata`` -> lists of per-parameter records.

    Raises:
        ToolLensError: the view failed for this report (its recorded message).
        TargetError: the view does not exist for this kind of target.
    """
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    error = report.view_errors.get(view)
    if view == View.STRICT:
        if report.schema is None and error:
            raise ToolLensError(error)
        return _need(report, view, report.schema)
    if view == View.RAW:
        return _need(report, view, report.raw_schema)
    if view == View.OUTPUT:
        if error:  # a lax fallback is not what output_schema(strict=...) returns
            raise ToolLensError(error)
        return _need(report, view, report.output).json_schema
    if view == View.PROVIDER:
        if report.provider_payload is None and error:
            raise ToolLensError(error)
        return _need(report, view, report.provider_payload)
    fs = _need(report, view, report.function)
    if view == View.SIGNATURE:
        return [_signature_record(fs, meta) for meta in fs.parameters]
    return {
        "tool": [_candidate_record(c) for c in fs.provenance],
        "parameters": [
            {
                "name": meta.name,
                "schema_name": meta.schema_name,
                "is_context": meta.is_context,
                "candidates": [_candidate_record(c) for c in meta.candidates],
            }
            for meta in fs.parameters
        ],
    }


def _need(report: Report, view: str, value: Any) -> Any:
    if value is None:
        raise TargetError(
            f"the {view} view does not apply to a {report.target_kind} target",
            hint="pick another view, e.g. output for a type or strict for a schema",
        )
    return value


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return safe_repr(value)
    return value


def _signature_record(fs: FunctionSchema, meta: ParameterMetadata) -> JsonObject:
    return {
        "name": meta.name,
        "kind": meta.kind.value,
        "annotation": type_text(meta.annotation),
        "required": meta.required and not meta.is_context,
        "default": None if meta.default is MISSING else _jsonable(meta.default),
        "is_context": meta.is_context,
        "schema_name": meta.schema_name,
    }


def _candidate_record(c: Candidate) -> JsonObject:
    return {
        "attribute": c.attribute,
        "source": _value(c.source),
        "value": _jsonable(c.value),
        "won": c.won,
        "reason": c.reason,
    }


def render_view(report: Report, view: str, fmt: str = "text") -> str:
    """One view as ``"text"`` or ``"json"`` (``json.dumps(data, indent=2) + "\\n"``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose text or json")
    if fmt == "json" or view == View.RAW:
        return _dump(view_data(report, view)) + "\n"
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    model = view_model(report)
    text = {
        View.SIGNATURE: lambda: _signature_text(model.signature),
        View.METADATA: lambda: _metadata_text(model.metadata),
        View.STRICT: lambda: _strict_text(model.strict),
        View.OUTPUT: lambda: _output_text(model.output),
        View.PROVIDER: lambda: _provider_text(model.findings),
    }[View(view)]()
    return text + "\n"
