"""Gemini, classic ``parameters``: the OpenAPI 3.0 subset, for Vertex AI or older clients.

The normalised JSON Schema is translated into the fields of google-genai's ``types.Schema``
(one type per node, ``nullable`` for null, ``enum`` for ``const``, ``anyOf`` for ``oneOf``,
local ``$ref``s inlined, keywords the type has no field for dropped), each rewrite recorded
as a :class:`~toollens.core.records.Change`. The rules judge a schema sent as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from toollens.core.providers.base import (
    FlatTool,
    ProviderSpec,
    Translation,
    property_of,
)
from toollens.core.providers.gemini import NAME_RULE, PARAMETER_NAME_RULE, ROOT_RULE
from toollens.core.providers.rules import (
    A,
    Citation,
    E,
    Hit,
    ProviderRule,
    RuleContext,
    W,
    build_rule_table,
    enum_members,
    keywords,
    make_finding,
    recursive_schema,
    ref_siblings,
    rule,
    type_list,
)
from toollens.core.providers.walk import (
    SchemaNode,
    copy_json,
    resolve_local,
    show,
    split_pointer,
)
from toollens.core.records import Change, Finding, Origin
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.toolkit import TRANSLATION_NESTING_LIMIT
from toollens.core.schema.types import JsonSchema

GENAI_SCHEMA = Citation(
    "google-genai 3.6.1 types.Schema (an OpenAPI 3.0 subset)",
    "https://ai.google.dev/api/caching#Schema",
    "2026-11-29",
    evidence="code",
)
GENAI_DECLARATION_PARAMETERS = Citation(
    "google-genai 3.6.1 types.FunctionDeclaration.parameters",
    "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration",
    "2026-11-29",
    evidence="code",
)

# What the API answers to classic parameters, quoted in public threads (tests/rejections):
# "parameters.properties[x].items: missing field", "properties: should be non-empty for
# OBJECT type" (Gemini API), and Vertex AI's "schema specified other fields alongside
# any_of. When using any_of, it must be the only field set".
GEMINI_ITEMS = Citation(
    "Gemini API answers to classic parameters quoted in public threads: "
    "parameters.properties[x].items: missing field",
    "https://github.com/cline/cline/issues/7339",
    "2025-11-07",
    evidence="report",
    rechecked="2026-08-18",
)
GEMINI_EMPTY_OBJECT = Citation(
    "Gemini API answers quoted in public threads: properties[x].properties: should be "
    "non-empty for OBJECT type (a nested object)",
    "https://github.com/browser-use/browser-use/issues/7",
    "2024-12-11",
    evidence="report",
    rechecked="2025-12-18",
)
# The same answer for the root ("parameters.properties: should be non-empty") was quoted
# from 2024-09 to 2025-03; a 2026-03 thread reports the API accepting a tool without
# parameters as {"type": "object", "properties": {}}: the root rule has ended.
GEMINI_EMPTY_ROOT = Citation(
    "Gemini API answers quoted in public threads: parameters.properties: should be "
    "non-empty for OBJECT type (the root); accepted by 2026-03 (bug-ops/zeph#1641)",
    "https://github.com/vercel/ai/issues/3371",
    "2024-10-27",
    evidence="report",
    rechecked="2025-03-13",
    ended="2026-03-13",
)
GEMINI_ENUM_TYPE = Citation(
    "Gemini API answers quoted in public threads: properties[x].enum: only allowed for STRING type",
    "https://github.com/nanbingxyz/5ire/issues/218",
    "2025-05-06",
    evidence="report",
    rechecked="2026-05-15",
)
VERTEX_ANY_OF = Citation(
    "Vertex AI answers quoted in public threads: when using any_of, it must be the only field set",
    "https://github.com/BerriAI/litellm/issues/11164",
    "2025-05-26",
    evidence="report",
    rechecked="2026-03-03",
)

# The fields of google-genai 3.6.1 ``types.Schema`` as sent (camelCase); its model forbids
# any other key. ``$ref``/``$defs`` are left to the ref rules: the translation inlines them.
SCHEMA_FIELDS = frozenset(
    {
        "additionalProperties", "defs", "ref", "anyOf", "default", "description", "enum",
        "example", "format", "items", "maxItems", "maxLength", "maxProperties", "maximum",
        "minItems", "minLength", "minProperties", "minimum", "nullable", "pattern",
        "properties", "propertyOrdering", "required", "title", "type",
    }
)  # fmt: skip
GEMINI_TYPES = frozenset({"string", "integer", "number", "boolean", "array", "object", "null"})
_NAMED_KEYWORDS = frozenset({"const", "oneOf", "propertyNames", "$ref", "$defs", "definitions"})


def type_unsupported(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        kind = node.value.get("type")
        if isinstance(kind, list):
            continue  # the type-list rule reports it
        if kind is not None and (not isinstance(kind, str) or kind.lower() not in GEMINI_TYPES):
            yield Hit(join_pointer(node.pointer, "type"), {"value": show(kind)})


def unknown_keyword(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        for key in node.value:
            if key not in SCHEMA_FIELDS and key not in _NAMED_KEYWORDS:
                yield Hit(join_pointer(node.pointer, key), {"keyword": key})


def _empty_object(node: SchemaNode) -> bool:
    return node.value.get("type") in ("object", "OBJECT") and node.value.get("properties") == {}


def empty_properties(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if node.pointer and _empty_object(node):
            yield Hit(join_pointer(node.pointer, "properties"), {})


def empty_root_properties(ctx: RuleContext) -> Iterator[Hit]:
    root = ctx.by_pointer.get("")
    if root is not None and isinstance(root.value, dict) and _empty_object(root):
        yield Hit("/properties", {})


def array_without_items(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if node.value.get("type") in ("array", "ARRAY") and "items" not in node.value:
            yield Hit(node.pointer, {"value": show(node.value)})


def enum_type_not_string(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        kind = node.value.get("type")
        if "enum" in node.value and not isinstance(kind, list) and kind not in ("string", "STRING"):
            yield Hit(join_pointer(node.pointer, "enum"), {"type": show(kind)})


def any_of_siblings(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if "anyOf" in node.value and len(node.value) > 1:
            siblings = [k for k in node.value if k != "anyOf"]
            yield Hit(node.pointer, {"siblings": show(siblings)})


# fmt: off
CLASSIC_RULES: tuple[ProviderRule, ...] = (
    NAME_RULE, PARAMETER_NAME_RULE, ROOT_RULE,
    rule("gemini.additional-properties", W, A, "additionalProperties in classic parameters",
         "additionalProperties {value} is a field of google-genai's Schema, but the Gemini "
         "Developer API has answered 'Unknown name' for it in classic parameters",
         "drop it, or send the tool as provider 'gemini' (parametersJsonSchema)",
         GENAI_SCHEMA, keywords("additionalProperties")),
    rule("gemini.type-list", E, A, "a list of types instead of one type",
         "type {value} is a list; Gemini wants one type (Proto field is not repeating)",
         "use one type and nullable: true for null", GENAI_SCHEMA, type_list),
    rule("gemini.type-unsupported", E, A, "a type Gemini's Schema does not have",
         "type {value} is not one of string, integer, number, boolean, array, object, null",
         "use one of those types", GENAI_SCHEMA, type_unsupported),
    rule("gemini.const", E, A, "const", "'const' {value} is not a field of Gemini's Schema",
         "use enum with one value", GENAI_SCHEMA, keywords("const")),
    rule("gemini.one-of", E, A, "oneOf", "'oneOf' is not a field of Gemini's Schema",
         "use anyOf with the same branches", GENAI_SCHEMA, keywords("oneOf")),
    rule("gemini.default", W, A, "default", "'default' {value} is accepted but ignored by Gemini",
         "say the default in the description", GENAI_SCHEMA, keywords("default")),
    rule("gemini.property-names", E, A, "propertyNames",
         "'propertyNames' {value} is not a field of Gemini's Schema",
         "drop it and check key names in the function", GENAI_SCHEMA,
         keywords("propertyNames")),
    rule("gemini.ref-siblings", E, A, "$ref with sibling keywords",
         "$ref {ref} has sibling keywords {siblings}",
         "inline the definition (toollens' Gemini payload does)", GENAI_SCHEMA, ref_siblings),
    rule("gemini.recursive-schema", E, A, "a recursive schema",
         "$ref {ref} makes the schema recursive (through {target}); Gemini's parameters "
         "cannot express it", "unroll the recursion to a fixed depth and make it optional",
         GENAI_DECLARATION_PARAMETERS, recursive_schema),
    rule("gemini.enum-not-string", E, A, "enum members that are not strings",
         "enum members {value} are not strings; Gemini's enum is a list of strings",
         "use string members (e.g. a str Enum or Literal of strings)", GENAI_SCHEMA,
         enum_members(lambda v: not isinstance(v, str))),
    rule("gemini.empty-properties", E, A, "a nested object with empty properties",
         "a nested object with \"properties\": {{}}; Gemini answers 'should be non-empty "
         "for OBJECT type'", "describe the object's properties, or make it a string the "
         "function parses", GEMINI_EMPTY_OBJECT, empty_properties),
    rule("gemini.empty-root-properties", E, A, "parameters with empty properties (ended)",
         "parameters has \"properties\": {{}}; Gemini answered 'should be non-empty for "
         "OBJECT type' until 2026", "leave parameters out for a tool without arguments",
         GEMINI_EMPTY_ROOT, empty_root_properties),
    rule("gemini.array-items-missing", E, A, "an array without items",
         "array schema has no 'items' (found {value}); Gemini answers 'items: missing field'",
         "give the array an items schema", GEMINI_ITEMS, array_without_items),
    rule("gemini.enum-type-not-string", E, A, "enum on a node whose type is not string",
         "enum on a node of type {type}; Gemini answers 'enum: only allowed for STRING type'",
         "give the node \"type\": \"string\" and string members, or drop the enum and say "
         "the values in the description", GEMINI_ENUM_TYPE, enum_type_not_string),
    rule("gemini.any-of-siblings", E, A, "anyOf beside other keywords (Vertex AI)",
         "anyOf has sibling keywords {siblings}; Vertex AI answers 'When using any_of, it "
         "must be the only field set' (the Gemini Developer API takes it)",
         "move the siblings into each anyOf branch, or make anyOf the only keyword",
         VERTEX_ANY_OF, any_of_siblings),
    rule("gemini.unknown-keyword", E, A, "a keyword that is not a field of Gemini's Schema",
         "'{keyword}' is not a field of Gemini's Schema (Unknown name ... Cannot find field)",
         "remove it and check the constraint in the function", GENAI_SCHEMA,
         unknown_keyword),
)
# Findings only the translation emits (no schema check can see them).
TRANSLATION_RULES: tuple[ProviderRule, ...] = (
    rule("gemini.translation-limit", E, A, "the schema is too deep or too large to inline",
         "inlining stopped: {why}", "flatten the schema or share fewer definitions",
         GENAI_SCHEMA, lambda ctx: iter(())),
)
# fmt: on
_BY_ID = build_rule_table(CLASSIC_RULES + TRANSLATION_RULES)

# --------------------------------------------------------------------------------------------
# Translation

_MAX_TRANSLATE_NODES = 50_000  # shared definitions inlined many times can explode
_DROPPED_WHY = {
    "$schema": "Gemini's Schema has no '$schema' field",
    "title": "Gemini's Schema has no 'title' field",  # ignored by the API; kept out as before
    "default": "Gemini's Schema has no 'default' field",  # accepted but ignored
    "additionalProperties": "Gemini's Schema has no 'additionalProperties' field",
}


class _At(NamedTuple):
    """Where the translator is: the node's pointer, the refs inlined above it, its depth."""

    pointer: str
    stack: tuple[str, ...]
    depth: int

    def child(self, *tokens: str | int) -> _At:
        return _At(join_pointer(self.pointer, *tokens), self.stack, self.depth + 1)


class _GeminiTranslator:
    """Rewrites a JSON schema into Gemini's classic ``parameters`` subset."""

    def __init__(self, schema: JsonSchema) -> None:
        self.root = schema
        self.changes: list[Change] = []
        self.findings: list[Finding] = []
        self.kept_defs: dict[str, str] = {}  # pointer of a recursive target -> its ref
        self.nodes = 0

    def change(self, pointer: str, rule: str, before: Any, after: Any, reason: str) -> None:
        self.changes.append(Change(pointer, rule, before, after, reason))

    def finding(self, rule_id: str, pointer: str | None, **fields: Any) -> None:
        found = make_finding(_BY_ID[rule_id], Hit(pointer, fields), property_of, Origin.TRANSLATION)
        if found not in self.findings:
            self.findings.append(found)

    def run(self) -> JsonSchema:
        out = self.node(self.root, _At("", (), 0))
        if not isinstance(out, dict):  # pragma: no cover - the root is a dict by contract
            return {}
        # Recursive definitions stay as definitions so the kept refs still resolve.
        done: set[str] = set()
        while set(self.kept_defs) - done:
            pointer = min(set(self.kept_defs) - done)
            done.add(pointer)
            tokens = split_pointer(pointer)
            if len(tokens) != 2 or tokens[0] not in ("$defs", "definitions"):
                continue  # a ref into the middle of a definition: reported, left dangling
            _, target = resolve_local(self.root, "#" + pointer)
            out.setdefault(tokens[0], {})[tokens[1]] = self.node(
                target, _At(pointer, (pointer,), 1)
            )
        return out

    def node(self, value: Any, at: _At) -> Any:
        """One node: structural rewrites first (refs, null unions), then keyword by keyword."""
        if not isinstance(value, dict):
            return copy_json(value) if at.depth < TRANSLATION_NESTING_LIMIT else None
        self.nodes += 1
        if at.depth >= TRANSLATION_NESTING_LIMIT or self.nodes > _MAX_TRANSLATE_NODES:
            why = (
                f"nesting deeper than {TRANSLATION_NESTING_LIMIT} levels"
                if at.depth >= TRANSLATION_NESTING_LIMIT
                else f"more than {_MAX_TRANSLATE_NODES} nodes after inlining"
            )
            self.finding("gemini.translation-limit", at.pointer, why=why)
            return {}
        node, stack = self.normalize(dict(value), at.pointer, at.stack)
        if "$ref" in node:  # a recursive reference: kept, reported
            return {k: copy_json(v) for k, v in node.items()}
        at = at._replace(stack=stack)
        out: JsonSchema = {}
        for key, item in node.items():
            _KEYWORDS.get(key, _GeminiTranslator.keep_or_drop)(self, out, key, item, at)
        return _any_of_alone(out, at.pointer, self.change)

    # --- keyword handlers (the table _KEYWORDS routes each keyword to one of them)

    def keep_or_drop(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if key in SCHEMA_FIELDS:
            out[key] = copy_json(item)
            return
        why = _DROPPED_WHY.get(key) or (
            f"Gemini's Schema has no '{key}' field; check that constraint in the function"
        )
        self.change(join_pointer(at.pointer, key), "gemini.drop-keyword", item, None, why)

    def drop(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        self.change(join_pointer(at.pointer, key), "gemini.drop-keyword", item, None,
                    _DROPPED_WHY[key])  # fmt: skip

    def definitions(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        reason = f"Gemini's Schema has no '{key}' field; its definitions were inlined"
        self.change(join_pointer(at.pointer, key), "gemini.drop-keyword", item, None, reason)

    def const(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        out["enum"] = [copy_json(item)]
        reason = "Gemini has no 'const'; a one-value enum means the same"
        pointer = join_pointer(at.pointer, "enum")
        self.change(pointer, "gemini.const-to-enum", {"const": item}, {"enum": [item]}, reason)

    def one_of(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if not isinstance(item, list):
            return self.keep_or_drop(out, key, item, at)
        out["anyOf"] = self.children(item, at.child("anyOf"))
        self.change(join_pointer(at.pointer, "anyOf"), "gemini.oneof-to-anyof", "oneOf", "anyOf",
                    "Gemini has no 'oneOf'; anyOf accepts the same values when branches do "
                    "not overlap")  # fmt: skip
        return None

    def any_of(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if not isinstance(item, list):
            return self.keep_or_drop(out, key, item, at)
        out[key] = self.children(item, at.child(key))
        return None

    def properties(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if not isinstance(item, dict):
            return self.keep_or_drop(out, key, item, at)
        out[key] = {name: self.node(sub, at.child(key, name)) for name, sub in item.items()}
        return None

    def items(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if isinstance(item, list):
            reason = "Gemini's 'items' is one schema; a list of item schemas cannot be sent"
            self.change(join_pointer(at.pointer, key), "gemini.drop-keyword", item, None, reason)
        elif isinstance(item, dict):
            out[key] = self.node(item, at.child(key))
        else:
            self.keep_or_drop(out, key, item, at)

    def type(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if isinstance(item, list):
            _type_list(out, item, at.pointer, self.change)
        else:
            out[key] = copy_json(item)

    def nullable(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if "nullable" not in out:  # a null union already set it
            out[key] = copy_json(item)

    def children(self, items: list[Any], at: _At) -> list[Any]:
        base = at._replace(depth=at.depth - 1)
        return [self.node(sub, base.child(index)) for index, sub in enumerate(items)]

    # --- structural rewrites

    def normalize(
        self, node: JsonSchema, pointer: str, stack: tuple[str, ...]
    ) -> tuple[JsonSchema, tuple[str, ...]]:
        """Inline refs, collapse null unions and one-branch allOf until nothing changes."""
        for _ in range(64):  # each pass removes one ref or one union level
            if "$ref" in node:
                inlined = self.inline_ref(node, pointer, stack)
                if inlined is None:
                    return node, stack
                node, stack = inlined
                continue
            collapsed = _collapse_null(node, pointer, self.change) or _flatten_all_of(
                node, pointer, self.change
            )
            if collapsed is None:
                return node, stack
            node = collapsed
        return node, stack

    def inline_ref(
        self, node: JsonSchema, pointer: str, stack: tuple[str, ...]
    ) -> tuple[JsonSchema, tuple[str, ...]] | None:
        ref = node["$ref"]
        target, resolved = resolve_local(self.root, ref)
        if target is None or not isinstance(resolved, dict):
            return None  # the unresolved-ref rule reports it
        if target in stack or target == "":
            if target:
                self.kept_defs.setdefault(target, ref)
            self.finding(
                "gemini.recursive-schema", pointer, ref=show(ref), target=target or "the root"
            )
            return None
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        self.change(
            pointer,
            "gemini.inline-ref",
            ref,
            None,
            "Gemini's parameters cannot refer to definitions; the definition is inlined"
            + (" and its siblings kept over it" if siblings else ""),
        )
        return {**resolved, **siblings}, (*stack, target)


_Handler = Callable[[_GeminiTranslator, JsonSchema, str, Any, _At], None]
_KEYWORDS: dict[str, _Handler] = {
    **dict.fromkeys(_DROPPED_WHY, _GeminiTranslator.drop),
    "$defs": _GeminiTranslator.definitions,
    "definitions": _GeminiTranslator.definitions,
    "const": _GeminiTranslator.const,
    "oneOf": _GeminiTranslator.one_of,
    "anyOf": _GeminiTranslator.any_of,
    "properties": _GeminiTranslator.properties,
    "items": _GeminiTranslator.items,
    "type": _GeminiTranslator.type,
    "nullable": _GeminiTranslator.nullable,
}


_Record = Callable[[str, str, Any, Any, str], None]  # records one Change


def _collapse_null(node: JsonSchema, pointer: str, change: _Record) -> JsonSchema | None:
    branches = node.get("anyOf")
    if not isinstance(branches, list):
        return None
    rest = [b for b in branches if not _is_null_schema(b)]
    if len(rest) == len(branches) or not rest:
        return None
    others = {k: v for k, v in node.items() if k != "anyOf"}
    if len(rest) == 1 and isinstance(rest[0], dict):
        merged = {**rest[0], **others, "nullable": True}
    else:
        merged = {"anyOf": rest, **others, "nullable": True}
    change(
        pointer,
        "gemini.null-union-to-nullable",
        {"anyOf": branches},
        {k: merged[k] for k in merged if k not in others or k == "nullable"},
        "Gemini has no null type; nullable: true says the same",
    )
    return merged


def _flatten_all_of(node: JsonSchema, pointer: str, change: _Record) -> JsonSchema | None:
    branches = node.get("allOf")
    if not (isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict)):
        return None
    others = {k: v for k, v in node.items() if k != "allOf"}
    change(
        pointer,
        "gemini.flatten-all-of",
        {"allOf": branches},
        branches[0],
        "Gemini has no allOf; a single branch is merged into its parent",
    )
    return {**branches[0], **others}


def _type_list(out: JsonSchema, types: list[Any], pointer: str, change: _Record) -> None:
    rest = [t for t in types if t != "null"]
    nullable = len(rest) != len(types)
    after: JsonSchema
    if len(rest) == 1:
        after = {"type": rest[0]}
    elif rest:
        after = {"anyOf": [{"type": t} for t in rest]}
    else:
        after = {"type": "null"}
    if nullable and rest:
        after["nullable"] = True
    out.update(after)
    change(
        join_pointer(pointer, "type"),
        "gemini.type-list",
        types,
        after,
        "Gemini wants one type per node; null becomes nullable: true",
    )


def _any_of_alone(out: JsonSchema, pointer: str, change: _Record) -> JsonSchema:
    """``out`` with the keywords beside its ``anyOf`` moved into each branch: Vertex AI
    wants anyOf alone (gemini.any-of-siblings); a branch's own keyword wins."""
    branches = out.get("anyOf")
    if not isinstance(branches, list) or len(out) == 1:
        return out
    siblings = {k: v for k, v in out.items() if k != "anyOf"}
    moved = [{**siblings, **b} if isinstance(b, dict) else b for b in branches]
    change(
        pointer,
        "gemini.any-of-alone",
        out,
        {"anyOf": moved},
        "Vertex AI wants anyOf as the only keyword; its siblings are repeated in each branch",
    )
    return {"anyOf": moved}


def _is_null_schema(branch: Any) -> bool:
    return isinstance(branch, dict) and branch.get("type") == "null" and "$ref" not in branch


def translate(schema: JsonSchema, strict: bool) -> Translation:
    translator = _GeminiTranslator(schema)
    out = translator.run()
    return Translation(out, tuple(translator.changes), tuple(translator.findings))


# --------------------------------------------------------------------------------------------
# The provider

GEMINI_OPENAPI = ProviderSpec(
    name="gemini-openapi",
    label="Gemini, classic parameters (OpenAPI subset)",
    own_rules=CLASSIC_RULES,
    payload=FlatTool(("parameters",)),
    docs=GENAI_DECLARATION_PARAMETERS,
    translate=translate,
)
