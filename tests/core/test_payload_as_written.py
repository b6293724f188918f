"""A provider payload is judged as written: its strictness, layout and fields are what is sent.

toollens' own strict conversion of the payload's schema is shown (the strict view: a
suggestion), never judged in place of what the file holds. The one exception is the API's
own conversion: a Responses function without ``strict`` is made strict by the API itself.
"""

from __future__ import annotations

from typing import Any

import pytest
import typing_extensions

from toollens.core.providers.given import given_payload
from toollens.core.report import View, report


def _rules(rep: Any) -> list[tuple[str, str | None]]:
    return [(f.rule, f.pointer) for f in rep.provider_findings if f.severity.value == "error"]


def chat(params: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": "t", "parameters": params, **extra}}


def responses(params: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "function", "name": "t", "parameters": params, **extra}


OPEN = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
PARTIAL = {
    "type": "object",
    "properties": {"q": {"type": "string"}, "n": {"type": "integer"}},
    "required": ["q"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        # strict: true without additionalProperties: false, as OpenAI answers it
        (chat(OPEN, strict=True), [("openai.object-not-closed", "")]),
        # a Responses strict tool whose required misses a property
        (responses(PARTIAL, strict=True), [("openai.property-not-required", "/properties/n")]),
        # non-strict: the shape checks only
        (chat({"type": "object"}, strict=False), [("openai.object-properties-missing", "")]),
        (chat(OPEN, strict=False), []),
        # the Responses API converts a function without strict itself: its schema is the
        # conversion's, and the warning says so
        (responses(PARTIAL), []),
    ],
    ids=["chat-strict-open", "responses-strict-partial", "chat-no-properties", "chat-lax-ok",
         "responses-default-strict"],
)  # fmt: skip
def test_a_payload_is_judged_by_its_own_provider_as_written(
    payload: dict[str, Any], expected: list[tuple[str, str | None]]
) -> None:
    given = given_payload(payload)
    assert given is not None
    rep = report(payload, provider=given.provider)
    assert _rules(rep) == expected


def test_the_strict_conversion_is_shown_never_judged() -> None:
    payload = chat(OPEN, strict=True)
    rep = report(payload, provider="openai-chat")
    # the suggestion: toollens' strict conversion closes the object
    assert rep.schema is not None
    assert rep.schema["additionalProperties"] is False
    assert rep.strict_changes
    # what is judged and shown as sent: the file
    assert rep.provider_payload == payload
    assert View.PROVIDER not in rep.view_errors
    assert rep.provider_verdict is not None
    assert not rep.provider_verdict.accepted


def test_another_provider_is_sent_toollens_payload_of_the_tool() -> None:
    rep = report(chat(OPEN, strict=True), provider="anthropic")
    assert rep.provider_payload is not None
    assert rep.provider_payload["name"] == "t"
    assert "input_schema" in rep.provider_payload


@pytest.mark.parametrize(
    ("declaration", "provider", "rules"),
    [
        ({"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "string",
          "const": "x"}}}}, "gemini-openapi", ["gemini.const"]),
        ({"name": "t", "parametersJsonSchema": {"type": "object", "properties": {"a": {
          "type": "string", "const": "x"}}, "additionalProperties": False}}, "gemini", []),
    ],
    ids=["parameters-openapi-subset", "parametersJsonSchema-full-json-schema"],
)  # fmt: skip
def test_gemini_is_judged_by_the_field_the_declaration_uses(
    declaration: dict[str, Any], provider: str, rules: list[str]
) -> None:
    given = given_payload(declaration)
    assert given is not None
    assert given.provider == provider
    rep = report(declaration, provider=provider)
    assert [rule for rule, _ in _rules(rep)] == rules


def _required(typed_dict: type) -> set[str]:
    # typing_extensions: the SDK's Required is its one on Python 3.10, typing's from 3.11
    hints = typing_extensions.get_type_hints(typed_dict, include_extras=True)
    return {
        k for k, v in hints.items()
        if typing_extensions.get_origin(v) is typing_extensions.Required
    }  # fmt: skip


@pytest.mark.parametrize(
    ("payload", "sent_to", "rule"),
    [
        (chat(OPEN, strict=True), "openai-responses", "openai.responses-chat-layout"),
        (responses(OPEN, strict=True), "openai-chat", "openai.chat-responses-layout"),
        (responses(OPEN, strict=True), "openai-responses", None),
        (chat(OPEN, strict=True), "openai-chat", None),
    ],
)
def test_the_layout_rules_agree_with_the_openai_sdk_types(
    payload: dict[str, Any], sent_to: str, rule: str | None
) -> None:
    """The SDK's request types are the oracle: a key their TypedDict requires is missing
    exactly when a layout rule refuses the payload."""
    pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam

    wants = {"openai-responses": FunctionToolParam, "openai-chat": ChatCompletionFunctionToolParam}
    missing = _required(wants[sent_to]) - set(payload)
    rep = report(payload, provider=sent_to)
    layout = [f.rule for f in rep.provider_findings if f.rule.endswith("-layout")]
    assert bool(missing) == (rule is not None)
    assert layout == ([rule] if rule else [])
