"""Strict JSON Schema conversion that explains every change it makes.

The rules follow the reference ``ensure_strict_json_schema`` of the OpenAI Agents SDK:
objects are closed and every property required, ``oneOf`` becomes ``anyOf``, a single
``allOf`` entry is merged into its parent, a ``$ref`` with sibling keywords is inlined,
and ``default: null`` is dropped. Unlike the reference, the walk builds a new schema as it
goes (the caller's dict is never touched), records one ``Change`` per rewrite, and turns
every failure into a ``StrictSchemaError`` that points at the offending input node.

The output equals the reference's, key order included: subschemas are converted in the
reference's order, and a ``$ref`` target is read rewritten if the reference would already
have rewritten it, as written otherwise. Deliberate differences: every ``$ref`` must be a
local JSON pointer that resolves (the reference leaves a bare ``$ref`` unchecked), and a
``$ref`` with sibling keywords that leads back into itself is refused instead of looping.
Nothing is ever fetched.

The rule ids and their wording live in ``toollens.core.strict_rules``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from typing import Any, Final, NoReturn

from toollens.core.errors import StrictSchemaError
from toollens.core.records import Change
from toollens.core.schema.pointer import (
    LinkedPath,
    RefProblem,
    UnresolvedRef,
    linked_pointer,
    ref_tokens,
)
from toollens.core.schema.toolkit import (
    STRICT_NESTING_LIMIT,
    STRICT_NODE_BUDGET,
    copy_json,
    preview_json,
)
from toollens.core.strict_rules import PROBLEMS, REASONS, StrictRule

__all__ = ["StrictRule", "ensure_strict_json_schema", "explain_strict", "strict_schema"]

_MISSING: Final = object()

# Keywords that may sit next to a `$ref` without constraining the instance (reference list).
_REF_ANNOTATIONS: Final = frozenset(
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
_ROOT_REF_ANNOTATIONS: Final = _REF_ANNOTATIONS | {"$id"}

# Keywords whose value holds subschemas, mapped to the walker method that converts it.
# Everything else is copied as is (the reference does not descend into `not`,
# `prefixItems`, `if`/`then`, ... either). `oneOf` is folded into `anyOf` by the node walk.
# The reference's walk order; `oneOf` is converted right after `anyOf`.
_WALK_ORDER: Final = ("$defs", "definitions", "properties", "items", "anyOf", "allOf")
_APPLICATORS: Final[Mapping[str, str]] = {
    "$defs": "_schema_map",
    "definitions": "_schema_map",
    "properties": "_schema_map",
    "items": "_schema",
    "anyOf": "_schema_list",
    "allOf": "_schema_list",
}

_EMPTY_STRICT: Final[Mapping[str, Any]] = {
    "additionalProperties": False,
    "type": "object",
    "properties": {},
    "required": [],
}
_ATOMS: Final = (str, int, float, bool, type(None))
_ATOM_TYPES: Final = frozenset(_ATOMS)
_CONTAINERS: Final = (dict, list, tuple)
_ANNOTATION_KEYS: Final = ("title", "description")
_APPLICATOR_KEYS: Final = frozenset(_APPLICATORS)

# Reasons without placeholders, looked up once: formatting them with ``preview_json(before)``
# and ``preview_json(after)`` (two json.dumps calls per change) would return the same text.
_FIXED_REASONS: Final = {
    rule: text for rule, text in REASONS.items() if "{" not in text and "}" not in text
}
_R_INFER: Final = _FIXED_REASONS[StrictRule.INFER_OBJECT_TYPE]
_R_CLOSE: Final = _FIXED_REASONS[StrictRule.CLOSE_OBJECT]
_R_REQUIRE: Final = _FIXED_REASONS[StrictRule.REQUIRE_ALL_PROPERTIES]
_R_ONEOF: Final = _FIXED_REASONS[StrictRule.ONEOF_TO_ANYOF]
_R_DROP: Final = _FIXED_REASONS[StrictRule.DROP_NONE_DEFAULT]


def explain_strict(
    schema: Mapping[str, Any], *, nullable_defaults: Collection[str] = ()
) -> tuple[dict[str, Any], list[Change]]:
    """Convert a JSON schema to strict mode and say what changed.

    Args:
        schema: the schema to convert; it is read, never modified.
        nullable_defaults: names of root properties whose non-null ``default`` should
            become "null means default" instead of being kept. Such a property becomes
            ``{"title"?, "description"?, "anyOf": [<schema without default>,
            {"type": "null"}]}`` (title and description stay on the outer node); a
            property that already allows null only loses its default. Names that are not
            root properties with a non-null default are ignored.

    Returns:
        A new strict schema that shares no mutable object with ``schema``, and one
        ``Change`` per rewrite, pointing into the new schema.

    Raises:
        StrictSchemaError: the schema cannot be made strict without changing what it
            accepts; ``pointer`` names the offending node of the input.
    """
    return _convert(schema, nullable_defaults, record=True)


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Return a strict copy of ``schema`` (``explain_strict`` without the change list)."""
    return _convert(schema, (), record=False)[0]


def ensure_strict_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop-in for the reference: make ``schema`` strict in place and return it.

    The empty schema ``{}`` is left alone and a fresh closed object is returned on each
    call. On error the input is left unchanged (the reference may leave it half-rewritten).
    """
    result = _convert(schema, (), record=False)[0]
    if not schema or not isinstance(schema, dict):
        return result
    schema.clear()
    schema.update(result)
    return schema


def _convert(
    schema: Mapping[str, Any], nullable_defaults: Collection[str], *, record: bool
) -> tuple[dict[str, Any], list[Change]]:
    if not isinstance(schema, Mapping):
        _fail(StrictRule.NOT_A_SCHEMA, None, kind=type(schema).__name__, value=preview_json(schema))
    root = schema if isinstance(schema, dict) else dict(schema)
    _check_depth(root)
    if isinstance(nullable_defaults, str):  # one name, not a collection of characters
        nullable_defaults = (nullable_defaults,)
    walker = _Walker(root, record=record, nullable=frozenset(nullable_defaults))
    if not root:
        out = copy_json(dict(_EMPTY_STRICT))
        walker.note(StrictRule.EMPTY_SCHEMA, None, {}, copy_json(out))
        return out, walker.changes
    out = walker.node(root, None, None, 1, root=True)
    if isinstance(out.get("anyOf"), list):
        _fail(StrictRule.ROOT_ANYOF, None)
    typ = out.get("type")
    if isinstance(typ, list) and "object" in typ:
        if typ != ["object"]:
            _fail(StrictRule.ROOT_NULLABLE, None, value=preview_json(typ))
        out["type"] = "object"
        walker.note(StrictRule.ROOT_TYPE_LIST, None, ["object"], "object")
    return out, walker.changes


class _Walker:
    """One conversion: reads the input root, builds the output, counts the node budget."""

    def __init__(self, root: dict[str, Any], *, record: bool, nullable: frozenset[str]) -> None:
        self.root = root
        self.record = record
        self.changes: list[Change] = []
        self.nullable = nullable
        self.budget = STRICT_NODE_BUDGET
        # Outputs built while a singleton allOf is being merged; the merged node is walked
        # again (as the reference does) and these are returned as they are, not rebuilt.
        self.tracking = 0
        self.done: dict[int, dict[str, Any]] = {}
        # Targets being inlined on the current path: seeing one again means recursion.
        self.inlining: set[str] = set()
        self.bare_refs: set[str] = set()
        # Input nodes already converted in place: the reference reads those targets in
        # their rewritten form and all others as written.
        self.processed: set[int] = set()
        self.apply = {key: getattr(self, name) for key, name in _APPLICATORS.items()}

    def note(self, rule: StrictRule, out: LinkedPath, before: Any, after: Any) -> None:
        if self.record:
            reason = _FIXED_REASONS.get(rule)
            if reason is None:
                template = REASONS[rule]
                reason = template.format(
                    before=preview_json(before) if "{before" in template else "",
                    after=preview_json(after) if "{after" in template else "",
                )
            self.changes.append(_change(linked_pointer(out), rule, before, after, reason))

    def spend(self, at: LinkedPath) -> None:
        self.budget -= 1
        if self.budget < 0:
            _fail(StrictRule.TOO_LARGE, at, limit=STRICT_NODE_BUDGET)

    def node(
        self,
        src: Any,
        inp: LinkedPath,
        out: LinkedPath,
        depth: int,
        root: bool = False,
        nested: bool = False,
    ) -> dict[str, Any]:
        """Convert one schema node read at ``inp`` and written at ``out``."""
        if not isinstance(src, dict):
            _fail(StrictRule.NOT_A_SCHEMA, inp, kind=type(src).__name__, value=preview_json(src))
        done = self.done
        if done and done.get(id(src)) is src:
            return src
        if depth > STRICT_NESTING_LIMIT:
            _fail(StrictRule.TOO_DEEP, inp, limit=STRICT_NESTING_LIMIT)
        self.budget -= 1  # spend(), inlined: this runs for every node
        if self.budget < 0:
            _fail(StrictRule.TOO_LARGE, inp, limit=STRICT_NODE_BUDGET)
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

    def _body(
        self,
        src: dict[str, Any],
        inp: LinkedPath,
        out: LinkedPath,
        depth: int,
        root: bool,
        nested: bool,
        partial: bool = False,
    ) -> dict[str, Any]:
        # ``partial`` is the parent half of a singleton-allOf merge: not closed yet and its
        # null default kept, because the merged node is walked again and decides then.
        get = src.get
        if not partial:
            all_of = get("allOf")
            if isinstance(all_of, list) and len(all_of) == 1:
                return self._merge_all_of(src, all_of[0], inp, out, depth, root, nested)

        typ = get("type")
        props: Any = get("properties")
        has_props = isinstance(props, dict)
        infer = typ is None and has_props
        if infer:
            typ = "object"
        elif typ is None and get("additionalProperties", False) is not False:
            _fail(StrictRule.OPEN_OBJECT, inp, value=preview_json(src["additionalProperties"]))
        close = False
        if typ == "object" or (isinstance(typ, list) and "object" in typ):
            extra = get("additionalProperties", _MISSING)
            if extra is _MISSING:
                close = not partial
            elif extra is not False:
                _fail(StrictRule.OPEN_OBJECT, inp, value=preview_json(extra))
        one_of: Any = get("oneOf")
        fold_one_of = isinstance(one_of, list)
        drop_default = not partial and "default" in src and src["default"] is None

        if self.record and (infer or close or has_props or fold_one_of or drop_default):
            # note(), unrolled: one pointer for all of this node's changes.
            at = linked_pointer(out)
            append = self.changes.append
            if infer:
                append(_change(at, StrictRule.INFER_OBJECT_TYPE, get("type"), "object", _R_INFER))
            if close:
                append(_change(at, StrictRule.CLOSE_OBJECT, None, False, _R_CLOSE))
            if has_props:
                old = get("required")
                names = list(props)
                if not isinstance(old, list) or old != names:
                    append(
                        _change(
                            at, StrictRule.REQUIRE_ALL_PROPERTIES, copy_json(old), names, _R_REQUIRE
                        )
                    )
            if fold_one_of:
                append(_change(at, StrictRule.ONEOF_TO_ANYOF, "oneOf", "anyOf", _R_ONEOF))
            if drop_default:
                append(_change(at, StrictRule.DROP_NONE_DEFAULT, None, None, _R_DROP))

        if not (fold_one_of or infer or has_props or drop_default) and _APPLICATOR_KEYS.isdisjoint(
            src
        ):
            # A leaf: no subschema to convert and no keyword to rewrite, only to copy.
            atoms = _ATOM_TYPES
            result = {
                key: value if type(value) in atoms else copy_json(value)
                for key, value in src.items()
            }
            if close:
                result["additionalProperties"] = False
            return result

        # Subschemas are converted in the reference's order, so a `$ref` finds its target
        # already rewritten exactly when the reference would; keys keep the input's order.
        converted: dict[str, Any] = {}
        apply = self.apply
        for key in _WALK_ORDER:
            if key == "anyOf" and fold_one_of:
                converted[key] = self._union(get(key), one_of, inp, out, depth, nested)
            elif key not in src:
                continue
            elif key == "properties" and root and self.nullable and has_props:
                converted[key] = self._root_properties(props, inp, out, depth, nested)
            else:
                converted[key] = apply[key](src[key], (inp, key), (out, key), depth + 1, nested)

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

    def _root_properties(
        self, props: dict[str, Any], inp: LinkedPath, out: LinkedPath, depth: int, nested: bool
    ) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for name, sub in props.items():
            sub_in, sub_out = ((inp, "properties"), name), ((out, "properties"), name)
            default = sub.get("default") if isinstance(sub, dict) else None
            if name not in self.nullable or default is None:
                result[name] = self.node(sub, sub_in, sub_out, depth + 1, nested=nested)
                continue
            self.note(StrictRule.NULLABLE_DEFAULT, sub_out, copy_json(default), None)
            if _allows_null(sub):
                rest = {k: v for k, v in sub.items() if k != "default"}
                result[name] = self.node(rest, sub_in, sub_out, depth + 1, nested=nested)
                continue
            core = {k: v for k, v in sub.items() if k != "default" and k not in _ANNOTATION_KEYS}
            wrapped = {k: copy_json(v) for k, v in sub.items() if k in _ANNOTATION_KEYS}
            inner_out = ((sub_out, "anyOf"), 0)
            wrapped["anyOf"] = [
                self.node(core, sub_in, inner_out, depth + 2, nested=nested),
                {"type": "null"},
            ]
            result[name] = wrapped
        return result

    # -- references

    def _ref_node(
        self,
        src: dict[str, Any],
        inp: LinkedPath,
        out: LinkedPath,
        depth: int,
        root: bool,
        nested: bool,
    ) -> dict[str, Any]:
        if nested:
            _fail(StrictRule.NESTED_ID, inp)
        if len(src) == 1:  # only "$ref": the common bare reference, without the checks below
            ref = src["$ref"]
            if not (isinstance(ref, str) and ref in self.bare_refs):
                self._resolve(ref, inp, inline=False)
                self.bare_refs.add(ref)
            return {"$ref": ref}
        allowed = _ROOT_REF_ANNOTATIONS if root else _REF_ANNOTATIONS
        extra = [str(key) for key in src if key != "$ref" and key not in allowed]
        if extra:
            _fail(StrictRule.REF_SIBLINGS, inp, keywords=", ".join(sorted(extra)))
        ref = src["$ref"]
        siblings = {key: value for key, value in src.items() if key != "$ref"}
        if "default" in siblings and siblings["default"] is None:
            # Dropped before inlining, so the target's own default shows through (reference).
            del siblings["default"]
            self.note(StrictRule.DROP_NONE_DEFAULT, out, None, None)
        if not siblings:
            # A bare $ref stays as it is, but it must resolve; each string is checked once.
            if not (isinstance(ref, str) and ref in self.bare_refs):
                self._resolve(ref, inp, inline=False)
                self.bare_refs.add(ref)
            return {"$ref": ref}
        self.note(StrictRule.INLINE_REF_WITH_SIBLINGS, out, ref, None)
        target, _, keys, origin = self._follow(ref, inp, out, depth, nested, chain=False)
        # The node's keys win and keep their places; the target's other keys follow.
        merged = siblings
        for name, value in target.items():
            if name not in merged:
                merged[name] = value
        try:
            return self.node(merged, origin, out, depth + 1, root=root, nested=nested)
        finally:
            self.inlining.difference_update(keys)

    def _resolve(
        self, ref: Any, at: LinkedPath, *, inline: bool
    ) -> tuple[dict[str, Any], LinkedPath]:
        """Find the local target of ``ref``; never fetches anything."""
        try:
            tokens = ref_tokens(ref)
        except UnresolvedRef as exc:
            rule, detail = _REF_FAILURES[exc.problem]
            _fail(rule, at, ref=preview_json(ref), **detail)
        if not tokens:
            if not inline:
                return self.root, None
            detail = "points at the document root, which cannot be inlined next to sibling keywords"
            _fail(StrictRule.REF_FORMAT, at, ref=preview_json(ref), detail=detail)
        target: dict[str, Any] = self.root
        path: LinkedPath = None
        for token in tokens:
            if token not in target:
                where = linked_pointer(path) or "/"
                detail = f"has no target: {preview_json(token)} is missing at {where}"
                _fail(StrictRule.REF_MISSING, at, ref=preview_json(ref), detail=detail)
            value = target[token]
            path = (path, token)
            if not isinstance(value, dict):
                detail = (
                    f"does not lead to a schema object: {linked_pointer(path)} is not an object"
                )
                _fail(StrictRule.REF_MISSING, at, ref=preview_json(ref), detail=detail)
            if isinstance(value.get("$id"), str):
                _fail(StrictRule.NESTED_ID, at)
            target = value
        return target, path

    def _follow(
        self, ref: Any, at: LinkedPath, out: LinkedPath, depth: int, nested: bool, *, chain: bool
    ) -> tuple[dict[str, Any], dict[str, Any], list[str], LinkedPath]:
        """Resolve ``ref`` to its target as the reference would see it at this point.

        A target already converted in place is read in its strict form, any other as
        written (the reference resolves against the half-rewritten document). With
        ``chain``, a target that is still an annotation-only ``$ref`` is followed in turn,
        carrying its annotations (outer ones win). Returns the target, the carried
        annotations, the targets now marked as being inlined (the caller unmarks them once
        the merged node is converted), and where to report errors in the merged node.
        """
        keys: list[str] = []
        seen: list[Any] = []
        carried: dict[str, Any] = {}
        where = at
        try:
            while True:
                if isinstance(ref, str) and ref in seen:
                    _fail(StrictRule.REF_CYCLE, at, chain=" -> ".join([*seen, ref]))
                seen.append(ref)
                self.spend(where)
                raw, where = self._resolve(ref, where, inline=True)
                key = linked_pointer(where)
                if key in self.inlining:
                    _fail(StrictRule.REF_RECURSIVE, at, ref=preview_json(ref))
                self.inlining.add(key)
                keys.append(key)
                if id(raw) in self.processed:
                    self.tracking += 1
                    try:
                        target = self.node(raw, where, out, depth + 1, nested=nested)
                    finally:
                        self.tracking -= 1
                    origin = at
                else:
                    target, origin = raw, where
                if not (chain and "$ref" in target and not _constrains_ref(target)):
                    return target, carried, keys, origin
                ref = target["$ref"]
                # Inner keys come first, outer annotations win (reference order).
                carried = {**{k: v for k, v in target.items() if k != "$ref"}, **carried}
        except BaseException:
            self.inlining.difference_update(keys)
            raise

    # -- intersections

    def _merge_all_of(
        self,
        src: dict[str, Any],
        entry: Any,
        inp: LinkedPath,
        out: LinkedPath,
        depth: int,
        root: bool,
        nested: bool,
    ) -> dict[str, Any]:
        explicitly_closed = src.get("additionalProperties") is False
        entry_in = (inp, "allOf"), 0
        keys: list[str] = []
        self.tracking += 1
        try:
            parent_src = {key: value for key, value in src.items() if key != "allOf"}
            parent = self._body(parent_src, inp, out, depth, root, nested, partial=True)
            if isinstance(entry, dict) and "$ref" in entry and not _constrains_ref(entry):
                if nested:
                    _fail(StrictRule.NESTED_ID, entry_in)
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


def _merge_entry(entry: dict[str, Any], parent: dict[str, Any], at: LinkedPath) -> dict[str, Any]:
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
        if key not in merged or key in _REF_ANNOTATIONS:
            merged[key] = value
        elif not (
            _json_equal(value, merged[key])
            or (key == "properties" and value == {})
            or (key == "required" and value == [])
        ):
            conflicts.append(str(key))
    if conflicts:
        _fail(StrictRule.ALLOF_CONFLICT, at, keywords=", ".join(sorted(conflicts)))
    return merged


# ``_change`` fills the instance dict directly; it must stay in step with Change's fields.
if tuple(f.name for f in dataclasses.fields(Change)) != (
    "pointer",
    "rule",
    "before",
    "after",
    "reason",
) or hasattr(Change, "__post_init__"):
    raise RuntimeError("strict._change is out of date with records.Change")


def _change(pointer: str, rule: StrictRule, before: Any, after: Any, reason: str) -> Change:
    # What Change's generated frozen __init__ does (one object.__setattr__ per field) at
    # under half the cost: a conversion records one Change per rewrite.
    change = object.__new__(Change)
    change.__dict__.update(pointer=pointer, rule=rule, before=before, after=after, reason=reason)
    return change


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


def _fail(rule: StrictRule, at: LinkedPath, **fields: Any) -> NoReturn:
    message, hint = PROBLEMS[rule]
    raise StrictSchemaError(
        message.format(**fields), pointer=linked_pointer(at), rule=rule, hint=hint
    )


def _constrains_ref(node: dict[str, Any]) -> bool:
    return any(key != "$ref" and key not in _REF_ANNOTATIONS for key in node)


def _allows_null(node: dict[str, Any]) -> bool:
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


def _check_depth(root: dict[str, Any]) -> None:
    """Reject nesting past ``STRICT_NESTING_LIMIT`` (never a RecursionError: see ``_deeper``)."""
    if _deeper(root, STRICT_NESTING_LIMIT):
        _fail(StrictRule.TOO_DEEP, _deep_path(root), limit=STRICT_NESTING_LIMIT)


def _deeper(value: Any, room: int) -> bool:
    """Whether ``value`` (a container) nests more than ``room`` containers deep.

    Recursive, which is faster than an explicit stack here; the recursion stops at
    ``STRICT_NESTING_LIMIT`` levels whatever the input's depth, so it never nears the interpreter's
    limit (the conversion walk itself recurses deeper than this).
    """
    if room <= 0:
        return True
    room -= 1
    for child in value.values() if isinstance(value, dict) else value:
        if isinstance(child, _CONTAINERS) and _deeper(child, room):
            return True
    return False


def _deep_path(root: dict[str, Any]) -> LinkedPath:
    """Path of the first container past ``STRICT_NESTING_LIMIT`` (only called once it exists)."""
    stack: list[tuple[Any, int, LinkedPath]] = [(root, 1, None)]
    while stack:
        value, depth, path = stack.pop()
        if depth > STRICT_NESTING_LIMIT:
            return path
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for token, child in items:
            if isinstance(child, dict | list | tuple):
                stack.append((child, depth + 1, (path, token)))
    return None
