"""The state of one strict conversion, shared by every rule family.

``WalkState`` holds what a conversion carries from node to node (the input root, the
change list, the node budget, the ``$ref`` bookkeeping) and records changes; ``fail``
raises a rule's refusal with the input pointer. The rule families are mixins over it:
``objects``, ``unions`` and ``refs``; ``walker.Walker`` puts them together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, NoReturn

from toollens.core.errors import StrictSchemaError
from toollens.core.records import Change
from toollens.core.schema.pointer import LinkedPath, linked_pointer
from toollens.core.schema.toolkit import STRICT_NODE_BUDGET, preview_json
from toollens.core.schema.types import JsonSchema
from toollens.core.strict.rules import PROBLEMS, REASONS, StrictRule

# Keywords whose value holds subschemas, mapped to the walker method that converts it.
# Everything else is copied as is (the reference does not descend into `not`,
# `prefixItems`, `if`/`then`, ... either). `oneOf` is folded into `anyOf` by the node walk.
# The reference's walk order; `oneOf` is converted right after `anyOf`.
WALK_ORDER: Final = ("$defs", "definitions", "properties", "items", "anyOf", "allOf")
APPLICATORS: Final[Mapping[str, str]] = {
    "$defs": "_schema_map",
    "definitions": "_schema_map",
    "properties": "_schema_map",
    "items": "_schema",
    "anyOf": "_schema_list",
    "allOf": "_schema_list",
}

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
        self.apply = {key: getattr(self, name) for key, name in APPLICATORS.items()}

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

    if TYPE_CHECKING:  # implemented by the rule families; declared for the type checker

        def node(
            self,
            src: Any,
            inp: LinkedPath,
            out: LinkedPath,
            depth: int,
            root: bool = False,
            nested: bool = False,
        ) -> JsonSchema: ...

        def _body(
            self,
            src: JsonSchema,
            inp: LinkedPath,
            out: LinkedPath,
            depth: int,
            root: bool,
            nested: bool,
            partial: bool = False,
        ) -> JsonSchema: ...

        def _union(
            self,
            any_of: Any,
            one_of: list[Any],
            inp: LinkedPath,
            out: LinkedPath,
            depth: int,
            nested: bool,
        ) -> list[Any]: ...

        def _merge_all_of(
            self,
            src: JsonSchema,
            entry: Any,
            inp: LinkedPath,
            out: LinkedPath,
            depth: int,
            root: bool,
            nested: bool,
        ) -> JsonSchema: ...

        def _follow(
            self,
            ref: Any,
            at: LinkedPath,
            out: LinkedPath,
            depth: int,
            nested: bool,
            *,
            chain: bool,
        ) -> tuple[JsonSchema, JsonSchema, list[str], LinkedPath]: ...

        def _schema_list(
            self, value: Any, inp: LinkedPath, out: LinkedPath, depth: int, nested: bool
        ) -> Any: ...


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
