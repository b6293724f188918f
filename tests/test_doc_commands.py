"""Every command the README and the documentation give works as written, in a fresh virtual
environment that holds only the extras the page named before it.

The commands are read from the pages (``support.doc_commands``). The fast tests check what
can be checked without running anything: every extra a page names exists, every
``toollens`` command parses (no flag the code does not have), each command's page installs
the extra it needs, and each command is either run below or has a reason not to be.

The slow tests run them, in a copy of the repository (the commands write ``.venv``,
``scratch/`` and ``site/``) with ``.venv/bin/`` replaced by a virtual environment made with
the running interpreter:

- one environment grows by extras in the order that re-installs nothing: the core
  (``pip install -e .``, as getting-started gives it), then the tokens extra, then the
  README's JupyterLab line and its ``.[tokens,fuzz,mcp]`` line as written. Each command runs
  at the first stage that holds every extra its page named (the fast test keeps the pages
  honest about which extra a command needs, so a later stage's extras cannot hide a page
  that forgot one);
- the documentation build runs in an environment of its own with only ``.[docs]``, so the
  build imports nothing the docs extra does not install (nor ``tests/``);
- a server (``jupyter lab``, ``python -m http.server``) is started, answered on its port,
  and stopped;
- nothing but pip reaches the network: every other Python process of a command runs with a
  ``sitecustomize`` that refuses and records a connection to anything but the loopback,
  and the API keys are removed from the environment (``--online`` commands must stop with
  the one-line error naming the variable to set).

They cost one to three minutes (pip's cache makes the installs quick), so they run once per
CI: in the interpreter of the README's own ``.venv`` (the run ``.ci/run`` makes first), or
anywhere with ``TOOLLENS_DOC_COMMANDS=1``; elsewhere they skip, saying so.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.doc_commands import PAGES, ROOT, Command, doc_commands, program

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

COMMANDS = doc_commands()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EXTRAS = set(PYPROJECT["project"]["optional-dependencies"])
# The extras of the test suite itself: a page that installs them (the README's test
# command) does not make its later commands need nothing.
SUITE_EXTRAS = frozenset({"test", "dev"})
# The stages of the growing environment: what each holds.
STAGES: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "tokens": frozenset({"tokens", "claude-tokens"}),
    "lab": frozenset({"tokens", "claude-tokens", "lab", "fuzz", "mcp"}),
}
# What a toollens command needs beyond the core: the extra that provides it.
NEEDS = {"tokens": "tokens", "fuzz": "fuzz"}
TOKEN_FLAGS = ("--max-tokens", "--max-total-tokens", "--tokens-model")
PROVIDES = {"claude-tokens": {"tokens"}}  # an extra that includes another
BUNDLED = "toollens.examples:get_weather"  # stands in for a reader's tool in --online runs
# The reader's files a page's commands name (tools.py, a server), per page: its commands run
# in a folder holding them, and the output a console block shows must be printed.
FIXTURES = ROOT / "tests" / "doc_fixtures"


def _fixtures(command: Command) -> Path | None:
    folder = FIXTURES / Path(command.page).stem
    return folder if folder.is_dir() else None


def _id(command: Command) -> str:
    return f"{command.page}:{command.line}"


# -- the fast checks --------------------------------------------------------------------------


def test_the_pages_give_commands() -> None:
    pages = {command.page for command in COMMANDS}
    assert {"README.md", "docs/cli.md", "docs/tokens.md"} <= pages, pages
    assert len(COMMANDS) >= 40


_NAMED_EXTRA = re.compile(r"(?:\.|toollens)\[([a-z0-9,-]+)\]")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_extra_a_page_names_exists(page: Path) -> None:
    named = {
        e for f in _NAMED_EXTRA.findall(page.read_text(encoding="utf-8")) for e in f.split(",")
    }
    assert named <= EXTRAS, f"no such extra in pyproject.toml: {sorted(named - EXTRAS)}"


def _toollens_runs() -> Iterator[tuple[Command, list[str]]]:
    for command in COMMANDS:
        for argv in command.simple:
            if program(argv) == "toollens":
                yield command, argv


@pytest.mark.parametrize(
    ("command", "argv"), list(_toollens_runs()), ids=[_id(c) for c, _ in _toollens_runs()]
)
def test_every_documented_toollens_command_parses(command: Command, argv: list[str]) -> None:
    """A flag, a subcommand or a choice the code does not have fails here, not in a reader's
    terminal."""
    from toollens.cli.app import build_parser

    out, err = io.StringIO(), io.StringIO()
    try:
        build_parser(out, err).parse_args(argv[1:])
    except Exception:  # the parser's own stop, after writing the usage error
        pytest.fail(f"{command}: {err.getvalue().strip()}")


def _needed(argv: list[str]) -> set[str]:
    needed = {NEEDS[argv[1]]} if len(argv) > 1 and argv[1] in NEEDS else set()
    if any(arg.startswith("mcp:") for arg in argv):
        needed.add("mcp")
    if any(arg.split("=")[0] in TOKEN_FLAGS for arg in argv):
        needed.add("tokens")
    return needed


def _provided(extras: frozenset[str]) -> set[str]:
    return set(extras).union(*(PROVIDES.get(extra, set()) for extra in extras))


@pytest.mark.parametrize(
    ("command", "argv"), list(_toollens_runs()), ids=[_id(c) for c, _ in _toollens_runs()]
)
def test_each_page_installs_the_extras_its_commands_need(command: Command, argv: list[str]) -> None:
    """The extra is named (an install command, or ``pip install "toollens[X]"`` in the
    prose) on the page before the command that needs it."""
    missing = _needed(argv) - _provided(command.extras | _own_installs(command))
    assert not missing, f"{command} needs the {', '.join(sorted(missing))} extra, named after it"


# -- the plan: where each command runs, or why it does not -----------------------------------


def _own_installs(command: Command) -> frozenset[str]:
    found: set[str] = set()
    for argv in command.simple:
        if program(argv) == "pip" and "install" in argv:
            for arg in argv:
                match = re.fullmatch(r"\.(?:\[([a-z0-9,-]+)\])?", arg)
                if match:
                    found.update((match.group(1) or "").split(",") if match.group(1) else ())
    return frozenset(found)


def _installs_this_checkout(command: Command) -> bool:
    return any(
        program(argv) == "pip"
        and "install" in argv
        and any(re.fullmatch(r"\.(\[.*\])?", a) for a in argv)
        for argv in command.simple
    )


def _project_table(cwd: Path) -> bool:
    pyproject = cwd / "pyproject.toml"
    return pyproject.is_file() and "toollens" in tomllib.loads(pyproject.read_text()).get(
        "tool", {}
    )


def _module_missing(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except ImportError:  # its parent package is missing
        return True


def _readers_own(argv: list[str], cwd: Path) -> str:
    """What a toollens (or jupyter) command names that only the reader has, or ""."""
    words = argv[1:]
    if program(argv) == "toollens":
        words = argv[2:]
    for word in words:
        if word.startswith("mcp:"):
            spec = word[4:].split("#")[0]
            if spec.startswith("http"):
                return "an MCP server over HTTP that the reader runs"
            server = shlex.split(spec)
            if server[0] == "npx":
                return "an MCP server from npm (Node.js and the npm registry)"
            if len(server) > 1 and not (cwd / server[1]).exists():
                return f"the reader's MCP server {server[1]}"
            continue
        file = re.fullmatch(r"([\w./-]+\.(?:py|json|ipynb))(?:[:#][\w*-]+)?", word)
        if file:
            made = file.group(1).split("/")[0] in _made_by_the_docs()
            if not made and not (cwd / file.group(1)).exists():
                return f"the reader's file {file.group(1)}"
            continue
        module = re.fullmatch(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::[\w*]+)?", word)
        top = module.group(1).split(".")[0] if module else ""
        local = bool(top) and ((cwd / f"{top}.py").is_file() or (cwd / top).is_dir())
        if module and (":" in word or "." in word) and not local and _module_missing(top):
            return f"the reader's module {module.group(1)}"
    if program(argv) == "toollens" and _reads_the_table(argv) and not _project_table(cwd):
        return "the reader's [tool.toollens] table (this repository has none)"
    return ""


def _reads_the_table(argv: list[str]) -> bool:
    """Whether the command reads the project's ``[tool.toollens]`` table: no target named."""
    from toollens.cli.app import build_parser

    parsed = vars(build_parser(io.StringIO(), io.StringIO()).parse_args(argv[1:]))
    if parsed.get("agent") or parsed.get("toolset"):
        return False
    if argv[1] == "snapshot" or (argv[1] == "diff" and parsed.get("lock")):
        return True
    if argv[1] in ("check", "tokens"):
        named = parsed.get("targets") or [parsed.get("target")]
        return named in ([], [None], ["project"])
    return False


def _made_by_the_docs() -> set[str]:
    """The folders a documented command makes (``mkdir -p scratch``): the slow test runs
    the command that makes one before those that open a file in it."""
    return {a for c in COMMANDS for argv in c.simple if program(argv) == "mkdir" for a in argv[1:]
            if not a.startswith("-")}  # fmt: skip


@dataclass(frozen=True)
class Plan:
    stage: str = ""  # "core", "tokens", "lab", "docs"; "" when not run
    reason: str = ""  # why it is not run
    substitute: bool = False  # an --online run on the bundled tool instead of the reader's


def plan(command: Command, cwd: Path | None = None) -> Plan:
    cwd = cwd or _fixtures(command) or ROOT
    own = _own_installs(command)
    extras = (command.extras | own) - SUITE_EXTRAS
    programs = [program(argv) for argv in command.simple]
    flat = [word for argv in command.simple for word in argv]
    if "pytest" in flat:
        return Plan(reason="the test suite itself: .ci/run runs the README's command verbatim")
    if {"mutmut", "timeout"} & set(programs):
        return Plan(reason="mutation testing: hours long (docs/mutation-testing.md)")
    if "pip" in programs and not _installs_this_checkout(command):
        return Plan(reason="installs the released toollens from the index; this test installs "
                    "the checkout (pip install -e) with the same extras")  # fmt: skip
    if own & SUITE_EXTRAS:
        return Plan(reason="installs the test suite's extras: the suite's own set-up")
    if "scripts/build_notebooks.py" in flat:
        return Plan(
            reason="rebuilds the lessons in kernels; tests/test_notebooks.py runs the build"
        )
    if "docs" in own:
        return Plan(stage="docs")
    not_installed = sorted(extras - STAGES["lab"] - {"docs"})
    if not_installed:
        needs = ", ".join(not_installed)
        return Plan(reason=f"needs the {needs} extra, which this test does not install")
    for argv in command.simple:
        own_thing = _readers_own(argv, cwd)
        if own_thing and "--online" in argv:
            return Plan(stage=_stage(extras), substitute=True)
        if own_thing:
            return Plan(reason=f"names {own_thing}")
    return Plan(stage=_stage(extras))


def _stage(extras: frozenset[str]) -> str:
    return next(name for name, holds in STAGES.items() if extras <= holds)


KNOWN_PROGRAMS = {"python3", "python", "pip", "toollens", "jupyter", "mkdocs", "mkdir", "cp",
                  "[", "mutmut", "timeout", "voila", "marimo"}  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS, ids=_id)
def test_every_command_is_run_or_has_a_reason(command: Command) -> None:
    """A new kind of command on a page fails here until this test knows how to run it."""
    unknown = {program(argv) for argv in command.simple} - KNOWN_PROGRAMS
    assert not unknown, f"{command}: teach this test to run {sorted(unknown)}"
    decided = plan(command)
    assert bool(decided.stage) != bool(decided.reason), decided


def test_the_readme_and_the_getting_started_page_are_run() -> None:
    """The commands that must run, run: a change to the parser cannot quietly skip them."""
    run = {_id(c) for c in COMMANDS if plan(c).stage}
    readme = {_id(c) for c in COMMANDS if c.page == "README.md" and "pytest" not in c.text}
    assert readme <= run, sorted(readme - run)
    assert any(c.page == "docs/getting-started.md" and plan(c).stage == "core" for c in COMMANDS)
    assert any(plan(c).substitute for c in COMMANDS), "no --online command left to check"


# -- the slow run ---------------------------------------------------------------------------

_MAIN = (ROOT / ".venv").resolve() == Path(sys.prefix).resolve()
run_once = pytest.mark.skipif(
    not (_MAIN or os.environ.get("TOOLLENS_DOC_COMMANDS") == "1"),
    reason="the documented commands run once per CI, in the README's .venv (the first run of "
    ".ci/run); set TOOLLENS_DOC_COMMANDS=1 to run them here",
)

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
        fixtures = _fixtures(command)
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
            result = Result(command, "ok", 0.0, f"ran as part of {_id(first)}")
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
    sub = argv[1]
    patterns = {
        "show": rf"\b{name}\b",
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


def _report(results: list[Result]) -> str:
    rows = [
        f"{r.seconds:6.1f} s  {r.status.splitlines()[0][:60]:<10}  {r.command}  {r.note}"
        for r in results
    ]
    return "\n".join(rows)


def _ordered(commands: list[Command]) -> list[Command]:
    """Each text once (the lab line is on three pages), installs and mkdirs first."""
    seen: dict[str, Command] = {}
    for command in commands:
        seen.setdefault(command.text, command)
    installs = [c for c in seen.values() if _installs_this_checkout(c)]
    makes = [c for c in seen.values() if "mkdir" in c.text and c not in installs]
    return installs + makes + [c for c in seen.values() if c not in installs + makes]


@pytest.fixture
def work() -> Iterator[Path]:
    """A folder of its own, not under pytest's base temp: a concurrent pytest session
    prunes old base temps, and these tests run for minutes."""
    with tempfile.TemporaryDirectory(prefix="toollens-doc-commands-") as folder:
        yield Path(folder)


@pytest.mark.slow
@pytest.mark.network_ok
@run_once
def test_the_documented_commands_run_as_written(work: Path) -> None:
    """Core, then tokens, then the README's lab and tokens,fuzz,mcp lines: each command at
    the first stage that holds the extras its page named."""
    started = time.monotonic()
    runner = Runner(work, "venv")
    subprocess.run([sys.executable, "-m", "venv", str(runner.venv)], check=True)
    plans = {id(c): plan(c) for c in COMMANDS}
    for stage in STAGES:
        commands = [c for c in COMMANDS if plans[id(c)].stage == stage]
        if stage == "tokens":
            runner.install("[claude-tokens]")
        elif stage == "core" and not any(_installs_this_checkout(c) for c in commands):
            runner.install("")  # the pages no longer give the core install
        for command in _ordered(commands):
            runner.run(command, plans[id(command)].substitute)
    _second_runs_keep_the_copies(runner, [c for c in COMMANDS if plans[id(c)].stage])
    report = _report(runner.results)
    print(f"\n{report}\nall: {time.monotonic() - started:.0f} s")
    failed = [r for r in runner.results if r.status != "ok"]
    assert not failed, "\n\n".join(f"{r.command}\n{r.status}" for r in failed)
    assert len(runner.results) >= 15, report


def _second_runs_keep_the_copies(runner: Runner, commands: list[Command]) -> None:
    """A line that copies a lesson and opens JupyterLab on the copy, run again after the
    reader's copy changed (JupyterLab saved into it), keeps the reader's copy and serves."""
    seen = set()
    for command in commands:
        opened = [a[-1] for a in command.simple if program(a) == "jupyter" and "cp" in command.text]
        if not opened or command.text in seen:
            continue
        seen.add(command.text)
        copy = runner.cwd_for(command) / opened[0]
        edited = copy.read_bytes() + b"\n"  # still the same JSON: JupyterLab's save
        copy.write_bytes(edited)
        result = runner.run(command, again=True)
        result.note = f"second run; {result.note}"
        if copy.read_bytes() != edited:
            result.status = f"the second run replaced the reader's {opened[0]}"


@pytest.mark.slow
@pytest.mark.network_ok
@run_once
def test_the_docs_build_in_a_venv_with_only_the_docs_extra(work: Path) -> None:
    """The README's docs line as written: install, ``mkdocs build --strict``, serve."""
    started = time.monotonic()
    runner = Runner(work, "docs-venv")
    commands = [c for c in COMMANDS if plan(c).stage == "docs"]
    assert commands, "no page builds the docs any more: update this test"
    subprocess.run([sys.executable, "-m", "venv", str(runner.venv)], check=True)
    for command in _ordered(commands):
        runner.run(command)
    print(f"\n{_report(runner.results)}\nall: {time.monotonic() - started:.0f} s")
    failed = [r for r in runner.results if r.status != "ok"]
    assert not failed, "\n\n".join(f"{r.command}\n{r.status}" for r in failed)
    assert (runner.cwd / "site" / "index.html").is_file()
    installed = subprocess.run([f"{runner.venv}/bin/pip", "list", "--format", "json"],
                               capture_output=True, text=True, check=True).stdout  # fmt: skip
    names = {p["name"].lower() for p in json.loads(installed)}
    assert not names & {"pytest", "openai-agents", "langchain-core", "hypothesis"}, "not only docs"


def _page_functions(page: Path) -> dict[str, set[str]]:
    """Every function a page's python blocks define, also inside a string they write to a
    file (a server), as the dump of its syntax tree, by name."""
    found: dict[str, set[str]] = {}
    blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)
    trees = [ast.parse(block) for block in blocks]
    for tree in list(trees):
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and "def " in node.value
            ):
                with contextlib.suppress(SyntaxError):
                    trees.append(ast.parse(node.value))
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                found.setdefault(node.name, set()).add(ast.dump(node))
    return found


@pytest.mark.parametrize(
    "fixture",
    sorted(FIXTURES.glob("*/*.py")),
    ids=lambda p: p.relative_to(FIXTURES).as_posix(),
)
def test_a_pages_reader_files_define_what_the_page_shows(fixture: Path) -> None:
    """A function of the reader's files that the page shows is the page's own, to the
    letter (one the page only names, like round-trip's ``divide``, is free)."""
    page = ROOT / "docs" / f"{fixture.parent.name}.md"
    shown = _page_functions(page)
    tree = ast.parse(fixture.read_text(encoding="utf-8"))
    defined = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert defined
    for node in defined:
        if node.name in shown:
            assert ast.dump(node) in shown[node.name], f"{node.name} differs from {page.name}'s"
