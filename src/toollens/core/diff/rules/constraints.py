"""Constraints on a value: bounds, ``multipleOf``, ``pattern``, ``format``, ``uniqueItems``.

A tightened constraint is breaking, a loosened one compatible.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from fractions import Fraction

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import Node
from toollens.core.diff.rules.descriptions import opaque
from toollens.core.diff.rules.registry import (
    ADDED,
    BREAKING,
    CHANGED,
    COMPATIBLE,
    REMOVED,
    presence,
    rule_for,
    rule_for_each,
    simple,
)
from toollens.core.diff.walk import Entry, Walk
from toollens.core.schema.toolkit import (
    preview_json,
)

RULES: list[Entry] = []
_rule = functools.partial(rule_for, RULES)
_register_each = functools.partial(rule_for_each, RULES)


LOWER_BOUNDS = (
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
)
UPPER_BOUNDS = (
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
)


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bound(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    found = presence(old, new, keyword)
    if found is None:
        return
    kind, pointer, before, after = found
    present = {ADDED: (after,), REMOVED: (before,)}.get(kind, (before, after))
    if not all(is_number(v) for v in present):
        # draft-4 boolean exclusiveMinimum and malformed values (a `null` bound included)
        yield from opaque(walk, old, new, keyword)
        return
    if kind is not CHANGED:  # a new bound restricts, a dropped one frees
        why = " (new restriction)" if kind is ADDED else ""
        yield from simple(
            old, new, keyword, added=BREAKING, removed=COMPATIBLE, changed=BREAKING, why=why
        )
        return
    tighter = after > before if keyword in LOWER_BOUNDS else after < before
    verb = "raised" if after > before else "lowered"
    yield SchemaChange(
        pointer=pointer,
        kind=kind,
        keyword=keyword,
        before=before,
        after=after,
        severity=BREAKING if tighter else COMPATIBLE,
        message=f"{verb} from {preview_json(before)} to {preview_json(after)} "
        f"({'tightened' if tighter else 'loosened'})",
    )


_register_each(_bound, *LOWER_BOUNDS, *UPPER_BOUNDS)


@_rule("multipleOf")
def _multiple_of(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    found = presence(old, new, keyword)
    if found is None:
        return
    kind, pointer, before, after = found
    if kind is not CHANGED or not (is_number(before) and is_number(after)) or after == 0:
        yield from simple(old, new, keyword, added=BREAKING, removed=COMPATIBLE, changed=BREAKING)
        return
    # Loosened when every multiple of the old step is a multiple of the new one.
    ratio = Fraction(before) / Fraction(after)
    loosened = ratio.denominator == 1
    yield SchemaChange(
        pointer=pointer,
        kind=kind,
        keyword=keyword,
        before=before,
        after=after,
        severity=COMPATIBLE if loosened else BREAKING,
        message=f"changed from {preview_json(before)} to {preview_json(after)}"
        f" ({'loosened' if loosened else 'old multiples may be rejected'})",
    )


def _restriction(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    yield from simple(old, new, keyword, added=BREAKING, removed=COMPATIBLE, changed=BREAKING)


_register_each(_restriction, "pattern", "format")


@_rule("uniqueItems")
def _unique_items(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    found = presence(old, new, keyword)
    unique_before, unique_after = old.schema.get(keyword) is True, new.schema.get(keyword) is True
    if found is None or unique_before == unique_after:
        return  # false and absent mean the same
    kind, pointer, before, after = found
    yield SchemaChange(
        pointer=pointer,
        kind=kind,
        keyword=keyword,
        before=before,
        after=after,
        severity=BREAKING if unique_after else COMPATIBLE,
        message="items must now be unique" if unique_after else "items no longer need to be unique",
    )
