"""Alternatives: ``anyOf`` / ``oneOf`` / ``allOf`` branches paired by ``match_branches``,
and the OpenAPI ``discriminator``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import NEW, OLD, Node, same, type_set
from toollens.core.diff.rules.descriptions import opaque
from toollens.core.diff.rules.registry import (
    BREAKING,
    COMPATIBLE,
    RuleList,
    addition,
    difference,
    removal,
    restricting,
)
from toollens.core.diff.rules.types import accepts
from toollens.core.diff.walk import Walk
from toollens.core.schema.pointer import split_pointer
from toollens.core.schema.toolkit import preview_json

RULES = RuleList()


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
    tokens = split_pointer(pointer)
    if len(tokens) == 2 and tokens[0] in ("$defs", "definitions"):
        return tokens[1]
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
        yield from restricting(walk, old, new, keyword)
        return
    pairs, gone, fresh = match_branches(walk, before, after)
    for i, j in pairs:
        yield from walk.compare(before[i], after[j])
    lifted_old, lifted_new = old.branches is not None, new.branches is not None
    for i in gone:
        pointer = old.home if lifted_old else old.child(keyword, i)
        severity = COMPATIBLE if conjunction else BREAKING
        message = (
            "a required subschema removed"
            if conjunction
            else "an alternative removed; values only it accepted are rejected"
        )
        yield removal(pointer, keyword, dict(before[i].schema), severity, message)
    for j in fresh:
        pointer = new.home if lifted_new else new.child(keyword, j)
        severity = BREAKING if conjunction else COMPATIBLE
        message = "a required subschema added" if conjunction else "a new alternative accepted"
        yield addition(pointer, keyword, dict(after[j].schema), severity, message)


RULES.each(_alternatives, "anyOf", "oneOf", "allOf")


@RULES.rule("discriminator")
def _discriminator(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    # OpenAPI annotation; its mapping names $defs entries, which are compared through the
    # branches themselves. Only the tag property matters to callers.
    def tag(node: Node) -> Any:
        value = node.schema.get(keyword)
        return value.get("propertyName") if isinstance(value, Mapping) else value

    before, after = tag(old), tag(new)
    if not same(before, after):
        shown = f"from {preview_json(before)} to {preview_json(after)}"
        tags = difference(old, new, keyword)._replace(before=before, after=after)
        yield tags.change(BREAKING, f"tag property changed {shown}")
