"""Gemini's VALIDATED function-calling mode: its strict tools, decided for the whole request."""

from __future__ import annotations

import pytest

from toollens.core.options import ReportOptions
from toollens.core.providers.gemini import function_calling_config
from toollens.toolsets.entries import Tool, ToolOrigin
from toollens.toolsets.rules import concerns_provider, iter_toolset_findings

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


@pytest.mark.parametrize(
    ("strict", "mode"),
    [([True, True], "VALIDATED"), ([True, False], "AUTO"), ([False], "AUTO"), ([], "AUTO")],
    ids=["all-strict", "mixed", "lax", "no-tools"],
)
def test_mode_for_a_request(strict: list[bool], mode: str) -> None:
    assert function_calling_config(strict) == {"mode": mode}


def test_the_mode_is_one_google_genai_knows() -> None:
    genai = pytest.importorskip("google.genai.types")
    config = genai.FunctionCallingConfig.model_validate(function_calling_config([True]))
    assert config.mode is genai.FunctionCallingConfigMode.VALIDATED


def entry(name: str, strict: bool) -> Tool:
    return Tool.from_definition(
        name, "A tool.", SCHEMA, origin=ToolOrigin(kind="json", label="t"),
        options=ReportOptions(strict=strict),
    )  # fmt: skip


def test_mixed_strictness_is_named_for_gemini() -> None:
    found = [
        f
        for f in iter_toolset_findings([entry("a", True), entry("b", False)])
        if f.finding.rule == "toolset.gemini-validated-mixed"
    ]
    assert [f.tools for f in found] == [("b",)]
    assert concerns_provider(found[0].finding, "gemini")
    assert not concerns_provider(found[0].finding, "anthropic")
    same = iter_toolset_findings([entry("a", True), entry("b", True)])
    assert "toolset.gemini-validated-mixed" not in {f.finding.rule for f in same}
