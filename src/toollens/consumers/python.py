"""Consumers whose code runs here: the official MCP Python SDK client and the OpenAI Agents SDK.

``mcp-python``: the SDK's own ``ListToolsResult`` validates the list (a refusal loses every tool,
and names the tool and pointer of the pydantic error), then the client's own x-mcp-header
filter runs on protocol 2026-07-28. ``openai-agents`` / ``openai-agents-strict``: the tools the
SDK client kept go through ``MCPUtil.get_function_tools`` (``convert_schemas_to_strict``
False / True) on an in-memory server, and what the resulting ``FunctionTool`` holds is what
the agent sends. Each framework is imported only when its consumer judges.
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
from toollens.consumers.rules import rule
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from mcp_types import Tool

__all__ = ["judge_agents", "judge_agents_strict", "judge_mcp_python", "sdk_tools"]

_TOOL_LIMIT = 128


def _refusal(exc: Exception, listing: ToolList) -> RuleHit:
    """The first pydantic error as a hit: the tool it is in and its JSON pointer."""
    errors = exc.errors() if hasattr(exc, "errors") else []
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

    try:
        checked = types.ListToolsResult.model_validate(
            {"tools": [dict(t) if isinstance(t, Mapping) else t for t in listing.tools]},
            by_name=False,
        )
    except ValidationError as exc:
        return None, _refusal(exc, listing)
    return list(checked.tools), None


def _header_drop(tool: Tool, listing: ToolList) -> RuleHit | None:
    from mcp.shared.inbound import find_invalid_x_mcp_header
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    version = listing.protocol_version
    if version is not None and version not in MODERN_PROTOCOL_VERSIONS:
        return None  # the filter only runs on the modern protocol
    reason = find_invalid_x_mcp_header(tool.input_schema)
    if reason is None:
        return None
    return RuleHit(rule("mcp-python.x-mcp-header-invalid"), reason, "/inputSchema")


def _dropped(client: str, listing: ToolList, hit: RuleHit) -> ConsumerJudgement:
    return ConsumerJudgement(
        client,
        tuple(ClientVerdict(client, n, Verdict.SERVER_DROPPED, (hit,)) for n in listing.names),
    )


def judge_mcp_python(listing: ToolList) -> ConsumerJudgement:
    """What the official Python SDK client hands a framework (its ``Tool`` objects)."""
    tools, refused = sdk_tools(listing)
    if tools is None:
        assert refused is not None
        return _dropped("mcp-python", listing, refused)
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


def _function_tools(tools: Sequence[Tool], server_name: str, strict: bool) -> list[Any]:
    """``MCPUtil.get_function_tools`` on a server that lists ``tools`` (no I/O)."""
    from agents import Agent, RunContextWrapper
    from agents.mcp import MCPServer, MCPUtil

    from toollens.frameworks._spec import run_coroutine

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

    agent: Agent[Any] = Agent(name="toollens")
    made = MCPUtil.get_function_tools(_Listed(), strict, RunContextWrapper(context=None), agent)
    return list(run_coroutine(made))


def _strict_failure(schema: JsonObject) -> str:
    """Why the SDK's strict conversion refuses ``schema`` (its own exception text)."""
    from agents.strict_schema import ensure_strict_json_schema

    try:
        ensure_strict_json_schema(schema, _reject_open_objects=schema != {"properties": {}})
    except Exception as exc:  # the SDK raises several types; it logs and goes on
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return "conversion failed"


def _judge_agents(listing: ToolList, client: str, strict: bool) -> ConsumerJudgement:
    import copy

    first = judge_mcp_python(listing)
    kept = [v for v in first.tools if v.verdict is Verdict.ACCEPTED]
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
    by_name = {t.name: t for t in tools or ()}
    sent_tools = _function_tools([by_name[v.tool] for v in kept], listing.server_name, strict)
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
        sent: JsonObject = {
            "name": function_tool.name,
            "description": function_tool.description,
            "parameters": params,
            "strict": function_tool.strict_json_schema,
        }
        verdict = Verdict.REWRITTEN if hits else Verdict.ACCEPTED
        verdicts[original.name] = ClientVerdict(client, original.name, verdict, tuple(hits), sent)
    ordered = tuple(verdicts[n] for n in listing.names if n in verdicts)
    requests: tuple[RequestVerdict, ...] = ()
    if len(sent_tools) > _TOOL_LIMIT:
        found = rule(f"{client}.too-many-tools")
        names = tuple(t.name for t in sent_tools[_TOOL_LIMIT:])
        text = f"{len(sent_tools)} tools from this server alone, over {_TOOL_LIMIT}"
        requests = (RequestVerdict(client, found.verdict, RuleHit(found, text), names),)
    return ConsumerJudgement(client, ordered, requests)


def judge_agents(listing: ToolList) -> ConsumerJudgement:
    """The Agents SDK's MCP default: ``convert_schemas_to_strict=False``."""
    return _judge_agents(listing, "openai-agents", strict=False)


def judge_agents_strict(listing: ToolList) -> ConsumerJudgement:
    """The Agents SDK with ``convert_schemas_to_strict=True``."""
    return _judge_agents(listing, "openai-agents-strict", strict=True)
