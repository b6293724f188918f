"""``type`` (with OpenAPI ``nullable``): which instance types a node accepts."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import Node, type_set
from toollens.core.diff.rules.descriptions import opaque
from toollens.core.diff.rules.registry import (
    ADDED,
    BREAKING,
    CHANGED,
    COMPATIBLE,
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
