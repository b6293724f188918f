"""Cross-tool rules of toolsets: each rule with a case that fires and one that does not."""

from __future__ import annotations

from typing import Any

import pytest

import toollens
from toollens.toolsets import TOOLSET_RULES, Tool, ToolOrigin, Toolset
from toollens.toolsets.similarity import similar_pairs

OBJECT = {"type": "object", "properties": {}}


def tool(tool_name: str, description: str | None = None, **properties: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    text = description or f"Does {tool_name}."
    return {"name": tool_name, "description": text, "input_schema": schema}


def rule_hits(tools: list[dict[str, Any]], rule: str) -> list[Any]:
    ts = Toolset.from_definitions(tools)
    return [item for item in ts.cross_findings if item.finding.rule == rule]


def only_hit(tools: list[dict[str, Any]], rule: str) -> Any:
    hits = rule_hits(tools, rule)
    assert len(hits) == 1, hits
    return hits[0]


def test_rule_ids_are_unique_and_cite_a_source() -> None:
    ids = [r.id for r in TOOLSET_RULES]
    assert len(ids) == len(set(ids))
    assert all(
        r.id.startswith("toolset.") and r.cite.url.startswith("https://") for r in TOOLSET_RULES
    )


def test_duplicate_name() -> None:
    hit = only_hit([tool("search"), tool("fetch"), tool("search")], "toolset.duplicate-name")
    assert hit.tools == ("search",)
    assert hit.finding.severity is toollens.Severity.ERROR
    assert "2 tools are named 'search'" in hit.finding.message
    assert "[0]" in hit.finding.message
    assert "[2]" in hit.finding.message
    assert not rule_hits([tool("search"), tool("fetch")], "toolset.duplicate-name")


def test_sanitised_collision_uses_the_agents_sdk() -> None:
    transforms = pytest.importorskip("agents.util._transforms")
    assert transforms.transform_string_function_style("Get-Page") == "get_page"
    hit = only_hit([tool("get_page"), tool("Get-Page")], "toolset.sanitised-name-collision")
    assert hit.tools == ("get_page", "Get-Page")
    assert "'get_page'" in hit.finding.message
    assert not rule_hits([tool("get_page"), tool("Get-Pages")], "toolset.sanitised-name-collision")


@pytest.mark.parametrize("name", ["get_page", "abc", "a1_b2"])
def test_names_the_shortcut_skips_are_unchanged_by_the_sdk(name: str) -> None:
    transforms = pytest.importorskip("agents.util._transforms")
    assert transforms.transform_string_function_style(name) == name


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("get_page", set()),  # valid everywhere
        ("get.page", {"openai", "anthropic"}),  # Gemini allows dots
        ("1st_page", {"gemini"}),  # Gemini: must start with a letter or '_'
        ("x" * 65, {"openai"}),  # over 64, within Anthropic's and Gemini's 128
        ("x" * 129, {"openai", "anthropic", "gemini"}),
        ("get page", {"openai", "anthropic", "gemini"}),
    ],
)
def test_names_a_provider_rejects(name: str, rules: set[str]) -> None:
    # A name is judged per tool, by each provider's own rule, for the providers checked:
    # the toolset adds no second finding for it.
    (entry,) = Toolset.from_definitions([tool(name)]).tools
    found = set()
    for provider in ("openai-chat", "anthropic", "gemini"):
        report = entry.report_for(provider)
        assert report is not None
        rules_hit = {f.rule for f in report.provider_findings}
        found |= {r.split(".")[0] for r in rules_hit if r.endswith("name-invalid")}
    assert found == rules
    assert not Toolset.from_definitions([tool(name)]).findings


def test_gemini_name_rule_matches_the_sdk_field_text() -> None:
    genai = pytest.importorskip("google.genai.types")
    text = genai.FunctionDeclaration.model_fields["name"].description
    assert "maximum length of 128" in text
    assert "dots, colons and dashes" in text


def test_too_many_tools_for_openai() -> None:
    many = [tool(f"tool_{i}", f"Tool number {i}.") for i in range(129)]
    hit = only_hit(many, "toolset.openai-too-many-tools")
    assert "129 tools" in hit.finding.message
    assert "128" in hit.finding.message
    assert not rule_hits(many[:128], "toolset.openai-too-many-tools")


def test_near_duplicate_descriptions() -> None:
    a = tool("search_web", "Search the web for pages about a topic and return links.")
    b = tool("search_news", "Search the web for pages about a topic and return the links.")
    c = tool("fetch", "Download one page and return its text without markup.")
    hit = only_hit([a, b, c], "toolset.near-duplicate-description")
    assert hit.tools == ("search_web", "search_news")
    assert hit.finding.severity is toollens.Severity.WARNING
    assert not rule_hits([a, c], "toolset.near-duplicate-description")


def test_short_descriptions_are_not_compared() -> None:
    assert not rule_hits(
        [tool("a", "Search."), tool("b", "Search.")], "toolset.near-duplicate-description"
    )


def test_similarity_bound_never_skips_a_pair_the_ratio_keeps() -> None:
    import difflib

    texts = [
        "a b c d e f g h i j",
        "a b c d e f g h i k",
        "a a a a b b b b c c",
        "a a a a b b b b c d",
        "j i h g f e d c b a",
    ]
    words = [t.split() for t in texts]
    expected = {
        (i, j)
        for i in range(len(texts))
        for j in range(i + 1, len(texts))
        if difflib.SequenceMatcher(None, words[i], words[j], autojunk=False).ratio() >= 0.9
    }
    assert {(i, j) for i, j, _ in similar_pairs(texts)} == expected
    assert expected  # the table has at least one near-duplicate pair


def test_parameter_type_conflict() -> None:
    tools = [
        tool("get_user", user_id={"type": "integer"}),
        tool("delete_user", user_id={"type": "string"}),
        tool("rename_user", user_id={"type": "integer"}, name={"type": "string"}),
    ]
    hit = only_hit(tools, "toolset.parameter-type-conflict")
    assert hit.tools == ("get_user", "rename_user", "delete_user")
    assert hit.finding.parameter == "user_id"
    assert "integer in get_user, rename_user; string in delete_user" in hit.finding.message
    same = [
        tool("get_user", user_id={"type": "integer"}),
        tool("rename_user", user_id={"type": "integer"}),
    ]
    assert not rule_hits(same, "toolset.parameter-type-conflict")


def test_parameter_types_follow_refs_and_unions() -> None:
    ref = {
        "type": "object",
        "properties": {"when": {"$ref": "#/$defs/Day"}},
        "$defs": {"Day": {"type": "string"}},
    }
    nullable = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    tools = [
        {"name": "a", "input_schema": ref},
        tool("b", when={"type": "string"}),
        tool("c", when=nullable),
    ]
    hit = only_hit(tools, "toolset.parameter-type-conflict")
    assert "string in a, b; null | string in c" in hit.finding.message


def test_findings_for_a_tool_and_counts() -> None:
    ts = Toolset.from_definitions([tool("search"), tool("search"), tool("get page")])
    assert {f.rule for f in ts.findings_for("search")} == {"toolset.duplicate-name"}
    assert ts.findings_for("nothing") == ()
    # the duplicate name, and 'get page' outside the default provider's name rule
    assert ts.finding_counts[toollens.Severity.ERROR] == 2


def test_unreadable_entries_take_no_part_in_the_rules() -> None:
    broken = Tool.failed("search", ToolOrigin(kind="json", label="x"), "boom")
    ts = Toolset.from_entries([broken, broken], label="x")
    assert ts.findings == ()


def test_concerns_provider() -> None:
    from toollens.toolsets.rules import RULE_PROVIDERS, concerns_provider

    many = [tool(f"tool_{i}", f"Tool number {i}.") for i in range(129)]
    by_rule = {f.rule: f for f in Toolset.from_definitions(many).findings}
    assert concerns_provider(by_rule["toolset.openai-too-many-tools"], "openai-chat")
    assert not concerns_provider(by_rule["toolset.openai-too-many-tools"], "anthropic")
    assert set(RULE_PROVIDERS) <= {r.id for r in TOOLSET_RULES}
