"""Helpers for the MCP tests: server command lines, pid files, and proof that a process is gone."""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SERVERS = Path(__file__).parent / "mcp_servers"
PYTHON = sys.executable


def server(script: str, *args: str, tool: str | None = None) -> str:
    """The mcp: target that starts ``tests/mcp/mcp_servers/<script>`` with this interpreter."""
    text = "mcp:" + shlex.join([PYTHON, str(SERVERS / script), *args])
    return text if tool is None else f"{text}#{tool}"


def pids(pidfile: Path) -> list[int]:
    """Every pid the servers (and their children) recorded in ``pidfile``."""
    if not pidfile.exists():
        return []
    return [int(line) for line in pidfile.read_text(encoding="utf-8").split()]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie counts as gone: it runs nothing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process reused the pid
        return True
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        try:
            return stat.read_text().split(") ", 1)[1][0] != "Z"
        except (OSError, IndexError):
            return False
    return True


def survivors(pidfile: Path, grace: float = 3.0) -> list[int]:
    """The recorded processes still running after ``grace`` seconds of reaping."""
    deadline = time.monotonic() + grace
    left = [p for p in pids(pidfile) if alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [p for p in left if alive(p)]
    return left


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, seconds: float = 20.0) -> None:
    """Return once something accepts connections on 127.0.0.1:``port``."""
    import socket

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port}")


@contextlib.contextmanager
def http_server(script: str, *args: str) -> Iterator[str]:
    """Serve ``mcp_servers/<script>`` over streamable HTTP on a free loopback port; yields
    its URL (``http://127.0.0.1:PORT/mcp``) and stops it afterwards."""
    port = free_port()
    command = [PYTHON, str(SERVERS / script), *args, "--http", str(port)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# How long toollens gives a server to exit once its stdin is closed, and between SIGTERM and
# SIGKILL (1 s each in use). The failure tests shorten both: what they check is that no
# process survives, and a silent or stubborn server would otherwise cost each test 1-2 s of
# waiting.
QUICK_STOP = 0.2


def quick_stop(monkeypatch: Any) -> None:
    """Shorten the grace periods of stopping a server (see :data:`QUICK_STOP`)."""
    monkeypatch.setattr("toollens.mcp.stdio._GRACE", QUICK_STOP)
    monkeypatch.setattr("toollens.mcp.stdio._TERM_GRACE", QUICK_STOP)
