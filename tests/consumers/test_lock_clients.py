"""The lock records each client's verdict on each MCP tool; one that got worse is breaking."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toollens.cli import EXIT_BREAKING, EXIT_CHANGED, EXIT_OK, main
from toollens.consumers import default_clients
from toollens.project.lock_clients import verdict_changes

CASES = Path(__file__).parent / "cases"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _write(path: Path, items: bool) -> None:
    data = json.loads((CASES / "array-no-items.tools.json").read_text(encoding="utf-8"))
    if items:
        data["tools"][1]["inputSchema"]["properties"]["panels"]["items"] = {"type": "string"}
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_client_that_now_drops_a_tool_is_a_breaking_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "tools.json", items=True)
    code, out, err = run("snapshot", "--toolset", "tools.json")
    assert code == EXIT_OK, out + err
    lock = json.loads((tmp_path / "toollens.lock.json").read_text(encoding="utf-8"))
    verdicts = lock["tools"]["update_dashboard"]["clients"]
    assert verdicts["vscode-copilot"] == "accepted"
    assert verdicts["mcp-python"] == "accepted"
    # the default clients only: the same on every machine, whatever frameworks it has
    assert list(verdicts) == list(default_clients())
    assert not [c for c in verdicts if c.startswith(("pydantic-ai", "langchain", "google"))]
    assert run("diff", "--lock", "--toolset", "tools.json")[0] == EXIT_OK
    _write(tmp_path / "tools.json", items=False)  # a compatible schema change, but VS Code...
    code, out, _ = run("diff", "--lock", "--toolset", "tools.json")
    assert code == EXIT_BREAKING
    assert "vscode-copilot now tool-dropped (was accepted)" in out


@pytest.mark.parametrize(
    ("old", "new", "worse"),
    [
        ({"cursor": "accepted"}, {"cursor": "tool-dropped"}, ["cursor"]),
        ({"cursor": "tool-dropped"}, {"cursor": "accepted"}, []),  # better: not breaking
        ({"cursor": "accepted"}, {"cursor": "accepted"}, []),
        ({"cursor": "accepted"}, {}, []),  # a client no longer judged
        (None, {"cursor": "server-dropped"}, []),  # a lock written before clients
        (
            {"a": "rewritten", "b": "accepted"},
            {"a": "request-rejected", "b": "rewritten"},
            ["a", "b"],
        ),
    ],
    ids=["dropped", "better", "same", "gone", "old-lock", "two"],
)
def test_verdict_changes(old: object, new: object, worse: list[str]) -> None:
    changes = verdict_changes(old, new)
    assert [c.message.split(" ", 1)[0] for c in changes] == worse
    assert all(c.severity.value == "breaking" for c in changes)


def test_a_lock_without_clients_still_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "tools.json", items=True)
    assert run("snapshot", "--toolset", "tools.json")[0] == EXIT_OK
    path = tmp_path / "toollens.lock.json"
    lock = json.loads(path.read_text(encoding="utf-8"))
    for entry in lock["tools"].values():
        del entry["clients"]
    path.write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")
    code, _, err = run("diff", "--lock", "--toolset", "tools.json")
    assert code == EXIT_CHANGED, err  # readable; only stale (the new key is missing)
