"""The consumers toollens knows, by id, and the one call that judges a tool list with them."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from toollens.consumers.clients import JUDGES
from toollens.consumers.frameworks import FRAMEWORK_JUDGES, PYDANTIC_AI_MODELS
from toollens.consumers.model import Consumer, ConsumerJudgement, ConsumerReport, ToolList
from toollens.consumers.python import judge_agents, judge_agents_strict, judge_mcp_python
from toollens.consumers.sent import ProviderChecks, provider_step
from toollens.consumers.workers import split, start_worker
from toollens.core.errors import TargetError
from toollens.mcp.target import MCP_PREFIX

if TYPE_CHECKING:
    from toollens.mcp.records import ServerTools

__all__ = [
    "ALL_CLIENTS",
    "CONSUMERS",
    "DEFAULT_CLIENTS",
    "available_clients",
    "default_clients",
    "is_mcp_listing",
    "judge_consumers",
    "listing_from_payload",
    "listing_from_server",
    "resolve_clients",
    "sends_strict",
]

ALL_CLIENTS = "all"

_MCP, _CLAUDE = "<tool>", "mcp__<server>__<tool>"
_SDK = (("mcp_types", "mcp"), ("mcp", "mcp"))
_AGENTS = (*_SDK, ("agents", "openai-agents"))
_PAI = (*_SDK, ("pydantic_ai", "pydantic-ai-slim"), ("fastmcp", "fastmcp"))
_PAI_TITLES = {"openai": "OpenAI Responses", "anthropic": "Anthropic", "google": "Gemini"}
_PAI_PROVIDERS = {"openai": "openai-responses", "anthropic": "anthropic", "google": "gemini"}
_PAI_SDKS = {  # the provider SDK each pydantic-ai model is built on
    "openai": ("openai", "openai"),
    "anthropic": ("anthropic", "anthropic"),
    "google": ("google.genai", "google-genai"),
}

# fmt: off
CONSUMERS: Mapping[str, Consumer] = {
    c.id: c
    for c in (
        Consumer("claude-code", "Claude Code", False, _CLAUDE, "client",
                 JUDGES["claude-code"], "anthropic"),
        Consumer("claude-desktop", "Claude Desktop", False, _CLAUDE, "client",
                 JUDGES["claude-desktop"], "anthropic"),
        Consumer("cursor", "Cursor", False, "<tool> (server + tool under 60 characters)",
                 "client", JUDGES["cursor"]),
        Consumer("vscode-copilot", "VS Code Copilot", False, "mcp_<server>_<tool>", "client",
                 JUDGES["vscode-copilot"]),
        Consumer("gemini-cli", "Gemini CLI", False, "generateValidName(<server>_<tool>)",
                 "client", JUDGES["gemini-cli"], "gemini"),
        Consumer("mcp-python", "MCP Python SDK client", False, _MCP, "framework",
                 judge_mcp_python, None, _SDK),
        Consumer("openai-agents", "OpenAI Agents SDK (MCP default)", False, _MCP,
                 "framework", judge_agents, "openai-responses", _AGENTS),
        Consumer("openai-agents-strict", "OpenAI Agents SDK, convert_schemas_to_strict=True",
                 True, _MCP, "framework", judge_agents_strict, "openai-responses", _AGENTS),
        *(
            Consumer(f"pydantic-ai:{p}",
                     f"pydantic-ai, {_PAI_TITLES[p]} model ({PYDANTIC_AI_MODELS[p]} profile)",
                     False, _MCP, "framework", FRAMEWORK_JUDGES[f"pydantic-ai:{p}"],
                     _PAI_PROVIDERS[p], (*_PAI, _PAI_SDKS[p]))
            for p in PYDANTIC_AI_MODELS
        ),
        Consumer("langchain-mcp-adapters", "LangChain MCP adapters (bind_tools)", False, _MCP,
                 "framework", FRAMEWORK_JUDGES["langchain-mcp-adapters"], "openai-chat",
                 (*_SDK, ("langchain_core", "langchain-core"))),
        Consumer("google-genai", "google-genai MCP tools (Gemini Developer API)", False,
                 _MCP, "framework", FRAMEWORK_JUDGES["google-genai"], "gemini-openapi",
                 (*_SDK, ("google.genai", "google-genai"))),
        Consumer("anthropic-sdk", "Anthropic SDK MCP helpers (async_mcp_tool, tool_runner)",
                 False, _MCP, "framework", FRAMEWORK_JUDGES["anthropic-sdk"], "anthropic",
                 (*_SDK, ("anthropic", "anthropic"))),
    )
}
# fmt: on

DEFAULT_CLIENTS: tuple[str, ...] = (
    "claude-code",
    "claude-desktop",
    "cursor",
    "vscode-copilot",
    "gemini-cli",
    "mcp-python",
    "openai-agents",
    "openai-agents-strict",
)
"""The consumers judged when none is named (``check`` without ``--client``, the lock): the
applications and the SDK clients toollens depends on, so the set is the same on every machine
and imports no framework. The framework consumers (pydantic-ai, LangChain's adapters,
google-genai, the Anthropic SDK) are judged when named, or with ``all``."""


def resolve_clients(asked: Iterable[str]) -> tuple[str, ...]:
    """The consumer ids ``--client`` asks for (``all`` for every one), in order, once each.

    Raises:
        TargetError: an id toollens does not know.
    """
    chosen: list[str] = []
    for item in asked:
        if item == ALL_CLIENTS:
            chosen.extend(available_clients())
        elif item in CONSUMERS:
            missing = CONSUMERS[item].missing
            if missing:
                raise TargetError(
                    f"--client {item!r} runs its own code, and {', '.join(missing)} is not "
                    "installed",
                    hint=f"pip install {' '.join(missing)}, or leave --client {item} out",
                )
            chosen.append(item)
        else:
            raise TargetError(
                f"--client {item!r} is not a client toollens knows",
                hint=f"use one of {', '.join(CONSUMERS)}, or {ALL_CLIENTS}",
            )
    return tuple(dict.fromkeys(chosen))


def available_clients() -> tuple[str, ...]:
    """The consumers that can judge here (``all``): every one whose code is installed."""
    return tuple(c.id for c in CONSUMERS.values() if not c.missing)


def default_clients() -> tuple[str, ...]:
    """:data:`DEFAULT_CLIENTS` whose code is installed (``mcp`` and ``openai-agents`` are
    optional: without them their consumers cannot run, and are left out)."""
    return tuple(c for c in DEFAULT_CLIENTS if not CONSUMERS[c].missing)


def sends_strict(clients: Sequence[str]) -> bool:
    """Whether any of ``clients`` sends tools in strict mode."""
    return any(CONSUMERS[c].strict for c in clients)


def judge_consumers(
    listing: ToolList,
    clients: Sequence[str] | None = None,
    *,
    providers: bool = True,
    jobs: int | None = 1,
    on_judged: Callable[[ConsumerJudgement], object] | None = None,
) -> ConsumerReport:
    """Each consumer's verdicts on ``listing`` (:data:`DEFAULT_CLIENTS` when ``clients`` is
    None; ``["all"]`` for every one installed),
    then, unless ``providers=False``, the provider step on what each sends
    (:func:`~toollens.consumers.sent.provider_step`). ``jobs``: the processes that judge
    (1: this one; ``None`` or 0: two when more than one core is available, see
    :mod:`toollens.consumers.workers`); the report is the same either way. ``on_judged``
    is called with each judgement once it is made, this process's before it waits for the
    worker's, so that what a caller does with them runs while the worker judges."""
    chosen = resolve_clients(clients) if clients is not None else default_clients()
    here, apart = split(chosen, jobs)
    worker = start_worker(functools.partial(_judged, listing, apart, providers)) if apart else None
    try:
        judged = _judged(listing, here, providers)
        for judgement in judged.values():
            if on_judged is not None:
                on_judged(judgement)
    except BaseException:
        if worker is not None:
            worker.close()
        raise
    if worker is not None:
        for judgement in worker.result().values():
            judged[judgement.client] = judgement
            if on_judged is not None:
                on_judged(judgement)
    return ConsumerReport(listing, tuple(judged[c] for c in chosen))


def _judged(
    listing: ToolList, clients: Sequence[str], providers: bool
) -> dict[str, ConsumerJudgement]:
    checks: ProviderChecks = {}  # clients that send a tool alike share its provider check
    judged = {}
    for client in clients:
        consumer = CONSUMERS[client]
        judgement = consumer.judge(listing)
        judged[client] = provider_step(consumer, judgement, checks) if providers else judgement
    return judged


def is_mcp_listing(data: object) -> bool:
    """Whether ``data`` is a ``tools/list`` answer (tools with ``inputSchema``)."""
    tools = data.get("tools") if isinstance(data, Mapping) else data
    return (
        isinstance(tools, list)
        and bool(tools)
        and all(isinstance(t, Mapping) and "inputSchema" in t for t in tools)
    )


def derived_name(label: str) -> str:
    """A server name taken from a target or file name (``server.tools.json`` -> ``server``)."""
    stem = PurePath(label.split("#")[0]).name
    stem = re.sub(r"(\.tools)?\.json$", "", stem)
    return stem or "server"


def listing_from_payload(data: object, *, label: str, server_name: str | None = None) -> ToolList:
    """The tool list of a saved ``tools/list`` answer (``{"tools": [...]}``, optionally with
    ``serverInfo`` and ``protocolVersion``) or a bare list of MCP tools; raw JSON, judged as
    sent (nothing is typed first)."""
    meta: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
    listed = meta.get("tools", []) if isinstance(data, Mapping) else data
    tools = list(listed) if isinstance(listed, Sequence) and not isinstance(listed, str) else []
    info = meta.get("serverInfo")
    info_name = info.get("name") if isinstance(info, Mapping) else None
    name = server_name or (info_name if isinstance(info_name, str) and info_name else None)
    version = meta.get("protocolVersion")
    return ToolList(
        server_name=name or derived_name(label),
        tools=tuple(tools),
        protocol_version=version if isinstance(version, str) else None,
    )


def listing_from_server(served: ServerTools, server_name: str | None = None) -> ToolList:
    """The tool list an ``mcp:`` target answered, each tool as it was sent."""
    name = server_name or served.info.name or derived_name(served.target.removeprefix(MCP_PREFIX))
    return ToolList(
        server_name=name,
        # Every item as sent, the ones the SDK's types refuse included: clients judge those.
        tools=tuple(served.raw_tools) or tuple(tool.definition for tool in served.tools),
        protocol_version=served.info.protocol_version,
        # only the whole list is paged as the server paged it (not one tool picked from it)
        page_sizes=served.page_sizes if len(served.raw_tools) == sum(served.page_sizes) else (),
    )
