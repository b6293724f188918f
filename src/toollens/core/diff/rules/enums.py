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
