"""Examples for the Try-it view: readable, valid for the schema the model sees, at any size;
and the argument check that marks every problem at its pointer."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from support.big_tools import big_tool_source
from toollens.core.function_schema import function_schema
from toollens.roundtrip import generate
from toollens.roundtrip.calling import PreparedTool
from toollens.roundtrip.checking import check_arguments
from toollens.roundtrip.examples import ExampleSource, readable_example

pytest.importorskip("hypothesis_jsonschema")


@pytest.mark.parametrize(
    ("schema", "example"),
    [
        ({"type": "string"}, ""),
        ({"type": "string", "minLength": 3}, "aaa"),
        ({"type": "string", "format": "date"}, "2026-01-01"),
        ({"type": "integer", "minimum": 5}, 5),
        ({"type": "integer", "maximum": -2}, -2),
        ({"type": "integer", "exclusiveMinimum": 0}, 1),
        ({"type": "number", "exclusiveMinimum": 0}, 0.5),
        ({"type": "integer", "minimum": 1, "multipleOf": 5}, 5),
        ({"type": "boolean"}, False),
        ({"enum": ["b", "a"]}, "b"),
        ({"const": 4}, 4),
        ({"type": "string", "examples": ["Oslo"]}, "Oslo"),
        ({"anyOf": [{"type": "null"}, {"type": "integer"}]}, 0),
        ({"type": ["null", "string"]}, ""),
        ({"type": "array", "items": {"type": "integer"}, "minItems": 2}, [0, 0]),
        ({"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}]}, ["", False]),
    ],
)
def test_each_value_is_the_smallest_its_schema_allows(schema: dict[str, Any], example: Any) -> None:
    parameters = {"type": "object", "properties": {"x": schema}, "required": ["x"]}
    assert readable_example(parameters) == {"x": example}


def test_a_default_leaves_an_optional_property_out_and_a_ref_is_followed() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "default": 3},
            "b": {"$ref": "#/$defs/B"},
        },
        "required": ["b"],
        "$defs": {"B": {"type": "object", "properties": {"c": {"type": "string"}}}},
    }
    assert readable_example(schema) == {"b": {"c": ""}}


def test_a_recursive_ref_stops() -> None:
    schema = {
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"child": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}},
            }
        },
    }
    text = json.dumps(readable_example(schema))
    assert text.count("child") <= 10


class Address(BaseModel):
    code: Annotated[str, Field(pattern=r"^[A-Z]{2}-\d{3}$")]


def ship(
    to: Address,
    mode: Literal["air", "sea"],
    weight: Annotated[float, Field(gt=0, le=30)],
    note: str | None = None,
) -> str:
    """Ship a parcel."""
    return "ok"


@pytest.mark.parametrize("strict", [True, False])
def test_the_first_example_is_valid_where_the_walk_alone_is_not(strict: bool) -> None:
    schema = generate.model_facing(function_schema(ship, strict=strict).json_schema)
    source = ExampleSource(schema)
    assert generate.schema_validator(schema).is_valid(source.first)
    assert source.first["mode"] == "air"
    assert source.first["weight"] == 0.5
    # the pattern was drawn by Hypothesis, smallest first
    assert len(source.first["to"]["code"]) == len("AA-000")


def test_examples_and_edge_cases_are_valid_and_come_in_turn() -> None:
    schema = generate.model_facing(function_schema(ship).json_schema)
    source = ExampleSource(schema)
    validator = generate.schema_validator(schema)
    drawn = [source.another() for _ in range(3)]
    assert all(validator.is_valid(example) for example in drawn)
    edges = [source.edge_case() for _ in range(6)]
    assert all(edge is not None and validator.is_valid(edge[1]) for edge in edges)
    names = [edge[0] for edge in edges if edge is not None]
    assert '/mode = "sea"' in names
    assert "/weight = 30" in names


def test_a_240_parameter_tool_gets_a_valid_example(tmp_path: Any) -> None:
    import importlib.util

    path = tmp_path / "big240.py"
    path.write_text(big_tool_source(240))
    spec = importlib.util.spec_from_file_location("big240", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tool = PreparedTool.of(module.big_tool)
    schema = generate.model_facing(tool.fs.json_schema)
    source = ExampleSource(schema)
    assert check_arguments(json.dumps(source.first), tool, schema).marks == ()
    edge = source.edge_case()
    assert edge is not None
    assert generate.schema_validator(schema).is_valid(edge[1])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.dictionaries(
        st.sampled_from(["to", "mode", "weight", "note", "extra"]),
        st.one_of(st.none(), st.integers(-5, 50), st.text(max_size=4), st.just({"code": "x"})),
    )
)
def test_sdk_marks_agree_with_the_sdk_verdict(arguments: dict[str, Any]) -> None:
    """Whatever is pasted: marked by the SDK exactly when the SDK path rejects it, and every
    mark's pointer names a place in the arguments (or the object itself)."""
    tool = PreparedTool.of(ship, strict=True)
    schema = generate.model_facing(tool.fs.json_schema)
    text = json.dumps(arguments)
    check = check_arguments(text, tool, schema)
    rejected = tool.call(text, timeout=None, dry_run=True).error is not None
    assert check.accepted is not rejected
    for mark in check.marks:
        assert mark.pointer is not None
        top = mark.pointer.split("/")[1] if mark.pointer else ""
        assert top == "" or top in arguments or top in schema["properties"]
