"""A real ``tools/call`` over streamable HTTP, against the fixture server on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from mcp_support import http_server as serving_http

from toollens.mcp import ConnectOptions, call_mcp_tool
from toollens.roundtrip import CallStatus

pytest.importorskip("mcp")
pytestmark = pytest.mark.network_ok  # loopback only


@pytest.fixture(scope="module")
def http_server() -> Iterator[str]:
    with serving_http("call_tools.py") as url:
        yield f"mcp:{url}"


def test_a_call_over_http_reads_as_over_stdio(http_server: str) -> None:
    options = ConnectOptions(timeout=20)
    result = call_mcp_tool(http_server, "get_weather", '{"city": "Oslo"}', options=options)
    assert result.status is CallStatus.RETURNED
    assert json.loads(result.model_text or "") == [
        {"type": "input_text", "text": "Oslo: sunny for 1 day"}
    ]
    refused = call_mcp_tool(http_server, "refuse", '{"city": "Oslo"}', options=options)
    assert refused.status is CallStatus.RAISED
    assert refused.mcp_response is not None
    assert refused.mcp_response["isError"] is True
