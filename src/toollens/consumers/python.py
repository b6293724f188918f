"""Consumers whose code runs here: the official MCP Python SDK client and the OpenAI Agents SDK.

``mcp-python``: the SDK's own ``ListToolsResult`` validates the list (a refusal loses every tool,
and names the tool and pointer of the pydantic error), then the client's own x-mcp-header
filter runs on protocol 2026-07-28. ``openai-agents`` / ``openai-agents-strict``: the tools the
SDK client kept go through ``MCPUtil.get_function_tools`` (``convert_schemas_to_strict``
False / True) on an in-memory server, which says what it did to each; what the agent sends
(``sent``) is the tool in the body of an agent run's request, recorded
(:mod:`toollens.consumers.wire`). Each framework is imported only when its consumer judges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toollens.consumers.model import (
    ClientVerdict,
    ConsumerJudgement,
    RequestVerdict,
    RuleHit,
    ToolList,
    Verdict,
)
from toollens.consumers.rules import RULES_BY_ID, rule
from toollens.consumers.wire import named_tools, recording_client, run_recorded
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonObject
from toollens.mcp.listing import sdk_check, sdk_refusals

if TYPE_CHECKING:
    from mcp_types import Tool

__all__ = [
    "in_order",
    "judge_agents",
    "judge_agents_strict",
    "judge_mcp_python",
    "sdk_tools",
    "through_sdk_client",
]

_TOOL_LIMIT = 128


def _refusal(exc: Exception, listing: ToolList) -> RuleHit:
    """The first pydantic error as a hit: the tool it is in and its JSON pointer."""
    found = exc.errors() if hasattr(exc, "errors") else []
    # A tool's errors first: an error about the page alone refuses nothing (see sdk_tools).
    errors = sorted(found, key=lambda e: not (len(e.get("loc", ())) >= 2))
    first = errors[0] if errors else {"loc": (), "msg": str(exc)}
    loc = tuple(first.get("loc", ()))
    pointer = join_pointer("", *(str(part) for part in loc))
    where = ""
    if len(loc) >= 2 and loc[0] == "tools" and isinstance(loc[1], int):
        where = f"tool {listing.names[loc[1]]!r}: " if loc[1] < len(listing.names) else ""
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return RuleHit(rule("mcp-python.list-refused"), f"{where}{first.get('msg')}{more}", pointer)


def sdk_tools(listing: ToolList) -> tuple[list[Tool] | None, RuleHit | None]:
    """The SDK's ``Tool`` objects for the list, or the hit of its refusal."""
    import mcp_types as types
    from pydantic import ValidationError

    page = {"tools": [dict(t) if isinstance(t, Mapping) else t for t in listing.tools]}
    try:
        # The same check the listing's mcp.sdk-refuses-list finding comes from: what
        # ClientSession.list_tools runs (the protocol's result table, then the type); an
        # error about the page, not a tool, is no refusal there either.
        sdk_check(page, listing.protocol_version)
    except ValidationError as exc:
        if sdk_refusals(exc, listing.tools):
            return None, _refusal(exc, listing)
    try:
        checked = types.ListToolsResult.model_validate(page, by_name=False)
    except ValidationError as exc:
        return None, _refusal(exc, listing)
    return list(checked.tools), None


def _header_drop(tool: Tool, listing: ToolList) -> RuleHit | None:
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    version = listing.protocol_version
    if version is not None and version not in MODERN_PROTOCOL_VERSIONS:
        return None  # the filter only runs on the modern protocol
    # Imported past the version check: importing the SDK client (~0.2 s) is only the
    # filter's cost.
    from mcp.shared.inbound import find_invalid_x_mcp_header

    reason = find_invalid_x_mcp_header(tool.input_schema)
    if reason is None:
        return None
    return RuleHit(rule("mcp-python.x-mcp-header-invalid"), reason, "/inputSchema")


def judge_mcp_python(listing: ToolList) -> ConsumerJudgement:
    """What the official Python SDK client hands a framework (its ``Tool`` objects)."""
    tools, refused = sdk_tools(listing)
    if tools is None:
        assert refused is not None
        return ConsumerJudgement.server_dropped("mcp-python", listing, (refused,))
    verdicts = []
    for tool in tools:
        dropped = _header_drop(tool, listing)
        if dropped is not None:
            verdicts.append(
                ClientVerdict("mcp-python", tool.name, Verdict.TOOL_DROPPED, (dropped,))
            )
            continue
        sent = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
        verdicts.append(ClientVerdict("mcp-python", tool.name, Verdict.ACCEPTED, (), sent))
    return ConsumerJudgement("mcp-python", tuple(verdicts))


# -- OpenAI Agents SDK --------------------------------------------------------------------


def _listed_server(tools: Sequence[Tool], server_name: str) -> Any:
    """An Agents SDK ``MCPServer`` that lists ``tools`` (every page, as the SDK's servers
    follow ``nextCursor``); nothing else is called."""
    from agents.mcp import MCPServer

    class _Listed(MCPServer):  # the abstract methods a listing needs; nothing is called
        @property
        def name(self) -> str:
            return server_name

        async def connect(self) -> None:
            return None

        async def cleanup(self) -> None:
            return None

        async def list_tools(self, run_context: Any = None, agent: Any = None) -> list[Tool]:
            return list(tools)

        async def call_tool(self, tool_name: str, arguments: Any, meta: Any = None) -> Any:
            raise NotImplementedError("toollens only lists tools")

        async def list_prompts(self) -> Any:
            raise NotImplementedError("toollens only lists tools")

        async def get_prompt(self, name: str, arguments: Any = None) -> Any:
            raise NotImplementedError("toollens only lists tools")

    return _Listed()


def _function_tools(tools: Sequence[Tool], server_name: str, strict: bool) -> list[Any]:
    """``MCPUtil.get_function_tools`` on a server that lists ``tools`` (no I/O)."""
    from agents import Agent, RunContextWrapper
    from agents.mcp import MCPUtil

    # lazy: toollens.frameworks (~15 ms); `import toollens.consumers` does not load it
    from toollens.frameworks._spec import run_coroutine

    agent: Agent[Any] = Agent(name="toollens")
    server = _listed_server(tools, server_name)
    made = MCPUtil.get_function_tools(server, strict, RunContextWrapper(context=None), agent)
    return list(run_coroutine(made))


AGENTS_MODEL = "gpt-5"


def _agents_body(tools: Sequence[Tool], server_name: str, strict: bool) -> dict[str, JsonObject]:
    """The tools of the request an agent run sends (``Runner.run`` on an OpenAI Responses
    model whose client records the body; tracing off), by name."""
    import logging

    from agents import Agent, RunConfig, Runner
    from agents.models.openai_responses import OpenAIResponsesModel
    from openai import AsyncOpenAI

    def run(bodies: list[JsonObject]) -> Any:
        client = AsyncOpenAI(api_key="toollens-offline", max_retries=0,
                             http_client=recording_client(bodies, "httpx2"))  # fmt: skip
        agent: Agent[Any] = Agent(
            name="toollens",
            model=OpenAIResponsesModel(AGENTS_MODEL, openai_client=client),
            mcp_servers=[_listed_server(tools, server_name)],
            mcp_config={"convert_schemas_to_strict": strict},
        )
        return Runner.run(agent, "toollens", run_config=RunConfig(tracing_disabled=True))

    logger = logging.getLogger("openai.agents")
    level = logger.level
    logger.setLevel(logging.CRITICAL)  # it logs the recorded 400 as an error
    try:
        recorded = run_recorded(run)
    finally:
        logger.setLevel(level)
    if recorded.body is None:
        raise RuntimeError(f"the agent run sent nothing: {recorded.error!r}") from recorded.error
    return named_tools(recorded.body)


def _strict_failure(schema: JsonObject) -> str:
    """Why the SDK's strict conversion refuses ``schema`` (its own exception text)."""
    from agents.strict_schema import ensure_strict_json_schema

    try:
        ensure_strict_json_schema(schema, _reject_open_objects=schema != {"properties": {}})
    except Exception as exc:  # the SDK raises several types; it logs and goes on
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return "conversion failed"


def through_sdk_client(
    client: str, listing: ToolList
) -> tuple[list[Tool], dict[str, ClientVerdict]]:
    """What a framework on the official SDK client gets: the tools it keeps, and the verdicts
    of those it loses (the same verdict, under the framework's ``<client>.mcp-client``)."""
    first = judge_mcp_python(listing)
    lost = {
        v.tool: ClientVerdict(
            client,
            v.tool,
            v.verdict,
            (RuleHit(rule(f"{client}.mcp-client"), v.hits[0].message, v.hits[0].pointer),),
        )
        for v in first.tools
        if v.verdict is not Verdict.ACCEPTED
    }
    tools, _ = sdk_tools(listing)
    return [t for t in tools or () if t.name not in lost], lost


def in_order(
    client: str, listing: ToolList, verdicts: Mapping[str, ClientVerdict], sent: Sequence[str]
) -> ConsumerJudgement:
    """The verdicts in the server's order, and the tool count limit where the client has one
    (a ``<client>.too-many-tools`` rule) over the ``sent`` names."""
    ordered = tuple(verdicts[n] for n in listing.names if n in verdicts)
    requests: tuple[RequestVerdict, ...] = ()
    limit_rule = RULES_BY_ID.get(f"{client}.too-many-tools")
    if limit_rule is not None and len(sent) > _TOOL_LIMIT:
        text = f"{len(sent)} tools from this server alone, over {_TOOL_LIMIT}"
        over = tuple(sent[_TOOL_LIMIT:])
        requests = (RequestVerdict(client, limit_rule.verdict, RuleHit(limit_rule, text), over),)
    return ConsumerJudgement(client, ordered, requests)


def _judge_agents(listing: ToolList, client: str, strict: bool) -> ConsumerJudgement:
    import copy

    kept, lost = through_sdk_client(client, listing)
    by_name = {t.name: t for t in kept}
    sent_tools = _function_tools(kept, listing.server_name, strict)
    body = _agents_body(kept, listing.server_name, strict)
    verdicts = dict(lost)
    for function_tool in sent_tools:
        original = by_name[function_tool.name]
        hits = []
        params = function_tool.params_json_schema
        if "properties" not in original.input_schema:
            hits.append(
                RuleHit(
                    rule(f"{client}.properties-added"), "sent with properties {}", "/properties"
                )
            )
        if not original.description:
            text = f"sent with description {function_tool.description!r}"
            hits.append(RuleHit(rule(f"{client}.description-from-title"), text))
        if strict and function_tool.strict_json_schema:
            if params != original.input_schema:
                hits.append(RuleHit(rule("openai-agents-strict.converted"), "sent in strict mode"))
        elif strict:
            schema = copy.deepcopy(original.input_schema)
            schema.setdefault("properties", {})
            reason = _strict_failure(schema)
            hits.append(RuleHit(rule("openai-agents-strict.served-non-strict"), reason))
        sent = body[function_tool.name]  # the request's own entry for the tool
        verdicts[original.name] = ClientVerdict.from_hits(client, original.name, hits, sent)
    return in_order(client, listing, verdicts, [t.name for t in sent_tools])


def judge_agents(listing: ToolList) -> ConsumerJudgement:
    """The Agents SDK's MCP default: ``convert_schemas_to_strict=False``."""
    return _judge_agents(listing, "openai-agents", strict=False)


def judge_agents_strict(listing: ToolList) -> ConsumerJudgement:
    """The Agents SDK with ``convert_schemas_to_strict=True``."""
    return _judge_agents(listing, "openai-agents-strict", strict=True)
