"""Objects: ``properties`` with ``required`` (added, removed, renamed, newly required),
and ``patternProperties``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import NEW, OLD, Node
from toollens.core.diff.rules.descriptions import opaque
from toollens.core.diff.rules.registry import (
    BREAKING,
    CHANGED,
    COMPATIBLE,
    MOVED,
    RuleList,
    addition,
    removal,
)
from toollens.core.diff.walk import Walk
from toollens.core.schema.toolkit import preview_json
from toollens.core.schema.types import JsonMapping

RULES = RuleList()


def _properties_of(node: Node) -> JsonMapping:
    value = node.schema.get("properties", {})
    if not isinstance(value, Mapping):
        raise ValueError(value)
    return value


def _required_of(node: Node) -> frozenset[str]:
    value = node.schema.get("required", [])
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise ValueError(value)
    return frozenset(value)


@dataclass(frozen=True)
class _ObjectPair:
    """The two sides of an object keyword pair: declared properties and required names."""

    walk: Walk
    old: Node
    new: Node
    old_props: JsonMapping
    new_props: JsonMapping
    old_req: frozenset[str]
    new_req: frozenset[str]

    def prop(self, side: int, name: str) -> Node:
        node, props = (self.old, self.old_props) if side == OLD else (self.new, self.new_props)
        return self.walk.node(side, props[name], node.child("properties", name))


@RULES.rule("properties", "required")
def _properties(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    try:
        pair = _ObjectPair(
            walk,
            old,
            new,
            _properties_of(old),
            _properties_of(new),
            _required_of(old),
            _required_of(new),
        )
    except ValueError:
        yield from opaque(walk, old, new, "properties")
        yield from opaque(walk, old, new, "required")
        return
    yield from _kept(pair)
    gone = [n for n in pair.old_props if n not in pair.new_props]
    fresh = [n for n in pair.new_props if n not in pair.old_props]
    renamed = _renames(pair, gone, fresh)
    for old_name, new_name in renamed.items():
        yield _renamed(pair, old_name, new_name)
    yield from (_removed(pair, name) for name in gone if name not in renamed)
    yield from (_added(pair, name) for name in fresh if name not in renamed.values())
    yield from _undeclared_required(pair)


def _kept(pair: _ObjectPair) -> Iterator[SchemaChange]:
    """Changes inside properties on both sides, and to whether they are required."""
    for name in pair.old_props:
        if name not in pair.new_props:
            continue
        yield from pair.walk.compare(pair.prop(OLD, name), pair.prop(NEW, name))
        was, now = name in pair.old_req, name in pair.new_req
        if was != now:
            yield SchemaChange(
                pointer=pair.new.child("properties", name),
                kind=CHANGED,
                keyword="required",
                before=was,
                after=now,
                severity=BREAKING if now else COMPATIBLE,
                message="became required" if now else "no longer required",
            )


def _renames(pair: _ObjectPair, gone: list[str], fresh: list[str]) -> dict[str, str]:
    """Old name -> new name for each property that only changed its name.

    A rename is the same schema, equally required, under a new name; first fit in order,
    so the k-th of equal properties on one side pairs with the k-th on the other.
    """
    renamed: dict[str, str] = {}
    for old_name in gone:
        for new_name in fresh:
            if new_name in renamed.values() or (old_name in pair.old_req) != (
                new_name in pair.new_req
            ):
                continue
            if pair.walk.equal(pair.prop(OLD, old_name), pair.prop(NEW, new_name)):
                renamed[old_name] = new_name
                break
    return renamed


def _renamed(pair: _ObjectPair, old_name: str, new_name: str) -> SchemaChange:
    after = pair.new.child("properties", new_name)
    return SchemaChange(
        pointer=after,
        kind=MOVED,
        keyword="properties",
        before=pair.old.child("properties", old_name),
        after=after,
        severity=BREAKING,
        message=f"property {preview_json(old_name)} renamed to {preview_json(new_name)}",
    )


def _removed(pair: _ObjectPair, name: str) -> SchemaChange:
    was = " (it was required)" if name in pair.old_req else ""
    return removal(
        pair.old.child("properties", name),
        "properties",
        pair.old_props[name],
        BREAKING,
        f"property {preview_json(name)} removed{was}",
    )


def _added(pair: _ObjectPair, name: str) -> SchemaChange:
    required = name in pair.new_req
    return addition(
        pair.new.child("properties", name),
        "properties",
        pair.new_props[name],
        BREAKING if required else COMPATIBLE,
        f"new {'required' if required else 'optional'} property {preview_json(name)}",
    )


def _undeclared_required(pair: _ObjectPair) -> Iterator[SchemaChange]:
    """`required` may name properties that `properties` does not declare."""
    declared = set(pair.old_props) | set(pair.new_props)
    for name in sorted(pair.new_req - pair.old_req - declared):
        shown = preview_json(name)
        yield addition(
            pair.new.at("required"), "required", name, BREAKING, f"{shown} is now required"
        )
    for name in sorted(pair.old_req - pair.new_req - declared):
        shown = preview_json(name)
        message = f"{shown} is no longer required"
        yield removal(pair.old.at("required"), "required", name, COMPATIBLE, message)


@RULES.rule("patternProperties")
def _pattern_properties(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    before, after = old.schema.get(keyword, {}), new.schema.get(keyword, {})
    if not (isinstance(before, Mapping) and isinstance(after, Mapping)):
        yield from opaque(walk, old, new, keyword)
        return
    for pattern, raw in before.items():
        pointer = old.child(keyword, pattern)
        shown = preview_json(pattern)
        if pattern in after:
            yield from walk.compare(
                walk.node(OLD, raw, pointer),
                walk.node(NEW, after[pattern], new.child(keyword, pattern)),
            )
        else:
            message = f"properties matching {shown} no longer constrained"
            yield removal(pointer, keyword, raw, COMPATIBLE, message)
    for pattern, raw in after.items():
        if pattern not in before:
            message = f"properties matching {preview_json(pattern)} now constrained"
            yield addition(new.child(keyword, pattern), keyword, raw, BREAKING, message)
