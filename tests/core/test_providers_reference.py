"""Compare the OpenAI payloads with the reference's converters on the callable corpus."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from support import corpus_callables as corpus
from toollens import ToolLensError
from toollens.core.function_schema import function_schema
from toollens.core.providers import provider_tool

agents = pytest.importorskip("agents")
chatcmpl = pytest.importorskip("agents.models.chatcmpl_converter")
responses = pytest.importorskip("agents.models.openai_responses")
pytestmark = pytest.mark.reference

CASES = sorted(set(corpus.CORPUS) - corpus.REFERENCE_CRASHES - corpus.REFERENCE_DIFFERENCES)


def _reference_tool(func: Any, strict: bool, **overrides: Any) -> Any:
    try:
        return agents.function_tool(func, strict_mode=strict, **overrides)
    except Exception:  # the reference raises UserError, TypeError, pydantic errors ...
        return None


def _ours(func: Any, strict: bool, **overrides: Any) -> Any:
    try:
        return function_schema(func, strict=strict, **overrides)
    except ToolLensError:
        return None


def _pairs(name: str, strict: bool, **overrides: Any) -> tuple[Any, Any]:
    func = corpus.CORPUS[name]
    ref = _reference_tool(func, strict, **overrides)
    ours = _ours(
        func,
        strict,
        name=overrides.get("name_override"),
        description=overrides.get("description_override"),
    )
    assert (ref is None) == (ours is None), "one side failed to build the tool"
    return ref, ours


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_chat_completions_payload_matches_reference(name: str, strict: bool) -> None:
    ref, fs = _pairs(name, strict)
    if ref is None:
        pytest.skip("neither side builds this callable in this mode")
    assert provider_tool(fs, "openai-chat") == chatcmpl.Converter.tool_to_openai(ref)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_responses_payload_matches_reference(name: str, strict: bool) -> None:
    ref, fs = _pairs(name, strict)
    if ref is None:
        pytest.skip("neither side builds this callable in this mode")
    theirs, _ = responses.Converter._convert_function_tool(ref)
    ours = provider_tool(fs, "openai-responses")
    assert ours == theirs
    assert list(ours) == list(theirs)  # same keys in the same order


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_overrides_match_reference(strict: bool) -> None:
    overrides = {"name_override": "lookup_city", "description_override": "Find a city."}
    ref, fs = _pairs("google_style", strict, **overrides)
    assert provider_tool(fs, "openai-chat") == chatcmpl.Converter.tool_to_openai(ref)
    theirs, _ = responses.Converter._convert_function_tool(ref)
    assert provider_tool(fs, "openai-responses") == theirs


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 15


def test_reference_payload_is_not_our_schema_object() -> None:
    _, fs = _pairs("nested_models", True)
    before = copy.deepcopy(fs.json_schema)
    tool = provider_tool(fs, "openai-chat")
    tool["function"]["parameters"]["properties"].clear()
    assert fs.json_schema == before
