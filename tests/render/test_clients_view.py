"""The Clients view's model and its renderers: per client, the verdict, why, what it sends.

The cases are the recorded tool lists of ``tests/consumers/cases``; the verdicts themselves
are the consumers' (tested there); here: that the view says them, with each rule's source,
date and evidence, the name the client uses, and the JSON it sends as a diff against the
tool as served.
"""

from __future__ import annotations

import dataclasses
import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import toollens
from toollens.consumers import listing_from_payload
from toollens.core.errors import TargetError
from toollens.render.clients_html import clients_panel_html
from toollens.render.clients_view import (
    ToolClients,
    clients_data,
    clients_text,
    tool_clients,
    verdict_state,
)
from toollens.render.toolset_html import rows_html, table_of
from toollens.render.toolset_page import tool_views_html

CASES = Path(__file__).parents[1] / "consumers" / "cases"


def case(name: str, server_name: str | None = None) -> Any:
    data = json.loads((CASES / f"{name}.tools.json").read_text(encoding="utf-8"))
    return listing_from_payload(data, label=f"{name}.tools.json", server_name=server_name)


def view(name: str, tool: str, *clients: str, server_name: str | None = None) -> ToolClients:
    return tool_clients(case(name, server_name), tool, list(clients) or None)


# (case, tool, client, verdict, rule ids, name it sends, whether the JSON changes)
SIDES = [
    ("array-no-items", "update_dashboard", "vscode-copilot", "tool-dropped",
     ["vscode-copilot.array-without-items"], None, False),
    ("array-no-items", "update_dashboard", "claude-code", "accepted", [],
     "mcp__grafana__update_dashboard", True),  # renamed
    ("array-no-items", "update_dashboard", "cursor", "accepted", [], "update_dashboard", False),
    ("gemini-rewrite", "get_item", "gemini-cli", "rewritten",
     ["gemini-cli.renamed", "gemini-cli.nullable-type"], "mcp_my_server_get_item", True),
    ("root-anyof", None, "claude-code", "server-dropped", ["claude-code.input-not-object"],
     None, False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "tool", "client", "verdict", "rules", "sent_as", "changed"),
    SIDES,
    ids=[f"{s[0]}-{s[2]}" for s in SIDES],
)
def test_each_side_says_the_verdict_the_rules_and_the_name(
    name: str,
    tool: str | None,
    client: str,
    verdict: str,
    rules: list[str],
    sent_as: str | None,
    changed: bool,
) -> None:
    listing = case(name)
    tool = tool or listing.names[-1]
    (side,) = tool_clients(listing, tool, [client]).sides
    assert side.verdict.value == verdict
    assert [hit.rule.id for hit in side.hits][: len(rules)] == rules
    assert side.name == sent_as
    assert side.changed is changed
    assert bool(side.diff_lines()) is changed


def test_a_rename_is_a_change_with_the_listed_name_on_the_servers_side() -> None:
    (side,) = view("array-no-items", "ping", "claude-code").sides
    assert side.name == "mcp__grafana__ping"
    assert side.served["name"] == "ping"  # as the server sent it
    assert side.changed
    diff = side.diff_lines()
    assert '-  "name": "ping",' in diff  # the server's side keeps the name it listed
    assert '+  "name": "mcp__grafana__ping",' in diff
    text = clients_text(view("array-no-items", "ping", "claude-code"))
    assert "sends it as 'mcp__grafana__ping' (listed as 'ping'); what it changes:" in text


def test_a_key_the_client_only_moves_is_no_change() -> None:
    (side,) = view("array-no-items", "ping", "cursor").sides
    moved = dict(reversed(list(side.served.items())))  # same JSON, keys in reverse order
    diff = dataclasses.replace(side, sent={**moved, "strict": True}).diff_lines()[3:]
    removed = [line[1:] for line in diff if line.startswith("-")]
    added = [line[1:] for line in diff if line.startswith("+")]
    # Only the new key shows (and the comma the line before it gains), nothing moved.
    assert len(removed) == 1
    assert added == [removed[0] + ",", '  "strict": true']
    same = dataclasses.replace(side, sent=moved)
    assert not same.changed
    assert same.diff_lines() == []


def test_the_server_name_goes_into_the_names_clients_send() -> None:
    (side,) = view("array-no-items", "ping", "claude-code", server_name="ops").sides
    assert side.name == "mcp__ops__ping"


def test_the_diff_is_of_the_schema_in_the_clients_own_shape() -> None:
    # The Agents SDK sends `parameters` (and `strict`): the served tool is laid out the same
    # way, so the diff shows what the client changed, not a renamed key.
    (side,) = view("gemini-rewrite", "get_item", "openai-agents-strict").sides
    assert "parameters" in side.served
    assert "inputSchema" not in side.served
    diff = "\n".join(side.diff_lines())
    assert '+  "strict": true' in diff
    assert '-  "inputSchema"' not in diff
    assert diff.splitlines()[:2] == [
        "--- as the server sent it",
        "+++ as openai-agents-strict sends it",
    ]


def test_the_text_names_each_rule_with_source_date_and_evidence() -> None:
    text = clients_text(view("array-no-items", "update_dashboard", "vscode-copilot"))
    assert "vscode-copilot (VS Code Copilot): tool-dropped" in text
    assert "vscode-copilot.array-without-items at /properties/panels:" in text
    assert (
        "source: https://github.com/modelcontextprotocol/php-sdk/issues/151 "
        "(report, read 2026-12-02)"
    ) in text
    assert "sends: nothing (the tool does not reach the model)" in text


def test_the_text_shows_the_rewrite_as_a_diff() -> None:
    text = clients_text(view("gemini-rewrite", "get_item", "gemini-cli"))
    assert '+        "nullable": true' in text
    assert "sends it as 'mcp_my_server_get_item' (listed as 'get_item'); what it changes:" in text


def test_a_request_verdict_is_the_tools_verdict_and_is_shown() -> None:
    # 130 tools: the request names the tools past the 128th; every tool gets the name warning
    listing = case("many-tools")
    first, last = (
        tool_clients(listing, name, ["vscode-copilot"]).sides[0]
        for name in (listing.names[0], listing.names[-1])
    )
    assert last.verdict.value == "request-rejected"
    assert [r.hit.rule.id for r in last.requests] == [
        "vscode-copilot.too-many-tools",
        "vscode-copilot.prefixed-name-too-long",
    ]
    assert first.verdict.value == "accepted"
    assert [r.hit.rule.id for r in first.requests] == ["vscode-copilot.prefixed-name-too-long"]
    text = clients_text(tool_clients(listing, listing.names[-1], ["vscode-copilot"]))
    assert "request (request-rejected):" in text
    assert "request (warning):" in text


def test_the_json_carries_every_side() -> None:
    data = clients_data(view("gemini-rewrite", "get_item", "gemini-cli", "cursor"))
    assert data["tool"] == "get_item"
    assert data["server_name"] == "my server"
    gemini, cursor = data["clients"]
    assert gemini["verdict"] == "rewritten"
    assert gemini["name"] == "mcp_my_server_get_item"
    assert {"id", "source", "date", "evidence", "message", "pointer", "fix"} <= set(
        gemini["rules"][0]
    )
    assert gemini["sent"]["inputSchema"]["properties"]["id"] == {"type": "string", "nullable": True}
    assert cursor["verdict"] == "accepted"
    assert cursor["diff"] == []


def test_a_tool_not_in_the_list_is_an_error_naming_the_tools() -> None:
    with pytest.raises(TargetError, match="'nope' is not in the tool list") as caught:
        view("array-no-items", "nope")
    assert "ping" in str(caught.value)


@pytest.mark.parametrize(
    ("verdict", "state"),
    [("accepted", "ok"), ("rewritten", "warning"), ("tool-dropped", "error"),
     ("server-dropped", "error"), ("request-rejected", "error")],
)  # fmt: skip
def test_verdict_states(verdict: str, state: str) -> None:
    from toollens.consumers import Verdict

    assert verdict_state(Verdict(verdict)) == state


# -- HTML -------------------------------------------------------------------------------------


class _Collect(HTMLParser):
    """The elements of a fragment (tag, attributes) and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(html: str) -> _Collect:
    found = _Collect()
    found.feed(html)
    return found


def test_the_picker_form_shows_the_chosen_clients_detail_only() -> None:
    shown = view("array-no-items", "update_dashboard")
    html = clients_panel_html(shown, "vscode-copilot", picker=True)
    found = parsed(html)
    selects = [a for t, a in found.elements if t == "select"]
    assert selects
    assert "data-tl-client" in selects[0]
    options = [a for t, a in found.elements if t == "option"]
    assert [o["value"] for o in options] == list(shown.clients)
    assert [o["value"] for o in options if "selected" in o] == ["vscode-copilot"]
    rules = [a["data-rule"] for t, a in found.elements if "data-rule" in a]
    assert rules == ["vscode-copilot.array-without-items"]
    links = [a["href"] for t, a in found.elements if t == "a"]
    assert links == ["https://github.com/modelcontextprotocol/php-sdk/issues/151"]
    assert "Nothing: the tool does not reach the model." in "".join(found.text)
    assert not [a for t, a in found.elements if t == "details"]


def test_the_static_form_folds_every_client_but_one() -> None:
    shown = view("gemini-rewrite", "get_item")
    found = parsed(clients_panel_html(shown))
    details = [a for t, a in found.elements if t == "details"]
    assert [d["data-client"] for d in details] == list(shown.clients)
    # unfolded: the first client that does not send the tool as listed
    assert [d["data-client"] for d in details if "open" in d] == ["gemini-cli"]
    html = clients_panel_html(shown, "cursor")
    assert [
        a["data-client"] for t, a in parsed(html).elements if t == "details" and "open" in a
    ] == ["cursor"]


def test_the_rewrite_is_an_inline_diff_against_the_tool_as_served() -> None:
    html = clients_panel_html(view("gemini-rewrite", "get_item", "gemini-cli"), picker=True)
    assert "tl-ldiff" in html
    assert "tl-add" in html
    assert "tl-del" in html
    assert "listed as " in html


def test_user_text_is_escaped() -> None:
    data = {
        "serverInfo": {"name": "<b>srv</b>"},
        "tools": [
            {"name": "t", "description": "<script>x</script>", "inputSchema": {"type": "object"}}
        ],
    }
    listing = listing_from_payload(data, label="x.json")
    html = clients_panel_html(tool_clients(listing, "t", ["cursor"]))
    assert "<script>x" not in html
    assert "<b>srv" not in html
    assert "&lt;b&gt;srv&lt;/b&gt;" in html


def test_a_notebook_shows_the_same_panel_with_the_stylesheet() -> None:
    shown = view("array-no-items", "update_dashboard", "vscode-copilot")
    bundle = shown._repr_mimebundle_()
    assert bundle["text/html"].startswith('<div class="tl-root" data-toollens="clients" style="')
    assert "<style>" in bundle["text/html"]  # the stylesheet stays; the layout is also inline
    import re

    untagged = re.sub(r' style="[^"]*"', "", bundle["text/html"])  # the inline layout aside
    assert clients_panel_html(shown) in untagged
    assert bundle["text/plain"] == clients_text(shown) == str(shown)
    assert set(shown._repr_mimebundle_(include=["text/plain"])) == {"text/plain"}


# -- the report and the toolset table ---------------------------------------------------------


def test_the_static_report_and_the_toolset_page_hold_the_same_panel() -> None:
    from toollens.render.html import render_html

    ts = toollens.toolset(str(CASES / "array-no-items.tools.json"))
    assert ts.listing is not None
    assert ts.listing.server_name == "grafana"
    entry = ts.tools[1]
    assert entry.report is not None
    shown = tool_clients(ts.listing, entry.name)
    panel = clients_panel_html(shown)
    assert panel in render_html(entry.report, clients=shown)
    assert panel in tool_views_html(1, entry, shown)
    assert 'data-view="clients"' not in render_html(entry.report)


def test_the_toolset_table_has_a_client_column_per_client_one_drawn() -> None:
    ts = toollens.toolset(str(CASES / "array-no-items.tools.json"))
    table = table_of(ts)
    assert table.clients == (
        "claude-code", "claude-desktop", "cursor", "vscode-copilot", "gemini-cli",
        "mcp-python", "openai-agents", "openai-agents-strict",
    )  # fmt: skip
    vscode = table.column("client:vscode-copilot")
    assert [vscode.cell(row).to_json() for row in table.rows] == [
        ["accepted", 0, "ok"],
        ["tool-dropped", 2, "error"],
    ]
    drawn = [c.id for c in table.drawn("vscode-copilot") if c.kind == "client"]
    assert drawn == ["client:vscode-copilot"]
    assert [c.id for c in table.drawn() if c.kind == "client"] == ["client:claude-code"]
    head = rows_html(table, table.rows)
    assert head.count("<th ") == len(table.drawn())
    data = table.to_json()
    assert {"id": "client:cursor", "title": "cursor", "kind": "client"} in data["columns"]


def test_a_toolset_without_a_listing_has_no_client_column() -> None:
    ts = toollens.toolset(str(Path(__file__).parents[1] / "cli_fixtures" / "weather.tool.json"))
    assert ts.listing is None
    assert table_of(ts).clients == ()
