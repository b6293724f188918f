"""Constraints on a value: bounds, ``multipleOf``, ``pattern``, ``format``, ``uniqueItems``.

A tightened constraint is breaking, a loosened one compatible.
"""

from __future__ import annotations

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
    RuleList,
    presence,
    restricting,
)
from toollens.core.diff.walk import Walk
from toollens.core.schema.toolkit import preview_json

RULES = RuleList()


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
    before, after = found.before, found.after
    present = {ADDED: (after,), REMOVED: (before,)}.get(found.kind, (before, after))
    if not all(is_number(v) for v in present):
        # draft-4 boolean exclusiveMinimum and malformed values (a `null` bound included)
        yield from opaque(walk, old, new, keyword)
        return
    if found.kind is not CHANGED:  # a new bound restricts, a dropped one frees
        why = " (new restriction)" if found.kind is ADDED else ""
        yield from restricting(walk, old, new, keyword, why=why)
        return
    tighter = after > before if keyword in LOWER_BOUNDS else after < before
    verb = "raised" if after > before else "lowered"
    yield found.change(
        BREAKING if tighter else COMPATIBLE,
        f"{verb} from {preview_json(before)} to {preview_json(after)} "
        f"({'tightened' if tighter else 'loosened'})",
    )


RULES.each(_bound, *LOWER_BOUNDS, *UPPER_BOUNDS)


@RULES.rule("multipleOf")
def _multiple_of(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    found = presence(old, new, keyword)
    if found is None:
        return
    before, after = found.before, found.after
    if found.kind is not CHANGED or not (is_number(before) and is_number(after)) or after == 0:
        yield from restricting(walk, old, new, keyword)
        return
    # Loosened when every multiple of the old step is a multiple of the new one.
    ratio = Fraction(before) / Fraction(after)
    loosened = ratio.denominator == 1
    yield found.change(
        COMPATIBLE if loosened else BREAKING,
        f"changed from {preview_json(before)} to {preview_json(after)}"
        f" ({'loosened' if loosened else 'old multiples may be rejected'})",
    )


RULES.each(restricting, "pattern", "format")


@RULES.rule("uniqueItems")
def _unique_items(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    found = presence(old, new, keyword)
    unique_before, unique_after = old.schema.get(keyword) is True, new.schema.get(keyword) is True
    if found is None or unique_before == unique_after:
        return  # false and absent mean the same
    yield found.change(
        BREAKING if unique_after else COMPATIBLE,
        "items must now be unique" if unique_after else "items no longer need to be unique",
    )
