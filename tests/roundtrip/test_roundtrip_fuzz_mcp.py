"""``toollens fuzz "mcp:...#TOOL"``: generated arguments sent to a real MCP server over one session.

The server is a small script written to ``tmp_path`` (the mcp SDK's ``MCPServer``): one tool
fails for some arguments the schema admits (an ``isError`` result), one never fails, one
answers with a JSON-RPC error.
"""

from __future__ import annotations

import io
import json
import shlex
import sys

import pytest

from toollens.cli import main
from toollens.mcp.client import ConnectOptions
from toollens.mcp.fuzzing import fuzz_mcp_tool
from toollens.roundtrip.fuzzing import FuzzPlan
from toollens.roundtrip.records import FindingKind, FuzzReport

pytest.importorskip("mcp")
pytest.importorskip("hypothesis_jsonschema")
pytestmark = pytest.mark.network_ok  # the server is a child process on stdio (no sockets)

SERVER = '''
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import ErrorData

server = MCPServer("fuzzed")


@server.tool(name="get-ratio")
def get_ratio(a: int, b: int) -> float:
    """Divide a by b."""
    return a / b


@server.tool(name="get-sum")
def get_sum(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@server.tool(name="lookup")
def lookup(key: str) -> str:
    """Look a key up."""
    raise MCPError.from_error_data(ErrorData(code=-32602, message=f"no such key {key!r}"))


if __name__ == "__main__":
    server.run()
'''

SLOW = 60.0  # a loaded shared machine: the bound is for a stuck server, not a speed check


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("mcp-fuzz") / "server.py"
    path.write_text(SERVER, encoding="utf-8")
    return "mcp:" + shlex.join([sys.executable, str(path)])


def _fuzz(target: str, tool: str, n: int = 10) -> FuzzReport:
    plan = FuzzPlan(n=n, seed=0, timeout=SLOW)
    return fuzz_mcp_tool(f"{target}#{tool}", plan, options=ConnectOptions(timeout=SLOW))


def test_an_is_error_result_is_a_finding_shrunk_to_the_smallest_arguments(target: str) -> None:
    report = _fuzz(target, "get-ratio")
    assert report.tool == "get-ratio"
    assert report.schema["required"] == ["a", "b"]  # the inputSchema as listed
    (finding,) = report.findings
    assert finding.kind is FindingKind.RAISES
    assert finding.arguments == {"a": 0, "b": 0}  # b=0 on the simplest object
    assert "isError" in finding.message
    assert finding.result.mcp_response is not None
    assert finding.result.mcp_response["isError"] is True
    assert report.examples > 10  # one session served every call


def test_a_json_rpc_error_is_a_finding_with_its_code(target: str) -> None:
    report = _fuzz(target, "lookup", n=5)
    (finding,) = report.findings  # the key is masked out: one failure, not one per key
    assert "JSON-RPC error -32602" in finding.message
    assert finding.result.mcp_response is not None
    assert finding.result.mcp_response["error"]["code"] == -32602


def test_the_command_line_fuzzes_an_mcp_tool_and_exits_by_what_it_found(target: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["fuzz", f"{target}#get-sum", "-n", "10", "--timeout", str(SLOW), "--format", "json"]
    assert main(argv, stdout=out, stderr=err) == 0, err.getvalue()
    data = json.loads(out.getvalue())
    assert data["findings"] == []
    assert data["tool"] == "get-sum"
    out = io.StringIO()
    argv = ["fuzz", f"{target}#get-ratio", "-n", "10", "--timeout", str(SLOW)]
    assert main(argv, stdout=out, stderr=err) == 1
    assert "isError" in out.getvalue()
    assert "not callable" not in out.getvalue() + err.getvalue()


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--provider", "anthropic"], "fuzzed from its inputSchema"),  # no Python schema
        ([], "names a server, not the tool to call"),  # no #TOOL
    ],
    ids=["provider", "no-tool"],
)
def test_what_an_mcp_fuzz_cannot_do_is_one_line_exit_3(extra: list[str], expected: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    server = "mcp:python server.py" + ("#t" if extra else "")
    assert main(["fuzz", server, *extra], stdout=out, stderr=err) == 3
    assert expected in err.getvalue()
    assert len(err.getvalue().strip().splitlines()) <= 2  # the error and its hint
