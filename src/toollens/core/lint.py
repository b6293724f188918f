"""Authoring pitfalls: what a tool author should fix before a model sees the tool.

Seed 001's list (vague descriptions, missing descriptions, ``integer`` written as
``number``, declarations nothing enforces) and more: dropped docstring content, conflicting
description sources, defaults strict mode never uses, open nested objects. Each rule is a row
of :data:`LINT_RULES` (stable id, severity, message and fix templates) with a small check
function; :func:`iter_findings` yields, :func:`lint` collects.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from typing_extensions import Unpack

from toollens.core.errors import SchemaConstructionError
from toollens.core.function_schema import FunctionSchema, function_schema
from toollens.core.metadata import MISSING, ParameterMetadata
from toollens.core.options import OptionOverrides, ReportOptions
from toollens.core.providers.walk import is_object_node, iter_schema_nodes
from toollens.core.records import Finding, Severity
from toollens.core.schema.pointer import join_pointer, split_pointer
from toollens.core.schema.toolkit import FINDING_PREVIEW, preview_json
from toollens.core.schema.types import ToolFunction
from toollens.core.signature import ParameterKind


@dataclass(frozen=True)
class LintHit:
    """One place a lint rule matched."""

    pointer: str | None = None
    parameter: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)


LintCheck = Callable[[FunctionSchema], Iterator[LintHit]]


class LintRuleId(str, enum.Enum):
    """Stable ids of the lint rules; the id is the contract, the wording may improve."""

    MISSING_TOOL_DESCRIPTION = "lint.missing-tool-description"
    VAGUE_TOOL_DESCRIPTION = "lint.vague-tool-description"
    MISSING_PARAMETER_DESCRIPTION = "lint.missing-parameter-description"
    VAGUE_PARAMETER_DESCRIPTION = "lint.vague-parameter-description"
    UNKNOWN_DOCUMENTED_PARAMETER = "lint.unknown-documented-parameter"
    DROPPED_DOCSTRING_SECTION = "lint.dropped-docstring-section"
    RETURNS_NOT_SENT = "lint.returns-not-sent"
    CONFLICTING_DESCRIPTIONS = "lint.conflicting-descriptions"
    INTEGER_AS_NUMBER = "lint.integer-as-number"
    NUMBER_AS_INTEGER = "lint.number-as-integer"
    UNCHECKED_FORMAT = "lint.unchecked-format"
    DEFAULT_NOT_APPLIED = "lint.default-not-applied"
    OPEN_NESTED_OBJECT = "lint.open-nested-object"
    DOCSTRING_STYLE_UNCERTAIN = "lint.docstring-style-uncertain"
    DOCSTRING_PARSE_ERROR = "lint.docstring-parse-error"
    UNANNOTATED_PARAMETER = "lint.unannotated-parameter"
    VAR_KEYWORD_NON_STRICT = "lint.var-keyword-non-strict"
    SCHEMA_WARNING = "lint.schema-warning"

    def __str__(self) -> str:  # the id itself, on every Python (3.12 changed Enum.__format__)
        return str(self.value)


@dataclass(frozen=True)
class LintRule:
    """One authoring pitfall.

    Attributes:
        id: stable id (a ``LintRuleId``, ``"lint.<name>"``); ids are the contract.
        severity: how much it matters (lint never says a provider rejects the tool).
        summary: one line for the rule table in the documentation.
        message: template filled from the hit's fields.
        fix: template for what to do.
        check: yields a :class:`LintHit` per occurrence.
    """

    id: LintRuleId
    severity: Severity
    summary: str
    message: str
    fix: str
    check: LintCheck


# --------------------------------------------------------------------------------------------
# Vagueness

GENERIC_DESCRIPTIONS = frozenset(
    {
        "param", "parameter", "parameters", "arg", "argument", "arguments", "value", "values",
        "data", "input", "inputs", "info", "information", "string", "str", "int", "integer",
        "number", "float", "bool", "boolean", "object", "dict", "list", "text", "thing",
        "stuff", "todo", "tbd", "tba", "fixme", "xxx", "...", "n/a", "none", "description",
        "参数", "值", "数据", "输入", "信息", "描述", "字符串",
    }
)  # fmt: skip
_ARTICLES = ("the ", "a ", "an ")
# Characters of a competing candidate's value quoted inside a metadata-conflict finding.
_CANDIDATE_PREVIEW = 50
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


_SPACES = re.compile(r"\s+")


def _normalize(text: str) -> str:
    text = _SPACES.sub(" ", text).strip().lower().rstrip(".:;,!。：；，")
    for article in _ARTICLES:
        if text.startswith(article):
            return text[len(article) :]
    return text


def word_count(text: str) -> int:
    """Whitespace words, with two CJK characters counted as one word (no spaces in CJK)."""
    cjk = len(_CJK.findall(text))
    latin = len(_CJK.sub(" ", text).split())
    return latin + cjk // 2


def _vague(text: str, *, name: str | None, min_words: int) -> str | None:
    """Why ``text`` says too little, or ``None``."""
    norm = _normalize(text)
    if norm in GENERIC_DESCRIPTIONS:
        return "a generic word"
    if name is not None and norm.replace(" ", "_") == name.lower().strip("_"):
        return "the parameter's name repeated"
    count = word_count(text)
    if count < min_words:
        return f"{count} word{'s' if count != 1 else ''}"
    return None


def _pointer(param: ParameterMetadata) -> str:
    return join_pointer("", "properties", param.schema_name)


# --------------------------------------------------------------------------------------------
# Checks


def missing_tool_description(fs: FunctionSchema) -> Iterator[LintHit]:
    if not (fs.description or "").strip():
        yield LintHit(fields={"name": fs.name})


def vague_tool_description(fs: FunctionSchema) -> Iterator[LintHit]:
    text = (fs.description or "").strip()
    why = _vague(text, name=None, min_words=3) if text else None
    if why:
        yield LintHit(fields={"value": preview_json(text, FINDING_PREVIEW), "why": why})


def missing_parameter_description(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        if not (param.description or "").strip():
            yield LintHit(_pointer(param), param.name, {"name": param.name})


def vague_parameter_description(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        text = (param.description or "").strip()
        why = _vague(text, name=param.name, min_words=2) if text else None
        if why:
            fields = {"name": param.name, "value": preview_json(text, FINDING_PREVIEW), "why": why}
            yield LintHit(_pointer(param), param.name, fields)


def unknown_documented_parameter(fs: FunctionSchema) -> Iterator[LintHit]:
    names = {p.name for p in fs.parameters}
    for documented in fs.docstring.params:
        if documented not in names:
            yield LintHit(
                None,
                None,
                {"name": documented, "known": preview_json(sorted(names), FINDING_PREVIEW)},
            )


def dropped_docstring_section(fs: FunctionSchema) -> Iterator[LintHit]:
    for title in fs.docstring.dropped_sections:
        yield LintHit(fields={"section": title})


def returns_not_sent(fs: FunctionSchema) -> Iterator[LintHit]:
    if fs.docstring.returns:
        yield LintHit(fields={"value": preview_json(fs.docstring.returns, FINDING_PREVIEW)})


def conflicting_descriptions(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        offers = [
            c
            for c in param.candidates_for("description")
            if not c.ignored and isinstance(c.value, str)
        ]
        if len({_normalize(c.value) for c in offers}) < 2:
            continue
        winner = next(c for c in offers if c.won)
        losers = "; ".join(
            f"the {c.source.label} says {preview_json(c.value, _CANDIDATE_PREVIEW)}"
            for c in offers
            if not c.won
        )
        yield LintHit(
            _pointer(param),
            param.name,
            {
                "name": param.name,
                "winner": winner.source.label,
                "value": preview_json(winner.value, _CANDIDATE_PREVIEW),
                "losers": losers,
            },
        )


_INT_NAMES = frozenset(
    {
        "n", "k", "count", "limit", "top_k", "top_n", "page", "page_size", "per_page", "offset",
        "index", "idx", "retries", "max_retries", "max_results", "num_results", "max_tokens",
    }
)  # fmt: skip
_INT_PREFIXES = ("n_", "num_")
_INT_SUFFIXES = ("_count", "_index", "_idx", "_limit")
_FRACTION = re.compile(
    r"\b(fraction|ratio|probability|proportion|between 0(\.0)? and 1(\.0)?|0\.\d+)", re.IGNORECASE
)


def _bare(annotation: Any) -> Any:
    """``T`` for ``T``, ``T | None`` and ``Optional[T]``; the annotation otherwise."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else annotation
    return annotation


def integer_as_number(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        name = param.name.lower()
        counts = (
            name in _INT_NAMES or name.startswith(_INT_PREFIXES) or name.endswith(_INT_SUFFIXES)
        )
        if _bare(param.annotation) is float and counts:
            yield LintHit(_pointer(param), param.name, {"name": param.name})


def number_as_integer(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.schema_parameters:
        match = _FRACTION.search(param.description or "")
        if _bare(param.annotation) is int and match:
            yield LintHit(_pointer(param), param.name, {"name": param.name, "word": match[0]})


# Formats pydantic emits only for types that validate them.
PYDANTIC_CHECKED_FORMATS = frozenset(
    {
        "date-time", "date", "time", "duration", "uuid", "uuid1", "uuid3", "uuid4", "uuid5",
        "email", "uri", "ipv4", "ipv6", "ipvanyaddress", "ipvanyinterface", "ipvanynetwork",
        "ipv4network", "ipv6network", "ipv4interface", "ipv6interface", "password", "binary",
        "path", "file-path", "directory-path", "multi-host-uri", "json-string", "base64",
        "base64url", "regex",
    }
)  # fmt: skip


def unchecked_format(fs: FunctionSchema) -> Iterator[LintHit]:
    by_pointer = {_pointer(p): p for p in fs.schema_parameters}
    for node in iter_schema_nodes(fs.json_schema):
        fmt = node.value.get("format") if isinstance(node.value, dict) else None
        if not isinstance(fmt, str):
            continue
        param = _parameter_at(node.pointer, by_pointer)
        plain_str = param is not None and _bare(param.annotation) is str
        if plain_str or fmt not in PYDANTIC_CHECKED_FORMATS:
            yield LintHit(
                join_pointer(node.pointer, "format"),
                param.name if param is not None else None,
                {"value": preview_json(fmt, FINDING_PREVIEW)},
            )


def _parameter_at(
    pointer: str, by_pointer: Mapping[str, ParameterMetadata]
) -> ParameterMetadata | None:
    tokens = split_pointer(pointer, 4)
    if len(tokens) >= 2 and tokens[0] == "properties":
        param = by_pointer.get(join_pointer("", "properties", tokens[1]))
        # Only the parameter's own node or its nullable branch, not nested fields.
        if param is not None and (len(tokens) == 2 or (tokens[2] == "anyOf" and len(tokens) == 4)):
            return param
    return None


def default_not_applied(fs: FunctionSchema) -> Iterator[LintHit]:
    if not fs.strict:
        return
    for param in fs.schema_parameters:
        if (
            param.default is MISSING
            or param.default is None
            or param.kind in (ParameterKind.VAR_POSITIONAL, ParameterKind.VAR_KEYWORD)
            or param.schema_name in fs.nullable_defaults
        ):
            continue
        yield LintHit(
            _pointer(param), param.name, {"name": param.name, "value": repr(param.default)}
        )


def open_nested_object(fs: FunctionSchema) -> Iterator[LintHit]:
    if fs.strict:
        return
    for node in iter_schema_nodes(fs.json_schema):
        value = node.value
        if (
            node.pointer
            and isinstance(value, dict)
            and is_object_node(value)
            and "additionalProperties" not in value
        ):
            param = _parameter_at(node.pointer, {_pointer(p): p for p in fs.schema_parameters})
            yield LintHit(node.pointer, param.name if param else None, {"where": node.pointer})


def docstring_style_uncertain(fs: FunctionSchema) -> Iterator[LintHit]:
    guess = fs.docstring.guess
    if guess is not None and not guess.forced and not guess.confident:
        scored = ", ".join(f"{k} {v}" for k, v in guess.scores.items() if v)
        yield LintHit(fields={"style": guess.style.value, "scores": scored})


def docstring_parse_error(fs: FunctionSchema) -> Iterator[LintHit]:
    if fs.docstring.parse_error:
        yield LintHit(fields={"error": preview_json(fs.docstring.parse_error, FINDING_PREVIEW)})


def unannotated_parameter(fs: FunctionSchema) -> Iterator[LintHit]:
    for param in fs.callable_info.parameters:
        if not param.annotated and not param.is_context:
            meta = fs.parameter(param.name)
            yield LintHit(_pointer(meta), param.name, {"name": param.name})


def schema_warning(fs: FunctionSchema) -> Iterator[LintHit]:
    for note in fs.schema_warnings:
        yield LintHit(None, None, {"note": note})


def var_keyword_non_strict(fs: FunctionSchema) -> Iterator[LintHit]:
    if fs.strict:
        return
    for param in fs.schema_parameters:
        if param.kind is ParameterKind.VAR_KEYWORD:
            yield LintHit(_pointer(param), param.name, {"name": param.name})


# --------------------------------------------------------------------------------------------
# The rule table

W, INFO = Severity.WARNING, Severity.INFO


def _rule(
    id: LintRuleId, severity: Severity, summary: str, message: str, fix: str, check: LintCheck
) -> LintRule:
    return LintRule(id, severity, summary, message, fix, check)


# fmt: off
LINT_RULES: tuple[LintRule, ...] = (
    _rule(LintRuleId.MISSING_TOOL_DESCRIPTION, W, "the tool has no description",
          "tool {name!r} has no description; the model sees only its name",
          "write a docstring summary saying what the tool does and when to use it",
          missing_tool_description),
    _rule(LintRuleId.VAGUE_TOOL_DESCRIPTION, W, "the tool description says too little",
          "tool description {value} is {why}",
          "say what the tool does, what it returns and when to call it",
          vague_tool_description),
    _rule(LintRuleId.MISSING_PARAMETER_DESCRIPTION, W, "a parameter has no description",
          "parameter {name!r} has no description from any source",
          "document it in the docstring's Args section or with Annotated[T, \"...\"]",
          missing_parameter_description),
    _rule(LintRuleId.VAGUE_PARAMETER_DESCRIPTION, W, "a parameter description says too little",
          "description {value} of parameter {name!r} is {why}",
          "say what the value means, its unit or format, e.g. \"search keywords\" not \"param\"",
          vague_parameter_description),
    _rule(LintRuleId.UNKNOWN_DOCUMENTED_PARAMETER, W, "the docstring documents a missing parameter",
          "the docstring documents {name!r}, which is not a parameter (parameters: {known})",
          "rename the entry to match the signature, or remove it",
          unknown_documented_parameter),
    _rule(LintRuleId.DROPPED_DOCSTRING_SECTION, INFO, "a docstring section never reaches the model",
          "the docstring's {section} section is dropped; the model never sees it",
          "move what the model needs into the summary or a parameter description",
          dropped_docstring_section),
    _rule(LintRuleId.RETURNS_NOT_SENT, INFO, "the Returns section never reaches the model",
          "the return description {value} is not sent to the model",
          "say what the tool returns in the summary if the model needs to know",
          returns_not_sent),
    _rule(LintRuleId.CONFLICTING_DESCRIPTIONS, W, "description sources disagree for a parameter",
          "parameter {name!r}: the {winner} description {value} is sent; {losers}",
          "keep one description, or make the sources agree",
          conflicting_descriptions),
    _rule(LintRuleId.INTEGER_AS_NUMBER, W, "a count-like parameter is annotated float",
          "parameter {name!r} looks like a count but is annotated float, so the schema says "
          "'number' and the model may send 2.5", "annotate it int",
          integer_as_number),
    _rule(LintRuleId.NUMBER_AS_INTEGER, W, "an int parameter is described as a fraction",
          "parameter {name!r} is annotated int but its description says {word!r}",
          "annotate it float, or describe it as a whole number",
          number_as_integer),
    _rule(LintRuleId.UNCHECKED_FORMAT, W, "a string format nothing validates",
          "format {value} is declared but nothing checks it, and the model may ignore it",
          "use a type that validates it (EmailStr, AnyUrl, datetime, UUID) or check it in the "
          "function", unchecked_format),
    _rule(LintRuleId.DEFAULT_NOT_APPLIED, W, "strict mode makes a defaulted parameter required",
          "parameter {name!r} defaults to {value}, but strict mode makes it required: the "
          "model must always send a value, so the default is never used",
          "pass optional_defaults='nullable' so null means the default, or drop the default",
          default_not_applied),
    _rule(LintRuleId.OPEN_NESTED_OBJECT, W, "a nested object accepts extra keys (non-strict)",
          "object at {where} has no additionalProperties, so extra keys are accepted and "
          "silently dropped", "set extra='forbid' on the model, or use strict mode",
          open_nested_object),
    _rule(LintRuleId.DOCSTRING_STYLE_UNCERTAIN, W, "the docstring mixes styles",
          "the docstring mixes styles ({scores}); parsed as {style}",
          "use one style, or pass docstring_style=...", docstring_style_uncertain),
    _rule(LintRuleId.DOCSTRING_PARSE_ERROR, W, "the docstring does not parse",
          "the docstring does not parse ({error}); the whole text became the description",
          "fix the section layout, or pass docstring_style=...", docstring_parse_error),
    _rule(LintRuleId.UNANNOTATED_PARAMETER, W, "a parameter has no annotation",
          "parameter {name!r} has no annotation, so its schema accepts any value",
          "annotate it", unannotated_parameter),
    _rule(LintRuleId.VAR_KEYWORD_NON_STRICT, W, "**kwargs must be nested by the model",
          "**{name} becomes a property {name!r}: the model must nest extra keywords under it",
          "declare the keywords as parameters", var_keyword_non_strict),
    _rule(LintRuleId.SCHEMA_WARNING, W, "pydantic left something out of the schema",
          "pydantic: {note}",
          "use a JSON-serialisable default (or none) so the model sees it", schema_warning),
)
# fmt: on


def _build_table(rules: tuple[LintRule, ...]) -> dict[str, LintRule]:
    table: dict[str, LintRule] = {}
    for rule in rules:
        if not rule.id.startswith("lint.") or rule.id in table:
            raise ValueError(f"bad or duplicate lint rule id {rule.id!r}")
        table[rule.id] = rule
    if set(table) != set(LintRuleId):  # checked at import: every id has exactly one rule
        raise ValueError("every LintRuleId needs exactly one rule in LINT_RULES")
    return table


LINT_RULES_BY_ID: dict[str, LintRule] = _build_table(LINT_RULES)


def _target(
    target: ToolFunction | FunctionSchema, options: ReportOptions | None, overrides: OptionOverrides
) -> FunctionSchema:
    if isinstance(target, FunctionSchema):
        if options is not None or overrides:
            raise SchemaConstructionError(
                "options were given for an already built FunctionSchema",
                hint="pass the callable instead, or build the FunctionSchema with the options",
            )
        return target
    chosen = dataclasses.replace(options or ReportOptions(), **overrides)
    return function_schema(target, **chosen.schema_options())


def iter_findings(
    target: ToolFunction | FunctionSchema,
    options: ReportOptions | None = None,
    **overrides: Unpack[OptionOverrides],
) -> Iterator[Finding]:
    """Yield authoring pitfalls of a callable or FunctionSchema, rule by rule.

    Args:
        target: a callable (built with ``function_schema`` and the options) or a
            FunctionSchema (then no options: it was built with its own).
        options: the options a report takes (``provider`` is not used here).
        **overrides: fields of ``options`` to change, as in :func:`toollens.report`.

    Raises:
        SchemaConstructionError: the callable cannot become a tool at all.
    """
    fs = _target(target, options, overrides)
    for rule in LINT_RULES:
        for hit in rule.check(fs):
            yield Finding(
                rule=rule.id,
                severity=rule.severity,
                pointer=hit.pointer,
                message=rule.message.format(**hit.fields),
                fix=rule.fix.format(**hit.fields),
                parameter=hit.parameter,
            )


def lint(
    target: ToolFunction | FunctionSchema,
    options: ReportOptions | None = None,
    **overrides: Unpack[OptionOverrides],
) -> list[Finding]:
    """Every authoring pitfall of ``target`` (see :func:`iter_findings`)."""
    return list(iter_findings(target, options, **overrides))


__all__ = [
    "LINT_RULES",
    "LINT_RULES_BY_ID",
    "LintRule",
    "LintRuleId",
    "iter_findings",
    "lint",
]
