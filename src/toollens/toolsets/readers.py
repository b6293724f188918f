"""Read the tools of framework objects through each framework's own public API.

- OpenAI Agents SDK: an ``Agent`` (its ``tools``, then its ``handoffs`` as the handoff tools
  ``handoff(agent)`` builds, marked ``role="handoff"``), a ``FunctionTool`` (its
  ``params_json_schema`` as the SDK sends it, its ``strict_json_schema``), a ``Handoff``;
  hosted tools (web search, file search, ...) are listed, marked ``role="hosted"``, unchecked;
- pydantic-ai: an ``Agent`` (the ``Tool`` objects of its function toolsets, each read from
  ``Tool.tool_def``; other toolsets are listed unchecked) and a ``Tool``;
- LangChain: a ``BaseTool`` instance or subclass (a subclass read from its defaults, its
  ``__init__`` never run), read from ``convert_to_openai_tool`` (what ``bind_tools`` sends),
  by the one rule :func:`toollens.core.callables.langchain_definition` that ``report()`` uses.

A reader only looks at an object when its framework is already imported (an object of a
framework that is not imported cannot exist), so reading plain functions never imports one.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

from toollens.core.callables import is_langchain_tool, langchain_definition
from toollens.core.errors import TargetError
from toollens.core.options import ReportOptions
from toollens.toolsets.entries import OriginKind, Tool, ToolOrigin, callable_origin

__all__ = ["READERS", "read_agents", "read_langchain", "read_pydantic_ai"]


def _strict(options: ReportOptions | None, strict: Any) -> ReportOptions | None:
    if not isinstance(strict, bool):
        return options

    return dataclasses.replace(options or ReportOptions(), strict=strict)


def _unchecked(name: str, kind: OriginKind, label: str, role: str) -> Tool:
    return Tool(name=name, origin=ToolOrigin(kind=kind, label=label, role=role))


def _with_role(entry: Tool, role: str) -> Tool:
    return dataclasses.replace(entry, origin=dataclasses.replace(entry.origin, role=role))


# -- OpenAI Agents SDK -------------------------------------------------------------------


def read_agents(obj: object, options: ReportOptions | None, label: str) -> list[Tool] | None:
    if "agents" not in sys.modules:
        return None
    import agents

    if isinstance(obj, agents.Agent):
        return _agent_entries(obj, options)
    if isinstance(obj, agents.FunctionTool):
        return [_function_tool(obj, options, label)]
    if isinstance(obj, agents.Handoff):
        return [_handoff(obj, options, label)]
    return None


def _agent_entries(agent: Any, options: ReportOptions | None) -> list[Tool]:
    import agents

    label = str(agent.name)
    entries = []
    for tool in agent.tools:
        if isinstance(tool, agents.FunctionTool):
            entries.append(_function_tool(tool, options, label))
        else:
            name = str(getattr(tool, "name", type(tool).__name__))
            entries.append(_unchecked(name, "agents", label, "hosted"))
    for item in agent.handoffs:
        made = item if isinstance(item, agents.Handoff) else agents.handoff(item)
        entries.append(_handoff(made, options, label))
    return [
        dataclasses.replace(e, origin=dataclasses.replace(e.origin, index=i))
        for i, e in enumerate(entries)
    ]


def _function_tool(tool: Any, options: ReportOptions | None, label: str) -> Tool:
    return Tool.from_definition(
        tool.name,
        tool.description,
        tool.params_json_schema,
        origin=ToolOrigin(kind="agents", label=label),
        options=_strict(options, tool.strict_json_schema),
    )


def _handoff(made: Any, options: ReportOptions | None, label: str) -> Tool:
    entry = Tool.from_definition(
        made.tool_name,
        made.tool_description,
        made.input_json_schema,
        origin=ToolOrigin(kind="agents", label=label),
        options=_strict(options, made.strict_json_schema),
    )
    return _with_role(entry, "handoff")


# -- pydantic-ai -------------------------------------------------------------------------


def read_pydantic_ai(obj: object, options: ReportOptions | None, label: str) -> list[Tool] | None:
    if "pydantic_ai" not in sys.modules:
        return None
    import pydantic_ai

    if isinstance(obj, pydantic_ai.Agent):
        return _pydantic_agent_entries(obj, options)
    if isinstance(obj, pydantic_ai.Tool):
        return [_pydantic_tool(obj, options, label)]
    return None


def _pydantic_agent_entries(agent: Any, options: ReportOptions | None) -> list[Tool]:
    from pydantic_ai.toolsets import FunctionToolset

    label = str(agent.name or "pydantic-ai agent")
    entries: list[Tool] = []
    for toolset in agent.toolsets:
        if isinstance(toolset, FunctionToolset):
            entries.extend(_pydantic_tool(t, options, label) for t in toolset.tools.values())
        else:  # MCP servers, dynamic toolsets: their tools are only known during a run
            name = str(getattr(toolset, "label", None) or type(toolset).__name__)
            entries.append(_unchecked(name, "pydantic-ai", label, "toolset"))
    return entries


def _pydantic_tool(tool: Any, options: ReportOptions | None, label: str) -> Tool:
    definition = tool.tool_def
    where = callable_origin(tool.function, kind="pydantic-ai", label=label)
    return Tool.from_definition(
        definition.name,
        definition.description,
        definition.parameters_json_schema,
        origin=where,
        options=_strict(options, definition.strict),
    )


# -- LangChain ---------------------------------------------------------------------------


def read_langchain(obj: object, options: ReportOptions | None, label: str) -> list[Tool] | None:
    if "langchain_core" not in sys.modules:
        return None

    if not is_langchain_tool(obj):
        return None
    try:
        sent = langchain_definition(obj)
    except TargetError as exc:
        return [
            Tool.failed(_langchain_name(obj), ToolOrigin(kind="langchain", label=label), str(exc))
        ]
    assert sent is not None  # is_langchain_tool said so
    func = getattr(obj, "func", None) or getattr(obj, "coroutine", None)
    if not callable(func):  # a BaseTool subclass (or an instance of one): where it is defined
        func = obj if isinstance(obj, type) else type(obj)
    return [
        Tool.from_definition(
            sent.name,
            sent.description,
            sent.parameters,
            origin=callable_origin(func, kind="langchain", label=label),
            options=options,
        )
    ]


def _langchain_name(obj: object) -> str:
    return obj.__name__ if isinstance(obj, type) else type(obj).__name__


READERS: tuple[Callable[[Any, ReportOptions | None, str], list[Tool] | None], ...] = (
    read_agents,
    read_pydantic_ai,
    read_langchain,
)
