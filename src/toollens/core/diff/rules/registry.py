"""How diff rules are written and registered, and the helpers every rule shares.

Each rule is a small generator ``rule(walk, old, new, keyword)`` that yields the changes
for the keyword(s) it owns; ``rule_for`` adds it to its module's ``RULES`` list.
``presence`` and ``simple`` cover the common "added / removed / changed" shape.

Severity is decided from the point of view of a caller whose calls (and a model whose
prompt) were made against the old schema: *breaking* if a call that used to be valid may
now be rejected or callers must change, *compatible* if every valid call stays valid,
*description-only* if only text the model reads changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from toollens.core.diff.changes import ChangeKind, DiffSeverity, SchemaChange
from toollens.core.diff.nodes import ABSENT, Node, same
from toollens.core.diff.walk import Entry, Rule
from toollens.core.schema.toolkit import (
    preview_json,
)

BREAKING = DiffSeverity.BREAKING
COMPATIBLE = DiffSeverity.COMPATIBLE
DESCRIPTION_ONLY = DiffSeverity.DESCRIPTION_ONLY
ADDED, REMOVED, CHANGED, MOVED = (
    ChangeKind.ADDED,
    ChangeKind.REMOVED,
    ChangeKind.CHANGED,
    ChangeKind.MOVED,
)


def rule_for(entries: list[Entry], *keywords: str) -> Callable[[Rule], Rule]:
    """Decorator adding a rule for ``keywords`` (read together, run once) to ``entries``."""

    def register(rule: Rule) -> Rule:
        entries.append((keywords, rule))
        return rule

    return register


def rule_for_each(entries: list[Entry], rule: Rule, *keywords: str) -> None:
    """Add ``rule`` once per keyword, for rules that handle one keyword at a time."""
    entries.extend(((keyword,), rule) for keyword in keywords)


# Any: a keyword's value is whatever JSON the schema holds there (or ABSENT); each rule
# checks the shape its keyword needs before reading it.
def get(node: Node, keyword: str) -> Any:
    """The node's value for ``keyword``, or ``ABSENT``."""
    return node.schema.get(keyword, ABSENT)


# Any: the values of ``get``, for the same reason.
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
        pointer=pointer,
        kind=kind,
        keyword=keyword,
        before=before,
        after=after,
        severity=_by_kind(kind, added, removed, changed),
        message=text + why,
    )
