"""Provider compatibility rules: what each provider's documented schema subset rejects.

Rules are data: each :class:`ProviderRule` has a stable id, a severity, a scope (always, or
only when the tool is strict), a message template, a fix and the documentation page it comes
from, plus a small check function that yields :class:`Hit` records. :func:`run_rules` turns
hits into :class:`~toollens.core.records.Finding` objects.

Every walk here is iterative and bounded, so a hostile or absurdly deep schema yields
findings, never ``RecursionError``.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from toollens.core.records import Finding, Severity, join_pointer
from toollens.core.schema_walk import (
    DEFINITION_KEYS,
    SchemaNode,
    is_array_node,
    is_object_node,
    iter_children,
    iter_schema_nodes,
    resolve_local,
    show,
)

# --------------------------------------------------------------------------------------------
# Sources (from shared/reference/peers-and-providers.md, section 6)

OPENAI_SUBSET = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"
OPENAI_STRICT = "https://platform.openai.com/docs/guides/function-calling#strict-mode"
OPENAI_REQUIRED = (
    "https://platform.openai.com/docs/guides/structured-outputs#all-fields-must-be-required"
)
ANTHROPIC_LIMITS = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs"
ANTHROPIC_STRICT = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use"
GEMINI_DECLARATIONS = "https://ai.google.dev/gemini-api/docs/function-calling#function_declarations"
GEMINI_SCHEMA = "https://ai.google.dev/api/caching#Schema"
GEMINI_VERTEX = "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration"
JSON_SCHEMA_CORE = "https://json-schema.org/draft/2020-12/json-schema-core"

# --------------------------------------------------------------------------------------------
# Context and hits


@dataclass(frozen=True)
class Hit:
    """One place a rule matched, with the values its templates need."""

    pointer: str | None
    fields: Mapping[str, Any] = field(default_factory=dict)


class RuleContext:
    """What the checks of one run share: the schema, its nodes, the tool name, strictness."""

    def __init__(self, schema: Any, *, strict: bool, name: str | None) -> None:
        self.schema = schema
        self.strict = strict
        self.name = name
        self.nodes = tuple(iter_schema_nodes(schema))
        self.by_pointer = {n.pointer: n for n in self.nodes}

    def dicts(self) -> Iterator[SchemaNode]:
        return (n for n in self.nodes if isinstance(n.value, dict))

    @functools.cached_property
    def ref_edges(self) -> tuple[tuple[str, str, str], ...]:
        """``(ref site pointer, from container, to container)`` for each resolvable local ref."""
        edges = []
        for node in self.dicts():
            ref = node.value.get("$ref")
            if ref is None:
                continue
            target, _ = resolve_local(self.schema, ref)
            if target is None:
                continue
            hit = self.by_pointer.get(target)
            to = hit.container if hit is not None else target
            edges.append((node.pointer, node.container, to))
        return tuple(edges)

    @functools.cached_property
    def cyclic_refs(self) -> tuple[tuple[str, str], ...]:
        """``(ref site pointer, target container)`` for every ref that closes a cycle."""
        graph: dict[str, set[str]] = {}
        for _, src, dst in self.ref_edges:
            graph.setdefault(src, set()).add(dst)

        @functools.cache
        def reachable(start: str) -> frozenset[str]:
            seen: set[str] = set()
            todo = [start]
            while todo:
                current = todo.pop()
                for nxt in graph.get(current, ()):
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            return frozenset(seen)

        out = []
        for site, src, dst in self.ref_edges:
            if src == dst or src in reachable(dst):
                out.append((site, dst))
        return tuple(out)


Check = Callable[[RuleContext], Iterator[Hit]]


class Scope(str, enum.Enum):
    """When a rule applies."""

    ALWAYS = "always"
    STRICT = "strict"  # only when the tool is sent in strict mode


@dataclass(frozen=True)
class ProviderRule:
    """One rule of one provider's documented schema subset.

    Attributes:
        id: stable id, ``"<family>.<name>"``; the family is ``openai``, ``anthropic``,
            ``gemini``, or ``schema`` for rules every provider shares.
        severity: ``ERROR`` when the request will be rejected, ``WARNING`` when it is
            accepted but likely not meant.
        scope: whether the rule applies always or only to strict tools.
        summary: one line for the rule table in the documentation.
        message: template filled from the hit's fields.
        fix: template for what to do.
        source: documentation page the rule comes from.
        check: yields a :class:`Hit` per violation.
    """

    id: str
    severity: Severity
    scope: Scope
    summary: str
    message: str
    fix: str
    source: str
    check: Check

    @property
    def family(self) -> str:
        return self.id.split(".", 1)[0]


# --------------------------------------------------------------------------------------------
# Check functions (small; the rule table below wires them up)


def keywords(*names: str, when: Callable[[Any], bool] | None = None) -> Check:
    """A check that hits every node carrying one of ``names`` (optionally filtered by value)."""

    def check(ctx: RuleContext) -> Iterator[Hit]:
        for node in ctx.dicts():
            for key in names:
                if key in node.value and (when is None or when(node.value[key])):
                    yield Hit(
                        join_pointer(node.pointer, key),
                        {"keyword": key, "value": show(node.value[key])},
                    )

    return check


def root_not_object(ctx: RuleContext) -> Iterator[Hit]:
    root = ctx.schema
    if not isinstance(root, dict):
        yield Hit("", {"value": show(root), "kind": type(root).__name__})
    elif root.get("type") != "object":
        yield Hit("", {"value": show(root.get("type")), "kind": "type " + show(root.get("type"))})


def root_any_of(ctx: RuleContext) -> Iterator[Hit]:
    if isinstance(ctx.schema, dict) and "anyOf" in ctx.schema:
        branches = ctx.schema["anyOf"]
        yield Hit("/anyOf", {"count": len(branches) if isinstance(branches, list) else 0})


def object_not_closed(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if is_object_node(node.value) and node.value.get("additionalProperties") is not False:
            value = node.value.get("additionalProperties", "missing")
            yield Hit(node.pointer, {"value": value if value == "missing" else show(value)})


def property_not_required(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        props = node.value.get("properties")
        if not isinstance(props, dict):
            continue
        required = node.value.get("required")
        listed = (
            {r for r in required if isinstance(r, str)} if isinstance(required, list) else set()
        )
        for name in props:
            if name not in listed:
                yield Hit(join_pointer(node.pointer, "properties", name), {"name": name})


def ref_siblings(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if "$ref" in node.value and len(node.value) > 1:
            siblings = [k for k in node.value if k != "$ref"]
            yield Hit(node.pointer, {"ref": show(node.value["$ref"]), "siblings": show(siblings)})


_TYPE_STAND_INS = ("type", "anyOf", "$ref", "enum", "const", "oneOf", "allOf", "not")


def untyped_node(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if node.pointer and not any(k in node.value for k in _TYPE_STAND_INS):
            yield Hit(node.pointer, {"value": show(node.value)})


def array_without_items(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if is_array_node(node.value) and "items" not in node.value:
            yield Hit(node.pointer, {"value": show(node.value)})


def recursive_schema(ctx: RuleContext) -> Iterator[Hit]:
    for site, target in ctx.cyclic_refs:
        yield Hit(site, {"ref": show(ctx.by_pointer[site].value.get("$ref")), "target": target})


def not_a_schema(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.nodes:
        if node.pointer and not isinstance(node.value, dict):
            yield Hit(node.pointer, {"value": show(node.value), "kind": type(node.value).__name__})


def unresolved_ref(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if "$ref" in node.value:
            target, why = resolve_local(ctx.schema, node.value["$ref"])
            if target is None:
                fields = {"ref": show(node.value["$ref"]), "why": why}
                yield Hit(join_pointer(node.pointer, "$ref"), fields)


def format_outside(allowed: frozenset[str]) -> Check:
    def check(ctx: RuleContext) -> Iterator[Hit]:
        for node in ctx.dicts():
            fmt = node.value.get("format")
            if fmt is not None and not (isinstance(fmt, str) and fmt in allowed):
                yield Hit(join_pointer(node.pointer, "format"), {"value": show(fmt)})

    return check


def name_pattern(pattern: str) -> Check:
    compiled = re.compile(pattern)

    def check(ctx: RuleContext) -> Iterator[Hit]:
        if ctx.name is not None and not compiled.fullmatch(ctx.name):
            yield Hit(None, {"value": show(ctx.name), "length": len(ctx.name)})

    return check


def root_property_pattern(pattern: str) -> Check:
    compiled = re.compile(pattern)

    def check(ctx: RuleContext) -> Iterator[Hit]:
        root = ctx.schema
        props = root.get("properties") if isinstance(root, dict) else None
        if isinstance(props, dict):
            for name in props:
                if not compiled.fullmatch(str(name)):
                    yield Hit(join_pointer("", "properties", name), {"value": show(name)})

    return check


def type_list(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if isinstance(node.value.get("type"), list):
            yield Hit(join_pointer(node.pointer, "type"), {"value": show(node.value["type"])})


GEMINI_TYPES = frozenset({"string", "integer", "number", "boolean", "array", "object"})


def gemini_type_unsupported(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        kind = node.value.get("type")
        if isinstance(kind, list):
            continue  # the type-list rule reports it
        if kind is not None and (not isinstance(kind, str) or kind.lower() not in GEMINI_TYPES):
            yield Hit(join_pointer(node.pointer, "type"), {"value": show(kind)})


def enum_members(pred: Callable[[Any], bool]) -> Check:
    def check(ctx: RuleContext) -> Iterator[Hit]:
        for node in ctx.dicts():
            values = node.value.get("enum")
            if isinstance(values, list):
                bad = [v for v in values if pred(v)]
                if bad:
                    yield Hit(join_pointer(node.pointer, "enum"), {"value": show(bad)})

    return check


# Gemini's classic `parameters` Schema fields (OpenAPI 3.0 subset). $ref/$defs are left to
# the ref rules: SDKs inline them and the translator does too.
GEMINI_FIELDS = frozenset(
    {
        "type", "format", "title", "description", "nullable", "enum", "items", "properties",
        "required", "minItems", "maxItems", "minimum", "maximum", "propertyOrdering", "anyOf",
        "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
        "$ref", "$defs", "definitions",
    }
)  # fmt: skip
GEMINI_NAMED_KEYWORDS = frozenset(
    {"additionalProperties", "const", "oneOf", "default", "propertyNames"}
)


def gemini_unknown_keyword(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        for key in node.value:
            if key not in GEMINI_FIELDS and key not in GEMINI_NAMED_KEYWORDS:
                yield Hit(join_pointer(node.pointer, key), {"keyword": key})


def anthropic_array_constraint(ctx: RuleContext) -> Iterator[Hit]:
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


_LOOKAROUND = re.compile(r"\(\?<?[=!]|\\[1-9]")


def complex_pattern(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        pattern = node.value.get("pattern")
        if isinstance(pattern, str) and _LOOKAROUND.search(pattern):
            yield Hit(join_pointer(node.pointer, "pattern"), {"value": show(pattern)})


# --------------------------------------------------------------------------------------------
# OpenAI size limits (strict mode)

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
    stack: list[tuple[Any, str, int, frozenset[str]]] = [(ctx.schema, "", 0, frozenset())]
    budget = _DEPTH_BUDGET
    while stack and budget > 0:
        budget -= 1
        value, pointer, depth, refs = stack.pop()
        if not isinstance(value, dict):
            continue
        if is_object_node(value):
            depth += 1
            if depth > OPENAI_MAX_NESTING:
                yield Hit(pointer or "", {"count": depth, "limit": OPENAI_MAX_NESTING})
                return
        ref = value.get("$ref")
        if isinstance(ref, str) and ref not in refs:
            target, resolved = resolve_local(ctx.schema, ref)
            if target is not None:
                stack.append((resolved, pointer, depth, refs | {ref}))
        for keyword, ptr, child in iter_children(value, pointer):
            if keyword not in DEFINITION_KEYS:
                stack.append((child, ptr, depth, refs))


# --------------------------------------------------------------------------------------------
# The rule table

E, W = Severity.ERROR, Severity.WARNING
A, S = Scope.ALWAYS, Scope.STRICT

OPENAI_UNSUPPORTED = (
    "not", "patternProperties", "unevaluatedProperties", "propertyNames", "minProperties",
    "maxProperties", "unevaluatedItems", "contains", "minContains", "maxContains",
    "uniqueItems", "if", "then", "else", "dependentRequired", "dependentSchemas",
)  # fmt: skip
OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
ANTHROPIC_FORMATS = frozenset({"date-time", "time", "date", "email", "uri", "uuid", "ipv4", "ipv6"})
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _rule(
    id: str,
    severity: Severity,
    scope: Scope,
    summary: str,
    message: str,
    fix: str,
    source: str,
    check: Check,
) -> ProviderRule:
    return ProviderRule(id, severity, scope, summary, message, fix, source, check)


# fmt: off
RULES: tuple[ProviderRule, ...] = (
    # --- every provider
    _rule("schema.not-a-schema", E, A, "a subschema position holds something that is not an object",
          "expected a schema object, found {kind} {value}",
          "replace it with a schema object such as {{\"type\": \"string\"}}",
          JSON_SCHEMA_CORE, not_a_schema),
    _rule("schema.unresolved-ref", E, A, "a $ref that cannot be resolved inside the schema",
          "$ref {ref} {why}", "point $ref at a definition under #/$defs in the same schema",
          JSON_SCHEMA_CORE, unresolved_ref),
    # --- OpenAI
    _rule("openai.name-invalid", E, A, "tool name outside ^[a-zA-Z0-9_-]{1,64}$",
          "tool name {value} ({length} characters) does not match ^[a-zA-Z0-9_-]{{1,64}}$",
          "rename the tool with letters, digits, '_' or '-', at most 64 characters",
          OPENAI_STRICT, name_pattern(r"[a-zA-Z0-9_-]{1,64}")),
    _rule("openai.root-not-object", E, A, "the parameters schema is not type object",
          "the root schema must be an object, found {kind}",
          "wrap the value in an object with one property",
          OPENAI_SUBSET, root_not_object),
    _rule("openai.root-any-of", E, S, "the root of a strict schema is an anyOf",
          "the root schema is an anyOf of {count} branches; strict mode wants one object",
          "make the root one object and put the union in a property",
          OPENAI_SUBSET, root_any_of),
    _rule("openai.object-not-closed", E, S, "a strict object lacks additionalProperties: false",
          "object has additionalProperties {value}; strict mode requires false on every object",
          "set additionalProperties to false; for a dict[str, X] use a list of key/value objects",
          OPENAI_SUBSET, object_not_closed),
    _rule("openai.property-not-required", E, S, "a strict object property is not in required",
          "property {name!r} is not listed in required; strict mode requires every property",
          "list it in required and make it nullable (type [..., \"null\"]) to keep it optional",
          OPENAI_REQUIRED, property_not_required),
    _rule("openai.one-of", E, S, "oneOf in a strict schema",
          "'oneOf' is not permitted in strict mode (found {value})",
          "use anyOf with the same branches", OPENAI_SUBSET, keywords("oneOf")),
    _rule("openai.all-of", E, S, "allOf in a strict schema",
          "'allOf' is not supported in strict mode (found {value})",
          "merge the branches into one object schema", OPENAI_SUBSET, keywords("allOf")),
    _rule("openai.default", W, S, "a default in a strict schema",
          "'default' {value} is sent in strict mode: Azure OpenAI and older deployments reject "
          "it ('default' is not permitted) and the model is not told it is applied",
          "drop the default, or use optional_defaults='nullable' so null means the default",
          OPENAI_SUBSET, keywords("default")),
    _rule("openai.ref-siblings", E, S, "$ref with sibling keywords in a strict schema",
          "$ref {ref} has sibling keywords {siblings}",
          "inline the definition, or move the siblings into the definition",
          OPENAI_SUBSET, ref_siblings),
    _rule("openai.unsupported-keyword", E, S, "an object/array keyword outside the strict subset",
          "'{keyword}' is not supported in strict mode (found {value})",
          "remove '{keyword}' and validate it in the function instead",
          OPENAI_SUBSET, keywords(*OPENAI_UNSUPPORTED)),
    _rule("openai.untyped-node", E, S, "a strict subschema without a type",
          "schema must have a 'type' key (found {value})",
          "give it a type, or an anyOf of typed branches; Any cannot be strict",
          OPENAI_SUBSET, untyped_node),
    _rule("openai.array-items-missing", E, S, "a strict array without items",
          "array schema has no 'items' (found {value})",
          "annotate the element type, e.g. list[str] instead of list",
          OPENAI_SUBSET, array_without_items),
    _rule("openai.format-unsupported", W, S, "a string format outside the strict subset",
          "format {value} is not one of OpenAI's strict formats",
          "remove the format or use date-time, time, date, duration, email, hostname, ipv4, "
          "ipv6 or uuid", OPENAI_SUBSET, format_outside(OPENAI_FORMATS)),
    _rule("openai.too-many-properties", E, S, "more than 5,000 object properties in total",
          "the schema has {count} object properties; the limit is {limit}",
          "split the tool or move rarely used fields out", OPENAI_SUBSET, too_many_properties),
    _rule("openai.too-deep", E, S, "objects nested more than 10 levels deep",
          "objects are nested {count} levels deep here; the limit is {limit}",
          "flatten the schema (refs are followed when counting)", OPENAI_SUBSET, too_deep),
    _rule("openai.too-many-chars", E, S,
          "over 120,000 characters of property names, definition names, enum and const values",
          "property names, definition names, enum and const values total {count} characters; "
          "the limit is {limit}",
          "shorten names and enum values, or split the tool", OPENAI_SUBSET, too_many_chars),
    _rule("openai.too-many-enum-values", E, S, "more than 1,000 enum values in total",
          "the schema has {count} enum values in total; the limit is {limit}",
          "replace large enums with a string and validate in the function",
          OPENAI_SUBSET, too_many_enum_values),
    _rule("openai.enum-too-long", E, S,
          "an enum of more than 250 values whose values exceed 15,000 characters",
          "this enum has {values} values totalling {count} characters; above 250 values the "
          "limit is {limit}",
          "shorten the values or replace the enum with a validated string",
          OPENAI_SUBSET, enum_too_long),
    # --- Anthropic
    _rule("anthropic.root-not-object", E, A, "input_schema is not type object",
          "input_schema must be an object, found {kind}",
          "wrap the value in an object with one property", ANTHROPIC_STRICT, root_not_object),
    _rule("anthropic.one-of", E, S, "oneOf in a strict tool",
          "Schema type 'oneOf' is not supported (found {value})",
          "use anyOf with the same branches", ANTHROPIC_LIMITS, keywords("oneOf")),
    _rule("anthropic.recursive-schema", E, S, "a recursive schema in a strict tool",
          "$ref {ref} makes the schema recursive (through {target}); strict tools cannot recurse",
          "unroll the recursion to a fixed depth, or send the tool non-strict",
          ANTHROPIC_LIMITS, recursive_schema),
    _rule("anthropic.numeric-constraint", E, S, "minimum/maximum/multipleOf in a strict tool",
          "numeric constraint '{keyword}' {value} is not supported in strict mode",
          "remove it, say the range in the description, and check it in the function",
          ANTHROPIC_LIMITS, keywords(*_NUMERIC)),
    _rule("anthropic.string-constraint", E, S, "minLength/maxLength in a strict tool",
          "string constraint '{keyword}' {value} is not supported in strict mode",
          "remove it, say the limit in the description, and check it in the function",
          ANTHROPIC_LIMITS, keywords("minLength", "maxLength")),
    _rule("anthropic.complex-pattern", W, S, "a look-around or back-reference pattern",
          "pattern {value} uses look-around or back-references, which strict mode may reject",
          "simplify the pattern and check the rest in the function",
          ANTHROPIC_LIMITS, complex_pattern),
    _rule("anthropic.array-constraint", E, S, "array constraints beyond minItems 0 or 1",
          "array constraint '{keyword}' {value} is not supported in strict mode",
          "remove it (minItems may be 0 or 1) and check it in the function",
          ANTHROPIC_LIMITS, anthropic_array_constraint),
    _rule("anthropic.additional-properties", E, S, "additionalProperties other than false",
          "additionalProperties {value} is not supported in strict mode; only false is",
          "set additionalProperties to false; for a dict[str, X] use a list of key/value objects",
          ANTHROPIC_LIMITS, keywords("additionalProperties", when=lambda v: v is not False)),
    _rule("anthropic.complex-enum", E, S, "enum members that are objects or arrays",
          "enum members {value} are not primitives", "use string, number or boolean members",
          ANTHROPIC_LIMITS, enum_members(lambda v: isinstance(v, (dict, list)))),
    _rule("anthropic.format-unsupported", W, S, "a string format outside the strict subset",
          "format {value} is not one of Anthropic's strict formats",
          "remove the format or use date-time, time, date, email, uri, uuid, ipv4 or ipv6",
          ANTHROPIC_LIMITS, format_outside(ANTHROPIC_FORMATS)),
    # --- Gemini (classic `parameters`, OpenAPI 3.0 subset; no strict flag)
    _rule("gemini.name-invalid", E, A, "function name outside Gemini's pattern",
          "function name {value} ({length} characters) must start with a letter or '_' and use "
          "a-z A-Z 0-9 _ . : - only, at most 64 characters",
          "rename the tool", GEMINI_DECLARATIONS, name_pattern(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}")),
    _rule("gemini.parameter-name-invalid", E, A, "parameter name outside [a-zA-Z0-9_]{1,64}",
          "parameter name {value} may use a-z A-Z 0-9 _ only, at most 64 characters",
          "rename the parameter, or set a plain alias", GEMINI_VERTEX,
          root_property_pattern(r"[a-zA-Z0-9_]{1,64}")),
    _rule("gemini.root-not-object", E, A, "parameters is not type object",
          "parameters must be an object, found {kind}",
          "wrap the value in an object with one property", GEMINI_DECLARATIONS, root_not_object),
    _rule("gemini.additional-properties", E, A, "additionalProperties (not a Gemini field)",
          "additionalProperties {value} is not a field of Gemini's Schema (Unknown name)",
          "drop it; Gemini objects cannot be closed or typed as maps", GEMINI_SCHEMA,
          keywords("additionalProperties")),
    _rule("gemini.type-list", E, A, "a list of types instead of one type",
          "type {value} is a list; Gemini wants one type (Proto field is not repeating)",
          "use one type and nullable: true for null", GEMINI_SCHEMA, type_list),
    _rule("gemini.type-unsupported", E, A, "a type Gemini's Schema does not have",
          "type {value} is not one of string, integer, number, boolean, array, object",
          "use one of those types; express null with nullable: true", GEMINI_SCHEMA,
          gemini_type_unsupported),
    _rule("gemini.const", E, A, "const", "'const' {value} is not a field of Gemini's Schema",
          "use enum with one value", GEMINI_SCHEMA, keywords("const")),
    _rule("gemini.one-of", E, A, "oneOf", "'oneOf' is not a field of Gemini's Schema",
          "use anyOf with the same branches", GEMINI_SCHEMA, keywords("oneOf")),
    _rule("gemini.default", E, A, "default", "'default' {value} is rejected by Gemini",
          "drop the default and say it in the description", GEMINI_SCHEMA, keywords("default")),
    _rule("gemini.property-names", E, A, "propertyNames",
          "'propertyNames' {value} is not a field of Gemini's Schema",
          "drop it and check key names in the function", GEMINI_SCHEMA,
          keywords("propertyNames")),
    _rule("gemini.ref-siblings", E, A, "$ref with sibling keywords",
          "$ref {ref} has sibling keywords {siblings}",
          "inline the definition (toollens' Gemini payload does)", GEMINI_SCHEMA, ref_siblings),
    _rule("gemini.recursive-schema", E, A, "a recursive schema",
          "$ref {ref} makes the schema recursive (through {target}); Gemini's parameters "
          "cannot express it", "unroll the recursion to a fixed depth and make it optional",
          GEMINI_DECLARATIONS, recursive_schema),
    _rule("gemini.enum-not-string", E, A, "enum members that are not strings",
          "enum members {value} are not strings; Gemini's enum is a list of strings",
          "use string members (e.g. a str Enum or Literal of strings)", GEMINI_SCHEMA,
          enum_members(lambda v: not isinstance(v, str))),
    _rule("gemini.unknown-keyword", E, A, "a keyword that is not a field of Gemini's Schema",
          "'{keyword}' is not a field of Gemini's Schema (Unknown name ... Cannot find field)",
          "remove it and check the constraint in the function", GEMINI_SCHEMA,
          gemini_unknown_keyword),
)
# Findings only the Gemini translator emits (no schema check can see them).
TRANSLATION_RULES: tuple[ProviderRule, ...] = (
    _rule("gemini.translation-limit", E, A, "the schema is too deep or too large to inline",
          "inlining stopped: {why}", "flatten the schema or share fewer definitions",
          GEMINI_SCHEMA, lambda ctx: iter(())),
)
# fmt: on


def _build_table(rules: tuple[ProviderRule, ...]) -> dict[str, ProviderRule]:
    table: dict[str, ProviderRule] = {}
    for rule in rules:
        if rule.id in table:
            raise ValueError(f"duplicate provider rule id {rule.id!r}")
        if rule.family not in ("schema", "openai", "anthropic", "gemini"):
            raise ValueError(f"provider rule {rule.id!r} has an unknown family")
        table[rule.id] = rule
    return table


RULES_BY_ID: dict[str, ProviderRule] = _build_table(RULES + TRANSLATION_RULES)


def make_finding(
    rule: ProviderRule, hit: Hit, parameter_of: Callable[[str | None], str | None]
) -> Finding:
    return Finding(
        rule=rule.id,
        severity=rule.severity,
        pointer=hit.pointer,
        message=rule.message.format(**hit.fields),
        fix=rule.fix.format(**hit.fields),
        parameter=parameter_of(hit.pointer),
        source=rule.source,
    )


def run_rules(
    schema: Any,
    families: tuple[str, ...],
    *,
    strict: bool,
    name: str | None,
    parameter_of: Callable[[str | None], str | None],
) -> Iterator[Finding]:
    """Findings of every rule of ``families`` that applies at this strictness."""
    ctx = RuleContext(schema, strict=strict, name=name)
    for rule in RULES:
        if rule.family not in families or (rule.scope is Scope.STRICT and not strict):
            continue
        for hit in rule.check(ctx):
            yield make_finding(rule, hit, parameter_of)
