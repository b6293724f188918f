"""Structural rules of the schema diff: properties, arrays, and anyOf/oneOf/allOf branches.

Each rule recurses into subschemas through :meth:`Walk.compare`; branches are paired
with :func:`match_branches` before they are compared.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from toollens.core.diff_rules import (
    ADDED,
    BREAKING,
    CHANGED,
    COMPATIBLE,
    MOVED,
    REMOVED,
    accepts,
    get,
    opaque,
    rule_for,
    rule_for_each,
    simple,
)
from toollens.core.diff_walk import (
    ABSENT,
    EMPTY_TAG,
    NEW,
    OLD,
    Entry,
    Node,
    SchemaChange,
    Walk,
    same,
    type_set,
)
from toollens.core.schema.toolkit import preview_json

#: The structural rules, as table entries.
SHAPE_RULES: list[Entry] = []
_rule = functools.partial(rule_for, SHAPE_RULES)
_register_each = functools.partial(rule_for_each, SHAPE_RULES)


# -- objects ----------------------------------------------------------------------------


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


# -- open-by-default subschemas: additionalProperties, items, ... ------------------------

_OPEN_NOUNS = {
    "additionalProperties": "extra properties",
    "unevaluatedProperties": "unevaluated properties",
    "propertyNames": "property names",
    "items": "array items",
    "additionalItems": "extra array items",
    "unevaluatedItems": "unevaluated array items",
}


@_rule("items")
def _items(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    before, after = get(old, keyword), get(new, keyword)
    if isinstance(before, list) or isinstance(after, list):  # draft <= 7 tuple form
        yield from _positional(walk, old, new, keyword)
    else:
        yield from _open_subschema(walk, old, new, keyword)


def _open_subschema(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    """A subschema where absent, ``true`` and ``{}`` all mean "anything goes"."""
    before, after = get(old, keyword), get(new, keyword)
    noun = _OPEN_NOUNS.get(keyword, keyword)

    def state(value: Any) -> str:
        if value is ABSENT or value is True or value == {}:
            return "open"
        if value is False:
            return "closed"
        return "schema" if isinstance(value, Mapping) else "invalid"

    old_state, new_state = state(before), state(after)
    if "invalid" in (old_state, new_state):
        yield from opaque(walk, old, new, keyword)
        return
    kind = ADDED if before is ABSENT else REMOVED if after is ABSENT else CHANGED
    pointer = old.at(keyword) if kind is REMOVED else new.at(keyword)
    shown_before = None if before is ABSENT else before
    shown_after = None if after is ABSENT else after
    if old_state == new_state == "open":
        return
    if new_state == "closed" and old_state != "closed":
        yield SchemaChange(
            pointer,
            kind,
            keyword,
            shown_before,
            shown_after,
            BREAKING,
            f"{noun} are no longer accepted",
        )
    elif old_state == "closed" and new_state != "closed":
        what = "any" if new_state == "open" else "schema-valid"
        yield SchemaChange(
            pointer,
            kind,
            keyword,
            shown_before,
            shown_after,
            COMPATIBLE,
            f"{noun} are accepted again ({what})",
        )
    elif old_state == "closed":
        return
    else:
        yield from walk.compare(
            _subschema(walk, OLD, old, keyword, old_state),
            _subschema(walk, NEW, new, keyword, new_state),
        )


def _subschema(walk: Walk, side: int, node: Node, keyword: str, state: str) -> Node:
    if state == "open":  # absent or true: the empty schema, one identity wherever it sits
        return Node({}, node.child(keyword), tag=EMPTY_TAG)
    return walk.node(side, node.schema[keyword], node.child(keyword))


_register_each(
    _open_subschema,
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "additionalItems",
    "unevaluatedItems",
)


@_rule("prefixItems")
def _positional(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    before, after = old.schema.get(keyword, []), new.schema.get(keyword, [])
    if not (isinstance(before, list) and isinstance(after, list)):
        yield from opaque(walk, old, new, keyword)
        return
    for index in range(max(len(before), len(after))):
        if index < len(before) and index < len(after):
            yield from walk.compare(
                walk.node(OLD, before[index], old.child(keyword, index)),
                walk.node(NEW, after[index], new.child(keyword, index)),
            )
        elif index < len(after):
            yield SchemaChange(
                new.child(keyword, index),
                ADDED,
                keyword,
                None,
                after[index],
                BREAKING,
                f"array position {index} now constrained",
            )
        else:
            yield SchemaChange(
                old.child(keyword, index),
                REMOVED,
                keyword,
                before[index],
                None,
                COMPATIBLE,
                f"array position {index} no longer constrained",
            )


# -- alternatives: anyOf / oneOf / allOf -------------------------------------------------


def _branches(walk: Walk, side: int, node: Node, keyword: str) -> list[Node] | None:
    if node.branches is not None and keyword in node.schema:
        return list(node.branches)
    raw = node.schema.get(keyword, [])
    if not isinstance(raw, list):
        return None
    return [walk.node(side, item, node.child(keyword, i)) for i, item in enumerate(raw)]


def _similarity(a: Node, b: Node) -> int:
    """How alike two branches look; symmetric, 0 when they share nothing."""
    score = 0
    try:
        types_a, types_b = type_set(a.schema), type_set(b.schema)
    except ValueError:
        types_a = types_b = None
    if types_a is not None and types_b is not None:
        if types_a == types_b:
            score += 4
        elif any(accepts(types_b, t) for t in types_a) or any(accepts(types_a, t) for t in types_b):
            score += 2
    title_a, title_b = a.schema.get("title"), b.schema.get("title")
    if title_a is not None and same(title_a, title_b):
        score += 3
    name_a, name_b = _definition_name(a.home), _definition_name(b.home)
    if name_a is not None and name_a == name_b:
        score += 2
    props_a, props_b = a.schema.get("properties"), b.schema.get("properties")
    if (
        isinstance(props_a, Mapping)
        and isinstance(props_b, Mapping)
        and set(props_a) & set(props_b)
    ):
        score += 1
    return score


def _definition_name(pointer: str) -> str | None:
    parts = pointer.split("/")
    if len(parts) == 3 and parts[1] in ("$defs", "definitions"):
        return parts[2]
    return None


def match_branches(
    walk: Walk, old: Sequence[Node], new: Sequence[Node]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pair old with new branches: equal ones first, then the most alike.

    Returns the pairs and the unpaired old and new indexes. The result does not depend on
    which side is called old, so ``diff(b, a)`` mirrors ``diff(a, b)``.
    """
    pairs: list[tuple[int, int]] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for i, old_branch in enumerate(old):
        for j, new_branch in enumerate(new):
            if j not in used_new and walk.equal(old_branch, new_branch):
                pairs.append((i, j))
                used_old.add(i)
                used_new.add(j)
                break
    candidates = sorted(
        (-score, i + j, abs(i - j), i, j)
        for i in range(len(old))
        if i not in used_old
        for j in range(len(new))
        if j not in used_new and (score := _similarity(old[i], new[j])) > 0
    )
    for _, _, _, i, j in candidates:
        if i not in used_old and j not in used_new:
            pairs.append((i, j))
            used_old.add(i)
            used_new.add(j)
    gone = [i for i in range(len(old)) if i not in used_old]
    fresh = [j for j in range(len(new)) if j not in used_new]
    return sorted(pairs), gone, fresh


def _alternatives(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    conjunction = keyword == "allOf"  # every branch must hold: adding one narrows
    before, after = _branches(walk, OLD, old, keyword), _branches(walk, NEW, new, keyword)
    if before is None or after is None:
        yield from opaque(walk, old, new, keyword)
        return
    if keyword not in old.schema or keyword not in new.schema:
        # One side has no such keyword (and lifting did not apply, e.g. anyOf vs oneOf).
        yield from simple(old, new, keyword, added=BREAKING, removed=COMPATIBLE, changed=BREAKING)
        return
    pairs, gone, fresh = match_branches(walk, before, after)
    for i, j in pairs:
        yield from walk.compare(before[i], after[j])
    lifted_old, lifted_new = old.branches is not None, new.branches is not None
    for i in gone:
        pointer = old.home if lifted_old else old.child(keyword, i)
        yield SchemaChange(
            pointer,
            REMOVED,
            keyword,
            dict(before[i].schema),
            None,
            COMPATIBLE if conjunction else BREAKING,
            "a required subschema removed"
            if conjunction
            else "an alternative removed; values only it accepted are rejected",
        )
    for j in fresh:
        pointer = new.home if lifted_new else new.child(keyword, j)
        yield SchemaChange(
            pointer,
            ADDED,
            keyword,
            None,
            dict(after[j].schema),
            BREAKING if conjunction else COMPATIBLE,
            "a required subschema added" if conjunction else "a new alternative accepted",
        )


_register_each(_alternatives, "anyOf", "oneOf", "allOf")


def _subschema_opaque(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    # `not`, `if`/`then`/`else` and `contains` flip or condition what they constrain, so a
    # narrowing inside may widen the whole: compare them as values.
    yield from opaque(walk, old, new, keyword)


_register_each(
    _subschema_opaque,
    "not",
    "if",
    "then",
    "else",
    "contains",
    "dependentSchemas",
    "dependentRequired",
    "dependencies",
)


__all__ = ["SHAPE_RULES", "match_branches"]
