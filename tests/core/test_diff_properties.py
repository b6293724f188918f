"""Properties of the schema diff that must hold for any input.

*Mirror*, as implemented: for ``forward = diff(a, b)`` and ``backward = diff(b, a)``

1. both are empty or both are not;
2. the changes correspond one to one by ``(kind, keyword, description-only or not)`` once
   ``added`` and ``removed`` are swapped (``changed`` and ``moved`` stay);
3. an added thing is removed at the same pointer: added/removed changes correspond by
   ``(kind, keyword, pointer)`` with the kinds swapped (``changed`` pointers may differ,
   because they point into the new schema, which is a different document each way);
4. every compatible change one way is breaking the other way, except ``default`` (which
   is compatible both ways): per ``(kind, keyword)``, backward has at least as many breaking
   changes as forward has compatible ones. Breaking may stay breaking (a type changed from
   string to integer breaks both ways).
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toollens.core.diff import ChangeKind, DiffSeverity, SchemaDiff, diff
from toollens.core.diff.walk import Walk
from toollens.core.errors import SchemaConstructionError

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NAMES = st.sampled_from(["a", "b", "city", "x/y", "t~1", "n"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, 1.0, 2.5]),
    st.sampled_from(["c", "f", "k", ""]),
)
TYPES = ["string", "integer", "number", "boolean", "null", "array", "object"]
REFS = ["#/$defs/A", "#/$defs/B", "#"]

_ANNOTATION = {
    "description": st.sampled_from(["one", "two"]),
    "title": st.sampled_from(["T", "U"]),
    "default": SCALARS,
    "examples": st.lists(SCALARS, max_size=2),
}


def _leaf() -> st.SearchStrategy[Any]:
    typed = st.fixed_dictionaries(
        {
            "type": st.one_of(
                st.sampled_from(TYPES),
                st.lists(st.sampled_from(TYPES), min_size=1, max_size=2, unique=True),
            )
        },
        optional={
            **_ANNOTATION,
            "minimum": st.integers(0, 3),
            "maximum": st.integers(4, 6),
            "maxLength": st.integers(1, 5),
            "multipleOf": st.sampled_from([0.5, 1, 2]),
            "format": st.sampled_from(["date", "email"]),
            "nullable": st.booleans(),
        },
    )
    return st.one_of(
        typed,
        st.fixed_dictionaries({"enum": st.lists(SCALARS, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"const": SCALARS}),
        st.fixed_dictionaries(
            {"$ref": st.sampled_from(REFS)}, optional={"description": st.just("via ref")}
        ),
        st.booleans(),
        st.just({}),
    )


@st.composite
def _object(draw: st.DrawFn, children: st.SearchStrategy[Any]) -> Any:
    properties = draw(st.dictionaries(NAMES, children, max_size=3))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = (
        draw(st.lists(st.sampled_from(sorted(properties)), unique=True)) if properties else []
    )
    if required:
        schema["required"] = required
    extra = draw(st.one_of(st.none(), st.booleans(), children))
    if extra is not None:
        schema["additionalProperties"] = extra
    return schema


def _extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        _object(children),
        st.fixed_dictionaries(
            {"type": st.just("array"), "items": children},
            optional={"minItems": st.integers(0, 2), "prefixItems": st.lists(children, max_size=2)},
        ),
        st.fixed_dictionaries({"anyOf": st.lists(children, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"oneOf": st.lists(children, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"allOf": st.lists(children, min_size=1, max_size=2)}),
    )


SUBSCHEMAS = st.recursive(_leaf(), _extend, max_leaves=8)
# A definition is never a bare $ref, so a chain of refs always ends in a schema.
DEFINITIONS = st.recursive(
    _leaf().filter(lambda s: not (isinstance(s, dict) and "$ref" in s)), _extend, max_leaves=4
)


@st.composite
def documents(draw: st.DrawFn) -> Any:
    root = draw(_object(SUBSCHEMAS))
    root["$defs"] = {"A": draw(DEFINITIONS), "B": draw(DEFINITIONS)}
    return root


_EDITS: dict[str, st.SearchStrategy[Any]] = {
    "type": st.sampled_from(TYPES),
    "enum": st.lists(SCALARS, min_size=1, max_size=3),
    "additionalProperties": st.booleans(),
    "minimum": st.integers(0, 3),
    "maxLength": st.integers(1, 5),
    "description": st.sampled_from(["x", "y"]),
    "title": st.sampled_from(["x", "y"]),
    "default": SCALARS,
}


def _schema_nodes(schema: Any) -> list[dict[str, Any]]:
    """Every schema object in a document (not the maps that hold them)."""
    found: list[dict[str, Any]] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        found.append(node)
        for key in ("properties", "$defs"):
            stack.extend(node.get(key, {}).values())
        for key in ("prefixItems", "anyOf", "oneOf", "allOf"):
            stack.extend(node.get(key, []))
        stack.extend(node.get(key) for key in ("items", "additionalProperties"))
    return found


@st.composite
def mutated(draw: st.DrawFn, schema: Any) -> Any:
    """``schema`` with a few random edits, so pairs share most of their structure."""
    result = copy.deepcopy(schema)
    nodes = _schema_nodes(result)
    for _ in range(draw(st.integers(1, 3))):
        node = draw(st.sampled_from(nodes))
        edit = draw(st.sampled_from(["drop", "set", "retype", "rename", "require", "nudge"]))
        keys = sorted(k for k in node if k != "$defs")
        props = node.get("properties")
        if edit == "drop" and keys:
            del node[draw(st.sampled_from(keys))]
        elif edit == "set":
            key = draw(st.sampled_from(sorted(_EDITS)))
            node[key] = draw(_EDITS[key])
        elif edit == "retype" and "type" in node:
            node["type"] = draw(st.sampled_from([t for t in TYPES if t != node["type"]]))
        elif edit == "rename" and isinstance(props, dict) and props:
            old_name = draw(st.sampled_from(sorted(props)))
            props[old_name + "2"] = props.pop(old_name)
        elif edit == "require" and isinstance(props, dict):
            node["required"] = sorted(props)[: draw(st.integers(0, 2))]
        elif edit == "nudge":
            numeric = [k for k in keys if k in ("minimum", "maximum", "maxLength", "minItems")]
            if numeric:
                key = draw(st.sampled_from(numeric))
                node[key] += draw(st.sampled_from([-1, 1]))
            elif isinstance(node.get("enum"), list):
                node["enum"] = [*node["enum"][1:], draw(SCALARS)]
    return result


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    """Mostly a document and an edited copy; sometimes two unrelated documents."""
    a = draw(documents())
    b = draw(st.one_of(mutated(a), mutated(a), mutated(a), documents()))
    return a, b


def _attempt(a: Any, b: Any) -> SchemaDiff | None:
    try:
        return diff(a, b)
    except SchemaConstructionError:
        return None


_SWAP = {ChangeKind.ADDED: ChangeKind.REMOVED, ChangeKind.REMOVED: ChangeKind.ADDED}


def _swap(kind: ChangeKind) -> ChangeKind:
    return _SWAP.get(kind, kind)


@SETTINGS
@given(documents())
def test_diff_with_itself_is_empty(schema: Any) -> None:
    result = _attempt(schema, schema)
    if result is not None:
        assert result.changes == ()
        assert diff(schema, copy.deepcopy(schema)).changes == ()


@SETTINGS
@given(pairs())
def test_skipping_equal_subtrees_changes_nothing(pair: tuple[Any, Any]) -> None:
    """The walk skips subtrees that are the same JSON (and refer to the same definitions);
    walking them instead finds exactly the same changes."""
    a, b = pair
    fast = _attempt(a, b)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Walk, "unchanged", lambda self, old, new: False)
        slow = _attempt(a, b)
    assert (fast is None) == (slow is None)
    if fast is not None and slow is not None:
        assert fast.to_dict() == slow.to_dict()


@SETTINGS
@given(pairs())
def test_diff_mirrors_and_is_deterministic(pair: tuple[Any, Any]) -> None:
    a, b = pair
    snapshot = copy.deepcopy(pair)
    forward = _attempt(a, b)
    assert (a, b) == snapshot, "diff must not mutate its inputs"
    if forward is None:
        with pytest.raises(SchemaConstructionError):
            diff(b, a)
        return
    assert diff(copy.deepcopy(a), copy.deepcopy(b)).to_dict() == forward.to_dict()
    backward = diff(b, a)
    # 1
    assert bool(forward) == bool(backward)
    # 2
    assert Counter(
        (_swap(c.kind), c.keyword, c.severity is DiffSeverity.DESCRIPTION_ONLY) for c in forward
    ) == Counter((c.kind, c.keyword, c.severity is DiffSeverity.DESCRIPTION_ONLY) for c in backward)
    # 3
    ends = (ChangeKind.ADDED, ChangeKind.REMOVED)
    assert Counter((_swap(c.kind), c.keyword, c.pointer) for c in forward if c.kind in ends) == (
        Counter((c.kind, c.keyword, c.pointer) for c in backward if c.kind in ends)
    )
    # 4
    for one, other in ((forward, backward), (backward, forward)):
        compatible = Counter(
            (_swap(c.kind), c.keyword)
            for c in one
            if c.severity is DiffSeverity.COMPATIBLE and c.keyword != "default"
        )
        breaking = Counter(
            (c.kind, c.keyword) for c in other if c.severity is DiffSeverity.BREAKING
        )
        assert all(breaking[key] >= count for key, count in compatible.items()), (one, other)


KEYWORDS = st.sampled_from(
    [
        "type",
        "properties",
        "required",
        "items",
        "prefixItems",
        "anyOf",
        "oneOf",
        "allOf",
        "enum",
        "const",
        "$ref",
        "$defs",
        "definitions",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "multipleOf",
        "pattern",
        "format",
        "additionalProperties",
        "default",
        "description",
        "nullable",
        "not",
        "patternProperties",
        "uniqueItems",
        "discriminator",
        "name",
        "parameters",
        "input_schema",
        "function",
        "strict",
        "x-a",
        "zzz",
    ]
)
JUNK = st.recursive(
    st.one_of(
        SCALARS,
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([*REFS, "#/$defs/Missing", "http://x", "#anchor", "#/$defs/A/0"]),
        st.sampled_from(["function", "object", "string"]),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(KEYWORDS, children, max_size=4),
    ),
    max_leaves=12,
)


@SETTINGS
@given(JUNK, JUNK)
@example({"minimum": None}, {"minimum": 0})  # a null bound once raised TypeError
@example({"maximum": 3}, {"maximum": None})
def test_only_construction_errors(a: Any, b: Any) -> None:
    try:
        result = diff(a, b)
    except SchemaConstructionError as exc:
        hint = exc.hint
        assert hint, "every error says what to do"
        return
    assert isinstance(result, SchemaDiff)
    for change in result.changes:
        assert change.message
        assert not any(
            isinstance(v, float) and math.isnan(v) for v in (change.before, change.after)
        )


@SETTINGS
@given(st.one_of(st.integers(), st.text(), st.lists(st.integers()), st.just(object())))
def test_non_schemas_are_construction_errors(value: Any) -> None:
    with pytest.raises(SchemaConstructionError):
        diff(value, {"type": "object"})
