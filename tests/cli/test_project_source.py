"""The project's table is one source for every command: ``check``, ``check project`` and
``check project:DIR`` say the same, with the table's options under the command line's, and
``show`` and ``tokens`` with no target read the same tools as ``toollens.toolset``.
"""

from __future__ import annotations

import io
import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import toollens
from toollens.cli import main

TOOLS_PY = '''
def get_weather(city: str, days: int = 3) -> str:
    """Get the weather forecast for a city.

    Args:
        city: Name of the city, e.g. "Oslo".
        days: How many days ahead, 1 to 7.
    """
    return city


def get_time(zone: str) -> str:
    """Get the current time in a time zone.

    Args:
        zone: An IANA time zone such as "Europe/Oslo".
    """
    return zone


TOOLS = [get_time]
'''


def table(**extra: str) -> str:
    lines = ['tools = ["projsrc.tools:get_weather", "projsrc.tools:TOOLS"]', *extra.values()]
    return "[tool.toollens]\n" + "\n".join(lines) + "\ntokens_model = false\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    package = tmp_path / "projsrc"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text(textwrap.dedent(TOOLS_PY))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m == "projsrc" or m.startswith("projsrc.")]:
        del sys.modules[name]


def run_json(*argv: str) -> object:
    out, err = io.StringIO(), io.StringIO()
    code = main([*argv, "--format", "json"], stdout=out, stderr=err)
    assert code in (0, 1), err.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.parametrize(
    ("extra", "argv", "providers", "strict"),
    [
        ({}, [], ["openai-chat"], True),
        ({"p": 'providers = ["anthropic", "gemini"]'}, [], ["anthropic", "gemini"], True),
        ({"s": "strict = false"}, [], ["openai-chat"], False),
        ({"s": "strict = true"}, ["--no-strict"], ["openai-chat"], False),
        ({"p": 'providers = ["anthropic"]'}, ["--provider", "gemini"], ["gemini"], True),
    ],
)
def test_every_spelling_of_the_project_reads_its_options(
    project: Path, extra: dict[str, str], argv: list[str], providers: list[str], strict: bool
) -> None:
    (project / "pyproject.toml").write_text(table(**extra), encoding="utf-8")
    spellings: list[list[str]] = [[], ["project"], [f"project:{project}"]]
    answers = [run_json("check", *spelling, *argv) for spelling in spellings]
    assert answers[0] == answers[1] == answers[2]
    checked = answers[0]
    assert isinstance(checked, dict)
    assert checked["providers"] == providers
    assert [t["name"] for t in checked["tools"]] == ["get_weather", "get_time"]
    # strict mode makes `days` required: lint says its default is never applied
    rules = {f["rule"] for t in checked["tools"] for f in t["check"]["lint"]}
    assert ("lint.default-not-applied" in rules) is strict


def test_show_and_tokens_read_the_tools_toolset_reads(project: Path) -> None:
    (project / "pyproject.toml").write_text(table(), encoding="utf-8")
    names = list(toollens.toolset("project").names)
    assert names == ["get_weather", "get_time"]
    shown = run_json("show")
    assert isinstance(shown, list)
    assert [view["title"] for view in shown] == names
    counted = run_json("tokens")
    assert isinstance(counted, dict)
    assert [t["name"] for t in counted["tools"]] == names


def test_compare_takes_the_python_functions_of_the_table(project: Path) -> None:
    from support import REPO_ROOT
    from toollens.frameworks import installed

    frameworks = installed()
    if not frameworks:
        pytest.skip("compare needs a framework installed")
    listed = project / "listed.json"
    listed.write_text(json.dumps([{"name": "ping", "inputSchema": {"type": "object"}}]))
    server = REPO_ROOT / "tests" / "mcp" / "mcp_servers" / "raw_tools.py"
    command = json.dumps(f"mcp:{sys.executable} {server} {listed}")
    text = table().replace("tools = [", f"tools = [{command}, ", 1)
    (project / "pyproject.toml").write_text(text, encoding="utf-8")
    compared = run_json("compare", "--framework", frameworks[0])
    assert isinstance(compared, list)
    # the server's tool has no Python function: the table's functions are compared
    assert [c["target"] for c in compared] == ["get_weather", "get_time"]
