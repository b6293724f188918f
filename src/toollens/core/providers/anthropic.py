"""Anthropic Messages API: the tool payload and the rules of strict tool use.

A non-strict tool's ``input_schema`` is ordinary JSON Schema (only an object root is
required); a strict tool is sampled under a grammar, whose JSON Schema limitations are the
rules below. The ``anthropic`` SDK's own ``transform_schema`` moves the unsupported
constraints into descriptions instead; tests compare the two on a corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toollens.core.providers.base import FlatTool, ProviderSpec
from toollens.core.providers.rules import (
    A,
    E,
    Hit,
    ProviderRule,
    RuleContext,
    S,
    W,
    complex_pattern,
    enum_members,
    format_outside,
    keywords,
    name_pattern,
    recursive_schema,
    root_not_object,
    root_property_pattern,
    rule,
)
from toollens.core.providers.walk import show
from toollens.core.records import Citation
from toollens.core.schema.pointer import join_pointer

# The limitations page as republished in 2025-11, checked against the SDK (anthropic 2.14),
# and re-read against the current page on 2026-12-01: the same list, plus "allOf with $ref"
# (anthropic.all-of-ref) and the per-request limits (toollens.core.providers.requests).
ANTHROPIC_LIMITS = Citation(
    "Anthropic structured outputs, JSON Schema limitations",
    "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
    "2025-11-14",
    rechecked="2026-12-01",
)
ANTHROPIC_STRICT = Citation(
    "Anthropic strict tool use",
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use",
    "2026-11-29",
)
# The anthropic SDK's own list (anthropic 2.14, lib/_parse/_transform.py SupportedStringFormats):
# two more than the limitations page (duration, hostname). Re-read in 2.15 (the newest
# release on 2026-12-02): transform_schema and its keyword and format lists are unchanged;
# the module's one change lets parse() take output_format as a string (docs/providers.md).
ANTHROPIC_SDK = Citation(
    "anthropic 2.14 SDK (unchanged in 2.15), transform_schema (what it keeps for strict tools)",
    "https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/lib/_parse/_transform.py",
    "2026-11-29",
    evidence="code",
    rechecked="2026-12-02",
)
# The Messages API reference gives tools[].name as ^[a-zA-Z0-9_-]{1,128}$ (older copies, still
# quoted widely, said 64); the SDK's ToolParam types name as a plain str (no oracle there).
ANTHROPIC_NAME = Citation(
    "Anthropic Messages API, tools[].name ^[a-zA-Z0-9_-]{1,128}$ (older copies: 64)",
    "https://platform.claude.com/docs/en/api/messages",
    "2026-12-01",
)
# Claude on Bedrock is called through Converse, whose ToolSpecification.name is 1-64
# characters of [a-zA-Z0-9_-]: a name the Anthropic API takes can fail there.
BEDROCK_NAME = Citation(
    "Amazon Bedrock API reference, ToolSpecification.name (1-64 characters, [a-zA-Z0-9_-]+)",
    "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html",
    "2026-12-02",
)
# The API validates input_schema as JSON Schema 2020-12 ("tools.N.custom.input_schema: JSON
# schema is invalid. It must match JSON Schema draft 2020-12"), strict or not, and its root
# property keys against a pattern ("Property keys should match pattern
# '^[a-zA-Z0-9_.-]{1,64}$'"), quoted in public threads from 2025-02 to 2026-09
# (tests/rejections/cases).
ANTHROPIC_SCHEMA = Citation(
    "Anthropic Messages API answers quoted in public threads: input_schema must match JSON "
    "Schema draft 2020-12; root property keys ^[a-zA-Z0-9_.-]{1,64}$",
    "https://github.com/anthropics/claude-code/issues/7365",
    "2025-09-09",
    evidence="report",
    rechecked="2026-09-07",
)
ANTHROPIC_NAME_PATTERN = r"[a-zA-Z0-9_-]{1,128}"
ANTHROPIC_PROPERTY_KEY = r"[a-zA-Z0-9_.-]{1,64}"
BEDROCK_NAME_LIMIT = 64
ANTHROPIC_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)
# Validation keywords transform_schema moves into the description (the model is only asked
# to follow them) that no other rule here reports. It moves "default" too, but a default
# constrains nothing, so sending it loses nothing.
SDK_MOVED = (
    "patternProperties", "not", "dependencies", "dependentRequired",
    "dependentSchemas", "minProperties", "maxProperties", "additionalItems", "prefixItems",
    "if", "then", "else", "propertyNames", "unevaluatedProperties", "unevaluatedItems",
)  # fmt: skip
_TYPED_BY = ("type", "anyOf", "oneOf", "allOf", "$ref", "const", "enum")
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def array_constraint(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        for key in ("maxItems", "uniqueItems", "contains", "minContains", "maxContains"):
            if key in node.value:
                yield Hit(
                    join_pointer(node.pointer, key),
                    {"keyword": key, "value": show(node.value[key])},
                )
        min_items = node.value.get("minItems")
        if min_items is not None and min_items not in (0, 1):
            yield Hit(
                join_pointer(node.pointer, "minItems"),
                {"keyword": "minItems", "value": show(min_items)},
            )


def all_of_ref(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        branches = node.value.get("allOf")
        if not isinstance(branches, list):
            continue
        for index, branch in enumerate(branches):
            if isinstance(branch, dict) and "$ref" in branch:
                yield Hit(
                    join_pointer(node.pointer, "allOf", str(index), "$ref"),
                    {"ref": show(branch["$ref"])},
                )


def name_over_bedrock_limit(ctx: RuleContext) -> Iterator[Hit]:
    # Only names the Anthropic API itself takes: a worse name is anthropic.name-invalid.
    name = ctx.name
    if (
        name is not None
        and len(name) > BEDROCK_NAME_LIMIT
        and re.fullmatch(ANTHROPIC_NAME_PATTERN, name)
    ):
        yield Hit(None, {"value": show(name), "length": len(name), "limit": BEDROCK_NAME_LIMIT})


def invalid_schema(ctx: RuleContext) -> Iterator[Hit]:
    """The error that best explains why the schema fails the 2020-12 meta-schema, if any.

    Formats are not asserted: the API's own regex dialect is not Python's, so a pattern
    Python cannot compile is no evidence the API refuses it."""
    if not isinstance(ctx.schema, dict):
        return  # anthropic.root-not-object says so
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    try:
        error = best_match(meta.iter_errors(ctx.schema))
    except Exception:
        return
    if error is not None:
        path = [str(t) for t in error.absolute_path]
        yield Hit(join_pointer("", *path), {"reason": error.message})


def untyped_node(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if node.keyword not in ("$defs", "definitions") and not any(
            k in node.value for k in _TYPED_BY
        ):
            yield Hit(node.pointer or "", {"value": show(node.value)})


# fmt: off
ANTHROPIC_RULES: tuple[ProviderRule, ...] = (
    rule("anthropic.name-invalid", E, A, "tool name outside ^[a-zA-Z0-9_-]{1,128}$",
         "tool name {value} ({length} characters) does not match ^[a-zA-Z0-9_-]{{1,128}}$; "
         "the Messages API rejects the request",
         "rename the tool with letters, digits, '_' or '-', at most 128 characters",
         ANTHROPIC_NAME, name_pattern(ANTHROPIC_NAME_PATTERN)),
    rule("anthropic.name-bedrock", W, A, "tool name over 64 characters (Claude on Bedrock)",
         "tool name {value} has {length} characters: the Anthropic API takes it, but Claude "
         "on Amazon Bedrock (Converse) allows at most {limit}",
         "shorten the name to at most 64 characters if the tool may be sent through Bedrock",
         BEDROCK_NAME, name_over_bedrock_limit),
    rule("anthropic.schema-invalid", E, A, "input_schema is not valid JSON Schema 2020-12",
         "input_schema is not valid JSON Schema draft 2020-12 here: {reason}; the API "
         "refuses the request (JSON schema is invalid)",
         "fix the keyword there (draft 2020-12: items is one schema, prefixItems a list; "
         "exclusiveMinimum is a number)", ANTHROPIC_SCHEMA, invalid_schema),
    rule("anthropic.property-name-invalid", E, A,
         "a parameter name outside ^[a-zA-Z0-9_.-]{1,64}$",
         "parameter name {value} does not match ^[a-zA-Z0-9_.-]{{1,64}}$; the API refuses "
         "the request (Property keys should match pattern)",
         "rename the parameter with letters, digits, '_', '.' or '-' (no brackets, '$' "
         "or spaces), at most 64 characters", ANTHROPIC_SCHEMA,
         root_property_pattern(ANTHROPIC_PROPERTY_KEY)),
    rule("anthropic.root-not-object", E, A, "input_schema is not type object",
         "input_schema must be an object, found {kind}",
         "wrap the value in an object with one property", ANTHROPIC_STRICT, root_not_object),
    rule("anthropic.one-of", E, S, "oneOf in a strict tool",
         "Schema type 'oneOf' is not supported (found {value})",
         "use anyOf with the same branches", ANTHROPIC_LIMITS, keywords("oneOf")),
    rule("anthropic.recursive-schema", E, S, "a recursive schema in a strict tool",
         "$ref {ref} makes the schema recursive (through {target}); strict tools cannot recurse",
         "unroll the recursion to a fixed depth, or send the tool non-strict",
         ANTHROPIC_LIMITS, recursive_schema),
    rule("anthropic.all-of-ref", E, S, "allOf with a $ref branch in a strict tool",
         "allOf with $ref {ref} is not supported in strict mode",
         "inline the referenced definition into one object schema",
         ANTHROPIC_LIMITS, all_of_ref),
    rule("anthropic.numeric-constraint", E, S, "minimum/maximum/multipleOf in a strict tool",
         "numeric constraint '{keyword}' {value} is not supported in strict mode",
         "remove it, say the range in the description, and check it in the function",
         ANTHROPIC_LIMITS, keywords(*_NUMERIC)),
    rule("anthropic.string-constraint", E, S, "minLength/maxLength in a strict tool",
         "string constraint '{keyword}' {value} is not supported in strict mode",
         "remove it, say the limit in the description, and check it in the function",
         ANTHROPIC_LIMITS, keywords("minLength", "maxLength")),
    rule("anthropic.complex-pattern", W, S, "a look-around or back-reference pattern",
         "pattern {value} uses look-around or back-references, which strict mode may reject",
         "simplify the pattern and check the rest in the function",
         ANTHROPIC_LIMITS, complex_pattern),
    rule("anthropic.array-constraint", E, S, "array constraints beyond minItems 0 or 1",
         "array constraint '{keyword}' {value} is not supported in strict mode",
         "remove it (minItems may be 0 or 1) and check it in the function",
         ANTHROPIC_LIMITS, array_constraint),
    rule("anthropic.additional-properties", E, S, "additionalProperties other than false",
         "additionalProperties {value} is not supported in strict mode; only false is",
         "set additionalProperties to false; for a dict[str, X] use a list of key/value objects",
         ANTHROPIC_LIMITS, keywords("additionalProperties", when=lambda v: v is not False)),
    rule("anthropic.complex-enum", E, S, "enum members that are objects or arrays",
         "enum members {value} are not primitives", "use string, number or boolean members",
         ANTHROPIC_LIMITS, enum_members(lambda v: isinstance(v, (dict, list)))),
    rule("anthropic.format-unsupported", W, S, "a string format outside the strict subset",
         "format {value} is not one of Anthropic's strict formats",
         "remove the format or use date-time, time, date, duration, email, hostname, uri, "
         "ipv4, ipv6 or uuid", ANTHROPIC_SDK, format_outside(ANTHROPIC_FORMATS)),
    rule("anthropic.sdk-moves-keyword", W, S, "a keyword the SDK moves into the description",
         "'{keyword}' {value} is not enforced in strict mode: the anthropic SDK's "
         "transform_schema moves it into the description, so the model is only asked to "
         "follow it", "check it in the function, or drop it", ANTHROPIC_SDK,
         keywords(*SDK_MOVED)),
    rule("anthropic.untyped-node", W, S, "a strict subschema without type, anyOf, enum or const",
         "schema has no 'type', 'anyOf', 'oneOf', 'allOf', 'const' or 'enum' (found {value}); "
         "the anthropic SDK's transform_schema refuses such a node for strict tools",
         "give it a type, or send the tool non-strict", ANTHROPIC_SDK, untyped_node),
)
# fmt: on


ANTHROPIC = ProviderSpec(
    name="anthropic",
    label="Anthropic Messages",
    own_rules=ANTHROPIC_RULES,
    payload=FlatTool(("input_schema",), typed=True, strict_flag=True),
    docs=ANTHROPIC_STRICT,
)
