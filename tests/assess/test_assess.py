"""The contradictions and crashes issue 47 measured, each gone: one assessment, one verdict.

Each case reads what two front ends show of the same request and asserts they agree (and
that the verdict is the right one), or that a command that crashed now runs.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from toollens.assess import AssessRequest, assess
from toollens.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, main
from toollens.render.toolset_page import render_toolset_page

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}
ROOT_ANYOF = {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def listing(path: Path, tools: list[dict[str, Any]]) -> str:
    path.write_text(json.dumps({"protocolVersion": "2025-11-25", "tools": tools}), "utf-8")
    return str(path)


def tool(name: str, schema: object = None, **more: Any) -> dict[str, Any]:
    return {"name": name, "description": f"Do {name}.", "inputSchema": schema or SCHEMA, **more}


def strict_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int, name: str) -> str:
    """A module of ``count`` Python tools, each with an optional parameter (strict: all
    required, so each counts against Anthropic's strict request limits)."""
    body = "\n".join(
        f"def f{i}(a: str, b: int | None = None) -> str:\n"
        f"    '''Do {i}.\n\n    Args:\n        a: the a.\n        b: the b.\n    '''\n"
        "    return a\n"
        for i in range(count)
    )
    (tmp_path / f"{name}.py").write_text(body, "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return name


def _page_severity(page: str, rule: str) -> str:
    found = re.search(r'tl-sev-(\w+)">\w+</span> <code>' + re.escape(rule), page)
    assert found is not None, rule
    return found[1]


def _json_severity(out: str, rule: str) -> str:
    (severity,) = {f["severity"] for f in json.loads(out)["findings"] if f["rule"] == rule}
    return str(severity)


def test_past_the_128th_tool_the_text_table_says_request_rejected_as_json_does(
    tmp_path: Path,
) -> None:
    target = listing(tmp_path / "big.json", [tool(f"t{i}") for i in range(131)])
    code, out, _ = run("check", target, "--client", "vscode-copilot")
    assert code == EXIT_FINDINGS
    rows = {line.split()[0]: line.split()[-1] for line in out.splitlines()[3:134]}
    assert rows["t127"] == "accepted"
    assert [rows[f"t{i}"] for i in (128, 129, 130)] == ["request-rejected"] * 3
    _, as_json, _ = run("check", target, "--client", "vscode-copilot", "--format", "json")
    verdicts = {t["name"]: t["clients"][-1]["verdict"] for t in json.loads(as_json)["tools"]}
    assert {n: v for n, v in verdicts.items() if v != "accepted"} == {
        f"t{i}": "request-rejected" for i in (128, 129, 130)
    }


@pytest.mark.parametrize(
    ("count", "rule", "severity"),
    [
        (25, "toolset.anthropic-too-many-strict-tools", "warning"),  # OpenAI is judged
        (130, "toolset.openai-too-many-tools", "error"),  # OpenAI's own limit
    ],
)
def test_a_limit_across_tools_has_one_severity_in_check_and_on_the_page(
    count: int, rule: str, severity: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = strict_tools(tmp_path, monkeypatch, count, f"many{count}")
    _, out, _ = run("check", name, "--format", "json")
    assert _json_severity(out, rule) == severity
    page = tmp_path / "page.html"
    assert run("report", name, "--html", str(page))[0] == EXIT_OK
    assert _page_severity(page.read_text("utf-8"), rule) == severity


@pytest.mark.parametrize(
    "first",
    [
        tool("draw", ROOT_ANYOF),  # a root anyOf
        tool("draw", {"properties": {"a": {"type": "string"}}}),  # no type
        tool("draw", outputSchema={"type": "array", "items": {"type": "string"}}),
    ],
    ids=["root-anyof", "no-type", "array-output"],
)
def test_the_sdk_clients_lose_the_list_their_sdk_refuses(
    first: dict[str, Any], tmp_path: Path
) -> None:
    target = listing(tmp_path / "refused.json", [first, tool("ping")])
    clients = ["mcp-python", "openai-agents"]
    argv = [a for c in clients for a in ("--client", c)]
    code, out, _ = run("check", target, *argv, "--format", "json")
    data = json.loads(out)
    assert code == EXIT_FINDINGS
    assert "mcp.sdk-refuses-list" in {f["rule"] for f in data["findings"]}
    for shown in data["tools"]:
        assert {c["client"]: c["verdict"] for c in shown["clients"]} == dict.fromkeys(
            clients, "server-dropped"
        )


def test_a_saved_list_is_read_without_the_mcp_sdk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core install has no ``mcp``: its check cannot run, and the list is still read."""
    import sys

    monkeypatch.setitem(sys.modules, "mcp_types", None)  # `import mcp_types` now fails
    target = listing(tmp_path / "refused.json", [tool("draw", ROOT_ANYOF), tool("ping")])
    code, out, err = run("check", target, "--format", "json")
    data = json.loads(out)
    assert code in (EXIT_OK, EXIT_FINDINGS), err
    assert [t["name"] for t in data["tools"]] == ["draw", "ping"]
    assert "mcp.sdk-refuses-list" not in {f["rule"] for f in data["findings"]}


def test_the_widget_and_check_read_an_mcp_list_for_anthropic_alike(tmp_path: Path) -> None:
    pytest.importorskip("ipywidgets")
    from toollens.jupyter.toolset_widget import ToolsetView

    target = listing(tmp_path / "list.json", [tool("search"), tool("draw", ROOT_ANYOF)])
    result = assess(AssessRequest(target=target, providers=("anthropic",)))
    view = ToolsetView(target, providers=["anthropic"])
    try:
        lint = [c["id"] for c in view.table.columns].index("lint")
        assert [r["cells"][lint][2] for r in view.table.rows] == [
            v.lint.state for v in result.verdicts
        ]
        assert view.toolset.tools[0].report is not None
        assert view.table.providers == ["anthropic"]
    finally:
        view.close()


def test_the_widget_totals_count_the_provider_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ipywidgets")
    from toollens.jupyter.toolset_widget import ToolsetView

    name = strict_tools(tmp_path, monkeypatch, 3, "three")
    _, out, _ = run("check", name, "--provider", "anthropic", "--format", "json")
    counts = json.loads(out)["counts"]
    view = ToolsetView(name, providers=["anthropic"])
    try:
        shown = re.sub("<[^>]+>", " ", view.table.totals)
        for severity, n in counts.items():
            assert (f"{n} {severity}" in shown) == bool(n), (severity, shown)
    finally:
        view.close()


def test_snapshot_locks_an_mcp_list_on_the_path_check_judges_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    target = listing(tmp_path / "anyof.json", [tool("draw", ROOT_ANYOF), tool("ping")])
    code, _, err = run("snapshot", "--toolset", target)
    assert code == EXIT_OK, err
    lock = json.loads((tmp_path / "toollens.lock.json").read_text("utf-8"))
    assert set(lock["tools"]) == {"draw", "ping"}
    assert lock["tools"]["draw"]["clients"]["mcp-python"] == "server-dropped"
    assert run("diff", "--lock", "--toolset", target)[0] == EXIT_OK  # the lock reads back


def test_required_null_neither_crashes_check_nor_report(tmp_path: Path) -> None:
    nulled = {"type": "object", "properties": {"q": {"type": "string"}}, "required": None}
    target = listing(tmp_path / "nulled.json", [tool("find", nulled)])
    code, _, err = run("check", target, "--client", "all")
    assert code != EXIT_ERROR, err
    page = tmp_path / "page.html"
    assert run("report", target, "--html", str(page))[0] == EXIT_OK


def test_the_page_takes_the_clients_check_takes(tmp_path: Path) -> None:
    target = listing(tmp_path / "list.json", [tool("search")])
    result = assess(AssessRequest(target=target, clients=("claude-code",)))
    page = render_toolset_page(result)
    data = json.loads(re.search(r'class="tl-ts-data">(.*?)</script>', page, re.S)[1])  # type: ignore[index]
    clients = [c["title"] for c in data["columns"] if c["kind"] == "client"]
    assert clients == ["claude-code"]
    page_file = tmp_path / "page.html"
    code, _, _ = run("report", target, "--html", str(page_file), "--client", "claude-code")
    assert code == EXIT_OK
    assert "client:claude-code" in page_file.read_text("utf-8")


def test_one_check_reads_a_saved_list_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = listing(tmp_path / "once.json", [tool(f"t{i}") for i in range(3)])
    read: list[str] = []
    original = Path.read_bytes

    def counted(self: Path) -> bytes:
        read.append(self.name)
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", counted)
    assert run("check", target, "--client", "cursor")[0] == EXIT_OK
    assert read.count("once.json") == 1


def test_a_clients_summary_counts_each_tool_as_its_column_shows_it(tmp_path: Path) -> None:
    # past VS Code's 128th tool the request is rejected: the summary line said
    # "131 accepted" beside three request-rejected cells
    target = listing(tmp_path / "many.tools.json", [tool(f"t{i}") for i in range(131)])
    _, out, _ = run("check", target, "--client", "vscode-copilot")
    assert "  vscode-copilot: 128 accepted, 3 lost (3 request-rejected)" in out.splitlines()
