"""Which provider's payload shape a dict is, and the payload each provider is built with.

The shapes are tried in the provider table's order; these cases pin where one shape ends
and the next begins (a bare schema is nobody's payload).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from toollens.core.providers import PROVIDERS, provider_tool, unwrap_payload

S: dict[str, Any] = {"type": "object", "properties": {}}

# payload -> (provider, tool pointer, schema key), or None for no provider's payload
RECOGNISED: list[tuple[str, dict[str, Any], tuple[str, str, str] | None]] = [
    ("chat", {"type": "function", "function": {"name": "f", "parameters": S}},
     ("openai-chat", "/function", "parameters")),
    ("chat, the function unnamed", {"type": "function", "function": {"parameters": S}},
     ("openai-chat", "/function", "parameters")),
    ("chat, no parameters", {"type": "function", "function": {"name": "f"}},
     ("openai-chat", "/function", "parameters")),
    ("chat, function not an object", {"type": "function", "function": "f", "name": "f"},
     ("openai-responses", "", "parameters")),
    ("responses", {"type": "function", "name": "f", "parameters": S},
     ("openai-responses", "", "parameters")),
    ("responses, no parameters", {"type": "function", "name": "f"},
     ("openai-responses", "", "parameters")),
    ("type function, nothing else", {"type": "function"}, None),
    ("anthropic", {"name": "f", "input_schema": S}, ("anthropic", "", "input_schema")),
    ("anthropic custom type", {"type": "custom", "name": "f", "input_schema": S},
     ("anthropic", "", "input_schema")),
    ("anthropic before gemini-openapi", {"name": "f", "input_schema": S, "parameters": S},
     ("anthropic", "", "input_schema")),
    ("anthropic unnamed", {"input_schema": S}, None),
    ("gemini", {"name": "f", "parametersJsonSchema": S}, ("gemini", "", "parametersJsonSchema")),
    ("gemini, the SDK's snake case", {"name": "f", "parameters_json_schema": S},
     ("gemini", "", "parameters_json_schema")),
    ("gemini, camel case first", {"name": "f", "parameters_json_schema": S,
                                  "parametersJsonSchema": S},
     ("gemini", "", "parametersJsonSchema")),
    ("gemini before gemini-openapi", {"name": "f", "parameters": S, "parametersJsonSchema": S},
     ("gemini", "", "parametersJsonSchema")),
    ("gemini with a type", {"type": "object", "name": "f", "parametersJsonSchema": S}, None),
    ("gemini-openapi", {"name": "f", "parameters": S}, ("gemini-openapi", "", "parameters")),
    ("gemini-openapi, type null", {"type": None, "name": "f", "parameters": S}, None),
    ("gemini-openapi unnamed", {"parameters": S}, None),
    ("a name alone", {"name": "f"}, None),
    ("a bare schema", {"type": "object", "properties": {"name": {"type": "string"}}}, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("payload", "expected"), [c[1:] for c in RECOGNISED], ids=[c[0] for c in RECOGNISED]
)
def test_payload_shape_recognised(
    payload: dict[str, Any], expected: tuple[str, str, str] | None
) -> None:
    found = unwrap_payload(payload)
    if expected is None:
        assert found is None
        return
    assert found is not None
    assert (found.provider, found.tool_pointer, found.schema_key) == expected
    assert found.schema == payload_at(payload, found.tool_pointer).get(found.schema_key, S)


def payload_at(payload: dict[str, Any], pointer: str) -> dict[str, Any]:
    inner: dict[str, Any] = payload["function"] if pointer == "/function" else payload
    return inner


# provider -> (its payload for a strict tool, for a non-strict tool without description)
BUILT: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "openai-chat": (
        {"type": "function",
         "function": {"name": "t", "description": "d", "parameters": S, "strict": True}},
        {"type": "function",
         "function": {"name": "t", "description": "", "parameters": S, "strict": False}},
    ),
    "openai-responses": (
        {"name": "t", "parameters": S, "strict": True, "type": "function", "description": "d"},
        {"name": "t", "parameters": S, "strict": False, "type": "function", "description": ""},
    ),
    "anthropic": (
        {"name": "t", "description": "d", "input_schema": S, "strict": True},
        {"name": "t", "input_schema": S},
    ),
    "gemini": (
        {"name": "t", "description": "d", "parametersJsonSchema": S},
        {"name": "t", "parametersJsonSchema": S},
    ),
    "gemini-openapi": (
        {"name": "t", "description": "d", "parameters": S},
        {"name": "t", "parameters": S},
    ),
}  # fmt: skip


@pytest.mark.parametrize("provider", list(BUILT))
def test_payload_built_key_for_key(provider: Any) -> None:
    strict, plain = BUILT[provider]
    built = provider_tool(S, provider, name="t", description="d")
    bare = provider_tool(S, provider, name="t", strict=False)
    # json.dumps compares the key order too (the bytes a request sends)
    assert json.dumps(built) == json.dumps(strict)
    assert json.dumps(bare) == json.dumps(plain)


def test_every_provider_has_a_built_case() -> None:
    assert list(BUILT) == list(PROVIDERS)
