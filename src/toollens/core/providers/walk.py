"""Walking a JSON schema: every subschema position, iteratively and bounded.

The shared walker of the provider rules (and of the linter). A schema built in Python may
contain itself (``d["properties"]["a"] = d``) or nest thousands of levels deep; the walk
stops at a cycle and at ``MAX_DEPTH``, so callers see findings, never ``RecursionError`` or a hang.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from toollens.core.records import join_pointer

_SCHEMA_VALUED = (
    "items",
    "additionalItems",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
)
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems", "items")
DEFINITION_KEYS = ("$defs", "definitions")

MAX_NODES = 100_000  # a walk stops here; the checks report on what they saw
MAX_DEPTH = 512  # deeper subschemas are not visited (no provider accepts such nesting)


@dataclass(frozen=True)
class SchemaNode:
    """One subschema position in a schema.

    Attributes:
        pointer: JSON pointer of the node.
        value: the node (normally a dict; anything else is reported as not a schema).
        depth: how many subschema hops from the root.
        keyword: the keyword that holds it (``"properties"``, ``"items"``, ...), ``None`` at
            the root.
        container: pointer of the root or of the definition the node belongs to.
    """

    pointer: str
    value: Any
    depth: int
    keyword: str | None
    container: str


def iter_children(value: Any, pointer: str) -> Iterator[tuple[str, str, Any]]:
    """``(keyword, pointer, child)`` for every subschema directly under ``value``.

    Boolean subschemas (``additionalProperties: false``) are not yielded: they are values,
    not nodes with keywords of their own.
    """
    if not isinstance(value, dict):
        return
    for key, child in value.items():
        if key in _SCHEMA_MAPS and isinstance(child, dict):
            for name, sub in child.items():
                if not isinstance(sub, bool):
                    yield key, join_pointer(pointer, key, name), sub
        elif key in _SCHEMA_LISTS and isinstance(child, list):
            for index, sub in enumerate(child):
                if not isinstance(sub, bool):
                    yield key, join_pointer(pointer, key, index), sub
        elif key in _SCHEMA_VALUED and isinstance(child, dict):
            yield key, join_pointer(pointer, key), child


_EXIT = object()  # stack marker: the walk leaves a node, so it is no longer an ancestor


def iter_schema_nodes(schema: Any, *, max_nodes: int = MAX_NODES) -> Iterator[SchemaNode]:
    """Every subschema position of ``schema`` in document order (pre-order), iteratively.

    A child that is one of its own ancestors (a Python-level cycle) is not entered again.
    """
    stack: list[Any] = [SchemaNode("", schema, 0, None, "")]
    on_path: set[int] = set()
    seen = 0
    while stack and seen < max_nodes:
        item = stack.pop()
        if item is _EXIT:
            on_path.discard(id(stack.pop()))
            continue
        node: SchemaNode = item
        seen += 1
        yield node
        if node.depth >= MAX_DEPTH or not isinstance(node.value, dict):
            continue
        on_path.add(id(node.value))
        stack.extend((node.value, _EXIT))
        children = [
            SchemaNode(
                ptr,
                child,
                node.depth + 1,
                keyword,
                ptr if keyword in DEFINITION_KEYS else node.container,
            )
            for keyword, ptr, child in iter_children(node.value, node.pointer)
            if id(child) not in on_path
        ]
        stack.extend(reversed(children))


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def split_pointer(pointer: str, limit: int = -1) -> list[str]:
    """The unescaped tokens of ``pointer``; only the first ``limit`` when given."""
    if not pointer:
        return []
    tokens = pointer.split("/", limit + 1 if limit >= 0 else -1)[1:]
    return [unescape_token(t) for t in tokens[: limit if limit >= 0 else None]]


def resolve_local(schema: Any, ref: Any) -> tuple[str | None, Any]:
    """Resolve a local ``$ref``: ``(pointer, target)``, or ``(None, why)`` when it cannot be."""
    if not isinstance(ref, str):
        return None, "is not a string"
    if not ref.startswith("#"):
        return None, "is not a local reference (toollens never downloads schemas)"
    try:
        # A $ref is a URI: its fragment is %-decoded before it is read as a JSON pointer
        # (the same rule as strict conversion and the diff).
        fragment = unquote(ref[1:], errors="strict")
    except UnicodeDecodeError:
        return None, "has invalid %-escapes"
    if fragment and not fragment.startswith("/"):
        return None, "uses an anchor, not a JSON pointer"
    node: Any = schema
    for token in split_pointer(fragment):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None, "points at nothing in this schema"
    return fragment, node


def is_object_node(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        return True
    return kind is None and isinstance(node.get("properties"), dict)


def is_array_node(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "array" or (isinstance(kind, list) and "array" in kind)


def show(value: Any, limit: int = 80) -> str:
    """A short JSON rendering of an offending value for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=False, default=repr)
    except (TypeError, ValueError, RecursionError):  # anything at all may sit in a schema
        try:
            text = repr(value)
        except RecursionError:  # nested past Python's limit: describe, don't print
            text = f"<{type(value).__name__} nested too deeply to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data, several times faster than ``copy.deepcopy``; anything
    that is not plain JSON inside is deep-copied as before."""
    kind = type(value)
    if kind is dict:
        return {key: copy_json(item) for key, item in value.items()}
    if kind is list:
        return [copy_json(item) for item in value]
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    return copy.deepcopy(value)
