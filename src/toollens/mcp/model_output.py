"""What the OpenAI Agents SDK hands the model for an MCP ``tools/call`` result.

The SDK (0.24, with its defaults) turns a result into the ``output`` of the model's
``function_call_output`` item in two steps, mirrored here and compared with the SDK itself in
the tests:

1. ``MCPUtil.invoke_mcp_tool``: each content block becomes a tool output -- a ``text`` block
   its text, an ``image`` block a ``data:`` URL, any other block its JSON as text. The result's
   ``structuredContent`` is used instead only on a server made with
   ``use_structured_content=True`` (off by default), and never for an ``isError`` result.
2. ``ItemHelpers.tool_call_output_item``: those outputs become Responses API content parts
   (``input_text``, ``input_image``); a result with no content at all becomes the text ``[]``.

An ``isError`` result is not an error to the SDK: the model reads its content like any other.
A JSON-RPC error is raised, and the model reads the SDK's default error sentence.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from mcp_types import CallToolResult, ContentBlock

__all__ = ["model_text", "structured_text"]


def model_text(result: CallToolResult) -> str:
    """The ``output`` the model receives for ``result``, as text.

    A string output is returned as it is; content parts (what every non-empty result
    becomes) are returned as their JSON list, e.g.
    ``[{"type": "input_text", "text": "Oslo: sunny"}]``.
    """
    parts = [_part(block) for block in result.content]
    if not parts:  # the SDK stringifies an empty list of outputs
        return "[]"
    return json.dumps(parts, ensure_ascii=False)


def structured_text(result: CallToolResult) -> str | None:
    """``structuredContent`` as the SDK serialises it for the model (``json.dumps``, so
    non-ASCII is escaped) when a server uses structured content; ``None`` when absent."""
    if result.structured_content is None:
        return None
    return json.dumps(result.structured_content)


def _part(block: ContentBlock) -> JsonObject:
    import mcp_types as types

    if isinstance(block, types.TextContent):
        return {"type": "input_text", "text": block.text}
    if isinstance(block, types.ImageContent):
        return {"type": "input_image", "image_url": f"data:{block.mime_type};base64,{block.data}"}
    # Any other block (audio, a resource, a resource link): its JSON, read as text.
    return {"type": "input_text", "text": block.model_dump_json()}
