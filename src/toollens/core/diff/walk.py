"""The walk behind :func:`toollens.core.diff.diff`: pairs of nodes compared keyword by keyword.

Two schemas are walked side by side. Each pair of nodes is resolved by ``nodes`` (``$ref`` chains
followed, ``$ref`` siblings and a one-branch ``allOf`` merged into the node) and then every
keyword present on either side is dispatched through a :class:`RuleTable` (the rules live
in the ``rules`` package, one module per keyword family).
A rule is a small generator that yields :class:`SchemaChange` records and recurses into
subschemas through :meth:`Walk.compare`.

Every node keeps the JSON pointer where each of its keywords lives, so a change inside a
``$ref``-erenced definition points into ``$defs`` (in the new schema for added and changed
things, in the old schema for removed ones) and a definition used in several places is
reported once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from toollens.core.diff.changes import ChangeKind, DiffSeverity, SchemaChange
from toollens.core.diff.nodes import (
    SIDE_NAMES,
    Node,
    check_document,
    input_error,
    lift_unions,
    resolve,
)
from toollens.core.schema.toolkit import (
    DIFF_NESTING_LIMIT,
    compact_json,
)

Rule = Callable[["Walk", Node, Node, str], Iterator[SchemaChange]]
#: The keywords a rule owns (several: read together, run once) and the rule.
Entry = tuple[tuple[str, ...], Rule]


class RuleTable:
    """Keyword -> rule, checked when built: every keyword has exactly one owner."""

    def __init__(self, entries: Iterable[Entry], fallback: Rule) -> None:
        self._leaders: dict[str, str] = {}
        self._rules: dict[str, Rule] = {}
        self.fallback = fallback
        for keywords, rule in entries:
            for keyword in keywords:
                if keyword in self._leaders:
                    raise RuntimeError(f"diff keyword {keyword!r} has two rules")
                self._leaders[keyword] = keywords[0]
            self._rules[keywords[0]] = rule

    def lookup(self, keyword: str) -> tuple[str, Rule]:
        """The keyword that leads ``keyword``'s group, and the rule to run for it."""
        leader = self._leaders.get(keyword, keyword)
        return leader, self._rules.get(leader, self.fallback)

    def __contains__(self, keyword: object) -> bool:
        return keyword in self._leaders


_DEF_KEYWORDS = ("$defs", "definitions")
_DEF_PREFIXES = ("#/$defs/", "#/definitions/")
# A "$ref" member with a string value, in compact JSON text.
_REF_IN_TEXT = re.compile(r'"\$ref":"((?:[^"\\]|\\.)*)"')


def _refs_into_defs(text: str) -> bool:
    """Whether every ``$ref`` in ``text`` names something under ``$defs``/``definitions``."""
    # The encoder escapes only quotes, backslashes and control characters, so the raw
    # text of a reference starts with a prefix exactly when the reference does.
    return all(ref.startswith(_DEF_PREFIXES) for ref in _REF_IN_TEXT.findall(text))


def _same_definitions(old_doc: Any, new_doc: Any) -> bool:
    """Both documents define the same things, referring only to each other."""
    if not (isinstance(old_doc, Mapping) and isinstance(new_doc, Mapping)):
        return False
    old = compact_json({k: old_doc.get(k) for k in _DEF_KEYWORDS})
    new = compact_json({k: new_doc.get(k) for k in _DEF_KEYWORDS})
    return old is not None and old == new and _refs_into_defs(old)


class Walk:
    """One comparison of two schema documents; memoises node pairs.

    A pair already being compared higher up the walk (a recursive schema) counts as equal,
    so every walk ends; a pair compared before returns its earlier result. Equal subtrees
    are not walked at all (see :meth:`unchanged`): an edit of one property of a schema with
    hundreds walks that property and its ancestors.
    """

    def __init__(
        self,
        old_doc: Any,
        new_doc: Any,
        table: RuleTable,
        *,
        old_checked: bool = False,
        new_checked: bool = False,
    ) -> None:
        self._docs = (old_doc, new_doc)
        self._table = table
        self._done: dict[tuple[object, ...], tuple[SchemaChange, ...]] = {}
        self._active: set[tuple[object, ...]] = set()
        self._depth = 0
        checked = (old_checked, new_checked)  # sides an earlier walk already checked
        for doc, side, done in zip(self._docs, SIDE_NAMES, checked, strict=True):
            if not done:
                check_document(doc, side)
        self._same_defs = _same_definitions(old_doc, new_doc)

    def unchanged(self, old: Node, new: Node) -> bool:
        """Whether two plain nodes are the same JSON, and so are whatever they refer to."""
        if old.tag or new.tag or old.elsewhere or new.elsewhere or old.never or new.never:
            return False
        if old.branches is not None or new.branches is not None:
            return False
        # `==` first (C speed, stops at the first difference); it takes True for 1, so
        # the JSON texts decide.
        if old.schema != new.schema:
            return False
        text = compact_json(old.schema)
        if text is None or text != compact_json(new.schema):
            return False
        return '"$ref"' not in text or (self._same_defs and _refs_into_defs(text))

    def node(self, side: int, raw: object, pointer: str) -> Node:
        """Resolve ``raw``, found at ``pointer`` in the old (0) or new (1) document."""
        return resolve(self._docs[side], raw, pointer, SIDE_NAMES[side])

    def root(self, side: int) -> Node:
        return self.node(side, self._docs[side], "")

    def equal(self, old: Node, new: Node) -> bool:
        return not self.compare(old, new)

    def compare(self, old: Node, new: Node) -> tuple[SchemaChange, ...]:
        """Every change from ``old`` to ``new``, unordered."""
        key = (old.key, new.key)
        done = self._done.get(key)
        if done is not None:
            return done
        if self.unchanged(old, new):
            return ()
        if key in self._active:
            return ()
        if self._depth >= DIFF_NESTING_LIMIT:
            raise input_error(
                f"the schemas nest deeper than {DIFF_NESTING_LIMIT} levels",
                new.home,
                "flatten the schema; deeper nesting is not a usable tool schema",
            )
        self._active.add(key)
        self._depth += 1
        try:
            changes = tuple(self._changes(old, new))
        finally:
            self._active.discard(key)
            self._depth -= 1
        self._done[key] = changes
        return changes

    def _changes(self, old: Node, new: Node) -> Iterator[SchemaChange]:
        if old.never or new.never:
            yield from _never_changes(old, new)
            return
        old, new = lift_unions(old, new)
        seen: set[str] = set()
        for keyword in sorted(set(old.schema) | set(new.schema)):
            leader, rule = self._table.lookup(keyword)
            if leader not in seen:
                seen.add(leader)
                yield from rule(self, old, new, leader)


def _never_changes(old: Node, new: Node) -> Iterator[SchemaChange]:
    if old.never and new.never:
        return
    if old.never:
        yield SchemaChange(
            pointer=new.home,
            kind=ChangeKind.CHANGED,
            keyword="schema",
            before=False,
            after=dict(new.schema),
            severity=DiffSeverity.COMPATIBLE,
            message="now accepts values (was the false schema, which accepts nothing)",
        )
    else:
        yield SchemaChange(
            pointer=new.home,
            kind=ChangeKind.CHANGED,
            keyword="schema",
            before=dict(old.schema),
            after=False,
            severity=DiffSeverity.BREAKING,
            message="now the false schema: no value is accepted",
        )
