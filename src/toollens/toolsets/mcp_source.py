"""The ``mcp:`` source: every tool of an MCP server, as toolset entries.

``toolset("mcp:python server.py")`` lists the server's tools with :mod:`toollens.mcp` (the
official SDK client; ``--env``/``--timeout`` from the command line apply) and judges each
``inputSchema`` exactly as sent (:func:`toollens.mcp.judge.tool_report`). A server that
cannot be read is one entry with its one-line error (``toolset`` catches it); a tool whose
schema is not a JSON Schema is one entry with its error, and the other tools still count.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from toollens.core.errors import ToolLensError
from toollens.toolsets.entries import ToolEntry, ToolOrigin
from toollens.toolsets.model import Toolset
from toollens.toolsets.rules import mcp_spec_findings

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions
    from toollens.mcp.records import McpTool

__all__ = ["load_mcp", "mcp_entry"]


def load_mcp(rest: str, options: ReportOptions | None) -> Toolset:
    """The loader registered for ``mcp:``: ``rest`` is the command or URL (and ``#TOOL``)."""
    from toollens.consumers import listing_from_server
    from toollens.mcp.project import resolve_server

    text = "mcp:" + rest
    served = resolve_server(text)
    entries = [mcp_entry(tool, options) for tool in served.tools]
    listing = listing_from_server(served)  # what the consumers judge, as sent
    ts = Toolset.from_entries(entries, label=text, options=options, listing=listing)
    # The MCP specification judges the tools too, by the revision the server answered with.
    spec = mcp_spec_findings(entries, served.info.protocol_version)
    return dataclasses.replace(ts, cross_findings=(*ts.cross_findings, *spec))


def mcp_entry(tool: McpTool, options: ReportOptions | None, *, kind: str = "mcp") -> ToolEntry:
    """The entry of one server tool, named by its target (``mcp:python server.py#search``)."""
    from toollens.core.report import ReportOptions
    from toollens.mcp.judge import tool_report

    origin = ToolOrigin(kind="project" if kind == "project" else "mcp", label=tool.target)
    try:
        # As its clients send it: non-strict unless the caller asks (see toollens.consumers).
        rep = tool_report(tool, options or ReportOptions(strict=False))
    except ToolLensError as exc:
        return ToolEntry.failed(tool.name, origin, str(exc))
    return ToolEntry.from_report(
        rep, origin, description=tool.description, output_schema=tool.output_schema
    )
