"""Walking a JSON schema: every subschema position, iteratively and bounded.

The shared walker of the provider rules (and of the linter). A schema built in Python may
contain itself (``d["properties"]["a"] = d``) or nest thousands of levels deep; the walk
stops at a cycle and at ``PROVIDER_CHECK_DEPTH``, so callers see findings, never
``RecursionError`` or a hang.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from toollens.core.schema.pointer import (
    LinkedPath,
    UnresolvedRef,
    escape_token,
    join_pointer,
    split_pointer,
)
from toollens.core.schema.pointer import resolve_local as resolve_pointer
from toollens.core.schema.toolkit import (
    DEFINITION_KEYWORDS,
    FINDING_PREVIEW,
    PROVIDER_CHECK_DEPTH,
    SCHEMA_LIST_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    SCHEMA_VALUE_KEYWORDS,
    copy_json,
    preview_json,
)
from toollens.core.schema.types import JsonMapping, JsonValue

__all__ = [
    "DEFINITION_KEYS",
    "SchemaNode",
    "copy_json",
    "is_array_node",
    "is_object_node",
    "iter_child_paths",
    "iter_children",
    "iter_schema_nodes",
    "resolve_local",
    "show",
    "split_pointer",
]

DEFINITION_KEYS = DEFINITION_KEYWORDS
MAX_NODES = 100_000  # a walk stops here; the checks report on what they saw


class SchemaNode(NamedTuple):
    """One subschema position in a schema (a named tuple: the walk makes one per node).

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


# Sets, for the membership tests the walk makes on every key of every node.
_MAP_KEYWORDS = frozenset(SCHEMA_MAP_KEYWORDS)
_LIST_KEYWORDS = frozenset(SCHEMA_LIST_KEYWORDS)
_VALUE_KEYWORDS = frozenset(SCHEMA_VALUE_KEYWORDS)


def iter_children(value: object, pointer: str) -> Iterator[tuple[str, str, JsonValue]]:
    """``(keyword, pointer, child)`` for every subschema directly under ``value``.

    Boolean subschemas (``additionalProperties: false``) are not yielded: they are values,
    not nodes with keywords of their own.
    """
    if not isinstance(value, dict):
        return
    for key, child in value.items():
        if key in _MAP_KEYWORDS and isinstance(child, dict):
            base = join_pointer(pointer, key) + "/"
            for name, sub in child.items():
                if not isinstance(sub, bool):
                    yield key, base + escape_token(name), sub
        elif key in _LIST_KEYWORDS and isinstance(child, list):
            base = join_pointer(pointer, key) + "/"
            for index, sub in enumerate(child):
                if not isinstance(sub, bool):
                    yield key, base + str(index), sub
        elif key in _VALUE_KEYWORDS and isinstance(child, dict):
            yield key, join_pointer(pointer, key), child


def iter_child_paths(
    value: object, path: LinkedPath
) -> Iterator[tuple[str, LinkedPath, JsonValue]]:
    """``iter_children`` with linked paths instead of pointers: for walks that report few
    nodes and so build a pointer (``linked_pointer``) only for those."""
    if not isinstance(value, dict):
        return
    for key, child in value.items():
        if key in _MAP_KEYWORDS and isinstance(child, dict):
            base = (path, key)
            for name, sub in child.items():
                if not isinstance(sub, bool):
                    yield key, (base, name), sub
        elif key in _LIST_KEYWORDS and isinstance(child, list):
            base = (path, key)
            for index, sub in enumerate(child):
                if not isinstance(sub, bool):
                    yield key, (base, index), sub
        elif key in _VALUE_KEYWORDS and isinstance(child, dict):
            yield key, (path, key), child


_EXIT = object()  # stack marker: the walk leaves a node, so it is no longer an ancestor


def iter_schema_nodes(schema: object, *, max_nodes: int = MAX_NODES) -> Iterator[SchemaNode]:
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
        if node.depth >= PROVIDER_CHECK_DEPTH or not isinstance(node.value, dict):
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


_WHY = {
    "not-a-string": "is not a string",
    "remote": "is not a local reference (toollens never downloads schemas)",
    "anchor": "uses an anchor, not a JSON pointer",
    "bad-escape": "has invalid %-escapes",
    "missing": "points at nothing in this schema",
}


def resolve_local(schema: object, ref: object) -> tuple[str | None, object]:
    """Resolve a local ``$ref``: ``(pointer, target)``, or ``(None, why)`` when it cannot be.

    The one decoding rule of :mod:`toollens.core.schema.pointer` (``%20`` is a space).
    """
    try:
        return resolve_pointer(schema, ref)
    except UnresolvedRef as exc:
        return None, _WHY[exc.problem.value]


def is_object_node(node: JsonMapping) -> bool:
    kind = node.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        return True
    return kind is None and isinstance(node.get("properties"), dict)


def is_array_node(node: JsonMapping) -> bool:
    kind = node.get("type")
    return kind == "array" or (isinstance(kind, list) and "array" in kind)


def show(value: object, limit: int = FINDING_PREVIEW) -> str:
    """A short JSON rendering of an offending value for a finding's message."""
    return preview_json(value, limit)
