"""An ``mcp:`` toolset is judged by the MCP specification revision its server answered with."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import toollens
from toollens.toolsets import mcp_source
from toollens.toolsets.rules import mcp_spec_findings

SERVERS = Path(__file__).resolve().parents[1] / "mcp" / "mcp_servers"
OBJ = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"q": {"type": "string", "description": "query"}},
}


def test_raw_server_is_judged_by_its_2025_06_18_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mcp")
    calls: list[Any] = []

    def recorded(entries: Any, protocol_version: Any = None, **kw: Any) -> Any:
        calls.append(protocol_version)
        return mcp_spec_findings(entries, protocol_version, **kw)

    monkeypatch.setattr(mcp_source, "mcp_spec_findings", recorded)
    tools = [{"name": "get page", "description": "Get a page.", "inputSchema": OBJ}]
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps(tools), encoding="utf-8")
    ts = toollens.toolset(f"mcp:{sys.executable} {SERVERS / 'raw_tools.py'} {listing}")
    assert calls == ["2025-06-18"]  # what raw_tools.py answers initialize with
    # 2025-06-18 has no name or dialect rule; 2025-11-25 has both.
    assert not [f for f in ts.findings if f.rule.startswith("mcp.")]
    later = {f.finding.rule for f in mcp_spec_findings(ts.tools, "2025-11-25")}
    assert later == {"mcp.name-invalid", "mcp.schema-dialect"}
