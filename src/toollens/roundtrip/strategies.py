"""Hypothesis strategies for a schema, made once, with hypothesis-jsonschema at the leaves.

hypothesis-jsonschema's object strategy rebuilds the strategies of an object's properties on
every draw; a tool whose arguments hold a list of nested models then draws a few arguments a
second. Here the plain shapes a tool schema is made of are composed once, with Hypothesis's
own building blocks:

- a closed object (``properties`` + ``additionalProperties: false``) -> ``fixed_dictionaries``,
  required keys always, the others optional;
- an array with one ``items`` schema -> ``lists`` within ``minItems``/``maxItems``;
- ``anyOf`` -> ``one_of`` its branches; a local ``$ref`` -> its target.

Everything else (strings with patterns and formats, numbers with bounds, enums, ``oneOf``,
``uniqueItems``, ``patternProperties``, nodes with extra keywords beside these) is handed to
hypothesis-jsonschema as a document of its own, which keeps the root's definitions. A ``$ref``
deeper than ``MAX_REF_DEPTH`` is handed over too, so a recursive schema fails there as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toollens.core.schema.pointer import UnresolvedRef, resolve_local
from toollens.core.schema.types import JsonSchema, JsonValue

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

MAX_REF_DEPTH = 8
# Keywords that only describe; a node made of a shape's keywords plus these is composed here.
_NOTES = frozenset({"title", "description", "default", "examples", "$comment", "deprecated"})
_OBJECT = frozenset({"type", "properties", "required", "additionalProperties"}) | _NOTES
_ARRAY = frozenset({"type", "items", "minItems", "maxItems"}) | _NOTES
_UNION = frozenset({"anyOf"}) | _NOTES
_REF = frozenset({"$ref"}) | _NOTES


def strategy_for(root: JsonSchema) -> SearchStrategy[JsonValue]:
    """The strategy for ``root``, a schema whose ``$defs``/``definitions`` local refs use."""
    return _Composer(root).node(root, 0)


class _Composer:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.defs = {key: root[key] for key in ("$defs", "definitions") if key in root}

    def node(self, schema: Any, depth: int) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        if not isinstance(schema, dict):
            return self.leaf(schema)
        keys = set(schema) - {"$defs", "definitions"}
        if "$ref" in schema and keys <= _REF and depth < MAX_REF_DEPTH:
            target = self.resolve(schema["$ref"])
            return self.leaf(schema) if target is None else self.node(target, depth + 1)
        if "anyOf" in schema and keys <= _UNION and isinstance(schema["anyOf"], list):
            return st.one_of([self.node(branch, depth) for branch in schema["anyOf"]])
        if self.is_closed_object(schema, keys):
            return self.closed_object(schema, depth)
        if (
            schema.get("type") == "array"
            and keys <= _ARRAY
            and isinstance(schema.get("items"), dict)
        ):
            return st.lists(
                self.node(schema["items"], depth),
                min_size=schema.get("minItems", 0),
                max_size=schema.get("maxItems"),
            )
        return self.leaf(schema)

    @staticmethod
    def is_closed_object(schema: dict[str, Any], keys: set[str]) -> bool:
        return (
            schema.get("type", "object") == "object"
            and keys <= _OBJECT
            and isinstance(schema.get("properties"), dict)
            and schema.get("additionalProperties") is False
        )

    def closed_object(self, schema: dict[str, Any], depth: int) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        required = set(schema.get("required", ()))
        parts = {name: self.node(sub, depth) for name, sub in schema["properties"].items()}
        if not required <= set(parts):  # a required key no property declares: the library's
            return self.leaf(schema)
        return st.fixed_dictionaries(
            {name: part for name, part in parts.items() if name in required},
            optional={name: part for name, part in parts.items() if name not in required},
        )

    def resolve(self, ref: Any) -> Any:
        try:
            return resolve_local(self.root, ref)[1]
        except UnresolvedRef:
            return None

    def leaf(self, schema: Any) -> SearchStrategy[Any]:
        from hypothesis_jsonschema import from_schema

        document = {**self.defs, **schema} if isinstance(schema, dict) else schema
        return from_schema(document)
