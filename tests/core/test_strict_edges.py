"""Strict conversion at its edges: the cases the mutation pass (docs/mutation-testing.md)
found unpinned by the other strict tests: nullable defaults, the nesting limit's exact
boundary and pointer, and JSON equality when ``allOf`` branches are merged.
"""

from __future__ import annotations

from typing import Any

import pytest

from toollens.core.errors import StrictSchemaError
from toollens.core.strict import StrictRule, explain_strict
from toollens.core.strict.unions import _json_equal

S = {"type": "string"}
CLOSE = [("close-object", ""), ("require-all-properties", "")]


def root(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def strict_root(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "additionalProperties": False,
            "required": list(props)}  # fmt: skip


def converted(schema: dict[str, Any], **options: Any) -> tuple[Any, list[tuple[str, str]]]:
    out, changes = explain_strict(schema, **options)
    return out, [(c.rule.value, c.pointer) for c in changes]


NULLABLE_DEFAULTS = [
    pytest.param(  # not nullable yet: wrapped in anyOf with null, annotations kept outside
        {"type": "string", "title": "A", "description": "d", "default": "x"},
        {"title": "A", "description": "d", "anyOf": [S, {"type": "null"}]},
        [],
        id="wrapped",
    ),
    pytest.param(  # already nullable by its type list: only the default goes
        {"type": ["string", "null"], "default": "x"},
        {"type": ["string", "null"]},
        [],
        id="type-list-with-null",
    ),
    pytest.param(
        {"anyOf": [S, {"type": "null"}], "default": "x"},
        {"anyOf": [S, {"type": "null"}]},
        [],
        id="anyOf-with-null",
    ),
    pytest.param(
        {"oneOf": [S, {"type": "null"}], "default": "x"},
        {"anyOf": [S, {"type": "null"}]},
        [("oneof-to-anyof", "/properties/a")],
        id="oneOf-with-null",
    ),
    pytest.param(
        {"anyOf": [S, {"type": "integer"}], "default": "x"},
        {"anyOf": [{"anyOf": [S, {"type": "integer"}]}, {"type": "null"}]},
        [],
        id="anyOf-without-null",
    ),
]


@pytest.mark.parametrize(("sub", "expected", "more"), NULLABLE_DEFAULTS)
def test_a_nullable_default_makes_the_property_nullable_once(
    sub: dict[str, Any], expected: dict[str, Any], more: list[tuple[str, str]]
) -> None:
    out, changes = converted(root(a=sub, b={"type": "integer", "default": 2}),
                             nullable_defaults=["a"])  # fmt: skip
    # b is not named: its default stays, and it is not made nullable
    assert out == strict_root(a=expected, b={"type": "integer", "default": 2})
    assert changes == [*CLOSE, ("nullable-default", "/properties/a"), *more]


def test_a_nullable_default_inside_is_converted_with_its_own_pointer() -> None:
    sub = {"type": "object", "properties": {"c": S}, "default": {"c": "x"}}
    out, changes = converted(root(a=sub), nullable_defaults=["a"])
    inner = strict_root(c=S)
    assert out == strict_root(a={"anyOf": [inner, {"type": "null"}]})
    assert changes == [
        *CLOSE,
        ("nullable-default", "/properties/a"),
        ("close-object", "/properties/a/anyOf/0"),
        ("require-all-properties", "/properties/a/anyOf/0"),
    ]


def test_an_error_under_a_nullable_default_points_into_the_input() -> None:
    with pytest.raises(StrictSchemaError) as info:
        explain_strict(root(a={"$ref": "#/$defs/missing", "default": 1}), nullable_defaults=["a"])
    assert info.value.pointer == "/properties/a"


def _nested_lists(depth: int) -> dict[str, Any]:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return root(a={"type": "array", "default": value})


def test_nesting_limit_boundary_and_the_pointer_of_the_first_container_past_it() -> None:
    # root, properties, a and the default's lists: 3 + 97 = 100 containers pass
    explain_strict(_nested_lists(97))
    for depth in (98, 99):
        with pytest.raises(StrictSchemaError) as info:
            explain_strict(_nested_lists(depth))
        assert info.value.rule is StrictRule.TOO_DEEP
        assert info.value.pointer == "/properties/a/default" + "/0" * 97


def test_nesting_limit_pointer_through_objects() -> None:
    schema: dict[str, Any] = S
    for _ in range(50):
        schema = root(p=schema)
    with pytest.raises(StrictSchemaError) as info:
        explain_strict(schema)
    assert info.value.pointer == "/properties/p" * 50


@pytest.mark.parametrize(
    ("left", "right", "equal"),
    [
        (1, 1.0, True),
        (1, 2, False),
        (True, 1, False),
        (1, True, False),
        (False, 0, False),
        (True, True, True),
        (True, False, False),
        ("a", "a", True),
        ("a", "b", False),
        (None, None, True),
        (None, 0, False),
        ([1, "a"], [1.0, "a"], True),
        ([1], [1, 1], False),
        ([True], [1], False),
        ([1], 1, False),
        (1, [1], False),
        ([], {}, False),
        ({"a": 1}, {"a": 1.0}, True),
        ({"a": 1}, {"b": 1}, False),
        ({"a": True}, {"a": 1}, False),
        ({"a": [1]}, {"a": [2]}, False),
        ({"a": 1}, [1], False),
    ],
)
def test_json_equality_of_merged_keywords(left: Any, right: Any, equal: bool) -> None:
    assert _json_equal(left, right) is equal
    assert _json_equal(right, left) is equal


@pytest.mark.parametrize(
    ("parent", "entry", "merged"),
    [
        ({"type": "integer", "minimum": 1}, {"minimum": 1.0}, {"minimum": 1.0, "type": "integer"}),
        ({"type": "integer", "minimum": 1}, {"minimum": 2}, None),
        ({"const": True}, {"const": 1}, None),  # true is not 1 in JSON
    ],
)
def test_a_single_all_of_merges_only_what_agrees_as_json(
    parent: dict[str, Any], entry: dict[str, Any], merged: dict[str, Any] | None
) -> None:
    schema = root(n={**parent, "allOf": [entry]})
    if merged is None:
        with pytest.raises(StrictSchemaError) as info:
            explain_strict(schema)
        assert info.value.rule is StrictRule.ALLOF_CONFLICT
        assert info.value.pointer == "/properties/n"
        return
    out, changes = converted(schema)
    assert out["properties"]["n"] == merged
    assert changes == [*CLOSE, ("merge-single-allof", "/properties/n")]
