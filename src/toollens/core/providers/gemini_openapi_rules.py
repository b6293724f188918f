"""Gemini, classic ``parameters``: the rules of the OpenAPI 3.0 subset (google-genai's
``types.Schema``) and the answers the API has given to it, quoted in public threads.

:mod:`toollens.core.providers.gemini_openapi` translates a JSON Schema into this subset and
judges what it sends with these rules.
"""

from collections.abc import Iterator

from toollens.core.providers.gemini import NAME_RULE, PARAMETER_NAME_RULE, ROOT_RULE
from toollens.core.providers.rules import (
    A,
    E,
    Hit,
    ProviderRule,
    RuleContext,
    W,
    enum_members,
    keywords,
    recursive_schema,
    ref_siblings,
    rule,
    type_list,
)
from toollens.core.providers.walk import (
    SchemaNode,
    show,
)
from toollens.core.records import Citation
from toollens.core.schema.pointer import join_pointer

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
