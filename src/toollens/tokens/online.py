"""Opt-in exact counts through a provider's count-tokens endpoint (official SDKs).

Never called by default or in tests: the user asks with ``online=True`` (``--online``) and
has an API key. Total = count(user message + tools) - count(user message alone); a tool's
share is its marginal cost (the count without it subtracted from the count with all);
what remains is the overhead (the provider's tool-use system prompt). With ``messages`` the
requests carry them instead of the probe message, and ``messages`` is the count without
tools. OpenAI models are counted by the Responses API's ``input_tokens.count``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, TypedDict

from toollens.core.schema.types import JsonObject
from toollens.tokens.errors import OnlineCountError
from toollens.tokens.result import PartTokens, TokenCount, ToolTokens
from toollens.tokens.tooldefs import ToolDef

if TYPE_CHECKING:
    from google.genai.types import CountTokensConfig

PROBE_MESSAGE = "hi"
ANTHROPIC_KEY = "ANTHROPIC_API_KEY"
OPENAI_KEY = "OPENAI_API_KEY"
GEMINI_KEYS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
NOTES = ("api: the provider's count-tokens endpoint; tool shares are marginal costs",)

Counter = Callable[[Sequence[ToolDef]], int]
Messages = Sequence[str] | None


class GeminiCountRequest(TypedDict):
    """The keyword arguments of google-genai's ``client.models.count_tokens``."""

    model: str
    contents: str
    config: CountTokensConfig | None


def _users(messages: Messages) -> list[str]:
    return list(messages) if messages else [PROBE_MESSAGE]


def anthropic_request(
    model: str, tools: Sequence[ToolDef], messages: Messages = None
) -> JsonObject:
    """The keyword arguments of ``client.messages.count_tokens`` for ``tools``."""
    request: JsonObject = {
        "model": model,
        "messages": [{"role": "user", "content": m} for m in _users(messages)],
    }
    if tools:
        request["tools"] = [
            {
                "name": t.name,
                **({"description": t.description} if t.description else {}),
                "input_schema": dict(t.parameters),
            }
            for t in tools
        ]
    return request


def openai_request(model: str, tools: Sequence[ToolDef], messages: Messages = None) -> JsonObject:
    """The keyword arguments of ``client.responses.input_tokens.count`` for ``tools``.

    ``strict`` is sent as ``False``: the Responses API now makes a function strict when
    ``strict`` is omitted, which would count another schema than the one given.
    """
    request: JsonObject = {
        "model": model,
        "input": [{"role": "user", "content": m} for m in _users(messages)],
    }
    if tools:
        request["tools"] = [
            {
                "type": "function",
                "name": t.name,
                **({"description": t.description} if t.description else {}),
                "parameters": dict(t.parameters),
                "strict": False,
                **({"defer_loading": True} if t.deferred else {}),
            }
            for t in tools
        ]
    return request


def gemini_request(
    model: str, tools: Sequence[ToolDef], messages: Messages = None
) -> GeminiCountRequest:
    """The keyword arguments of ``client.models.count_tokens`` for ``tools``."""
    from google.genai import types

    config = None
    if tools:
        declarations = [
            types.FunctionDeclaration(
                name=t.name,
                description=t.description,
                parameters_json_schema=dict(t.parameters),
            )
            for t in tools
        ]
        config = types.CountTokensConfig(tools=[types.Tool(function_declarations=declarations)])
    return {"model": model, "contents": "\n\n".join(_users(messages)), "config": config}


def _sdk(module: str, key: str, vendor: str) -> ModuleType:
    """The vendor's SDK module, once its API key is set; else why not, in one line."""
    if not os.environ.get(key):
        raise OnlineCountError(f"--online needs an {vendor} API key", hint=f"set {key}")
    try:
        return importlib.import_module(module)
    except ImportError:
        raise OnlineCountError(
            f"the {module} SDK is not installed", hint=f"pip install {module}"
        ) from None


def _anthropic_counter(model: str, messages: Messages = None) -> Counter:
    client = _sdk("anthropic", ANTHROPIC_KEY, "Anthropic").Anthropic()
    return lambda tools: int(
        client.messages.count_tokens(**anthropic_request(model, tools, messages)).input_tokens
    )


def _openai_counter(model: str, messages: Messages = None) -> Counter:
    client = _sdk("openai", OPENAI_KEY, "OpenAI").OpenAI()
    return lambda tools: int(
        client.responses.input_tokens.count(**openai_request(model, tools, messages)).input_tokens
    )


def _gemini_counter(model: str, messages: Messages = None) -> Counter:
    vertex = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true")
    if not vertex and not any(os.environ.get(k) for k in GEMINI_KEYS):
        raise OnlineCountError(
            "--online needs a Gemini API key or Vertex AI credentials",
            hint=f"set {GEMINI_KEYS[0]} (or GOOGLE_GENAI_USE_VERTEXAI=true with a project)",
        )
    try:
        from google import genai
    except ImportError:
        raise OnlineCountError(
            "the google-genai SDK is not installed", hint="pip install google-genai"
        ) from None
    client = genai.Client()

    def count(tools: Sequence[ToolDef]) -> int:
        response = client.models.count_tokens(**gemini_request(model, tools, messages))
        return int(response.total_tokens or 0)

    return count


COUNTERS: dict[str, Callable[[str, Messages], Counter]] = {
    "anthropic": _anthropic_counter,
    "gemini": _gemini_counter,
    "openai": _openai_counter,
}


def count_online(
    model: str, provider: str, tools: Sequence[ToolDef], messages: Messages = None
) -> TokenCount:
    """The provider's exact count of ``tools`` (network; opt-in only)."""
    if provider not in COUNTERS:
        raise OnlineCountError(f"no count-tokens endpoint toollens can ask for {model!r}")
    counter = COUNTERS[provider](model, messages)
    try:
        return _marginal_counts(model, provider, tools, counter, messages is not None)
    except OnlineCountError:
        raise
    except Exception as exc:  # SDK and HTTP errors: one line, the SDK's own class named
        raise OnlineCountError(
            f"{provider} count-tokens request failed ({type(exc).__name__}: "
            f"{' '.join(str(exc).split())[:200]})"
        ) from exc


def _marginal_counts(
    model: str, provider: str, tools: Sequence[ToolDef], counter: Counter, with_messages: bool
) -> TokenCount:
    base = counter(())
    full = counter(tools)
    shares = []
    for i, tool in enumerate(tools):
        without = counter([t for j, t in enumerate(tools) if j != i]) if len(tools) > 1 else base
        shares.append(
            # the endpoint counts what a request pays: a deferred tool's share is up front
            ToolTokens(tool.name, full - without, (PartTokens("", "tool", full - without),))
        )
    total = full - base
    overhead = total - sum(s.tokens for s in shares)
    return TokenCount(
        model,
        "api",
        total,
        overhead,
        tuple(shares),
        f"{provider} count_tokens",
        NOTES,
        messages=base if with_messages else None,
    )
