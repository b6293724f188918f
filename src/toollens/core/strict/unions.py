"""Union rules: ``oneOf`` becomes ``anyOf``; a single ``allOf`` entry merges into its parent.

The merge refuses overlapping keywords that would change what the schema accepts
(``StrictRule.ALLOF_CONFLICT``), comparing JSON values as JSON does (``1 == 1.0``,
``True != 1``).
"""

from __future__ import annotations

from typing import Any

from toollens.core.schema.pointer import LinkedPath
from toollens.core.schema.types import JsonSchema
from toollens.core.strict import refs
from toollens.core.strict.refs import REF_ANNOTATIONS, constrains_ref
from toollens.core.strict.rules import StrictRule
from toollens.core.strict.state import At, WalkState, fail

__all__ = ["merge_all_of", "union"]


def union(walker: WalkState, any_of: object, one_of: list[object], at: At) -> list[JsonSchema]:
    """``anyOf`` variants followed by the converted ``oneOf`` variants (reference order)."""
    inp, out, depth, _, nested = at
    node = walker.node
    variants: list[JsonSchema] = []
    if isinstance(any_of, list):  # what the anyOf applicator does with a list
        in_any, out_any = (inp, "anyOf"), (out, "anyOf")
        variants = [
            node(sub, ((in_any, i), (out_any, i), depth + 1, False, nested))
            for i, sub in enumerate(any_of)
        ]
    offset = len(variants)
    for i, sub in enumerate(one_of):
        sub_at = (((inp, "oneOf"), i), ((out, "anyOf"), offset + i), depth + 1, False, nested)
        variants.append(node(sub, sub_at))
    return variants


def merge_all_of(walker: WalkState, src: JsonSchema, entry: object, at: At) -> JsonSchema:
    """Merge a single ``allOf`` entry into its parent node, then convert the merged node."""
    inp, out, depth, root, nested = at
    explicitly_closed = src.get("additionalProperties") is False
    entry_in = (inp, "allOf"), 0
    keys: list[str] = []
    walker.tracking += 1
    try:
        parent_src = {key: value for key, value in src.items() if key != "allOf"}
        parent = walker.body(parent_src, at, partial=True)
        if isinstance(entry, dict) and "$ref" in entry and not constrains_ref(entry):
            if nested:
                fail(StrictRule.NESTED_ID, entry_in)
            carried = {k: v for k, v in entry.items() if k != "$ref"}
            target, inner, keys, origin = refs.follow(
                walker, entry["$ref"], (entry_in, out, depth, False, nested), chain=True
            )
            first = {**target, **inner, **carried}
        else:
            first = walker.node(entry, (entry_in, out, depth + 1, False, nested))
            origin = inp
    except BaseException:
        walker.inlining.difference_update(keys)
        raise
    finally:
        walker.tracking -= 1
    try:
        if not explicitly_closed:
            parent.pop("additionalProperties", None)
        merged = _merge_entry(first, parent, inp)
        walker.note(StrictRule.MERGE_SINGLE_ALLOF, out, "allOf", None)
        return walker.node(merged, (origin, out, depth + 1, root, nested))
    finally:
        walker.inlining.difference_update(keys)


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
