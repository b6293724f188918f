"""Every command reads a real MCP server's ``tools/list`` answer as a payload target, both as
the file holds it (``{"server": ..., "tools": [...]}``) and as a bare JSON list of tools (what
a request's ``tools`` holds, what users paste), and both spellings give the same answer.

The corpus lives beside the repository (``../shared/corpora/mcp/*.tools.json``); the tests
skip when it is absent.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import toollens
from toollens.cli import main

_CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "mcp"
FILES = sorted(_CORPUS.glob("*.tools.json")) if _CORPUS.is_dir() else []

pytestmark = pytest.mark.skipif(
    not FILES, reason="the MCP corpus (../shared/corpora/mcp) is absent"
)


def _ids() -> list[str]:
    return [path.name.removesuffix(".tools.json") for path in FILES]


@pytest.fixture(params=FILES or [None], ids=_ids() or ["absent"])
def corpus(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """(the file as captured, the same tools as a bare list, the tool names in order)."""
    path: Path = request.param
    data = json.loads(path.read_text(encoding="utf-8"))
    whole = tmp_path / "server.tools.json"
    whole.write_text(json.dumps(data))
    bare = tmp_path / "bare.tools.json"
    bare.write_text(json.dumps(data["tools"]))
    monkeypatch.chdir(tmp_path)
    return whole, bare, [tool["name"] for tool in data["tools"]]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _recorded(whole: Path) -> str:
    """The MCP judge of the protocol version the file records (a bare list records none,
    so it is given the same judge by name)."""
    from toollens.core.providers.mcp_spec import judge_id, revision_for

    return judge_id(revision_for(json.loads(whole.read_text())["protocolVersion"]))


def test_the_python_api_reads_both_spellings_alike(corpus: Any) -> None:
    whole, bare, names = corpus
    # The same options for both (an MCP tool list is read non-strict, as its clients send it).
    same = toollens.ReportOptions(strict=False, mcp_revision=_recorded(whole))
    ts, ts_bare = toollens.toolset(str(whole), same), toollens.toolset(str(bare), same)
    assert list(ts.names) == names
    assert ts_bare.names == ts.names
    assert [e.error for e in ts_bare] == [e.error for e in ts]
    assert [e.findings for e in ts_bare] == [e.findings for e in ts]
    assert ts_bare.findings == ts.findings


def test_check_reads_both_spellings_alike(corpus: Any) -> None:
    whole, bare, names = corpus
    code, out, err = run("check", str(whole), "--format", "json")
    assert code in (0, 1), err
    assert err == ""
    data = json.loads(out)
    assert [tool["name"] for tool in data["tools"]] == names
    judge = _recorded(whole)
    code_bare, out_bare, err_bare = run(
        "check", str(bare), "--format", "json", "--mcp-revision", judge
    )
    assert (code_bare, err_bare) == (code, "")
    bare_data = json.loads(out_bare)
    assert [t["check"] for t in bare_data["tools"]] == [t["check"] for t in data["tools"]]
    assert bare_data["findings"] == data["findings"]


@pytest.mark.parametrize(
    "command",
    [
        ["show", "{}", "--view", "raw"],
        ["check", "{}"],
        ["check", "{}", "--format", "github"],
        ["tokens", "{}", "--format", "json"],
        ["snapshot", "--toolset", "{}"],
        ["report", "{}", "--html", "page.html"],
    ],
    ids=["show", "check", "check-github", "tokens", "snapshot", "report"],
)
def test_every_command_reads_the_bare_list(corpus: Any, command: list[str]) -> None:
    _, bare, names = corpus
    argv = [str(bare) if part == "{}" else part for part in command]
    code, out, err = run(*argv)
    assert code in (0, 1), err  # judged: never "could not be read"
    assert err == ""
    if command[0] == "snapshot":  # the lock holds every tool, by name
        lock = json.loads(Path("toollens.lock.json").read_text(encoding="utf-8"))
        assert sorted(lock["tools"]) == sorted(names)
    elif command[0] == "report":
        counted = "1 tool\n" if len(names) == 1 else f"{len(names)} tools\n"
        assert out == f"wrote page.html: {counted}"
    elif command[0] == "tokens":  # every tool counted, none left out
        assert [tool["name"] for tool in json.loads(out)["tools"]] == names
    elif command[0] == "check" and len(command) == 2:
        assert out.startswith(f"{bare}: {len(names)} tool")
