"""Read a server's ``initialize`` and ``tools/list`` answers into records, checked by the SDK.

Each page is validated with the SDK's own ``ListToolsResult`` type (so toollens accepts exactly
what an MCP client accepts), but the records keep the tools as they were sent: schemas are
judged byte for byte, not as the SDK's models would serialise them again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toollens.core.schema.types import JsonMapping
from toollens.mcp.records import McpServerInfo, McpTool

__all__ = ["parse_info", "parse_page"]


def parse_info(result: JsonMapping) -> McpServerInfo:
    """The server's identity from its ``initialize`` result (already checked by the SDK)."""
    info = result.get("serverInfo") or {}
    return McpServerInfo(
        name=str(info.get("name", "")),
        version=_text(info.get("version")),
        title=_text(info.get("title")),
        protocol_version=_text(result.get("protocolVersion")),
        instructions=_text(result.get("instructions")),
    )


def parse_page(raw: JsonMapping, server: str, page: int) -> tuple[list[McpTool], str | None]:
    """The tools of one ``tools/list`` page and the cursor of the next (``None`` at the end).

    Raises:
        pydantic.ValidationError: the page is not a tool list (the SDK's own check).
    """
    import mcp_types as types

    checked = types.ListToolsResult.model_validate(raw, by_name=False)
    tools = [_tool(tool, server) for tool in raw["tools"]]
    return tools, checked.next_cursor


def _tool(tool: Mapping[str, Any], server: str) -> McpTool:
    annotations = tool.get("annotations")
    title = tool.get("title")
    if title is None and isinstance(annotations, Mapping):
        title = annotations.get("title")
    output = tool.get("outputSchema")
    return McpTool(
        name=tool["name"],
        description=_text(tool.get("description")),
        input_schema=dict(tool["inputSchema"]),
        output_schema=dict(output) if isinstance(output, Mapping) else None,
        annotations=dict(annotations) if isinstance(annotations, Mapping) else None,
        title=_text(title),
        server=server,
        definition=dict(tool),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
