"""``enum`` and ``const``: a removed value breaks callers, a new value is compatible."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import Node, canon
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
            pointer=new.at(word),
            kind=ADDED,
            keyword=word,
            before=None,
            after=after,
            severity=BREAKING,
            message=f"now restricted to {preview_json(after)}",
        )
        return
    if after is None:
        yield SchemaChange(
            pointer=old.at(word),
            kind=REMOVED,
            keyword=word,
            before=before,
            after=None,
            severity=COMPATIBLE,
            message=f"restriction to {preview_json(before)} removed",
        )
        return
    if word == "const":
        if canon(before[0]) != canon(after[0]):
            yield SchemaChange(
                pointer=new.at(word),
                kind=CHANGED,
                keyword=word,
                before=before[0],
                after=after[0],
                severity=BREAKING,
                message=f"changed from {preview_json(before[0])} to {preview_json(after[0])}",
            )
        return
    yield from _value_changes(old, new, before, after)


def _value_changes(
    old: Node, new: Node, before: list[Any], after: list[Any]
) -> Iterator[SchemaChange]:
    """A removed value breaks callers that sent it; an added one rejects no old call."""
    old_values = {canon(v): v for v in before}
    new_values = {canon(v): v for v in after}
    for key, value in old_values.items():
        if key not in new_values:
            yield SchemaChange(
                pointer=old.at("enum"),
                kind=REMOVED,
                keyword="enum",
                before=value,
                after=None,
                severity=BREAKING,
                message=f"value {preview_json(value)} removed",
            )
    for key, value in new_values.items():
        if key not in old_values:
            yield SchemaChange(
                pointer=new.at("enum"),
                kind=ADDED,
                keyword="enum",
                before=None,
                after=value,
                severity=COMPATIBLE,
                message=f"value {preview_json(value)} added",
            )
