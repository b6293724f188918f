"""One call that computes every view of a target, once, for every front end.

The explorer widget, the ``%toolschema`` magic, the command line and the static HTML all
render a :class:`Report`; none of them builds a schema its own way. A target is a callable,
a pydantic model class, an output type (``list[int]``, ``Literal[...]``, ...) or a raw JSON
Schema (a dict, or JSON text).

A failure in one view (the output type cannot be strict, a provider rejects the schema) is
recorded in ``Report.view_errors`` and the other views are still computed. A target that
cannot be inspected at all raises, so the front end can show a banner.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel
from typing_extensions import Unpack

from toollens.core.callables import langchain_definition
from toollens.core.choices import DEFAULT_PROVIDER, ProviderId
from toollens.core.display_hooks import mimebundle
from toollens.core.errors import (
    SchemaConstructionError,
    StrictSchemaError,
    ToolLensError,
)
from toollens.core.options import OptionOverrides, ReportOptions, SchemaOptions
from toollens.core.problems import problem_counts
from toollens.core.records import Change, Finding, Severity
from toollens.core.schema.given import check_plain_data, check_schema_or_tool, parse_schema_text
from toollens.core.schema.toolkit import copy_json
from toollens.core.schema.types import JsonObject, JsonSchema
from toollens.core.target_kinds import TargetKind, target_kind
from toollens.core.validation import pydantic_reason

if TYPE_CHECKING:  # option types only; the modules are imported when a report is built
    from toollens.core.function_schema import FunctionSchema
    from toollens.core.output import OutputSchema
    from toollens.core.providers import ProviderVerdict
    from toollens.core.providers.given import GivenPayload

_T = TypeVar("_T")


_DEFAULT_OPTIONS = ReportOptions()


@dataclass(frozen=True)
class Report:
    """Every view of one target, computed once.

    Attributes:
        target_kind: ``"callable"``, ``"model"``, ``"output-type"`` or ``"json-schema"``.
        options: what the report was computed with.
        title: the tool name, model name, type name or schema title.
        function: the ``FunctionSchema`` for a callable target, else ``None``.
        raw_schema: the parameters schema before strict conversion (``None`` for an
            output-type target).
        schema: what a provider receives: the strict schema when ``options.strict``, else a
            copy of ``raw_schema``; ``None`` when strict conversion failed (see
            ``view_errors[View.STRICT]``) or for an output-type target.
        strict_changes: every rewrite strict conversion made to ``schema``.
        output: the ``OutputSchema`` of the output type, or ``None``.
        provider: the provider the payload and findings are for.
        provider_payload: the tool definition that provider receives (callable targets).
        lint: pitfalls found in the target.
        provider_findings: what the provider would reject or mishandle.
        view_errors: view name (``"strict"``, ``"output"``, ``"provider"``, ``"lint"``) ->
            the message of the error that stopped that view.
        given: the provider tool payload the target is, read and judged (``None`` for other
            targets); for its own provider, part of the provider findings and payload.
        target: the object the report was made for.
    """

    target_kind: TargetKind
    options: ReportOptions
    title: str
    function: FunctionSchema | None = None
    raw_schema: JsonSchema | None = None
    schema: JsonSchema | None = None
    strict_changes: tuple[Change, ...] = ()
    output: OutputSchema | None = None
    provider: ProviderId = DEFAULT_PROVIDER
    provider_payload: JsonObject | None = None
    lint: tuple[Finding, ...] = ()
    provider_findings: tuple[Finding, ...] = ()
    view_errors: Mapping[str, str] = field(default_factory=dict)
    given: GivenPayload | None = None
    target: object = field(default=None, repr=False, compare=False)

    @property
    def repeated_errors(self) -> frozenset[str]:
        """Views whose error only repeats another's: no provider payload because strict
        conversion failed. A summary reports those once."""
        strict = self.view_errors.get(View.STRICT)
        if strict is not None and self.view_errors.get(View.PROVIDER) == no_payload_message(strict):
            return frozenset({View.PROVIDER})
        return frozenset()

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Lint findings then provider findings."""
        return (*self.lint, *self.provider_findings)

    @functools.cached_property
    def finding_counts(self) -> dict[Severity, int]:
        """Problems per severity, every severity present, worst first; counted once (a
        provider finding that explains a lint finding is part of it, see ``problems``)."""
        return problem_counts(self.lint, [self.provider_findings])

    @functools.cached_property
    def provider_verdict(self) -> ProviderVerdict | None:
        """The provider's verdict and which judge said what (``None`` if the view failed);
        judged once."""
        if View.PROVIDER in self.view_errors and not self.provider_findings:
            return None
        # lazy: provider rules + docstring_parser (~47 ms); not loaded by `%load_ext toollens`
        from toollens.core.providers import verdict_of

        strict = self.function.strict if self.function is not None else self.options.strict
        return verdict_of(self.provider, self.provider_findings, strict=strict)

    def _repr_mimebundle_(
        self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
    ) -> dict[str, str]:
        # The renderer is registered by toollens.render: core never imports a front end.
        return mimebundle(self, include, exclude)


class View(str, enum.Enum):
    """The views of a Report, by the one set of names every front end uses.

    ``view_errors`` is keyed by these; ``render_view`` and ``render_panels`` take them.
    """

    SIGNATURE = "signature"
    METADATA = "metadata"
    STRICT = "strict"
    RAW = "raw"  # the schema before strict conversion
    OUTPUT = "output"
    PROVIDER = "provider"
    LINT = "lint"
    FINDINGS = "findings"  # lint and provider findings together

    def __str__(self) -> str:  # the name itself, on every Python (3.12 changed __format__)
        return str(self.value)


def no_payload_message(strict_error: str) -> str:
    """The provider view's error when strict conversion failed and there is no payload."""
    return "no payload: " + strict_error


def report(
    target: object, options: ReportOptions | None = None, **overrides: Unpack[OptionOverrides]
) -> Report:
    """Compute every view of ``target`` once.

    Args:
        target: a callable; a pydantic model class; a LangChain ``BaseTool`` class or
            instance (read as ``bind_tools`` sends it: its ``args_schema``'s fields, named
            and described as LangChain names it); an output type such as ``list[int]``,
            ``Literal["a", "b"]``, a TypedDict, an enum or a builtin type; or a JSON Schema
            as a dict or JSON text. Other classes are treated as callables (their
            constructor becomes the tool).
        options: the options to compute with (``ReportOptions()`` when omitted).
        **overrides: fields of ``ReportOptions`` to change, e.g. ``strict=False``:
            ``strict`` runs strict conversion (OpenAI strict mode) on the schemas;
            ``provider`` is ``"openai-chat"``, ``"openai-responses"``, ``"anthropic"`` or
            ``"gemini"``; ``docstring_style``, ``name``, ``description``, ``output_type``,
            ``optional_defaults``, ``use_docstring_info`` and ``context_types`` are passed
            to ``function_schema`` (``name`` and ``description`` also title other targets).

    Raises:
        SchemaConstructionError: the target cannot become a schema at all (malformed JSON
            text names its line and column).
        TargetError: the object is none of the supported kinds.
        TypeError: a keyword that is not a field of ``ReportOptions``.
    """
    options = options or _DEFAULT_OPTIONS
    if overrides or not isinstance(options, ReportOptions):
        options = dataclasses.replace(options, **overrides)  # frozen: else the one given serves
    sent = langchain_definition(target)  # a LangChain BaseTool: what bind_tools sends
    if sent is not None:
        target, name = sent.parameters, options.name or sent.name
        description = options.description or sent.description
        options = dataclasses.replace(options, name=name, description=description)
    kind = target_kind(target)
    return _BUILDERS[kind](target, options)


def _guard(errors: dict[str, str], view: str, compute: Callable[[], _T], fallback: _T) -> _T:
    """Run one view; a ToolLensError is recorded for that view and the others go on."""
    try:
        return compute()
    except ToolLensError as exc:
        errors[view] = str(exc)
        return fallback


def _output_view(tp: Any, strict: bool, errors: dict[str, str]) -> Any:
    """The output schema; when strict mode cannot express it, the error plus the lax one."""
    # lazy: toollens.core.output + pydantic.type_adapter (~8 ms), for an output view only
    from toollens.core.output import output_schema

    try:
        return output_schema(tp, strict=strict)
    except StrictSchemaError as exc:
        errors[View.OUTPUT] = str(exc)
        return _guard({}, View.OUTPUT, lambda: output_schema(tp, strict=False), None)
    except ToolLensError as exc:
        errors[View.OUTPUT] = str(exc)
        return None


def _provider_views(
    subject: Any,
    options: ReportOptions,
    errors: dict[str, str],
    *,
    payload: bool = True,
    name: str | None = None,
    description: str | None = None,
) -> tuple[JsonObject | None, tuple[Finding, ...]]:
    """The provider payload (unless ``payload`` is false) and the provider findings.

    ``subject`` is a FunctionSchema, or a parameters schema named by ``name``.
    """
    # lazy: provider rules + docstring_parser (~47 ms); not loaded by `%load_ext toollens`
    from toollens.core.providers import check_provider, provider_payload

    plain = isinstance(subject, dict)
    # A FunctionSchema brings its own name, description and strictness.
    name, description = (name, description) if plain else (None, None)
    strict = options.strict if plain else None
    built = None
    if payload:
        built = _guard(
            errors,
            View.PROVIDER,
            lambda: provider_payload(
                subject, options.provider, name=name, description=description, strict=strict
            ),
            None,
        )
    no_findings: tuple[Finding, ...] = ()
    findings = _guard(
        errors,
        View.PROVIDER,
        # A plain schema is checked as its payload carries it, so the payload shown is never
        # flagged for what the translation already rewrote; the schema is translated once.
        lambda: tuple(
            check_provider(
                subject, options.provider, name=name, strict=strict, translate=plain, payload=built
            )
        ),
        no_findings,
    )
    return (None if built is None else built.payload), findings


def _lint_view(subject: Any, errors: dict[str, str]) -> tuple[Finding, ...]:
    # lazy: lint + docstring_parser (~60 ms); not loaded by `toollens --help` or `diff`
    from toollens.core.lint import lint

    return _guard(errors, View.LINT, lambda: tuple(lint(subject)), ())


def _callable_report(target: Any, options: ReportOptions) -> Report:
    # lazy: the function-schema engine + docstring_parser (~23 ms), for callables only
    from toollens.core.function_schema import function_schema

    errors: dict[str, str] = {}

    def build(strict: bool) -> Any:
        return function_schema(target, **options.schema_options(strict=strict))

    strict_ok = True
    try:
        fs = build(options.strict)
    except StrictSchemaError as exc:
        # The parameters cannot be strict: show why, and every other view of the lax schema.
        errors[View.STRICT] = str(exc)
        strict_ok = False
        fs = build(False)
    # function_schema returns fresh dicts (pydantic's, then strict conversion's): no copies
    schema = fs.json_schema if strict_ok else None
    output = _output_view(fs.output_type, options.strict, errors)
    payload, provider_findings = _provider_views(fs, options, errors, payload=strict_ok)
    if not strict_ok:
        errors.setdefault(View.PROVIDER, no_payload_message(errors[View.STRICT]))
    return Report(
        target_kind="callable",
        options=options,
        title=fs.name,
        function=fs,
        raw_schema=fs.raw_json_schema,
        schema=schema,
        strict_changes=tuple(fs.strict_changes),
        output=output,
        provider=options.provider,
        provider_payload=payload,
        lint=_lint_view(fs, errors),
        provider_findings=provider_findings,
        view_errors=types.MappingProxyType(errors),
        target=target,
    )


def _schema_views(
    raw: JsonSchema, options: ReportOptions, errors: dict[str, str]
) -> tuple[JsonSchema | None, tuple[Change, ...]]:
    if not options.strict:
        return copy_json(raw), ()
    # lazy: the strict converter (~7 ms); `toollens --help` imports this module, not it
    from toollens.core.strict import explain_strict

    try:
        schema, changes = explain_strict(raw)
    except ToolLensError as exc:
        errors[View.STRICT] = str(exc)
        return None, ()
    return schema, tuple(changes)


def _plain_provider_views(
    raw: JsonSchema,
    schema: JsonSchema | None,
    title: str,
    options: ReportOptions,
    errors: dict[str, str],
) -> tuple[JsonObject | None, tuple[Finding, ...]]:
    """Provider views of a plain schema: no payload when strict conversion failed."""
    description = options.description or raw.get("description")
    payload, findings = _provider_views(
        schema if schema is not None else raw,
        options,
        errors,
        payload=schema is not None,
        name=title,
        description=description if isinstance(description, str) else None,
    )
    if schema is None and View.STRICT in errors:
        errors.setdefault(View.PROVIDER, no_payload_message(errors[View.STRICT]))
    return payload, findings


def model_schema(target: type[BaseModel]) -> JsonSchema:
    """A pydantic model's JSON Schema, pydantic's failures turned into our error.

    Raises:
        SchemaConstructionError: pydantic cannot build the schema (an unsupported field type).
    """
    try:
        return target.model_json_schema()
    except Exception as exc:  # pydantic raises several types for unsupported field types
        raise SchemaConstructionError(
            f"pydantic cannot build a schema for {target.__qualname__} ({pydantic_reason(exc)})",
            hint="use JSON-serialisable field types",
        ) from exc


def _model_report(target: type[BaseModel], options: ReportOptions) -> Report:
    raw = model_schema(target)
    title = options.name or target.__name__
    # A model class is also an output type: its report has an output view.
    return _schema_data_report("model", target, raw, title, options, output_type=target)


def _schema_data_report(
    kind: TargetKind,
    target: object,
    raw: JsonSchema,
    title: str,
    options: ReportOptions,
    *,
    output_type: type[BaseModel] | None = None,
) -> Report:
    """The report of a parameters schema that is data already (a model's or a JSON
    Schema's): its strict view, the output view of ``output_type``, the provider views."""
    errors: dict[str, str] = {}
    schema, changes = _schema_views(raw, options, errors)
    output = None if output_type is None else _output_view(output_type, options.strict, errors)
    payload, findings = _plain_provider_views(raw, schema, title, options, errors)
    return Report(
        target_kind=kind,
        options=options,
        title=title,
        raw_schema=raw,
        schema=schema,
        strict_changes=changes,
        output=output,
        provider=options.provider,
        provider_payload=payload,
        provider_findings=findings,
        view_errors=types.MappingProxyType(errors),
        target=target,
    )


def _output_type_report(target: Any, options: ReportOptions) -> Report:
    # lazy: toollens.core.output + pydantic.type_adapter (~8 ms), for output types only
    from toollens.core.output import output_schema, type_name

    errors: dict[str, str] = {}
    try:
        output = output_schema(target, strict=options.strict)
    except StrictSchemaError as exc:
        errors[View.OUTPUT] = str(exc)
        output = output_schema(target, strict=False)  # a type pydantic rejects raises here
    return Report(
        target_kind="output-type",
        options=options,
        title=options.name or type_name(target),
        output=output,
        provider=options.provider,
        view_errors=types.MappingProxyType(errors),
        target=target,
    )


def _json_schema_report(target: Any, options: ReportOptions) -> Report:
    raw = parse_schema_text(target) if isinstance(target, (str, bytes, bytearray)) else target
    check_plain_data(raw)  # before copy_json, which recurses once per level
    # lazy: payload readers + provider rules (~65 ms), for JSON targets only (not `show f`)
    from toollens.core.providers.given import given_payload, is_mcp_tool_object, named_by

    given = given_payload(raw)  # a provider's tool payload: its schema, named by it
    if given is not None:
        raw, options = given.schema, given.report_options(options)
    elif is_mcp_tool_object(raw):  # one tool of a tools/list answer: its inputSchema
        raw, options = raw["inputSchema"], named_by(raw, options)
    raw = copy_json(dict(raw))
    check_schema_or_tool(raw)
    named = raw.get("title")
    title = options.name or (named if isinstance(named, str) and named else "schema")
    base = _schema_data_report("json-schema", target, raw, title, options)
    # lazy: core.schema_fixes, for JSON targets only (`toollens --help` imports this module)
    from toollens.core.schema_fixes import for_schema_only

    # No Python option to name: each finding gets the schema's own fix.
    findings = for_schema_only(base.provider_findings)
    payload = base.provider_payload
    if given is not None and given.judged_as_written(options.provider):
        return _as_written(base, given, raw, title)
    if given is not None:  # its own provider judges its own fields, and receives them
        findings = (*findings, *given.findings_for(options.provider))
        payload = given.with_own_fields(payload, options.provider)
    return dataclasses.replace(
        base, provider_payload=payload, provider_findings=findings, given=given
    )


def _as_written(base: Report, given: GivenPayload, raw: JsonSchema, title: str) -> Report:
    """``base`` with its provider view judged on the payload as written (its strict view,
    toollens' conversion, stays: a suggestion, never judged in place of the file)."""
    errors = {k: v for k, v in base.view_errors.items() if k != View.PROVIDER}
    no_findings: tuple[Finding, ...] = ()
    judged = _guard(errors, View.PROVIDER, lambda: given.judge(raw, title), no_findings)
    return dataclasses.replace(
        base,
        provider_payload=copy_json(given.payload),
        provider_findings=judged,
        view_errors=types.MappingProxyType(errors),
        given=given,
    )


_BUILDERS: dict[str, Callable[[Any, ReportOptions], Report]] = {
    "callable": _callable_report,
    "model": _model_report,
    "output-type": _output_type_report,
    "json-schema": _json_schema_report,
}


__all__ = [
    "OptionOverrides",
    "Report",
    "ReportOptions",
    "SchemaOptions",
    "TargetKind",
    "View",
    "check_plain_data",
    "model_schema",
    "parse_schema_text",
    "report",
    "target_kind",
]
