"""Read a server's ``initialize`` and ``tools/list`` answers into records, the SDK's verdict kept.

Each page is checked with the SDK's own ``ListToolsResult`` type, and the records keep the
tools as they were sent: schemas are judged byte for byte, not as the SDK's models would
serialise them again. A page the SDK refuses is still read, as raw JSON: where the SDK
refuses it becomes :class:`~toollens.mcp.records.SdkRefusal` data (a client built on the SDK
loses the whole list; the clients' verdicts say so), and each item that is not even an
object with a string ``name`` is one unread row. Only a page that is not a tool list at all
(no ``tools`` list) cannot be read.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonMapping
from toollens.mcp.failures import McpFailure
from toollens.mcp.records import (
    McpServerInfo,
    McpTool,
    SdkRefusal,
    UnreadTool,
    title_and_annotations,
)

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["Page", "parse_info", "parse_page", "sdk_check", "sdk_refusals"]


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


@dataclass(frozen=True)
class Page:
    """One ``tools/list`` page as read: its tools, unread items, the SDK's refusals, the
    items as sent, and the cursor of the next page (``None`` at the end)."""

    tools: tuple[McpTool, ...]
    unread: tuple[UnreadTool, ...]
    refusals: tuple[SdkRefusal, ...]
    raw: tuple[Any, ...]
    cursor: str | None


def parse_page(
    raw: JsonMapping, server: str, page: int, start: int = 0, version: str | None = None
) -> Page:
    """Read one ``tools/list`` page whose first item is item ``start`` of the whole list;
    ``version`` is the negotiated protocol version the SDK checks the page for.

    Raises:
        McpFailure: the page holds no ``tools`` list (nothing to read).
    """
    from pydantic import ValidationError

    items = raw.get("tools") if isinstance(raw, Mapping) else None
    if not isinstance(items, list):
        what = "no 'tools' list" if items is None else f"'tools' that is a {type(items).__name__}"
        raise McpFailure(
            f"answered tools/list (page {page}) with {what}, not a tool list",
            hint="a tools/list result is an object whose 'tools' is a list of tool objects",
        )
    refusals: tuple[SdkRefusal, ...] = ()
    try:
        sdk_check(raw, version)
    except ValidationError as exc:
        refusals = sdk_refusals(exc, items, start)
    given = raw.get("nextCursor")
    cursor = given if isinstance(given, str) and given else None
    tools: list[McpTool] = []
    unread: list[UnreadTool] = []
    for offset, item in enumerate(items):
        read = _tool(item, server, start + offset)
        (tools if isinstance(read, McpTool) else unread).append(read)  # type: ignore[arg-type]
    return Page(tuple(tools), tuple(unread), refusals, tuple(items), cursor)


def sdk_check(raw: JsonMapping, version: str | None) -> None:
    """The check the SDK's ``ClientSession`` runs on a ``tools/list`` answer (mcp 2.3:
    ``mcp_types.methods.validate_server_result``, then ``ListToolsResult``).

    Raises:
        pydantic.ValidationError: the SDK refuses the page.
    """
    import mcp_types as types
    from mcp_types import methods

    # KeyError: a version the SDK has no table row for; its session skips the check too.
    with contextlib.suppress(KeyError):
        methods.validate_server_result("tools/list", version or "2025-11-25", dict(raw))
    types.ListToolsResult.model_validate(raw, by_name=False)


def sdk_refusals(
    error: ValidationError, items: Sequence[object], start: int = 0
) -> tuple[SdkRefusal, ...]:
    """Where ``ListToolsResult`` refused the page: per tool and pointer, in toollens's words."""
    found: list[SdkRefusal] = []
    for detail in error.errors():
        loc = tuple(detail.get("loc", ()))
        if len(loc) < 2 or loc[0] != "tools" or not isinstance(loc[1], int):
            continue  # about the page itself (nextCursor, _meta): not one tool's
        index = loc[1]
        item = items[index] if index < len(items) else None
        pointer = join_pointer("", *(str(part) for part in loc[2:]))
        found.append(
            SdkRefusal(start + index, _name(item, start + index), pointer, _in_words(detail))
        )
    return tuple(found)


# pydantic's error types, said the way toollens says them
_WORDS = {
    "missing": "is missing (required)",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "list_type": "must be a list",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "int_type": "must be an integer",
    "float_type": "must be a number",
    "literal_error": "is not one of the allowed values",
}


def _in_words(detail: Mapping[str, Any]) -> str:
    kind = str(detail.get("type", ""))
    words = _WORDS.get(kind)
    if words is None:
        message = str(detail.get("msg", "is not valid"))
        words = message[:1].lower() + message[1:]
    value = detail.get("input")
    if kind != "missing" and value is not None and not isinstance(value, (dict, list)):
        words += f" (got {value!r:.60})"
    return words


def _name(item: object, index: int) -> str:
    name = item.get("name") if isinstance(item, Mapping) else None
    return name if isinstance(name, str) and name else f"#{index}"


def _tool(tool: Any, server: str, index: int) -> McpTool | UnreadTool:
    if not isinstance(tool, Mapping):
        return UnreadTool(
            index, f"#{index}", f"tool {index} is a {type(tool).__name__}, not an object"
        )
    name = tool.get("name")
    if not isinstance(name, str) or not name:
        return UnreadTool(index, f"#{index}", f"tool {index} has no string 'name'")
    schema = tool.get("inputSchema")
    if not isinstance(schema, Mapping):
        what = "missing" if schema is None else f"a {type(schema).__name__}, not an object"
        return UnreadTool(index, name, f"the inputSchema of {name!r} is {what}")
    title, annotations = title_and_annotations(tool)
    output = tool.get("outputSchema")
    return McpTool(
        name=name,
        description=_text(tool.get("description")),
        input_schema=dict(schema),
        output_schema=dict(output) if isinstance(output, Mapping) else None,
        annotations=annotations,
        title=title,
        server=server,
        definition=dict(tool),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
