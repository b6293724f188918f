"""Schema diff: a table of schema pairs and the changes each must report."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from toollens.core.diff import (
    ChangeKind,
    DiffSeverity,
    SchemaChange,
    SchemaDiff,
    diff,
    iter_changes,
)
from toollens.core.errors import SchemaConstructionError

B, C, D = "breaking", "compatible", "description-only"


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> Any:
    """An object schema; ``required`` defaults to none."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    return schema | extra


def summary(result: SchemaDiff) -> list[tuple[str, str, str, str]]:
    return [(c.pointer, c.kind.value, c.keyword, c.severity.value) for c in result.changes]


S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741 - reads as "integer" in the table


def node(name: str, **extra: Any) -> Any:
    """A recursive tree-node definition called ``name``."""
    children = {"type": "array", "items": {"$ref": f"#/$defs/{name}"}}
    return {"type": "object", "properties": {"value": I, "children": children}} | extra


LIST_NODE = obj({"n": I, "next": {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "null"}]}})

CHAT = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather.",
        "parameters": obj({"city": S}, ["city"]),
        "strict": True,
    },
}


def chat(**changes: Any) -> Any:
    payload = copy.deepcopy(CHAT)
    payload["function"].update(changes)
    return payload


CASES = [
    # -- nothing a caller could notice -------------------------------------------------
    pytest.param(obj({"a": S}), obj({"a": S}), [], id="identical"),
    pytest.param(
        {"type": "object", "required": ["a", "b"], "properties": {"a": S, "b": I}},
        {
            "properties": {"b": {"type": "integer"}, "a": S},
            "required": ["b", "a"],
            "type": "object",
        },
        [],
        id="key-and-required-order",
    ),
    pytest.param(
        obj({"u": {"enum": ["c", "f"]}}), obj({"u": {"enum": ["f", "c"]}}), [], id="enum-order"
    ),
    pytest.param(
        obj({"a": {"$ref": "#/$defs/Address"}}, **{"$defs": {"Address": obj({"city": S})}}),
        obj({"a": {"$ref": "#/$defs/Location"}}, **{"$defs": {"Location": obj({"city": S})}}),
        [],
        id="ref-definition-renamed",
    ),
    pytest.param(
        obj({"a": {"$ref": "#/definitions/A"}}, definitions={"A": S}),
        obj({"a": S}),
        [],
        id="ref-inlined",
    ),
    pytest.param(
        obj({"a": {"$ref": "#/$defs/A%20B"}}, **{"$defs": {"A B": S}}),
        obj({"a": {"$ref": "#/$defs/a~1b"}}, **{"$defs": {"a/b": S}}),
        [],
        id="ref-escaped-names",
    ),
    pytest.param(
        obj({"a": S}, **{"$defs": {"Unused": S}}),
        obj({"a": S}, **{"$defs": {"Unused": I}}),
        [],
        id="unreferenced-def-ignored",
    ),
    pytest.param(
        obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": I}}),
        obj({"a": I}),
        [],
        id="chained-refs-equal",
    ),
    pytest.param(
        {"$ref": "#/$defs/N", "$defs": {"N": node("N")}},
        {"$ref": "#/$defs/Node", "$defs": {"Node": node("Node")}},
        [],
        id="recursive-renamed",
    ),
    pytest.param(
        obj({"a": {"allOf": [{"$ref": "#/$defs/A"}], "description": "x"}}, **{"$defs": {"A": S}}),
        obj({"a": {"$ref": "#/$defs/A", "description": "x"}}, **{"$defs": {"A": S}}),
        [],
        id="single-allof-wrapper",
    ),
    pytest.param(
        obj({"a": {"type": ["string", "null"], "minLength": 1}}),
        obj({"a": {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}}),
        [],
        id="type-list-as-anyof",
    ),
    pytest.param(
        obj({"a": {"type": "string", "nullable": True}}),
        obj({"a": {"type": ["null", "string"]}}),
        [],
        id="openapi-nullable",
    ),
    # -- properties and required --------------------------------------------------------
    pytest.param(
        obj({"a": S, "b": I}, ["a"]),
        obj({"a": S}, ["a"]),
        [("/properties/b", "removed", "properties", B)],
        id="property-removed",
    ),
    pytest.param(
        obj({"city": S, "n": I}, ["city"]),
        obj({"town": S, "n": I}, ["town"]),
        [("/properties/town", "moved", "properties", B)],
        id="property-renamed",
    ),
    pytest.param(
        obj({"a": S}, ["a"]),
        obj({"a": S, "b": I}, ["a"]),
        [("/properties/b", "added", "properties", C)],
        id="new-optional-property",
    ),
    pytest.param(
        obj({"a": S}, ["a"]),
        obj({"a": S, "b": I}, ["a", "b"]),
        [("/properties/b", "added", "properties", B)],
        id="new-required-property",
    ),
    pytest.param(
        obj({"city": S}),
        obj({"city": S}, ["city"]),
        [("/properties/city", "changed", "required", B)],
        id="became-required",
    ),
    pytest.param(
        obj({"city": S}, ["city"]),
        obj({"city": S}),
        [("/properties/city", "changed", "required", C)],
        id="no-longer-required",
    ),
    # -- types ---------------------------------------------------------------------------
    pytest.param(
        obj({"a": {"type": ["string", "null"]}}),
        obj({"a": S}),
        [("/properties/a", "changed", "type", B)],
        id="type-narrowed-null-dropped",
    ),
    pytest.param(
        obj({"n": {"type": "number"}}),
        obj({"n": I}),
        [("/properties/n", "changed", "type", B)],
        id="type-narrowed-number-integer",
    ),
    pytest.param(
        obj({"n": I}),
        obj({"n": {"type": "number"}}),
        [("/properties/n", "changed", "type", C)],
        id="type-widened",
    ),
    pytest.param(
        obj({"a": {}}),
        obj({"a": S}),
        [("/properties/a", "added", "type", B)],
        id="type-restriction-added",
    ),
    pytest.param(
        obj({"a": S}),
        obj({"a": {"anyOf": [S, {"type": "null"}], "default": None}}),
        [
            ("/properties/a", "added", "default", C),
            ("/properties/a/anyOf/1", "added", "anyOf", C),
        ],
        id="made-optional-anyof-branch-added",
    ),
    pytest.param(
        obj({"a": {"anyOf": [S, I, {"type": "null"}]}}),
        obj({"a": {"anyOf": [{"type": "null"}, S]}}),
        [("/properties/a/anyOf/1", "removed", "anyOf", B)],
        id="anyof-branch-removed",
    ),
    pytest.param(
        obj({"p": {"anyOf": [obj({"x": I}, title="Point"), {"type": "null"}]}}),
        obj({"p": {"anyOf": [{"type": "null"}, obj({"x": I, "y": I}, ["y"], title="Point")]}}),
        [("/properties/p/anyOf/1/properties/y", "added", "properties", B)],
        id="anyof-branch-matched-by-title",
    ),
    pytest.param(
        obj({"pet": {"oneOf": [{"$ref": "#/$defs/Cat"}]}}, **{"$defs": {"Cat": obj({"m": S})}}),
        obj(
            {"pet": {"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}},
            **{"$defs": {"Cat": obj({"m": S}), "Dog": obj({"b": S})}},
        ),
        [("/properties/pet/oneOf/1", "added", "oneOf", C)],
        id="oneof-branch-added",
    ),
    # -- values and constraints -----------------------------------------------------------
    pytest.param(
        obj({"u": {"enum": ["c", "f", "k"]}}),
        obj({"u": {"enum": ["c", "k", "r"]}}),
        [("/properties/u", "added", "enum", C), ("/properties/u", "removed", "enum", B)],
        id="enum-value-removed-and-added",
    ),
    pytest.param(
        obj({"v": {"const": 1}}),
        obj({"v": {"const": 2}}),
        [("/properties/v", "changed", "const", B)],
        id="const-changed",
    ),
    pytest.param(
        obj({"v": {"enum": [1, 2]}}),
        obj({"v": {"enum": [1.0, True, 2]}}),
        [("/properties/v", "added", "enum", C)],
        id="enum-json-equality",
    ),
    pytest.param(
        obj({"n": {"type": "integer", "minimum": 0, "maximum": 10}}),
        obj({"n": {"type": "integer", "minimum": 1, "maximum": 9}}),
        [("/properties/n", "changed", "maximum", B), ("/properties/n", "changed", "minimum", B)],
        id="bounds-tightened",
    ),
    pytest.param(
        obj({"s": {"type": "string", "minLength": 2, "maxLength": 5}}),
        obj({"s": {"type": "string", "maxLength": 8}}),
        [
            ("/properties/s", "changed", "maxLength", C),
            ("/properties/s", "removed", "minLength", C),
        ],
        id="lengths-loosened",
    ),
    pytest.param(
        obj({"s": {"type": "string", "format": "date"}}),
        obj({"s": {"type": "string", "format": "date-time", "pattern": "^2"}}),
        [("/properties/s", "changed", "format", B), ("/properties/s", "added", "pattern", B)],
        id="format-changed-pattern-added",
    ),
    pytest.param(
        obj({"x": {"type": "number", "multipleOf": 0.5, "exclusiveMaximum": 3}}),
        obj({"x": {"type": "number", "multipleOf": 0.25, "exclusiveMinimum": 0}}),
        [
            ("/properties/x", "removed", "exclusiveMaximum", C),
            ("/properties/x", "added", "exclusiveMinimum", B),
            ("/properties/x", "changed", "multipleOf", C),
        ],
        id="multipleof-loosened-exclusive-bounds",
    ),
    pytest.param(
        obj({"a": S}),
        obj({"a": S}, additionalProperties=False),
        [("", "added", "additionalProperties", B)],
        id="closed-to-extra-properties",
    ),
    pytest.param(
        obj({"a": S}, additionalProperties=False),
        obj({"a": S}, additionalProperties=S),
        [("", "changed", "additionalProperties", C)],
        id="opened-to-extra-properties",
    ),
    pytest.param(
        obj({"tags": {"type": "array", "items": S, "maxItems": 3}}),
        obj({"tags": {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 3}}),
        [
            ("/properties/tags/items", "added", "enum", B),
            ("/properties/tags/items", "removed", "type", C),
        ],
        id="nested-array-items",
    ),
    pytest.param(
        obj({"pt": {"type": "array", "prefixItems": [I]}}),
        obj({"pt": {"type": "array", "prefixItems": [{"type": "number"}, I], "uniqueItems": True}}),
        [
            ("/properties/pt", "added", "uniqueItems", B),
            ("/properties/pt/prefixItems/0", "changed", "type", C),
            ("/properties/pt/prefixItems/1", "added", "prefixItems", B),
        ],
        id="prefix-items",
    ),
    pytest.param(
        obj({"d": {"type": "integer", "default": 5}}),
        obj({"d": {"type": "integer", "default": 7}}),
        [("/properties/d", "changed", "default", C)],
        id="default-changed",
    ),
    pytest.param(
        obj({"a": S}),
        obj({"a": False}),
        [("/properties/a", "changed", "schema", B)],
        id="false-schema",
    ),
    pytest.param(
        obj({"a": {"not": S}, "b": {"x-order": 1}}),
        obj({"a": {"not": I}, "b": {"x-order": 2}}),
        [("/properties/a", "changed", "not", B), ("/properties/b", "changed", "x-order", D)],
        id="opaque-and-extension-keywords",
    ),
    # -- descriptions ------------------------------------------------------------------------
    pytest.param(
        obj({"city": {"type": "string", "description": "City"}}, title="Args"),
        obj({"city": {"type": "string", "description": "City name", "examples": ["Oslo"]}}),
        [
            ("", "removed", "title", D),
            ("/properties/city", "changed", "description", D),
            ("/properties/city", "added", "examples", D),
        ],
        id="descriptions",
    ),
    pytest.param(
        obj({"a": {"$ref": "#/$defs/A", "description": "old"}}, **{"$defs": {"A": S}}),
        obj({"a": {"$ref": "#/$defs/A", "description": "new"}}, **{"$defs": {"A": S}}),
        [("/properties/a", "changed", "description", D)],
        id="ref-sibling-description",
    ),
    # -- through $ref -------------------------------------------------------------------------
    pytest.param(
        obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": I}}),
        obj({"a": {"$ref": "#/$defs/X"}}, **{"$defs": {"X": {"type": "integer", "maximum": 9}}}),
        [("/$defs/X", "added", "maximum", B)],
        id="chained-ref-change-points-into-defs",
    ),
    pytest.param(
        {"$ref": "#/$defs/N", "$defs": {"N": node("N")}},
        {"$ref": "#/$defs/N", "$defs": {"N": node("N", required=["value"])}},
        [("/$defs/N/properties/value", "changed", "required", B)],
        id="recursive-change-reported-once",
    ),
    pytest.param(
        obj({"a": S}),
        obj({"a": S}, additionalProperties={"$ref": "#"}),
        [("", "added", "type", B), ("/properties/a", "added", "properties", C)],
        id="open-vs-recursive-additional-properties",
    ),
    pytest.param(
        obj({"n": I}),
        {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "null"}], "$defs": {"T": LIST_NODE}},
        [
            ("/$defs/T/properties/next", "added", "properties", C),
            ("/anyOf/1", "added", "anyOf", C),
        ],
        id="plain-vs-recursive-union",
    ),
    pytest.param(
        obj({"a": {"$ref": "#"}, "b": S}),
        obj({"a": {"$ref": "#"}, "b": I}),
        [("/properties/b", "changed", "type", B)],
        id="root-recursion",
    ),
    # -- provider payloads ----------------------------------------------------------------------
    pytest.param(CHAT, chat(), [], id="payload-same"),
    pytest.param(
        CHAT,
        chat(name="weather", description="Weather now.", strict=False),
        [
            ("", "changed", "tool.description", D),
            ("", "changed", "tool.name", B),
            ("", "changed", "tool.strict", B),
        ],
        id="payload-name-description-strict",
    ),
    pytest.param(
        CHAT,
        {
            "type": "function",
            "name": "get_weather",
            "description": "Current weather.",
            "parameters": obj({"city": S, "days": I}, ["city"]),
            "strict": True,
        },
        [("/properties/days", "added", "properties", C)],
        id="payload-chat-vs-responses",
    ),
    pytest.param(
        {"name": "f", "description": "d", "input_schema": obj({"a": S})},
        {"name": "f", "description": "d", "parameters": obj({"a": S})},
        [],
        id="payload-anthropic-vs-gemini",
    ),
    pytest.param(
        obj({"city": S}, ["city"]),
        CHAT,
        [],
        id="bare-schema-vs-payload-compares-schema-only",
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), CASES)
def test_diff_table(old: Any, new: Any, expected: list[tuple[str, str, str, str]]) -> None:
    before_old, before_new = copy.deepcopy(old), copy.deepcopy(new)
    assert summary(diff(old, new)) == expected
    assert (old, new) == (before_old, before_new), "diff must not mutate its inputs"


@pytest.mark.parametrize(("old", "new", "expected"), CASES)
def test_diff_is_deterministic_and_serialisable(old: Any, new: Any, expected: Any) -> None:
    first, second = diff(old, new), diff(copy.deepcopy(old), copy.deepcopy(new))
    assert first == second
    text = json.dumps(first.to_dict(), sort_keys=False)
    assert text == json.dumps(second.to_dict(), sort_keys=False)
    assert json.loads(text)["changes"] == [c.to_dict() for c in first.changes]


def test_summary_text() -> None:
    old = obj({"city": {"type": "string", "description": "City"}, "units": {"enum": ["c", "f"]}})
    new = obj(
        {
            "city": {"type": "string", "description": "City name"},
            "units": {"enum": ["c", "k"]},
            "days": I,
        },
        ["city"],
    )
    assert str(diff(old, new)) == (
        "2 breaking, 2 compatible, 1 description-only changes\n"
        "BREAKING     /properties/city   required: became required\n"
        'BREAKING     /properties/units  enum: value "f" removed\n'
        'COMPATIBLE   /properties/days   properties: new optional property "days"\n'
        'COMPATIBLE   /properties/units  enum: value "k" added\n'
        "DESCRIPTION  /properties/city   description: changed"
    )


def test_result_api() -> None:
    result = diff(obj({"a": S, "b": I}, ["a"]), obj({"a": {"type": "string", "title": "A"}}, ["a"]))
    assert result
    assert result.breaking
    assert result.severity is DiffSeverity.BREAKING
    groups = result.by_severity()
    assert list(groups) == [
        DiffSeverity.BREAKING,
        DiffSeverity.COMPATIBLE,
        DiffSeverity.DESCRIPTION_ONLY,
    ]
    assert [c.keyword for c in groups[DiffSeverity.BREAKING]] == ["properties"]
    assert groups[DiffSeverity.COMPATIBLE] == ()
    removed = groups[DiffSeverity.BREAKING][0]
    assert removed.kind is ChangeKind.REMOVED
    assert removed.before == I
    assert removed.message == 'property "b" removed'
    assert result.headline == "1 breaking, 1 description-only changes"
    assert list(iter_changes(obj({"a": S}), obj({"a": S}))) == []
    empty = diff(obj({}), obj({}))
    assert not empty
    assert empty.severity is None
    assert str(empty) == "no changes"
    assert empty.to_dict() == {
        "summary": "no changes",
        "breaking": False,
        "severity": None,
        "counts": {B: 0, C: 0, D: 0},
        "changes": [],
    }


def test_moved_names_both_pointers() -> None:
    (change,) = diff(obj({"city": S}), obj({"town": S})).changes
    assert (change.before, change.after) == ("/properties/city", "/properties/town")
    assert change.message == 'property "city" renamed to "town"'


def test_removed_points_into_old_schema() -> None:
    old = obj({"a": {"$ref": "#/$defs/Old"}}, **{"$defs": {"Old": obj({"x": S, "y": S})}})
    new = obj({"a": {"$ref": "#/$defs/New"}}, **{"$defs": {"New": obj({"x": S, "z": I})}})
    assert summary(diff(old, new)) == [
        ("/$defs/New/properties/z", "added", "properties", C),
        ("/$defs/Old/properties/y", "removed", "properties", B),
    ]


def test_tool_level_changes_use_empty_pointer() -> None:
    (change,) = diff(CHAT, chat(name="weather")).changes
    assert change == SchemaChange(
        "",
        ChangeKind.CHANGED,
        "tool.name",
        "get_weather",
        "weather",
        DiffSeverity.BREAKING,
        'renamed from "get_weather" to "weather"; callers refer to it by name',
    )
    assert change.is_tool_level
    assert str(change).startswith("BREAKING     (tool)  tool.name: renamed")


# -- callables and FunctionSchema ----------------------------------------------------------


def test_callables_and_function_schemas() -> None:
    fs_module = pytest.importorskip("toollens.core.function_schema")

    def old(city: str) -> str:
        """Weather for a city."""
        return city

    def new(city: str, days: int) -> str:
        """Weather forecast for a city."""
        return city

    result = diff(old, new)
    assert ("/properties/days", "added", "properties", B) in summary(result)
    assert ("", "changed", "tool.description", D) in summary(result)
    assert not diff(old, fs_module.function_schema(old))
    payload = {
        "type": "function",
        "function": {
            "name": "old",
            "description": "Weather for a city.",
            "parameters": fs_module.function_schema(old).json_schema,
            "strict": True,
        },
    }
    assert not diff(payload, old)


def test_duck_typed_function_schema() -> None:
    class Fake:
        name = "f"
        description = None
        strict = False
        json_schema = obj({"a": S})

    other = Fake()
    other.strict = True  # type: ignore[misc]
    assert summary(diff(Fake(), other)) == [("", "changed", "tool.strict", B)]


def test_callable_failure_is_construction_error(monkeypatch: pytest.MonkeyPatch) -> None:
    fs_module = pytest.importorskip("toollens.core.function_schema")

    def broken(func: Any, **options: Any) -> Any:
        raise ValueError("engine bug")

    monkeypatch.setattr(fs_module, "function_schema", broken)
    with pytest.raises(SchemaConstructionError, match="ValueError: engine bug") as info:
        diff(len, obj({}))
    assert isinstance(info.value.__cause__, ValueError)

    def refuses(func: Any, **options: Any) -> Any:
        raise SchemaConstructionError("unsupported", parameter="x")

    monkeypatch.setattr(fs_module, "function_schema", refuses)
    with pytest.raises(SchemaConstructionError, match="parameter 'x': unsupported"):
        diff(obj({}), len)


# -- errors ----------------------------------------------------------------------------------


def _nested(depth: int) -> Any:
    schema: Any = S
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return schema


@pytest.mark.parametrize(
    ("old", "new", "pointer", "match"),
    [
        pytest.param(42, obj({}), None, "int, which is not a schema", id="not-a-schema"),
        pytest.param(
            obj({"a": {"$ref": "#/$defs/Missing"}}),
            obj({}),
            "/properties/a",
            r"'#/\$defs/Missing' in the old schema \(a\) points to nothing",
            id="missing-def",
        ),
        pytest.param(
            obj({}),
            obj({"gone": {"$ref": "#/$defs/Missing"}}),
            "/properties/gone",
            "points to nothing",
            id="missing-def-in-added-property",
        ),
        pytest.param(
            obj({}),
            obj({"a": {"$ref": "https://example.org/s.json"}}),
            "/properties/a",
            "remote and toollens never fetches",
            id="remote-ref",
        ),
        pytest.param(
            obj({"a": {"$ref": "#anchor"}}), obj({}), "/properties/a", "anchor", id="anchor-ref"
        ),
        pytest.param(
            obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": {"$ref": "#/$defs/A"}}}),
            obj({}),
            "/$defs/A",
            "loops back",
            id="ref-loop",
        ),
        pytest.param(
            obj({"a": {"$ref": 3}}), obj({}), "/properties/a", "must be a string", id="ref-type"
        ),
        pytest.param(
            obj({"a": "string"}), obj({}), "/properties/a", "where a schema", id="not-a-subschema"
        ),
        pytest.param(_nested(250), _nested(250), "/items/items", "deeper than 200", id="too-deep"),
        pytest.param(obj({1: S}), obj({}), "/properties", "non-string key", id="non-string-key"),
        pytest.param(
            obj({"n": {"maximum": float("nan")}}),
            obj({}),
            "/properties/n/maximum",
            "nan",
            id="nan",
        ),
        pytest.param(
            obj({"s": {"enum": [{1, 2}]}}), obj({}), "/properties/s/enum/0", "set", id="not-json"
        ),
        pytest.param(chat(name=5), CHAT, "/function/name", "not a str", id="payload-name-type"),
        pytest.param(
            {"name": "f", "input_schema": "nope"},
            CHAT,
            "/input_schema",
            "not a JSON Schema",
            id="payload-schema-type",
        ),
    ],
)
def test_errors_name_where(old: Any, new: Any, pointer: str | None, match: str) -> None:
    with pytest.raises(SchemaConstructionError, match=match) as info:
        diff(old, new)
    if pointer is not None and pointer.startswith("/items/items"):
        assert info.value.pointer is not None
        assert info.value.pointer.startswith(pointer)
    else:
        assert info.value.pointer == pointer
    assert info.value.hint


def test_self_containing_dict_is_an_error() -> None:
    loop: dict[str, Any] = {"type": "object"}
    loop["properties"] = {"me": loop}
    with pytest.raises(SchemaConstructionError, match="contains itself"):
        diff(loop, obj({}))


def test_deep_ref_chain_walk_is_bounded() -> None:
    # Each definition is shallow, but following them nests the walk past the limit.
    defs = {f"D{i}": obj({"next": {"$ref": f"#/$defs/D{i + 1}"}}) for i in range(300)}
    defs["D300"] = S
    old = {"$ref": "#/$defs/D0", "$defs": defs}
    new = {"$ref": "#/$defs/D0", "$defs": defs | {"D300": I}}
    with pytest.raises(SchemaConstructionError, match="deeper than 200"):
        diff(old, new)
    assert not diff(_nested(199), _nested(199))
    assert summary(diff(_nested(199), _nested(199) | {"minItems": 1})) == [
        ("", "added", "minItems", B)
    ]
    deep: Any = I
    for _ in range(99):
        deep = obj({"p": deep})
    assert not diff(deep, copy.deepcopy(deep))


# -- equal subtrees ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param(
            obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": obj({"x": S})}}),
            obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": obj({"x": I})}}),
            [("/$defs/A/properties/x", "changed", "type", B)],
            id="same-property-changed-definition",
        ),
        pytest.param(
            obj({"a": {"$ref": "#"}, "b": S}),
            obj({"a": {"$ref": "#"}, "b": I}),
            [("/properties/b", "changed", "type", B)],
            id="same-property-refers-to-changed-root",
        ),
        pytest.param(
            obj({"a": {"const": 1}}),
            obj({"a": {"const": True}}),
            [("/properties/a", "changed", "const", B)],
            id="python-equal-json-different",
        ),
    ],
)
def test_equal_looking_subtrees_are_still_compared(
    old: Any, new: Any, expected: list[tuple[str, str, str, str]]
) -> None:
    assert summary(diff(old, new)) == expected


def test_an_edit_of_one_property_walks_only_that_property(monkeypatch: pytest.MonkeyPatch) -> None:
    from toollens.core.diff import walk as diff_walk

    props = {f"p{i}": obj({"x": dict(S), "y": {"$ref": "#/$defs/A"}}) for i in range(50)}
    old = obj(props, **{"$defs": {"A": obj({"z": I})}})
    new = copy.deepcopy(old)
    new["properties"]["p7"]["properties"]["x"]["description"] = "now described"
    compared: list[str] = []
    real = diff_walk.Walk._changes

    def spy(self: Any, a: Any, b: Any) -> Any:
        compared.append(b.home)
        return real(self, a, b)

    monkeypatch.setattr(diff_walk.Walk, "_changes", spy)
    assert summary(diff(old, new)) == [
        ("/properties/p7/properties/x", "added", "description", "description-only")
    ]
    assert set(compared) <= {"", "/properties/p7", "/properties/p7/properties/x"}
