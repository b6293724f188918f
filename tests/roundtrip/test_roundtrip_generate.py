"""Generation for ``fuzz``: the compatibility shim, and what the strategies produce."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import roundtrip_tools as tools
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for
from provider_corpus import corpus

from toollens.core.function_schema import function_schema
from toollens.core.providers import provider_payload
from toollens.roundtrip import generate
from toollens.roundtrip.generate import GenerationError

hypothesis_jsonschema = pytest.importorskip("hypothesis_jsonschema")
SCHEMAS = {
    "forecast": function_schema(tools.forecast).json_schema,
    "forecast-lax": function_schema(tools.forecast, strict=False).json_schema,
    "search": function_schema(tools.search).json_schema,
    "shout": function_schema(tools.shout).json_schema,
    "sku": function_schema(tools.sku_lookup).json_schema,
    "forecast-gemini": generate.model_facing(
        provider_payload(function_schema(tools.forecast), "gemini-openapi").schema
    ),
}
FEW = settings(
    max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


def test_the_library_alone_fails_with_this_hypothesis(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the shim exists; when a release fixes it, this test says the shim can go."""
    from hypothesis.internal.conjecture import utils as cu
    from hypothesis_jsonschema import _from_schema

    if hasattr(cu.many, "more"):
        pytest.skip("this Hypothesis still has many.more(): the shim is a no-op")
    monkeypatch.setattr(_from_schema, "cu", cu)
    strategy = hypothesis_jsonschema.from_schema(
        {"type": "object", "properties": {"a": {"type": "integer"}}}
    )
    with pytest.raises(AttributeError, match="'many' object has no attribute 'more'"):
        generate.simplest(strategy)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
@FEW
@given(data=st.data())
def test_drawn_arguments_are_valid(name: str, data: st.DataObject) -> None:
    schema = SCHEMAS[name]
    value = data.draw(generate.valid_arguments(generate.declared_only(schema)))
    assert Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_edge_cases_are_valid_and_mutations_are_not(name: str) -> None:
    schema = SCHEMAS[name]
    drawn_from = generate.declared_only(schema)
    base = generate.simplest(generate.valid_arguments(drawn_from))
    validator = Draft202012Validator(schema)
    cases = generate.edge_cases(schema, base)
    assert cases or name == "sku"  # a pattern-only string has no hand-made edge value
    assert all(validator.is_valid(case) for case in cases)
    for change in generate.mutations(schema):
        assert not validator.is_valid(generate.mutate(base, change)), change


def test_edge_cases_cover_enum_members_null_bounds_and_long_strings() -> None:
    schema = SCHEMAS["forecast"]
    base = generate.simplest(generate.valid_arguments(schema))
    cases = generate.edge_cases(schema, base)
    assert {c["unit"] for c in cases} == {"celsius", "fahrenheit"}
    assert {1, 14} <= {c["days"] for c in cases}
    assert any(c["fields"] is None for c in cases)
    assert any(c["fields"] == [] for c in cases)
    assert any(len(c["note"]) == 200 for c in cases)  # maxLength
    assert any(c["place"]["lat"] == -90 for c in cases)  # a nested bound


def test_openapi_nullable_becomes_a_null_branch() -> None:
    converted = generate.model_facing(
        {
            "type": "object",
            "properties": {"s": {"type": "string", "nullable": True}},
            "propertyOrdering": ["s"],
        }
    )
    assert converted == {
        "type": "object",
        "properties": {"s": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
    }


def _corpus_sample(count: int) -> list[dict[str, Any]]:
    items = corpus()  # skips the test when the corpus is absent
    objects = [
        i["schema"]
        for i in items
        if isinstance(i["schema"], dict)
        and i["schema"].get("type") == "object"
        and len(json.dumps(i["schema"])) < 4000
    ]
    return random.Random(33).sample(objects, min(count, len(objects)))


def test_real_world_schemas_generate_valid_values() -> None:
    sample = _corpus_sample(15)
    generated = 0
    for schema in sample:
        try:
            strategy = generate.valid_arguments(generate.declared_only(schema))
            values = [generate.simplest(strategy)]
        except GenerationError:
            continue  # recursive refs, unknown formats: reported, not crashed on
        validator = validator_for(schema)(schema)
        assert all(validator.is_valid(v) for v in values), schema
        generated += 1
    assert generated >= len(sample) * 2 // 3
