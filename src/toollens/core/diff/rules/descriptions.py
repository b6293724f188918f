"""Annotations: what only the model reads (title, description, examples, default, ...),
and ``opaque``, the rule for keywords toollens does not analyse.
"""

from __future__ import annotations

from collections.abc import Iterator

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import Node
from toollens.core.diff.rules.registry import (
    BREAKING,
    COMPATIBLE,
    DESCRIPTION_ONLY,
    RuleList,
    presence,
    simple,
)
from toollens.core.diff.walk import Walk

RULES = RuleList()


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
    yield found.change(DESCRIPTION_ONLY, found.kind.value)


RULES.each(_annotation, *ANNOTATIONS)


@RULES.rule("default")
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
