"""``fuzz`` finds planted bugs, one shrunk finding each, and stays quiet on clean tools."""

from __future__ import annotations

from typing import Any

import pytest
import roundtrip_tools as tools

from toollens.core.function_schema import function_schema
from toollens.roundtrip import CallStatus, FindingKind, fuzz, try_call

pytest.importorskip("hypothesis_jsonschema")


def only(report: Any) -> Any:
    """The one finding of a report (fails with all of them listed otherwise)."""
    assert len(report.findings) == 1, [f.message for f in report.findings]
    return report.findings[0]


def test_division_by_an_integer_the_schema_admits_as_zero() -> None:
    found = only(fuzz(tools.divide, n=50))
    assert found.kind is FindingKind.RAISES
    assert found.arguments["parts"] == 0
    assert isinstance(found.result.exception, ZeroDivisionError)
    assert found.result.model_text == "An error occurred while running the tool. Please try again."


def test_a_validator_stricter_than_the_schema_is_a_disagreement() -> None:
    found = only(fuzz(tools.pairs, n=50))
    assert found.kind is FindingKind.DISAGREEMENT
    assert found.pointer == "/count"
    assert found.arguments["count"] % 2 == 1
    assert found.result.status is CallStatus.REJECTED
    assert "must be even" in found.message


def test_a_pattern_wider_than_the_code() -> None:
    found = only(fuzz(tools.sku_lookup, n=100))
    assert found.kind is FindingKind.RAISES
    assert len(found.arguments["sku"]) != 5


def test_every_enum_member_is_tried() -> None:
    found = only(fuzz(tools.price, n=10))
    assert found.arguments == {"size": "large"}
    assert isinstance(found.result.exception, KeyError)


def test_an_async_tool() -> None:
    found = only(fuzz(tools.fetch_page, n=50))
    assert found.arguments == {"page": 7}
    assert found.result.call_text == "fetch_page(page=7)"


def test_a_tool_that_hangs_is_a_timeout_and_the_run_stops() -> None:
    report = fuzz(tools.hangs, n=20, timeout=0.2)
    found = only(report)
    assert found.kind is FindingKind.TIMEOUT
    assert found.result.model_text == "Tool 'hangs' timed out after 0.2 seconds."
    assert report.stopped is not None
    assert report.examples == 1  # nothing is called after a hang


def test_null_where_strict_made_an_optional_parameter_nullable() -> None:
    found = only(fuzz(tools.shout, n=20))
    assert found.arguments["suffix"] is None
    assert isinstance(found.result.exception, AttributeError)


def test_a_long_string() -> None:
    found = only(fuzz(tools.store_name, n=20))
    assert len(found.arguments["name"]) > 100


def test_a_failure_found_by_drawing_is_shrunk() -> None:
    found = only(fuzz(tools.batch, n=100, seed=1))
    assert found.shrunk
    assert found.arguments == {"tags": ["", "", ""]}


def test_a_constraint_lost_in_a_provider_conversion() -> None:
    assert fuzz(tools.shares, n=50).ok  # the OpenAI schema keeps exclusiveMinimum
    found = only(fuzz(tools.shares, n=50, provider="gemini-openapi"))
    assert found.kind is FindingKind.DISAGREEMENT
    assert found.pointer == "/parts"
    assert found.arguments["parts"] <= 0


def test_invalid_arguments_the_function_accepts() -> None:
    report = fuzz(tools.divide, n=30, invalid=True, dry_run=True)
    kinds = {f.kind for f in report.findings}
    assert FindingKind.RAISES not in kinds  # a dry run calls nothing
    accepted = {f.key for f in report.findings if f.kind is FindingKind.ACCEPTS_INVALID}
    # pydantic's lax mode takes "1" for an integer, and ignores a key the schema forbids
    assert "accepts-invalid:/total:type" in accepted
    assert "accepts-invalid::additionalProperties" in accepted


def test_dry_run_calls_nothing() -> None:
    report = fuzz(tools.divide, n=20, dry_run=True)
    assert report.ok
    assert report.dry_run


def test_the_same_seed_gives_the_same_report() -> None:
    first = fuzz(tools.batch, n=60, seed=5)
    again = fuzz(tools.batch, n=60, seed=5)
    assert [(f.key, f.arguments) for f in first.findings] == [
        (f.key, f.arguments) for f in again.findings
    ]
    assert first.examples == again.examples


@pytest.mark.parametrize(
    ("tool", "options"),
    [
        (tools.forecast, {"seed": 0}),
        (tools.forecast, {"seed": 1, "strict": False}),
        (tools.forecast, {"seed": 2, "provider": "gemini-openapi"}),
        (tools.search, {"seed": 3}),
    ],
    ids=["strict", "non-strict", "gemini-openapi", "async"],
)
def test_no_false_finding_on_clean_tools(tool: Any, options: dict[str, Any]) -> None:
    report = fuzz(tool, n=500, **options)
    assert report.findings == (), [f.message for f in report.findings]
    assert report.examples >= 500


def test_nulls_strict_made_nullable_are_sent_and_restored() -> None:
    """``optional_defaults="nullable"``: strict mode lets the model send null for a default;
    the null is generated, and the function receives its Python default instead."""
    fs = function_schema(tools.paginate, optional_defaults="nullable")
    report = fuzz(fs, n=30)
    assert report.ok, [f.message for f in report.findings]
    result = try_call(fs, {"query": "x", "page": None})
    assert result.call_text == "paginate(query='x', page=1)"


# Real disagreements in the callable corpus: a non-strict discriminated union lets the model
# leave out the tag (it has a default in the schema), which pydantic then cannot dispatch on.
KNOWN_CORPUS_FINDINGS = {"discriminated"}


def test_the_callable_corpus_fuzzes_without_a_crash_or_a_false_alarm() -> None:
    """Every shape the engine supports, dry run: only toollens errors, only known findings.

    Non-strict, the schema that takes every shape (``**kwargs`` too); the strict schemas are
    covered by the clean tools above.
    """
    import corpus_callables as corpus

    from toollens import ToolLensError

    found = set()
    for name, func in sorted(corpus.CORPUS.items()):
        try:
            report = fuzz(func, n=5, strict=False, dry_run=True)
        except ToolLensError:
            continue  # refused when built (as the SDK refuses), or recursive: not generated
        if report.findings:
            found.add(name)
    assert found <= KNOWN_CORPUS_FINDINGS
