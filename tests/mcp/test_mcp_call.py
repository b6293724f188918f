"""A real ``tools/call`` on an MCP server: ``call_mcp_tool``, ``mcp_caller`` and ``toollens try``.

Every call starts the fixture server ``call_tools.py`` (or a broken one) as a child process and
records its pid, so each test can prove no process outlives the call.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp_support import server, survivors

from toollens.cli import EXIT_ERROR, main
from toollens.core.errors import TargetError
from toollens.mcp import ConnectOptions, call_mcp_tool, mcp_caller
from toollens.roundtrip import CallStatus
from toollens.roundtrip.reply import DEFAULT_ERROR_TEXT

pytest.importorskip("mcp")
pytestmark = [
    pytest.mark.network_ok,  # servers run as child processes (stdio, no sockets)
    pytest.mark.skipif(sys.platform == "win32", reason="pid checks read /proc and POSIX kill"),
]

SERVER = server("call_tools.py")
_CHECK = "toollens checks the arguments against the tool's inputSchema before calling"


def _options(pidfile: Path, timeout: float = 20.0) -> ConnectOptions:
    return ConnectOptions(env={"TOOLLENS_TEST_PIDFILE": str(pidfile)}, timeout=timeout)


def _call(tmp_path: Path, tool: str, arguments: Any, **kwargs: Any) -> Any:
    pidfile = tmp_path / "pids"
    result = call_mcp_tool(SERVER, tool, arguments, options=_options(pidfile), **kwargs)
    assert survivors(pidfile) == [], "the server outlived the call"
    return result


def test_a_returned_call_shows_the_request_the_answer_and_what_the_model_reads(
    tmp_path: Path,
) -> None:
    result = _call(tmp_path, "get_weather", '{"city": "Oslo", "days": 3}')
    assert result.status is CallStatus.RETURNED
    assert result.call_text == 'tools/call get_weather {"city": "Oslo", "days": 3}'
    assert result.kwargs == {"city": "Oslo", "days": 3}
    assert result.model_text == '[{"type": "input_text", "text": "Oslo: sunny for 3 days"}]'
    assert result.output_json == '{"result": "Oslo: sunny for 3 days"}'
    assert result.mcp_response == {
        "content": [{"type": "text", "text": "Oslo: sunny for 3 days"}],
        "isError": False,
        "structuredContent": {"result": "Oslo: sunny for 3 days"},
    }
    assert result.exception is None
    assert result.error is None


def test_structured_content_is_the_output_json_the_sdk_would_send(tmp_path: Path) -> None:
    result = _call(tmp_path, "forecast", {"city": "Zürich"})  # a mapping is encoded first
    assert result.status is CallStatus.RETURNED
    assert result.arguments == '{"city": "Zürich"}'
    assert result.output_json == '{"city": "Z\\u00fcrich", "celsius": 21.5}'  # json.dumps
    assert json.loads(result.model_text)[0]["type"] == "input_text"


def test_an_isError_result_is_raised_with_its_text_for_the_model(tmp_path: Path) -> None:
    result = _call(tmp_path, "refuse", '{"city": "Oslo"}')
    assert result.status is CallStatus.RAISED
    assert result.exception is None  # nothing was raised in Python
    assert result.mcp_response is not None
    assert result.mcp_response["isError"] is True
    text = "Error executing tool refuse: no weather station in Oslo"
    assert result.model_text == json.dumps([{"type": "input_text", "text": text}])


def test_a_json_rpc_error_is_raised_and_the_model_reads_the_default_error(tmp_path: Path) -> None:
    result = _call(tmp_path, "quota", '{"city": "Oslo"}')
    assert result.status is CallStatus.RAISED
    assert result.mcp_response == {"error": {"code": -32001, "message": "quota exceeded for Oslo"}}
    assert result.model_text == DEFAULT_ERROR_TEXT


# arguments -> (pointer, JSON-Schema keyword, what the model reads: the SDK refuses a missing
# top-level required property itself; anything else it would send on to the server)
SCHEMA_CASES = {
    '{"city": "Oslo", "days": 9}': ("/days", "maximum", None),
    '{"days": 2}': ("/city", "required", DEFAULT_ERROR_TEXT),
    '{"city": ["Oslo"]}': ("/city", "type", None),
}


@pytest.mark.parametrize("arguments", list(SCHEMA_CASES))
def test_arguments_the_input_schema_forbids_are_rejected_at_their_pointer(
    arguments: str, tmp_path: Path
) -> None:
    pointer, keyword, model_text = SCHEMA_CASES[arguments]
    result = _call(tmp_path, "get_weather", arguments)
    assert result.status is CallStatus.REJECTED
    assert result.pointer == pointer
    assert result.error is not None
    assert result.error.rule == keyword
    assert str(result.error).startswith(f"at {pointer}: ")
    assert _CHECK in str(result.error)
    assert result.call_text is None
    assert result.mcp_response is None
    assert result.sdk_error is None  # not the SDK's check
    assert result.model_text == model_text


@pytest.mark.parametrize(
    ("arguments", "sdk_error"),
    [
        ('{"city": ', 'Invalid JSON input for tool get_weather: {"city": '),
        ("[1, 2]", "Invalid JSON input for tool get_weather: expected a JSON object"),
    ],
)
def test_text_that_is_no_json_object_is_rejected_without_starting_the_server(
    arguments: str, sdk_error: str, tmp_path: Path
) -> None:
    pidfile = tmp_path / "pids"
    # A server that would crash at start: the call must not get that far.
    broken = server("broken.py", "crash")
    result = call_mcp_tool(broken, "get_weather", arguments, options=_options(pidfile))
    assert result.status is CallStatus.REJECTED
    assert result.sdk_error == sdk_error
    assert result.model_text == DEFAULT_ERROR_TEXT
    assert result.pointer == ""
    assert not pidfile.exists(), "a server was started"


def test_a_dry_run_lists_and_checks_but_does_not_call(tmp_path: Path) -> None:
    result = _call(tmp_path, "refuse", '{"city": "Oslo"}', dry_run=True)
    assert result.status is CallStatus.NOT_RUN
    assert result.call_text == 'tools/call refuse {"city": "Oslo"}'
    assert result.mcp_response is None
    assert result.model_text is None


def test_a_call_past_the_timeout_is_timed_out_and_the_server_is_stopped(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    options = _options(pidfile, timeout=5.0)  # also bounds start-up: keep it above that
    result = call_mcp_tool(SERVER, "sleepy", '{"seconds": 120}', options=options)
    assert result.status is CallStatus.TIMED_OUT
    assert isinstance(result.exception, TimeoutError)
    assert "within 5 seconds" in str(result.exception)
    assert result.model_text == DEFAULT_ERROR_TEXT
    assert survivors(pidfile) == []
    assert len(pidfile.read_text().split()) == 1


def test_a_server_that_fails_to_start_is_one_line_and_leaves_no_process(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    with pytest.raises(TargetError) as info:
        call_mcp_tool(server("broken.py", "crash"), "get_weather", "{}", options=_options(pidfile))
    message = str(info.value)
    assert "exited with code 1 during initialize" in message
    assert "fatal: config file /etc/broken.toml not found" in message
    assert "\n" not in message
    assert "Traceback" not in message
    assert type(info.value) is TargetError
    assert survivors(pidfile) == []


def test_a_command_that_does_not_exist() -> None:
    with pytest.raises(TargetError, match="cannot be started: 'toollens-no-such-server'"):
        call_mcp_tool("mcp:toollens-no-such-server", "get_weather", "{}")


def test_a_tool_the_server_does_not_have(tmp_path: Path) -> None:
    with pytest.raises(TargetError, match=r"has no tool 'get_wether'; did you mean 'get_weather'"):
        _call(tmp_path, "get_wether", "{}")


def test_a_target_naming_another_tool_is_refused_before_anything_starts() -> None:
    with pytest.raises(TargetError, match="names the tool 'forecast', not 'get_weather'"):
        call_mcp_tool(server("broken.py", "crash", tool="forecast"), "get_weather", "{}")


def test_an_input_schema_that_is_no_json_schema_is_a_target_error(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    bad = {"type": "object", "properties": {"n": {"type": "integr"}}}
    tools.write_text(json.dumps([{"name": "count", "inputSchema": bad}]), encoding="utf-8")
    with pytest.raises(TargetError, match="the inputSchema of tool 'count' is not a usable JSON"):
        call_mcp_tool(server("lowlevel_raw.py", str(tools)), "count", '{"n": 1}')


def test_mcp_caller_calls_the_tool_with_the_text_it_is_given(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    call = mcp_caller(server("call_tools.py", tool="get_weather"), "get_weather", _options(pidfile))
    assert call('{"city": "Bergen"}').model_text == json.dumps(
        [{"type": "input_text", "text": "Bergen: sunny for 1 day"}]
    )
    assert call('{"city": ').status is CallStatus.REJECTED
    assert len(pidfile.read_text().split()) == 1  # one server, for the one valid call
    assert survivors(pidfile) == []
    with pytest.raises(TargetError):
        mcp_caller("not an mcp target", "get_weather")


# -- the command line ------------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("tool", "arguments", "code", "shown"),
    [
        ("get_weather", '{"city": "Oslo"}', 0, 'model reads  [{"type": "input_text"'),
        ("get_weather", '{"city": "Oslo", "days": 0}', 1, "rejected     at /days: 0 is less"),
        ("get_weather", "{oops", 1, "rejected: arguments for tool 'get_weather' are not valid"),
        ("refuse", '{"city": "Oslo"}', 2, 'isError      {"content": '),
        ("quota", '{"city": "Oslo"}', 2, 'MCP error    {"error": {"code": -32001'),
    ],
)
def test_try_exit_codes(tool: str, arguments: str, code: int, shown: str) -> None:
    got, out, err = run("try", server("call_tools.py", tool=tool), arguments, "--timeout", "20")
    assert (got, err) == (code, "")
    assert shown in out


def test_try_json_and_dry_run() -> None:
    target = server("call_tools.py", tool="forecast")
    code, out, err = run("try", target, '{"city": "Oslo"}', "--dry-run", "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["status"] == "not-run"
    assert data["call"] == 'tools/call forecast {"city": "Oslo"}'
    assert data["mcp_response"] is None


@pytest.mark.parametrize(
    ("target", "said"),
    [
        (server("broken.py", "crash", tool="get_weather"), "exited with code 1 during initialize"),
        (server("call_tools.py"), "names a server, not the tool to call"),
    ],
)
def test_try_exit_3_in_one_line(target: str, said: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    env = f"TOOLLENS_TEST_PIDFILE={pidfile}"
    code, out, err = run("try", target, '{"city": "Oslo"}', "--env", env)
    assert (code, out) == (EXIT_ERROR, "")
    lines = err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("toollens: error: ")
    assert said in lines[0]
    assert survivors(pidfile) == []


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("bad-result", "answered tools/call with something that is not a valid tools/call result"),
        ("die-on-call", "exited with code 5 during tools/call; its last stderr line: "
                        "'segfault in get_weather'"),
    ],
)  # fmt: skip
def test_a_server_that_fails_the_call_itself_is_one_line(
    mode: str, said: str, tmp_path: Path
) -> None:
    pidfile = tmp_path / "pids"
    target = server("broken_calls.py", mode)
    with pytest.raises(TargetError) as info:
        call_mcp_tool(target, "get_weather", '{"city": "Oslo"}', options=_options(pidfile))
    assert said in str(info.value)
    assert "\n" not in str(info.value)
    assert survivors(pidfile) == []
