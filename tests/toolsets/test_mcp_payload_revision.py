"""A saved ``tools/list`` answer is judged by the MCP specification as a server is: the whole
list together, by the revision the file records (``protocolVersion``), by the one chosen
(``--mcp-revision``), or by the newest when neither says.

The corpus lives beside the repository (``../shared/corpora/mcp/*.tools.json``); the corpus
tests skip when it is absent.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from toollens.cli import main
from toollens.core.providers.mcp_spec import (
    DEFAULT_REVISION,
    MCP_REVISIONS,
    check_mcp_tools,
    revision_for,
)
from toollens.core.report import ReportOptions
from toollens.toolsets import toolset

_CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "mcp"
FILES = sorted(_CORPUS.glob("*.tools.json")) if _CORPUS.is_dir() else []
needs_corpus = pytest.mark.skipif(
    not FILES, reason="the MCP corpus (../shared/corpora/mcp) is absent"
)

OBJECT = {"type": "object", "properties": {"q": {"type": "string"}}}


def _spec(found: Any) -> list[tuple[str, str | None, str]]:
    return sorted((f.rule, f.pointer, f.message) for f in found if f.rule.startswith("mcp."))


def _judged(
    data: Any, revision: str | None = None, sdk: bool = False
) -> list[tuple[str, str | None, str]]:
    """The MCP specification's findings (and the SDK client's refusal, with ``sdk``)."""
    ts = toolset(data, ReportOptions(strict=False, mcp_revision=revision))
    found = _spec(item.finding for item in ts.cross_findings)
    return [f for f in found if sdk or f[0] != "mcp.sdk-refuses-list"]


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".tools.json") for p in FILES])
def test_a_saved_list_is_judged_by_the_revision_it_records_or_the_one_chosen(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    recorded = revision_for(data["protocolVersion"])
    expected = _spec(f.finding for f in check_mcp_tools(data["tools"], recorded))
    assert _judged(data) == expected
    for revision in MCP_REVISIONS:
        chosen = _spec(f.finding for f in check_mcp_tools(data["tools"], revision))
        assert _judged(data, f"mcp@{revision}") == chosen
    # a bare list says no protocol version: the newest revision judges it
    newest = _spec(f.finding for f in check_mcp_tools(data["tools"], DEFAULT_REVISION))
    assert _judged(data["tools"]) == newest


def test_the_list_is_judged_together_and_the_revision_decides() -> None:
    tools = [
        {"name": "get page", "inputSchema": OBJECT, "outputSchema": {"type": "array"}},
        {"name": "dup", "inputSchema": OBJECT},
        {"name": "dup", "inputSchema": OBJECT},
    ]
    listed = {"tools": tools, "protocolVersion": "2025-11-25"}
    rules = {rule for rule, _, _ in _judged(listed, sdk=True)}
    # the SDK client refuses an array outputSchema whatever the revision: a tools/list answer
    # in memory is judged as a saved one is
    assert "mcp.sdk-refuses-list" in rules
    rules.discard("mcp.sdk-refuses-list")
    assert rules == {"mcp.name-invalid", "mcp.duplicate-name", "mcp.output-schema-not-object"}
    old = {rule for rule, _, _ in _judged({"tools": tools}, "mcp@2025-06-18")}
    assert old == {"mcp.output-schema-not-object"}  # names became a rule in 2025-11-25
    new = {rule for rule, _, _ in _judged({"tools": tools})}  # newest: any outputSchema
    assert new == {"mcp.name-invalid", "mcp.duplicate-name"}
    assert MCP_REVISIONS[-1] == DEFAULT_REVISION


def test_check_takes_the_revision_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "a b", "inputSchema": OBJECT}]}))
    monkeypatch.chdir(tmp_path)

    def findings(*argv: str) -> set[str]:
        out = io.StringIO()
        main(["check", "tools.json", "--format", "json", *argv], stdout=out, stderr=io.StringIO())
        return {f["rule"] for f in json.loads(out.getvalue())["findings"]}

    assert "mcp.name-invalid" in findings()
    assert "mcp.name-invalid" not in findings("--mcp-revision", "mcp@2025-06-18")
    err = io.StringIO()
    code = main(["check", "tools.json", "--mcp-revision", "mcp@2020"], stderr=err)
    assert code == 3  # a usage error, naming the revisions there are
    assert "mcp@2026-07-28" in err.getvalue()
