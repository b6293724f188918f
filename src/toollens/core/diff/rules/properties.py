"""Objects: ``properties`` with ``required`` (added, removed, renamed, newly required),
and ``patternProperties``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import NEW, OLD, Node
from toollens.core.diff.rules.descriptions import opaque
from toollens.core.diff.rules.registry import (
    ADDED,
    BREAKING,
    CHANGED,
    COMPATIBLE,
    MOVED,
    REMOVED,
    rule_for,
    rule_for_each,
)
from toollens.core.diff.walk import Entry, Walk
from toollens.core.schema.toolkit import (
    preview_json,
)

RULES: list[Entry] = []
_rule = functools.partial(rule_for, RULES)
_register_each = functools.partial(rule_for_each, RULES)


def _properties_of(node: Node) -> Mapping[str, Any]:
    value = node.schema.get("properties", {})
    if not isinstance(value, Mapping):
        raise ValueError(value)
    return value


def _required_of(node: Node) -> frozenset[str]:
    value = node.schema.get("required", [])
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise ValueError(value)
    return frozenset(value)


@_rule("properties", "required")
def _properties(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    try:
        old_props, new_props = _properties_of(old), _properties_of(new)
        old_req, new_req = _required_of(old), _required_of(new)
    except ValueError:
        yield from opaque(walk, old, new, "properties")
        yield from opaque(walk, old, new, "required")
        return

    def prop(side: int, node: Node, name: str) -> Node:
        props = old_props if side == OLD else new_props
        return walk.node(side, props[name], node.child("properties", name))

    for name in old_props:
        if name not in new_props:
            continue
        yield from walk.compare(prop(OLD, old, name), prop(NEW, new, name))
        pointer = new.child("properties", name)
        if name in new_req and name not in old_req:
            yield SchemaChange(
                pointer, CHANGED, "required", False, True, BREAKING, "became required"
            )
        elif name in old_req and name not in new_req:
            yield SchemaChange(
                pointer, CHANGED, "required", True, False, COMPATIBLE, "no longer required"
            )

    gone = [n for n in old_props if n not in new_props]
    fresh = [n for n in new_props if n not in old_props]
    # A rename is the same schema, equally required, under a new name; first fit in order,
    # so the k-th of equal properties on one side pairs with the k-th on the other.
    renamed: dict[str, str] = {}
    for old_name in gone:
        for new_name in fresh:
            if new_name in renamed.values() or (old_name in old_req) != (new_name in new_req):
                continue
            if walk.equal(prop(OLD, old, old_name), prop(NEW, new, new_name)):
                renamed[old_name] = new_name
                break
    for old_name, new_name in renamed.items():
        before, after = old.child("properties", old_name), new.child("properties", new_name)
        yield SchemaChange(
            after,
            MOVED,
            "properties",
            before,
            after,
            BREAKING,
            f"property {preview_json(old_name)} renamed to {preview_json(new_name)}",
        )
    for name in gone:
        if name not in renamed:
            was = " (it was required)" if name in old_req else ""
            yield SchemaChange(
                old.child("properties", name),
                REMOVED,
                "properties",
                old_props[name],
                None,
                BREAKING,
                f"property {preview_json(name)} removed{was}",
            )
    for name in fresh:
        if name not in renamed.values():
            required = name in new_req
            yield SchemaChange(
                new.child("properties", name),
                ADDED,
                "properties",
                None,
                new_props[name],
                BREAKING if required else COMPATIBLE,
                f"new {'required' if required else 'optional'} property {preview_json(name)}",
            )
    # `required` may name properties that `properties` does not declare.
    declared = set(old_props) | set(new_props)
    for name in sorted(new_req - old_req - declared):
        yield SchemaChange(
            new.at("required"),
            ADDED,
            "required",
            None,
            name,
            BREAKING,
            f"{preview_json(name)} is now required",
        )
    for name in sorted(old_req - new_req - declared):
        yield SchemaChange(
            old.at("required"),
            REMOVED,
            "required",
            name,
            None,
            COMPATIBLE,
            f"{preview_json(name)} is no longer required",
        )


@_rule("patternProperties")
def _pattern_properties(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    before, after = old.schema.get(keyword, {}), new.schema.get(keyword, {})
    if not (isinstance(before, Mapping) and isinstance(after, Mapping)):
        yield from opaque(walk, old, new, keyword)
        return
    for pattern, raw in before.items():
        pointer = old.child(keyword, pattern)
        if pattern in after:
            yield from walk.compare(
                walk.node(OLD, raw, pointer),
                walk.node(NEW, after[pattern], new.child(keyword, pattern)),
            )
        else:
            yield SchemaChange(
                pointer,
                REMOVED,
                keyword,
                raw,
                None,
                COMPATIBLE,
                f"properties matching {preview_json(pattern)} no longer constrained",
            )
    for pattern, raw in after.items():
        if pattern not in before:
            yield SchemaChange(
                new.child(keyword, pattern),
                ADDED,
                keyword,
                None,
                raw,
                BREAKING,
                f"properties matching {preview_json(pattern)} now constrained",
            )
