"""What an MCP server said about its tools, as plain frozen data (no ``mcp`` import here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toollens.core.record_json import JsonKey, record_json
from toollens.core.schema.types import JsonMapping, JsonObject

__all__ = [
    "McpServerInfo",
    "McpTool",
    "SdkRefusal",
    "ServerTools",
    "UnreadTool",
    "is_mcp_tool",
    "mcp_fields",
    "title_and_annotations",
]


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
        return mcp_fields(self)


#: The tool fields in the order ``tools/list`` gives them, read from the attributes of McpTool
#: and Tool (the two schemas under MCP's names).
_MCP_FIELDS: tuple[JsonKey, ...] = (
    "name",
    "title",
    "description",
    ("inputSchema", "input_schema"),
    ("outputSchema", "output_schema"),
    "annotations",
)


def mcp_fields(tool: object) -> JsonObject:
    """A tool's fields under MCP's own names, in the order ``tools/list`` gives them."""
    return record_json(tool, *_MCP_FIELDS)


def is_mcp_tool(data: object) -> bool:
    """Whether ``data`` is one tool of an MCP ``tools/list`` answer (a name and an
    ``inputSchema``), which no provider payload shape matches."""
    return (
        isinstance(data, Mapping)
        and isinstance(data.get("name"), str)
        and isinstance(data.get("inputSchema"), Mapping)
    )


def title_and_annotations(tool: JsonMapping) -> tuple[str | None, JsonObject | None]:
    """A tool object's ``title`` (else ``annotations.title``, the older spelling) and its
    ``annotations``, as MCP defines them; ``None`` for what it lacks or holds wrongly typed."""
    annotations = tool.get("annotations")
    hints = dict(annotations) if isinstance(annotations, Mapping) else None
    title = tool.get("title")
    if title is None and hints is not None:
        title = hints.get("title")
    return (title if isinstance(title, str) else None), hints


@dataclass(frozen=True)
class McpServerInfo:
    """Who answered ``initialize``: ``serverInfo`` and the negotiated protocol version."""

    name: str
    version: str | None
    title: str | None
    protocol_version: str | None
    instructions: str | None

    def to_json(self) -> JsonObject:
        return record_json(
            self,
            "name",
            "version",
            "title",
            ("protocolVersion", "protocol_version"),
            "instructions",
        )


@dataclass(frozen=True)
class SdkRefusal:
    """One place the official ``mcp`` SDK's own types (``ListToolsResult``) refuse a
    ``tools/list`` page. A client built on the SDK loses the whole list for it (every tool of
    the server); toollens still reads the tools as sent.

    Attributes:
        index: the tool's position in the server's list (over every page).
        tool: the tool's ``name``, or ``#INDEX`` when it has none.
        pointer: the JSON pointer into that tool object (``/inputSchema``; ``""``: the tool).
        message: what is wrong there, in toollens's words.
    """

    index: int
    tool: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"tool {self.tool!r} at {self.pointer or '/'}: {self.message}"

    def to_json(self) -> JsonObject:
        return record_json(self, "index", "tool", "pointer", "message")


@dataclass(frozen=True)
class UnreadTool:
    """An item of ``tools/list`` that is not a tool toollens can read (not an object with a
    string ``name``, or an ``inputSchema`` that is not an object): one row with its error."""

    index: int
    name: str
    error: str

    def to_json(self) -> JsonObject:
        return record_json(self, "index", "name", "error")


@dataclass(frozen=True)
class ServerTools:
    """A server's tools (every page of ``tools/list``, or the one tool a target names).

    Attributes:
        target: the target as written.
        info: the server's ``initialize`` answer.
        tools: the tools, in the server's order.
        pages: how many ``tools/list`` pages were read.
        unread: the items of the list that are not readable tools, with their position.
        refusals: where the SDK's own types refuse the list (empty when the SDK accepts it).
        raw_tools: every item of the list exactly as sent, readable or not, in order.
        stdout_noise: the lines the server wrote to stdout that are not JSON-RPC messages
            (skipped, as the SDK's client skips them).
        page_sizes: how many items each ``tools/list`` page held (``raw_tools`` split).
    """

    target: str
    info: McpServerInfo
    tools: tuple[McpTool, ...]
    pages: int
    unread: tuple[UnreadTool, ...] = ()
    refusals: tuple[SdkRefusal, ...] = ()
    raw_tools: tuple[Any, ...] = ()
    stdout_noise: tuple[str, ...] = ()
    page_sizes: tuple[int, ...] = ()

    @property
    def sdk_accepts(self) -> bool:
        """Whether the official SDK client accepts this list (no refusal)."""
        return not self.refusals

    def to_json(self) -> JsonObject:
        """The server and its tools; ``unread``, ``sdkRefusals`` and ``stdoutNoise`` only
        when there are some."""
        data: JsonObject = {
            "target": self.target,
            "server": self.info.to_json(),
            "pages": self.pages,
            "tools": [tool.to_json() for tool in self.tools],
        }
        if self.unread:
            data["unread"] = [u.to_json() for u in self.unread]
        if self.refusals:
            data["sdkRefusals"] = [r.to_json() for r in self.refusals]
        if self.stdout_noise:
            data["stdoutNoise"] = list(self.stdout_noise)
        return data
