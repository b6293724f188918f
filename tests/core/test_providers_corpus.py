"""Provider checks on 1,500 real-world schemas: no crash, llguidance agreement, strict
conversion only tightens, payloads never flagged by their own provider, linear work.

The corpus lives beside the repository (see ``tests/support/provider_corpus.py``); these tests skip
without it. ``benchmarks/bench_provider_corpus.py`` prints the same figures for the whole
corpus.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.provider_corpus import corpus, sample, strict_results
from toollens.core.providers import PROVIDERS, check_provider, provider_payload
from toollens.core.records import Severity


def _errors(findings: list[Any]) -> set[str]:
    return {f.rule for f in findings if f.severity is Severity.ERROR}


def test_no_schema_called_clean_for_openai_strict_is_rejected_by_llguidance() -> None:
    llguidance = pytest.importorskip("llguidance")
    clean = rejected = 0
    for name, _raw, strict, _changes in strict_results():
        if strict is None or _errors(check_provider(strict, "openai-chat", name="tool")):
            continue
        clean += 1
        grammar = llguidance.LLMatcher.grammar_from_json_schema(json.dumps(strict))
        message = llguidance.LLMatcher.validate_grammar(grammar)
        if message and not message.startswith("WARNING"):
            rejected += 1
            print(f"{name}: clean for toollens, llguidance says {message[:120]}")
    assert clean > 500  # most strict results are clean: the check is not vacuous
    assert rejected == 0


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_no_crash_on_the_corpus(provider: str) -> None:
    every = 2 if provider == "openai-chat" else 3  # the llguidance test reads every schema
    for _name, raw, strict, _changes in sample(strict_results(), every):
        for schema, is_strict in ((raw, False), (strict, True)):
            if schema is None:
                continue
            for translate in (False, True):
                findings = check_provider(
                    schema, provider, name="tool", strict=is_strict, translate=translate
                )
                assert all(f.message and f.fix for f in findings)


def test_strict_conversion_only_tightens() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    items = {item["_name"]: item for item in corpus()}
    invalid = 0
    for name, raw, strict, changes in strict_results():
        if strict is None or any(c.rule == "oneof-to-anyof" for c in changes):
            continue  # oneOf -> anyOf may accept an instance two branches matched
        cls = jsonschema.validators.validator_for(raw)
        original, converted = cls(raw), cls(strict)
        for case in items[name]["tests"]:
            if not original.is_valid(case["data"]):
                invalid += 1
                assert not converted.is_valid(case["data"]), (name, case["description"])
    assert invalid > 500


def _self_consistent(schema: dict[str, Any], provider: str, strict: bool) -> None:
    """Every error on the emitted payload is reported for the input already."""
    reported = _errors(check_provider(schema, provider, name="tool", strict=strict, translate=True))
    payload = provider_payload(schema, provider, name="tool", strict=strict)
    again = _errors(check_provider(payload.schema, provider, name="tool", strict=strict))
    assert again <= reported, (provider, sorted(again - reported))


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_payloads_are_never_flagged_by_their_own_provider(provider: str) -> None:
    for _name, raw, strict, _changes in sample(strict_results(), 3):
        _self_consistent(raw, provider, False)
        if strict is not None:
            _self_consistent(strict, provider, True)


_KEYS = ["type", "properties", "items", "anyOf", "oneOf", "allOf", "$ref", "$defs", "enum",
         "const", "required", "additionalProperties", "default", "title", "format", "nullable",
         "minimum", "pattern", "not", "prefixItems"]  # fmt: skip
_TYPES = st.sampled_from(["string", "integer", "number", "boolean", "object", "array", "null"])
_leaf = st.fixed_dictionaries({"type": _TYPES | st.lists(_TYPES, min_size=1, max_size=3)})
_nodes = st.recursive(
    _leaf,
    lambda kids: st.dictionaries(
        st.sampled_from(_KEYS),
        kids
        | st.lists(kids, max_size=3)
        | st.dictionaries(st.text(max_size=3), kids, max_size=3)
        | st.sampled_from(["string", "object", "#/$defs/a", "uri", None, True, False, 1]),
        max_size=5,
    ),
    max_leaves=25,
)


@settings(max_examples=120, deadline=None)
@given(props=st.dictionaries(st.text(max_size=4), _nodes, max_size=4), strict=st.booleans())
def test_payload_self_consistency_property(props: dict[str, Any], strict: bool) -> None:
    schema = {"type": "object", "properties": props, "$defs": {"a": {"type": "string"}}}
    for provider in PROVIDERS:
        _self_consistent(schema, provider, strict)


def _wide(width: int) -> dict[str, Any]:
    item = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}},
        "required": ["a", "b"],
        "additionalProperties": False,
    }
    props = {f"p{i}": {"type": "array", "items": item} for i in range(width)}
    return {"type": "object", "properties": props, "required": list(props),
            "additionalProperties": False}  # fmt: skip


def _calls(schema: dict[str, Any], provider: str) -> int:
    """Python and builtin calls one check makes: a measure of work that load cannot skew."""
    check_provider(schema, provider, name="tool", translate=True)  # caches warm, as in a run
    count = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        check_provider(schema, provider, name="tool", translate=True)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_check_provider_work_is_linear(provider: str) -> None:
    # 8 times the nodes: linear work makes ~8x the calls, quadratic ~64x; the bound is 16x.
    # The wall-clock figures are in benchmarks/bench_provider_scaling.py.
    small, large = _calls(_wide(50), provider), _calls(_wide(400), provider)
    assert small > 1000, small  # the check walked the schema
    assert large / small < 16, f"{provider}: 8x the nodes made {large / small:.1f}x the calls"
