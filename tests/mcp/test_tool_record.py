"""One Tool record whatever spelling names the tool: a callable, ``MODULE:ATTR``,
``FILE.py:FUNC``, a payload file (one tool, or a list), an ``mcp:`` server (every tool, or
``#TOOL``) give the same fields, and ``show`` and ``check`` give the same answers.

The payloads and the server's ``tools/list`` are written from the callable's own Tool record
(what toollens reads from the function), so the table asserts that every reader reads the
same tool back, and that every command judges it the same way.
"""

from __future__ import annotations

import io
import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_support import server

import toollens
from toollens.cli import main

pytestmark = [
    pytest.mark.network_ok,  # the mcp: rows start a stdio server (no sockets)
    pytest.mark.skipif(sys.platform == "win32", reason="the fixture server is a POSIX command"),
]

TOOLS_PY = '''
def search(query: str, limit: int) -> str:
    """Search the product catalogue for items matching a query.

    Args:
        query: The words to look for in product names.
        limit: The largest number of results to return.
    """
    return query
'''

SPELLINGS = ["module-attr", "file-func", "payload-one", "payload-list", "mcp-server", "mcp-tool"]
PYTHON_SPELLINGS = {"callable", "module-attr", "file-func"}


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """The tool under each spelling, with the files those spellings name."""
    package = tmp_path / "recpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text(textwrap.dedent(TOOLS_PY))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    from recpkg.tools import search

    (tool,) = toollens.toolset([search]).tools
    # A payload is shown and judged as written: it says "strict": false as a non-strict
    # conversion of the function does, so every spelling names one request.
    function = {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.input_schema,
        "strict": False,
    }
    payload = {"type": "function", "function": function}
    (tmp_path / "search.tool.json").write_text(json.dumps(payload))
    (tmp_path / "tools.json").write_text(json.dumps([payload]))
    listed = {"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema}
    (tmp_path / "mcp_tools.json").write_text(json.dumps([listed]))
    served = server("raw_tools.py", str(tmp_path / "mcp_tools.json"))
    yield {
        "reference": tool,
        "callable": search,
        "module-attr": "recpkg.tools:search",
        "file-func": "recpkg/tools.py:search",
        "payload-one": "search.tool.json",
        "payload-list": "tools.json",
        "mcp-server": served,
        "mcp-tool": f"{served}#search",
        "server": served,
    }
    for name in [m for m in sys.modules if m == "recpkg" or m.startswith("recpkg.")]:
        del sys.modules[name]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("spelling", ["callable", *SPELLINGS])
def test_every_spelling_reads_the_same_tool_record(place: dict[str, Any], spelling: str) -> None:
    reference = place["reference"]
    (tool,) = toollens.toolset(place[spelling]).tools
    assert isinstance(tool, toollens.Tool)
    assert tool.ok, tool.error
    assert (tool.name, tool.description, tool.input_schema) == (
        reference.name,
        reference.description,
        reference.input_schema,
    )
    assert (tool.title, tool.annotations, tool.output_schema) == (None, None, None)
    # where it came from, by spelling: file and line, payload and index, server and command
    origin = tool.origin
    if spelling in PYTHON_SPELLINGS:
        assert tool.function is not None
        assert tool.function.__name__ == "search"
        assert origin.line == 2  # the `def` (the file starts with a blank line)
        assert origin.server is None
    elif spelling.startswith("payload"):
        assert tool.function is None
        assert (origin.kind, origin.label, origin.index) == ("json", place[spelling], 0)
    else:
        assert tool.function is None
        assert origin.kind == "mcp"
        assert origin.server == place["server"]
        assert origin.label == f"{place['server']}#search"
        assert origin.command is not None
        assert "raw_tools.py" in origin.command
    assert toollens.Tool is toollens.Tool  # the former name is the same class


def _shown_payloads(out: str) -> list[Any]:
    """The provider views ``show --format json`` printed, whatever envelope holds them."""
    data = json.loads(out)
    if isinstance(data, dict) and "tools" in data:  # a server: its answer around the tools
        return [tool["show"] for tool in data["tools"]]
    return data if isinstance(data, list) else [data]


def _check_record(out: str) -> dict[str, Any]:
    """The one tool's check record of ``check --format json`` (a source holds it in tools)."""
    data = json.loads(out)
    record = data["tools"][0]["check"] if "tools" in data else data
    return {key: record[key] for key in ("ok", "counts", "lint", "providers", "verdicts")}


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic"])
def test_every_spelling_gets_the_same_show_and_check(place: dict[str, Any], provider: str) -> None:
    shown, checked = {}, {}
    for spelling in SPELLINGS:
        target = place[spelling]
        # Non-strict: how MCP clients send a server's tools, which `check` judges an mcp:
        # source by (see cli.common.mcp_options); the other spellings are asked for it.
        argv = ("--no-strict", "--provider", provider, "--format", "json")
        code, out, err = run("show", target, "--view", "provider", *argv)
        assert code == 0, f"{spelling}: {err}"
        shown[spelling] = _shown_payloads(out)
        code, out, err = run("check", target, *argv)
        assert code == 0, f"{spelling}: {err}"
        checked[spelling] = _check_record(out)
    first = SPELLINGS[0]
    for spelling in SPELLINGS[1:]:
        assert shown[spelling] == shown[first], spelling
        assert checked[spelling] == checked[first], spelling
    (payload,) = shown[first]
    sent = payload.get("function", payload)
    assert sent["name"] == "search"


def test_a_server_tool_keeps_its_title_and_annotations(tmp_path: Path) -> None:
    listed = {
        "name": "forget",
        "title": "Forget a memory",
        "description": "Delete one stored memory by its id.",
        "inputSchema": {
            "type": "object",
            "properties": {"id": {"type": "string", "description": "The memory's id."}},
            "required": ["id"],
        },
        "outputSchema": {"type": "object", "properties": {"deleted": {"type": "boolean"}}},
        "annotations": {"destructiveHint": True, "readOnlyHint": False},
    }
    (tmp_path / "tools.json").write_text(json.dumps([listed]))
    target = server("raw_tools.py", str(tmp_path / "tools.json"))
    (tool,) = toollens.toolset(target).tools
    assert tool.definition() == listed  # the wire record's fields, on the Tool record
    code, out, err = run("show", f"{target}#forget", "--view", "output")
    assert code == 0, err
    assert "MCP annotations: " + json.dumps(listed["annotations"]) in out
    code, out, _ = run("show", target, "--view", "strict", "--format", "json")
    assert json.loads(out)["tools"][0]["mcp"] == listed


def test_a_payload_file_of_a_server_list_gives_the_same_record_as_the_server(
    tmp_path: Path,
) -> None:
    """A saved ``tools/list`` answer read as a payload file, and the server that sends it:
    the same Tool fields (title and annotations included), the origin aside."""
    listed = [
        {
            "name": "recall",
            "description": "Find stored memories about a topic.",
            "inputSchema": {
                "type": "object",
                "properties": {"topic": {"type": "string", "description": "What to recall."}},
                "required": ["topic"],
            },
            "annotations": {"title": "Recall memories", "readOnlyHint": True},
        }
    ]
    (tmp_path / "tools.json").write_text(json.dumps(listed))
    (tmp_path / "answer.json").write_text(json.dumps({"tools": listed}))
    (from_server,) = toollens.toolset(server("raw_tools.py", str(tmp_path / "tools.json")))
    (from_file,) = toollens.toolset(str(tmp_path / "answer.json"))
    assert from_file.definition() == from_server.definition()
    assert from_server.title == "Recall memories"  # the older spelling: annotations.title
    assert from_file.annotations == {"title": "Recall memories", "readOnlyHint": True}
