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
  and stopped; a line that copies a lesson and opens it runs twice and keeps the copy;
- nothing but pip reaches the network: every other Python process of a command runs with a
  ``sitecustomize`` that refuses and records a connection to anything but the loopback (and
  records a module imported from ``tests/``), and the API keys are removed from the
  environment (``--online`` commands must stop with the one-line error naming the variable
  to set; the bundled tool stands in for the reader's);
- a page whose commands name the reader's own files (``tools.py``, a server) gets them from
  ``tests/doc_fixtures/PAGE/`` (a fast test checks each function there that the page shows
  is the page's to the letter), and what its console blocks show must be printed;
- the exit code is 0 unless the command's comment says otherwise (``# 1: two findings``).

Measured at a load of about 5 on two cores: about 125 s and 95 s (pip's cache makes the
installs quick). They run once per CI: in the interpreter of the README's own ``.venv``
(the run ``.ci/run`` makes first; the other Pythons' venvs live elsewhere), or anywhere
with ``TOOLLENS_DOC_COMMANDS=1``; elsewhere they skip, saying so.
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
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.doc_commands import PAGES, ROOT, Command, doc_commands, program
from support.doc_runner import FIXTURES, Runner, fixtures_for, report

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


OUTPUT_FLAGS = {"-o", "--output", "--html"}  # what follows is written, not read


def _readers_own(argv: list[str], cwd: Path) -> str:
    """What a toollens (or jupyter) command names that only the reader has, or ""."""
    words = argv[1:]
    if program(argv) == "toollens":
        words = argv[2:]
    outputs = {i + 1 for i, word in enumerate(words) if word in OUTPUT_FLAGS}
    for word in (word for i, word in enumerate(words) if i not in outputs):
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
    cwd = cwd or fixtures_for(command) or ROOT
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
    table = report(runner.results)
    print(f"\n{table}\nall: {time.monotonic() - started:.0f} s")
    failed = [r for r in runner.results if r.status != "ok"]
    assert not failed, "\n\n".join(f"{r.command}\n{r.status}" for r in failed)
    assert len(runner.results) >= 15, table


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
    print(f"\n{report(runner.results)}\nall: {time.monotonic() - started:.0f} s")
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


def test_the_site_gives_the_readmes_two_commands_to_the_letter() -> None:
    """The site's home and get-started pages repeat the README's set-up lines: the same."""
    readme = {c.text for c in COMMANDS if c.page == "README.md" and c.text.startswith("python3")}
    assert len(readme) == 2, readme
    for page in ("docs/index.md", "docs/getting-started.md"):
        given = {c.text for c in COMMANDS if c.page == page and c.text.startswith("python3")}
        assert given == readme, (page, given ^ readme)


def test_the_mcp_pages_server_is_the_one_its_commands_run() -> None:
    """docs/mcp.md shows the server a reader saves; its commands run on the fixture."""
    page = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    shown = page.split("## A server to try", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    fixture = (FIXTURES / "mcp" / "server.py").read_text(encoding="utf-8")
    assert fixture.split('"""', 2)[2].lstrip("\n") == shown
