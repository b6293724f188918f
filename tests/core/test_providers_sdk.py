"""Every payload toollens calls clean is accepted by its provider's own SDK request types.

The SDKs are test-only dependencies: ``openai`` (Chat Completions and Responses tool
TypedDicts), ``anthropic`` (``ToolParam``) and ``google-genai`` (``types.Tool`` and
``FunctionDeclaration``, pydantic models that forbid unknown fields). A payload its own
SDK rejects while toollens reports no error is a bug in toollens.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from support.provider_corpus import check_typed_dict, sample, strict_results
from toollens.core.errors import ToolLensError
from toollens.core.function_schema import function_schema
from toollens.core.providers import PROVIDERS, check_provider, provider_payload, provider_verdict
from toollens.core.records import Severity


def _openai_chat(payload: dict[str, Any]) -> None:
    chat = pytest.importorskip("openai.types.chat")
    check_typed_dict(payload, chat.ChatCompletionFunctionToolParam)


def _openai_responses(payload: dict[str, Any]) -> None:
    responses = pytest.importorskip("openai.types.responses")
    check_typed_dict(payload, responses.FunctionToolParam)


def _anthropic(payload: dict[str, Any]) -> None:
    types = pytest.importorskip("anthropic.types")
    check_typed_dict(payload, types.ToolParam)


def _gemini(payload: dict[str, Any]) -> None:
    genai = pytest.importorskip("google.genai")
    genai.types.FunctionDeclaration.model_validate(payload)
    genai.types.Tool.model_validate({"functionDeclarations": [payload]})


SDK_TYPES: dict[str, Callable[[dict[str, Any]], None]] = {
    "openai-chat": _openai_chat,
    "openai-responses": _openai_responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "gemini-openapi": _gemini,
}


def test_every_provider_has_an_sdk_oracle() -> None:
    assert set(SDK_TYPES) == set(PROVIDERS)


def _clean(findings: list[Any]) -> bool:
    return not any(f.severity is Severity.ERROR for f in findings)


def _corpus_callables() -> list[Any]:
    from support.corpus_callables import CORPUS

    return list(CORPUS.values())


@pytest.mark.parametrize("provider", list(PROVIDERS))
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_sdk_accepts_every_clean_payload_of_the_callables(provider: str, strict: bool) -> None:
    validated = 0
    for func in _corpus_callables():
        try:
            fs = function_schema(func, strict=strict)
        except ToolLensError:  # a callable strict mode refuses has no payload
            continue
        if not _clean(check_provider(fs, provider)):
            continue
        SDK_TYPES[provider](provider_payload(fs, provider).payload)
        validated += 1
    assert validated >= 20, f"only {validated} clean payloads to validate"


@pytest.mark.slow  # every clean payload of the 1,500-schema corpus, through each SDK's types
@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_sdk_accepts_every_clean_payload_of_the_schema_corpus(provider: str) -> None:
    seen: Counter[str] = Counter()
    for _name, raw, strict, _changes in sample(strict_results(), 4):
        for schema, is_strict in ((strict, True), (raw, False)):
            if not isinstance(schema, dict):
                continue
            seen["schemas"] += 1
            if not _clean(check_provider(schema, provider, name="tool", strict=is_strict)):
                continue
            payload = provider_payload(schema, provider, name="tool", strict=is_strict).payload
            SDK_TYPES[provider](payload)
            seen["validated"] += 1
    assert seen["validated"] >= 50, seen


def test_gemini_payload_with_closed_objects_is_valid_and_clean() -> None:
    # The self-contradiction of issue 14: the default payload keeps additionalProperties: false
    # (as the SDK's own example does) and toollens' own check does not flag it.
    def lookup(city: str, limit: int = 3) -> str:
        """Look a city up."""
        return city

    fs = function_schema(lookup)
    payload = provider_payload(fs, "gemini").payload
    assert payload["parametersJsonSchema"]["additionalProperties"] is False
    _gemini(payload)
    assert check_provider(fs, "gemini") == []
    verdict = provider_verdict(fs, "gemini")
    assert verdict.accepted
    classic = provider_payload(fs, "gemini-openapi").payload
    assert "additionalProperties" not in classic["parameters"]
    _gemini(classic)
    assert check_provider(fs, "gemini-openapi") == []


def test_sdk_rejects_what_toollens_flags_for_classic_gemini() -> None:
    # The oracle has teeth: a classic schema with a keyword Gemini's Schema lacks is refused
    # by the SDK, and toollens flags the same keyword when the schema is sent as it is.
    genai = pytest.importorskip("google.genai")
    schema = {"type": "object", "properties": {"a": {"type": "string", "const": "x"}}}
    with pytest.raises(Exception, match="const"):
        genai.types.FunctionDeclaration.model_validate({"name": "t", "parameters": schema})
    rules = {f.rule for f in check_provider(schema, "gemini-openapi", name="t", translate=False)}
    assert "gemini.const" in rules


def test_anthropic_beta_tool_schema_is_judged_by_its_root() -> None:
    # anthropic.beta_tool (2.14) sends positional-only parameters as an array root; the API
    # wants an object, which toollens' own payload is.
    anthropic = pytest.importorskip("anthropic")

    def pair(a: int, b: str, /) -> str:
        """Join two values."""
        return f"{a}{b}"

    sdk_schema = anthropic.beta_tool(pair).to_dict()["input_schema"]
    rules = {f.rule for f in check_provider(sdk_schema, "anthropic", name="pair", strict=False)}
    assert ("anthropic.root-not-object" in rules) is (sdk_schema.get("type") != "object")
    ours = provider_payload(function_schema(pair, strict=False), "anthropic").payload
    assert ours["input_schema"]["type"] == "object"
    _anthropic(ours)
    assert check_provider(function_schema(pair, strict=False), "anthropic") == []
