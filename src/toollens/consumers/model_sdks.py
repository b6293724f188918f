"""The model SDKs' own MCP support, run through their public entry points.

- ``google-genai``: ``client.aio.models.generate_content(config=GenerateContentConfig(
  tools=[session]))`` with an MCP ``ClientSession`` as the tool (the Gemini Developer API
  path). It calls ``session.list_tools()`` once, converts every tool, and sends the SDK's
  ``Schema``: ``sent`` is the function declaration in the body, spelled as the body spells it
  (``"type": "STRING"``, ``any_of``), so it is ``rewritten`` even when nothing is lost. One
  tool it cannot convert fails the call, and nothing is sent.
- ``anthropic-sdk``: used as its docs show: one ``session.list_tools()``, then
  ``client.beta.messages.tool_runner(tools=[async_mcp_tool(t, session) ...])``.

Both read only the first ``tools/list`` page. See :mod:`toollens.consumers.wire`.
"""

from __future__ import annotations

import logging
import ssl
import warnings
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toollens.consumers.model import ConsumerJudgement, RuleHit, ToolList
from toollens.consumers.recorded import Library, changes, dropped_keys, judge_recorded
from toollens.consumers.rules import rule
from toollens.consumers.sent import plain_schema
from toollens.consumers.wire import (
    Replay,
    declarations,
    named_tools,
    recording_client,
    replay_session,
)
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from google.genai.types import HttpOptions
    from mcp_types import Tool

__all__ = ["GEMINI_MODEL", "genai_http_options", "judge_anthropic_sdk", "judge_google_genai"]

GEMINI_MODEL = "gemini-2.5-flash"
CLAUDE_MODEL = "claude-sonnet-4-5"
_OFFLINE_KEY = "toollens-offline"  # the SDK clients only ever reach the recording transport


class _Quiet(logging.Handler):
    """Keeps the SDK's log records (its warnings about what it did not send) from stderr."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        return None


# -- google-genai -------------------------------------------------------------------------


def genai_http_options(bodies: list[JsonObject]) -> HttpOptions:
    """google-genai's ``HttpOptions`` for a client whose requests are recorded on ``bodies``.

    Each ``genai.Client`` otherwise builds two TLS contexts, loading the CA bundle each time
    (~20 ms apiece, and a consumer builds one client per tool when it looks for the tools
    that fail a request); nothing here connects, so they are given one that loads none."""
    from google.genai import types

    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    return types.HttpOptions(
        httpx_async_client=recording_client(bodies),
        client_args={"verify": tls},  # the sync client's, built but never used
        async_client_args={"ssl": tls},  # the websocket's (the Live API), never used
    )


async def _drive_genai(replay: Replay, bodies: list[JsonObject]) -> None:
    from google import genai
    from google.genai import types

    client = genai.Client(api_key=_OFFLINE_KEY, http_options=genai_http_options(bodies))
    config = types.GenerateContentConfig(tools=[replay_session(replay)])
    loggers = [logging.getLogger(n) for n in ("google_genai.types", "google_genai.models")]
    quiet, before = _Quiet(), [(lg, lg.propagate) for lg in loggers]
    for logger in loggers:
        logger.addHandler(quiet)
        logger.propagate = False
    try:
        with warnings.catch_warnings():  # the SDK 1 field names it reads first; AFC advice
            warnings.simplefilter("ignore")
            await client.aio.models.generate_content(
                model=GEMINI_MODEL, contents="toollens", config=config
            )
    finally:
        for logger, propagate in before:
            logger.removeHandler(quiet)
            logger.propagate = propagate


def _union_splits(schema: object, at: str = "") -> Iterator[str]:
    """The pointers of type lists with several non-null types (the SDK sends them as anyOf
    and drops their default)."""
    if isinstance(schema, Mapping):
        kinds = schema.get("type")
        if isinstance(kinds, list) and len([k for k in kinds if k != "null"]) > 1:
            yield at
        for key, value in schema.items():
            yield from _union_splits(value, join_pointer(at, key))
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            yield from _union_splits(value, join_pointer(at, i))


def _spelling(wire: object) -> list[str]:
    """How the body's spelling differs from JSON Schema's: upper-cased types, snake_case."""
    text = str(wire)
    found = ["types upper-cased (e.g. 'STRING')"] if "'type': '" in text and any(
        f"'type': '{t}'" in text for t in ("STRING", "OBJECT", "INTEGER", "NUMBER", "ARRAY",
                                           "BOOLEAN")
    ) else []  # fmt: skip
    snake = sorted({k for k in _keys(wire) if "_" in k.lstrip("_$")})
    if snake:
        found.append("keywords in snake_case (" + ", ".join(snake) + ")")
    return found


def _keys(value: object, names: bool = False) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not names:
                yield str(key)
            yield from _keys(item, names=not names and key in ("properties", "$defs", "defs"))
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _genai_hits(client: str, tool: Tool, entry: JsonObject) -> list[RuleHit]:
    wire = entry.get("parameters", entry.get("parametersJsonSchema", {}))
    plain = plain_schema(wire)
    split = set(_union_splits(tool.input_schema))
    hits = [
        RuleHit(rule(f"{client}.union-type-split"),
                "a type list of several types is sent as anyOf, without its default", at)
        for at in sorted(split)
    ]  # fmt: skip
    dropped = rule(f"{client}.keywords-dropped")
    for at in dropped_keys(tool.input_schema, plain):
        parent, key = at.rsplit("/", 1)
        if not (parent in split and key in ("type", "default")):
            hits.append(RuleHit(dropped, f"{key!r} is not sent", at))
    how = _spelling(wire)
    if plain != tool.input_schema or how:
        what = changes(tool.input_schema, plain) if plain != tool.input_schema else ""
        text = "; ".join([*how, *([what] if what else [])])
        hits.append(RuleHit(rule(f"{client}.sent-rewritten"), text))
    return hits


_GENAI = Library(
    client="google-genai",
    drive=_drive_genai,
    entries=declarations,
    hits=_genai_hits,
    culprit_rule="google-genai.conversion-failed",
)


def judge_google_genai(listing: ToolList) -> ConsumerJudgement:
    return judge_recorded(_GENAI, listing)


# -- Anthropic SDK ------------------------------------------------------------------------


async def _drive_anthropic(replay: Replay, bodies: list[JsonObject]) -> None:
    from anthropic import AsyncAnthropic
    from anthropic.lib.tools.mcp import async_mcp_tool

    client = AsyncAnthropic(api_key=_OFFLINE_KEY, max_retries=0,
                            http_client=recording_client(bodies, "httpx2"))  # fmt: skip
    session: Any = replay_session(replay)
    listed = await session.list_tools()
    runner = client.beta.messages.tool_runner(
        model=CLAUDE_MODEL,
        max_tokens=1024,
        tools=[async_mcp_tool(t, session) for t in listed.tools],
        messages=[{"role": "user", "content": "toollens"}],
    )
    await runner.until_done()


def _anthropic_hits(client: str, tool: Tool, entry: JsonObject) -> list[RuleHit]:
    served = {"name": tool.name, "input_schema": tool.input_schema}
    if tool.description is not None:
        served["description"] = tool.description
    shown = {k: entry.get(k) for k in ("name", "description", "input_schema") if k in entry}
    if shown == served:
        return []
    return [RuleHit(rule(f"{client}.sent-rewritten"), changes(served, shown))]


_ANTHROPIC = Library(
    client="anthropic-sdk",
    drive=_drive_anthropic,
    entries=named_tools,
    hits=_anthropic_hits,
    culprit_rule="anthropic-sdk.request-failed",
)


def judge_anthropic_sdk(listing: ToolList) -> ConsumerJudgement:
    return judge_recorded(_ANTHROPIC, listing)
