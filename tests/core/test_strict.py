"""Strict JSON Schema conversion: exact output and change list per rule, and every refusal.

Exact outputs live in golden files under ``tests/golden/strict/`` (input, output, changes),
one reviewable JSON file per case. They are rewritten only with ``pytest --update-goldens``;
a missing or different file fails the test.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from support import goldens
from toollens.core.errors import StrictSchemaError
from toollens.core.records import Change
from toollens.core.schema.toolkit import preview_json
from toollens.core.strict import (
    StrictRule,
    ensure_strict_json_schema,
    explain_strict,
    strict_schema,
)
from toollens.core.strict.rules import PROBLEMS, REASONS

ADDRESS = {
    "type": "object",
    "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
    "required": ["street"],
}

# (id, input schema, nullable_defaults); one golden file per id.
CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    (
        "nested-objects",
        {
            "type": "object",
            "properties": {
                "user": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "address": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                        },
                    },
                },
                "items": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"sku": {"type": "string"}}},
                },
            },
            "required": ["user"],
        },
        [],
    ),
    (
        "union-anyof-nullable",
        {
            "type": "object",
            "properties": {
                "value": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
                "note": {"type": ["string", "null"], "default": None},
                "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
            },
        },
        [],
    ),
    (
        "oneof-discriminator-kept",
        {
            "type": "object",
            "properties": {
                "pet": {
                    "oneOf": [
                        {"type": "object", "properties": {"kind": {"const": "cat"}}},
                        {"type": "object", "properties": {"kind": {"const": "dog"}}},
                    ],
                    "discriminator": {"propertyName": "kind"},
                },
            },
        },
        [],
    ),
    (
        "oneof-appended-after-anyof",
        {
            "type": "object",
            "properties": {
                "x": {
                    "oneOf": [{"type": "integer"}],
                    "anyOf": [{"type": "string"}],
                },
            },
        },
        [],
    ),
    (
        "allof-single-ref",
        {
            "type": "object",
            "properties": {
                "home": {"allOf": [{"$ref": "#/$defs/Address"}], "description": "Home."},
            },
            "$defs": {"Address": ADDRESS},
        },
        [],
    ),
    (
        "allof-single-inline",
        {
            "type": "object",
            "properties": {
                "box": {
                    "allOf": [{"type": "object", "properties": {"w": {"type": "number"}}}],
                    "title": "Box",
                },
            },
        },
        [],
    ),
    (
        "allof-many-kept",
        {
            "type": "object",
            "properties": {
                "both": {
                    "allOf": [
                        {"type": "object", "properties": {"a": {"type": "string"}}},
                        {"type": "object", "properties": {"b": {"type": "string"}}},
                    ],
                },
            },
        },
        [],
    ),
    (
        "ref-with-sibling-inlined",
        {
            "type": "object",
            "properties": {
                "home": {"$ref": "#/$defs/Address", "description": "Where they live."},
                "work": {"$ref": "#/$defs/Address"},
            },
            "$defs": {"Address": ADDRESS},
        },
        [],
    ),
    (
        "chained-refs",
        {
            "type": "object",
            "properties": {"where": {"$ref": "#/$defs/Place", "title": "Where"}},
            "$defs": {"Place": {"$ref": "#/$defs/Address"}, "Address": ADDRESS},
        },
        [],
    ),
    (
        "definitions-and-defs",
        {
            "type": "object",
            "properties": {
                "a": {"$ref": "#/definitions/A"},
                "b": {"$ref": "#/$defs/B", "description": "B."},
            },
            "definitions": {"A": {"properties": {"x": {"type": "integer"}}}},
            "$defs": {"B": {"type": "object", "properties": {"y": {"type": "string"}}}},
        },
        [],
    ),
    (
        "recursive-model",
        {
            "$defs": {
                "Node": {
                    "type": "object",
                    "title": "Node",
                    "properties": {
                        "name": {"type": "string"},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                        "parent": {
                            "anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}],
                            "default": None,
                        },
                    },
                    "required": ["name"],
                },
            },
            "$ref": "#/$defs/Node",
        },
        [],
    ),
    (
        "defaults-none-dropped-others-kept",
        {
            "type": "object",
            "properties": {
                "a": {"type": ["integer", "null"], "default": None},
                "b": {"type": "integer", "default": 3},
                "c": {"type": "array", "items": {"type": "string"}, "default": ["x"]},
            },
        },
        [],
    ),
    (
        "ref-with-null-default-stays-bare",
        {
            "type": "object",
            "properties": {"home": {"$ref": "#/$defs/Address", "default": None}},
            "$defs": {"Address": ADDRESS},
        },
        [],
    ),
    (
        "infer-object-type",
        {"properties": {"q": {"type": "string"}}, "required": ["nope"]},
        [],
    ),
    ("root-type-list", {"type": ["object"], "properties": {"a": {"type": "string"}}}, []),
    ("empty-schema", {}, []),
    (
        "prefix-items-not-descended",
        {
            "type": "object",
            "properties": {
                "pair": {
                    "type": "array",
                    "prefixItems": [{"type": "object", "properties": {"k": {"type": "string"}}}],
                },
            },
        },
        [],
    ),
    (
        "nullable-defaults",
        {
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "default": 10, "description": "Max rows."},
                "home": {"$ref": "#/$defs/Address", "default": {"street": "Main"}},
                "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": "x"},
                "kept": {"type": "integer", "default": 1},
            },
            "$defs": {"Address": ADDRESS},
        },
        ["limit", "home", "maybe"],
    ),
]

# (id, schema, input pointer, rule) for every refusal.
ERRORS: list[tuple[str, Any, str, StrictRule]] = [
    (
        "additional-properties-true",
        {
            "type": "object",
            "properties": {"meta": {"type": "object", "additionalProperties": True}},
        },
        "/properties/meta",
        StrictRule.OPEN_OBJECT,
    ),
    (
        "additional-properties-schema",
        {"type": "object", "additionalProperties": {"type": "string"}},
        "",
        StrictRule.OPEN_OBJECT,
    ),
    (
        "additional-properties-empty-schema",
        {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {}}}},
        "/properties/m",
        StrictRule.OPEN_OBJECT,
    ),
    (
        "additional-properties-untyped",
        {"type": "object", "properties": {"m": {"additionalProperties": True}}},
        "/properties/m",
        StrictRule.OPEN_OBJECT,
    ),
    (
        "ref-missing-inline",
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Nope", "description": "d"}}},
        "/properties/a",
        StrictRule.REF_MISSING,
    ),
    (
        "ref-missing-bare",
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Nope"}}},
        "/properties/a",
        StrictRule.REF_MISSING,
    ),
    (
        "ref-remote-url",
        {"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}},
        "/properties/a",
        StrictRule.REF_REMOTE,
    ),
    (
        "ref-remote-file",
        {"type": "object", "properties": {"a": {"$ref": "other.json#/x", "title": "A"}}},
        "/properties/a",
        StrictRule.REF_REMOTE,
    ),
    (
        "ref-anchor",
        {"type": "object", "properties": {"a": {"$ref": "#node"}}},
        "/properties/a",
        StrictRule.REF_FORMAT,
    ),
    (
        "ref-not-a-string",
        {"type": "object", "properties": {"a": {"$ref": 5, "title": "A"}}},
        "/properties/a",
        StrictRule.REF_FORMAT,
    ),
    (
        "ref-through-list",
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/U/anyOf/0", "title": "A"}},
            "$defs": {"U": {"anyOf": [{"type": "string"}]}},
        },
        "/properties/a",
        StrictRule.REF_MISSING,
    ),
    (
        "ref-incompatible-siblings",
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A", "type": "object", "minProperties": 1}},
            "$defs": {"A": {"type": "object"}},
        },
        "/properties/a",
        StrictRule.REF_SIBLINGS,
    ),
    (
        "allof-circular-chain",
        {
            "type": "object",
            "properties": {"a": {"allOf": [{"$ref": "#/$defs/A"}]}},
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        },
        "/properties/a/allOf/0",
        StrictRule.REF_CYCLE,
    ),
    (
        "allof-overlapping-parent",
        {"type": "object", "properties": {"a": {"allOf": [{"type": "string"}], "type": "integer"}}},
        "/properties/a",
        StrictRule.ALLOF_CONFLICT,
    ),
    (
        "recursive-ref-with-description",
        {
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/N"}},
            "$defs": {
                "N": {
                    "type": "object",
                    "properties": {"next": {"$ref": "#/$defs/N", "description": "Next."}},
                },
            },
        },
        "/$defs/N/properties/next",
        StrictRule.REF_RECURSIVE,
    ),
    (
        "nested-id",
        {
            "type": "object",
            "properties": {"a": {"$id": "urn:a", "properties": {"b": {"$ref": "#/$defs/B"}}}},
            "$defs": {"B": {"type": "string"}},
        },
        "/properties/a/properties/b",
        StrictRule.NESTED_ID,
    ),
    ("root-anyof", {"anyOf": [{"type": "object"}, {"type": "string"}]}, "", StrictRule.ROOT_ANYOF),
    ("root-oneof", {"oneOf": [{"type": "object"}, {"type": "string"}]}, "", StrictRule.ROOT_ANYOF),
    (
        "root-nullable",
        {"type": ["object", "null"], "properties": {}},
        "",
        StrictRule.ROOT_NULLABLE,
    ),
    (
        "list-where-schema-expected",
        {"type": "object", "properties": {"a": [{"type": "string"}]}},
        "/properties/a",
        StrictRule.NOT_A_SCHEMA,
    ),
    (
        "string-variant",
        {"type": "object", "properties": {"a": {"anyOf": ["string"]}}},
        "/properties/a/anyOf/0",
        StrictRule.NOT_A_SCHEMA,
    ),
    ("root-not-a-mapping", ["type", "object"], "", StrictRule.NOT_A_SCHEMA),
]


def _deep(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"x": schema}}
    return schema


def _ref_bomb(levels: int) -> dict[str, Any]:
    """Each definition inlines the previous one twice: 2**levels nodes once expanded."""
    defs: dict[str, Any] = {"D0": {"type": "string"}}
    for i in range(1, levels + 1):
        ref = {"$ref": f"#/$defs/D{i - 1}", "description": "d"}
        defs[f"D{i}"] = {"type": "object", "properties": {"a": ref, "b": dict(ref)}}
    return {"type": "object", "properties": {"top": {"$ref": f"#/$defs/D{levels}"}}, "$defs": defs}


def _changes_as_json(changes: list[Change]) -> list[dict[str, Any]]:
    return [
        {"pointer": c.pointer, "rule": c.rule, "before": c.before, "after": c.after}
        for c in changes
    ]


def _container_ids(value: Any) -> set[int]:
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.add(id(item))
            stack.extend(item.values())
        elif isinstance(item, list):
            found.add(id(item))
            stack.extend(item)
    return found


@pytest.mark.parametrize(("name", "schema", "nullable"), CASES, ids=[c[0] for c in CASES])
def test_golden(name: str, schema: dict[str, Any], nullable: list[str]) -> None:
    before = copy.deepcopy(schema)
    result, changes = explain_strict(schema, nullable_defaults=nullable)
    actual = {
        "input": schema,
        "nullable_defaults": nullable,
        "output": result,
        "changes": _changes_as_json(changes),
    }
    goldens.check_json(f"strict/{name}.json", actual)
    assert schema == before
    assert not _container_ids(schema) & _container_ids(result)
    jsonschema.Draft202012Validator.check_schema(result)


@pytest.mark.parametrize(("name", "schema", "nullable"), CASES, ids=[c[0] for c in CASES])
def test_every_change_has_its_rule_reason(
    name: str, schema: dict[str, Any], nullable: list[str]
) -> None:
    _, changes = explain_strict(schema, nullable_defaults=nullable)
    assert changes
    for change in changes:
        assert isinstance(change.rule, StrictRule)
        template = REASONS[change.rule]
        assert change.reason == template.format(
            before=preview_json(change.before), after=preview_json(change.after)
        )


@pytest.mark.parametrize(("name", "schema", "nullable"), CASES, ids=[c[0] for c in CASES])
def test_second_pass_changes_nothing(
    name: str, schema: dict[str, Any], nullable: list[str]
) -> None:
    result = strict_schema(schema) if not nullable else explain_strict(schema)[0]
    again, changes = explain_strict(result)
    assert again == result
    assert json.dumps(again) == json.dumps(result)
    assert changes == []


def test_rules_of_small_schema_in_order() -> None:
    schema = {"properties": {"a": {"type": "string", "default": None}}, "oneOf": []}
    result, changes = explain_strict({"type": "object", "properties": {"s": schema}})
    assert result["properties"]["s"] == {
        "properties": {"a": {"type": "string"}},
        "type": "object",
        "additionalProperties": False,
        "required": ["a"],
        "anyOf": [],
    }
    assert [(c.pointer, c.rule) for c in changes] == [
        ("", "close-object"),
        ("", "require-all-properties"),
        ("/properties/s", "infer-object-type"),
        ("/properties/s", "close-object"),
        ("/properties/s", "require-all-properties"),
        ("/properties/s", "oneof-to-anyof"),
        ("/properties/s/properties/a", "drop-none-default"),
    ]
    assert changes[0].reason == (
        "closed the object: strict mode requires additionalProperties: false"
    )


def test_empty_schema_is_fresh_each_call() -> None:
    first = strict_schema({})
    first["properties"]["x"] = {"type": "string"}
    second = strict_schema({})
    assert second == {
        "additionalProperties": False,
        "type": "object",
        "properties": {},
        "required": [],
    }
    assert first is not second
    assert first["required"] is not second["required"]


def test_ensure_strict_json_schema_mutates_in_place() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}
    result = ensure_strict_json_schema(schema)
    assert result is schema
    assert schema == {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": False,
        "required": ["a"],
    }


def test_ensure_strict_json_schema_empty_returns_fresh_object() -> None:
    empty: dict[str, Any] = {}
    first = ensure_strict_json_schema(empty)
    second = ensure_strict_json_schema(empty)
    assert empty == {}
    assert first is not empty
    assert first is not second
    assert first == second


def test_ensure_strict_json_schema_leaves_input_alone_on_error() -> None:
    schema = {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": True}},
    }
    before = copy.deepcopy(schema)
    with pytest.raises(StrictSchemaError):
        ensure_strict_json_schema(schema)
    assert schema == before


def test_mapping_input_is_accepted() -> None:
    from types import MappingProxyType

    schema = MappingProxyType({"type": "object", "properties": {"a": {"type": "string"}}})
    assert strict_schema(schema)["required"] == ["a"]


def test_nullable_defaults_single_string_is_one_name() -> None:
    schema = {"type": "object", "properties": {"ab": {"type": "integer", "default": 2}}}
    result = explain_strict(schema, nullable_defaults="ab")[0]
    assert result["properties"]["ab"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}


@pytest.mark.parametrize(("name", "schema", "pointer", "rule"), ERRORS, ids=[e[0] for e in ERRORS])
def test_refusals(name: str, schema: Any, pointer: str, rule: StrictRule) -> None:
    before = copy.deepcopy(schema)
    with pytest.raises(StrictSchemaError) as info:
        explain_strict(schema)
    error = info.value
    assert (error.pointer, error.rule) == (pointer, rule)
    assert error.hint == PROBLEMS[rule][1]
    assert str(error).endswith(f"; {error.hint}")
    assert schema == before


def test_open_object_message_says_what_to_do() -> None:
    schema = {"type": "object", "additionalProperties": True}
    with pytest.raises(
        StrictSchemaError,
        match="strict mode cannot express an open object; "
        "declare the properties, or make the tool non-strict",
    ):
        strict_schema(schema)


def test_thousand_levels_is_our_error_not_recursion() -> None:
    with pytest.raises(StrictSchemaError) as info:
        strict_schema(_deep(1000))
    assert info.value.rule == StrictRule.TOO_DEEP
    assert info.value.pointer is not None
    assert info.value.pointer.count("/") == 100


def test_hundred_levels_of_containers_is_the_limit() -> None:
    # root + (properties map + schema) per level: 49 levels is 99 containers deep.
    strict_schema(_deep(49))
    with pytest.raises(StrictSchemaError, match="more than 100 levels"):
        strict_schema(_deep(50))


def test_ref_bomb_hits_the_node_budget() -> None:
    with pytest.raises(StrictSchemaError) as info:
        strict_schema(_ref_bomb(30))
    assert info.value.rule == StrictRule.TOO_LARGE


def test_small_ref_fan_out_is_fine() -> None:
    result = strict_schema(_ref_bomb(4))
    assert result["$defs"]["D4"]["properties"]["a"]["properties"]["b"]["description"] == "d"
