"""Union rules: ``oneOf`` becomes ``anyOf``; a single ``allOf`` entry merges into its parent.

The merge refuses overlapping keywords that would change what the schema accepts
(``StrictRule.ALLOF_CONFLICT``), comparing JSON values as JSON does (``1 == 1.0``,
``True != 1``).
"""

from __future__ import annotations

from typing import Any

from toollens.core.schema.pointer import LinkedPath
from toollens.core.schema.types import JsonSchema
from toollens.core.strict.refs import REF_ANNOTATIONS, constrains_ref
from toollens.core.strict.rules import StrictRule
from toollens.core.strict.state import WalkState, fail


class UnionRules(WalkState):
    """``anyOf`` / ``oneOf`` lists and the singleton-``allOf`` merge."""

    def _union(
        self,
        any_of: Any,
        one_of: list[Any],
        inp: LinkedPath,
        out: LinkedPath,
        depth: int,
        nested: bool,
    ) -> list[Any]:
        """``anyOf`` variants followed by the converted ``oneOf`` variants (reference order)."""
        variants: list[Any] = []
        if isinstance(any_of, list):
            variants = self._schema_list(any_of, (inp, "anyOf"), (out, "anyOf"), depth + 1, nested)
        offset = len(variants)
        for i, sub in enumerate(one_of):
            variants.append(
                self.node(
                    sub,
                    ((inp, "oneOf"), i),
                    ((out, "anyOf"), offset + i),
                    depth + 1,
                    nested=nested,
                )
            )
        return variants

    def _merge_all_of(
        self,
        src: JsonSchema,
        entry: Any,
        inp: LinkedPath,
        out: LinkedPath,
        depth: int,
        root: bool,
        nested: bool,
    ) -> JsonSchema:
        explicitly_closed = src.get("additionalProperties") is False
        entry_in = (inp, "allOf"), 0
        keys: list[str] = []
        self.tracking += 1
        try:
            parent_src = {key: value for key, value in src.items() if key != "allOf"}
            parent = self._body(parent_src, inp, out, depth, root, nested, partial=True)
            if isinstance(entry, dict) and "$ref" in entry and not constrains_ref(entry):
                if nested:
                    fail(StrictRule.NESTED_ID, entry_in)
                carried = {k: v for k, v in entry.items() if k != "$ref"}
                target, inner, keys, origin = self._follow(
                    entry["$ref"], entry_in, out, depth, nested, chain=True
                )
                first = {**target, **inner, **carried}
            else:
                first = self.node(entry, entry_in, out, depth + 1, nested=nested)
                origin = inp
        except BaseException:
            self.inlining.difference_update(keys)
            raise
        finally:
            self.tracking -= 1
        try:
            if not explicitly_closed:
                parent.pop("additionalProperties", None)
            merged = _merge_entry(first, parent, inp)
            self.note(StrictRule.MERGE_SINGLE_ALLOF, out, "allOf", None)
            return self.node(merged, origin, out, depth + 1, root=root, nested=nested)
        finally:
            self.inlining.difference_update(keys)


def _merge_entry(entry: JsonSchema, parent: JsonSchema, at: LinkedPath) -> JsonSchema:
    """Entry keys first, then the parent's; refuse overlaps that would change the meaning."""
    merged = dict(entry)
    conflicts = []
    if (
        parent.get("additionalProperties") is False
        and parent.get("properties", {}) == {}
        and isinstance(entry.get("properties"), dict)
        and entry["properties"] != {}
    ):
        # additionalProperties only sees properties declared next to it, not in allOf.
        conflicts.append("properties")
    for key, value in parent.items():
        if key not in merged or key in REF_ANNOTATIONS:
            merged[key] = value
        elif not (
            _json_equal(value, merged[key])
            or (key == "properties" and value == {})
            or (key == "required" and value == [])
        ):
            conflicts.append(str(key))
    if conflicts:
        fail(StrictRule.ALLOF_CONFLICT, at, keywords=", ".join(sorted(conflicts)))
    return merged


def _json_equal(left: Any, right: Any) -> bool:
    """Equality of JSON values: ``1 == 1.0`` but ``True != 1`` (reference semantics)."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right
    if isinstance(left, list) or isinstance(right, list):
        return (
            isinstance(left, list)
            and isinstance(right, list)
            and len(left) == len(right)
            and all(_json_equal(a, b) for a, b in zip(left, right, strict=True))
        )
    if isinstance(left, dict) or isinstance(right, dict):
        return (
            isinstance(left, dict)
            and isinstance(right, dict)
            and left.keys() == right.keys()
            and all(_json_equal(left[key], right[key]) for key in left)
        )
    return type(left) is type(right) and bool(left == right)
