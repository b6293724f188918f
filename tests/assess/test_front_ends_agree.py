"""Every front end renders one assessment: the same verdict per tool and column, the same
counts and the same exit code (issue 47).

For each target (hand-made lists and modules with the cases issue 47 measured, the real
``tools/list`` captures in ``../shared/corpora/mcp``) under several option sets, the request
is assessed once as the oracle, then each front end is run as a user runs it and read back:
``check``'s text table, its JSON and its GitHub annotations, the ``report --html`` page's
table data, the Toolset widget's rows and, for an MCP tool list, the lock's client columns.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from toollens.assess import Assessment, AssessRequest, assess
from toollens.cli import main
from toollens.consumers import BLOCKING, Verdict
from toollens.core.choices import PROVIDER_IDS

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "mcp"

OBJECT = {"type": "object", "properties": {"q": {"type": "string"}}}


def _tool(name: str, schema: object = None, **more: Any) -> dict[str, Any]:
    return {"name": name, "description": f"Do {name} for the user.",
            "inputSchema": OBJECT if schema is None else schema, **more}  # fmt: skip


def _mixed(tmp: Path) -> str:
    """A list one client takes whole and the SDK clients lose whole: a root ``anyOf``, a
    ``required: null``, a name with a space (issue 47's crash and contradiction)."""
    tools = [
        _tool("search"),
        _tool("pick", {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]}),
        _tool("bad name", {"type": "object", "properties": {"x": {}}, "required": None}),
    ]
    return _write(tmp / "mixed.tools.json", {"protocolVersion": "2025-11-25", "tools": tools})


def _many(tmp: Path) -> str:
    """131 tools: past VS Code's and OpenAI's 128th, a request limit decides."""
    tools = [_tool(f"t{i}") for i in range(131)]
    return _write(tmp / "many.tools.json", {"tools": tools})


def _strict_module(tmp: Path) -> str:
    """25 strict Python tools, each with an optional parameter: Anthropic's limits on strict
    tools in one request, judged across tools."""
    body = "\n".join(
        f"def f{i}(a: str, b: int | None = None) -> str:\n"
        f"    '''Do thing {i} for the user.\n\n    Args:\n        a: the a.\n        b: the b.\n"
        "    '''\n    return a\n"
        for i in range(25)
    )
    (tmp / "strict_tools_25.py").write_text(body, "utf-8")
    return "strict_tools_25"


def _chat_payload(tmp: Path) -> str:
    """An OpenAI Chat payload as written: a strict tool without ``additionalProperties``."""
    params = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    tools = [
        {"type": "function", "function": {"name": "find", "description": "Find a thing.",
                                          "parameters": params, "strict": True}},
        {"type": "function", "function": {"name": "plain", "description": "Say it plainly.",
                                          "parameters": OBJECT}},
    ]  # fmt: skip
    return _write(tmp / "chat.json", {"tools": tools})


def _write(path: Path, data: object) -> str:
    path.write_text(json.dumps(data), "utf-8")
    return path.name


@dataclass(frozen=True)
class Case:
    """A target and the command-line options it is checked with."""

    make: Callable[[Path], str]
    options: tuple[str, ...]
    listing: bool  # an MCP tool list (clients judge it; the lock has client columns)


DEFAULT: tuple[str, ...] = ()
ANTHROPIC = ("--provider", "anthropic")
ALL_CLIENTS = ("--client", "all")
TWO_NON_STRICT = ("--provider", "openai-chat", "--provider", "gemini-openapi", "--no-strict")
VSCODE = ("--client", "vscode-copilot")

CASES: dict[str, Case] = {
    "mixed": Case(_mixed, DEFAULT, True),
    "mixed-all-clients": Case(_mixed, ALL_CLIENTS, True),
    "mixed-anthropic": Case(_mixed, ANTHROPIC, True),
    "many": Case(_many, DEFAULT, True),
    "many-vscode": Case(_many, VSCODE, True),
    "strict-module": Case(_strict_module, DEFAULT, False),
    "strict-module-anthropic": Case(_strict_module, ANTHROPIC, False),
    "examples-two-non-strict": Case(lambda tmp: "toollens.examples", TWO_NON_STRICT, False),
    "examples-anthropic": Case(lambda tmp: "toollens.examples", ANTHROPIC, False),
    "chat-payload": Case(_chat_payload, DEFAULT, False),
    "chat-payload-anthropic": Case(_chat_payload, ANTHROPIC, False),
}


def _corpus_cases() -> Iterator[Any]:
    files = sorted(CORPUS.glob("*.tools.json")) if CORPUS.is_dir() else []
    for path in files:
        server = path.name.removesuffix(".tools.json")
        for label, options in (("default", DEFAULT), ("all-clients", ALL_CLIENTS),
                               ("two-non-strict", TWO_NON_STRICT)):  # fmt: skip
            case = Case(lambda tmp, p=path: str(p), options, True)
            yield pytest.param(case, id=f"{server}-{label}", marks=pytest.mark.slow)


def _request(target: str, options: tuple[str, ...]) -> AssessRequest:
    """The request ``check TARGET OPTIONS`` builds, written out (the oracle's)."""
    flags = list(options)
    named = [flags[i + 1] for i, f in enumerate(flags) if f == "--provider"]
    clients = [flags[i + 1] for i, f in enumerate(flags) if f == "--client"]
    return AssessRequest(target=target, providers=tuple(named), clients=tuple(clients),
                         strict="--no-strict" not in flags, toolset=True)  # fmt: skip


def _run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    assert code in (0, 1), err.getvalue()
    return code, out.getvalue()


# -- what each front end shows, read back ------------------------------------------------------

Table = dict[str, dict[str, str]]


def _oracle_texts(result: Assessment) -> Table:
    """Per tool and column, the text a verdict cell shows (``2 errors``, ``accepted``)."""
    table: Table = {}
    for v in result.verdicts:
        row = {"lint": v.lint.text, **{p: c.text for p, c in v.providers.items()}}
        row.update({f"client:{c}": "-" if x is None else x.text for c, x in v.clients.items()})
        table[v.name] = row
    return table


def _text_table(out: str) -> Table:
    """``check``'s text table, its grouped client columns expanded to one per client. A table
    too wide for the terminal is printed turned: a line per tool (``name: lint ok; ...``),
    then a line per client column."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line and i > 0 and not lines[i - 1])
    rows: dict[str, dict[str, str]] = {}
    end = start
    if lines[start].startswith("tool "):
        header = re.split(r"\s{2,}", lines[start].strip())[1:]
        end += 1
        while end < len(lines) and lines[end].strip() and not lines[end].startswith("clients "):
            cells = re.split(r"\s{2,}", lines[end].strip())
            rows[cells[0]] = dict(zip(header, cells[1:], strict=True))
            end += 1
    else:
        name = ""
        while not lines[end].startswith("client groups"):
            if lines[end].startswith("  "):
                column, _, text = lines[end].strip().partition(": ")
                rows[name][column] = text
            else:
                name, _, cells = lines[end].partition(": ")
                rows[name] = dict(c.split(" ", 1) for c in cells.split("; "))
            end += 1
    groups = _client_groups(lines[end:])
    table: Table = {}
    for name, cells in rows.items():
        row: dict[str, str] = {}
        for column, text in cells.items():
            for member in groups.get(column, [column]):
                plain = member == "lint" or member in PROVIDER_HEADERS
                row[member if plain else f"client:{member}"] = text
        table[name] = row
    return table


PROVIDER_HEADERS = set(PROVIDER_IDS)


def _client_groups(lines: list[str]) -> dict[str, list[str]]:
    """The legend of the grouped client columns (``clients that agree on every tool share a
    column:`` under a table, ``client groups ...:`` under a turned one) as
    ``{column heading: [client, ...]}``."""
    if not lines or not lines[0].startswith(("clients that agree", "client groups")):
        return {}
    text, groups = "", {}
    for line in lines[1:]:
        if not line.startswith("  "):
            break
        text += " " + line.strip() if line.startswith("    ") else "\n" + line.strip()
    for entry in text.strip().splitlines():
        heading, _, members = entry.partition(": ")
        groups[heading] = [m.strip() for m in members.split(",") if m.strip()]
    return groups


def _page_table(page: str) -> tuple[Table, Table]:
    """The page's table data: per tool and verdict column, the state and the text."""
    found = re.search(r'<script type="application/json" class="tl-ts-data">(.*?)</script>',
                      page, re.S)  # fmt: skip
    assert found is not None
    return _rows_table(json.loads(found[1]))


def _rows_table(data: dict[str, Any]) -> tuple[Table, Table]:
    """Table data (the page's, the widget's): ``(states, texts)`` per tool and column."""
    states: Table = {}
    texts: Table = {}
    columns = data["columns"]
    for row in data["rows"]:
        state, text = {}, {}
        for column, cell in zip(columns, row["cells"], strict=True):
            if column["kind"] == "verdict":
                state[column["id"]], text[column["id"]] = cell[2], cell[0]
            elif column["kind"] == "client":
                state[column["id"]] = text[column["id"]] = cell[0]
        states[row["name"]], texts[row["name"]] = state, text
    return states, texts


def _counts(out: str) -> dict[str, int]:
    """The findings per severity in ``check``'s first line (``3 tools; 5 errors, 1 warning``)."""
    first = out.splitlines()[0]
    found = {sev: int(n) for n, sev in re.findall(r"(\d+) (error|warning|info)s?\b", first)}
    return {sev: found.get(sev, 0) for sev in ("error", "warning", "info")}


def _page_counts(page: str) -> dict[str, int]:
    totals = page[page.find('class="tl-ts-totals"') :].partition("</div>")[0]
    found = {sev: int(n) for n, sev in re.findall(r">(\d+) (error|warning|info)s?<", totals)}
    return {sev: found.get(sev, 0) for sev in ("error", "warning", "info")}


# -- the test ----------------------------------------------------------------------------------


def _cases() -> Iterator[Any]:
    yield from (pytest.param(case, id=name) for name, case in CASES.items())
    yield from _corpus_cases()


@pytest.mark.parametrize("case", list(_cases()))
def test_every_front_end_shows_the_one_assessment(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    target = case.make(tmp_path)
    result = assess(_request(target, case.options))
    states, texts = result.verdict_table(), _oracle_texts(result)
    counts = {sev.value: n for sev, n in result.counts.items()}
    assert states, "the oracle judged no tool"

    # check --format json: every column's state, the counts, the exit code
    code, out = _run("check", target, *case.options, "--format", "json")
    data = json.loads(out)
    assert code == result.exit_code
    assert data["ok"] is result.ok
    assert {t["name"]: t["verdicts"] for t in data["tools"]} == states
    assert data["counts"] == counts

    # check's text table: the columns it shows, each cell the verdict's text
    code, out = _run("check", target, *case.options)
    assert code == result.exit_code
    assert _counts(out) == counts
    shown = _text_table(out)
    assert list(shown) == list(texts)
    for name, row in shown.items():
        assert row == {column: texts[name][column] for column in row}, name

    # check --format github: the exit code, and each tool a chosen client loses
    code, out = _run("check", target, *case.options, "--format", "github")
    assert code == result.exit_code
    for client, tool, verdict in re.findall(r"title=toollens (\S+)%3A (.+) ([a-z-]+)::", out):
        client = client.replace("%3A", ":")
        if tool in states and verdict in {v.value for v in BLOCKING}:
            assert states[tool][f"client:{client}"] == verdict, (client, tool)

    # report --html: the page's table data holds the same states and texts
    code, out = _run("report", target, *case.options, "--html", "page.html")
    page = (tmp_path / "page.html").read_text("utf-8")
    assert _page_table(page) == (states, texts)
    assert _page_counts(page) == counts

    # the Toolset widget, built from the same request
    from toollens.jupyter.toolset_widget import ToolsetView

    view = ToolsetView(_request(target, case.options))
    assert _rows_table({"columns": view.table.columns, "rows": view.table.rows}) == (
        states,
        texts,
    )
    view.close()

    # the lock (default options): an MCP tool list's client columns
    if case.listing and case.options == DEFAULT:
        code, _ = _run("snapshot", "--toolset", target)
        locked = json.loads((tmp_path / "toollens.lock.json").read_text("utf-8"))["tools"]
        for name, entry in locked.items():
            shown_clients = {k: v for k, v in states[name].items() if k.startswith("client:")}
            assert {f"client:{c}": v for c, v in entry["clients"].items()} == shown_clients


def test_a_clients_summary_counts_each_tool_as_its_column_shows_it(tmp_path: Path) -> None:
    # past VS Code's 128th tool the request is rejected: the summary said "131 accepted"
    # beside three request-rejected cells
    target = str(tmp_path / _many(tmp_path))
    _, out = _run("check", target, "--client", "vscode-copilot")
    assert "  vscode-copilot: 128 accepted, 3 lost (3 request-rejected)" in out.splitlines()
    assert Verdict.REQUEST_REJECTED in BLOCKING
