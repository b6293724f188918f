"""What each view of a report shows, decided once for every renderer.

:func:`view_model` reads a :class:`~toollens.core.report.Report` and decides what each view
holds: which rows, which error, which schema (and the one before strict conversion when
that failed), which sentence stands in for a view that does not apply, how provider
findings join the lint finding about the same problem. ``render.text`` and ``render.html``
only format it, so the command line and the explorer cannot disagree about what a report
says.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toollens.core.metadata import Candidate, ParameterMetadata
from toollens.core.problems import group_findings
from toollens.core.records import Change, Finding, Severity
from toollens.core.report import Report, View
from toollens.core.schema.pointer import ref_name
from toollens.core.schema.types import JsonObject, JsonSchema
from toollens.core.signature import ParameterKind
from toollens.render.display import default_text, signature_line, type_text
from toollens.render.markup import safe_repr
from toollens.render.payload_view import GivenView, given_view

__all__ = [
    "FindingsView",
    "Header",
    "MetadataView",
    "OutputView",
    "PropertyRow",
    "ReportView",
    "SignatureRow",
    "SignatureView",
    "StrictView",
    "group_findings",
    "header",
    "view_model",
]

# Why a view shows nothing, by target kind.
_NO_SIGNATURE = {
    "model": "A pydantic model: its fields are the schema's properties (see Metadata).",
    "output-type": "An output type has no parameters; see the Output panel.",
    "json-schema": "A raw JSON schema has no Python signature.",
    "callable": "",
}
_NO_STRICT = "An output type has no parameters schema; see the Output panel."


@dataclass(frozen=True)
class Header:
    """The report's title line: what it is, how it was built, how many findings."""

    title: str
    target_kind: str
    strict: bool
    provider: str
    description: str | None
    counts: Mapping[Severity, int]
    view_errors: int


@dataclass(frozen=True)
class SignatureRow:
    """One parameter as the signature declares it."""

    name: str
    type: str
    kind: ParameterKind
    default: str
    is_context: bool
    schema_name: str | None  # the name in the schema when an alias renames it


@dataclass(frozen=True)
class SignatureView:
    line: str | None  # ``def f(a: int) -> str``; None when the target is not a callable
    rows: tuple[SignatureRow, ...] = ()
    in_schema: int = 0
    context: str | None = None
    absent: str = ""  # what stands in for the view when ``line`` is None


@dataclass(frozen=True)
class PropertyRow:
    """One property of a schema target (a model or a JSON Schema): no sources to merge."""

    name: str
    type: str
    required: bool
    description: str | None
    default: str | None


@dataclass(frozen=True)
class MetadataView:
    tool: tuple[Candidate, ...] = ()  # the tool's name and description, every source
    parameters: tuple[ParameterMetadata, ...] = ()  # callable targets
    types: tuple[str, ...] = ()  # each parameter's type as people write it
    properties: tuple[PropertyRow, ...] = ()  # schema targets
    is_callable: bool = True
    absent: str = ""  # when there is nothing to show


@dataclass(frozen=True)
class StrictView:
    applies: bool  # False for an output type: it has no parameters schema
    strict: bool
    schema: JsonSchema | None
    raw_schema: JsonSchema | None
    changes: tuple[Change, ...]
    error: str | None
    before: JsonSchema | None  # the schema before conversion, when conversion failed
    absent: str = ""


@dataclass(frozen=True)
class OutputView:
    output: Any  # OutputSchema or None
    error: str | None
    lax: bool  # shown without strict conversion because strict conversion failed
    before: JsonSchema | None  # before strict conversion, when that changed anything


@dataclass(frozen=True)
class FindingsView:
    lint: tuple[Finding, ...]
    lint_error: str | None
    lint_empty: str
    provider: str
    provider_error: str | None
    verdict: Any  # ProviderVerdict or None
    provider_findings: tuple[Finding, ...]  # every one
    angles: Mapping[int, tuple[Finding, ...]]  # lint index -> provider findings, same problem
    provider_rest: tuple[Finding, ...]  # provider findings that join no lint finding
    provider_empty: str
    payload: JsonObject | None
    counts: Mapping[Severity, int] = field(default_factory=dict)
    given: GivenView | None = None  # a payload written for another provider (payload_view)


@dataclass(frozen=True)
class ReportView:
    header: Header
    signature: SignatureView
    metadata: MetadataView
    strict: StrictView
    output: OutputView
    findings: FindingsView


def view_model(report: Report) -> ReportView:
    """Every view of ``report`` as data the renderers format."""
    # Each parameter's type text, made once: the signature line, its table and the
    # metadata table all show it.
    types = _parameter_types(report)
    return ReportView(
        header(report),
        _signature(report, types),
        _metadata(report, types),
        _strict(report),
        _output(report),
        _findings(report),
    )


def header(report: Report) -> Header:
    description = None
    if report.function is not None:
        description = report.function.description
    elif report.raw_schema is not None:
        text = report.raw_schema.get("description")
        description = text if isinstance(text, str) else None
    return Header(
        report.title,
        report.target_kind,
        report.options.strict,
        report.provider,
        description or None,
        report.finding_counts,
        len(report.view_errors),
    )


def _parameter_types(report: Report) -> tuple[str, ...]:
    fs = report.function
    return () if fs is None else tuple(type_text(meta.annotation) for meta in fs.parameters)


def _signature(report: Report, types: tuple[str, ...]) -> SignatureView:
    fs = report.function
    if fs is None:
        return SignatureView(None, absent=_NO_SIGNATURE[report.target_kind])
    inspected = {p.name: p for p in fs.callable_info.parameters}
    rows = []
    for meta, type_ in zip(fs.parameters, types, strict=True):
        param = inspected.get(meta.name)
        default = default_text(meta, param.default if param else inspect.Parameter.empty)
        alias = meta.schema_name if meta.alias and not meta.is_context else None
        rows.append(SignatureRow(meta.name, type_, meta.kind, default, meta.is_context, alias))
    return SignatureView(
        signature_line(fs, types), tuple(rows), len(fs.schema_parameters), fs.context_parameter
    )


def _metadata(report: Report, types: tuple[str, ...]) -> MetadataView:
    fs = report.function
    if fs is not None:
        return MetadataView(tuple(fs.provenance), tuple(fs.parameters), types)
    schema = report.raw_schema
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping) or not props:
        absent = (
            "An output type has no parameters."
            if report.target_kind == "output-type"
            else "The schema declares no properties."
        )
        return MetadataView(is_callable=False, absent=absent)
    listed = schema.get("required") if isinstance(schema, Mapping) else None
    # "required": null (or any non-list) names no property: every one is optional
    required = {r for r in listed if isinstance(r, str)} if isinstance(listed, list) else set()
    rows = []
    for name, node in props.items():
        node_map = node if isinstance(node, Mapping) else {}
        description = node_map.get("description")
        default = safe_repr(node_map["default"], limit=60) if "default" in node_map else None
        rows.append(
            PropertyRow(
                str(name),
                schema_type(node),
                name in required,
                None if description is None else str(description),
                default,
            )
        )
    return MetadataView(properties=tuple(rows), is_callable=False)


def schema_type(node: object) -> str:
    """A schema node's type in a few characters: ``string``, ``Address``, ``integer | null``."""
    if not isinstance(node, Mapping):
        return "any"
    if "$ref" in node:
        return ref_name(str(node["$ref"]))
    if "type" in node:
        t = node["type"]
        return " | ".join(map(str, t)) if isinstance(t, list) else str(t)
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(node.get(key), list):
            return " | ".join(schema_type(n) for n in node[key])
    if "enum" in node:
        return "enum"
    if "const" in node:
        return "const"
    return "any"


def _strict(report: Report) -> StrictView:
    applies = report.target_kind != "output-type"
    before = report.raw_schema if report.schema is None else None
    return StrictView(
        applies,
        report.options.strict,
        report.schema,
        report.raw_schema,
        report.strict_changes,
        report.view_errors.get(View.STRICT),
        before,
        "" if applies else _NO_STRICT,
    )


def _output(report: Report) -> OutputView:
    out = report.output
    error = report.view_errors.get(View.OUTPUT)
    before = None
    if out is not None and out.json_schema is not None:
        raw = out.raw_json_schema
        before = raw if raw is not None and raw != out.json_schema else None
    lax = bool(error) and out is not None and not out.strict
    return OutputView(out, error, lax, before)


def _findings(report: Report) -> FindingsView:
    angles, rest = group_findings(report.lint, report.provider_findings)
    lint_empty = (
        "No pitfalls found."
        if report.function is not None
        else "No pitfalls found in what the schema says (the other rules read Python source)."
        if report.target_kind == "json-schema"
        else "Lint checks callables (docstrings, Annotated metadata); nothing to check here."
    )
    provider_empty = f"{report.provider} accepts this schema."
    if len(rest) < len(report.provider_findings):
        provider_empty = "Shown with the lint findings above, where they concern the same thing."
    return FindingsView(
        report.lint,
        report.view_errors.get(View.LINT),
        lint_empty,
        report.provider,
        report.view_errors.get(View.PROVIDER),
        report.provider_verdict,
        report.provider_findings,
        angles,
        rest,
        provider_empty,
        report.provider_payload,
        report.finding_counts,
        given_view(report),
    )
