"""A recorded oracle per framework consumer, on the real servers of ``../shared/corpora/mcp``.

Each library runs here through its documented entry point, called by this test's own code,
with the model API replaced by a recording HTTP transport and the server by a replayed
session. toollens' ``sent`` for every tool must be the tool as that recorded body holds it
(and no tool is ``sent`` that the body lacks). A digest of each body, with the library's
version, is kept in ``tests/golden/consumers/oracle.json``: a release that changes what a
library sends turns this test red; review what changed, then ``pytest --update-goldens``.

LangChain's adapters are not here: ``bind_tools`` needs a chat model package (langchain-openai)
that is not installed, so its consumer is checked against ``convert_to_openai_tool`` itself.
Skips when the corpus is absent (a fresh clone).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from support import goldens
from toollens.consumers import CONSUMERS, judge_consumers, listing_from_payload
from toollens.consumers.wire import Replay, recording_client, replay_session, run_recorded

_BASE = os.environ.get("TOOLLENS_CORPORA_DIR")
_CORPUS = Path(_BASE) if _BASE else Path(__file__).resolve().parents[3] / "shared" / "corpora"
FILES = sorted((_CORPUS / "mcp").glob("*.tools.json"))
KEY = "not-a-key"

# The oracle runs pydantic-ai itself on the consumers' models, which may be past their
# retirement date (toollens' own run silences that warning; see frameworks.py).
pytestmark = pytest.mark.filterwarnings("ignore:Model .* is deprecated by its provider")


def _sdk_tools(data: Mapping[str, Any]) -> list[Any]:
    import mcp_types as types

    return list(types.ListToolsResult.model_validate(data, by_name=False).tools)


async def _genai(tools: list[Any], bodies: list[Any]) -> None:
    from google import genai
    from google.genai import types

    client = genai.Client(api_key=KEY, http_options=types.HttpOptions(
        httpx_async_client=recording_client(bodies)))  # fmt: skip
    config = types.GenerateContentConfig(tools=[replay_session(Replay([tools]))])
    await client.aio.models.generate_content(model="gemini-2.5-flash", contents="hi",
                                             config=config)  # fmt: skip


async def _anthropic(tools: list[Any], bodies: list[Any]) -> None:
    from anthropic import AsyncAnthropic
    from anthropic.lib.tools.mcp import async_mcp_tool

    client = AsyncAnthropic(
        api_key=KEY, max_retries=0, http_client=recording_client(bodies, "httpx2")
    )
    session = replay_session(Replay([tools]))
    listed = await session.list_tools()
    await client.beta.messages.tool_runner(
        model="claude-sonnet-4-5", max_tokens=1024, messages=[{"role": "user", "content": "hi"}],
        tools=[async_mcp_tool(t, session) for t in listed.tools],
    ).until_done()  # fmt: skip


def _pydantic_ai(profile: str) -> Callable[[list[Any], list[Any]], Any]:
    async def run(tools: list[Any], bodies: list[Any]) -> None:
        from fastmcp import FastMCP
        from pydantic_ai import Agent
        from pydantic_ai.mcp import MCPToolset

        from toollens.consumers.frameworks import _pydantic_ai_model

        class Listed(MCPToolset[None]):
            async def list_tools(self) -> list[Any]:
                return list(tools)

            async def __aenter__(self) -> Listed:
                return self

            async def __aexit__(self, *args: object) -> None:
                return None

        agent = Agent(_pydantic_ai_model(profile, bodies), toolsets=[Listed(FastMCP("s"))])
        await agent.run("hi")

    return run


def _agents(strict: bool) -> Callable[[list[Any], list[Any]], Any]:
    async def run(tools: list[Any], bodies: list[Any]) -> None:
        import logging

        from agents import Agent, RunConfig, Runner
        from agents.models.openai_responses import OpenAIResponsesModel
        from openai import AsyncOpenAI

        from toollens.consumers.python import _listed_server

        logging.getLogger("openai.agents").setLevel(logging.CRITICAL)
        client = AsyncOpenAI(api_key=KEY, max_retries=0,
                             http_client=recording_client(bodies, "httpx2"))  # fmt: skip
        agent: Agent[Any] = Agent(
            name="a", model=OpenAIResponsesModel("gpt-5", openai_client=client),
            mcp_servers=[_listed_server(tools, "s")],
            mcp_config={"convert_schemas_to_strict": strict},
        )  # fmt: skip
        await Runner.run(agent, "hi", run_config=RunConfig(tracing_disabled=True))

    return run


# consumer -> how this test drives its library
ORACLES: dict[str, Callable[[list[Any], list[Any]], Any]] = {
    "google-genai": _genai,
    "anthropic-sdk": _anthropic,
    **{f"pydantic-ai:{p}": _pydantic_ai(p) for p in ("openai", "anthropic", "google")},
    "openai-agents": _agents(False),
    "openai-agents-strict": _agents(True),
}


def _body_tools(body: Mapping[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in body.get("tools", []):
        for d in item.get("functionDeclarations", [item] if "name" in item else []):
            found[d["name"]] = d
    return found


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.skipif(not FILES, reason="the MCP corpus (../shared/corpora/mcp) is absent")
@pytest.mark.parametrize("client", sorted(ORACLES))
@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".tools.json") for p in FILES])
def test_sent_is_the_recorded_request_body(path: Path, client: str) -> None:
    if CONSUMERS[client].missing:
        pytest.skip(f"{client}'s library is not installed")
    drive = ORACLES[client]
    data = json.loads(path.read_text(encoding="utf-8"))
    recorded = run_recorded(lambda bodies: drive(_sdk_tools(data), bodies))
    judgement = judge_consumers(listing_from_payload(data, label=path.name), [client])
    sent = {v.tool: v.sent for v in judgement.judgement(client).tools if v.sent is not None}
    if recorded.body is None:  # the library failed the call: nothing may count as sent
        assert sent == {}
        outcome = f"fails: {type(recorded.error).__name__}"
    else:
        body = _body_tools(recorded.body)
        assert sent == {name: body[name] for name in sent}
        assert set(sent) == set(body)
        outcome = _digest(body)
    # The golden holds what was sent, not the library's version: a newer release that sends
    # the same body must not fail, and one that sends another body must be looked at.
    server = path.name.removesuffix(".tools.json")
    goldens.check_json(f"consumers/oracle/{client.replace(':', '-')}/{server}.json",
                       {"body": outcome})  # fmt: skip
