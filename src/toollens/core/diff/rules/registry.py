"""How diff rules are written and registered, and the helpers every rule shares.

Each rule is a small generator ``rule(walk, old, new, keyword)`` that yields the changes
for the keyword(s) it owns; each module gathers its rules in a :class:`RuleList`.
``presence`` finds the common "added / removed / changed" difference, ``simple`` and
``restricting`` report it; ``addition`` and ``removal`` build the one-sided changes.

Severity is decided from the point of view of a caller whose calls (and a model whose
prompt) were made against the old schema: *breaking* if a call that used to be valid may
now be rejected or callers must change, *compatible* if every valid call stays valid,
*description-only* if only text the model reads changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from toollens.core.diff.changes import ChangeKind, DiffSeverity, SchemaChange
from toollens.core.diff.nodes import ABSENT, Node, same
from toollens.core.diff.walk import Entry, Rule, Walk
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


class RuleList(list[Entry]):
    """One rule module's entries, in the order the module declares them."""

    def rule(self, *keywords: str) -> Callable[[Rule], Rule]:
        """Decorator adding a rule for ``keywords`` (read together, run once)."""

        def register(rule: Rule) -> Rule:
            self.append((keywords, rule))
            return rule

        return register

    def each(self, rule: Rule, *keywords: str) -> None:
        """Add ``rule`` once per keyword, for rules that handle one keyword at a time."""
        self.extend(((keyword,), rule) for keyword in keywords)


# Any: a keyword's value is whatever JSON the schema holds there (or ABSENT); each rule
# checks the shape its keyword needs before reading it.
def get(node: Node, keyword: str) -> Any:
    """The node's value for ``keyword``, or ``ABSENT``."""
    return node.schema.get(keyword, ABSENT)


class Difference(NamedTuple):
    """What ``keyword`` is on each side: the kind of change, where, and the two values.

    ``pointer`` is into the old schema for a removed keyword, into the new one otherwise;
    ``before`` / ``after`` are ``None`` on the side that lacks the keyword.
    """

    keyword: str
    kind: ChangeKind
    pointer: str
    before: Any  # Any: the values of ``get``, for the same reason
    after: Any

    def change(self, severity: DiffSeverity, message: str) -> SchemaChange:
        """This difference as a reported change."""
        return SchemaChange(
            pointer=self.pointer,
            kind=self.kind,
            keyword=self.keyword,
            before=self.before,
            after=self.after,
            severity=severity,
            message=message,
        )


def difference(old: Node, new: Node, keyword: str) -> Difference:
    """``keyword`` on both sides, whether or not the values differ."""
    before, after = get(old, keyword), get(new, keyword)
    if before is ABSENT:
        return Difference(keyword, ADDED, new.at(keyword), None, after)
    if after is ABSENT:
        return Difference(keyword, REMOVED, old.at(keyword), before, None)
    return Difference(keyword, CHANGED, new.at(keyword), before, after)


def presence(old: Node, new: Node, keyword: str) -> Difference | None:
    """The difference when ``keyword`` differs between the nodes, else ``None``."""
    if same(get(old, keyword), get(new, keyword)):
        return None
    return difference(old, new, keyword)


def addition(
    pointer: str, keyword: str, after: object, severity: DiffSeverity, message: str
) -> SchemaChange:
    """A change about something only the new schema has; ``pointer`` is into the new one."""
    return SchemaChange(pointer, ADDED, keyword, None, after, severity, message)


def removal(
    pointer: str, keyword: str, before: object, severity: DiffSeverity, message: str
) -> SchemaChange:
    """A change about something only the old schema has; ``pointer`` is into the old one."""
    return SchemaChange(pointer, REMOVED, keyword, before, None, severity, message)


def one_sided_restriction(
    old: Node, new: Node, keyword: str, before: object, after: object, *, noun: str = ""
) -> SchemaChange:
    """A restriction of the allowed values that only one side has (the other is ``None``).

    A new restriction breaks callers, a dropped one frees them.
    """
    if before is None:
        shown = preview_json(after)
        return addition(
            new.at(keyword), keyword, after, BREAKING, f"now restricted to {noun}{shown}"
        )
    shown = preview_json(before)
    return removal(old.at(keyword), keyword, before, COMPATIBLE, f"restriction to {shown} removed")


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
    before, after = preview_json(found.before), preview_json(found.after)
    text = {
        ADDED: f"set to {after}",
        REMOVED: f"removed (was {before})",
    }.get(found.kind, f"changed from {before} to {after}")
    yield found.change(_by_kind(found.kind, added, removed, changed), text + why)


def restricting(
    walk: Walk, old: Node, new: Node, keyword: str, *, why: str = ""
) -> Iterator[SchemaChange]:
    """The rule for a keyword that restricts values: set or changed breaks, removed frees."""
    yield from simple(
        old, new, keyword, added=BREAKING, removed=COMPATIBLE, changed=BREAKING, why=why
    )
