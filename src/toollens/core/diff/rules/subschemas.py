"""Open-by-default subschemas (``additionalProperties``, ``items``, ``contains``, ``not``, ...)
and ``prefixItems``: a subschema that appears closes what was open.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import ABSENT, EMPTY_TAG, NEW, OLD, Node
from toollens.core.diff.rules.descriptions import opaque
from toollens.core.diff.rules.registry import (
    BREAKING,
    COMPATIBLE,
    RuleList,
    addition,
    difference,
    get,
    removal,
)
from toollens.core.diff.walk import Walk

RULES = RuleList()


_OPEN_NOUNS = {
    "additionalProperties": "extra properties",
    "unevaluatedProperties": "unevaluated properties",
    "propertyNames": "property names",
    "items": "array items",
    "additionalItems": "extra array items",
    "unevaluatedItems": "unevaluated array items",
}


@RULES.rule("items")
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
    if old_state == new_state == "open":
        return
    if new_state == "closed" and old_state != "closed":
        yield difference(old, new, keyword).change(BREAKING, f"{noun} are no longer accepted")
    elif old_state == "closed" and new_state != "closed":
        what = "any" if new_state == "open" else "schema-valid"
        message = f"{noun} are accepted again ({what})"
        yield difference(old, new, keyword).change(COMPATIBLE, message)
    elif old_state != "closed":
        yield from walk.compare(
            _subschema(walk, OLD, old, keyword, old_state),
            _subschema(walk, NEW, new, keyword, new_state),
        )


def _subschema(walk: Walk, side: int, node: Node, keyword: str, state: str) -> Node:
    if state == "open":  # absent or true: the empty schema, one identity wherever it sits
        return Node({}, node.child(keyword), tag=EMPTY_TAG)
    return walk.node(side, node.schema[keyword], node.child(keyword))


RULES.each(
    _open_subschema,
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "additionalItems",
    "unevaluatedItems",
)


@RULES.rule("prefixItems")
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
            message = f"array position {index} now constrained"
            yield addition(new.child(keyword, index), keyword, after[index], BREAKING, message)
        else:
            message = f"array position {index} no longer constrained"
            yield removal(old.child(keyword, index), keyword, before[index], COMPATIBLE, message)


def _subschema_opaque(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    # `not`, `if`/`then`/`else` and `contains` flip or condition what they constrain, so a
    # narrowing inside may widen the whole: compare them as values.
    yield from opaque(walk, old, new, keyword)


RULES.each(
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
