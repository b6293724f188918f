"""Running a documented command as its page writes it: in a copy of the repository (or a
folder of the page's reader files), with ``.venv/bin/`` replaced by a test venv, a server
started, answered and stopped, and nothing but pip reaching the network
(tests/test_doc_commands.py says what runs where).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from support.doc_commands import ROOT, Command, program

BUNDLED = "toollens.examples:get_weather"  # stands in for a reader's tool in --online runs
# The reader's files a page's commands name (tools.py, a server), per page: its commands run
# in a folder holding them, and the output a console block shows must be printed.
FIXTURES = ROOT / "tests" / "doc_fixtures"


def fixtures_for(command: Command) -> Path | None:
    folder = FIXTURES / Path(command.page).stem
    return folder if folder.is_dir() else None


# Every Python process of a command (pip's excepted: CI lets it reach the index) refuses
# and records a connection to anything but the loopback or a local socket.
_GUARD = """
import os, socket, sys

_LOG = os.environ.get("TOOLLENS_DOC_NETWORK_LOG")
_LOCAL = ("localhost", "127.0.0.1", "::1", "0.0.0.0", "")
_TESTS = os.environ.get("TOOLLENS_DOC_TESTS_DIR")
if _LOG and _TESTS:  # nothing a documented command runs imports the repository's tests/
    import atexit

    def _imported_tests():
        for name, module in list(sys.modules.items()):
            path = os.path.realpath(getattr(module, "__file__", None) or "")
            if path.startswith(_TESTS + os.sep):
                with open(_LOG, "a", encoding="utf-8") as log:
                    log.write(f"{sys.argv!r}: imported {name} from tests/\\n")

    atexit.register(_imported_tests)

_ARGV0 = sys.argv[0] if sys.argv else ""
_PIP = os.path.basename(_ARGV0) in ("pip", "pip3") or "pip" in _ARGV0.split(os.sep)
if _LOG and not _PIP:

    def _refuse(what):
        with open(_LOG, "a", encoding="utf-8") as log:
            log.write(f"{sys.argv!r}: {what}\\n")
        raise OSError(f"the documentation test refuses a network connection: {what}")

    def _local(address):
        host = str(address[0]) if isinstance(address, tuple) else "local socket"
        return host == "local socket" or host in _LOCAL or host.startswith("127.")

    _connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex
    _getaddrinfo = socket.getaddrinfo

    def connect(self, address):
        return _connect(self, address) if _local(address) else _refuse(f"connect {address!r}")

    def connect_ex(self, address):
        return _connect_ex(self, address) if _local(address) else _refuse(f"connect {address!r}")

    def getaddrinfo(host, *args, **kwargs):
        if host is None or str(host) in _LOCAL or str(host).startswith("127."):
            return _getaddrinfo(host, *args, **kwargs)
        return _refuse(f"resolve {host!r}")

    socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
    socket.getaddrinfo = getaddrinfo
"""

_KEYS = re.compile(r".*_API_KEY$|^GOOGLE_GENAI_USE_VERTEXAI$|^VIRTUAL_ENV$|^PYTHON(PATH|HOME)$")
_URL = re.compile(r"http://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::\]):(\d+)/[^\s)]*")
_SERVING = re.compile(r"^Serving HTTP on .* port \d+ \(http://")
_SERVERS = {"jupyter": ("lab",), "python": ("-m", "http.server")}


@dataclass
class Result:
    command: Command
    status: str  # "ok" or what went wrong
    seconds: float
    note: str = ""


class Runner:
    """Runs commands as a page writes them, in a copy of the repository and one venv."""

    def __init__(self, work: Path, name: str) -> None:
        self.cwd = work / "repo"
        if not self.cwd.exists():
            ignored = [
                p.strip().rstrip("/") for p in (ROOT / ".gitignore").read_text().splitlines()
            ]
            skip = shutil.ignore_patterns(".git", *[p for p in ignored if p])
            shutil.copytree(ROOT, self.cwd, symlinks=True, ignore=skip)
        self.venv = work / name
        guard = work / "guard"
        guard.mkdir(exist_ok=True)
        (guard / "sitecustomize.py").write_text(_GUARD, encoding="utf-8")
        self.network_log = work / f"{name}-network.log"
        home = work / f"{name}-jupyter"
        env = {k: v for k, v in os.environ.items() if not _KEYS.match(k)}
        env.update(
            PATH=f"{self.venv}/bin{os.pathsep}{env.get('PATH', '')}",
            PYTHONPATH=str(guard),
            PYTHONUNBUFFERED="1",
            TOOLLENS_DOC_NETWORK_LOG=str(self.network_log),
            TOOLLENS_DOC_TESTS_DIR=os.path.realpath(self.cwd / "tests"),
            BROWSER="true",  # jupyter lab opens no browser
            JUPYTER_CONFIG_DIR=str(home / "config"),
            JUPYTER_DATA_DIR=str(home / "data"),
            JUPYTER_RUNTIME_DIR=str(home / "runtime"),
            IPYTHONDIR=str(home / "ipython"),
        )
        self.env = env
        if os.geteuid() == 0:  # CI's container: JupyterLab refuses root unless configured
            (home / "config").mkdir(parents=True, exist_ok=True)
            (home / "config" / "jupyter_server_config.py").write_text(
                "c.ServerApp.allow_root = True\n"
            )
        self.results: list[Result] = []
        # each simple command run, with the first command that ran it: a page repeating
        # another's install or server is not run twice
        self.ran: dict[tuple[str, ...], Command] = {}

    def shell(self, text: str) -> str:
        """The line with the README's venv replaced by this test's."""
        text = text.replace(".venv/bin/", f"{self.venv}/bin/")
        return text.replace(
            "python3 -m venv .venv", f"{shlex.quote(sys.executable)} -m venv {self.venv}"
        )

    def install(self, extras: str) -> None:
        """The test's own step between stages: this checkout with the extras."""
        started = time.monotonic()
        pip = [f"{self.venv}/bin/pip", "install", "-q", "-e", f".{extras}"]
        done = subprocess.run(pip, cwd=self.cwd, env=self.env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        step = Command("(this test)", 0, shlex.join(pip[1:]).replace(str(self.venv), ".venv"))
        self.results.append(Result(step, "ok", time.monotonic() - started, "between stages"))

    def cwd_for(self, command: Command) -> Path:
        """The repository's copy, or a folder of the page's reader files."""
        fixtures = fixtures_for(command)
        if fixtures is None:
            return self.cwd
        folder = self.cwd.parent / "pages" / fixtures.name
        if not folder.exists():
            shutil.copytree(fixtures, folder)
        return folder

    def run(self, command: Command, substitute: bool = False, again: bool = False) -> Result:
        started = time.monotonic()
        simple = [(program(argv), *argv[1:]) for argv in command.simple]
        if not (substitute or again) and all(argv in self.ran for argv in simple):
            first = self.ran[simple[-1]]
            result = Result(command, "ok", 0.0, f"ran as part of {first.page}:{first.line}")
            self.results.append(result)
            return result
        for argv in simple:
            self.ran.setdefault(argv, command)
        text, note = self.shell(command.text), ""
        if substitute:  # an --online run: the bundled tool stands in for the reader's
            words = shlex.split(command.text)
            words[2] = BUNDLED
            text, note = self.shell(shlex.join(words)), f"target replaced by {BUNDLED}"
        before = self.network_log.read_text() if self.network_log.exists() else ""
        if any(_serves(argv) for argv in command.simple):
            status, extra = self._serve(text, self.cwd_for(command))
        else:
            status, extra = self._once(command, text, substitute, self.cwd_for(command))
        after = self.network_log.read_text() if self.network_log.exists() else ""
        if after != before:  # a connection refused, or a module of tests/ imported
            status = f"reached past the documented extras: {after[len(before) :].strip()}"
        result = Result(
            command, status, time.monotonic() - started, "; ".join(filter(None, [note, extra]))
        )
        self.results.append(result)
        return result

    def _once(self, command: Command, text: str, substitute: bool, cwd: Path) -> tuple[str, str]:
        done = subprocess.run(["bash", "-c", text], cwd=cwd, env=self.env,
                              capture_output=True, text=True, timeout=600)  # fmt: skip
        expected = _expected_exit(command, substitute)
        if command.output and not command.comment:  # the output shown is the assertion
            expected = done.returncode if done.returncode in (0, 1, 2) else 0
        shown = (
            f"exit {done.returncode}\n--- stdout\n{done.stdout[-3000:]}"
            f"\n--- stderr\n{done.stderr[-3000:]}"
        )
        if done.returncode != expected:
            return f"exit {done.returncode}, the page implies {expected}:\n{shown}", ""
        if "Traceback" in done.stderr:
            return f"a traceback:\n{shown}", ""
        problem = _output_problem(command, done.stdout, done.stderr, substitute)
        problem = problem or _not_shown(command.output, done.stdout + done.stderr)
        return (f"{problem}:\n{shown}" if problem else "ok"), f"exit {done.returncode}"

    def _serve(self, text: str, cwd: Path) -> tuple[str, str]:
        """Start the server, fetch its first page, stop it."""
        if "http.server" in text and not _port_free(8000):
            text, moved = text + " 0", "port 8000 was taken: served on a free port"
        else:
            moved = ""
        process = subprocess.Popen(["bash", "-c", text], cwd=cwd, env=self.env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   start_new_session=True)  # fmt: skip
        # http.server: "Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ..."
        ready = _SERVING if "http.server" in text else _URL
        lines: list[str] = []
        reader = threading.Thread(
            target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True
        )  # type: ignore[union-attr]
        reader.start()
        try:
            deadline = time.monotonic() + 600
            url = None
            while url is None and time.monotonic() < deadline and process.poll() is None:
                url = next((_URL.search(line) for line in list(lines) if ready.search(line)), None)
                time.sleep(0.2)
            if url is None:
                return "never served:\n" + "".join(lines)[-3000:], moved
            address = url.group(0).replace("0.0.0.0", "127.0.0.1").replace("[::]", "127.0.0.1")
            with urllib.request.urlopen(address, timeout=30) as answer:
                body = answer.read().decode("utf-8", "replace")
            if "http.server" in text and "toollens" not in body:
                return f"the site's index does not name toollens:\n{body[:500]}", moved
            if "jupyter" in text and "JupyterLab" not in body:
                return f"not JupyterLab:\n{body[:500]}", moved
            return "ok", "; ".join(
                filter(None, [f"served {answer.status} on port {url.group(1)}", moved])
            )
        finally:
            _stop(process)


def _serves(argv: list[str]) -> bool:
    """``jupyter lab ...``, ``python -m http.server ...``: a command that blocks, serving."""
    words = _SERVERS.get(program(argv))
    return words is not None and tuple(argv[1 : 1 + len(words)]) == words


def _stop(process: subprocess.Popen[str]) -> None:
    """Stop the server and what its shell line started (its own session)."""
    for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _port_free(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def _expected_exit(command: Command, substitute: bool) -> int:
    """0, or what the command's comment says (``# 1: two findings``); an --online run
    without a key stops with 3."""
    if substitute:
        return 3
    said = re.match(r"(?:exits? )?([0-3])\b", command.comment)
    return int(said.group(1)) if said else 0


def _output_problem(command: Command, stdout: str, stderr: str, substitute: bool) -> str:
    """What is wrong with the output of a toollens command, or ""."""
    argv = next((a for a in command.simple if program(a) == "toollens"), None)
    if argv is None:
        return ""
    if substitute:
        lines = stderr.strip().splitlines()
        if len(lines) != 1 or not re.search(r"set [A-Z_]+_API_KEY", lines[0]):
            return "an --online run without a key must stop with one line naming the variable"
        return ""
    if not stdout.strip():
        return "printed nothing"
    if "json" in argv and "--format" in argv:
        try:
            json.loads(stdout)
        except ValueError as exc:
            return f"--format json printed no JSON ({exc})"
        return ""
    if command.output:  # the lines the page shows are the check (_not_shown)
        return ""
    target = next((a for a in argv[2:] if ":" in a and not a.startswith("-")), "")
    name = target.split("#")[-1] if target.startswith("mcp:") else target.split(":")[-1]
    name = re.escape(name) if name else r"\S+"  # a module without :FUNC: each function
    sub = argv[1]
    patterns = {
        "show": r"^== Strict schema =+$(?s:.*)\"properties\"",  # the schema the model gets
        "check": rf"\b{name}\b",
        "try": rf"^tool\s+{name}$",
        "fuzz": rf"^fuzz {name}: \d+ arguments",
        "tokens": r"^\d+ tokens for \S+ \(|\"total\": \d+",
    }
    pattern = patterns.get(sub)
    if pattern and not re.search(pattern, stdout, re.M):
        return f"the output does not match {pattern!r}"
    return ""


def _not_shown(shown: tuple[str, ...], printed: str) -> str:
    """The first line a console block shows that the command did not print (in order; a
    line of ``...`` stands for lines left out), or ""."""
    lines = [line.rstrip() for line in printed.splitlines()]
    at = 0
    for line in (line.rstrip() for line in shown):
        if not line or line.strip() == "...":
            continue
        try:
            at = lines.index(line, at) + 1
        except ValueError:
            return f"the page shows a line it did not print: {line!r}"
    return ""


def report(results: list[Result]) -> str:
    rows = [
        f"{r.seconds:6.1f} s  {r.status.splitlines()[0][:60]:<10}  {r.command}  {r.note}"
        for r in results
    ]
    return "\n".join(rows)
