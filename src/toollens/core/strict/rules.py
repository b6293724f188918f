"""The rules strict conversion applies or refuses, as data.

Every rewrite and every refusal has a stable id (``StrictRule``). The id is the contract;
the wording in the two tables below may improve. the strict walker reads the tables,
so adding a rule is adding one enum member and one table entry.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final


class StrictRule(str, enum.Enum):
    """Stable ids of what strict conversion changes (rewrites) or refuses (errors).

    Rewrites are reported as ``Change`` records; ``before``/``after`` hold the value
    concerned: ``additionalProperties`` for close-object, the ``required`` list, the
    ``type``, the default value, the ``$ref`` string for an inlined reference, or the
    keyword name for the keyword-level rewrites (``"oneOf"`` -> ``"anyOf"``, ``"allOf"``).
    Refusals are raised as ``StrictSchemaError`` with ``rule`` set to the id.
    """

    # rewrites
    CLOSE_OBJECT = "close-object"
    REQUIRE_ALL_PROPERTIES = "require-all-properties"
    DROP_NONE_DEFAULT = "drop-none-default"
    ONEOF_TO_ANYOF = "oneof-to-anyof"
    MERGE_SINGLE_ALLOF = "merge-single-allof"
    INLINE_REF_WITH_SIBLINGS = "inline-ref-with-siblings"
    INFER_OBJECT_TYPE = "infer-object-type"
    ROOT_TYPE_LIST = "root-type-list"
    EMPTY_SCHEMA = "empty-schema"
    NULLABLE_DEFAULT = "nullable-default"
    # refusals
    OPEN_OBJECT = "open-object"
    NOT_A_SCHEMA = "not-a-schema"
    TOO_DEEP = "too-deep"
    TOO_LARGE = "too-large"
    REF_FORMAT = "ref-format"
    REF_REMOTE = "ref-remote"
    REF_MISSING = "ref-missing"
    REF_SIBLINGS = "ref-siblings"
    REF_CYCLE = "ref-cycle"
    REF_RECURSIVE = "ref-recursive"
    NESTED_ID = "nested-id"
    ALLOF_CONFLICT = "allof-conflict"
    ROOT_ANYOF = "root-anyof"
    ROOT_NULLABLE = "root-nullable"


# Reason templates for rewrites; ``{before}`` and ``{after}`` are filled with short JSON.
REASONS: Final[Mapping[StrictRule, str]] = MappingProxyType(
    {
        StrictRule.CLOSE_OBJECT: (
            "closed the object: strict mode requires additionalProperties: false"
        ),
        StrictRule.REQUIRE_ALL_PROPERTIES: (
            "listed every property in required: strict mode requires all properties, "
            "so optional ones must allow null instead"
        ),
        StrictRule.DROP_NONE_DEFAULT: (
            "removed default null: strict mode ignores defaults, and the type already "
            "says whether null is allowed"
        ),
        StrictRule.ONEOF_TO_ANYOF: (
            "rewrote oneOf as anyOf: strict mode supports anyOf only; the variants and any "
            "discriminator are kept"
        ),
        StrictRule.MERGE_SINGLE_ALLOF: (
            "merged the only allOf entry into its parent: a one-entry allOf means the same "
            "as its entry, and strict mode cannot use allOf there"
        ),
        StrictRule.INLINE_REF_WITH_SIBLINGS: (
            "inlined the $ref {before}: strict mode does not allow keywords next to a $ref, "
            "so the target was copied in and the sibling keywords kept"
        ),
        StrictRule.INFER_OBJECT_TYPE: (
            'set type: "object": the schema declares properties, so it describes an object'
        ),
        StrictRule.ROOT_TYPE_LIST: (
            'replaced type ["object"] with "object": the root of a strict schema must be '
            "a plain object"
        ),
        StrictRule.EMPTY_SCHEMA: (
            "replaced the empty schema with an empty closed object: a strict tool takes an "
            "object with no parameters"
        ),
        StrictRule.NULLABLE_DEFAULT: (
            "made the property nullable instead of keeping default {before}: strict mode "
            "ignores defaults, so null now means 'use the default'"
        ),
    }
)

# Message templates and hints (what to do) for refusals.
PROBLEMS: Final[Mapping[StrictRule, tuple[str, str]]] = MappingProxyType(
    {
        StrictRule.OPEN_OBJECT: (
            "additionalProperties is {value}: strict mode cannot express an open object",
            "declare the properties, or make the tool non-strict",
        ),
        StrictRule.NOT_A_SCHEMA: (
            "expected a schema object here, got {kind} {value}",
            "use a JSON object (a dict) for every subschema",
        ),
        StrictRule.TOO_DEEP: (
            "the schema nests more than {limit} levels of objects and arrays",
            "flatten it, or move repeated parts under $defs and reference them",
        ),
        StrictRule.TOO_LARGE: (
            "converting the schema would visit more than {limit} nodes, which usually "
            "means a $ref fan-out that expands exponentially",
            "reference shared definitions with a bare $ref instead of adding sibling "
            "keywords, or make the tool non-strict",
        ),
        StrictRule.REF_FORMAT: (
            "$ref {ref} {detail}",
            "use a local JSON pointer such as '#/$defs/Name'",
        ),
        StrictRule.REF_REMOTE: (
            "$ref {ref} points outside this document, and toollens never fetches references",
            "copy the referenced schema under $defs and point to '#/$defs/Name'",
        ),
        StrictRule.REF_MISSING: (
            "$ref {ref} {detail}",
            "add the missing definition under $defs, or fix the reference",
        ),
        StrictRule.REF_SIBLINGS: (
            "$ref has sibling keyword(s) ({keywords}) that cannot be merged without "
            "changing the values it accepts",
            "move those keywords into the referenced definition, or make the tool non-strict",
        ),
        StrictRule.REF_CYCLE: (
            "the $ref chain {chain} is circular and never reaches a schema",
            "point one of the references at a real schema",
        ),
        StrictRule.REF_RECURSIVE: (
            "$ref {ref} has sibling keywords and leads back to a schema that contains it, "
            "so inlining it would never end",
            "keep the recursive reference bare (move its description to the parent), or "
            "make the tool non-strict",
        ),
        StrictRule.NESTED_ID: (
            "a $ref inside or across a nested $id resource cannot be resolved against the "
            "document root",
            "remove the nested $id, or move that schema under the root $defs",
        ),
        StrictRule.ALLOF_CONFLICT: (
            "the only allOf entry conflicts with the parent keyword(s) ({keywords})",
            "merge those keywords into one schema by hand, or make the tool non-strict",
        ),
        StrictRule.ROOT_ANYOF: (
            "the root is a union (anyOf/oneOf), but a strict tool takes one object",
            "wrap the union in an object property, e.g. "
            '{"type": "object", "properties": {"value": <union>}}',
        ),
        StrictRule.ROOT_NULLABLE: (
            "the root type is {value}, but the root of a strict schema must be a "
            "non-nullable object",
            'use type "object" at the root, or make the tool non-strict',
        ),
    }
)

# Checked once at import: every id has exactly one text, so a new rule cannot be forgotten.
if set(REASONS) | set(PROBLEMS) != set(StrictRule) or not set(REASONS).isdisjoint(PROBLEMS):
    raise RuntimeError("every StrictRule needs exactly one entry in REASONS or PROBLEMS")
