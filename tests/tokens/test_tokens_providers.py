"""Anthropic and Gemini: documented overhead, labelled estimates, opt-in online counts.

The online path is tested only for its refusal without a key and for the request it builds;
no test sends a request.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("tiktoken")

from toollens.tokens import OnlineCountError, UnknownModelError, tokens, tool_defs
from toollens.tokens.claude import claude_model
from toollens.tokens.online import anthropic_request, gemini_request

TOOL = {
    "type": "function",
    "function": {
        "name": "search",
        "description": "Search the catalogue",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "words"}},
            "required": ["query"],
        },
    },
}

# Anthropic docs, Tool use overview > Pricing: "tool use system prompt token count"
# (current table, read 2026-12-01; the Claude 3 rows from an older copy).
DOCUMENTED = [
    ("claude-opus-5", "auto", 286),
    ("claude-opus-5", "any", 406),
    ("claude-opus-4-8", "none", 290),
    ("claude-opus-4-8", "tool", 410),
    ("claude-opus-4-7", "auto", 675),
    ("claude-opus-4-7", "any", 804),
    ("claude-opus-4-6", "auto", 497),
    ("claude-sonnet-4-6", "tool", 589),
    ("claude-sonnet-4-5-20250929", "auto", 496),
    ("claude-haiku-4-5-20251001", "any", 588),
    ("claude-opus-4-5", "none", 496),
    ("claude-sonnet-5", "auto", 354),
    ("claude-sonnet-5", "any", 474),
    ("claude-opus-4-20250514", "auto", 313),
    ("claude-opus-4-1-20250805", "any", 315),
    ("claude-sonnet-4-20250514", "auto", 313),
    ("claude-3-5-haiku-20241022", "auto", 264),
    ("claude-3-5-haiku-latest", "any", 355),
    ("claude-3-7-sonnet-20250219", "tool", 313),
    ("claude-3-opus-20240229", "auto", 530),
    ("claude-3-sonnet-20240229", "tool", 235),
    ("claude-3-haiku-20240307", "auto", 264),
]


@pytest.mark.parametrize(("model", "choice", "overhead"), DOCUMENTED)
def test_anthropic_documented_overhead(model: str, choice: str, overhead: int) -> None:
    row = claude_model(model)
    assert row.overhead(choice) == overhead
    assert "read 2026-" in row.source
    counted = tokens(TOOL, model, tool_choice=choice)
    assert counted.method == "estimate"
    assert counted.overhead == overhead
    assert counted.total == overhead + counted.tools[0].tokens
    assert any("estimate" in n for n in counted.notes)
    assert any(row.source in n for n in counted.notes)


@pytest.mark.parametrize("model", ["claude-2.1", "claude-opus-5-5", "claude-opus-4-9", "claude-x"])
def test_an_undocumented_claude_model_is_an_error_not_another_row(model: str) -> None:
    with pytest.raises(UnknownModelError, match="no documented tool-use system prompt"):
        tokens(TOOL, model)


def test_gemini_is_an_estimate_without_overhead() -> None:
    counted = tokens(TOOL, "gemini-2.5-flash")
    assert (counted.method, counted.overhead) == ("estimate", 0)
    assert [p.label for p in counted.tools[0].parts] == [
        "name + description",
        "query (schema)",
        "schema frame",
    ]


@pytest.mark.parametrize(
    ("model", "variables", "needle"),
    [
        ("claude-sonnet-4-5", ("ANTHROPIC_API_KEY",), "set ANTHROPIC_API_KEY"),
        (
            "gemini-2.5-flash",
            ("GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI"),
            "set GEMINI_API_KEY",
        ),
    ],
)
def test_online_without_a_key_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, model: str, variables: tuple[str, ...], needle: str
) -> None:
    for name in variables:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(OnlineCountError) as info:
        tokens(TOOL, model, online=True)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_the_anthropic_request_is_what_the_sdk_accepts() -> None:
    anthropic = pytest.importorskip("anthropic")
    request: dict[str, Any] = anthropic_request("claude-sonnet-4-5", tool_defs(TOOL))
    assert request["tools"] == [
        {
            "name": "search",
            "description": "Search the catalogue",
            "input_schema": TOOL["function"]["parameters"],
        }
    ]
    # The SDK's own typed params accept it (a TypedDict: keys checked against its fields).
    params = anthropic.types.MessageCountTokensParams.__annotations__
    assert set(request) <= set(params)
    assert "tools" not in anthropic_request("claude-sonnet-4-5", ())


def test_the_gemini_request_is_built_with_the_sdks_types() -> None:
    pytest.importorskip("google.genai")
    request = gemini_request("gemini-2.5-flash", tool_defs(TOOL))
    (tool,) = request["config"].tools
    (declaration,) = tool.function_declarations
    assert declaration.name == "search"
    assert declaration.parameters_json_schema == TOOL["function"]["parameters"]
    assert gemini_request("gemini-2.5-flash", ())["config"] is None


def test_online_counts_are_marginal_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    # A stand-in counter (no network): 100 for the prompt, 300 when any tool is present,
    # and 10 per character of each tool's name.
    from toollens.tokens import online

    def fake(model: str, messages: Any) -> Any:
        return lambda defs: 100 + (300 if defs else 0) + sum(10 * len(d.name) for d in defs)

    monkeypatch.setitem(online.COUNTERS, "anthropic", fake)
    two = [TOOL, {**TOOL, "function": {**TOOL["function"], "name": "go"}}]
    counted = tokens(two, "claude-sonnet-4-5", online=True)
    assert counted.method == "api"
    assert [t.tokens for t in counted.tools] == [60, 20]
    assert (counted.total, counted.overhead) == (380, 300)
