"""``enum`` and ``const``: a removed value breaks callers, a new value is compatible."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import Node, canon
from toollens.core.diff.rules.descriptions import opaque
from toollens.core.diff.rules.registry import (
    BREAKING,
    CHANGED,
    COMPATIBLE,
    RuleList,
    addition,
    one_sided_restriction,
    removal,
)
from toollens.core.diff.walk import Walk
from toollens.core.schema.toolkit import preview_json

RULES = RuleList()


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


@RULES.rule("enum", "const")
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
    if before is None or after is None:
        yield one_sided_restriction(old, new, word, before, after)
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
            shown = preview_json(value)
            yield removal(old.at("enum"), "enum", value, BREAKING, f"value {shown} removed")
    for key, value in new_values.items():
        if key not in old_values:
            shown = preview_json(value)
            yield addition(new.at("enum"), "enum", value, COMPATIBLE, f"value {shown} added")
