"""What an MCP server said about its tools, as plain frozen data (no ``mcp`` import here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toollens.core.schema.types import JsonObject

__all__ = ["McpServerInfo", "McpTool", "ServerTools"]


@dataclass(frozen=True)
class McpTool:
    """One tool exactly as the server sent it in ``tools/list``.

    Attributes:
        name: the tool's ``name``.
        description: its ``description``, or ``None``.
        input_schema: its ``inputSchema``, key order kept.
        output_schema: its ``outputSchema``, or ``None``.
        annotations: its ``annotations`` (hints such as ``readOnlyHint``), or ``None``.
        title: its ``title`` (or ``annotations.title``), or ``None``.
        server: the server's target as written, without ``#TOOL``.
        definition: the whole tool object as sent.
    """

    name: str
    description: str | None
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    annotations: dict[str, Any] | None
    title: str | None
    server: str
    definition: Mapping[str, Any]

    @property
    def target(self) -> str:
        """The target naming exactly this tool (``mcp:python server.py#search``)."""
        return f"{self.server}#{self.name}"

    def to_json(self) -> JsonObject:
        """The tool's fields under MCP's own names."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.output_schema,
            "annotations": self.annotations,
        }


@dataclass(frozen=True)
class McpServerInfo:
    """Who answered ``initialize``: ``serverInfo`` and the negotiated protocol version."""

    name: str
    version: str | None
    title: str | None
    protocol_version: str | None
    instructions: str | None

    def to_json(self) -> JsonObject:
        return {
            "name": self.name,
            "version": self.version,
            "title": self.title,
            "protocolVersion": self.protocol_version,
            "instructions": self.instructions,
        }


@dataclass(frozen=True)
class ServerTools:
    """A server's tools (every page of ``tools/list``, or the one tool a target names).

    Attributes:
        target: the target as written.
        info: the server's ``initialize`` answer.
        tools: the tools, in the server's order.
        pages: how many ``tools/list`` pages were read.
    """

    target: str
    info: McpServerInfo
    tools: tuple[McpTool, ...]
    pages: int

    def to_json(self) -> JsonObject:
        return {
            "target": self.target,
            "server": self.info.to_json(),
            "pages": self.pages,
            "tools": [tool.to_json() for tool in self.tools],
        }
