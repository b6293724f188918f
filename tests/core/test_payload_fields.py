"""The fields of a tool payload beside its schema, judged with the SDKs' own types as oracles."""

from __future__ import annotations

import typing
from typing import Any

import pytest

from toollens.core.providers import provider_tool, unwrap_payload
from toollens.core.providers.payload_fields import (
    ANTHROPIC_CALLERS,
    ANTHROPIC_TOOL_FIELDS,
    CHAT_FUNCTION_FIELDS,
    GEMINI_DECLARATION_FIELDS,
    OPENAI_CALLERS,
    PAYLOAD_RULES,
    RESPONSES_FUNCTION_FIELDS,
    check_payload,
    responses_effective_schema,
)
from toollens.core.strict import explain_strict

SCHEMA = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "limit": {"type": "integer"}},
    "required": ["id"],
}


def anthropic_tool(**more: Any) -> dict[str, Any]:
    return {"name": "lookup", "description": "Look a user up.", "input_schema": SCHEMA, **more}


def responses_tool(**more: Any) -> dict[str, Any]:
    return {"type": "function", "name": "lookup", "parameters": SCHEMA, **more}


def rules_of(payload: dict[str, Any]) -> list[tuple[str, str | None]]:
    found = unwrap_payload(payload)
    assert found is not None
    return [(f.rule, f.pointer) for f in check_payload(found)]


def keys(typed_dict: Any) -> set[str]:
    return set(typed_dict.__required_keys__ | typed_dict.__optional_keys__)


# -- the SDKs' types are the field lists -------------------------------------------------------


def test_anthropic_fields_are_the_sdk_tool_param() -> None:
    types = pytest.importorskip("anthropic.types")
    assert keys(types.ToolParam) == ANTHROPIC_TOOL_FIELDS
    callers = typing.get_type_hints(types.ToolParam)["allowed_callers"]
    assert set(typing.get_args(typing.get_args(callers)[0])) == ANTHROPIC_CALLERS


def test_openai_fields_are_the_sdk_function_types() -> None:
    responses = pytest.importorskip("openai.types.responses")
    shared = pytest.importorskip("openai.types.shared_params")
    assert keys(responses.FunctionToolParam) == RESPONSES_FUNCTION_FIELDS
    assert keys(shared.FunctionDefinition) == CHAT_FUNCTION_FIELDS
    hint = typing.get_type_hints(responses.FunctionToolParam)["allowed_callers"]
    literal = typing.get_args(typing.get_args(hint)[0])[0]  # Optional[List[Literal[...]]]
    assert set(typing.get_args(literal)) == OPENAI_CALLERS


def test_gemini_fields_are_the_sdk_declaration() -> None:
    genai = pytest.importorskip("google.genai.types")
    fields = genai.FunctionDeclaration.model_fields
    assert {*fields, *(f.alias for f in fields.values() if f.alias)} == GEMINI_DECLARATION_FIELDS


def test_payloads_with_every_2026_field_validate_against_the_sdk_types() -> None:
    pydantic = pytest.importorskip("pydantic")
    anthropic = pytest.importorskip("anthropic.types")
    responses = pytest.importorskip("openai.types.responses")
    genai = pytest.importorskip("google.genai.types")
    full = anthropic_tool(
        input_examples=[{"id": "u1"}],
        defer_loading=True,
        allowed_callers=["direct", "code_execution_20260120"],
        strict=True,
    )
    pydantic.TypeAdapter(anthropic.ToolParam).validate_python(full)
    assert rules_of(full) == [("anthropic.deferred", "/defer_loading")]
    r = responses_tool(
        strict=False, defer_loading=True, allowed_callers=["programmatic"], output_schema={}
    )
    pydantic.TypeAdapter(responses.FunctionToolParam).validate_python(r)
    assert rules_of(r) == [("openai.deferred", "/defer_loading")]
    declaration = {"name": "lookup", "parametersJsonSchema": SCHEMA, "behavior": "BLOCKING"}
    genai.FunctionDeclaration.model_validate(declaration)
    assert rules_of(declaration) == []


@pytest.mark.parametrize("provider", ["anthropic", "openai-responses", "openai-chat", "gemini"])
def test_what_toollens_builds_has_only_known_fields(provider: Any) -> None:
    payload = provider_tool(SCHEMA, provider, name="lookup", description="d", strict=False)
    assert not [r for r, _ in rules_of(payload) if r.endswith("unknown-field")]


def test_an_unknown_field_is_named_at_its_pointer() -> None:
    assert rules_of(anthropic_tool(inputExamples=[])) == [
        ("anthropic.unknown-field", "/inputExamples")
    ]
    chat = {"type": "function", "function": {"name": "f", "parameters": SCHEMA,
                                             "defer_loading": True}}  # fmt: skip
    assert rules_of(chat) == [("openai.unknown-function-field", "/function/defer_loading")]


# -- input_examples ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("examples", "expected"),
    [
        pytest.param([{"id": "a"}, {"id": "b", "limit": 3}], [], id="valid"),
        pytest.param(
            [{"id": "a"}, {"id": 3}],
            [("anthropic.input-example-invalid", "/input_examples/1/id")],
            id="wrong-type",
        ),
        pytest.param(
            [{"limit": 1}, {"id": "a", "limit": "x"}],
            [
                ("anthropic.input-example-invalid", "/input_examples/0"),
                ("anthropic.input-example-invalid", "/input_examples/1/limit"),
            ],
            id="each-failing-example",
        ),
        pytest.param(
            {"id": "a"},
            [("anthropic.input-examples-malformed", "/input_examples")],
            id="not-a-list",
        ),
        pytest.param(
            ["a"], [("anthropic.input-examples-malformed", "/input_examples/0")], id="not-object"
        ),
    ],
)
def test_input_examples(examples: Any, expected: list[tuple[str, str]]) -> None:
    assert rules_of(anthropic_tool(input_examples=examples)) == expected


def test_input_example_message_names_index_pointer_and_schema_place() -> None:
    found = check_payload(unwrap_payload(anthropic_tool(input_examples=[{}, {"id": 3}])))  # type: ignore[arg-type]
    assert [f.message.split(":")[0] for f in found] == [
        "input_examples[0] is not valid for input_schema at /",
        "input_examples[1] is not valid for input_schema at /id",
    ]
    assert "(schema /properties/id/type)" in found[1].message
    assert all(f.source and f.source.startswith("https://") for f in found)


def test_input_examples_against_a_remote_ref_give_no_verdict() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}
    payload = {"name": "t", "input_schema": schema, "input_examples": [{"a": 1}]}
    assert rules_of(payload) == []  # nothing is downloaded; the schema rules speak for it


# -- OpenAI Responses: no strict means strict when it can be -------------------------------


def test_responses_without_strict_is_sent_strict_with_the_converted_schema() -> None:
    found = unwrap_payload(responses_tool())
    assert found is not None
    effective = responses_effective_schema(found)
    assert effective is not None
    schema, optional = effective
    assert optional == ["limit"]
    assert schema == explain_strict(SCHEMA)[0]
    assert schema["required"] == ["id", "limit"]
    (finding,) = check_payload(found)
    assert finding.rule == "openai.responses-strict-default"
    assert '"required":["id","limit"]' in finding.message


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(responses_tool(strict=False), id="strict-false"),
        pytest.param(responses_tool(strict=True), id="strict-true"),
        pytest.param(
            {
                "type": "function",
                "name": "f",
                "parameters": {**SCHEMA, "required": ["id", "limit"]},
            },
            id="nothing-optional",
        ),
        pytest.param(
            {"type": "function", "function": {"name": "f", "parameters": SCHEMA}},
            id="chat-stays-non-strict",
        ),
    ],
)
def test_no_strict_default_finding(payload: dict[str, Any]) -> None:
    assert "openai.responses-strict-default" not in [r for r, _ in rules_of(payload)]


def test_gemini_parameters_and_json_schema_are_exclusive() -> None:
    both = {"name": "f", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": SCHEMA}
    assert rules_of(both) == [("gemini.parameters-exclusive", "/parameters")]


def test_every_payload_rule_has_a_dated_source() -> None:
    for item in PAYLOAD_RULES:
        assert item.cite.url.startswith("https://"), item.id
        assert len(item.cite.date) == 10, item.id
