"""The strict walk: one node's checks, and its dispatch to a rule family.

:class:`Walker` is one conversion's state plus the walk the rule functions recurse
through: ``node`` converts one schema node (a ``$ref`` node goes to ``refs.ref_node``,
any other to ``objects.body``). The rule families never import one another in a circle:
what one needs from another it reaches through the walker.
"""

from __future__ import annotations

from toollens.core.schema.toolkit import STRICT_NESTING_LIMIT, STRICT_NODE_BUDGET, preview_json
from toollens.core.schema.types import JsonSchema
from toollens.core.strict import objects, refs
from toollens.core.strict.rules import StrictRule
from toollens.core.strict.state import At, WalkState, fail

__all__ = ["Walker"]


class Walker(WalkState):
    """One conversion: its state, and ``node``, which every rule function recurses through."""

    def node(self, src: object, at: At) -> JsonSchema:
        """Convert one schema node, read and written where ``at`` says."""
        if not isinstance(src, dict):
            fail(StrictRule.NOT_A_SCHEMA, at[0], kind=type(src).__name__, value=preview_json(src))
        done = self.done
        if done and done.get(id(src)) is src:
            return src
        inp, out, depth, root, nested = at
        if depth > STRICT_NESTING_LIMIT:
            fail(StrictRule.TOO_DEEP, inp, limit=STRICT_NESTING_LIMIT)
        self.budget -= 1  # spend(), inlined: this runs for every node
        if self.budget < 0:
            fail(StrictRule.TOO_LARGE, inp, limit=STRICT_NODE_BUDGET)
        if not root and not nested and isinstance(src.get("$id"), str):
            at = (inp, out, depth, root, True)
        result = refs.ref_node(self, src, at) if "$ref" in src else objects.body(self, src, at)
        self.processed.add(id(src))
        if self.tracking:
            done[id(result)] = result
        return result

    def body(self, src: JsonSchema, at: At, *, partial: bool = False) -> JsonSchema:
        """``objects.body``, for the rule families that merge a node (``unions``)."""
        return objects.body(self, src, at, partial=partial)
