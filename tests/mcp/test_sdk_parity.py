"""toollens reads a server as the official ``mcp`` SDK client reads it.

- Lines on a server's stdout that are not JSON-RPC (a banner, a log line): the SDK's
  ``stdio_client`` skips them and lists the tools; toollens lists the same tools, and the
  toolset carries one warning naming the lines.
- A ``tools/list`` the SDK's own types refuse: the SDK client raises; toollens still reads
  the tools as raw JSON and keeps the refusal (tool, JSON pointer, message) as data.
"""

from __future__ import annotations

import sys

import anyio
import pytest
from mcp_support import PYTHON, SERVERS, server

import toollens
from toollens.mcp import ConnectOptions, fetch_tools
from toollens.toolsets.catalogue import SDK_REFUSES_LIST, STDOUT_NOISE

pytest.importorskip("mcp")
pytestmark = [
    pytest.mark.network_ok,  # servers run as child processes (stdio, no sockets)
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups"),
]


def _sdk_list(script: str, *args: str) -> list[str] | Exception:
    """The tool names the SDK's own stdio_client and ClientSession list, or the error its
    ``list_tools`` raises."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=PYTHON, args=[str(SERVERS / script), *args])

    async def listed() -> list[str] | Exception:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            try:
                result = await session.list_tools()
            except Exception as exc:  # the SDK's verdict, compared below
                return exc
            return [tool.name for tool in result.tools]

    return anyio.run(listed)


def test_a_banner_on_stdout_is_skipped_as_the_sdk_skips_it() -> None:
    oracle = _sdk_list("banner_sdk.py")
    assert oracle == ["echo", "add"]
    ts = toollens.toolset(server("banner_sdk.py"))
    assert list(ts.names) == oracle
    assert all(entry.ok for entry in ts)
    (warning,) = [f for f in ts.findings if f.rule == STDOUT_NOISE]
    assert warning.severity.value == "warning"
    assert warning.message.startswith(
        "the server wrote 2 lines to stdout that are not JSON-RPC: "
        "'Banner Tools 1.0 - listening on stdio' (and 1 more)."
    )


def test_the_skipped_lines_are_kept_on_the_server_record() -> None:
    served = fetch_tools(server("banner_sdk.py"))
    assert served.stdout_noise == (
        "Banner Tools 1.0 - listening on stdio",
        "INFO: 2 tools registered",
    )
    assert served.sdk_accepts


def test_a_list_the_sdk_refuses_is_still_read_and_the_refusal_kept() -> None:
    from pydantic import ValidationError

    # the oracle: the SDK client loses the whole list
    assert isinstance(_sdk_list("broken.py", "refused"), ValidationError)
    served = fetch_tools(server("broken.py", "refused"), ConnectOptions(timeout=5))
    assert [t.name for t in served.tools] == ["ok", "odd"]
    (refusal,) = served.refusals
    assert (refusal.index, refusal.tool, refusal.pointer) == (1, "odd", "/annotations")
    assert refusal.message == "must be an object (got 'read-only')"
    assert [item["name"] for item in served.raw_tools] == ["ok", "odd"]
    assert not served.sdk_accepts


def test_a_refused_list_is_judged_with_an_error_not_exit_3() -> None:
    import io

    from toollens.cli import main

    ts = toollens.toolset(server("broken.py", "refused"))
    assert ts.names == ("ok", "odd")
    (error,) = [f for f in ts.cross_findings if f.finding.rule == SDK_REFUSES_LIST]
    assert error.tools == ("odd",)
    assert "tool 'odd' at /annotations: must be an object" in error.finding.message
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", server("broken.py", "refused")], stdout=out, stderr=err) == 1
    assert f"error[{SDK_REFUSES_LIST}]" in out.getvalue()
    assert err.getvalue() == ""


def test_an_item_without_a_name_is_one_unread_row_in_its_place() -> None:
    ts = toollens.toolset(server("broken.py", "malformed"))
    assert ts.names == ("ok", "#1")
    assert ts["ok"].ok
    assert ts["#1"].error == "tool 1 has no string 'name'"
    assert ts["#1"].origin.index == 1


def test_a_project_table_keeps_the_unread_item_of_a_server_as_its_row(tmp_path) -> None:
    """The table reads a server as ``toolset()`` does: the unread item is a row, not lost."""
    import json

    from toollens.project.config import load_config
    from toollens.project.source import project_toolset

    target = server("broken.py", "malformed")
    (tmp_path / "pyproject.toml").write_text(
        f"[tool.toollens]\ntools = [{json.dumps(target)}]\n", encoding="utf-8"
    )
    ts = project_toolset(load_config(str(tmp_path)))
    assert ts.names == toollens.toolset(target).names == ("ok", "#1")
    assert ts["#1"].error == "tool 1 has no string 'name'"
    assert (ts["#1"].origin.index, ts["#1"].origin.kind) == (1, "project")
