"""An MCP server listed in ``[tool.toollens]`` is judged as ``check "mcp:..."`` judges it:
as its clients send it, non-strict, unless the table says ``mcp_strict = true``.

Found on a real server (mcp-server-fetch): the project's ``check`` exited 1 on strict-mode
rules (``openai.format-unsupported``) that the direct ``check "mcp:..."`` did not raise.
"""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest

from support import REPO_ROOT
from toollens.cli import main

SERVER = REPO_ROOT / "tests" / "mcp" / "mcp_servers" / "raw_tools.py"

FETCH = {
    "name": "fetch",
    "description": "Fetch a URL and return its contents as markdown.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "url": {"type": "string", "format": "uri", "description": "The URL to fetch."},
            "max_length": {"type": "integer", "default": 5000, "description": "At most."},
        },
        "required": ["url"],
    },
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([FETCH]), encoding="utf-8")
    target = "mcp:" + shlex.join([sys.executable, str(SERVER), str(tools)])
    monkeypatch.chdir(tmp_path)
    return tmp_path, target


def _table(root: Path, target: str, extra: str = "") -> None:
    text = f"[tool.toollens]\ntools = [{json.dumps(target)}]\n{extra}"
    (root / "pyproject.toml").write_text(text, encoding="utf-8")


def test_the_project_check_judges_a_server_as_the_direct_check_does(
    project: tuple[Path, str],
) -> None:
    root, target = project
    _table(root, target)
    direct = run("check", target)
    listed = run("check")
    assert direct[0] == listed[0] == 0, (direct, listed)
    # the tools' own findings, before what each client does (openai-agents-strict, a client
    # that sends strict by choice, may show strict rules under its own name)
    own = [out.split("\nclients (")[0] for _, out, _ in (direct, listed)]
    for text in own:
        assert "openai.format-unsupported" not in text
        assert "openai.default" not in text


def test_mcp_strict_judges_the_servers_tools_strict(project: tuple[Path, str]) -> None:
    root, target = project
    _table(root, target, "mcp_strict = true\n")
    code, out, err = run("check")
    assert code == 1, err
    assert "openai.format-unsupported" in out


@pytest.mark.parametrize(
    ("extra", "strict"),
    [
        ("", False),
        ("mcp_strict = true\n", True),
        # mcp_strict makes the servers' tools strict *too*: not when the table is non-strict
        ("strict = false\nmcp_strict = true\n", False),
    ],
)
def test_the_lock_records_a_server_tool_as_the_check_judges_it(
    project: tuple[Path, str], extra: str, strict: bool
) -> None:
    root, target = project
    _table(root, target, "tokens_model = false\n" + extra)
    code, _, err = run("snapshot")
    assert code == 0, err
    lock = json.loads((root / "toollens.lock.json").read_text(encoding="utf-8"))
    (entry,) = lock["tools"].values()
    assert entry["strict"] is strict
    own = run("check")[1].split("\nclients (")[0]  # the tool's findings, before the clients'
    assert ("openai.format-unsupported" in own) is strict


def test_a_bad_mcp_strict_value_names_the_key(project: tuple[Path, str]) -> None:
    root, target = project
    _table(root, target, 'mcp_strict = "yes"\n')
    code, _, err = run("check")
    assert code == 3 or code == 2
    assert "mcp_strict" in err
