"""The project workflow: [tool.toollens], toollens.lock.json, diff --lock, GitHub annotations.

Every case runs in a temporary git repository holding a small package. Each edit is checked
three ways: the exit code, the change list (which must be the one `toollens diff OLD NEW`
gives for the same function), and the GitHub annotation lines (file and line).
"""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from support import REPO_ROOT
from toollens.cli import main
from toollens.project.github import Annotation, escape_data, escape_property

PACKAGE = "lockdemo"

PYPROJECT = f"""\
[project]
name = "lockdemo"
version = "0"

[tool.toollens]
tools = ["{PACKAGE}.tools:*"]
providers = ["openai-chat", "anthropic"]
"""

TOOLS = '''\
"""Tools of the demo project."""

from typing import Annotated

from pydantic import Field


def search(
    query: str,
    limit: int = 10,
) -> list[str]:
    """Search the catalogue.

    Args:
        query: words to look for.
        limit: how many results to return.
    """
    return []


def fetch(
    item_id: Annotated[str, Field(alias="id", description="the item's id")],
) -> str:
    """Fetch one item by its id."""
    return ""


def _private_helper() -> None:
    """Not a tool: private names are left out of a module wildcard."""
'''

Run = Callable[..., tuple[int, str, str]]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with a package, its [tool.toollens] table, and a commit."""
    root = tmp_path / "project"
    (root / PACKAGE).mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / PACKAGE / "__init__.py").write_text("", encoding="utf-8")
    (root / PACKAGE / "tools.py").write_text(TOOLS, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "tools")
    monkeypatch.chdir(root)
    # Each command re-imports the package, as a fresh process would: an edit made within
    # the same second must not be hidden by a cached module or bytecode.
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    yield root
    _forget_package()


def _forget_package() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    importlib.invalidate_caches()


@pytest.fixture
def run(repo: Path) -> Run:
    def run(*argv: str) -> tuple[int, str, str]:
        _forget_package()
        out, err = io.StringIO(), io.StringIO()
        code = main(list(argv), stdout=out, stderr=err)
        return code, out.getvalue(), err.getvalue()

    return run


def _edit(repo: Path, old: str, new: str) -> None:
    path = repo / PACKAGE / "tools.py"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _line(repo: Path, needle: str, file: str = f"{PACKAGE}/tools.py") -> int:
    lines = (repo / file).read_text(encoding="utf-8").splitlines()
    found = [i for i, text in enumerate(lines, start=1) if needle in text]
    assert len(found) == 1, (needle, found)
    return found[0]


_ANNOTATION = re.compile(r"^::(error|warning|notice) file=([^,]*),line=(\d+),title=([^:]*)::(.*)$")


def _annotations(output: str) -> list[tuple[str, str, int, str]]:
    """(level, file, line, message) of every workflow command in the output."""
    found = []
    for text in output.splitlines():
        if text.startswith("::"):
            match = _ANNOTATION.match(text)
            assert match, text
            level, file, line, _title, message = match.groups()
            found.append((level, file, int(line), message))
    return found


def _changes(out: str, tool: str) -> list[tuple[str, str, str, str]]:
    data = json.loads(out)["tools"][tool]
    return [
        (c["pointer"], c["keyword"], c["kind"], c["severity"])
        for c in data["tool"]["changes"] + data["output"]["changes"]
    ]


def _engine_changes(repo: Path, run: Run, tool: str) -> list[tuple[str, str, str, str]]:
    """The change list `toollens diff OLD NEW` gives for the committed and the edited tool."""
    old = repo / "old_tools.py"
    old.write_text(
        subprocess.run(
            ["git", "show", f"HEAD:{PACKAGE}/tools.py"], cwd=repo, capture_output=True, text=True
        ).stdout,
        encoding="utf-8",
    )
    try:
        code, out, err = run(
            "diff", f"old_tools.py:{tool}", f"{PACKAGE}/tools.py:{tool}", "--format", "json"
        )
    finally:
        old.unlink()
    assert code in (0, 1, 2), err
    return [
        (c["pointer"], c["keyword"], c["kind"], c["severity"]) for c in json.loads(out)["changes"]
    ]


def _snapshot(run: Run, repo: Path) -> str:
    code, out, err = run("snapshot")
    assert (code, err) == (0, ""), err
    assert out == "wrote toollens.lock.json: 2 tools (fetch, search)\n"
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "lock")
    return (repo / "toollens.lock.json").read_text(encoding="utf-8")


# -- snapshot -------------------------------------------------------------------------------


def test_snapshot_records_what_each_provider_receives(run: Run, repo: Path) -> None:
    lock = json.loads(_snapshot(run, repo))
    assert lock["lock_version"] == 1
    assert list(lock["tools"]) == ["fetch", "search"]  # sorted by name
    search = lock["tools"]["search"]
    assert list(search) == sorted(search)
    assert search["name"] == "search"
    assert search["description"] == "Search the catalogue."
    assert search["strict"] is True
    assert search["parameters"]["required"] == ["query", "limit"]  # strict: all required
    assert search["parameters"]["additionalProperties"] is False
    assert search["output"] == {
        "kind": "wrapped",
        "name": "list[str]",
        "schema": search["output"]["schema"],
        "strict": True,
    }
    assert search["output"]["schema"]["required"] == ["response"]
    assert sorted(search["providers"]) == ["anthropic", "openai-chat"]
    assert search["providers"]["openai-chat"]["function"]["parameters"] == search["parameters"]
    assert search["providers"]["anthropic"]["input_schema"]["properties"].keys() == {
        "query",
        "limit",
    }
    assert "_private_helper" not in lock["tools"]


def test_lock_written_twice_is_byte_identical(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    first = (repo / "toollens.lock.json").read_bytes()
    # A second run in a fresh interpreter with another hash seed writes the same bytes.
    env = {"PYTHONHASHSEED": "12345", "PYTHONDONTWRITEBYTECODE": "1", "PATH": ""}
    # the same toollens as this process (a PYTHONPATH checkout wins over an installed one)
    env |= {k: v for k, v in os.environ.items() if k == "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-m", "toollens", "snapshot"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    second = (repo / "toollens.lock.json").read_bytes()
    assert second == first
    assert first.endswith(b"}\n")
    assert b"\r" not in first
    assert first.decode("utf-8").startswith('{\n  "lock_version": 1,\n  "tools": {\n')
    code, out, _ = run("diff", "--lock")
    assert code == 0
    assert out == "toollens.lock.json: no changes to 2 tools; lock up to date\n"


# -- the edits ------------------------------------------------------------------------------


def test_description_only_edit_exits_1(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    _edit(repo, "Search the catalogue.", "Search the whole catalogue.")
    code, out, _ = run("diff", "--lock", "--format", "json")
    assert code == 1
    assert _changes(out, "search") == [("", "tool.description", "changed", "description-only")]
    assert _changes(out, "search") == _engine_changes(repo, run, "search")
    assert json.loads(out)["tools"]["fetch"]["status"] == "unchanged"
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert code == 1
    assert _annotations(out) == [
        (
            "notice",
            f"{PACKAGE}/tools.py",
            _line(repo, "def search("),
            "(tool) tool.description: changed",
        )
    ]
    code, out, _ = run("diff", "--lock")
    assert code == 1
    assert "DESCRIPTION  (tool)  tool.description: changed" in out


def test_new_optional_parameter(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    _edit(repo, "    limit: int = 10,\n", "    limit: int = 10,\n    exact: bool = False,\n")
    code, out, _ = run("diff", "--lock", "--format", "json")
    changes = _changes(out, "search")
    assert changes == _engine_changes(repo, run, "search")
    # Strict mode lists every property as required, so even an optional parameter is a
    # new required property: a breaking change for callers built on the old schema.
    assert ("/properties/exact", "properties", "added", "breaking") in changes
    assert code == 2
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert code == 2
    exact = _line(repo, "exact: bool")
    found = _annotations(out)
    assert ("error", f"{PACKAGE}/tools.py", exact) in {a[:3] for a in found}
    assert all(a[1] == f"{PACKAGE}/tools.py" for a in found)
    assert len(found) == len(changes)


def test_new_optional_parameter_without_strict_is_compatible(run: Run, repo: Path) -> None:
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(PYPROJECT + "strict = false\n", encoding="utf-8")
    _snapshot(run, repo)
    _edit(repo, "    limit: int = 10,\n", "    limit: int = 10,\n    exact: bool = False,\n")
    code, out, _ = run("diff", "--lock", "--format", "json")
    assert code == 1
    assert _changes(out, "search") == [("/properties/exact", "properties", "added", "compatible")]


def test_new_required_parameter_is_breaking(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    _edit(repo, "    query: str,\n", "    query: str,\n    page: int,\n")
    code, out, _ = run("diff", "--lock", "--format", "json")
    assert code == 2
    changes = _changes(out, "search")
    assert changes == _engine_changes(repo, run, "search")
    assert ("/properties/page", "properties", "added", "breaking") in changes
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert code == 2
    page = _line(repo, "page: int")
    assert ("error", f"{PACKAGE}/tools.py", page) in {a[:3] for a in _annotations(out)}


def test_renamed_alias_is_breaking_and_points_at_the_parameter(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    _edit(repo, 'alias="id"', 'alias="item"')
    code, out, _ = run("diff", "--lock", "--format", "json")
    assert code == 2
    changes = _changes(out, "fetch")
    assert changes == _engine_changes(repo, run, "fetch")
    assert changes == [
        ("/properties/id", "properties", "removed", "breaking"),
        ("/properties/item", "properties", "added", "breaking"),
    ]
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert code == 2
    tools_py = f"{PACKAGE}/tools.py"
    # The new property is on the parameter's line; the removed one is no longer in the
    # source, so it points at the function.
    assert _annotations(out) == [
        (
            "error",
            tools_py,
            _line(repo, "def fetch("),
            '/properties/id properties: property "id" removed (it was required)',
        ),
        (
            "error",
            tools_py,
            _line(repo, "item_id: Annotated"),
            '/properties/item properties: new required property "item"',
        ),
    ]


def test_removed_tool_is_breaking_and_annotates_the_lock(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    text = (repo / PACKAGE / "tools.py").read_text(encoding="utf-8")
    start, end = text.index("def fetch("), text.index("def _private_helper")
    (repo / PACKAGE / "tools.py").write_text(text[:start] + text[end:], encoding="utf-8")
    code, out, _ = run("diff", "--lock", "--format", "json")
    assert code == 2
    data = json.loads(out)
    assert data["tools"]["fetch"]["status"] == "removed"
    assert data["tools"]["fetch"]["breaking"] is True
    assert data["tools"]["search"]["status"] == "unchanged"
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert code == 2
    assert _annotations(out) == [
        (
            "error",
            "toollens.lock.json",
            _line(repo, '    "fetch": {', "toollens.lock.json"),
            "tool 'fetch' is in the lock but no longer in the project; callers and prompts "
            "that use it break. after review, rewrite it with `toollens diff --lock --update`",
        )
    ]
    code, out, _ = run("diff", "--lock")
    assert "removed: fetch" in out


def test_added_tool_is_compatible(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    path = repo / PACKAGE / "tools.py"
    path.write_text(
        path.read_text(encoding="utf-8") + '\n\ndef ping() -> str:\n    """Check the service."""\n'
        '    return "pong"\n',
        encoding="utf-8",
    )
    code, out, _ = run("diff", "--lock", "--format", "json")
    assert code == 1
    assert json.loads(out)["tools"]["ping"]["status"] == "added"
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert _annotations(out) == [
        (
            "warning",
            f"{PACKAGE}/tools.py",
            _line(repo, "def ping("),
            "tool 'ping' is not in the lock yet; after review, rewrite it with "
            "`toollens diff --lock --update`",
        )
    ]


def test_update_rewrites_the_lock(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    _edit(repo, "    query: str,\n", "    query: str,\n    page: int,\n")
    code, out, _ = run("diff", "--lock", "--update")
    assert code == 0
    assert out.endswith("updated toollens.lock.json\n")
    assert "new required property" in out
    assert run("diff", "--lock")[0] == 0
    assert (
        "page"
        in json.loads((repo / "toollens.lock.json").read_text())["tools"]["search"]["parameters"][
            "properties"
        ]
    )


def test_lock_out_of_date_without_a_schema_change(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    # A provider added to the table: nothing the diff compares changed, but the lock does.
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(
        PYPROJECT.replace('"anthropic"]', '"anthropic", "gemini"]'), encoding="utf-8"
    )
    code, out, _ = run("diff", "--lock")
    assert code == 1
    assert out.startswith("toollens.lock.json: no changes to 2 tools; lock out of date\n")
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert out.startswith("::warning file=toollens.lock.json,title=toollens%3A lock out of date::")


# -- check and show over the tool list --------------------------------------------------------


def test_check_github_points_at_the_parameter(run: Run, repo: Path) -> None:
    code, out, err = run("check", "--format", "github")
    assert (code, err) == (0, "")
    found = _annotations(out)
    limit = _line(repo, "limit: int = 10")
    assert ("warning", f"{PACKAGE}/tools.py", limit) in {a[:3] for a in found}
    assert any("lint.default-not-applied" in line for line in out.splitlines())
    code, out, _ = run("check", f"{PACKAGE}.tools:search", "--format", "github")
    assert ("warning", f"{PACKAGE}/tools.py", limit) in {a[:3] for a in _annotations(out)}


def test_check_and_show_take_the_tool_list(run: Run, repo: Path) -> None:
    code, out, _ = run("check")
    assert code == 0
    assert out.startswith("project ")  # `check` is `check project`: the table's toolset
    assert [line.split()[0] for line in out.splitlines()[3:5]] == ["search", "fetch"]
    code, out, _ = run("check", "--format", "json")
    assert [t["name"] for t in json.loads(out)["tools"]] == ["search", "fetch"]
    assert json.loads(run("check", "project", "--format", "json")[1]) == json.loads(out)
    code, out, _ = run("show", "--view", "strict", "--format", "json")
    assert code == 0
    assert [sorted(s["properties"]) for s in json.loads(out)] == [["limit", "query"], ["id"]]


def test_check_error_finding_exits_1_with_an_error_annotation(run: Run, repo: Path) -> None:
    (repo / PACKAGE / "tools.py").write_text(
        TOOLS + '\n\ndef open_map(\n    data: dict[str, int],\n) -> str:\n    """Open."""\n'
        '    return ""\n',
        encoding="utf-8",
    )
    code, out, _ = run("check", "--format", "github")
    assert code == 1
    errors = [a for a in _annotations(out) if a[0] == "error"]
    assert errors
    assert {a[:2] for a in errors} == {("error", f"{PACKAGE}/tools.py")}


def test_two_target_diff_github(run: Run, repo: Path) -> None:
    code, out, _ = run(
        "diff", f"{PACKAGE}/tools.py:search", f"{PACKAGE}/tools.py:search", "--format", "github"
    )
    assert (code, out) == (0, f"{PACKAGE}/tools.py:search: no changes\n")


# -- errors: one line, exit 3 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("lock_text", "expected"),
    [
        ("{", "toollens.lock.json is not valid JSON (Expecting property name"),
        ('<<<<<<< HEAD\n{"lock_version": 1}\n', "toollens.lock.json is not valid JSON"),
        ('{"lock_version": 7, "tools": {}}', "toollens.lock.json has lock_version 7, not 1"),
        ('{"lock_version": 1, "tools": []}', "toollens.lock.json has no 'tools' object"),
        ('{"lock_version": 1, "tools": {"x": {}}}', "entry 'x' does not have the keys"),
    ],
    ids=["truncated", "merge-conflict", "version", "tools-not-object", "entry-shape"],
)
def test_malformed_lock(run: Run, repo: Path, lock_text: str, expected: str) -> None:
    (repo / "toollens.lock.json").write_text(lock_text, encoding="utf-8")
    code, out, err = run("diff", "--lock")
    assert (code, out) == (3, "")
    assert err.count("\n") == 1
    assert err.startswith("toollens: error: ")
    assert expected in err
    # --update replaces a broken lock (the way out of a merge conflict).
    assert run("diff", "--lock", "--update")[0] == 0
    assert run("diff", "--lock")[0] == 0


def test_missing_lock(run: Run, repo: Path) -> None:
    code, _, err = run("diff", "--lock")
    assert code == 3
    assert err == (
        "toollens: error: no lock file toollens.lock.json in the project; "
        "write it with `toollens snapshot`\n"
    )


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('tools = "lockdemo.tools:*"', "[tool.toollens] tools is 'lockdemo.tools:*', not a list"),
        ("tools = []", "[tool.toollens] tools is empty"),
        ('tools = ["lockdemo.tools:*"]\nstrict = "yes"', "strict is 'yes', not true or false"),
        ('tools = ["lockdemo.tools:*"]\nprovider = ["x"]', "unknown key 'provider'"),
        ('tools = ["lockdemo.tools:*"]\nproviders = ["nope"]', "unknown provider 'nope'"),
        ('tools = ["lockdemo.tools:*"]\ndocstring_style = "rst"', "docstring_style is 'rst'"),
        ("strict = true", "[tool.toollens] has no 'tools' list"),
        ("tools = [", "pyproject.toml is not valid TOML"),
        ('tools = ["lockdemo.nothere:*"]', "no module named 'lockdemo.nothere'"),
        ('tools = ["lockdemo.tools:nothere"]', "has no attribute 'nothere'"),
    ],
)
def test_malformed_table(run: Run, repo: Path, table: str, expected: str) -> None:
    (repo / "pyproject.toml").write_text(
        PYPROJECT.split("[tool.toollens]")[0] + "[tool.toollens]\n" + table + "\n",
        encoding="utf-8",
    )
    unread = "nothere" in table  # the table reads; one of its entries does not
    for argv in (["snapshot"], ["diff", "--lock"], ["check"], ["show"]):
        code, out, err = run(*argv)
        if unread and argv[0] in ("check", "show"):
            # a toolset's entry that cannot be read is one row with its error; the lock,
            # which must hold every tool, cannot be written or compared without it
            assert (code, err) == (1, ""), argv
            assert expected in out, out
            continue
        assert (code, out) == (3, ""), argv
        assert err.count("\n") == 1, err
        assert err.startswith("toollens: error: "), err
        assert expected in err, err


def test_no_table(run: Run, repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    for argv in (["snapshot"], ["show"], ["check"], ["diff"]):
        code, _, err = run(*argv)
        assert code == 3
        assert err == (
            "toollens: error: pyproject.toml has no [tool.toollens] table; add [tool.toollens] "
            'with tools = ["pkg.tools:*"], or name a target\n'
        )


def test_diff_with_one_target_is_a_usage_error(run: Run, repo: Path) -> None:
    code, _, err = run("diff", f"{PACKAGE}.tools:search")
    assert code == 3
    assert err.startswith("usage: toollens diff")
    assert err.endswith(
        "error: the following arguments are required: NEW (or no target, for the lock)\n"
    )


# -- wildcards -----------------------------------------------------------------------------


def test_file_wildcard_and_duplicates(run: Run, repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        PYPROJECT.replace(
            f'tools = ["{PACKAGE}.tools:*"]',
            f'tools = ["{PACKAGE}.tools:search", "{PACKAGE}/tools.py:*", "{PACKAGE}.tools:*"]',
        ),
        encoding="utf-8",
    )
    code, out, err = run("snapshot")
    assert code == 0, err
    assert out == "wrote toollens.lock.json: 2 tools (fetch, search)\n"


def test_same_name_twice_is_an_error(run: Run, repo: Path) -> None:
    (repo / "other.py").write_text('def search(q: str) -> str:\n    """Other."""\n    return q\n')
    (repo / "pyproject.toml").write_text(
        PYPROJECT.replace(f'"{PACKAGE}.tools:*"', f'"{PACKAGE}.tools:*", "other.py:*"'),
        encoding="utf-8",
    )
    code, _, err = run("snapshot")
    assert code == 3
    assert "are both named 'search'" in err


# -- workflow commands -----------------------------------------------------------------------


def test_annotation_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    note = Annotation("error", "bad: 100%\nreally", "t: x, y", file="d,ir/f:1.py", line=3)
    assert (
        str(note) == "::error file=d%2Cir/f%3A1.py,line=3,title=t%3A x%2C y::bad: 100%25%0Areally"
    )
    assert str(Annotation("notice", "m", "t")) == "::notice title=t::m"


def test_readme_table_is_valid(tmp_path: Path) -> None:
    from toollens.project.config import load_config

    readme = (REPO_ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    block = readme.split("# toollens in CI", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "pyproject.toml").write_text(block, encoding="utf-8")
    config = load_config(tmp_path)
    assert config.tools == ("pkg.tools:search", "pkg.tools:*", "pkg/agents.py:*")
    assert config.providers == ("openai-chat", "anthropic")
    assert (config.strict, config.docstring_style, config.optional_defaults) == (
        True,
        "google",
        "nullable",
    )
    assert config.lock_path == tmp_path.resolve() / "toollens.lock.json"
    assert config.frameworks == ("mcp", "pydantic-ai")


def test_table_options_reach_the_engine(run: Run, repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        PYPROJECT + 'optional_defaults = "nullable"\ndocstring_style = "google"\n',
        encoding="utf-8",
    )
    _snapshot(run, repo)
    lock = json.loads((repo / "toollens.lock.json").read_text(encoding="utf-8"))
    limit = lock["tools"]["search"]["parameters"]["properties"]["limit"]
    # nullable: null stands for "use the default", so strict mode no longer forces a value.
    assert {"type": "null"} in limit["anyOf"]
    assert limit["description"] == "how many results to return."


def test_output_schema_change(run: Run, repo: Path) -> None:
    _snapshot(run, repo)
    _edit(repo, ") -> list[str]:", ") -> list[int]:")
    code, out, _ = run("diff", "--lock", "--format", "json")
    assert code == 2
    data = json.loads(out)["tools"]["search"]
    assert data["tool"]["changes"] == []
    assert [(c["pointer"], c["keyword"], c["severity"]) for c in data["output"]["changes"]] == [
        ("/properties/response/items", "type", "breaking")
    ]
    code, out, _ = run("diff", "--lock")
    assert "  output:\n    1 breaking change\n" in out
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert [a[:3] for a in _annotations(out)] == [
        ("error", f"{PACKAGE}/tools.py", _line(repo, ") -> list[int]:"))
    ]
    assert "breaking change to tool search (output)" in out


def test_json_target_diff_github_annotates_the_file(run: Run, repo: Path) -> None:
    (repo / "old.json").write_text('{"type": "object", "properties": {"a": {"type": "string"}}}')
    (repo / "new.json").write_text('{"type": "object", "properties": {"a": {"type": "integer"}}}')
    code, out, _ = run("diff", "old.json", "new.json", "--format", "github")
    assert code == 2
    assert out.splitlines()[0].startswith(
        "::error file=new.json,title=toollens%3A breaking change to tool new.json::/properties/a"
    )


def test_a_tool_that_cannot_be_strict_is_not_locked(run: Run, repo: Path) -> None:
    path = repo / PACKAGE / "tools.py"
    path.write_text(
        TOOLS + '\n\ndef tally(counts: dict[str, int]) -> int:\n    """Add up."""\n    return 0\n',
        encoding="utf-8",
    )
    code, out, err = run("snapshot")
    assert (code, out) == (3, "")
    assert err.startswith(f"toollens: error: tool '{PACKAGE}.tools:tally' cannot be locked: ")
    assert err.count("\n") == 1
    assert not (repo / "toollens.lock.json").exists()
    # Without strict mode the same tool locks.
    (repo / "pyproject.toml").write_text(PYPROJECT + "strict = false\n", encoding="utf-8")
    assert run("snapshot")[0] == 0


def test_annotation_paths_are_relative_to_the_repository_root(
    run: Run, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A project in a subdirectory of the repository (a monorepo), run from that directory.
    sub = repo / "services" / "agent"
    sub.mkdir(parents=True)
    (repo / "pyproject.toml").rename(sub / "pyproject.toml")
    (repo / PACKAGE).rename(sub / PACKAGE)
    monkeypatch.chdir(sub)
    code, out, err = run("check", "--format", "github")
    assert code == 0, err
    files = {a[1] for a in _annotations(out)}
    assert files == {f"services/agent/{PACKAGE}/tools.py"}


def test_check_github_on_a_json_file_annotates_the_file(run: Run, repo: Path) -> None:
    (repo / "schema.json").write_text(
        '{"type": "object", "properties": {"tags": {"type": "array", "uniqueItems": true}}}'
    )
    code, out, _ = run("check", "schema.json", "--format", "github")
    assert code == 1  # openai-chat rejects uniqueItems in strict mode
    commands = [line for line in out.splitlines() if line.startswith("::")]
    assert commands
    assert all(line.split(" ", 1)[1].startswith("file=schema.json,title=") for line in commands)


def test_compare_takes_the_tool_list_and_its_frameworks(run: Run, repo: Path) -> None:
    from toollens.frameworks import installed

    if len(installed(["anthropic", "pydantic-ai"])) < 2:
        pytest.skip("compare needs the anthropic and pydantic-ai frameworks installed")
    (repo / "pyproject.toml").write_text(
        PYPROJECT + 'frameworks = ["anthropic", "pydantic-ai"]\n', encoding="utf-8"
    )
    code, out, err = run("compare", "--format", "json")
    assert code in (0, 1, 2), err
    data = json.loads(out)
    assert [d["target"] for d in data] == ["search", "fetch"]
    assert all(
        [f["framework"] for f in d["frameworks"]] == ["anthropic", "pydantic-ai"] for d in data
    )
    single, _, _ = run("compare", f"{PACKAGE}.tools:search", "--framework", "anthropic",
                       "--framework", "pydantic-ai")  # fmt: skip
    fetch, _, _ = run("compare", f"{PACKAGE}.tools:fetch", "--framework", "anthropic",
                      "--framework", "pydantic-ai")  # fmt: skip
    assert code == max(single, fetch)  # the worst tool decides
    code, out, _ = run("compare", "--framework", "anthropic")  # the command line wins
    assert "pydantic-ai" not in out


def test_unknown_framework_in_the_table(run: Run, repo: Path) -> None:
    (repo / "pyproject.toml").write_text(PYPROJECT + 'frameworks = ["nope"]\n', encoding="utf-8")
    code, _, err = run("compare")
    assert code == 3
    assert err.startswith("toollens: error: [tool.toollens] frameworks names an unknown framework")
