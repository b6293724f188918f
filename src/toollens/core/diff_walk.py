"""The walk behind :func:`toollens.core.diff.diff`: ``$ref`` resolution and pair comparison.

Two schemas are walked side by side. Each pair of nodes is resolved (``$ref`` chains
followed, ``$ref`` siblings and a one-branch ``allOf`` merged into the node) and then every
keyword present on either side is dispatched through a :class:`RuleTable` (the rules live
in ``diff_rules`` and ``diff_shapes``).
A rule is a small generator that yields :class:`SchemaChange` records and recurses into
subschemas through :meth:`Walk.compare`.

Every node keeps the JSON pointer where each of its keywords lives, so a change inside a
``$ref``-erenced definition points into ``$defs`` (in the new schema for added and changed
things, in the old schema for removed ones) and a definition used in several places is
reported once.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
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
    DIFF_NESTING_LIMIT,
    SCHEMA_LIST_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    SCHEMA_VALUE_KEYWORDS,
    preview_json,
)

OLD, NEW = 0, 1
#: Tag of the synthesised empty schema that stands for an absent or ``true`` subschema.
EMPTY_TAG = "empty"
SIDE_NAMES = ("old schema (a)", "new schema (b)")


class DiffSeverity(str, enum.Enum):
    """How much a schema change matters to the tool's callers and to the model."""

    BREAKING = "breaking"  # a call that used to be valid may be rejected, or callers must change
    COMPATIBLE = "compatible"  # every call that used to be valid still is
    DESCRIPTION_ONLY = "description-only"  # what the model reads changed, validation did not

    @property
    def rank(self) -> int:
        """0 for the worst severity; used to sort and to find the worst."""
        return _SEVERITY_ORDER.index(self)


_SEVERITY_ORDER = (DiffSeverity.BREAKING, DiffSeverity.COMPATIBLE, DiffSeverity.DESCRIPTION_ONLY)


class ChangeKind(str, enum.Enum):
    """What happened to the thing a change is about."""

    ADDED = "added"  # present only in the new schema; the pointer is into the new schema
    REMOVED = "removed"  # present only in the old schema; the pointer is into the old schema
    CHANGED = "changed"  # present in both with different values; pointer into the new schema
    MOVED = "moved"  # the same schema under a new name; before/after are the two pointers


#: Keywords of changes about the tool as a whole (pointer ``""``) rather than its parameters.
TOOL_KEYWORDS = ("tool.name", "tool.description", "tool.strict")


@dataclass(frozen=True)
class SchemaChange:
    """One difference between two tool schemas.

    Attributes:
        pointer: RFC 6901 pointer of the schema node the change is about: into the new
            schema for added, changed and moved things, into the old one for removed things.
            Tool-level changes (``keyword`` starting with ``"tool."``) use ``""``.
        kind: added, removed, changed or moved.
        keyword: the JSON Schema keyword concerned (``"type"``, ``"required"``, ``"enum"``,
            ``"properties"`` for whole properties, ``"anyOf"`` for whole branches, ...) or
            ``"tool.name"`` / ``"tool.description"`` / ``"tool.strict"``.
        before: the old value (``None`` when added); JSON data.
        after: the new value (``None`` when removed); JSON data.
        severity: breaking, compatible or description-only.
        message: one readable clause, with the values shown.
    """

    pointer: str
    kind: ChangeKind
    keyword: str
    before: Any
    after: Any
    severity: DiffSeverity
    message: str

    @property
    def is_tool_level(self) -> bool:
        """Whether the change is about the tool (name, description, strict), not a schema node."""
        return self.keyword.startswith("tool.")

    @property
    def where(self) -> str:
        """The pointer as shown to a person: ``(tool)`` for tool-level changes, ``/`` for root."""
        return "(tool)" if self.is_tool_level else (self.pointer or "/")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; keys in a fixed order."""
        return {
            "pointer": self.pointer,
            "kind": self.kind.value,
            "keyword": self.keyword,
            "severity": self.severity.value,
            "message": self.message,
            "before": self.before,
            "after": self.after,
        }

    def __str__(self) -> str:
        return f"{SEVERITY_LABELS[self.severity]:<13}{self.where}  {self.keyword}: {self.message}"


SEVERITY_LABELS = {
    DiffSeverity.BREAKING: "BREAKING",
    DiffSeverity.COMPATIBLE: "COMPATIBLE",
    DiffSeverity.DESCRIPTION_ONLY: "DESCRIPTION",
}


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


#: Marks a keyword missing on one side (``None`` is a legitimate JSON value).
ABSENT: Any = _Absent()


def canon(value: Any) -> Any:
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


def same(a: Any, b: Any) -> bool:
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

    schema: Mapping[str, Any]
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


def _error(message: str, pointer: str | None, hint: str) -> SchemaConstructionError:
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


def follow_ref(doc: Any, ref: Any, where: str, side: str) -> tuple[str, Any]:
    """``(pointer, target)`` of a local ``$ref`` found at ``where``; anything else is an error."""
    try:
        return resolve_local(doc, ref)
    except UnresolvedRef as exc:
        message, hint = _REF_ERRORS[exc.problem]
        shown = preview_json(ref)
        raise _error(message.format(side=side, ref=ref, shown=shown), where, hint) from exc


def resolve(doc: Any, raw: Any, home: str, side: str) -> Node:
    """Follow ``$ref`` chains from ``raw`` (found at ``home``) and merge what they add."""
    return _merge_single_all_of(doc, _follow_refs(doc, raw, home, side), side)


def _follow_refs(doc: Any, raw: Any, home: str, side: str) -> Node:
    merged: dict[str, Any] = {}
    elsewhere: dict[str, str] = {}
    targets: list[str] = []
    where = home
    while isinstance(raw, Mapping) and "$ref" in raw:
        target, found = follow_ref(doc, raw["$ref"], where, side)
        if target in targets:
            raise _error(
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
        raise _error(
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


def check_document(doc: Any, side: str) -> None:
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
            raise _error(
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


Rule = Callable[["Walk", Node, Node, str], Iterator[SchemaChange]]
#: The keywords a rule owns (several: read together, run once) and the rule.
Entry = tuple[tuple[str, ...], Rule]


class RuleTable:
    """Keyword -> rule, checked when built: every keyword has exactly one owner."""

    def __init__(self, entries: Iterable[Entry], fallback: Rule) -> None:
        self._leaders: dict[str, str] = {}
        self._rules: dict[str, Rule] = {}
        self.fallback = fallback
        for keywords, rule in entries:
            for keyword in keywords:
                if keyword in self._leaders:
                    raise RuntimeError(f"diff keyword {keyword!r} has two rules")
                self._leaders[keyword] = keywords[0]
            self._rules[keywords[0]] = rule

    def lookup(self, keyword: str) -> tuple[str, Rule]:
        """The keyword that leads ``keyword``'s group, and the rule to run for it."""
        leader = self._leaders.get(keyword, keyword)
        return leader, self._rules.get(leader, self.fallback)

    def __contains__(self, keyword: object) -> bool:
        return keyword in self._leaders


_DEF_KEYWORDS = ("$defs", "definitions")
_DEF_PREFIXES = ("#/$defs/", "#/definitions/")
# A "$ref" member with a string value, in compact JSON text.
_REF_IN_TEXT = re.compile(r'"\$ref":"((?:[^"\\]|\\.)*)"')


def _json_text(value: Any) -> str | None:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None


def _refs_into_defs(text: str) -> bool:
    """Whether every ``$ref`` in ``text`` names something under ``$defs``/``definitions``."""
    # The encoder escapes only quotes, backslashes and control characters, so the raw
    # text of a reference starts with a prefix exactly when the reference does.
    return all(ref.startswith(_DEF_PREFIXES) for ref in _REF_IN_TEXT.findall(text))


def _same_definitions(old_doc: Any, new_doc: Any) -> bool:
    """Both documents define the same things, referring only to each other."""
    if not (isinstance(old_doc, Mapping) and isinstance(new_doc, Mapping)):
        return False
    old = _json_text({k: old_doc.get(k) for k in _DEF_KEYWORDS})
    new = _json_text({k: new_doc.get(k) for k in _DEF_KEYWORDS})
    return old is not None and old == new and _refs_into_defs(old)


class Walk:
    """One comparison of two schema documents; memoises node pairs.

    A pair already being compared higher up the walk (a recursive schema) counts as equal,
    so every walk ends; a pair compared before returns its earlier result. Equal subtrees
    are not walked at all (see :meth:`unchanged`): an edit of one property of a schema with
    hundreds walks that property and its ancestors.
    """

    def __init__(self, old_doc: Any, new_doc: Any, table: RuleTable) -> None:
        self._docs = (old_doc, new_doc)
        self._table = table
        self._done: dict[tuple[object, ...], tuple[SchemaChange, ...]] = {}
        self._active: set[tuple[object, ...]] = set()
        self._depth = 0
        for doc, side in zip(self._docs, SIDE_NAMES, strict=True):
            check_document(doc, side)
        self._same_defs = _same_definitions(old_doc, new_doc)

    def unchanged(self, old: Node, new: Node) -> bool:
        """Whether two plain nodes are the same JSON, and so are whatever they refer to."""
        if old.tag or new.tag or old.elsewhere or new.elsewhere or old.never or new.never:
            return False
        if old.branches is not None or new.branches is not None:
            return False
        # `==` first (C speed, stops at the first difference); it takes True for 1, so
        # the JSON texts decide.
        if old.schema != new.schema:
            return False
        text = _json_text(old.schema)
        if text is None or text != _json_text(new.schema):
            return False
        return '"$ref"' not in text or (self._same_defs and _refs_into_defs(text))

    def node(self, side: int, raw: Any, pointer: str) -> Node:
        """Resolve ``raw``, found at ``pointer`` in the old (0) or new (1) document."""
        return resolve(self._docs[side], raw, pointer, SIDE_NAMES[side])

    def root(self, side: int) -> Node:
        return self.node(side, self._docs[side], "")

    def equal(self, old: Node, new: Node) -> bool:
        return not self.compare(old, new)

    def compare(self, old: Node, new: Node) -> tuple[SchemaChange, ...]:
        """Every change from ``old`` to ``new``, unordered."""
        key = (old.key, new.key)
        done = self._done.get(key)
        if done is not None:
            return done
        if self.unchanged(old, new):
            return ()
        if key in self._active:
            return ()
        if self._depth >= DIFF_NESTING_LIMIT:
            raise _error(
                f"the schemas nest deeper than {DIFF_NESTING_LIMIT} levels",
                new.home,
                "flatten the schema; deeper nesting is not a usable tool schema",
            )
        self._active.add(key)
        self._depth += 1
        try:
            changes = tuple(self._changes(old, new))
        finally:
            self._active.discard(key)
            self._depth -= 1
        self._done[key] = changes
        return changes

    def _changes(self, old: Node, new: Node) -> Iterator[SchemaChange]:
        if old.never or new.never:
            yield from _never_changes(old, new)
            return
        old, new = lift_unions(old, new)
        seen: set[str] = set()
        for keyword in sorted(set(old.schema) | set(new.schema)):
            leader, rule = self._table.lookup(keyword)
            if leader not in seen:
                seen.add(leader)
                yield from rule(self, old, new, leader)


def _never_changes(old: Node, new: Node) -> Iterator[SchemaChange]:
    if old.never and new.never:
        return
    if old.never:
        yield SchemaChange(
            new.home,
            ChangeKind.CHANGED,
            "schema",
            False,
            dict(new.schema),
            DiffSeverity.COMPATIBLE,
            "now accepts values (was the false schema, which accepts nothing)",
        )
    else:
        yield SchemaChange(
            new.home,
            ChangeKind.CHANGED,
            "schema",
            dict(old.schema),
            False,
            DiffSeverity.BREAKING,
            "now the false schema: no value is accepted",
        )


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


def type_set(schema: Mapping[str, Any]) -> frozenset[str] | None:
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
