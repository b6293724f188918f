"""Start and always stop JupyterLab and Voila for the browser tests, isolated in a tmp dir.

Only processes these helpers start are ever signalled: the server by its own process group
(it is started in a new session), and the kernels it started by PID, found through our
private runtime directory in their command line (kernels run in sessions of their own, so
killing the server's group misses them). A reaper process watches the test process and does
the same cleanup if the test run is killed before its own teardown runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI containers run as root
    "--disable-gpu",
    "--disable-dev-shm-usage",  # small /dev/shm in containers
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def playwright_api() -> Any:
    """Playwright's sync API; skips the calling test module when Chromium or Playwright is
    missing (call it at module level)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (set CHROMIUM=...)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


REAPER_DEADLINE_S = 3600  # a server never outlives a stuck run by more than this

# Runs detached; kills the server group and our kernels when the test process is gone or
# the deadline passes. argv: parent pid, server pgid, marker, deadline (epoch seconds).
_REAPER = r"""
import os, shutil, signal, sys, time
parent, pgid, marker, deadline = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False
while alive(parent) and alive(pgid) and time.time() < deadline:
    time.sleep(0.5)
if alive(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
for entry in os.listdir("/proc"):
    if entry.isdigit() and int(entry) != os.getpid():
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmd:
            try:
                os.kill(int(entry), signal.SIGKILL)
            except OSError:
                pass
if not alive(parent):
    time.sleep(1)
    shutil.rmtree(marker, ignore_errors=True)
"""


@dataclass
class Server:
    """A running Jupyter server of ours."""

    kind: str  # "lab", "voila" or "marimo"
    proc: subprocess.Popen[bytes]
    base: str
    token: str
    tmp: Path
    work: Path
    log_path: Path
    reaper: subprocess.Popen[bytes]
    log_file: IO[str] = field(repr=False)
    leftovers: list[int] = field(default_factory=list)

    def wait_ready(self, timeout: float = 120) -> None:
        """Block until the server answers: Lab's status API, Voila's TCP port.

        Voila runs a notebook on every GET of a page and answers 403 on /api paths in some
        modes, so an open port is the readiness signal there.
        """
        if self.kind == "lab":
            _wait_http(self.url("/api/status"), self.proc, timeout)
        else:
            _wait_port(int(self.base.rsplit(":", 1)[1]), self.proc, timeout)

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        name = "access_token" if self.kind == "marimo" else "token"
        return f"{self.base}{path}{sep}{name}={self.token}"

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def venv_bin(name: str) -> str:
    """The console script next to the running interpreter (the venv's), else PATH's."""
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else (shutil.which(name) or name)


def make_tmp(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix))


def isolated_env(tmp: Path) -> dict[str, str]:
    """Private Jupyter/IPython dirs under tmp; the runtime dir also marks our kernels."""
    env = dict(os.environ)
    for key, sub in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
        ("JUPYTERLAB_SETTINGS_DIR", "lab-settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
    ):
        path = tmp / sub
        path.mkdir(parents=True, exist_ok=True)
        env[key] = str(path)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env["PYTHONUNBUFFERED"] = "1"
    # Kernels run in the notebooks' folder: a relative entry (PYTHONPATH=src, how a worktree
    # runs its own code) would point there and load another checkout's toollens.
    if env.get("PYTHONPATH"):
        parts = env["PYTHONPATH"].split(os.pathsep)
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) if p else p for p in parts)
    return env


def _write_lab_config(tmp: Path) -> None:
    # No news or update checks (offline), and window.jupyterapp for kernel readiness.
    (tmp / "config" / "jupyter_server_config.json").write_text(
        json.dumps(
            {
                "LabApp": {
                    "news_url": None,
                    "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
                    "expose_app_in_browser": True,
                },
                # Notebook 7 runs on the same server; it exposes its app only when asked too.
                "JupyterNotebookApp": {"expose_app_in_browser": True},
            }
        )
    )
    settings = tmp / "lab-settings" / "@jupyterlab"
    notify = settings / "apputils-extension"
    notify.mkdir(parents=True, exist_ok=True)
    # The "get notified about Jupyter news?" toast would cover the screenshots.
    (notify / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    tracker = settings / "notebook-extension"
    tracker.mkdir(parents=True, exist_ok=True)
    # Keep every cell in the DOM (Lab 4 virtualizes off-screen cells by default).
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))


def _wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early with rc={proc.returncode}")
        with socket.socket() as s:
            s.settimeout(1)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"port {port} not open after {timeout}s")


def _wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early with rc={proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except Exception as exc:  # connection refused, 5xx while starting: keep polling
            last = exc
        time.sleep(0.3)
    raise TimeoutError(f"{url} not ready after {timeout}s: {last}")


def _start(
    kind: str, cmd: list[str], tmp: Path, work: Path, env: dict[str, str], port: int, token: str
) -> Server:
    log_path = tmp / f"{kind}.log"
    log_file = open(log_path, "w")  # noqa: SIM115 - closed in stop()
    proc = subprocess.Popen(
        cmd, cwd=work, env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True
    )
    reaper = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _REAPER,
            str(os.getpid()),
            str(proc.pid),
            str(tmp),
            str(time.time() + REAPER_DEADLINE_S),
        ],
        start_new_session=True,  # must survive a kill of the test process's group
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return Server(
        kind, proc, f"http://127.0.0.1:{port}", token, tmp, work, log_path, reaper, log_file
    )


def start_lab(tmp: Path, work: Path) -> Server:
    """Start JupyterLab 4 on 127.0.0.1 with a random token, serving ``work``; see ``wait_ready``."""
    env = isolated_env(tmp)
    _write_lab_config(tmp)
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        venv_bin("jupyter-lab"),
        "--no-browser",
        "--allow-root",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={work}",
    ]
    return _start("lab", cmd, tmp, work, env, port, token)


def start_voila(tmp: Path, work: Path) -> Server:
    """Start Voila in directory mode (``/voila/render/<name>.ipynb``) on 127.0.0.1, with a token."""
    env = isolated_env(tmp)
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        venv_bin("voila"),
        str(work),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        f"--token={token}",
        "--show_tracebacks=True",
        # Voila keeps kernel connection files in the system tmp dir by default; ours go
        # under tmp so the kernels' command lines carry our marker.
        f"--Voila.connection_dir_root={tmp / 'runtime'}",
    ]
    return _start("voila", cmd, tmp, work, env, port, token)


def start_marimo(tmp: Path, work: Path, app: str) -> Server:
    """Serve the marimo app ``work/app`` with ``marimo run`` on 127.0.0.1, with a token."""
    env = isolated_env(tmp)
    env["MARIMO_SKIP_UPDATE_CHECK"] = "1"
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        venv_bin("marimo"),
        "run",
        str(work / app),
        "--headless",
        "--host=127.0.0.1",
        f"--port={port}",
        f"--token-password={token}",
        "--no-sandbox",
        "--no-check",
    ]
    server = _start("marimo", cmd, tmp, work, env, port, token)
    server.kind = "marimo"
    return server


def our_processes(marker: str) -> list[int]:
    """PIDs other than ours whose command line mentions ``marker`` (our tmp dir)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmd:
            pids.append(int(entry.name))
    return pids


def stop(server: Server) -> list[int]:
    """Shut the server and every kernel it started down; returns PIDs that had to be killed."""
    proc = server.proc
    if server.kind == "lab" and proc.poll() is None:
        # Graceful: Jupyter Server shuts its kernels down first.
        with contextlib.suppress(Exception):
            request = urllib.request.Request(
                f"{server.base}/api/shutdown",
                method="POST",
                data=b"",
                headers={"Authorization": f"token {server.token}"},
            )
            urllib.request.urlopen(request, timeout=5).read()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        if proc.poll() is not None:
            break
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)  # the group of our own child only
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(wait)
    # The reaper is excluded: its command line names the tmp dir too.
    left = [pid for pid in our_processes(str(server.tmp)) if pid != server.reaper.pid]
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if server.reaper.poll() is None:
        server.reaper.kill()
    server.reaper.wait(5)
    server.log_file.close()
    server.leftovers = left
    return left


def launch_browser(pw: Any, tmp: Path, width: int = 1400, height: int = 1000) -> Any:
    """Debian's Chromium through Playwright (never a downloaded browser), fresh profile."""
    return pw.chromium.launch_persistent_context(
        user_data_dir=str(tmp / "chrome-profile"),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        # Show scrollbars as a user sees them, so screenshots show what scrolls.
        ignore_default_args=["--hide-scrollbars"],
        viewport={"width": width, "height": height},
    )


def offline_browser(pw: Any) -> Any:
    """Chromium for a page read from a file: headless, no profile to keep."""
    return pw.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    )


def refuse_network(page: Any, requests: list[str]) -> None:
    """Let ``page`` load files only: every other request is recorded in ``requests`` and
    refused (a page that needs the network fails)."""
    page.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith("file:")
            else (requests.append(route.request.url), route.abort())
        ),
    )


@contextlib.contextmanager
def offline_page(
    sync_api: Any, page_file: Path, width: int = 1400, tolerated: str | None = None
) -> Iterator[Any]:
    """A page ``width`` px wide on ``page_file`` in an offline Chromium; when the block ends,
    fails if the page raised an error (one whose text holds ``tolerated`` excepted) or asked
    for anything but files."""
    requests: list[str] = []
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = offline_browser(pw)
        try:
            page = browser.new_page(viewport={"width": width, "height": 900})
            refuse_network(page, requests)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(page_file.as_uri())
            yield page
        finally:
            browser.close()
    assert [e for e in errors if tolerated is None or tolerated not in e] == []
    assert requests == []
