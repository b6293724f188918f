"""Value rules of the schema diff (types, enums, bounds, annotations) and shared helpers.

Each rule is a small generator ``rule(walk, old, new, keyword)`` that yields the changes
for the keyword(s) it owns. Rules that must read several keywords together (``properties``
with ``required``, ``type`` with ``nullable``, ``enum`` with ``const``) are registered as a
group and run once. A keyword nobody registered is compared as an opaque value
(:func:`opaque`). The table is checked when built: a keyword has one owner.

Severity is decided from the point of view of a caller whose calls (and a model whose
prompt) were made against the old schema: *breaking* if a call that used to be valid may
now be rejected or callers must change, *compatible* if every valid call stays valid,
*description-only* if only text the model reads changed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from toollens.core.diff_walk import (
    ABSENT,
    ChangeKind,
    DiffSeverity,
    Entry,
    Node,
    Rule,
    SchemaChange,
    Walk,
    canon,
    same,
    type_set,
)
from toollens.core.schema.toolkit import preview_json

BREAKING = DiffSeverity.BREAKING
COMPATIBLE = DiffSeverity.COMPATIBLE
DESCRIPTION_ONLY = DiffSeverity.DESCRIPTION_ONLY
ADDED, REMOVED, CHANGED, MOVED = (
    ChangeKind.ADDED,
    ChangeKind.REMOVED,
    ChangeKind.CHANGED,
    ChangeKind.MOVED,
)

#: The value rules, as table entries; ``diff_shapes.SHAPE_RULES`` holds the structural ones.
VALUE_RULES: list[Entry] = []
#: Never compared directly: refs are followed, definitions are reached through refs.
SKIPPED = ("$ref", "$defs", "definitions")


def rule_for(entries: list[Entry], *keywords: str) -> Callable[[Rule], Rule]:
    """Decorator adding a rule for ``keywords`` (read together, run once) to ``entries``."""

    def register(rule: Rule) -> Rule:
        entries.append((keywords, rule))
        return rule

    return register


def rule_for_each(entries: list[Entry], rule: Rule, *keywords: str) -> None:
    """Add ``rule`` once per keyword, for rules that handle one keyword at a time."""
    entries.extend(((keyword,), rule) for keyword in keywords)


_rule = functools.partial(rule_for, VALUE_RULES)
_register_each = functools.partial(rule_for_each, VALUE_RULES)


def _skip(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    return iter(())


_register_each(_skip, *SKIPPED)


def get(node: Node, keyword: str) -> Any:
    """The node's value for ``keyword``, or ``ABSENT``."""
    return node.schema.get(keyword, ABSENT)


def presence(old: Node, new: Node, keyword: str) -> tuple[ChangeKind, str, Any, Any] | None:
    """``(kind, pointer, before, after)`` when ``keyword`` differs between the nodes."""
    before, after = get(old, keyword), get(new, keyword)
    if same(before, after):
        return None
    if before is ABSENT:
        return ADDED, new.at(keyword), None, after
    if after is ABSENT:
        return REMOVED, old.at(keyword), before, None
    return CHANGED, new.at(keyword), before, after


def _by_kind(
    kind: ChangeKind, added: DiffSeverity, removed: DiffSeverity, changed: DiffSeverity
) -> DiffSeverity:
    return {ADDED: added, REMOVED: removed}.get(kind, changed)


def simple(
    old: Node,
    new: Node,
    keyword: str,
    *,
    added: DiffSeverity,
    removed: DiffSeverity,
    changed: DiffSeverity,
    why: str = "",
) -> Iterator[SchemaChange]:
    found = presence(old, new, keyword)
    if found is None:
        return
    kind, pointer, before, after = found
    text = {
        ADDED: f"set to {preview_json(after)}",
        REMOVED: f"removed (was {preview_json(before)})",
    }.get(kind, f"changed from {preview_json(before)} to {preview_json(after)}")
    yield SchemaChange(
        pointer,
        kind,
        keyword,
        before,
        after,
        _by_kind(kind, added, removed, changed),
        text + why,
    )


# -- annotations: what the model reads --------------------------------------------------


ANNOTATIONS = (
    "title",
    "description",
    "examples",
    "example",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "$schema",
    "propertyOrdering",
)


def _annotation(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    found = presence(old, new, keyword)
    if found is None:
        return
    kind, pointer, before, after = found
    yield SchemaChange(pointer, kind, keyword, before, after, DESCRIPTION_ONLY, kind.value)


_register_each(_annotation, *ANNOTATIONS)


@_rule("default")
def _default(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    # A default does not validate anything, so no call becomes invalid; but a call that
    # omits the argument now means something else, which is more than wording.
    yield from simple(
        old,
        new,
        keyword,
        added=COMPATIBLE,
        removed=COMPATIBLE,
        changed=COMPATIBLE,
        why="; calls that omit it may behave differently",
    )


def opaque(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    """Keywords toollens does not analyse: any change may break callers."""
    if keyword.startswith("x-"):  # vendor extensions are annotations
        yield from _annotation(walk, old, new, keyword)
        return
    yield from simple(
        old,
        new,
        keyword,
        added=BREAKING,
        removed=BREAKING,
        changed=BREAKING,
        why="; toollens does not analyse this keyword, review it by hand",
    )


# -- types and values -------------------------------------------------------------------


def accepts(types: frozenset[str], instance_type: str) -> bool:
    return instance_type in types or (instance_type == "integer" and "number" in types)


def _show_types(types: frozenset[str]) -> Any:
    ordered = sorted(types)
    return ordered[0] if len(ordered) == 1 else ordered


@_rule("type", "nullable")
def _type(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    try:
        before, after = type_set(old.schema), type_set(new.schema)
    except ValueError:
        yield from opaque(walk, old, new, "type")
        return
    if before == after:
        return
    if before is None:
        assert after is not None
        shown = _show_types(after)
        yield SchemaChange(
            new.at("type"),
            ADDED,
            "type",
            None,
            shown,
            BREAKING,
            f"now restricted to type {preview_json(shown)}",
        )
        return
    if after is None:
        shown = _show_types(before)
        yield SchemaChange(
            old.at("type"),
            REMOVED,
            "type",
            shown,
            None,
            COMPATIBLE,
            f"restriction to {preview_json(shown)} removed",
        )
        return
    lost = {t for t in before if not accepts(after, t)}
    gained = {t for t in after if not accepts(before, t)}
    old_shown, new_shown = _show_types(before), _show_types(after)
    verb = "changed" if lost and gained else "narrowed" if lost else "widened"
    yield SchemaChange(
        new.at("type") if "type" in new.schema else new.at("nullable"),
        CHANGED,
        "type",
        old_shown,
        new_shown,
        BREAKING if lost else COMPATIBLE,
        f"{verb} from {preview_json(old_shown)} to {preview_json(new_shown)}",
    )


def _allowed(node: Node) -> list[Any] | None:
    """The values the node is restricted to by ``const``/``enum``; ``None``: unrestricted."""
    if "const" in node.schema:
        return [node.schema["const"]]
    values = node.schema.get("enum")
    if values is None:
        return None
    if not isinstance(values, list):
        raise ValueError(values)
    return values


@_rule("enum", "const")
def _enum(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    try:
        before, after = _allowed(old), _allowed(new)
    except ValueError:
        yield from opaque(walk, old, new, "enum")
        yield from opaque(walk, old, new, "const")
        return
    word = "const" if "const" in old.schema and "const" in new.schema else "enum"
    if before is None and after is None:
        return
    if before is None:
        assert after is not None
        yield SchemaChange(
            new.at(word),
            ADDED,
            word,
            None,
            after,
            BREAKING,
            f"now restricted to {preview_json(after)}",
        )
        return
    if after is None:
        yield SchemaChange(
            old.at(word),
            REMOVED,
            word,
            before,
            None,
            COMPATIBLE,
            f"restriction to {preview_json(before)} removed",
        )
        return
    old_values = {canon(v): v for v in before}
    new_values = {canon(v): v for v in after}
    if word == "const":
        if old_values.keys() != new_values.keys():
            yield SchemaChange(
                new.at(word),
                CHANGED,
                word,
                before[0],
                after[0],
                BREAKING,
                f"changed from {preview_json(before[0])} to {preview_json(after[0])}",
            )
        return
    for key, value in old_values.items():
        if key not in new_values:
            yield SchemaChange(
                old.at(word),
                REMOVED,
                word,
                value,
                None,
                BREAKING,
                f"value {preview_json(value)} removed",
            )
    for key, value in new_values.items():
        if key not in old_values:
            yield SchemaChange(
                new.at(word),
                ADDED,
                word,
                None,
                value,
                COMPATIBLE,
                f"value {preview_json(value)} added",
            )


# -- constraints ------------------------------------------------------------------------

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


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bound(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    found = presence(old, new, keyword)
    if found is None:
        return
    kind, pointer, before, after = found
    if not all(is_number(v) for v in (before, after) if v is not None):
        # draft-4 boolean exclusiveMinimum and malformed values
        yield from opaque(walk, old, new, keyword)
        return
    if kind is ADDED:
        yield SchemaChange(
            pointer,
            kind,
            keyword,
            None,
            after,
            BREAKING,
            f"set to {preview_json(after)} (new restriction)",
        )
        return
    if kind is REMOVED:
        yield SchemaChange(
            pointer,
            kind,
            keyword,
            before,
            None,
            COMPATIBLE,
            f"removed (was {preview_json(before)})",
        )
        return
    tighter = after > before if keyword in LOWER_BOUNDS else after < before
    verb = "raised" if after > before else "lowered"
    yield SchemaChange(
        pointer,
        kind,
        keyword,
        before,
        after,
        BREAKING if tighter else COMPATIBLE,
        f"{verb} from {preview_json(before)} to {preview_json(after)} "
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
        pointer,
        kind,
        keyword,
        before,
        after,
        COMPATIBLE if loosened else BREAKING,
        f"changed from {preview_json(before)} to {preview_json(after)}"
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
        pointer,
        kind,
        keyword,
        before,
        after,
        BREAKING if unique_after else COMPATIBLE,
        "items must now be unique" if unique_after else "items no longer need to be unique",
    )


@_rule("discriminator")
def _discriminator(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    # OpenAPI annotation; its mapping names $defs entries, which are compared through the
    # branches themselves. Only the tag property matters to callers.
    def tag(node: Node) -> Any:
        value = node.schema.get(keyword)
        return value.get("propertyName") if isinstance(value, Mapping) else value

    before, after = tag(old), tag(new)
    if not same(before, after):
        yield SchemaChange(
            new.at(keyword) if keyword in new.schema else old.at(keyword),
            CHANGED
            if keyword in old.schema and keyword in new.schema
            else ADDED
            if keyword in new.schema
            else REMOVED,
            keyword,
            before,
            after,
            BREAKING,
            f"tag property changed from {preview_json(before)} to {preview_json(after)}",
        )
