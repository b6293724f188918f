"""The state of one strict conversion, and the context every rule function gets.

``WalkState`` holds what a conversion carries from node to node (the input root, the
change list, the node budget, the ``$ref`` bookkeeping) and records changes; ``At`` is one
node's context (where it is read and written, how deep, whether it is the root or inside
an ``$id`` scope); ``fail`` raises a rule's refusal with the input pointer. The rule
families (``objects``, ``unions``, ``refs``) are plain functions of ``(walker, node, at)``;
``walker.Walker`` is the state plus the walk they recurse through.
"""

from __future__ import annotations

import dataclasses
from typing import Final, NoReturn, TypeAlias

from toollens.core.errors import StrictSchemaError
from toollens.core.records import Change
from toollens.core.schema.pointer import LinkedPath, linked_pointer
from toollens.core.schema.toolkit import STRICT_NODE_BUDGET, preview_json
from toollens.core.schema.types import JsonSchema
from toollens.core.strict.rules import PROBLEMS, REASONS, StrictRule

# Keywords whose value holds subschemas, in the reference's walk order (`oneOf` is folded
# into `anyOf` by the node walk, right after it). Everything else is copied as is (the
# reference does not descend into `not`, `prefixItems`, `if`/`then`, ... either); how each
# of these is converted is the walker's APPLY table.
WALK_ORDER: Final = ("$defs", "definitions", "properties", "items", "anyOf", "allOf")
APPLICATORS: Final = frozenset(WALK_ORDER)


At: TypeAlias = tuple[LinkedPath, LinkedPath, int, bool, bool]
"""One node's context, ``(inp, out, depth, root, nested)``: where the node is read (the
linked path a refusal points at) and written (where a rewrite points), its nesting depth
(checked against ``STRICT_NESTING_LIMIT``), whether it is the document root (root-only
rules apply), and whether it sits inside a subschema with its own ``$id`` (no ``$ref``
there). A plain tuple, not a NamedTuple: one is made per node, and a tuple is made and
unpacked several times faster."""


# Reasons without placeholders, looked up once: formatting them with ``preview_json(before)``
# and ``preview_json(after)`` (two json.dumps calls per change) would return the same text.
_FIXED_REASONS: Final = {
    rule: text for rule, text in REASONS.items() if "{" not in text and "}" not in text
}
R_INFER: Final = _FIXED_REASONS[StrictRule.INFER_OBJECT_TYPE]
R_CLOSE: Final = _FIXED_REASONS[StrictRule.CLOSE_OBJECT]
R_REQUIRE: Final = _FIXED_REASONS[StrictRule.REQUIRE_ALL_PROPERTIES]
R_ONEOF: Final = _FIXED_REASONS[StrictRule.ONEOF_TO_ANYOF]
R_DROP: Final = _FIXED_REASONS[StrictRule.DROP_NONE_DEFAULT]


class WalkState:
    """One conversion: reads the input root, builds the output, counts the node budget."""

    def __init__(self, root: JsonSchema, *, record: bool, nullable: frozenset[str]) -> None:
        self.root = root
        self.record = record
        self.changes: list[Change] = []
        self.nullable = nullable
        self.budget = STRICT_NODE_BUDGET
        # Outputs built while a singleton allOf is being merged; the merged node is walked
        # again (as the reference does) and these are returned as they are, not rebuilt.
        self.tracking = 0
        self.done: dict[int, JsonSchema] = {}
        # Targets being inlined on the current path: seeing one again means recursion.
        self.inlining: set[str] = set()
        self.bare_refs: set[str] = set()
        # Input nodes already converted in place: the reference reads those targets in
        # their rewritten form and all others as written.
        self.processed: set[int] = set()

    def note(self, rule: StrictRule, out: LinkedPath, before: object, after: object) -> None:
        if self.record:
            reason = _FIXED_REASONS.get(rule)
            if reason is None:
                template = REASONS[rule]
                reason = template.format(
                    before=preview_json(before) if "{before" in template else "",
                    after=preview_json(after) if "{after" in template else "",
                )
            self.changes.append(new_change(linked_pointer(out), rule, before, after, reason))

    def spend(self, at: LinkedPath) -> None:
        self.budget -= 1
        if self.budget < 0:
            fail(StrictRule.TOO_LARGE, at, limit=STRICT_NODE_BUDGET)

    # The walk the rule families recurse through, written by ``walker.Walker``: declared
    # here so the families type their argument with this class and never import the walker.
    def node(self, src: object, at: At) -> JsonSchema:
        """Convert one schema node, read and written where ``at`` says."""
        raise NotImplementedError

    def body(self, src: JsonSchema, at: At, *, partial: bool = False) -> JsonSchema:
        """Convert a node that is not a ``$ref`` (``objects.body``)."""
        raise NotImplementedError


# ``_change`` fills the instance dict directly; it must stay in step with Change's fields.
if tuple(f.name for f in dataclasses.fields(Change)) != (
    "pointer",
    "rule",
    "before",
    "after",
    "reason",
) or hasattr(Change, "__post_init__"):
    raise RuntimeError("strict.state.new_change is out of date with records.Change")


def new_change(
    pointer: str, rule: StrictRule, before: object, after: object, reason: str
) -> Change:
    # What Change's generated frozen __init__ does (one object.__setattr__ per field) at
    # under half the cost: a conversion records one Change per rewrite.
    change = object.__new__(Change)
    change.__dict__.update(pointer=pointer, rule=rule, before=before, after=after, reason=reason)
    return change


def fail(rule: StrictRule, at: LinkedPath, **fields: object) -> NoReturn:
    message, hint = PROBLEMS[rule]
    raise StrictSchemaError(
        message.format(**fields), pointer=linked_pointer(at), rule=rule, hint=hint
    )
