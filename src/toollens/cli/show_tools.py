"""``toollens show`` of a source that names many tools, written once over the Tool record.

A module, a payload file, the project, an ``mcp:`` server: the source is read as a
:class:`~toollens.toolsets.Toolset` (:func:`toollens.assess.reading.read_toolset`, the same
reading ``check``, ``tokens`` and ``snapshot`` use) and each :class:`~toollens.toolsets.Tool`
is shown from its fields: its views (its report), or the one line saying why it could not
be read. A server's tools are headed by the target naming each one and followed by what
the server declared besides the input schema (``outputSchema``, ``annotations``); a
server's toolset starts with who answered and what the reader should know first (the SDK
refusing the list, stdout lines skipped).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from toollens.assess.reading import read_toolset
from toollens.core.errors import TargetError
from toollens.render.formats import dump, format_show, show_data
from toollens.toolsets.catalogue import SDK_REFUSES_LIST, STDOUT_NOISE

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions
    from toollens.mcp import ConnectOptions
    from toollens.mcp.records import ServerTools
    from toollens.toolsets import Tool, Toolset

__all__ = ["show_source", "show_tool"]

_EXIT_OK, _EXIT_FINDINGS = 0, 1


def show_source(
    source: str,
    options: ReportOptions,
    view: str,
    fmt: str,
    connect: ConnectOptions | None = None,
) -> tuple[str, int]:
    """Every tool of ``source`` shown, and the exit code (1 when a tool could not be read).

    ``options.name`` and ``options.description`` rename one tool; a source with several
    tools refuses them.

    Raises:
        TargetError: the source cannot be read at all, holds no tools, or holds several
            tools and ``--name``/``--description`` was given.
    """
    ts = read_toolset(source, options, connect)
    if (options.name or options.description) and len(ts.tools) != 1:
        raise TargetError(
            f"--name and --description apply to one tool; {source!r} holds {len(ts.tools)}",
            hint="name one tool (MODULE:ATTR, or #TOOL after an mcp: server)",
        )
    shown = [tool for tool in ts.tools if tool.report is not None or tool.error]
    code = _EXIT_FINDINGS if ts.errors else _EXIT_OK
    if fmt == "json":  # one document, dumped once from each tool's data
        data = [_tool_data(tool, view) for tool in shown]
        if ts.served is None:
            return dump(data), code
        return dump({**ts.served.to_json(), "tools": data}), code
    text = "\n".join(_tool_text(tool, view) for tool in shown)
    if ts.served is None:
        return text, code
    return _header(ts.served) + "".join(_notes(ts)) + text, code


def show_tool(tool: Tool, view: str, fmt: str) -> str:
    """One tool's ``show``: its views, or why it could not be read; a server's tool with
    its target and what the server declared besides the input schema."""
    return dump(_tool_data(tool, view)) if fmt == "json" else _tool_text(tool, view)


def _tool_data(tool: Tool, view: str) -> object:
    """One tool's ``show`` as JSON data."""
    served = tool.origin.server is not None
    if tool.report is None:
        if not served:
            return {"title": tool.name, "origin": str(tool.origin), "error": tool.error}
        if tool.origin.index is None:  # a listed tool whose inputSchema is not a schema
            return {"name": tool.name, "mcp": tool.definition(), "error": tool.error}
        return {"name": tool.name, "index": tool.origin.index, "error": tool.error}
    if not served:
        return show_data(tool.report, view)
    body = show_data(tool.report, view) if view != "output" else None
    return {"name": tool.name, "mcp": tool.definition(), "show": body}


def _tool_text(tool: Tool, view: str) -> str:
    if tool.report is None:
        return f"== tool {tool.name} ({tool.origin}) ==\n  could not be read: {tool.error}\n"
    if tool.origin.server is None:
        return format_show(tool.report, view, "text")
    blocks = [f"== tool {tool.name} ({tool.origin.label}) =="]
    if view != "output":
        blocks.append(format_show(tool.report, view, "text").rstrip("\n"))
    if view in ("output", "all"):
        blocks.append(_declared_text(tool))
    return "\n".join(blocks) + "\n"


def _declared_text(tool: Tool) -> str:
    lines = ["MCP outputSchema (what structuredContent must match; not sent to the model):"]
    if tool.output_schema is None:
        lines.append("  none (the tool returns unstructured content)")
    else:
        lines.extend("  " + line for line in json.dumps(tool.output_schema, indent=2).splitlines())
    if tool.annotations:
        lines.append("MCP annotations: " + json.dumps(tool.annotations, ensure_ascii=False))
    return "\n".join(lines)


def _header(served: ServerTools) -> str:
    info = served.info
    name = " ".join(x for x in (info.name, info.version) if x) or "(unnamed)"
    count = len(served.tools)
    return (
        f"MCP server {name} (protocol {info.protocol_version or '?'}): "
        f"{count} tool{'' if count == 1 else 's'} from {served.target}\n"
    )


def _notes(ts: Toolset) -> list[str]:
    """What the reader should know before the tools: the SDK's refusal, skipped stdout."""
    first = (SDK_REFUSES_LIST, STDOUT_NOISE)
    found = sorted((f for f in ts.findings if f.rule in first), key=lambda f: first.index(f.rule))
    return [f"{finding.headline}\n" for finding in found]
