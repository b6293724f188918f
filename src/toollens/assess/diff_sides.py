"""One side of a two-target ``diff`` when the target is a prefixed source's one tool.

``mcp:SERVER#TOOL`` (any registered prefix) names one tool of a toolset: it is read as every
command reads a source (:func:`toollens.assess.reading.read_toolset`, with the options
``check`` would judge it with), and compared as sent, or as one provider's payload of it.
A target naming one object (a function, a file) is the engine's
(:func:`toollens.core.diff.sides.diff_side`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toollens.assess.reading import read_toolset
from toollens.core.errors import TargetError
from toollens.toolsets import registered_prefixes

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions
    from toollens.core.schema.types import SchemaInput
    from toollens.mcp.client import ConnectOptions
    from toollens.toolsets import Tool

__all__ = ["source_tool", "tool_side"]


def source_tool(
    text: str, options: ReportOptions, label: str, connect: ConnectOptions | None = None
) -> Tool | None:
    """The one tool a prefixed source names (``mcp:SERVER#TOOL``), read with ``options``;
    ``None`` for a target that names one object (a function, a file).

    Args:
        text: the target.
        options: the options to read it with (as ``check`` judges it).
        label: which side it is (``OLD``, ``NEW``), for the errors.
        connect: how its server is reached.

    Raises:
        TargetError: the source cannot be read, holds several tools, or its tool cannot be
            read.
    """
    head, sep, _ = text.partition(":")
    if not sep or head not in registered_prefixes():
        return None
    ts = read_toolset(text, options, connect)
    if len(ts.tools) != 1:
        what = "a server" if ts.served is not None else "a source"
        raise TargetError(
            f"{label} {text!r} names {what} with {len(ts.tools)} tools; diff compares one",
            hint="name one with #TOOL, or lock the server's tools with snapshot and diff --lock",
        )
    tool = ts.tools[0]
    if tool.report is None:
        raise TargetError(f"{label} {text!r} could not be read: {tool.error or 'no schema'}")
    return tool


def tool_side(tool: Tool, provider: str | None = None) -> SchemaInput:
    """What a diff compares of a tool: its definition as sent, or with ``provider`` that
    provider's payload of it.

    Raises:
        TargetError: the tool has no payload for ``provider``.
    """
    if provider is None:
        return {
            "type": "function",
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.input_schema,
        }
    rep = tool.report_for(provider)
    if rep is None or rep.provider_payload is None:
        why = rep.view_errors.get("provider", "unknown reason") if rep is not None else tool.error
        raise TargetError(f"{tool.origin.label!r} has no {provider} payload: {why}")
    return rep.provider_payload
