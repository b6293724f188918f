"""Schema nodes as the diff sees them: ``$ref`` chains followed, siblings merged.

Every node keeps the JSON pointer where each of its keywords lives, so a change inside a
``$ref``-erenced definition points into ``$defs`` and a definition used in several places
is reported once. ``check_document`` checks every subschema and reference up front.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toollens.core.errors import SchemaConstructionError
from toollens.core.schema.pointer import (
    LinkedPath,
    RefProblem,
    UnresolvedRef,
    join_pointer,
    linked_pointer,
    resolve_local,
)
from toollens.core.schema.toolkit import (
    SCHEMA_LIST_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    SCHEMA_VALUE_KEYWORDS,
    preview_json,
)
from toollens.core.schema.types import JsonMapping, JsonSchema

OLD, NEW = 0, 1
#: Tag of the synthesised empty schema that stands for an absent or ``true`` subschema.
EMPTY_TAG = "empty"
SIDE_NAMES = ("old schema (a)", "new schema (b)")


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


#: Marks a keyword missing on one side (``None`` is a legitimate JSON value).
ABSENT: Any = _Absent()


def canon(value: object) -> tuple[object, ...]:
    """A hashable form where JSON-equal values are equal (``1 == 1.0``, ``True != 1``)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return ("n", value)
    if isinstance(value, str):
        return ("s", value)
    if value is None:
        return ("z",)
    if isinstance(value, Mapping):
        return ("d", tuple(sorted((str(k), canon(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return ("l", tuple(canon(v) for v in value))
    return ("o", repr(value))


def same(a: object, b: object) -> bool:
    """JSON equality, with :data:`ABSENT` equal only to itself."""
    if a is ABSENT or b is ABSENT:
        return a is b
    return bool(canon(a) == canon(b))


@dataclass(frozen=True)
class Node:
    """A resolved schema node: its effective keywords and where each of them lives.

    Attributes:
        schema: the keywords after following ``$ref`` and merging siblings.
        home: pointer of the node the keywords come from (a ``$defs`` entry for a ref).
        elsewhere: keywords that live somewhere else (``$ref`` siblings), with their pointer.
        never: the ``false`` schema, which accepts nothing.
        branches: alternatives synthesised for a plain node that faces an ``anyOf``/``oneOf``.
        tag: tells synthesised nodes apart from the node they were made from.
    """

    schema: JsonMapping
    home: str
    elsewhere: Mapping[str, str] = field(default_factory=dict)
    never: bool = False
    branches: tuple[Node, ...] | None = None
    tag: str = ""

    def at(self, keyword: str) -> str:
        """Pointer of the schema object that holds ``keyword``."""
        return self.elsewhere.get(keyword, self.home)

    def child(self, keyword: str, *tokens: str | int) -> str:
        """Pointer of a subschema under ``keyword``."""
        return join_pointer(self.at(keyword), keyword, *tokens)

    @property
    def key(self) -> tuple[object, ...]:
        """Identity of the node for memoising pairs; the same definition has one key.

        Synthesised nodes get keys from their content, not from where they sit, so walking
        a recursive schema against them still revisits pairs (and so ends).
        """
        if self.tag == EMPTY_TAG:
            return (EMPTY_TAG,)
        return (self.home, tuple(sorted(self.elsewhere.items())), self.never, self.tag)


def input_error(message: str, pointer: str | None, hint: str) -> SchemaConstructionError:
    return SchemaConstructionError(message, pointer=pointer, hint=hint)


# What to say about a reference that cannot be followed: message template and hint.
_REF_ERRORS: dict[RefProblem, tuple[str, str]] = {
    RefProblem.NOT_A_STRING: (
        "$ref in the {side} must be a string, found {shown}",
        "write the reference as '#/$defs/Name'",
    ),
    RefProblem.REMOTE: (
        "$ref {ref!r} in the {side} is remote and toollens never fetches schemas",
        "inline the definition under $defs and refer to it as '#/$defs/Name'",
    ),
    RefProblem.ANCHOR: (
        "$ref {ref!r} in the {side} names an anchor, which is not supported",
        "refer to the definition by JSON pointer, e.g. '#/$defs/Name'",
    ),
    RefProblem.BAD_ESCAPE: (
        "$ref {ref!r} in the {side} has %-escapes that are not UTF-8",
        "write the name as it is, or %-escape its UTF-8 bytes",
    ),
    RefProblem.MISSING: (
        "$ref {ref!r} in the {side} points to nothing",
        "add the definition under $defs or fix the reference",
    ),
}


def follow_ref(doc: object, ref: object, where: str, side: str) -> tuple[str, object]:
    """``(pointer, target)`` of a local ``$ref`` found at ``where``; anything else is an error."""
    try:
        return resolve_local(doc, ref)
    except UnresolvedRef as exc:
        message, hint = _REF_ERRORS[exc.problem]
        shown = preview_json(ref)
        raise input_error(message.format(side=side, ref=ref, shown=shown), where, hint) from exc


def resolve(doc: object, raw: object, home: str, side: str) -> Node:
    """Follow ``$ref`` chains from ``raw`` (found at ``home``) and merge what they add."""
    return _merge_single_all_of(doc, _follow_refs(doc, raw, home, side), side)


def _follow_refs(doc: Any, raw: Any, home: str, side: str) -> Node:
    merged: JsonSchema = {}
    elsewhere: dict[str, str] = {}
    targets: list[str] = []
    where = home
    while isinstance(raw, Mapping) and "$ref" in raw:
        target, found = follow_ref(doc, raw["$ref"], where, side)
        if target in targets:
            raise input_error(
                f"$ref chain in the {side} loops back to '#{target}' without a schema",
                where,
                "make one definition in the chain an actual schema",
            )
        targets.append(target)
        # Since draft 2019-09 keywords beside $ref apply too; outer ones win for annotations.
        for key, value in raw.items():
            if key != "$ref" and key not in merged:
                merged[key] = value
                elsewhere[key] = where
        raw = found
        where = target
    never = False
    if isinstance(raw, bool):
        never = not raw
    elif isinstance(raw, Mapping):
        for key, value in raw.items():
            merged.setdefault(key, value)
    else:
        raise input_error(
            f"the {side} has {preview_json(raw)} where a schema (object or boolean) belongs",
            where,
            "use a JSON Schema object there",
        )
    return Node(merged, where, {k: p for k, p in elsewhere.items() if p != where}, never)


def _merge_single_all_of(doc: Any, node: Node, side: str) -> Node:
    # pydantic and hand-written schemas wrap a $ref as allOf: [{$ref}] to attach siblings;
    # that is the same schema as the $ref with siblings, so it must not read as a change.
    seen = {node.home}
    while not node.never:
        branches = node.schema.get("allOf")
        if not (isinstance(branches, list) and len(branches) == 1):
            return node
        outer = {k: v for k, v in node.schema.items() if k != "allOf"}
        inner_raw = branches[0]
        if isinstance(inner_raw, Mapping) and "allOf" in inner_raw:
            return node  # nested wrappers stay as they are; the allOf rule compares them
        # refs only: the loop unwraps the next single allOf itself, so a definition that
        # wraps a $ref to itself ({"A": {"allOf": [{"$ref": "#/$defs/A"}]}}) stops at `seen`
        inner = _follow_refs(doc, inner_raw, node.child("allOf", 0), side)
        if inner.home in seen or set(outer) & set(inner.schema):
            return node
        seen.add(inner.home)
        where = {k: inner.at(k) for k in inner.schema} | {k: node.at(k) for k in outer}
        node = Node(
            {**inner.schema, **outer},
            inner.home,
            {k: p for k, p in where.items() if p != inner.home},
            inner.never,
        )
    return node


def check_document(doc: object, side: str) -> None:
    """Check every subschema and ``$ref`` up front, so a bad one is an error wherever it is.

    The walk only visits what both sides share; without this, a broken reference inside a
    removed property would go unnoticed.
    """
    # Paths are linked (parent, token) pairs, joined into a pointer only when needed.
    stack: list[tuple[Any, LinkedPath]] = [(doc, None)]
    while stack:
        raw, path = stack.pop()
        if isinstance(raw, bool):
            continue
        if not isinstance(raw, Mapping):
            raise input_error(
                f"the {side} has {preview_json(raw)} where a schema (object or boolean) belongs",
                linked_pointer(path),
                "use a JSON Schema object there",
            )
        if "$ref" in raw:
            resolve(doc, raw, linked_pointer(path), side)
        for keyword in SCHEMA_MAP_KEYWORDS:
            children = raw.get(keyword)
            if isinstance(children, Mapping):
                stack.extend((v, ((path, keyword), k)) for k, v in children.items())
        for keyword in SCHEMA_LIST_KEYWORDS:
            children = raw.get(keyword)
            if isinstance(children, list):
                stack.extend((v, ((path, keyword), i)) for i, v in enumerate(children))
        for keyword in SCHEMA_VALUE_KEYWORDS:
            if keyword in raw:
                stack.append((raw[keyword], (path, keyword)))


# Keywords that only constrain one instance type; used to split a type list into branches.
_TYPE_SPECIFIC: dict[str, frozenset[str]] = {
    **dict.fromkeys(("minLength", "maxLength", "pattern", "format"), frozenset({"string"})),
    **dict.fromkeys(
        ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
        frozenset({"number", "integer"}),
    ),
    **dict.fromkeys(
        (
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "additionalItems",
            "unevaluatedItems",
        ),
        frozenset({"array"}),
    ),
    **dict.fromkeys(
        (
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "minProperties",
            "maxProperties",
            "propertyNames",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "unevaluatedProperties",
        ),
        frozenset({"object"}),
    ),
}

_STAY_ON_TOP = frozenset({"default", "$defs", "definitions"})


def type_set(schema: JsonMapping) -> frozenset[str] | None:
    """The instance types a node accepts (``None``: any), counting OpenAPI ``nullable``.

    Raises ``ValueError`` for a ``type`` that is neither a string nor a list of strings.
    """
    if "type" not in schema:
        return None
    declared = schema["type"]
    if isinstance(declared, str):
        types = frozenset({declared})
    elif isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        types = frozenset(declared)
    else:
        raise ValueError(declared)
    if schema.get("nullable") is True:
        types |= {"null"}
    return types


def _union_keyword(node: Node) -> str | None:
    for keyword in ("anyOf", "oneOf"):
        if isinstance(node.schema.get(keyword), list):
            return keyword
    return None


def lift_unions(old: Node, new: Node) -> tuple[Node, Node]:
    """Make a plain node facing an ``anyOf``/``oneOf`` a union of itself.

    ``{"type": "string"}`` -> ``{"anyOf": [{"type": "string"}, {"type": "null"}]}`` is a new
    alternative (compatible), not "type removed, anyOf added".
    """
    old_union, new_union = _union_keyword(old), _union_keyword(new)
    has_old = "anyOf" in old.schema or "oneOf" in old.schema
    has_new = "anyOf" in new.schema or "oneOf" in new.schema
    if new_union and not has_old:
        return _lift(old, new, new_union), new
    if old_union and not has_new:
        return old, _lift(new, old, old_union)
    return old, new


def _lift(plain: Node, union: Node, keyword: str) -> Node:
    moved = {
        k: v for k, v in plain.schema.items() if k not in union.schema and k not in _STAY_ON_TOP
    }
    kept = {k: v for k, v in plain.schema.items() if k not in moved}
    try:
        types = type_set(moved)
    except ValueError:
        types = None
    if types is not None and len(types) > 1:
        # A type list is a union already: one branch per type, each with its own keywords.
        parts = [
            {"type": t}
            | {
                k: v
                for k, v in moved.items()
                if k not in ("type", "nullable") and t in _TYPE_SPECIFIC.get(k, frozenset({t}))
            }
            for t in sorted(types)
        ]
    else:
        parts = [moved]
    branches = tuple(
        Node(
            part,
            plain.home,
            {k: plain.at(k) for k in part if plain.at(k) != plain.home},
            # Lifting a lifted branch again against the same union selects the same keys,
            # so the tag (and the key) stays the same: no endless unfolding.
            tag=f"lift:{preview_json(part.get('type'))}:{sorted(part)}",
        )
        for i, part in enumerate(parts)
    )
    return Node(
        kept | {keyword: [dict(b.schema) for b in branches]},
        plain.home,
        {k: p for k, p in plain.elsewhere.items() if k in kept},
        branches=branches,
        tag=plain.tag,
    )
