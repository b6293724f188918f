"""OpenAI (Chat Completions and Responses): payload shapes and the strict-mode rules.

The rules come from OpenAI's Structured Outputs guide (the supported subset of JSON Schema
and its size limits) and the function-calling guide (tool names, strict mode). A strict
schema is also compiled by llguidance, the grammar engine behind OpenAI's Structured
Outputs (:mod:`toollens.core.providers.grammar`): a schema is clean only if both agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from toollens.core.choices import ProviderId
from toollens.core.providers.base import ProviderSpec, UnwrappedTool
from toollens.core.providers.rules import (
    A,
    E,
    Hit,
    ProviderRule,
    RuleContext,
    S,
    W,
    array_without_items,
    format_outside,
    keywords,
    name_pattern,
    object_not_closed,
    property_not_required,
    ref_siblings,
    root_any_of,
    root_not_object,
    rule,
    untyped_node,
)
from toollens.core.providers.walk import (
    DEFINITION_KEYS,
    SchemaNode,
    is_object_node,
    iter_child_paths,
    resolve_local,
    show,
)
from toollens.core.records import Citation
from toollens.core.schema.pointer import LinkedPath, join_pointer, linked_pointer
from toollens.core.schema.types import JsonMapping, JsonObject, JsonSchema

# Read on the date given (shared/reference/peers-and-providers.md, sections 6a and 8).
OPENAI_SUBSET = Citation(
    "OpenAI Structured Outputs guide, supported schemas",
    "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
    "2026-11-29",
)
OPENAI_STRICT = Citation(
    "OpenAI function-calling guide, strict mode",
    "https://platform.openai.com/docs/guides/function-calling#strict-mode",
    "2026-11-29",
)
# What the API checks of every function's parameters, strict or not: public threads quote
# "Invalid schema for function '...': In context=(...), array schema missing items." for
# non-strict tools (tests/rejections/cases, first seen 2024-12-11, last 2026-04-20).
OPENAI_SHAPE = Citation(
    "OpenAI API answers to non-strict functions quoted in public threads "
    "(invalid_function_parameters)",
    "https://github.com/sigoden/aichat/pull/1049",
    "2024-12-11",
    evidence="report",
    rechecked="2026-04-20",
)
# A tool whose parameters carry "$id": "Parameters Schema" (griptape, non-strict Chat): the
# API answers "'Parameters Schema' is not a 'uri-reference'"; griptape now sends a URI.
OPENAI_ID = Citation(
    "griptape issue 2150: OpenAI refuses a $id that is not a URI reference",
    "https://github.com/griptape-ai/griptape/issues/2150",
    "2026-04-16",
    evidence="report",
)
OPENAI_REQUIRED = Citation(
    "OpenAI Structured Outputs guide, all fields must be required",
    "https://platform.openai.com/docs/guides/structured-outputs#all-fields-must-be-required",
    "2026-11-29",
)

# --------------------------------------------------------------------------------------------
# Size limits (strict mode)

OPENAI_MAX_PROPERTIES = 5_000
OPENAI_MAX_NESTING = 10
OPENAI_MAX_STRING_CHARS = 120_000
OPENAI_MAX_ENUM_VALUES = 1_000
OPENAI_LONG_ENUM = 250
OPENAI_LONG_ENUM_CHARS = 15_000
_DEPTH_BUDGET = 200_000  # nodes visited while following refs for the nesting limit


def _text_len(value: Any) -> int:
    return len(value) if isinstance(value, str) else len(show(value, limit=10**9))


def _has_map(node: SchemaNode, key: str) -> bool:
    return isinstance(node.value.get(key), dict)


def too_many_properties(ctx: RuleContext) -> Iterator[Hit]:
    total = sum(len(n.value["properties"]) for n in ctx.dicts() if _has_map(n, "properties"))
    if total > OPENAI_MAX_PROPERTIES:
        yield Hit("", {"count": total, "limit": OPENAI_MAX_PROPERTIES})


def too_many_chars(ctx: RuleContext) -> Iterator[Hit]:
    total = 0
    for node in ctx.dicts():
        for key in ("properties", *DEFINITION_KEYS):
            names = node.value.get(key)
            if isinstance(names, dict):
                total += sum(len(str(name)) for name in names)
        values = node.value.get("enum")
        if isinstance(values, list):
            total += sum(_text_len(v) for v in values)
        if "const" in node.value:
            total += _text_len(node.value["const"])
    if total > OPENAI_MAX_STRING_CHARS:
        yield Hit("", {"count": total, "limit": OPENAI_MAX_STRING_CHARS})


def too_many_enum_values(ctx: RuleContext) -> Iterator[Hit]:
    total = sum(len(n.value["enum"]) for n in ctx.dicts() if isinstance(n.value.get("enum"), list))
    if total > OPENAI_MAX_ENUM_VALUES:
        yield Hit("", {"count": total, "limit": OPENAI_MAX_ENUM_VALUES})


def enum_too_long(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        values = node.value.get("enum")
        if isinstance(values, list) and len(values) > OPENAI_LONG_ENUM:
            chars = sum(_text_len(v) for v in values)
            if chars > OPENAI_LONG_ENUM_CHARS:
                yield Hit(
                    join_pointer(node.pointer, "enum"),
                    {"values": len(values), "count": chars, "limit": OPENAI_LONG_ENUM_CHARS},
                )


def too_deep(ctx: RuleContext) -> Iterator[Hit]:
    """Object nesting along any path from the root, following local refs (not cycles)."""
    no_refs: frozenset[str] = frozenset()
    stack: list[tuple[Any, LinkedPath, int, frozenset[str]]] = [(ctx.schema, None, 0, no_refs)]
    budget = _DEPTH_BUDGET
    while stack and budget > 0:
        budget -= 1
        value, path, depth, refs = stack.pop()
        if not isinstance(value, dict):
            continue
        if is_object_node(value):
            depth += 1
            if depth > OPENAI_MAX_NESTING:
                yield Hit(linked_pointer(path), {"count": depth, "limit": OPENAI_MAX_NESTING})
                return
        ref = value.get("$ref")
        if isinstance(ref, str) and ref not in refs:
            target, resolved = resolve_local(ctx.schema, ref)
            if target is not None:
                stack.append((resolved, path, depth, refs | {ref}))
        for keyword, child_path, child in iter_child_paths(value, path):
            if keyword not in DEFINITION_KEYS:
                stack.append((child, child_path, depth, refs))


def root_properties_missing(ctx: RuleContext) -> Iterator[Hit]:
    root = ctx.schema
    if isinstance(root, dict) and root.get("type") == "object" and "properties" not in root:
        yield Hit("", {"value": show(root)})


def required_not_array(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if "required" in node.value and not isinstance(node.value["required"], list):
            value = show(node.value["required"])
            yield Hit(join_pointer(node.pointer, "required"), {"value": value})


# RFC 3986's URI-reference: its characters (a '%' only as an escape), one fragment at most,
# and a scheme of letters, digits, '+', '-', '.' when a ':' comes before any '/', '?', '#'.
_URI_REFERENCE = re.compile(
    r"(?:[A-Za-z][A-Za-z0-9+.-]*:|(?![^/?#]*:))"
    r"(?:[A-Za-z0-9\-._~:/?@!$&'()*+,;=\[\]]|%[0-9A-Fa-f]{2})*"
    r"(?:#(?:[A-Za-z0-9\-._~:/?@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)?"
)


def id_not_uri_reference(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        value = node.value.get("$id")
        if isinstance(value, str) and not _URI_REFERENCE.fullmatch(value):
            yield Hit(join_pointer(node.pointer, "$id"), {"value": show(value)})


# --------------------------------------------------------------------------------------------
# The rule table

OPENAI_UNSUPPORTED = (
    "not", "patternProperties", "unevaluatedProperties", "propertyNames", "minProperties",
    "maxProperties", "unevaluatedItems", "contains", "minContains", "maxContains",
    "uniqueItems", "if", "then", "else", "dependentRequired", "dependentSchemas",
)  # fmt: skip
OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)

# fmt: off
OPENAI_RULES: tuple[ProviderRule, ...] = (
    rule("openai.name-invalid", E, A, "tool name outside ^[a-zA-Z0-9_-]{1,64}$",
         "tool name {value} ({length} characters) does not match ^[a-zA-Z0-9_-]{{1,64}}$",
         "rename the tool with letters, digits, '_' or '-', at most 64 characters",
         OPENAI_STRICT, name_pattern(r"[a-zA-Z0-9_-]{1,64}")),
    rule("openai.root-not-object", E, A, "the parameters schema is not type object",
         "the root schema must be an object, found {kind}",
         "wrap the value in an object with one property",
         OPENAI_SUBSET, root_not_object),
    rule("openai.object-properties-missing", E, A,
         "the parameters schema is type object without properties",
         "the root object has no 'properties' (found {value}); the API answers 'object "
         "schema missing properties', strict or not",
         "add \"properties\": {{}} for a tool that takes no arguments",
         OPENAI_SHAPE, root_properties_missing),
    rule("openai.required-not-array", E, A, "required that is not an array",
         "'required' is {value}, not an array of property names; the API answers "
         "'... is not of type 'array'', strict or not",
         "make 'required' a list of property names, or leave it out",
         OPENAI_SHAPE, required_not_array),
    rule("openai.id-not-uri-reference", E, A, "a $id that is not a URI reference",
         "'$id' {value} is not a URI reference; the API answers '... is not a "
         "'uri-reference'', strict or not",
         "remove '$id', or make it a URI such as https://example.com/schemas/tool",
         OPENAI_ID, id_not_uri_reference),
    rule("openai.root-any-of", E, S, "the root of a strict schema is an anyOf",
         "the root schema is an anyOf of {count} branches; strict mode wants one object",
         "make the root one object and put the union in a property",
         OPENAI_SUBSET, root_any_of),
    rule("openai.object-not-closed", E, S, "a strict object lacks additionalProperties: false",
         "object has additionalProperties {value}; strict mode requires false on every object",
         "set additionalProperties to false; for a dict[str, X] use a list of key/value objects",
         OPENAI_SUBSET, object_not_closed),
    rule("openai.property-not-required", E, S, "a strict object property is not in required",
         "property {name!r} is not listed in required; strict mode requires every property",
         "list it in required and make it nullable (type [..., \"null\"]) to keep it optional",
         OPENAI_REQUIRED, property_not_required),
    rule("openai.one-of", E, S, "oneOf in a strict schema",
         "'oneOf' is not permitted in strict mode (found {value})",
         "use anyOf with the same branches", OPENAI_SUBSET, keywords("oneOf")),
    rule("openai.all-of", E, S, "allOf in a strict schema",
         "'allOf' is not supported in strict mode (found {value})",
         "merge the branches into one object schema", OPENAI_SUBSET, keywords("allOf")),
    rule("openai.default", W, S, "a default in a strict schema",
         "'default' {value} is sent in strict mode: Azure OpenAI and older deployments reject "
         "it ('default' is not permitted) and the model is not told it is applied",
         "drop the default, or use optional_defaults='nullable' so null means the default",
         OPENAI_SUBSET, keywords("default")),
    rule("openai.ref-siblings", E, S, "$ref with sibling keywords in a strict schema",
         "$ref {ref} has sibling keywords {siblings}",
         "inline the definition, or move the siblings into the definition",
         OPENAI_SUBSET, ref_siblings),
    rule("openai.unsupported-keyword", E, S, "an object/array keyword outside the strict subset",
         "'{keyword}' is not supported in strict mode (found {value})",
         "remove '{keyword}' and validate it in the function instead",
         OPENAI_SUBSET, keywords(*OPENAI_UNSUPPORTED)),
    rule("openai.untyped-node", E, S, "a strict subschema without a type",
         "schema must have a 'type' key (found {value})",
         "give it a type, or an anyOf of typed branches; Any cannot be strict",
         OPENAI_SUBSET, untyped_node),
    # Not only strict: the API checks every function's schema shape (public threads in
    # tests/rejections, 2024-12 to 2026-02: "array schema missing items" without strict).
    rule("openai.array-items-missing", E, A, "an array without items",
         "array schema has no 'items' (found {value})",
         "annotate the element type, e.g. list[str] instead of list",
         OPENAI_SHAPE, array_without_items),
    # OpenAI answers HTTP 400 ("'uri' is not a valid format"), so this is an error.
    rule("openai.format-unsupported", E, S, "a string format outside the strict subset",
         "format {value} is not one of OpenAI's strict formats (date-time, time, date, "
         "duration, email, hostname, ipv4, ipv6, uuid); the request is rejected",
         "remove the format or use date-time, time, date, duration, email, hostname, ipv4, "
         "ipv6 or uuid", OPENAI_SUBSET, format_outside(OPENAI_FORMATS)),
    rule("openai.too-many-properties", E, S, "more than 5,000 object properties in total",
         "the schema has {count} object properties; the limit is {limit}",
         "split the tool or move rarely used fields out", OPENAI_SUBSET, too_many_properties),
    rule("openai.too-deep", E, S, "objects nested more than 10 levels deep",
         "objects are nested {count} levels deep here; the limit is {limit}",
         "flatten the schema (refs are followed when counting)", OPENAI_SUBSET, too_deep),
    rule("openai.too-many-chars", E, S,
         "over 120,000 characters of property names, definition names, enum and const values",
         "property names, definition names, enum and const values total {count} characters; "
         "the limit is {limit}",
         "shorten names and enum values, or split the tool", OPENAI_SUBSET, too_many_chars),
    rule("openai.too-many-enum-values", E, S, "more than 1,000 enum values in total",
         "the schema has {count} enum values in total; the limit is {limit}",
         "replace large enums with a string and validate in the function",
         OPENAI_SUBSET, too_many_enum_values),
    rule("openai.enum-too-long", E, S,
         "an enum of more than 250 values whose values exceed 15,000 characters",
         "this enum has {values} values totalling {count} characters; above 250 values the "
         "limit is {limit}",
         "shorten the values or replace the enum with a validated string",
         OPENAI_SUBSET, enum_too_long),
)
# fmt: on

# --------------------------------------------------------------------------------------------
# Payloads


class ChatFunction:
    """A Chat Completions tool: ``{"type": "function", "function": {...}}``, the tool inside."""

    def build(
        self, name: str, description: str | None, schema: JsonSchema, strict: bool
    ) -> JsonObject:
        return {
            "type": "function",
            "function": {
                "name": name,
                "description": description or "",
                "parameters": schema,
                "strict": strict,
            },
        }

    def unwrap(self, provider: ProviderId, data: JsonMapping) -> UnwrappedTool | None:
        if data.get("type") == "function" and isinstance(data.get("function"), Mapping):
            return UnwrappedTool(provider, data["function"], "/function", "parameters")
        return None


class ResponsesFunction:
    """A Responses function tool: the tool itself, with ``"type": "function"`` among its keys."""

    def build(
        self, name: str, description: str | None, schema: JsonSchema, strict: bool
    ) -> JsonObject:
        # Same keys in the same order as the reference's Responses converter; the reference's
        # function tools carry "" when there is no description.
        return {
            "name": name,
            "parameters": schema,
            "strict": strict,
            "type": "function",
            "description": description or "",
        }

    def unwrap(self, provider: ProviderId, data: JsonMapping) -> UnwrappedTool | None:
        if data.get("type") == "function" and "name" in data:
            return UnwrappedTool(provider, data, "", "parameters")
        return None


CHAT = ProviderSpec(
    name="openai-chat",
    label="OpenAI Chat Completions",
    own_rules=OPENAI_RULES,
    payload=ChatFunction(),
    docs=OPENAI_STRICT,
    grammar_checked=True,
)
# The same rules and grammar check; only the payload's shape differs.
RESPONSES = replace(
    CHAT, name="openai-responses", label="OpenAI Responses", payload=ResponsesFunction()
)
