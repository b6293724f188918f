"""Frameworks on the official MCP SDK client whose own code decides here what they send.

Each lists tools with the SDK client first (:func:`~toollens.consumers.python.through_sdk_client`:
a list it refuses loses every tool), then runs on the tools it kept:

- ``pydantic-ai:<profile>``: an agent run on an OpenAI Responses, Anthropic or Google model
  whose SDK client records the request body (:mod:`toollens.consumers.recorded`): the body's
  tool is ``sent``, with every step pydantic-ai takes on the way (``MCPToolset.get_tools``
  and its ``_meta.ui.visibility`` filter, ``prepare_request``, the profile's
  ``JsonSchemaTransformer``, which also decides ``strict``);
- ``langchain-mcp-adapters``: the ``StructuredTool`` its ``convert_mcp_tool_to_langchain_tool``
  builds (``name``, ``description or ""``, ``args_schema=inputSchema``), then langchain-core's
  ``convert_to_openai_tool``, which ``bind_tools`` sends; the adapter itself pins ``mcp<2``
  and does not import next to the SDK 2 toollens runs, so its three-line construction is
  restated here and a test checks it against the installed adapter's source;
- ``google-genai`` and ``anthropic-sdk``: :mod:`toollens.consumers.model_sdks`.

Each framework is imported only when its consumer judges.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from toollens.consumers.model import ClientVerdict, ConsumerJudgement, RuleHit, ToolList
from toollens.consumers.model_sdks import (
    genai_http_options,
    judge_anthropic_sdk,
    judge_google_genai,
)
from toollens.consumers.python import in_order, through_sdk_client
from toollens.consumers.recorded import Library, changes, judge_recorded
from toollens.consumers.rules import RULES_BY_ID, rule
from toollens.consumers.sent import sent_parts
from toollens.consumers.wire import Replay, declarations, named_tools, recording_client
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from mcp_types import Tool

__all__ = ["FRAMEWORK_JUDGES", "PYDANTIC_AI_MODELS"]

# What one framework does to one tool the SDK client kept: what it sends, and the rules hit.
Convert = Callable[[str, "Tool"], tuple[JsonObject | None, list[RuleHit]]]


def _judge(
    client: str, listing: ToolList, convert: Callable[[list[Tool]], Convert]
) -> ConsumerJudgement:
    """The SDK client's listing, then the framework's conversion of each tool it kept
    (``convert`` takes the kept tools first: a framework may list them all at once)."""
    kept, lost = through_sdk_client(client, listing)
    each = convert(kept)
    verdicts = dict(lost)
    sent_names = []
    for tool in kept:
        sent, hits = each(client, tool)
        verdicts[tool.name] = ClientVerdict.from_hits(client, tool.name, hits, sent)
        if sent is not None:
            sent_names.append(tool.name)
    return in_order(client, listing, verdicts, sent_names)


def _each(convert: Convert) -> Callable[[list[Tool]], Convert]:
    """A conversion that takes each tool on its own."""
    return lambda kept: convert


def _failed(rule_id: str, exc: Exception) -> RuleHit:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return RuleHit(rule(rule_id), f"{type(exc).__name__}: {text}".rstrip(": "))


# -- pydantic-ai --------------------------------------------------------------------------

PYDANTIC_AI_MODELS: Mapping[str, str] = {
    "openai": "gpt-5",  # pydantic-ai's "openai:" models are OpenAI Responses models
    "anthropic": "claude-sonnet-4-5",
    "google": "gemini-2.5-flash",
}
"""The model each ``pydantic-ai:<profile>`` consumer's profile is taken from."""

_OFFLINE_KEY = "toollens-offline"  # the SDK clients only ever reach the recording transport


def _pydantic_ai_model(profile: str, bodies: list[JsonObject]) -> Any:
    """The profile's model on its provider SDK's client, over a recording transport."""
    name = PYDANTIC_AI_MODELS[profile]
    if profile == "openai":
        from openai import AsyncOpenAI
        from pydantic_ai.models.openai import OpenAIResponsesModel
        from pydantic_ai.providers.openai import OpenAIProvider

        sdk = AsyncOpenAI(api_key=_OFFLINE_KEY, http_client=recording_client(bodies, "httpx2"),
                          max_retries=0)  # fmt: skip
        return OpenAIResponsesModel(name, provider=OpenAIProvider(openai_client=sdk))
    if profile == "anthropic":
        from anthropic import AsyncAnthropic
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        client = AsyncAnthropic(api_key=_OFFLINE_KEY, max_retries=0,
                                http_client=recording_client(bodies, "httpx2"))  # fmt: skip
        return AnthropicModel(name, provider=AnthropicProvider(anthropic_client=client))
    from google import genai
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    google = genai.Client(api_key=_OFFLINE_KEY, http_options=genai_http_options(bodies))
    return GoogleModel(name, provider=GoogleProvider(client=google))


def _listed_toolset(replay: Replay) -> Any:
    """An ``MCPToolset`` whose FastMCP client reads every page of ``replay``, as
    ``fastmcp.Client.list_tools`` does (it follows ``nextCursor`` to the end)."""
    import mcp_types as types
    from fastmcp import FastMCP
    from pydantic_ai.mcp import MCPToolset

    class _Listed(MCPToolset[None]):
        async def list_tools(self) -> list[Tool]:
            tools: list[Tool] = []
            cursor: str | None = None
            while True:
                page = types.ListToolsResult.model_validate(replay.page(cursor), by_name=False)
                tools.extend(page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    return tools

        async def __aenter__(self) -> _Listed:  # nothing to connect to
            return self

        async def __aexit__(self, *args: object) -> None:
            return None

    return _Listed(FastMCP("toollens"))


async def _drive_pydantic_ai(profile: str, replay: Replay, bodies: list[JsonObject]) -> None:
    """An agent run: pydantic-ai prepares the request (``prepare_request``, the profile's
    transformer, the return schemas) and its model's SDK sends it."""
    from pydantic_ai import Agent

    agent = Agent(_pydantic_ai_model(profile, bodies), toolsets=[_listed_toolset(replay)])
    with warnings.catch_warnings():
        # The profile's model may be past its provider's retirement date: that changes
        # nothing in the tools sent, and the user named no model, so it is no warning of theirs.
        warnings.filterwarnings("ignore", message=r"Model .* is deprecated by its provider")
        await agent.run("toollens")


def _pydantic_ai_hits(client: str, tool: Tool, entry: JsonObject) -> list[RuleHit]:
    _, schema, strict = sent_parts(entry)
    hits = []
    if schema != tool.input_schema:
        text = changes(tool.input_schema, schema)
        hits.append(RuleHit(rule(f"{client}.schema-transformed"), text))
    strict_rule = RULES_BY_ID.get(f"{client}.sent-strict")
    if strict is True and strict_rule is not None:
        hits.append(RuleHit(strict_rule, "sent with strict: true"))
    return hits


def _pydantic_ai(profile: str) -> Callable[[ToolList], ConsumerJudgement]:
    client = f"pydantic-ai:{profile}"
    library = Library(
        client=client,
        drive=functools.partial(_drive_pydantic_ai, profile),
        entries=declarations if profile == "google" else named_tools,
        hits=_pydantic_ai_hits,
        culprit_rule=f"{client}.transform-failed",
        missing_rule=f"{client}.app-only",
    )
    return functools.partial(judge_recorded, library)


# -- LangChain MCP adapters ---------------------------------------------------------------


def _langchain_tool(tool: Tool) -> Any:
    """The ``StructuredTool`` ``convert_mcp_tool_to_langchain_tool`` builds for ``tool``
    (langchain-mcp-adapters 0.3.2, ``tools.py``): its name, ``description or ""`` and the
    ``inputSchema`` as ``args_schema``; the coroutine only runs when the model calls it."""
    from langchain_core.tools import StructuredTool

    async def call_tool(**arguments: Any) -> Any:
        raise NotImplementedError("toollens only lists tools")

    return StructuredTool(
        name=tool.name,
        description=tool.description or "",
        args_schema=tool.input_schema,
        coroutine=call_tool,
        response_format="content_and_artifact",
    )


def _langchain_convert(client: str, tool: Tool) -> tuple[JsonObject | None, list[RuleHit]]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    try:
        sent = dict(convert_to_openai_tool(_langchain_tool(tool)))
    except (KeyError, ValueError, TypeError) as exc:
        return None, [_failed(f"{client}.conversion-failed", exc)]
    params = sent["function"].get("parameters", {})
    hits = []
    if "__arg1" in params.get("properties", {}) and "__arg1" not in str(tool.input_schema):
        hits.append(RuleHit(rule(f"{client}.single-input"), "sent as one string __arg1"))
    elif params != tool.input_schema:
        text = changes(tool.input_schema, params)
        hits.append(RuleHit(rule(f"{client}.schema-converted"), text))
    return sent, hits


def judge_langchain(listing: ToolList) -> ConsumerJudgement:
    return _judge("langchain-mcp-adapters", listing, _each(_langchain_convert))


FRAMEWORK_JUDGES: Mapping[str, Callable[[ToolList], ConsumerJudgement]] = {
    **{f"pydantic-ai:{p}": _pydantic_ai(p) for p in PYDANTIC_AI_MODELS},
    "langchain-mcp-adapters": judge_langchain,
    "google-genai": judge_google_genai,
    "anthropic-sdk": judge_anthropic_sdk,
}
