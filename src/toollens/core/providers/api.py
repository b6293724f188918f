"""The provider table and the public calls: payloads, checks, verdicts, unwrapping.

Every adapter takes the schema and the strictness decision of a
:class:`~toollens.core.function_schema.FunctionSchema` (``fs.json_schema``, ``fs.strict``) and
never recomputes them. OpenAI, Anthropic and Gemini (``parametersJsonSchema``) receive that
schema unchanged; ``gemini-openapi`` receives its translation into the OpenAPI subset of the
classic ``parameters`` field, with every rewrite recorded as a
:class:`~toollens.core.records.Change`.

A non-strict tool stays non-strict everywhere: OpenAI payloads carry ``"strict": false``
explicitly, Anthropic payloads leave the flag out (its default), Gemini has no flag.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from toollens.core.choices import PROVIDER_IDS, ProviderId, provider_id
from toollens.core.errors import SchemaConstructionError
from toollens.core.function_schema import FunctionSchema
from toollens.core.providers.anthropic import ANTHROPIC
from toollens.core.providers.base import (
    ProviderSpec,
    UnwrappedTool,
    property_of,
    unchanged,
)
from toollens.core.providers.gemini import GEMINI
from toollens.core.providers.gemini_openapi import GEMINI_OPENAPI, TRANSLATION_RULES
from toollens.core.providers.grammar import (
    GRAMMAR_FAILED_RULE,
    GRAMMAR_RULE,
    grammar_engine,
    grammar_hits,
)
from toollens.core.providers.openai import CHAT, RESPONSES
from toollens.core.providers.payload_fields import PAYLOAD_RULES
from toollens.core.providers.rules import (
    ProviderRule,
    build_rule_table,
    make_finding,
    run_rules,
)
from toollens.core.records import Change, Citation, Finding, Origin, Severity
from toollens.core.schema.given import require_object
from toollens.core.schema.types import JsonMapping, JsonObject, JsonSchema


def _table(*specs: ProviderSpec) -> dict[ProviderId, ProviderSpec]:
    table: dict[ProviderId, ProviderSpec] = {}
    for spec in specs:
        if spec.name in table:
            raise ValueError(f"duplicate provider {spec.name!r}")
        build_rule_table(spec.rules)  # fails on a duplicate id within one provider
        table[spec.name] = spec
    if tuple(table) != PROVIDER_IDS:
        raise ValueError("the provider table and ProviderId list different providers")
    return table


PROVIDERS: dict[ProviderId, ProviderSpec] = _table(
    CHAT, RESPONSES, ANTHROPIC, GEMINI, GEMINI_OPENAPI
)
"""Every provider, in the order front ends list them (the first is the default)."""

RULES: tuple[ProviderRule, ...] = tuple(
    build_rule_table(
        (*(r for spec in PROVIDERS.values() for r in spec.rules), GRAMMAR_RULE)
    ).values()
)
"""Every rule a schema check runs, each once."""
# Findings no schema triggers by itself: a translation's limits, llguidance failing, and
# what a payload's own fields say (payload_fields.check_payload).
RULES_BY_ID: dict[str, ProviderRule] = build_rule_table(
    (*RULES, *TRANSLATION_RULES, GRAMMAR_FAILED_RULE, *PAYLOAD_RULES)
)


def provider_spec(provider: str) -> ProviderSpec:
    """The table entry for ``provider``; an unknown name lists the valid ones."""
    return PROVIDERS[provider_id(provider)]


def unwrap_payload(data: JsonMapping) -> UnwrappedTool | None:
    """Which provider's tool payload ``data`` is, and its parts; ``None`` for a bare schema.

    The shapes are tried in the table's order, so an OpenAI ``{"type": "function", ...}``
    is never mistaken for a Gemini declaration.
    """
    for spec in PROVIDERS.values():
        found = spec.unwrap(data)
        if found is not None:
            return found
    return None


# --------------------------------------------------------------------------------------------
# Payloads


@dataclass(frozen=True)
class ProviderPayload:
    """One tool as one provider receives it.

    Attributes:
        provider: the provider name.
        payload: the tool dict sent in the request.
        schema: the parameters schema inside ``payload``.
        strict: the strictness decision carried (unchanged from the FunctionSchema).
        changes: rewrites made for this provider (``gemini-openapi`` only; empty otherwise).
        findings: problems found while translating (e.g. recursion Gemini cannot inline).
    """

    provider: ProviderId
    payload: JsonObject
    schema: JsonSchema
    strict: bool
    changes: tuple[Change, ...] = field(default=())
    findings: tuple[Finding, ...] = field(default=())


def translate_for(
    provider: ProviderId, schema: JsonSchema, strict: bool
) -> tuple[JsonSchema, list[Change]]:
    """The schema ``provider`` receives for ``schema``, and every rewrite made on the way.

    Never mutates ``schema``; the result is a fresh dict.
    """
    spec = provider_spec(provider)
    translation = spec.translate(_require_dict(schema), strict)
    return translation.schema, list(translation.changes)


def provider_payload(
    target: FunctionSchema | JsonSchema,
    provider: ProviderId,
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool | None = None,
) -> ProviderPayload:
    """Build ``provider``'s tool payload for a FunctionSchema or a plain JSON schema.

    Args:
        target: a FunctionSchema (its name, description, schema and strictness are used)
            or a parameters JSON schema.
        provider: one of :data:`PROVIDERS`.
        name: the tool name; required for a plain schema, overrides ``fs.name`` otherwise.
        description: the tool description for a plain schema (overrides ``fs.description``).
        strict: strictness for a plain schema (default ``True``); for a FunctionSchema it
            must agree with ``fs.strict`` or be left out, because strictness is decided once.
    """
    spec = provider_spec(provider)
    tool_name, tool_description, schema, is_strict = _unpack(target, name, description, strict)
    translation = spec.translate(schema, is_strict)
    payload = spec.build(tool_name, tool_description, translation.schema, is_strict)
    return ProviderPayload(
        provider=spec.name,
        payload=payload,
        schema=translation.schema,
        strict=is_strict,
        changes=translation.changes,
        findings=translation.findings,
    )


def provider_tool(
    fs: FunctionSchema | JsonSchema,
    provider: ProviderId,
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool | None = None,
) -> JsonObject:
    """The tool dict ``provider`` receives for ``fs`` (see :func:`provider_payload`)."""
    payload = provider_payload(fs, provider, name=name, description=description, strict=strict)
    return payload.payload


# --------------------------------------------------------------------------------------------
# Checks


def iter_provider_findings(
    target: FunctionSchema | JsonSchema,
    provider: ProviderId,
    *,
    name: str | None = None,
    strict: bool | None = None,
    translate: bool = False,
    payload: ProviderPayload | None = None,
) -> Iterator[Finding]:
    """Yield every rule of ``provider`` that the schema it receives breaks.

    A FunctionSchema is checked as the provider receives it from toollens: ``gemini-openapi``
    gets the translated schema (translation findings first), the others the schema as it is.
    A plain schema is checked as given (what you would send yourself), or, with
    ``translate=True``, as toollens' payload for it carries it (pointers then point into the
    payload's schema). OpenAI strict schemas are also compiled by llguidance. A plain schema
    is strict unless ``strict=False``. Never raises on odd schemas. ``payload``: the
    :func:`provider_payload` already built for ``target`` (with ``translate=True`` for a
    plain schema), so that a report translates its schema once.
    """
    spec = provider_spec(provider)
    schema, findings, is_strict, tool_name, param_of = _subject(
        spec, target, name=name, strict=strict, translate=translate, payload=payload
    )
    findings = tuple(replace(f, parameter=param_of(f.pointer)) for f in findings)
    yield from findings
    reported = {f.rule for f in findings}
    for finding in run_rules(
        schema, spec.rules, strict=is_strict, name=tool_name, parameter_of=param_of
    ):
        if finding.rule not in reported:
            yield finding
    if spec.grammar_checked and is_strict:
        for grammar_rule, hit in grammar_hits(schema):
            yield make_finding(grammar_rule, hit, param_of, Origin.GRAMMAR)


def check_provider(
    target: FunctionSchema | JsonSchema,
    provider: ProviderId,
    *,
    name: str | None = None,
    strict: bool | None = None,
    translate: bool = False,
    payload: ProviderPayload | None = None,
) -> list[Finding]:
    """Every rule of ``provider`` the schema breaks, in document order (see
    :func:`iter_provider_findings`)."""
    found = iter_provider_findings(
        target, provider, name=name, strict=strict, translate=translate, payload=payload
    )
    return list(found)


def _subject(
    spec: ProviderSpec,
    target: FunctionSchema | JsonSchema,
    *,
    name: str | None,
    strict: bool | None,
    translate: bool,
    payload: ProviderPayload | None = None,
) -> tuple[Any, tuple[Finding, ...], bool, str | None, Callable[[str | None], str | None]]:
    """What is checked: schema, translation findings, strictness, tool name, parameter map."""
    if payload is not None and not isinstance(target, FunctionSchema):
        return payload.schema, payload.findings, payload.strict, name, property_of
    if isinstance(target, FunctionSchema):
        payload = payload or provider_payload(target, spec.name, name=name, strict=strict)
        return (
            payload.schema,
            payload.findings,
            payload.strict,
            name or target.name,
            _parameter_mapper(target),
        )
    is_strict = True if strict is None else strict
    if translate and isinstance(target, dict) and spec.translate is not unchanged:
        translation = spec.translate(target, is_strict)
        return translation.schema, translation.findings, is_strict, name, property_of
    return target, (), is_strict, name, property_of


# --------------------------------------------------------------------------------------------
# Verdicts: what judged the schema, and what each judge said

Outcome = Literal["accepted", "rejected", "not run"]


@dataclass(frozen=True)
class Judgement:
    """What one judge said about the schema a provider receives.

    Attributes:
        origin: the kind of judge (documented rules, llguidance, toollens' translation).
        label: the judge as a person names it (``"llguidance 1.9.1"``).
        outcome: ``"accepted"``, ``"rejected"`` (an error finding) or ``"not run"``.
        detail: one line: what it said (``"compiles"``, the first error) or why it did not run.
        sources: what the judge's rules come from, with their dates (documented rules).
    """

    origin: Origin
    label: str
    outcome: Outcome
    detail: str
    sources: tuple[Citation, ...] = ()

    def to_json(self) -> JsonObject:
        """JSON-ready form; keys in a fixed order."""
        return {
            "origin": self.origin.value,
            "label": self.label,
            "outcome": self.outcome,
            "detail": self.detail,
            "sources": [{"title": s.title, "url": s.url, "date": s.date} for s in self.sources],
        }


@dataclass(frozen=True)
class ProviderVerdict:
    """A provider's verdict on one tool: accepted only if every judge that ran accepts it.

    Attributes:
        provider: the provider id.
        label: the provider as a person names it.
        accepted: no error finding from any judge.
        judgements: each judge's outcome, in the order they ran.
        findings: every finding, as :func:`check_provider` returns them.
    """

    provider: ProviderId
    label: str
    accepted: bool
    judgements: tuple[Judgement, ...]
    findings: tuple[Finding, ...]

    def to_json(self) -> JsonObject:
        """JSON-ready form: accepted, and each judge's outcome (the findings are listed
        beside the verdict, as ``Finding.to_json()``)."""
        return {"accepted": self.accepted, "judgements": [j.to_json() for j in self.judgements]}


def provider_verdict(
    target: FunctionSchema | JsonSchema,
    provider: ProviderId,
    *,
    name: str | None = None,
    strict: bool | None = None,
) -> ProviderVerdict:
    """Check the tool toollens sends ``provider`` for ``target``; say which judge ran and
    what each said."""
    findings = tuple(
        iter_provider_findings(target, provider, name=name, strict=strict, translate=True)
    )
    is_strict = target.strict if isinstance(target, FunctionSchema) else strict is not False
    return verdict_of(provider, findings, strict=is_strict)


def verdict_of(
    provider: ProviderId, findings: tuple[Finding, ...], *, strict: bool
) -> ProviderVerdict:
    """The verdict that ``findings`` (from :func:`check_provider`) amount to."""
    spec = provider_spec(provider)
    judgements = [_judge_rules(spec, findings)]
    if spec.grammar_checked:
        judgements.append(_judge_grammar(findings, strict))
    if spec.translate is not unchanged:
        judgements.append(
            _judge(Origin.TRANSLATION, "toollens translation", findings, "translated")
        )
    return ProviderVerdict(
        provider=spec.name,
        label=spec.label,
        accepted=not any(f.severity is Severity.ERROR for f in findings),
        judgements=tuple(judgements),
        findings=findings,
    )


def _judge(origin: Origin, label: str, findings: tuple[Finding, ...], ok: str) -> Judgement:
    errors = [f for f in findings if f.origin is origin and f.severity is Severity.ERROR]
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return Judgement(origin, label, "rejected", f"[{errors[0].rule}] {errors[0].message}{more}")
    return Judgement(origin, label, "accepted", ok)


def _judge_rules(spec: ProviderSpec, findings: tuple[Finding, ...]) -> Judgement:
    warnings = sum(
        1 for f in findings if f.origin is Origin.DOCUMENTED_RULE and f.severity is Severity.WARNING
    )
    ok = "no rule broken" + (f", {warnings} warning{'s' * (warnings != 1)}" if warnings else "")
    judged = _judge(Origin.DOCUMENTED_RULE, "documented rules", findings, ok)
    return replace(judged, sources=spec.sources)


def _judge_grammar(findings: tuple[Finding, ...], strict: bool) -> Judgement:
    engine = grammar_engine()
    if not strict:
        return Judgement(Origin.GRAMMAR, engine.label, "not run", "the tool is not strict")
    if not engine.available:
        return Judgement(Origin.GRAMMAR, engine.label, "not run", engine.why_not or "unavailable")
    failed = next((f for f in findings if f.rule == GRAMMAR_FAILED_RULE.id), None)
    if failed is not None:
        return Judgement(Origin.GRAMMAR, engine.label, "not run", failed.message)
    return _judge(Origin.GRAMMAR, engine.label, findings, "compiles")


# --------------------------------------------------------------------------------------------
# Helpers


def _require_dict(schema: object) -> JsonSchema:
    return require_object(
        schema,
        "a parameters schema must be a JSON object",
        "pass a dict such as {'type': 'object', 'properties': {...}}",
    )


def _unpack(
    target: FunctionSchema | JsonSchema,
    name: str | None,
    description: str | None,
    strict: bool | None,
) -> tuple[str, str | None, JsonSchema, bool]:
    if isinstance(target, FunctionSchema):
        if strict is not None and strict != target.strict:
            raise SchemaConstructionError(
                f"strict={strict!r} disagrees with the FunctionSchema's strict={target.strict!r}",
                hint="strictness is decided once, in function_schema(..., strict=...)",
            )
        return (
            name or target.name,
            description or target.description,
            target.json_schema,
            target.strict,
        )
    if not name:
        raise SchemaConstructionError(
            "a tool built from a plain schema needs a name", hint="pass name='...'"
        )
    return name, description, _require_dict(target), True if strict is None else strict


def _parameter_mapper(fs: FunctionSchema) -> Callable[[str | None], str | None]:
    by_schema_name = {p.schema_name: p.name for p in fs.schema_parameters}

    def parameter_of(pointer: str | None) -> str | None:
        prop = property_of(pointer)
        return by_schema_name.get(prop, prop) if prop is not None else None

    return parameter_of
