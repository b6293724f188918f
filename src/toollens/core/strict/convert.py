"""Strict JSON Schema conversion that explains every change it makes.

The rules follow the reference ``ensure_strict_json_schema`` of the OpenAI Agents SDK:
objects are closed and every property required, ``oneOf`` becomes ``anyOf``, a single
``allOf`` entry is merged into its parent, a ``$ref`` with sibling keywords is inlined,
and ``default: null`` is dropped. Unlike the reference, the walk builds a new schema as it
goes (the caller's dict is never touched), records one ``Change`` per rewrite, and turns
every failure into a ``StrictSchemaError`` that points at the offending input node.

The output equals the reference's, key order included: subschemas are converted in the
reference's order, and a ``$ref`` target is read rewritten if the reference would already
have rewritten it, as written otherwise. Deliberate differences: every ``$ref`` must be a
local JSON pointer that resolves (the reference leaves a bare ``$ref`` unchecked), and a
``$ref`` with sibling keywords that leads back into itself is refused instead of looping.
Nothing is ever fetched.

The rule ids and their wording live in ``rules``; the walk in ``walker``, and the rules it
applies as plain functions over one node's context (``state.At``) in ``objects``,
``unions``, ``refs`` and ``applicators``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Final

from toollens.core.records import Change
from toollens.core.schema.pointer import LinkedPath
from toollens.core.schema.toolkit import (
    STRICT_NESTING_LIMIT,
    copy_json,
    nests_deeper,
    preview_json,
)
from toollens.core.schema.types import JsonMapping, JsonSchema
from toollens.core.strict.rules import StrictRule
from toollens.core.strict.state import fail
from toollens.core.strict.walker import Walker

_EMPTY_STRICT: Final[JsonMapping] = {
    "additionalProperties": False,
    "type": "object",
    "properties": {},
    "required": [],
}


def explain_strict(
    schema: JsonMapping, *, nullable_defaults: Collection[str] = ()
) -> tuple[JsonSchema, list[Change]]:
    """Convert a JSON schema to strict mode and say what changed.

    Args:
        schema: the schema to convert; it is read, never modified.
        nullable_defaults: names of root properties whose non-null ``default`` should
            become "null means default" instead of being kept. Such a property becomes
            ``{"title"?, "description"?, "anyOf": [<schema without default>,
            {"type": "null"}]}`` (title and description stay on the outer node); a
            property that already allows null only loses its default. Names that are not
            root properties with a non-null default are ignored.

    Returns:
        A new strict schema that shares no mutable object with ``schema``, and one
        ``Change`` per rewrite, pointing into the new schema.

    Raises:
        StrictSchemaError: the schema cannot be made strict without changing what it
            accepts; ``pointer`` names the offending node of the input.
    """
    return _convert(schema, nullable_defaults, record=True)


def strict_schema(schema: JsonMapping) -> JsonSchema:
    """Return a strict copy of ``schema`` (``explain_strict`` without the change list)."""
    return _convert(schema, (), record=False)[0]


def ensure_strict_json_schema(schema: JsonSchema) -> JsonSchema:
    """Drop-in for the reference: make ``schema`` strict in place and return it.

    The empty schema ``{}`` is left alone and a fresh closed object is returned on each
    call. On error the input is left unchanged (the reference may leave it half-rewritten).
    """
    result = _convert(schema, (), record=False)[0]
    if not schema or not isinstance(schema, dict):
        return result
    schema.clear()
    schema.update(result)
    return schema


def _convert(
    schema: JsonMapping, nullable_defaults: Collection[str], *, record: bool
) -> tuple[JsonSchema, list[Change]]:
    if not isinstance(schema, Mapping):
        fail(StrictRule.NOT_A_SCHEMA, None, kind=type(schema).__name__, value=preview_json(schema))
    root = schema if isinstance(schema, dict) else dict(schema)
    _check_depth(root)
    if isinstance(nullable_defaults, str):  # one name, not a collection of characters
        nullable_defaults = (nullable_defaults,)
    walker = Walker(root, record=record, nullable=frozenset(nullable_defaults))
    if not root:
        out = copy_json(dict(_EMPTY_STRICT))
        walker.note(StrictRule.EMPTY_SCHEMA, None, {}, copy_json(out))
        return out, walker.changes
    out = walker.node(root, (None, None, 1, True, False))
    if isinstance(out.get("anyOf"), list):
        fail(StrictRule.ROOT_ANYOF, None)
    typ = out.get("type")
    if isinstance(typ, list) and "object" in typ:
        if typ != ["object"]:
            fail(StrictRule.ROOT_NULLABLE, None, value=preview_json(typ))
        out["type"] = "object"
        walker.note(StrictRule.ROOT_TYPE_LIST, None, ["object"], "object")
    return out, walker.changes


def _check_depth(root: JsonSchema) -> None:
    """Reject nesting past ``STRICT_NESTING_LIMIT`` (without a RecursionError: ``nests_deeper``)."""
    if nests_deeper(root, STRICT_NESTING_LIMIT):
        fail(StrictRule.TOO_DEEP, _deep_path(root), limit=STRICT_NESTING_LIMIT)


def _deep_path(root: JsonSchema) -> LinkedPath:
    """Path of the first container past ``STRICT_NESTING_LIMIT`` (only called once it exists)."""
    stack: list[tuple[Any, int, LinkedPath]] = [(root, 1, None)]
    while stack:
        value, depth, path = stack.pop()
        if depth > STRICT_NESTING_LIMIT:
            return path
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for token, child in items:
            if isinstance(child, dict | list | tuple):
                stack.append((child, depth + 1, (path, token)))
    return None
