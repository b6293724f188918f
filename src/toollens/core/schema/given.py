"""A JSON Schema given by a person: parsed from text and checked as data, before any view.

``parse_schema_text`` turns JSON text into a schema (errors name the line and column);
``check_plain_data`` rejects a Python dict that contains itself or nests too deeply, which
JSON cannot express and every later step would recurse on; ``check_schema`` rejects the
structural mistakes that make a dict no JSON Schema at all (a ``type`` that is no type, a
``properties`` that is no object). Deliberately not a meta-schema validation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toollens.core.errors import SchemaConstructionError
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.toolkit import (
    DATA_NESTING_LIMIT,
    SCHEMA_CHECK_DEPTH,
    SCHEMA_LIST_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    SCHEMA_VALUE_KEYWORDS,
)
from toollens.core.schema.types import JsonMapping, JsonSchema

__all__ = [
    "READ_SHAPES",
    "check_plain_data",
    "check_schema",
    "check_schema_or_tool",
    "check_tool_shape",
    "parse_schema_text",
    "require_object",
]

#: The JSON Schema keywords (2020-12 and draft-07, annotations included) and OpenAPI's
#: ``nullable``: an object with none of them at its top is data, not a schema.
SCHEMA_KEYWORDS = frozenset(
    {
        *SCHEMA_MAP_KEYWORDS, *SCHEMA_LIST_KEYWORDS, *SCHEMA_VALUE_KEYWORDS,
        "$schema", "$id", "$ref", "$dynamicRef", "$anchor", "$dynamicAnchor", "$comment",
        "$vocabulary", "id", "type", "enum", "const", "required", "dependentRequired",
        "dependencies", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "multipleOf", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems",
        "uniqueItems", "minContains", "maxContains", "minProperties", "maxProperties",
        "title", "description", "default", "examples", "example", "deprecated", "readOnly",
        "writeOnly", "contentEncoding", "contentMediaType", "contentSchema", "nullable",
    }
)  # fmt: skip

#: What toollens reads from JSON, for a message that refuses something else.
READ_SHAPES = (
    'toollens reads a JSON Schema (e.g. {"type": "object", "properties": {...}}), one tool '
    '(an MCP tool {"name", "inputSchema"} or a provider\'s tool payload) or a tool list '
    '({"tools": [...]} or a JSON list of tools)'
)


def check_tool_shape(data: JsonMapping, error: SchemaConstructionError | None = None) -> None:
    """Refuse a JSON object that is no tool and no schema, saying so and which shapes are
    read: none of its top keys is a JSON Schema keyword (``{"name": "Alice"}``), its
    ``tools`` is no list, or ``error`` (what :func:`check_schema` found) falls under keys
    that are no keywords (``{"hello": "world", "items": [1]}``)."""
    tools = data.get("tools")
    if "tools" in data and not isinstance(tools, list):
        raise SchemaConstructionError(
            f"this JSON is not a tool list: 'tools' holds {type(tools).__name__} "
            f"{_preview(tools)}, not a list of tools",
            pointer="/tools",
            hint=READ_SHAPES,
        )
    others = [key for key in data if key not in SCHEMA_KEYWORDS and not key.startswith("x-")]
    if not others or (error is None and len(others) < len(data)):
        return
    keys = ", ".join(repr(k) for k in others[:5]) + (", ..." if len(others) > 5 else "")
    said = (
        f"its key {keys} is no JSON Schema keyword"
        if len(others) == 1
        else (f"its keys {keys} are no JSON Schema keywords")
    )
    found = f" ({error.message} at {error.pointer or '/'})" if error is not None else ""
    raise SchemaConstructionError(
        f"this JSON is not a tool and not a JSON Schema: {said}{found}",
        hint=READ_SHAPES,
    )


def _preview(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_schema_text(text: str | bytes | bytearray) -> JsonSchema:
    """Parse JSON text that should hold a JSON Schema object.

    Raises:
        SchemaConstructionError: the text is not JSON (with line and column), holds NaN or
            Infinity, or its root is not an object.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SchemaConstructionError(
                f"the schema is not UTF-8 text ({exc.reason} at byte {exc.start})",
                hint="save the schema as UTF-8",
            ) from exc

    def reject_constant(name: str) -> Any:
        raise SchemaConstructionError(
            f"the schema contains {name}, which is not JSON", hint="use a finite number"
        )

    try:
        data = json.loads(text, parse_constant=reject_constant)
    except json.JSONDecodeError as exc:
        raise SchemaConstructionError(
            f"the schema is not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            hint="fix the JSON syntax there",
        ) from exc
    except RecursionError as exc:
        raise SchemaConstructionError(
            "the schema is nested too deeply to parse", hint="flatten it or use $defs"
        ) from exc
    return require_object(
        data,
        "a JSON schema must be an object",
        'wrap it, e.g. {"type": "object", "properties": {...}}',
    )


def require_object(value: object, what: str, hint: str) -> JsonSchema:
    """``value`` when it is a JSON object, else ``SchemaConstructionError`` at the root.

    ``what``: the sentence the error starts with (the type found is added); ``hint``: what to do.
    """
    if not isinstance(value, dict):
        raise SchemaConstructionError(f"{what}, got {type(value).__name__}", pointer="", hint=hint)
    return value


_TYPES = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})
# Keywords that must hold a non-empty list; `items` may also be one schema, checked as such.
_LIST_ONLY = tuple(k for k in SCHEMA_LIST_KEYWORDS if k not in SCHEMA_VALUE_KEYWORDS)


def check_plain_data(value: object) -> None:
    """Reject a dict that contains itself or nests past ``DATA_NESTING_LIMIT``, iteratively.

    JSON text can express neither, but a dict built in Python can, and every later step
    (copying, strict conversion, rendering) would otherwise recurse without end.
    """
    path: list[str | int] = []
    on_path: set[int] = set()
    # (node, key under its parent, leaving?) -- explicit stack, so never a RecursionError
    stack: list[tuple[Any, str | int | None, bool]] = [(value, None, False)]
    while stack:
        node, key, leaving = stack.pop()
        if leaving:
            on_path.discard(id(node))
            if path:
                path.pop()
            continue
        if not isinstance(node, (Mapping, list, tuple)):
            continue
        if id(node) in on_path or len(on_path) >= DATA_NESTING_LIMIT:
            where = join_pointer("", *path, *([] if key is None else [key]))
            if id(node) in on_path:
                raise SchemaConstructionError(
                    "the schema contains itself (a Python object cycle, which JSON cannot express)",
                    pointer=where,
                    hint="build the schema from separate dicts; for recursion use a $ref "
                    "to '#/$defs/Name'",
                )
            raise SchemaConstructionError(
                f"the schema nests more than {DATA_NESTING_LIMIT} levels of objects and arrays",
                pointer=where,
                hint="flatten it, or move repeated parts under $defs and reference them",
            )
        if key is not None:
            path.append(key)
        on_path.add(id(node))
        stack.append((node, key, True))
        items = list(node.items()) if isinstance(node, Mapping) else list(enumerate(node))
        stack.extend(
            (child, k if isinstance(k, int) else str(k), False) for k, child in reversed(items)
        )


def check_schema(schema: object, pointer: str = "", depth: int = 0) -> None:
    """Reject the structural mistakes that make a dict no JSON schema at all.

    Deliberately not a full meta-schema validation: importing jsonschema costs seconds
    (its format checkers), too slow for a live explorer, and the strict and provider views
    report everything finer-grained.
    """
    if isinstance(schema, bool):
        return
    if not isinstance(schema, Mapping):
        raise SchemaConstructionError(
            f"a schema must be an object or a boolean, got {type(schema).__name__}",
            pointer=pointer,
            hint='write a subschema such as {"type": "string"}',
        )
    if depth > SCHEMA_CHECK_DEPTH:
        raise SchemaConstructionError(
            "the schema is nested too deeply", pointer=pointer, hint="use $defs and $ref"
        )
    kinds = schema.get("type")
    if kinds is not None:
        listed = kinds if isinstance(kinds, list) else [kinds]
        bad = [k for k in listed if not isinstance(k, str) or k not in _TYPES]
        if bad:
            raise SchemaConstructionError(
                f"not a valid JSON schema: type {bad[0]!r} is not one of "
                f"{', '.join(sorted(_TYPES))}",
                pointer=join_pointer(pointer, "type"),
                hint="fix the keyword there",
            )
    required = schema.get("required")
    if required is not None and (
        not isinstance(required, list) or not all(isinstance(r, str) for r in required)
    ):
        raise SchemaConstructionError(
            "not a valid JSON schema: required must be a list of property names",
            pointer=join_pointer(pointer, "required"),
            hint="fix the keyword there",
        )
    _check_subschemas(schema, pointer, depth)


def _check_subschemas(schema: JsonMapping, pointer: str, depth: int) -> None:
    """``check_schema`` for every subschema of ``schema``, and the shape of their keywords."""
    for key in SCHEMA_MAP_KEYWORDS:
        if key in schema:
            value = schema[key]
            if not isinstance(value, Mapping):
                raise SchemaConstructionError(
                    f"not a valid JSON schema: {key} must be an object of subschemas",
                    pointer=join_pointer(pointer, key),
                    hint="fix the keyword there",
                )
            for name, sub in value.items():
                check_schema(sub, join_pointer(pointer, key, str(name)), depth + 1)
    for key in _LIST_ONLY:
        if key in schema:
            value = schema[key]
            if not isinstance(value, list) or not value:
                raise SchemaConstructionError(
                    f"not a valid JSON schema: {key} must be a non-empty list of subschemas",
                    pointer=join_pointer(pointer, key),
                    hint="fix the keyword there",
                )
            for index, sub in enumerate(value):
                check_schema(sub, join_pointer(pointer, key, index), depth + 1)
    for key in SCHEMA_VALUE_KEYWORDS:
        if key not in schema:
            continue
        if key == "items" and isinstance(schema[key], list):  # draft-07 tuple form
            for index, sub in enumerate(schema[key]):
                check_schema(sub, join_pointer(pointer, key, index), depth + 1)
        else:
            check_schema(schema[key], join_pointer(pointer, key), depth + 1)


def check_schema_or_tool(raw: JsonMapping) -> None:
    """:func:`check_schema`, with data that is no schema at all refused as such first."""
    check_tool_shape(raw)
    try:
        check_schema(raw)
    except SchemaConstructionError as exc:
        check_tool_shape(raw, exc)  # under keys that are no keywords: not a schema at all
        raise
