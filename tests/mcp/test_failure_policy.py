"""One failure policy under every command: a target that cannot be read at all exits 3 with
exactly one line on stderr naming it once and what to do, and nothing on stdout.

Commands x broken servers (hand-written stdio servers in ``mcp_servers/broken.py``), then
commands x other unreadable targets (a module that fails to import, a missing file), then
the Python API. A readable server whose list holds one bad item is judged, not refused.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from mcp_support import quick_stop, server, survivors

import toollens
from toollens.cli import main

pytest.importorskip("mcp")
pytestmark = [
    pytest.mark.network_ok,  # servers run as child processes (stdio, no sockets)
    pytest.mark.skipif(sys.platform == "win32", reason="pid checks read /proc and POSIX kill"),
]

TIMEOUT = "2"
# A server that never answers fails the same way after any timeout: wait 0.5 s, not 2. The
# garbage server never answers either; its line on stdout comes at start-up (~20 ms after
# the process starts on an idle machine), well within it.
HANG_TIMEOUT = "0.5"
NEVER_ANSWER = ("hang", "garbage")

# broken case -> (the mcp: target, what the one line says)
BROKEN = {
    "crash": (server("broken.py", "crash"), "exited with code 1 during initialize"),
    "hang": (server("broken.py", "silent"), f"did not answer initialize within {HANG_TIMEOUT} s"),
    "garbage": (server("broken.py", "garbage"), "it wrote to stdout what is not JSON-RPC"),
    "not-a-list": (server("broken.py", "not-a-list"), "not a tool list"),
    "exits-mid-session": (
        server("broken.py", "exit-after-initialize"),
        "exited with code 4 during tools/list",
    ),
    "unknown-tool": (
        server("broken.py", "banner", tool="no_such_tool"),
        "has no tool 'no_such_tool'",
    ),
}


def _argv(command: str, target: str, tmp: Path) -> list[str]:
    """The command line running ``command`` on ``target`` (one tool where it takes one)."""
    one = target if "#" in target else f"{target}#echo"
    return {
        "show": ["show", target],
        "check": ["check", target],
        "check-json": ["check", target, "--format", "json"],
        "check-github": ["check", target, "--format", "github"],
        "diff": ["diff", one, one],
        "tokens": ["tokens", target],
        "snapshot": ["snapshot", "--toolset", target],
        "report": ["report", target, "--html", str(tmp / "page.html")],
        "try": ["try", one, "{}"],
        "fuzz": ["fuzz", one, "--dry-run"],
    }[command]


COMMANDS = [
    "show",
    "check",
    "check-json",
    "check-github",
    "diff",
    "tokens",
    "snapshot",
    "report",
    "try",
    "fuzz",
]


def _run(argv: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)  # snapshot writes its lock here; report its page
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _assert_one_line(code: int, out: str, err: str, target: str, says: str) -> None:
    assert code == 3, (out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert line.startswith("toollens: error: ")
    assert says in line
    assert "Traceback" not in line
    # The target is named once: the server as its command line, or the target as written.
    named = target.removeprefix("mcp:").split("#")[0]
    assert line.count(named) == 1, line


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_server_is_exit_3_and_one_line_in_every_command(
    case: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target, says = BROKEN[case]
    pidfile = tmp_path / "pids"
    timeout = HANG_TIMEOUT if case in NEVER_ANSWER else TIMEOUT
    argv = [*_argv(command, target, tmp_path), "--timeout", timeout]
    if command not in ("try", "fuzz"):  # the round-trip commands take no --env
        argv += ["--env", f"TOOLLENS_TEST_PIDFILE={pidfile}"]
    if command == "fuzz":
        # fuzz's --timeout bounds each call; start-up gets at least the MCP default (20 s),
        # made the case's timeout here so a hanging or garbled server costs the loop seconds.
        monkeypatch.setattr("toollens.mcp.DEFAULT_TIMEOUT", float(timeout))
    quick_stop(monkeypatch)
    code, out, err = _run(argv, tmp_path, monkeypatch)
    _assert_one_line(code, out, err, target, says)
    assert not (tmp_path / "page.html").exists()
    assert not (tmp_path / "toollens.lock.json").exists()
    assert survivors(pidfile) == []


BAD_MODULE = "raise RuntimeError('no config')\n"

# other unreadable targets -> (files to write, the target, what the one line says)
UNREADABLE: dict[str, tuple[dict[str, str], str, str]] = {
    "module-fails-to-import": ({"badtools.py": BAD_MODULE}, "badtools", "importing 'badtools'"),
    "no-such-module": ({}, "nosuchtools_xyz", "no module named 'nosuchtools_xyz'"),
    "missing-json-file": ({}, "absent.tools.json", "does not exist"),
    "module-without-tools": ({"notools.py": "LIMIT = 3\n"}, "notools", "has no tools"),
    "empty-tool-list": ({"empty.tools.json": "[]"}, "empty.tools.json", "holds no tools"),
}
# the commands that take a toolset source (diff, try and fuzz take one tool)
SOURCE_COMMANDS = ["show", "check", "check-json", "check-github", "tokens", "snapshot", "report"]


@pytest.mark.parametrize("command", SOURCE_COMMANDS)
@pytest.mark.parametrize("case", list(UNREADABLE))
def test_an_unreadable_source_is_exit_3_and_one_line_in_every_command(
    case: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, target, says = UNREADABLE[case]
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        code, out, err = _run(_argv(command, target, tmp_path), tmp_path, monkeypatch)
    finally:
        for name in files:
            sys.modules.pop(Path(name).stem, None)
    _assert_one_line(code, out, err, target, says)


@pytest.mark.parametrize("case", list(UNREADABLE))
def test_the_python_api_raises_one_target_error(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, target, says = UNREADABLE[case]
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(toollens.TargetError) as info:
            toollens.toolset(target)
    finally:
        for name in files:
            sys.modules.pop(Path(name).stem, None)
    assert says in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("case", ["crash", "not-a-list", "unknown-tool"])
def test_the_python_api_raises_for_a_broken_server(case: str) -> None:
    target, says = BROKEN[case]
    with pytest.raises(toollens.TargetError) as info:
        toollens.toolset(target)
    assert says in str(info.value)


UnreadableObject = Callable[[], object]


def _raising() -> object:
    def tools() -> object:
        yield print
        raise ValueError("generator broke")

    return tools()


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda: 42, "cannot read tools from a int object"),
        (_raising, "ValueError: generator broke"),
    ],
    ids=["unknown-kind", "iterable-raises"],
)
def test_the_python_api_raises_for_an_unreadable_object(make: UnreadableObject, says: str) -> None:
    with pytest.raises(toollens.TargetError) as info:
        toollens.toolset(make())
    assert says in str(info.value)


def test_a_list_with_one_nameless_item_is_judged_not_refused(tmp_path: Path) -> None:
    # The server is readable: the item without a name is one row, the other tool is judged.
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["check", server("broken.py", "malformed"), "--timeout", TIMEOUT], stdout=out, stderr=err
    )
    assert code == 1, err.getvalue()
    text = out.getvalue()
    assert ": 2 tools, 1 could not be read" in text.splitlines()[0]
    assert "#1 (" in text
    assert "could not be read: tool 1 has no string 'name'" in text
    assert err.getvalue() == ""
