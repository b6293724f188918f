"""Broken servers: one line saying what happened, the server's last stderr line, no survivor."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from mcp_support import quick_stop, server, survivors

from toollens.cli import EXIT_ERROR, main
from toollens.core.errors import TargetError
from toollens.mcp import ConnectOptions, fetch_tools

pytest.importorskip("mcp")
pytestmark = [
    pytest.mark.network_ok,  # servers run as child processes (stdio, no sockets)
    pytest.mark.skipif(sys.platform == "win32", reason="pid checks read /proc and POSIX kill"),
]

TIMEOUT = 2.0
# Servers that never answer (or answer initialize only after a minute) fail the same way
# after any timeout: wait 1 s (the garbage server's stdout and stderr lines come at start-up,
# well within it). One that answers initialize first keeps 2 s to do it.
NEVER_ANSWER = 1.0

# mode -> (what the message says, the server's last stderr line it quotes, or None)
CASES = {
    "crash": ("exited with code 1 during initialize",
              "fatal: config file /etc/broken.toml not found"),
    "exit-after-initialize": ("exited with code 4 during tools/list",
                              "panic: out of licences"),
    # lines that are not JSON-RPC are skipped (as the SDK's client does), then quoted
    "garbage": ("did not answer initialize within 1 s", "logging to stdout by mistake"),
    "silent": ("did not answer initialize within 1 s",
               "waiting for a database that never comes"),
    "stubborn": ("did not answer initialize within 1 s", "ignoring SIGTERM"),
    "slow-initialize": ("did not answer initialize within 1 s", None),
    "slow-list": ("did not answer tools/list within 2 s", "listing tools takes a while"),
    "not-a-list": ("answered tools/list (page 1) with 'tools' that is a str, not a tool list",
                   None),
    # the server exits but its child keeps stdout open: no EOF, yet no wait for the timeout
    "grandchild": ("exited with code 2 during initialize", "spawned a worker, then crashed"),
}  # fmt: skip


@pytest.mark.parametrize("mode", list(CASES))
def test_failure_is_one_line_and_leaves_no_process(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "pids"
    never = mode in ("garbage", "silent", "stubborn", "slow-initialize")
    timeout = NEVER_ANSWER if never else TIMEOUT
    options = ConnectOptions(env={"TOOLLENS_TEST_PIDFILE": str(pidfile)}, timeout=timeout)
    quick_stop(monkeypatch)
    with pytest.raises(TargetError) as info:
        fetch_tools(server("broken.py", mode), options)
    message = str(info.value)
    what, stderr = CASES[mode]
    assert what in message
    if mode == "garbage":
        assert message.endswith(
            "it wrote to stdout what is not JSON-RPC: 'Server ready! Listening on stdio...'; "
            "a stdio server must write only MCP messages to stdout; send logs and prints to stderr"
        )
    if stderr is not None:
        assert f"its last stderr line: {stderr!r}" in message
    else:
        assert "stderr" not in message
    assert "\n" not in message
    assert "Traceback" not in message
    assert type(info.value) is TargetError  # not an ExceptionGroup, nor a subclass
    assert survivors(pidfile) == [], "a server process (or its child) outlived toollens"
    expected = 2 if mode == "grandchild" else 1  # the grandchild records its own pid
    assert len(set(Path(pidfile).read_text().split())) == expected


def test_a_command_that_does_not_exist() -> None:
    with pytest.raises(TargetError) as info:
        fetch_tools("mcp:toollens-no-such-server --stdio", ConnectOptions(timeout=TIMEOUT))
    assert "cannot be started: 'toollens-no-such-server' is not found" in str(info.value)


def test_cli_show_exit_3_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    out, err = io.StringIO(), io.StringIO()
    argv = ["show", server("broken.py", "crash"), "--env", f"TOOLLENS_TEST_PIDFILE={pidfile}"]
    assert main(argv, stdout=out, stderr=err) == EXIT_ERROR
    lines = err.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("toollens: error: MCP server ")
    assert "fatal: config file /etc/broken.toml not found" in lines[0]
    assert out.getvalue() == ""
    assert survivors(pidfile) == []


def test_cli_check_exit_3_with_one_line_and_nothing_on_stdout(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    out, err = io.StringIO(), io.StringIO()
    argv = ["check", server("broken.py", "crash"), "--env", f"TOOLLENS_TEST_PIDFILE={pidfile}"]
    assert main(argv, stdout=out, stderr=err) == EXIT_ERROR
    assert out.getvalue() == ""
    (line,) = err.getvalue().splitlines()
    assert "exited with code 1 during initialize" in line
    assert survivors(pidfile) == []


def test_cli_timeout_and_env_errors() -> None:
    err = io.StringIO()
    code = main(["check", "mcp:python s.py", "--env", "NOEQUALS"], stdout=io.StringIO(), stderr=err)
    assert code == EXIT_ERROR
    assert "--env 'NOEQUALS' is not K=V" in err.getvalue()
    err = io.StringIO()
    code = main(["check", "mcp:python s.py", "--timeout", "0"], stdout=io.StringIO(), stderr=err)
    assert code == EXIT_ERROR
    assert "not a positive number" in err.getvalue()


def test_a_python_without_the_servers_module_says_which_python_ran(tmp_path: Path) -> None:
    # `mcp:python server.py` runs the first python on PATH, as a shell would: when that one
    # lacks what the server imports, the hint names it and the one toollens runs in.
    server_file = tmp_path / "server.py"
    server_file.write_text("import a_module_nobody_installed\n", encoding="utf-8")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    other = fake_bin / "python3"  # another python: a script that runs this one
    other.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    other.chmod(0o755)
    target = f"mcp:{fake_bin / 'python3'} {server_file}"
    with pytest.raises(TargetError) as info:
        fetch_tools(target, ConnectOptions(timeout=10))
    assert "No module named 'a_module_nobody_installed'" in str(info.value)
    hint = info.value.hint or ""
    assert "not the Python toollens runs in" in hint
    assert "mcp:/path/to/python server.py" in hint
