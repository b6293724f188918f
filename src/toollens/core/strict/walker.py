"""The strict walker: the rule families put together, and the walk over subschemas."""

from __future__ import annotations

from typing import Any

from toollens.core.schema.pointer import LinkedPath
from toollens.core.schema.toolkit import (
    STRICT_NESTING_LIMIT,
    STRICT_NODE_BUDGET,
    copy_json,
    preview_json,
)
from toollens.core.schema.types import JsonSchema
from toollens.core.strict.objects import ObjectRules
from toollens.core.strict.refs import RefRules
from toollens.core.strict.rules import StrictRule
from toollens.core.strict.state import fail
from toollens.core.strict.unions import UnionRules


class Walker(ObjectRules, UnionRules, RefRules):
    """One conversion: every rule family, and ``node``, which each of them recurses through."""

    def node(
        self,
        src: object,
        inp: LinkedPath,
        out: LinkedPath,
        depth: int,
        root: bool = False,
        nested: bool = False,
    ) -> JsonSchema:
        """Convert one schema node read at ``inp`` and written at ``out``."""
        if not isinstance(src, dict):
            fail(StrictRule.NOT_A_SCHEMA, inp, kind=type(src).__name__, value=preview_json(src))
        done = self.done
        if done and done.get(id(src)) is src:
            return src
        if depth > STRICT_NESTING_LIMIT:
            fail(StrictRule.TOO_DEEP, inp, limit=STRICT_NESTING_LIMIT)
        self.budget -= 1  # spend(), inlined: this runs for every node
        if self.budget < 0:
            fail(StrictRule.TOO_LARGE, inp, limit=STRICT_NODE_BUDGET)
        if not root and isinstance(src.get("$id"), str):
            nested = True
        if "$ref" in src:
            result = self._ref_node(src, inp, out, depth, root, nested)
        else:
            result = self._body(src, inp, out, depth, root, nested)
        self.processed.add(id(src))
        if self.tracking:
            done[id(result)] = result
        return result

    # -- applicators: each converts one keyword's value, or copies it if it has no schemas

    def _schema(
        self, value: Any, inp: LinkedPath, out: LinkedPath, depth: int, nested: bool
    ) -> Any:
        if not isinstance(value, dict):  # e.g. tuple-form `items`, left as the reference does
            return copy_json(value)
        return self.node(value, inp, out, depth, False, nested)

    def _schema_map(
        self, value: Any, inp: LinkedPath, out: LinkedPath, depth: int, nested: bool
    ) -> Any:
        if not isinstance(value, dict):
            return copy_json(value)
        node = self.node
        return {
            name: node(sub, (inp, name), (out, name), depth, False, nested)
            for name, sub in value.items()
        }

    def _schema_list(
        self, value: Any, inp: LinkedPath, out: LinkedPath, depth: int, nested: bool
    ) -> Any:
        if not isinstance(value, list):
            return copy_json(value)
        node = self.node
        return [node(sub, (inp, i), (out, i), depth, False, nested) for i, sub in enumerate(value)]
