"""OpenAI token counts against published, API-measured prompt_tokens.

Sources (each figure below is what the OpenAI API returned as ``usage.prompt_tokens``):

- [HM] hmarr/openai-chat-tokens, tests/token-counts.test.ts: request/response pairs measured
  on gpt-3.5-turbo (cl100k_base) with the ``functions`` parameter.
- [CB] openai/openai-cookbook, examples/How_to_count_tokens_with_tiktoken.ipynb, the
  function-calling cell: "N prompt tokens counted by the OpenAI API" for gpt-3.5-turbo,
  gpt-4 (cl100k_base), gpt-4o and gpt-4o-mini (o200k_base), with a system message.

Message accounting (from [CB]): a message costs 3 tokens + its role + its content, and every
request 3 more for the reply's priming. toollens counts what the tools add to a request with
no system message of its own, so for a request [user] + tools:
``prompt_tokens = (3 + role + content) + 3 + tokens(tools).total``. With a system message,
the tools block is appended to it (after a blank line) in one message of frame 3.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("tiktoken")

from toollens.tokens import encodings, tokens, tool_defs
from toollens.tokens.openai_render import render, text_of

EMPTY = {"type": "object", "properties": {}}
PRIMING = 3


def fn(name: str, parameters: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, "parameters": parameters}
    if description is not None:
        body["description"] = description
    return {"type": "function", "function": body}


def message(encoding: str, role: str, content: str) -> int:
    return 3 + encodings.count(encoding, role) + encodings.count(encoding, content)


BING = {"foo": {"type": "string"}}
RECIPE = {
    "type": "object",
    "required": ["ingredients", "instructions", "time_to_cook"],
    "properties": {
        "ingredients": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "unit", "amount"],
                "properties": {
                    "name": {"type": "string"},
                    "unit": {
                        "enum": ["grams", "ml", "cups", "pieces", "teaspoons"],
                        "type": "string",
                    },
                    "amount": {"type": "number"},
                },
            },
        },
        "instructions": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Steps to prepare the recipe (no numbering)",
        },
        "time_to_cook": {
            "type": "number",
            "description": "Total time to prepare the recipe in minutes",
        },
    },
}
NESTED = {
    "type": "object",
    "properties": {
        "foo": {
            "type": "object",
            "properties": {
                "bar": {"type": "string", "enum": ["a", "b", "c"]},
                "baz": {"type": "boolean"},
            },
        }
    },
}

# [HM]: one user message "hello", no system message, gpt-3.5-turbo.
USER_ONLY = [
    pytest.param([fn("foo", EMPTY)], 31, id="HM-no-params"),
    pytest.param([fn("foo", EMPTY, "Do a foo")], 36, id="HM-description"),
    pytest.param(
        [fn("bing_bong", {"type": "object", "properties": BING}, "Do a bing bong")],
        49,
        id="HM-one-string",
    ),
    pytest.param(
        [
            fn(
                "bing_bong",
                {
                    "type": "object",
                    "properties": {**BING, "bar": {"type": "number", "description": "A number"}},
                },
                "Do a bing bong",
            )
        ],
        57,
        id="HM-param-description",
    ),
    pytest.param([fn("bing_bong", NESTED, "Do a bing bong")], 68, id="HM-nested-enum"),
    pytest.param([fn("get_recipe", RECIPE)], 106, id="HM-recipe-arrays"),
]


@pytest.mark.parametrize(("tools", "measured"), USER_ONLY)
def test_user_only_requests_match_measured_prompt_tokens(
    tools: list[dict[str, Any]], measured: int
) -> None:
    counted = tokens(tools, "gpt-3.5-turbo")
    assert counted.method == "exact"
    assert message("cl100k_base", "user", "hello") + PRIMING + counted.total == measured


WEATHER = fn(
    "get_current_weather",
    {
        "type": "object",
        "properties": {
            "location": {
                "type": "string",
                "description": "The city and state, e.g. San Francisco, CA",
            },
            "unit": {
                "type": "string",
                "description": "The unit of temperature to return",
                "enum": ["celsius", "fahrenheit"],
            },
        },
        "required": ["location"],
    },
    "Get the current weather in a given location",
)
WEATHER_SYSTEM = "You are a helpful assistant that can answer to questions about the weather."
WEATHER_USER = "What's the weather like in San Francisco?"

# Requests with system messages: the tools block joins the first one.
WITH_SYSTEM = [
    pytest.param(
        "gpt-3.5-turbo", [WEATHER], [WEATHER_SYSTEM], WEATHER_USER, 105, id="CB-gpt-3.5-turbo"
    ),
    pytest.param("gpt-4", [WEATHER], [WEATHER_SYSTEM], WEATHER_USER, 105, id="CB-gpt-4"),
    pytest.param("gpt-4o", [WEATHER], [WEATHER_SYSTEM], WEATHER_USER, 101, id="CB-gpt-4o"),
    pytest.param(
        "gpt-4o-mini", [WEATHER], [WEATHER_SYSTEM], WEATHER_USER, 101, id="CB-gpt-4o-mini"
    ),
    pytest.param(
        "gpt-3.5-turbo", [fn("do_stuff", EMPTY)], ["Hello"], "Hi there", 35, id="HM-system-Hello"
    ),
    pytest.param(
        "gpt-3.5-turbo",
        [fn("do_stuff", EMPTY)],
        ["Hello:"],
        "Hi there",
        35,
        id="HM-system-Hello-colon",
    ),
    pytest.param(
        "gpt-3.5-turbo",
        [fn("do_stuff", EMPTY)],
        ["Hello:", "Hello"],
        "Hi there",
        40,
        id="HM-two-system-messages",
    ),
]


@pytest.mark.parametrize(("model", "tools", "systems", "user", "measured"), WITH_SYSTEM)
def test_requests_with_a_system_message_match_measured_prompt_tokens(
    model: str, tools: list[dict[str, Any]], systems: list[str], user: str, measured: int
) -> None:
    encoding = tokens(tools, model).tokenizer
    block = text_of(render(tool_defs(tools)))
    first = 3 + encodings.count(encoding, f"{systems[0]}\n\n{block}")
    rest = sum(message(encoding, "system", s) for s in systems[1:])
    assert first + rest + message(encoding, "user", user) + PRIMING == measured


def test_the_encoding_follows_the_model_family() -> None:
    assert tokens([WEATHER], "gpt-4").tokenizer == "cl100k_base"
    assert tokens([WEATHER], "gpt-3.5-turbo").tokenizer == "cl100k_base"
    assert tokens([WEATHER], "gpt-4o").tokenizer == "o200k_base"
    assert tokens([WEATHER], "gpt-4.1-mini").tokenizer == "o200k_base"


MEASURED_TOOLS = [
    *(tool for case in USER_ONLY for tool in case.values[0]),
    *(tool for case in WITH_SYSTEM for tool in case.values[1]),
]


def test_the_covered_constructs_are_exactly_those_of_the_published_requests() -> None:
    # `exact` rests on this set: it must be what the measured requests hold, no more.
    from toollens.tokens.coverage import MEASURED_CONSTRUCTS, tool_constructs

    found = set().union(*(tool_constructs(d) for d in tool_defs(MEASURED_TOOLS)))
    assert found == MEASURED_CONSTRUCTS


PUBLISHED = [
    *(pytest.param("gpt-3.5-turbo", c.values[0], id=c.id) for c in USER_ONLY),
    *(pytest.param(c.values[0], c.values[1], id=c.id) for c in WITH_SYSTEM),
]


@pytest.mark.parametrize(("model", "tools"), PUBLISHED)
def test_every_published_request_counts_as_exact(model: str, tools: list[Any]) -> None:
    counted = tokens(tools, model)
    assert (counted.method, counted.unvalidated) == ("exact", ())
