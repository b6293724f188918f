"""The ``mcp:`` source: every tool of an MCP server, as toolset entries.

``toolset("mcp:python server.py")`` lists the server's tools with :mod:`toollens.mcp` (the
official SDK client, reached with the ``connect`` options ``toolset`` is given: the command
line's ``--env``/``--timeout``) and judges each
``inputSchema`` exactly as sent (:func:`toollens.mcp.judge.tool_report`). A server that
cannot be read raises :class:`~toollens.core.errors.TargetError` (``toolset`` passes it on);
an item of its list that is not a readable tool, or a tool whose schema is not a JSON Schema,
is one entry with its error, and the other tools still count. Lines the server wrote to
stdout that are not JSON-RPC were skipped, as the SDK's client skips them; the toolset
carries one warning naming them (:data:`~toollens.toolsets.catalogue.STDOUT_NOISE`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toollens.core.errors import ToolLensError
from toollens.core.options import ReportOptions
from toollens.core.records import Finding, Severity
from toollens.mcp.listing import sdk_check, sdk_refusals
from toollens.mcp.target import MCP_PREFIX, parse_mcp_target
from toollens.toolsets.catalogue import (
    SDK_LIST_CHECK,
    SDK_REFUSES_LIST,
    STDIO_ONLY_MESSAGES,
    STDOUT_NOISE,
)
from toollens.toolsets.entries import Tool, ToolOrigin
from toollens.toolsets.model import Toolset
from toollens.toolsets.rules import ToolsetFinding, iter_toolset_findings, mcp_spec_findings

if TYPE_CHECKING:
    from toollens.consumers import ToolList
    from toollens.mcp.client import ConnectOptions
    from toollens.mcp.records import McpTool, SdkRefusal, ServerTools

__all__ = [
    "load_mcp",
    "mcp_entry",
    "saved_list_refusals",
    "sdk_refusal_findings",
    "server_origin",
    "server_toolset",
    "stdout_noise_finding",
]


def load_mcp(
    rest: str, options: ReportOptions | None, connect: ConnectOptions | None = None
) -> Toolset:
    """The loader registered for ``mcp:``: ``rest`` is the command or URL (and ``#TOOL``).

    Raises:
        TargetError: the server cannot be started, reached or read, or ``#TOOL`` names no tool.
    """
    # lazy: mcp.project; `toollens show f` loads this module without it
    from toollens.mcp.project import resolve_server

    return server_toolset(resolve_server(MCP_PREFIX + rest, connect=connect), options)


def server_toolset(served: ServerTools, options: ReportOptions | None) -> Toolset:
    """The toolset of a server's listed tools: its tools and unread items in the server's
    order, the cross-tool findings, and the stdout warning when lines were skipped."""
    # lazy: the clients' judges (toollens.consumers, ~22 ms), for a server's tools only
    from toollens.consumers import listing_from_server

    tools = server_entries(served, options)
    found = list(iter_toolset_findings(tools))
    # The MCP specification judges the tools too, by the revision the server answered with.
    judge = options.mcp_revision if options is not None else None  # chosen, else answered
    found.extend(mcp_spec_findings(tools, served.info.protocol_version, judge=judge))
    found.extend(sdk_refusal_findings(served.refusals, len(served.raw_tools)))
    if served.stdout_noise:
        found.append(ToolsetFinding(stdout_noise_finding(served.stdout_noise), ()))
    listing = listing_from_server(served)  # what the consumers judge, as sent
    return Toolset(tools, tuple(found), served.target, options, listing, served)


def server_entries(
    served: ServerTools, options: ReportOptions | None, *, kind: str = "mcp"
) -> tuple[Tool, ...]:
    """A server's listed tools in its order: each read tool, and a failed row where an item
    of its ``tools/list`` could not be read (the rest are still judged)."""
    entries = [mcp_entry(tool, options, kind=kind) for tool in served.tools]
    for unread in sorted(served.unread, key=lambda u: u.index):
        origin = server_origin(served.target, served.target, kind=kind)
        origin = dataclasses.replace(origin, index=unread.index)
        entries.insert(
            min(unread.index, len(entries)), Tool.failed(unread.name, origin, unread.error)
        )
    return tuple(entries)


def stdout_noise_finding(lines: tuple[str, ...]) -> Finding:
    """The warning for a server's stdout lines that are not JSON-RPC messages."""
    count = len(lines)
    more = f" (and {count - 1} more)" if count > 1 else ""
    return Finding(
        rule=STDOUT_NOISE,
        severity=Severity.WARNING,
        pointer=None,
        message=f"the server wrote {count} line{'' if count == 1 else 's'} to stdout that "
        f"{'is' if count == 1 else 'are'} not JSON-RPC: {lines[0]!r}{more}. The official "
        "Python SDK client skips such lines (toollens too); the MCP specification forbids "
        "them, and a client that reads stdout strictly may refuse the server.",
        fix="write logs, banners and prints to stderr; only MCP messages go to stdout",
        cite=STDIO_ONLY_MESSAGES,
    )


def sdk_refusal_findings(refusals: Sequence[SdkRefusal], count: int) -> tuple[ToolsetFinding, ...]:
    """The error for a list the SDK's types refuse (none when it accepts it): every client
    built on it loses all ``count`` tools."""
    if not refusals:
        return ()
    first = refusals[0]
    more = len(refusals) - 1
    finding = Finding(
        rule=SDK_REFUSES_LIST,
        severity=Severity.ERROR,
        pointer=None,
        message=f"the official mcp SDK client refuses this server's tools/list ({first}"
        f"{f'; {more} more' if more else ''}): a client built on it (the Agents SDK, "
        f"pydantic-ai, LangChain's MCP adapters) loses all {count} tools",
        fix="make every tool in tools/list an object with a string name and an object "
        "inputSchema, as the MCP schema's Tool requires",
        cite=SDK_LIST_CHECK,
    )
    return (ToolsetFinding(finding, tuple(dict.fromkeys(r.tool for r in refusals))),)


def saved_list_refusals(listing: ToolList) -> tuple[ToolsetFinding, ...]:
    """:func:`sdk_refusal_findings` of a saved ``tools/list`` answer, by the check the SDK
    client runs (:func:`toollens.mcp.listing.sdk_check`, the one ``mcp-python`` judges by).
    None without the SDK installed (the mcp extra): its check cannot run, and the
    ``mcp-python`` column says the library is missing."""
    import importlib.util

    from pydantic import ValidationError

    if importlib.util.find_spec("mcp_types") is None:
        return ()
    page = {"tools": [dict(t) for t in listing.tools]}
    try:
        sdk_check(page, listing.protocol_version)
    except ValidationError as exc:
        return sdk_refusal_findings(sdk_refusals(exc, list(listing.tools)), len(listing.tools))
    return ()


def server_origin(server: str, label: str, *, kind: str = "mcp") -> ToolOrigin:
    """Where a server's tool came from: ``label`` names it, ``server`` is the server as
    written and ``command`` how it is reached (its command line or URL)."""
    try:
        command: str | None = parse_mcp_target(server).label
    except ToolLensError:  # a server named in a project table by another spelling
        command = None
    return ToolOrigin(
        kind="project" if kind == "project" else "mcp",
        label=label,
        server=server,
        command=command,
    )


def mcp_entry(tool: McpTool, options: ReportOptions | None, *, kind: str = "mcp") -> Tool:
    """The :class:`~toollens.toolsets.entries.Tool` of one server tool, named by its target
    (``mcp:python server.py#search``): the reader boundary, where the wire record
    (:class:`~toollens.mcp.records.McpTool`) becomes the tool record every command reads."""
    # lazy: the MCP judge and lint (~8 ms) load for a server's tools only
    from toollens.mcp.judge import tool_report

    origin = server_origin(tool.server, tool.target, kind=kind)
    declared = (tool.title, tool.annotations, tool.output_schema)
    title, annotations, output = declared
    try:
        # As its clients send it: non-strict unless the caller asks (see toollens.consumers).
        rep = tool_report(tool, options or ReportOptions(strict=False))
    except ToolLensError as exc:
        return Tool.failed(
            tool.name, origin, str(exc), title=title, annotations=annotations, output_schema=output
        )
    return Tool.from_report(
        rep,
        origin,
        description=tool.description,
        title=title,
        annotations=annotations,
        output_schema=output,
    )
