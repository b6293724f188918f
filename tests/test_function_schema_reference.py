"""Compare the engine with the OpenAI Agents SDK's function_schema on the callable corpus."""

from __future__ import annotations

from typing import Any

import pytest

import corpus_callables as corpus
from toollens import ToolLensError
from toollens.core.function_schema import function_schema

agents_fs = pytest.importorskip("agents.function_schema")
pytestmark = pytest.mark.reference

CASES = sorted(set(corpus.CORPUS) - corpus.REFERENCE_CRASHES - corpus.REFERENCE_DIFFERENCES)


def ours(func: Any, strict: bool) -> tuple[Any, ...]:
    try:
        fs = function_schema(func, strict=strict)
    except ToolLensError:
        return ("error",)
    return (fs.name, fs.description, fs.json_schema, fs.context_parameter is not None)


def theirs(func: Any, strict: bool) -> tuple[Any, ...]:
    try:
        ref = agents_fs.function_schema(func, strict_json_schema=strict)
    except Exception:  # the reference raises UserError, TypeError, pydantic errors ...
        return ("error",)
    return (ref.name, ref.description, ref.params_json_schema, ref.takes_context)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_matches_reference(name: str, strict: bool) -> None:
    func = corpus.CORPUS[name]
    assert ours(func, strict) == theirs(func, strict)


@pytest.mark.parametrize("name", sorted(corpus.REFERENCE_DIFFERENCES))
def test_documented_differences_really_differ(name: str) -> None:
    func = corpus.CORPUS[name]
    assert ours(func, False) != theirs(func, False)


@pytest.mark.parametrize("name", CASES)
def test_call_args_match_reference(name: str) -> None:
    func = corpus.CORPUS[name]
    try:
        fs = function_schema(func, strict=False)
        ref = agents_fs.function_schema(func, strict_json_schema=False)
    except (ToolLensError, Exception):
        pytest.skip("not constructible in non-strict mode")
    example = fs.model.model_construct()
    try:
        instance = fs.model.model_validate(_sample(fs.json_schema))
    except Exception:
        instance = example
        pytest.skip("no simple sample arguments for this signature")
    assert fs.to_call_args(instance) == ref.to_call_args(instance)


def _sample(schema: dict[str, Any]) -> dict[str, Any]:
    samples = {"integer": 1, "number": 1.5, "string": "s", "boolean": True, "array": []}
    out: dict[str, Any] = {}
    for key, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        if kind in samples:
            out[key] = samples[kind]
        elif kind == "object":
            out[key] = {}
    return out


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40
