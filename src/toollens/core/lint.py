"""Authoring pitfalls: what a tool author should fix before a model sees the tool.

Seed 001's list (vague descriptions, missing descriptions, ``integer`` written as
``number``, declarations nothing enforces) and more: dropped docstring content, conflicting
description sources, defaults strict mode never uses, open nested objects. Each rule is a row
of :data:`LINT_RULES` (stable id, severity, message and fix templates) with a small check
function (in :mod:`toollens.core.lint_checks`); :func:`iter_findings` yields, :func:`lint`
collects.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator
from dataclasses import dataclass

from typing_extensions import Unpack

from toollens.core.errors import SchemaConstructionError
from toollens.core.function_schema import FunctionSchema, function_schema
from toollens.core.lint_checks import (
    GENERIC_DESCRIPTIONS,
    LintCheck,
    LintHit,
    conflicting_descriptions,
    default_not_applied,
    docstring_parse_error,
    docstring_style_uncertain,
    dropped_docstring_section,
    integer_as_number,
    missing_parameter_description,
    missing_tool_description,
    none_default_not_nullable,
    number_as_integer,
    open_nested_object,
    returns_not_sent,
    schema_warning,
    unannotated_parameter,
    unchecked_format,
    unknown_documented_parameter,
    vague_parameter_description,
    vague_tool_description,
    var_keyword_non_strict,
    word_count,
)
from toollens.core.options import OptionOverrides, ReportOptions
from toollens.core.records import Finding, Severity
from toollens.core.schema.types import ToolFunction


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
    NONE_DEFAULT_NOT_NULLABLE = "lint.none-default-not-nullable"
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
    _rule(LintRuleId.NONE_DEFAULT_NOT_NULLABLE, W,
          "strict mode requires a None-defaulted parameter whose type has no null",
          "parameter {name!r} defaults to None but is annotated {annotation}, which has no "
          "null: strict mode makes it required, so the model must always send a {annotation} "
          "and can never leave it out",
          "annotate it Optional ({annotation} | None) so the model can send null for None",
          none_default_not_nullable),
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
            yield Finding.from_rule(rule, hit.pointer, hit.fields, parameter=hit.parameter)


def lint(
    target: ToolFunction | FunctionSchema,
    options: ReportOptions | None = None,
    **overrides: Unpack[OptionOverrides],
) -> list[Finding]:
    """Every authoring pitfall of ``target`` (see :func:`iter_findings`)."""
    return list(iter_findings(target, options, **overrides))


__all__ = [
    "GENERIC_DESCRIPTIONS",
    "LINT_RULES",
    "LINT_RULES_BY_ID",
    "LintHit",
    "LintRule",
    "LintRuleId",
    "iter_findings",
    "lint",
    "word_count",
]
