"""Object rules: close every object, require every property, infer ``type: object``.

Also where a node's ``default: null`` is dropped and a root property's non-null default
becomes "null means default" (``nullable_defaults``). :func:`body` converts one schema node:
it decides these rewrites, records them and rebuilds the node with its subschemas converted
in the reference's order.
"""

from __future__ import annotations

from typing import Any, Final

from toollens.core.schema.pointer import LinkedPath, linked_pointer
from toollens.core.schema.toolkit import copy_json, preview_json
from toollens.core.schema.types import JsonSchema
from toollens.core.strict import unions
from toollens.core.strict.applicators import APPLY
from toollens.core.strict.rules import StrictRule
from toollens.core.strict.state import (
    APPLICATORS,
    R_CLOSE,
    R_DROP,
    R_INFER,
    R_ONEOF,
    R_REQUIRE,
    WALK_ORDER,
    At,
    WalkState,
    fail,
    new_change,
)

__all__ = ["allows_null", "body"]

_MISSING: Final = object()
_ATOM_TYPES: Final = frozenset((str, int, float, bool, type(None)))
_ANNOTATION_KEYS: Final = ("title", "description")
_APPLICATOR_KEYS: Final = APPLICATORS


def body(walker: WalkState, src: JsonSchema, at: At, *, partial: bool = False) -> JsonSchema:
    """Convert one node that is not a ``$ref``: the object rules, then its subschemas.

    ``partial`` is the parent half of a singleton-allOf merge: not closed yet and its null
    default kept, because the merged node is walked again and decides then.
    """
    get = src.get
    if not partial:
        all_of = get("allOf")
        if isinstance(all_of, list) and len(all_of) == 1:
            return unions.merge_all_of(walker, src, all_of[0], at)

    inp = at[0]
    typ = get("type")
    props: Any = get("properties")
    has_props = isinstance(props, dict)
    infer = typ is None and has_props
    if infer:
        typ = "object"
    elif typ is None and get("additionalProperties", False) is not False:
        fail(StrictRule.OPEN_OBJECT, inp, value=preview_json(src["additionalProperties"]))
    close = False
    if typ == "object" or (isinstance(typ, list) and "object" in typ):
        extra = get("additionalProperties", _MISSING)
        if extra is _MISSING:
            close = not partial
        elif extra is not False:
            fail(StrictRule.OPEN_OBJECT, inp, value=preview_json(extra))
    one_of: Any = get("oneOf")
    fold_one_of = isinstance(one_of, list)
    drop_default = not partial and "default" in src and src["default"] is None

    if walker.record and (infer or close or has_props or fold_one_of or drop_default):
        _note_rewrites(
            walker, src, at[1], infer, close, props if has_props else None, fold_one_of,
            drop_default,
        )  # fmt: skip

    if not (fold_one_of or infer or has_props or drop_default) and _APPLICATOR_KEYS.isdisjoint(src):
        # A leaf: no subschema to convert and no keyword to rewrite, only to copy.
        atoms = _ATOM_TYPES
        result = {
            key: value if type(value) in atoms else copy_json(value) for key, value in src.items()
        }
        if close:
            result["additionalProperties"] = False
        return result

    return _rebuild(walker, src, at, infer, close, drop_default, props, one_of)


def _note_rewrites(
    walker: WalkState,
    src: JsonSchema,
    out: LinkedPath,
    infer: bool,
    close: bool,
    props: JsonSchema | None,
    fold_one_of: bool,
    drop_default: bool,
) -> None:
    """Record this node's rewrites: ``note()``, unrolled, with one pointer for all."""
    get = src.get
    at = linked_pointer(out)
    append = walker.changes.append
    if infer:
        append(new_change(at, StrictRule.INFER_OBJECT_TYPE, get("type"), "object", R_INFER))
    if close:
        append(new_change(at, StrictRule.CLOSE_OBJECT, None, False, R_CLOSE))
    if props is not None:
        old = get("required")
        names = list(props)
        if not isinstance(old, list) or old != names:
            append(
                new_change(at, StrictRule.REQUIRE_ALL_PROPERTIES, copy_json(old), names, R_REQUIRE)
            )
    if fold_one_of:
        append(new_change(at, StrictRule.ONEOF_TO_ANYOF, "oneOf", "anyOf", R_ONEOF))
    if drop_default:
        append(new_change(at, StrictRule.DROP_NONE_DEFAULT, None, None, R_DROP))


def _rebuild(
    walker: WalkState,
    src: JsonSchema,
    at: At,
    infer: bool,
    close: bool,
    drop_default: bool,
    props: Any,
    one_of: Any,
) -> JsonSchema:
    """The node with its subschemas converted and its keywords rewritten."""
    get = src.get
    has_props = isinstance(props, dict)
    fold_one_of = isinstance(one_of, list)
    # Subschemas are converted in the reference's order, so a `$ref` finds its target
    # already rewritten exactly when the reference would; keys keep the input's order.
    converted: JsonSchema = {}
    inp, out, depth, root, nested = at
    for key in WALK_ORDER:
        if key == "anyOf" and fold_one_of:
            converted[key] = unions.union(walker, get(key), one_of, at)
        elif key not in src:
            continue
        elif key == "properties" and root and walker.nullable and has_props:
            converted[key] = _root_properties(walker, props, at)
        else:
            keyword_at = ((inp, key), (out, key), depth + 1, False, nested)
            converted[key] = APPLY[key](walker, src[key], keyword_at)

    result = {}
    for key, value in src.items():
        if key in converted:
            result[key] = converted[key]
        elif key == "type":
            result[key] = "object" if infer else copy_json(value)
        elif key == "required" and has_props:
            result[key] = list(props)
        elif (key == "default" and drop_default) or (key == "oneOf" and fold_one_of):
            continue
        else:
            result[key] = value if type(value) in _ATOM_TYPES else copy_json(value)
    if infer and "type" not in src:
        result["type"] = "object"
    if close:
        result["additionalProperties"] = False
    if has_props and "required" not in src:
        result["required"] = list(props)
    if fold_one_of and "anyOf" not in src:
        result["anyOf"] = converted["anyOf"]
    return result


def _root_properties(walker: WalkState, props: JsonSchema, at: At) -> JsonSchema:
    inp, out, depth, _, nested = at
    result: JsonSchema = {}
    for name, sub in props.items():
        sub_in, sub_out = ((inp, "properties"), name), ((out, "properties"), name)
        default = sub.get("default") if isinstance(sub, dict) else None
        if name not in walker.nullable or default is None:
            result[name] = walker.node(sub, (sub_in, sub_out, depth + 1, False, nested))
            continue
        walker.note(StrictRule.NULLABLE_DEFAULT, sub_out, copy_json(default), None)
        if allows_null(sub):
            rest = {k: v for k, v in sub.items() if k != "default"}
            result[name] = walker.node(rest, (sub_in, sub_out, depth + 1, False, nested))
            continue
        core = {k: v for k, v in sub.items() if k != "default" and k not in _ANNOTATION_KEYS}
        wrapped = {k: copy_json(v) for k, v in sub.items() if k in _ANNOTATION_KEYS}
        inner_out = ((sub_out, "anyOf"), 0)
        wrapped["anyOf"] = [
            walker.node(core, (sub_in, inner_out, depth + 2, False, nested)),
            {"type": "null"},
        ]
        result[name] = wrapped
    return result


def allows_null(node: JsonSchema) -> bool:
    typ = node.get("type")
    if typ == "null" or (isinstance(typ, list) and "null" in typ):
        return True
    for keyword in ("anyOf", "oneOf"):
        variants = node.get(keyword)
        if isinstance(variants, list) and any(
            isinstance(v, dict) and v.get("type") == "null" for v in variants
        ):
            return True
    return False
