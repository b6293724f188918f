"""Reference rules: a bare ``$ref`` must resolve; a ``$ref`` with siblings is inlined.

References are decoded by ``toollens.core.schema.pointer`` (one %-decoding rule for every
view). Only local JSON pointers are followed, nothing is ever fetched; a target is read in
its rewritten form exactly when the reference converter would already have rewritten it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from toollens.core.schema.pointer import (
    LinkedPath,
    RefProblem,
    UnresolvedRef,
    linked_pointer,
    ref_tokens,
)
from toollens.core.schema.toolkit import preview_json
from toollens.core.schema.types import JsonSchema
from toollens.core.strict.rules import StrictRule
from toollens.core.strict.state import At, WalkState, fail

__all__ = ["REF_ANNOTATIONS", "ROOT_REF_ANNOTATIONS", "constrains_ref", "follow", "ref_node"]

# Keywords that may sit next to a `$ref` without constraining the instance (reference list).
REF_ANNOTATIONS: Final = frozenset(
    {
        "$anchor",
        "$comment",
        "$defs",
        "$schema",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
        "default",
        "definitions",
        "deprecated",
        "description",
        "examples",
        "readOnly",
        "title",
        "writeOnly",
    }
)
ROOT_REF_ANNOTATIONS: Final = REF_ANNOTATIONS | {"$id"}

# How each unusable reference is refused: the rule and, for REF_FORMAT, the detail.
_REF_FAILURES: Final[Mapping[RefProblem, tuple[StrictRule, dict[str, str]]]] = {
    RefProblem.NOT_A_STRING: (StrictRule.REF_FORMAT, {"detail": "is not a string"}),
    RefProblem.REMOTE: (StrictRule.REF_REMOTE, {}),
    RefProblem.ANCHOR: (
        StrictRule.REF_FORMAT,
        {"detail": "is not a JSON pointer (anchors are not supported)"},
    ),
    RefProblem.BAD_ESCAPE: (StrictRule.REF_FORMAT, {"detail": "has invalid %-escapes"}),
}


def ref_node(walker: WalkState, src: JsonSchema, at: At) -> JsonSchema:
    """A ``$ref`` node: checked, kept bare, or inlined with its sibling keywords."""
    inp, out, depth, root, nested = at
    if nested:
        fail(StrictRule.NESTED_ID, inp)
    if len(src) == 1:  # only "$ref": the common bare reference, without the checks below
        ref = src["$ref"]
        if not (isinstance(ref, str) and ref in walker.bare_refs):
            resolve(walker, ref, inp, inline=False)
            walker.bare_refs.add(ref)
        return {"$ref": ref}
    allowed = ROOT_REF_ANNOTATIONS if root else REF_ANNOTATIONS
    extra = [str(key) for key in src if key != "$ref" and key not in allowed]
    if extra:
        fail(StrictRule.REF_SIBLINGS, inp, keywords=", ".join(sorted(extra)))
    ref = src["$ref"]
    siblings = {key: value for key, value in src.items() if key != "$ref"}
    if "default" in siblings and siblings["default"] is None:
        # Dropped before inlining, so the target's own default shows through (reference).
        del siblings["default"]
        walker.note(StrictRule.DROP_NONE_DEFAULT, out, None, None)
    if not siblings:
        # A bare $ref stays as it is, but it must resolve; each string is checked once.
        if not (isinstance(ref, str) and ref in walker.bare_refs):
            resolve(walker, ref, inp, inline=False)
            walker.bare_refs.add(ref)
        return {"$ref": ref}
    walker.note(StrictRule.INLINE_REF_WITH_SIBLINGS, out, ref, None)
    target, _, keys, origin = follow(walker, ref, at, chain=False)
    # The node's keys win and keep their places; the target's other keys follow.
    merged = siblings
    for name, value in target.items():
        if name not in merged:
            merged[name] = value
    try:
        return walker.node(merged, (origin, out, depth + 1, root, nested))
    finally:
        walker.inlining.difference_update(keys)


def resolve(
    walker: WalkState, ref: object, at: LinkedPath, *, inline: bool
) -> tuple[JsonSchema, LinkedPath]:
    """Find the local target of ``ref`` (refusals point at ``at``); never fetches anything."""
    try:
        tokens = ref_tokens(ref)
    except UnresolvedRef as exc:
        rule, fields = _REF_FAILURES[exc.problem]
        fail(rule, at, ref=preview_json(ref), **fields)
    if not tokens:
        if not inline:
            return walker.root, None
        detail = "points at the document root, which cannot be inlined next to sibling keywords"
        fail(StrictRule.REF_FORMAT, at, ref=preview_json(ref), detail=detail)
    target: JsonSchema = walker.root
    path: LinkedPath = None
    for token in tokens:
        if token not in target:
            where = linked_pointer(path) or "/"
            detail = f"has no target: {preview_json(token)} is missing at {where}"
            fail(StrictRule.REF_MISSING, at, ref=preview_json(ref), detail=detail)
        value = target[token]
        path = (path, token)
        if not isinstance(value, dict):
            detail = f"does not lead to a schema object: {linked_pointer(path)} is not an object"
            fail(StrictRule.REF_MISSING, at, ref=preview_json(ref), detail=detail)
        if isinstance(value.get("$id"), str):
            fail(StrictRule.NESTED_ID, at)
        target = value
    return target, path


def follow(
    walker: WalkState, ref: object, at: At, *, chain: bool
) -> tuple[JsonSchema, JsonSchema, list[str], LinkedPath]:
    """Resolve ``ref`` to its target as the reference would see it at this point.

    A target already converted in place is read in its strict form, any other as
    written (the reference resolves against the half-rewritten document). With
    ``chain``, a target that is still an annotation-only ``$ref`` is followed in turn,
    carrying its annotations (outer ones win). Returns the target, the carried
    annotations, the targets now marked as being inlined (the caller unmarks them once
    the merged node is converted), and where to report errors in the merged node.
    ``at``'s input path is where a refusal points; its output path and depth are where
    the target is written when it is converted here.
    """
    inp, out, depth, _, nested = at
    keys: list[str] = []
    seen: list[object] = []
    carried: JsonSchema = {}
    where = inp
    try:
        while True:
            if isinstance(ref, str) and ref in seen:
                fail(StrictRule.REF_CYCLE, inp, chain=" -> ".join(str(r) for r in [*seen, ref]))
            seen.append(ref)
            walker.spend(where)
            raw, where = resolve(walker, ref, where, inline=True)
            key = linked_pointer(where)
            if key in walker.inlining:
                fail(StrictRule.REF_RECURSIVE, inp, ref=preview_json(ref))
            walker.inlining.add(key)
            keys.append(key)
            if id(raw) in walker.processed:
                walker.tracking += 1
                try:
                    target = walker.node(raw, (where, out, depth + 1, False, nested))
                finally:
                    walker.tracking -= 1
                origin = inp
            else:
                target, origin = raw, where
            if not (chain and "$ref" in target and not constrains_ref(target)):
                return target, carried, keys, origin
            ref = target["$ref"]
            # Inner keys come first, outer annotations win (reference order).
            carried = {**{k: v for k, v in target.items() if k != "$ref"}, **carried}
    except BaseException:
        walker.inlining.difference_update(keys)
        raise


def constrains_ref(node: JsonSchema) -> bool:
    return any(key != "$ref" and key not in REF_ANNOTATIONS for key in node)
