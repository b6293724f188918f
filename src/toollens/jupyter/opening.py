"""What the explorer and ``%toolschema`` open for what a user hands them.

Besides a function, a model, a type or a JSON Schema, a user hands over what toollens
itself gave them or what ``toollens show`` takes: a tool of a toolset (``ts.tools[0]``,
an MCP server's tool among them) or a target string (``"mcp:python server.py#add"``,
``"tools.json#search"``, ``"tools.py:search"``, ``"pkg.tools:search"``). :func:`opened`
turns each into the report target, the options, the tool list and the Try-it caller the
explorer takes, so every tool opens the same way however it was named.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeGuard

from toollens.core.errors import TargetError
from toollens.core.report import ReportOptions

if TYPE_CHECKING:
    from toollens.consumers import ToolList
    from toollens.roundtrip.records import CallResult
    from toollens.toolsets import Tool

__all__ = ["Opened", "opened"]


@dataclass(frozen=True)
class Opened:
    """What to open: the report target, the options it was read with (``None``: the
    caller's), the MCP tool list it is from and the Try-it caller of a server's tool."""

    target: object
    options: ReportOptions | None = None
    listing: ToolList | None = None
    caller: Callable[[str], CallResult] | None = None


def opened(target: object, listing: ToolList | None = None) -> Opened:
    """``target`` as the explorer opens it (see the module documentation).

    Raises:
        TargetError: a target string names nothing readable, or a source of several tools
            without saying which (``#TOOL``), or a tool that could not be read.
    """
    if isinstance(target, str) and _names_a_target(target):
        target = _tool_named(target)
    if _is_tool(target):
        return _of_tool(target, listing)
    return Opened(target, None, listing)


def _is_tool(target: object) -> TypeGuard[Tool]:
    # A Tool exists only once toolsets is imported: a function opens without importing it
    # and the MCP client it imports (~20 ms of the explorer's first paint, issue 50).
    entries = sys.modules.get("toollens.toolsets.entries")
    return entries is not None and isinstance(target, entries.Tool)


def _names_a_target(text: str) -> bool:
    """JSON text (an object, a list, a boolean schema) is a schema; anything else is a
    target as ``toollens show`` takes it."""
    stripped = text.strip()
    return bool(stripped) and stripped[:1] not in "{[" and stripped not in ("true", "false")


def _tool_named(text: str) -> Tool:
    # lazy: toolsets and the MCP client (~20 ms), for a target string only (see _is_tool)
    from toollens.mcp.target import is_mcp_target
    from toollens.toolsets import Tool, toolset

    source, sep, name = text, "", ""
    if not is_mcp_target(text):  # mcp: keeps its #TOOL: the server is asked for that one
        source, sep, name = text.rpartition("#") if "#" in text else (text, "", "")
    found = toolset(source)
    tools = [t for t in found.tools if isinstance(t, Tool)]
    picked = [t for t in tools if t.name == name] if sep else tools
    if len(picked) != 1:
        names = ", ".join(t.name for t in tools) or "none"
        raise TargetError(
            f"{text!r} names {'no tool' if not picked else f'{len(picked)} tools'} "
            f"(its tools: {names})",
            hint=f"name one after '#', e.g. {source}#{tools[0].name if tools else 'TOOL'}",
        )
    tool = picked[0]
    if found.listing is not None and tool.name in found.listing.names:
        tool = dataclasses.replace(tool, listing=found.listing)
    return tool


def _of_tool(tool: Tool, listing: ToolList | None) -> Opened:
    rep = tool.report
    if rep is None:
        raise TargetError(
            f"tool {tool.name!r} could not be read: {tool.error or 'no schema'}",
            hint="fix what the error names, then read the toolset again",
        )
    if rep.target_kind == "callable":
        return Opened(rep.target, rep.options, listing)
    listed = listing or tool.listing
    if listed is not None and tool.name not in listed.names:
        listed = None
    caller = None
    if tool.origin.kind == "mcp":  # Try-it's Call is a real tools/call on the server
        # lazy: mcp.calling + the round trip (~16 ms), for an MCP tool only (issue 50)
        from toollens.mcp.calling import mcp_caller, one_tool

        spec = one_tool(tool.origin.label)
        caller = mcp_caller(spec, str(spec.tool))
    return Opened(rep.target, rep.options, listed, caller)
