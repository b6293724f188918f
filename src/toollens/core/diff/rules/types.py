"""``type`` (with OpenAPI ``nullable``): which instance types a node accepts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import Node, type_set
from toollens.core.diff.rules.descriptions import opaque
from toollens.core.diff.rules.registry import (
    BREAKING,
    CHANGED,
    COMPATIBLE,
    RuleList,
    one_sided_restriction,
)
from toollens.core.diff.walk import Walk
from toollens.core.schema.toolkit import preview_json

RULES = RuleList()


def accepts(types: frozenset[str], instance_type: str) -> bool:
    return instance_type in types or (instance_type == "integer" and "number" in types)


def _show_types(types: frozenset[str] | None) -> Any:
    if types is None:
        return None
    ordered = sorted(types)
    return ordered[0] if len(ordered) == 1 else ordered


@RULES.rule("type", "nullable")
def _type(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    try:
        before, after = type_set(old.schema), type_set(new.schema)
    except ValueError:
        yield from opaque(walk, old, new, "type")
        return
    if before == after:
        return
    old_shown, new_shown = _show_types(before), _show_types(after)
    if before is None or after is None:
        yield one_sided_restriction(old, new, "type", old_shown, new_shown, noun="type ")
        return
    lost = {t for t in before if not accepts(after, t)}
    gained = {t for t in after if not accepts(before, t)}
    verb = "changed" if lost and gained else "narrowed" if lost else "widened"
    yield SchemaChange(
        pointer=new.at("type") if "type" in new.schema else new.at("nullable"),
        kind=CHANGED,
        keyword="type",
        before=old_shown,
        after=new_shown,
        severity=BREAKING if lost else COMPATIBLE,
        message=f"{verb} from {preview_json(old_shown)} to {preview_json(new_shown)}",
    )
