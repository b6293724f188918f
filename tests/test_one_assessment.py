"""Every front end shows the same assessment: per tool and per column one verdict, the same
counts and the same exit code.

For each target (the synthetic cases of issue 47, the tests' tool lists and modules, and the
real servers' answers in ``../shared/corpora/mcp``, skipped when absent) under several
option sets, this reads what each front end shows, as a user would see it:

- ``check``'s text table (parsed back into states), its JSON, its GitHub annotations;
- the ``report --html`` page's table data and totals;
- the Toolset widget's table data and totals, built from the request ``check`` builds;
- the lock ``snapshot --toolset`` writes (each default client's verdict per MCP tool);

and asserts they agree. The synthetic cases run every time; the corpora are ``slow``.
"""

from __future__ import annotations

import html
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from toollens.cli import main
from toollens.cli.app import build_parser
from toollens.cli.check import check_request
from toollens.core.choices import PROVIDER_IDS
from toollens.core.records import SEVERITY_ORDER

TESTS = Path(__file__).parent
CASES = TESTS / "consumers" / "cases"
CORPUS = TESTS.parent.parent / "shared" / "corpora" / "mcp"
CORPUS_FILES = sorted(CORPUS.glob("*.tools.json")) if CORPUS.is_dir() else []

SEVERITIES = [s.value for s in SEVERITY_ORDER]


def _tool(name: str, schema: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    schema = schema or {"type": "object", "properties": {"q": {"type": "string"}}}
    return {"name": name, "description": f"Do {name}.", "inputSchema": schema, **more}


def _listing(tools: list[dict[str, Any]]) -> str:
    return json.dumps({"protocolVersion": "2025-11-25", "tools": tools})


def _module(count: int, optional: bool) -> str:
    extra = ", b: int | None = None" if optional else ""
    doc = "    '''Do {i}.\n\n    Args:\n        a: the a.\n    '''\n"
    return "\n".join(
        f"def f{i}(a: str{extra}) -> str:\n" + doc.format(i=i) + "    return a\n"
        for i in range(count)
    )


def _function(name: str, strict: bool | None = None) -> dict[str, Any]:
    """A Chat ``tools`` item; a strict one requires its parameter."""
    params = {**SCHEMA, "required": ["q"]} if strict else SCHEMA
    function = {"name": name, "description": f"Do {name}.", "parameters": params}
    return {"type": "function", "function": {**function, **({"strict": True} if strict else {})}}


SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}
ROOT_ANYOF = {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]}
# (file name, its text): the cases issue 47 measured
SYNTHETIC: dict[str, str] = {
    "many131.json": _listing([_tool(f"t{i}") for i in range(131)]),
    "rootanyof.json": _listing([_tool("draw", ROOT_ANYOF), _tool("ping")]),
    "notype.json": _listing([_tool("draw", {"properties": {"a": {"type": "string"}}})]),
    "arrayout.json": _listing(
        [_tool("glob", outputSchema={"type": "array", "items": {"type": "string"}}), _tool("p")]
    ),
    "reqnull.json": _listing([_tool("find", {**SCHEMA, "required": None})]),
    # a list one client takes whole and the SDK clients lose whole (--client all: grouped)
    "mixed.json": _listing(
        [_tool("pick", ROOT_ANYOF), _tool("bad name", {**SCHEMA, "required": None})]
    ),
    # an OpenAI Chat payload as written: a strict tool without additionalProperties
    "chat.json": json.dumps({"tools": [_function("find", strict=True), _function("plain")]}),
    "strict25.py": _module(25, optional=True),
    "many130.py": _module(130, optional=False),
}

OPTION_SETS: dict[str, tuple[str, ...]] = {
    "default": (),
    "anthropic": ("--provider", "anthropic"),
    "two-providers-no-strict": ("--provider", "openai-chat", "--provider", "gemini", "--no-strict"),
}
MCP_OPTION_SETS: dict[str, tuple[str, ...]] = {
    "vscode": ("--client", "vscode-copilot"),
    "claude-and-agents": ("--client", "claude-code", "--client", "openai-agents"),
    "all-clients": ("--client", "all"),
}


@dataclass(frozen=True)
class Shown:
    """What one front end shows: ``{tool: {column: state}}``, the counts, the exit code."""

    verdicts: dict[str, dict[str, str]]
    counts: dict[str, int] | None = None
    code: int | None = None
    headline: str = ""


def run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    assert code != 3, err.getvalue()
    return code, out.getvalue()


def _state(text: str) -> str:
    """A verdict cell's text as its state: ``2 warnings, 1 view error`` is an error."""
    if text in ("ok", "not read", "-") or text.startswith("not checked"):
        return "not checked" if text.startswith("not checked") else text
    if "view error" in text or text.startswith("no payload"):
        return "error"
    if not text[:1].isdigit():
        return text  # a client's verdict
    words = [part.split()[1].rstrip("s") for part in text.split(", ")]
    if all(w in SEVERITIES for w in words):
        return min(words, key=SEVERITIES.index)
    return text  # a client's verdict


def _counts_of(text: str) -> dict[str, int]:
    found = dict.fromkeys(SEVERITIES, 0)
    for n, word in re.findall(r"(\d+) (error|warning|info)s?\b", text):
        found[word] += int(n)
    return found


def text_shown(target: str, options: tuple[str, ...]) -> Shown:
    code, out = run("check", target, *options)
    lines = out.splitlines()
    verdicts = {
        tool: {column: _state(text) for column, text in cells.items()}
        for tool, cells in _text_cells(lines).items()
    }
    counted = lines[0].split("; ", 1)[1]
    return Shown(verdicts, _counts_of(counted.split(", view error")[0]), code, lines[0])


def _text_cells(lines: list[str]) -> dict[str, dict[str, str]]:
    """``check``'s text table as ``{tool: {column: text}}``, a grouped client column (clients
    that agree on every tool) expanded to each of its clients. A table too wide for the
    terminal is printed turned: a line per tool (``name: openai-chat ok; lint ok``), then a
    line per client column."""
    rows: dict[str, dict[str, str]] = {}
    end = 2
    if lines[end].startswith("tool "):
        head = re.split(r"\s{2,}", lines[end].strip())[1:]
        end += 1
        while end < len(lines) and lines[end].strip() and not lines[end].startswith("clients "):
            cells = re.split(r"\s{2,}", lines[end].strip())
            rows[cells[0]] = dict(zip(head, cells[1:], strict=True))
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
    providers = set(PROVIDER_IDS)
    return {
        tool: {
            (member if member == "lint" or member in providers else f"client:{member}"): text
            for column, text in cells.items()
            for member in groups.get(column, [column])
        }
        for tool, cells in rows.items()
    }


def _client_groups(lines: list[str]) -> dict[str, list[str]]:
    """The legend under a table with grouped client columns, ``{heading: [client, ...]}``."""
    if not lines or not lines[0].startswith(("clients that agree", "client groups")):
        return {}
    text = ""
    for line in lines[1:]:
        if not line.startswith("  "):
            break
        text += " " + line.strip() if line.startswith("    ") else "\n" + line.strip()
    groups = {}
    for entry in text.strip().splitlines():
        heading, _, members = entry.partition(": ")
        groups[heading] = [m.strip() for m in members.split(",") if m.strip()]
    return groups


def json_shown(target: str, options: tuple[str, ...]) -> Shown:
    code, out = run("check", target, *options, "--format", "json")
    data = json.loads(out)
    assert data["ok"] is (code == 0)
    verdicts = {}
    for tool in data["tools"]:
        found = {k: v for k, v in tool["verdicts"].items() if not k.startswith("client:")}
        for client in tool.get("clients", []):
            found[f"client:{client['client']}"] = client["verdict"]
        verdicts[tool["name"]] = found
    return Shown(verdicts, {k: v for k, v in data["counts"].items() if k in SEVERITIES}, code)


def github_code(target: str, options: tuple[str, ...]) -> tuple[int, str]:
    return run("check", target, *options, "--format", "github")


def _table_shown(columns: list[dict[str, Any]], rows: list[dict[str, Any]], totals: str) -> Shown:
    verdicts = {}
    for row in rows:
        found = {}
        for column, cell in zip(columns, row["cells"], strict=True):
            if column["kind"] == "verdict":
                found[column["id"]] = cell[2]
            elif column["kind"] == "client":
                found[column["id"]] = cell[0]
        verdicts[row["name"]] = found
    return Shown(verdicts, _counts_of(html.unescape(re.sub("<[^>]+>", " ", totals))))


def page_shown(target: str, options: tuple[str, ...], out_file: Path) -> Shown:
    page_options = [o for o in options if o != "--format"]
    code, _ = run("report", target, "--html", str(out_file), *page_options)
    assert code == 0
    page = out_file.read_text(encoding="utf-8")
    data = json.loads(re.search(r'class="tl-ts-data">(.*?)</script>', page, re.S)[1])  # type: ignore[index]
    totals = re.search(r'<div class="tl-ts-totals">(.*?)</div>', page, re.S)[1]  # type: ignore[index]
    return _table_shown(data["columns"], data["rows"], totals)


def widget_shown(target: str, options: tuple[str, ...]) -> Shown:
    pytest.importorskip("ipywidgets")
    from toollens.jupyter.toolset_widget import ToolsetView

    parser = build_parser(io.StringIO(), io.StringIO())
    request = check_request(parser.parse_args(["check", target, *options]))
    view = ToolsetView(request)
    try:
        return _table_shown(view.table.columns, view.table.rows, view.table.totals)
    finally:
        view.close()


def lock_shown(target: str, options: tuple[str, ...]) -> dict[str, dict[str, str]]:
    strict = () if "--no-strict" not in options else ("--no-strict",)
    out, err = io.StringIO(), io.StringIO()
    code = main(["snapshot", "--toolset", target, *strict], stdout=out, stderr=err)
    if code == 3 and "cannot be read" in err.getvalue():
        return {}  # a lock refuses a tool it cannot read (check shows it "not read")
    assert code == 0, err.getvalue()
    lock = json.loads(Path("toollens.lock.json").read_text(encoding="utf-8"))
    return {name: t.get("clients", {}) for name, t in lock["tools"].items()}


def _same_columns(one: Shown, other: Shown, what: str) -> None:
    """Every column both show holds the same state for every tool."""
    assert one.verdicts.keys() == other.verdicts.keys(), what
    for tool, columns in one.verdicts.items():
        shared = columns.keys() & other.verdicts[tool].keys()
        mine = {c: columns[c] for c in shared}
        theirs = {c: other.verdicts[tool][c] for c in shared}
        assert mine == theirs, f"{what}: {tool}"


def assert_one_assessment(target: str, options: tuple[str, ...], tmp: Path) -> None:
    text = text_shown(target, options)
    as_json = json_shown(target, options)
    github, annotations = github_code(target, options)
    assert text.code == as_json.code == github, "exit codes"
    assert text.headline in annotations.splitlines(), "the annotations' summary line"
    assert text.counts == as_json.counts, "the text headline's counts and the JSON's"
    _same_columns(text, as_json, "text table vs JSON")
    page = page_shown(target, options, tmp / "page.html")
    widget = widget_shown(target, options)
    for shown, what in ((page, "page"), (widget, "widget")):
        _same_columns(as_json, shown, f"JSON vs {what}")
        assert shown.counts == as_json.counts, f"{what} totals"
    assert page.verdicts == widget.verdicts, "page vs widget"
    for tool, columns in as_json.verdicts.items():  # every column check has, the page has
        assert set(columns) <= set(page.verdicts[tool]) | {"lint"}, tool
    unread = any(v.get("lint") == "not read" for v in as_json.verdicts.values())
    if any(k.startswith("client:") for v in as_json.verdicts.values() for k in v):
        locked = lock_shown(target, options)
        assert locked or unread, "the lock refuses only a list with a tool it cannot read"
        for tool, clients in locked.items():
            for client, verdict in clients.items():
                column = f"client:{client}"
                if column in as_json.verdicts[tool]:
                    assert as_json.verdicts[tool][column] == verdict, f"lock: {tool} {client}"


# The everyday loop runs these; the rest of the matrix is slow (a few seconds a case).
FAST = {
    ("many131.json", "vscode"),
    ("rootanyof.json", "default"),
    ("strict25.py", "default"),
    ("mixed.json", "all-clients"),
    ("chat.json", "anthropic"),
}


def _cases() -> list[Any]:
    found = [(name, o) for name in SYNTHETIC for o in OPTION_SETS]
    lists = [name for name in SYNTHETIC if name.endswith(".json") and name != "chat.json"]
    found += [(name, o) for name in lists for o in MCP_OPTION_SETS]
    return [
        pytest.param(n, o, id=f"{n}-{o}", marks=() if (n, o) in FAST else pytest.mark.slow)
        for n, o in found
    ]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _options(name: str) -> tuple[str, ...]:
    return OPTION_SETS[name] if name in OPTION_SETS else MCP_OPTION_SETS[name]


@pytest.mark.parametrize(("name", "options"), _cases())
def test_every_front_end_shows_one_assessment_of_the_synthetic_cases(
    name: str, options: str, workdir: Path
) -> None:
    (workdir / name).write_text(SYNTHETIC[name], encoding="utf-8")
    target = name.removesuffix(".py") if name.endswith(".py") else name
    assert_one_assessment(target, _options(options), workdir)


CORPORA: list[Path] = [*sorted(CASES.glob("*.tools.json")), *CORPUS_FILES]


@pytest.mark.slow
@pytest.mark.parametrize("path", CORPORA, ids=[p.name for p in CORPORA])
@pytest.mark.parametrize("options", ["default", "vscode", "anthropic", "all-clients"])
def test_every_front_end_shows_one_assessment_of_the_corpora(
    path: Path, options: str, workdir: Path
) -> None:
    target = workdir / path.name
    target.write_bytes(path.read_bytes())
    assert_one_assessment(path.name, _options(options), workdir)


@pytest.mark.slow
@pytest.mark.parametrize("options", list(OPTION_SETS))
def test_every_front_end_shows_one_assessment_of_a_module(
    options: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fixtures = TESTS / "cli_fixtures"
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(fixtures))
    assert_one_assessment("tools_v1", _options(options), tmp_path)
