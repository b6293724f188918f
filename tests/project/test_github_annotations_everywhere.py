"""Every ``--format github`` path prints strict workflow commands with ``file=`` (and ``line=``).

One small git project (Python tools, an agent module, a JSON tool, an MCP server listed in
``[tool.toollens]``) and a table of command lines: check (one tool, the project, a module,
``--jobs``, ``--agent``, ``mcp:``, a JSON file, token budgets, description limits) and diff
(two Python tools, two JSON files, two MCP tools, the lock, the lock of a toolset, a removed
tool). Each printed line is parsed by a strict parser written here from GitHub's rules; each
annotation must point at an existing file, and a Python tool at its ``def`` line.
"""

from __future__ import annotations

import importlib
import io
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support import REPO_ROOT
from toollens.cli import main

PACKAGE = "annpkg"
TOOLS_FILE = f"{PACKAGE}/tools.py"
SERVER = REPO_ROOT / "tests" / "mcp" / "mcp_servers" / "raw_tools.py"
MCP = "mcp:" + shlex.join([sys.executable, str(SERVER), "mcp_tools.json"])
MCP_OLD = "mcp:" + shlex.join([sys.executable, str(SERVER), "mcp_old.json"])

TOOLS = '''\
"""Tools of the annotations demo."""


def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue for products that match a query string.

    Args:
        query: what to look for.
        limit: how many results.
    """
    return []


def search_all(query: str, limit: str = "10") -> list[str]:
    """Search every catalogue for the products matching a query string.

    Args:
        query: what to look for.
        limit: how many results.
    """
    return []
'''

# Read in worker processes: each parameter on its own line, so a finding about one
# parameter must point at that line even though the tool's object stays in the worker.
WIDE = '''\
"""Tools whose parameters sit on their own lines."""


def fetch(
    item_id: str,
    retries: int = 3,
) -> str:
    """Fetch one item.

    Args:
        item_id: the item's id.
        retries: how often to try.
    """
    return ""


def store(
    item_id: str,
    body: str = "",
) -> str:
    """Store one item.

    Args:
        item_id: the item's id.
        body: what to store.
    """
    return ""
'''

PING = '''

def ping(host: str, tries: int = 3) -> str:
    """Check that a host answers."""
    return host
'''

OPENAI_AGENT = PING + "\n\nagent = Agent(name='Ops', tools=[function_tool(ping)])\n"
PYDANTIC_AGENT = PING + "\n\nagent = pydantic_ai.Agent('test', name='ops', tools=[ping])\n"

VERBOSE = f'''\
def verbose(query: str) -> str:
    """{"Search the catalogue. " * 60}

    Args:
        query: what to look for.
    """
    return query
'''

# A tool title (its name, for a JSON schema) with every character GitHub reads specially,
# and a would-be workflow command of its own on each line.
ODD_TITLE = "::notice::50%, then\n::error::next: go"
ODD = {
    "title": ODD_TITLE,
    "type": "object",
    "properties": {"opts": {"type": "object", "additionalProperties": True}},
}

PAYLOAD = {
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "lookup",
                "description": "Find a record by its id.",
                "strict": True,
                "parameters": {
                    "type": "object",
                    "properties": {"opts": {"type": "object", "additionalProperties": True}},
                },
            },
        }
    ]
}

MCP_TOOLS = [
    {
        "name": "lookup",
        "description": "Find a customer record by its id.",
        "inputSchema": {
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": ["id"],
            "additionalProperties": False,
        },
    }
]


# -- a strict parser of workflow commands -----------------------------------------------------

_PROPERTY_VALUE = r"(?:[^,:%\r\n]|%(?:25|0D|0A|3A|2C))*"
_COMMAND = re.compile(
    rf"::(?P<level>error|warning|notice) "
    rf"(?P<props>[a-zA-Z]+={_PROPERTY_VALUE}(?:,[a-zA-Z]+={_PROPERTY_VALUE})*)"
    r"::(?P<message>(?:[^%\r\n]|%(?:25|0D|0A))*)"
)
_UNESCAPE = {"%25": "%", "%0D": "\r", "%0A": "\n", "%3A": ":", "%2C": ","}
_KEYS = {"file", "line", "endLine", "col", "endColumn", "title"}


def _unescape(text: str) -> str:
    return re.sub(r"%(?:25|0D|0A|3A|2C)", lambda m: _UNESCAPE[m.group(0)], text)


@dataclass(frozen=True)
class Command:
    level: str
    properties: dict[str, str]
    message: str


def parse_output(out: str) -> list[Command]:
    """Every workflow command of the output; any other line must not look like one."""
    commands = []
    for text in out.splitlines():
        if not text.lstrip().startswith("::"):
            continue  # a log line (a summary or headline)
        match = _COMMAND.fullmatch(text)
        assert match, f"not a well-escaped workflow command: {text!r}"
        properties: dict[str, str] = {}
        for item in match["props"].split(","):
            key, _, value = item.partition("=")
            assert key in _KEYS, text
            assert key not in properties, text
            properties[key] = _unescape(value)
        commands.append(Command(match["level"], properties, _unescape(match["message"])))
    return commands


def test_parser_rejects_what_github_would_misread() -> None:
    good = "::error file=a%2Cb.py,line=3,title=t%3A x::100%25 done%0Anext: ok, fine"
    (command,) = parse_output(good)
    assert command.properties == {"file": "a,b.py", "line": "3", "title": "t: x"}
    assert command.message == "100% done\nnext: ok, fine"
    for bad in (
        "::error file=a,b.py,title=t::m",  # a raw ',' in a property
        "::error title=t: x::m",  # a raw ':' in a property
        "::error title=t::100% done",  # a raw '%' in the message
        "::error title=t::m%3A",  # ':' needs no escape in a message: '%3A' is a raw '%'
        "  ::error title=t::m\r",
    ):
        with pytest.raises(AssertionError):
            parse_output(bad)


# -- the project ------------------------------------------------------------------------------


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def _forget_package() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    importlib.invalidate_caches()


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "project"
    (root / PACKAGE).mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "anndemo"\nversion = "0"\n\n[tool.toollens]\n'
        f'tools = ["{PACKAGE}.tools:*",\n  {json.dumps(MCP)},\n]\n'
        'providers = ["openai-chat"]\nmax_token_growth = 0\n',
        encoding="utf-8",
    )
    files = {
        "__init__.py": "",
        "tools.py": TOOLS,
        "wide.py": WIDE,
        "verbose.py": VERBOSE,
        "app_openai.py": "from agents import Agent, function_tool\n" + OPENAI_AGENT,
        "app_pydantic.py": "import pydantic_ai\n" + PYDANTIC_AGENT,
        "broken.py": "import not_a_module_anywhere\n",
    }
    for name, text in files.items():
        (root / PACKAGE / name).write_text(text, encoding="utf-8")
    (root / "odd.json").write_text(json.dumps(ODD), encoding="utf-8")
    (root / "odd_old.json").write_text(json.dumps({**ODD, "properties": {}}), encoding="utf-8")
    (root / "mcp_tools.json").write_text(json.dumps(MCP_TOOLS), encoding="utf-8")
    (root / "payload.json").write_text(json.dumps(PAYLOAD), encoding="utf-8")
    _git(root, "init", "-q")
    monkeypatch.chdir(root)
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # edits within one second
    yield root
    _forget_package()


def run(*argv: str) -> tuple[int, str, str]:
    _forget_package()
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def line_of(root: Path, file: str, needle: str) -> int:
    lines = (root / file).read_text(encoding="utf-8").splitlines()
    found = [i for i, text in enumerate(lines, start=1) if needle in text]
    assert len(found) == 1, (file, needle, found)
    return found[0]


def def_line(root: Path, name: str, file: str = TOOLS_FILE) -> tuple[str, int]:
    return file, line_of(root, file, f"def {name}(")


def mcp_line(root: Path) -> tuple[str, int]:
    return "pyproject.toml", line_of(root, "pyproject.toml", "mcp:")


def _edit(root: Path, file: str, old: str, new: str) -> None:
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _snapshot(*extra: str) -> None:
    code, _, err = run("snapshot", *extra)
    assert code == 0, err


def _grow_search(root: Path) -> None:
    # A longer description: a description-only change, and more tokens (max_token_growth 0).
    _edit(root, TOOLS_FILE, "that match a query string.", "that match a query string, by name.")


def _add_region(served: Path) -> None:
    # A new required property of lookup: a breaking change.
    changed = json.loads(served.read_text(encoding="utf-8"))
    changed[0]["inputSchema"]["properties"]["region"] = {"type": "string"}
    changed[0]["inputSchema"]["required"].append("region")
    served.write_text(json.dumps(changed), encoding="utf-8")


def _lock_then_edit(root: Path) -> None:
    _snapshot()
    _grow_search(root)
    _add_region(root / "mcp_tools.json")


def _lock_toolset_then_edit(root: Path) -> None:
    _snapshot("--toolset", f"{PACKAGE}.tools")
    _grow_search(root)


def _lock_server_then_edit(root: Path) -> None:
    # A server the project does not list, locked with --toolset: its entry in the lock.
    _old_server(root)
    _snapshot("--toolset", MCP_OLD)
    _add_region(root / "mcp_old.json")


def _lock_then_remove(root: Path) -> None:
    _snapshot()
    text = (root / TOOLS_FILE).read_text(encoding="utf-8")
    (root / TOOLS_FILE).write_text(text[: text.index("\n\ndef search_all")] + "\n")


def _old_search(root: Path) -> None:
    (root / "old_tools.py").write_text(
        TOOLS.replace("that match a query string", "by words"), encoding="utf-8"
    )


def _old_server(root: Path) -> None:
    old = json.loads(json.dumps(MCP_TOOLS))
    old[0]["description"] = "Find a customer."
    (root / "mcp_old.json").write_text(json.dumps(old), encoding="utf-8")


def _removed_line(root: Path) -> tuple[str, int]:
    return "toollens.lock.json", line_of(root, "toollens.lock.json", '    "search_all": {')


def _table_line(root: Path) -> tuple[str, int]:
    return "pyproject.toml", line_of(root, "pyproject.toml", "[tool.toollens]")


Places = Callable[[Path], set[tuple[str, int | None]]]


@dataclass(frozen=True)
class Case:
    argv: tuple[str, ...]
    places: Places  # exactly where the annotations point
    setup: Callable[[Path], None] | None = None
    needs: str | None = None  # a module the path needs
    titles: tuple[str, ...] = ()  # titles (fragments) that must be among the annotations
    codes: tuple[int, ...] = (0, 1, 2)


def _search(r: Path) -> set[tuple[str, int | None]]:
    return {def_line(r, "search")}


def _both(r: Path) -> set[tuple[str, int | None]]:
    return {def_line(r, "search"), def_line(r, "search_all")}


CASES = {
    "check one tool": Case(("check", f"{PACKAGE}.tools:search"), _search),
    "check the project": Case(("check",), lambda r: _both(r) | {mcp_line(r)}, needs="mcp"),
    "check a module": Case(
        ("check", f"{PACKAGE}.tools"), _both, titles=("toolset.parameter-type-conflict",)
    ),
    "check a module, --jobs 2": Case(("check", f"{PACKAGE}.tools", "--jobs", "2"), _both),
    "check project (as a toolset)": Case(
        ("check", "project"), lambda r: _both(r) | {mcp_line(r)}, needs="mcp"
    ),
    # A module that does not import is a source that cannot be read: exit 3 with one line on
    # stderr and nothing on stdout, in every format (tests/mcp/test_failure_policy.py).
    "check a JSON tool list": Case(("check", "payload.json"), lambda r: {("payload.json", None)}),
    "check --agent (OpenAI Agents)": Case(
        ("check", "--agent", f"{PACKAGE}.app_openai:agent"),
        # The SDK keeps no reference to the function: the agent's own line.
        lambda r: {(f"{PACKAGE}/app_openai.py", line_of(r, f"{PACKAGE}/app_openai.py", "agent ="))},
        needs="agents",
    ),
    "check --agent (pydantic-ai)": Case(
        ("check", "--agent", f"{PACKAGE}.app_pydantic:agent"),
        lambda r: {def_line(r, "ping", f"{PACKAGE}/app_pydantic.py")},
        needs="pydantic_ai",
    ),
    "check mcp:": Case(("check", MCP), lambda r: {mcp_line(r)}, needs="mcp"),
    "check a JSON file": Case(("check", "odd.json"), lambda r: {("odd.json", None)}),
    "check --max-tokens": Case(
        ("check", f"{PACKAGE}.tools:search", "--max-tokens", "5"),
        _search,
        titles=("tokens.tool-over-budget",),
    ),
    "check the project, --max-total-tokens": Case(
        ("check", "--max-total-tokens", "5"),
        lambda r: _both(r) | {mcp_line(r), _table_line(r)},
        needs="mcp",
        titles=("tokens.total-over-budget",),
    ),
    "check the project, --max-tokens": Case(
        ("check", "--max-tokens", "5"),
        lambda r: _both(r) | {mcp_line(r)},  # each tool over it, on its def or its server
        needs="mcp",
        titles=("tokens.tool-over-budget",),
    ),
    "check mcp: --client cursor (its cost, a notice)": Case(
        ("check", MCP, "--client", "cursor"),
        lambda r: {mcp_line(r)},
        needs="mcp",
        titles=("toollens cursor: tokens",),
    ),
    "check a description over a limit": Case(
        ("check", f"{PACKAGE}/verbose.py:verbose"),
        lambda r: {def_line(r, "verbose", f"{PACKAGE}/verbose.py")},
        titles=("limits.openai-description-length",),
    ),
    "diff two Python tools": Case(
        ("diff", "old_tools.py:search", f"{TOOLS_FILE}:search"), _search, setup=_old_search
    ),
    "diff two JSON files": Case(
        ("diff", "odd_old.json", "odd.json"), lambda r: {("odd.json", None)}
    ),
    "diff two MCP tools": Case(
        ("diff", f"{MCP_OLD}#lookup", f"{MCP}#lookup"),
        lambda r: {mcp_line(r)},
        setup=_old_server,
        needs="mcp",
    ),
    "diff --lock": Case(
        ("diff", "--lock"),
        lambda r: {def_line(r, "search"), mcp_line(r)},
        setup=_lock_then_edit,
        needs="mcp",
        titles=("tokens.growth", "change to tool lookup"),
    ),
    "diff --lock --toolset": Case(
        ("diff", "--lock", "--toolset", f"{PACKAGE}.tools"),
        _search,
        setup=_lock_toolset_then_edit,
        titles=("tokens.growth",),
    ),
    "diff --lock --toolset mcp:": Case(
        ("diff", "--lock", "--toolset", MCP_OLD),
        lambda r: {("toollens.lock.json", line_of(r, "toollens.lock.json", '    "lookup": {'))},
        setup=_lock_server_then_edit,
        needs="mcp",
        titles=("change to tool lookup",),
    ),
    "diff --lock, a tool removed": Case(
        ("diff", "--lock"), lambda r: {_removed_line(r)}, setup=_lock_then_remove, needs="mcp"
    ),
}


def _case_params() -> list[Any]:  # pytest.param's type is not public
    params = []
    for name, case in CASES.items():
        marks = [pytest.mark.network_ok] if case.needs == "mcp" else []  # a child process
        params.append(pytest.param(case, id=name, marks=marks))
    return params


@pytest.mark.parametrize("case", _case_params())
def test_every_line_is_a_command_at_the_tool(root: Path, case: Case) -> None:
    if case.needs:
        pytest.importorskip(case.needs)
    if "tokens.growth" in case.titles:
        pytest.importorskip("tiktoken")  # the lock records counts only with the tokenizer
    if case.setup is not None:
        case.setup(root)
    code, out, err = run(*case.argv, "--format", "github")
    assert code in case.codes, err
    commands = parse_output(out)
    assert commands, out
    places = set()
    for command in commands:
        file = command.properties.get("file")
        assert file is not None, command
        assert (root / file).is_file(), command
        line = command.properties.get("line")
        places.add((file, int(line) if line is not None else None))
    assert places == case.places(root)
    titles = " | ".join(c.properties["title"] for c in commands)
    for fragment in case.titles:
        assert fragment in titles


def test_special_characters_are_escaped(root: Path) -> None:
    code, out, _ = run("check", "odd.json", "--format", "github")
    assert code == 1
    commands = parse_output(out)  # every '::' line is one well-escaped command
    view = [c for c in commands if "view failed" in c.properties["title"]]
    assert [c.properties["title"] for c in view] == [f"toollens: {ODD_TITLE}: strict view failed"]
    assert any(c.message.startswith(f"{ODD_TITLE}: ") for c in commands)
    raw = out.splitlines()
    assert any("50%25%2C then%0A%3A%3Aerror%3A%3Anext%3A go" in line for line in raw)
    # The title's own '::error::' and '::notice::' never start a line: only the real ones do.
    assert len([line for line in raw if line.lstrip().startswith("::")]) == len(commands)
    assert all(c.level in ("error", "warning", "notice") for c in commands)


def test_jobs_point_at_each_parameter_like_the_serial_run(root: Path) -> None:
    serial = run("check", f"{PACKAGE}.wide", "--format", "github")
    pooled = run("check", f"{PACKAGE}.wide", "--format", "github", "--jobs", "2")
    assert pooled == serial
    places = {
        (c.properties["file"], int(c.properties["line"]))
        for c in parse_output(serial[1])
        if "default-not-applied" in c.properties["title"]
    }
    file = f"{PACKAGE}/wide.py"
    assert places == {
        (file, line_of(root, file, "retries: int")),
        (file, line_of(root, file, 'body: str = ""')),
    }
