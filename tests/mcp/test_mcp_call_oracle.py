"""What the model reads after an MCP ``tools/call``, against the OpenAI Agents SDK itself.

The SDK's conversion sits inside ``MCPUtil.invoke_mcp_tool``, which needs a server object: a
fake one (the SDK's own ``MCPServer`` base class) answers with a given ``CallToolResult`` or
raises a given error, the SDK's ``FunctionTool`` built by ``MCPUtil.to_function_tool`` runs with
its default failure function, and ``ItemHelpers.tool_call_output_item`` makes the item the
model receives. toollens's text for the same result must be that item's ``output``. A second
table runs both against the real fixture server (the SDK through its own ``MCPServerStdio``).
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest
from mcp_support import PYTHON, SERVERS, server

from toollens.mcp import ConnectOptions
from toollens.mcp.calling import call_mcp_tool
from toollens.mcp.model_output import model_text, structured_text
from toollens.roundtrip import CallStatus
from toollens.roundtrip.reply import DEFAULT_ERROR_TEXT

pytest.importorskip("mcp")
agents = pytest.importorskip("agents")
agents_mcp = pytest.importorskip("agents.mcp")
agents_items = pytest.importorskip("agents.items")
tool_context = pytest.importorskip("agents.tool_context")
types = pytest.importorskip("mcp_types")
exceptions = pytest.importorskip("mcp.shared.exceptions")
pytestmark = pytest.mark.reference

PIXEL = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgAAACAAEA4iG8Mw"
    + "AAAABJRU5ErkJggg=="
)
TOOL = types.Tool(
    name="get_weather",
    input_schema={"type": "object", "properties": {"city": {"type": "string"}}},
)


class FakeServer(agents_mcp.MCPServer):  # type: ignore[misc]
    """The SDK's server base class, answering every call with ``answer``."""

    def __init__(self, answer: Any, *, use_structured_content: bool = False) -> None:
        super().__init__(use_structured_content=use_structured_content)
        self.answer = answer

    @property
    def name(self) -> str:
        return "fake"

    async def connect(self) -> None:
        pass

    async def cleanup(self) -> None:
        pass

    async def list_tools(self, run_context: Any = None, agent: Any = None) -> list[Any]:
        return [TOOL]

    async def call_tool(self, tool_name: str, arguments: Any, meta: Any = None) -> Any:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    async def list_prompts(self) -> Any:
        raise NotImplementedError

    async def get_prompt(self, name: str, arguments: Any = None) -> Any:
        raise NotImplementedError


def _item_output(output: Any, arguments: str) -> str:
    """The output item's ``output`` as toollens writes it: a string, or its parts' JSON."""
    call = agents_items.ResponseFunctionToolCall(
        arguments=arguments, call_id="call-1", name=TOOL.name, type="function_call"
    )
    sent = agents_items.ItemHelpers.tool_call_output_item(call, output)["output"]
    return sent if isinstance(sent, str) else json.dumps(list(sent), ensure_ascii=False)


async def _invoke(server_object: Any, tool: Any, arguments: str) -> str:
    function_tool = agents_mcp.MCPUtil.to_function_tool(tool, server_object, False)
    context = tool_context.ToolContext(
        context=None, tool_name=tool.name, tool_call_id="call-1", tool_arguments=arguments
    )
    return _item_output(await function_tool.on_invoke_tool(context, arguments), arguments)


def _sdk_reads(answer: Any, arguments: str = '{"city": "Oslo"}', structured: bool = False) -> str:
    fake = FakeServer(answer, use_structured_content=structured)
    return asyncio.run(_invoke(fake, TOOL, arguments))


def _text(text: str) -> Any:
    return types.TextContent(type="text", text=text)


RESULTS = {
    "one text": types.CallToolResult(content=[_text("Oslo: sunny")]),
    "unicode and quotes": types.CallToolResult(content=[_text('Zürich: "grey" \u2014 9 °C')]),
    "two texts": types.CallToolResult(content=[_text("first"), _text("second")]),
    "empty text": types.CallToolResult(content=[_text("")]),
    "no content": types.CallToolResult(content=[]),
    "image": types.CallToolResult(
        content=[
            _text("a chart"),
            types.ImageContent(type="image", data=PIXEL, mime_type="image/png"),
        ]
    ),
    "resource link": types.CallToolResult(
        content=[
            types.ResourceLink(type="resource_link", uri="file:///tmp/report.txt", name="report")
        ]
    ),
    "embedded resource": types.CallToolResult(
        content=[
            types.EmbeddedResource(
                type="resource",
                resource=types.TextResourceContents(uri="file:///a.txt", text="hello"),
            )
        ]
    ),
    "structured": types.CallToolResult(
        content=[_text('{"city": "Zürich", "celsius": 21.5}')],
        structured_content={"city": "Zürich", "celsius": 21.5},
    ),
    "isError": types.CallToolResult(content=[_text("no station in Oslo")], is_error=True),
    "isError with structured": types.CallToolResult(
        content=[_text("failed")], structured_content={"code": 7}, is_error=True
    ),
}


@pytest.mark.parametrize("name", list(RESULTS))
def test_model_text_is_the_sdks_output(name: str) -> None:
    result = RESULTS[name]
    assert model_text(result) == _sdk_reads(result)


@pytest.mark.parametrize("name", ["structured", "one text"])
def test_structured_text_is_what_the_sdk_sends_with_structured_content_on(name: str) -> None:
    result = RESULTS[name]
    expected = _sdk_reads(result, structured=True)
    if result.structured_content is None:  # nothing structured: the SDK keeps the content
        assert structured_text(result) is None
        assert expected == model_text(result)
    else:
        assert structured_text(result) == expected


def test_an_isError_result_keeps_its_content_even_with_structured_content_on() -> None:
    result = RESULTS["isError with structured"]
    assert _sdk_reads(result, structured=True) == model_text(result)


@pytest.mark.parametrize(
    "error",
    [
        exceptions.MCPError(code=-32001, message="quota exceeded"),
        exceptions.MCPError(code=types.REQUEST_TIMEOUT, message="Request 'tools/call' timed out"),
    ],
    ids=["json-rpc error", "session timeout"],
)
def test_a_json_rpc_error_reads_as_the_default_error_text(error: Exception) -> None:
    assert _sdk_reads(error) == DEFAULT_ERROR_TEXT


@pytest.mark.parametrize("arguments", ['{"city": ', "[1, 2]", '"Oslo"'])
def test_arguments_that_are_no_json_object_read_as_the_default_error_text(arguments: str) -> None:
    sdk = _sdk_reads(RESULTS["one text"], arguments)
    ours = call_mcp_tool(server("broken.py", "crash"), TOOL.name, arguments)
    assert ours.status is CallStatus.REJECTED
    assert ours.model_text == sdk == DEFAULT_ERROR_TEXT


# -- the same calls through the SDK's own stdio client, against the real fixture server ---------

LIVE = [
    ("get_weather", '{"city": "Oslo", "days": 3}'),
    ("get_weather", '{"days": 3}'),  # no city: the SDK's own required check refuses it
    ("get_weather", ""),
    ("forecast", '{"city": "Zürich"}'),
    ("chart", '{"city": "Oslo"}'),
    ("refuse", '{"city": "Oslo"}'),
    ("quota", '{"city": "Oslo"}'),
]


async def _sdk_live(calls: list[tuple[str, str]]) -> list[str]:
    stdio = agents_mcp.MCPServerStdio(
        {"command": PYTHON, "args": [str(SERVERS / "call_tools.py")]},
        client_session_timeout_seconds=20,
    )
    async with stdio:
        tools = {tool.name: tool for tool in await stdio.list_tools()}
        return [await _invoke(stdio, tools[name], arguments) for name, arguments in calls]


@pytest.mark.network_ok  # a stdio child process, no socket
@pytest.mark.skipif(sys.platform == "win32", reason="stdio servers as POSIX child processes")
def test_the_same_calls_read_the_same_through_the_sdks_own_client() -> None:
    sdk = asyncio.run(_sdk_live(LIVE))
    target = server("call_tools.py")
    options = ConnectOptions(timeout=20)
    ours = [call_mcp_tool(target, name, arguments, options=options) for name, arguments in LIVE]
    assert [r.model_text for r in ours] == sdk
    assert [r.status.value for r in ours] == [
        "returned", "rejected", "rejected", "returned", "returned", "raised", "raised"
    ]  # fmt: skip
