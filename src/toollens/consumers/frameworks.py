"""Frameworks on the official MCP SDK client whose own code decides here what they send.

Each lists tools with the SDK client first (:func:`~toollens.consumers.python.through_sdk_client`:
a list it refuses loses every tool), then converts each kept tool with the framework's own
code, and what that code returns is ``sent``:

- ``pydantic-ai:<profile>``: ``MCPToolset.get_tools`` (its ``_meta.ui.visibility`` filter
  included), then the model's ``customize_request_parameters`` (the profile's
  ``JsonSchemaTransformer``, which also decides ``strict``) and ``_map_tool_definition``,
  for an OpenAI Responses, Anthropic or Google model;
- ``langchain-mcp-adapters``: the ``StructuredTool`` its ``convert_mcp_tool_to_langchain_tool``
  builds (``name``, ``description or ""``, ``args_schema=inputSchema``), then langchain-core's
  ``convert_to_openai_tool``, which ``bind_tools`` sends; the adapter itself pins ``mcp<2``
  and does not import next to the SDK 2 toollens runs, so its three-line construction is
  restated here and a test checks it against the installed adapter's source;
- ``google-genai``: ``_mcp_utils.mcp_to_gemini_tool`` (the Developer API path);
- ``anthropic-sdk``: ``anthropic.lib.tools.mcp.mcp_tool(...).to_dict()``.

A conversion that raises is ``request-rejected``: the framework's call fails before anything
is sent. Each framework is imported only when its consumer judges.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toollens.consumers.model import ClientVerdict, ConsumerJudgement, RuleHit, ToolList
from toollens.consumers.python import in_order, through_sdk_client
from toollens.consumers.rules import RULES_BY_ID, rule
from toollens.core.schema.pointer import join_pointer
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


def _changes(before: object, after: object) -> str:
    """What a conversion did to a schema, in a few words: the keys it removed and added."""
    removed = list(_dropped_keys(before, after))
    added = list(_dropped_keys(after, before))
    parts = [f"removed {', '.join(removed)}"] if removed else []
    parts += [f"added {', '.join(added)}"] if added else []
    return "; ".join(parts) or "values changed"


def _dropped_keys(before: object, after: object, at: str = "") -> Iterator[str]:
    """The pointers of keys in ``before`` that ``after`` (a filtered copy) lacks."""
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key, value in before.items():
            if key not in after:
                yield join_pointer(at, key)
            else:
                yield from _dropped_keys(value, after[key], join_pointer(at, key))
    elif isinstance(before, list) and isinstance(after, list):
        for i, (b, a) in enumerate(zip(before, after, strict=False)):
            yield from _dropped_keys(b, a, join_pointer(at, i))


# -- pydantic-ai --------------------------------------------------------------------------

PYDANTIC_AI_MODELS: Mapping[str, str] = {
    "openai": "gpt-5",  # pydantic-ai's "openai:" models are OpenAI Responses models
    "anthropic": "claude-sonnet-4-5",
    "google": "gemini-2.5-flash",
}
"""The model each ``pydantic-ai:<profile>`` consumer's profile is taken from."""

_OFFLINE_KEY = "toollens-offline"  # the models are built, never called


@functools.cache
def _pydantic_ai_model(profile: str) -> Any:
    name = PYDANTIC_AI_MODELS[profile]
    if profile == "openai":
        from pydantic_ai.models.openai import OpenAIResponsesModel
        from pydantic_ai.providers.openai import OpenAIProvider

        return OpenAIResponsesModel(name, provider=OpenAIProvider(api_key=_OFFLINE_KEY))
    if profile == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        return AnthropicModel(name, provider=AnthropicProvider(api_key=_OFFLINE_KEY))
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    return GoogleModel(name, provider=GoogleProvider(api_key=_OFFLINE_KEY))


def _tool_definitions(tools: list[Tool]) -> dict[str, Any]:
    """``MCPToolset.get_tools`` on a toolset whose server lists ``tools`` (no I/O)."""
    from fastmcp import FastMCP
    from pydantic_ai import RunContext
    from pydantic_ai.mcp import MCPToolset
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    from toollens.frameworks._spec import run_coroutine

    class _Listed(MCPToolset[None]):
        async def list_tools(self) -> list[Tool]:
            return list(tools)

    toolset = _Listed(FastMCP("toollens"))
    ctx = RunContext(deps=None, model=TestModel(), usage=RunUsage())
    got = run_coroutine(toolset.get_tools(ctx))
    return {name: tool.tool_def for name, tool in got.items()}


def _wire(model: Any, tool_def: Any) -> JsonObject:
    """The tool as the model's own ``_map_tool_definition`` puts it in the request."""
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.models.google import _function_declaration_from_tool

    if isinstance(model, AnthropicModel):
        return dict(model._map_tool_definition(tool_def, {}, visibility="visible"))
    if type(model).__name__ == "GoogleModel":
        return dict(_function_declaration_from_tool(tool_def))
    return dict(model._map_tool_definition(tool_def, visibility="visible"))


def _judge_pydantic_ai(profile: str, listing: ToolList) -> ConsumerJudgement:
    model = _pydantic_ai_model(profile)

    def convert(kept: list[Tool]) -> Convert:
        defs = _tool_definitions(kept)
        return functools.partial(_pydantic_ai_tool, profile, model, defs)

    return _judge(f"pydantic-ai:{profile}", listing, convert)


def _pydantic_ai_tool(
    profile: str, model: Any, defs: Mapping[str, Any], client: str, tool: Tool
) -> tuple[JsonObject | None, list[RuleHit]]:
    from pydantic_ai.exceptions import UserError
    from pydantic_ai.models import ModelRequestParameters

    tool_def = defs.get(tool.name)
    if tool_def is None:
        return None, [RuleHit(rule(f"{client}.app-only"), "not given to the model", "/_meta")]
    try:
        asked = ModelRequestParameters(function_tools=[tool_def])
        (prepared,) = model.customize_request_parameters(asked).function_tools
    except (UserError, TypeError, KeyError) as exc:  # the transformer's own crash fails too
        return None, [_failed(f"{client}.transform-failed", exc)]
    sent = _wire(model, prepared)
    hits = []
    if prepared.parameters_json_schema != tool.input_schema:
        text = _changes(tool.input_schema, prepared.parameters_json_schema)
        hits.append(RuleHit(rule(f"{client}.schema-transformed"), text))
    strict_rule = RULES_BY_ID.get(f"{client}.sent-strict")
    if sent.get("strict") is True and strict_rule is not None:
        hits.append(RuleHit(strict_rule, "sent with strict: true"))
    return sent, hits


def _pydantic_ai(profile: str) -> Callable[[ToolList], ConsumerJudgement]:
    return functools.partial(_judge_pydantic_ai, profile)


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
        text = _changes(tool.input_schema, params)
        hits.append(RuleHit(rule(f"{client}.schema-converted"), text))
    return sent, hits


def judge_langchain(listing: ToolList) -> ConsumerJudgement:
    return _judge("langchain-mcp-adapters", listing, _each(_langchain_convert))


# -- google-genai -------------------------------------------------------------------------


class _Captured(logging.Handler):
    """Keeps the SDK's log records (its warnings say what it did not send) from stderr."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _genai_convert(client: str, tool: Tool) -> tuple[JsonObject | None, list[RuleHit]]:
    import warnings

    from google.genai import _mcp_utils

    logger = logging.getLogger("google_genai.types")
    captured, propagate = _Captured(), logger.propagate
    logger.addHandler(captured)
    logger.propagate = False
    try:
        with warnings.catch_warnings():  # it reads the SDK 1 field name first
            warnings.simplefilter("ignore", DeprecationWarning)
            converted = _mcp_utils.mcp_to_gemini_tool(tool)
        kept = _mcp_utils._filter_to_supported_schema(tool.input_schema)
    except Exception as exc:  # the SDK raises whatever its walk meets
        return None, [_failed(f"{client}.conversion-failed", exc)]
    finally:
        logger.removeHandler(captured)
        logger.propagate = propagate
    declaration = (converted.function_declarations or [])[0]
    sent = declaration.model_dump(mode="json", exclude_none=True, by_alias=True)
    found = rule(f"{client}.keywords-dropped")
    hits = [
        RuleHit(found, f"{at.rsplit('/', 1)[-1]!r} is not sent", at)
        for at in _dropped_keys(tool.input_schema, kept)
    ]
    split = rule(f"{client}.union-type-split")
    hits += [RuleHit(split, text) for text in captured.messages if "union-like" in text]
    return sent, hits


def judge_google_genai(listing: ToolList) -> ConsumerJudgement:
    return _judge("google-genai", listing, _each(_genai_convert))


# -- Anthropic SDK ------------------------------------------------------------------------


def _anthropic_convert(client: str, tool: Tool) -> tuple[JsonObject | None, list[RuleHit]]:
    from anthropic.lib.tools.mcp import mcp_tool

    session: Any = None  # only a call would use it
    return dict(mcp_tool(tool, session).to_dict()), []


def judge_anthropic_sdk(listing: ToolList) -> ConsumerJudgement:
    return _judge("anthropic-sdk", listing, _each(_anthropic_convert))


FRAMEWORK_JUDGES: Mapping[str, Callable[[ToolList], ConsumerJudgement]] = {
    **{f"pydantic-ai:{p}": _pydantic_ai(p) for p in PYDANTIC_AI_MODELS},
    "langchain-mcp-adapters": judge_langchain,
    "google-genai": judge_google_genai,
    "anthropic-sdk": judge_anthropic_sdk,
}
