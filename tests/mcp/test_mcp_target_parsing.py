"""Parsing mcp: targets: the transports, #TOOL, and the one-line errors (no server started)."""

from __future__ import annotations

import pytest

from toollens.core.errors import TargetError
from toollens.mcp import ConnectOptions, is_mcp_target, parse_mcp_target


@pytest.mark.parametrize(
    ("text", "transport", "command", "url", "tool"),
    [
        ("mcp:python server.py", "stdio", ("python", "server.py"), None, None),
        ("mcp:uvx some-server --flag", "stdio", ("uvx", "some-server", "--flag"), None, None),
        ("mcp:python server.py#search", "stdio", ("python", "server.py"), None, "search"),
        ("mcp:python 'my server.py' --name \"a b\"", "stdio",
         ("python", "my server.py", "--name", "a b"), None, None),
        ("mcp:node dist/index.js#get_time", "stdio", ("node", "dist/index.js"), None, "get_time"),
        ("mcp:http://127.0.0.1:8000/mcp", "http", (), "http://127.0.0.1:8000/mcp", None),
        ("mcp:https://tools.example/mcp#x.y-z", "http", (), "https://tools.example/mcp", "x.y-z"),
    ],
)  # fmt: skip
def test_forms(text: str, transport: str, command: tuple[str, ...], url: str, tool: str) -> None:
    spec = parse_mcp_target(text)
    assert (spec.transport, spec.command, spec.url, spec.tool) == (transport, command, url, tool)
    assert spec.text == text
    assert spec.server == text.split("#")[0]
    assert spec.for_tool("t") == spec.server + "#t"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("mcp:", "names no server command"),
        ("mcp:   ", "names no server command"),
        ("mcp:python server.py#", "names no tool"),
        ("mcp:python 'server.py", "cannot split the command"),
        ("mcp:http:///mcp", "not a URL with a host"),
        ("mcp:http://host:port/mcp", "port that is not a number"),
        ("tools.py:search", "is not an mcp: target"),
    ],
)
def test_bad_targets_raise_one_line(text: str, fragment: str) -> None:
    with pytest.raises(TargetError) as info:
        parse_mcp_target(text)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_is_mcp_target() -> None:
    assert is_mcp_target("mcp:python s.py")
    assert not is_mcp_target("pkg.tools:search")
    assert not is_mcp_target(None)


@pytest.mark.parametrize("timeout", [0, -1.0])
def test_timeout_must_be_positive(timeout: float) -> None:
    with pytest.raises(TargetError, match="not a positive number"):
        ConnectOptions(timeout=timeout)


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from toollens.mcp import fetch_tools

    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp now raises ImportError
    monkeypatch.setitem(sys.modules, "mcp.client.session", None)
    with pytest.raises(TargetError) as info:
        fetch_tools("mcp:python server.py")
    message = str(info.value)
    assert "pip install 'toollens[mcp]'" in message
    assert "\n" not in message


def test_nested_exception_groups_are_unwrapped_to_the_cause() -> None:
    """anyio task groups wrap failures (with cancellations) in groups: one line comes out."""
    import asyncio
    import sys
    import tempfile

    from toollens.mcp.failures import Attempt, McpFailure, explain_failure

    if sys.version_info >= (3, 11):
        group, base_group = ExceptionGroup, BaseExceptionGroup  # noqa: F821
    else:  # pragma: no cover - the backport anyio depends on
        from exceptiongroup import BaseExceptionGroup as base_group
        from exceptiongroup import ExceptionGroup as group

    spec = parse_mcp_target("mcp:srv --stdio")
    cause = McpFailure("did not answer tools/list within 1 s")
    nested = base_group(
        "outer", [asyncio.CancelledError(), group("inner", [RuntimeError("teardown"), cause])]
    )
    with tempfile.TemporaryFile("w+") as errlog:
        errlog.write("starting\nERROR: no token\n\n")
        errlog.flush()
        error = explain_failure(nested, Attempt(spec, 1.0, errlog))
    assert type(error) is TargetError
    assert str(error).startswith(
        "MCP server 'srv --stdio' did not answer tools/list within 1 s; "
        "its last stderr line: 'ERROR: no token'"
    )
