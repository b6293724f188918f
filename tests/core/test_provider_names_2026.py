"""Tool names as the providers take them today: Anthropic's 128-character rule, Bedrock's 64."""

from __future__ import annotations

import pytest

from toollens.core.providers import check_provider
from toollens.core.records import Severity
from toollens.toolsets.entries import Tool, ToolOrigin
from toollens.toolsets.rules import iter_toolset_findings

EMPTY = {"type": "object", "properties": {}}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("lookup_user", [], id="plain"),
        pytest.param("lookup-user-2", [], id="hyphen-digit"),
        pytest.param("lookup user", [("anthropic.name-invalid", Severity.ERROR)], id="space"),
        pytest.param("lookup.user", [("anthropic.name-invalid", Severity.ERROR)], id="dot"),
        pytest.param("a" * 64, [], id="64-chars"),
        pytest.param("a" * 65, [("anthropic.name-bedrock", Severity.WARNING)], id="65-chars"),
        pytest.param("a" * 128, [("anthropic.name-bedrock", Severity.WARNING)], id="128-chars"),
        pytest.param("a" * 129, [("anthropic.name-invalid", Severity.ERROR)], id="129-chars"),
        pytest.param("a" * 200, [("anthropic.name-invalid", Severity.ERROR)], id="200-chars"),
        pytest.param("", [("anthropic.name-invalid", Severity.ERROR)], id="empty"),
    ],
)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_anthropic_tool_names(
    name: str, expected: list[tuple[str, Severity]], strict: bool
) -> None:
    found = check_provider(EMPTY, "anthropic", name=name, strict=strict)
    assert [(f.rule, f.severity) for f in found if f.rule.startswith("anthropic.name")] == expected


def test_a_name_anthropic_rejects_fails_the_verdict() -> None:
    from toollens.core.providers import provider_verdict

    verdict = provider_verdict(EMPTY, "anthropic", name="lookup user")
    assert not verdict.accepted
    assert "128" in verdict.judgements[0].detail
    sources = {s.url for s in verdict.judgements[0].sources}
    assert "https://platform.claude.com/docs/en/api/messages" in sources


def _entry(name: str) -> Tool:
    return Tool.from_definition(
        name, "Look a user up.", EMPTY, origin=ToolOrigin(kind="json", label="t")
    )


@pytest.mark.parametrize(
    ("name", "rejected"),
    [("a" * 100, False), ("a" * 129, True), ("lookup user", True)],
    ids=["100", "129", "space"],
)
def test_a_toolset_judges_the_name_once_by_anthropic_s_own_rule(name: str, rejected: bool) -> None:
    entry = _entry(name)
    report = entry.report_for("anthropic")
    assert report is not None
    rules = {f.rule for f in report.provider_findings}
    assert ("anthropic.name-invalid" in rules) is rejected
    # no second, toolset-level finding for the same name
    assert not [f for f in iter_toolset_findings([entry]) if "name-invalid" in f.finding.rule]
