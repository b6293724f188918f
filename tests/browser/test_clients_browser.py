"""The Clients view in Chromium: the static ``report --html`` page of a saved tool list (the
table's client picker, an opened tool unfolding that client), and the Toolset view of an MCP
server in Voila (the table's picker, the explorer's own select). Screenshots at 1,400 and
1,000 px go to ``tests/artifacts/``.

The tool list is shaped like the corpus servers' answers (a Grafana-like server: an array
without ``items``, a nullable type, a name Cursor's 60 characters cut off).
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from explorer_pages import chromium, open_notebook, serving
from servers import make_tmp, offline_page, playwright_api

import toollens
from toollens.render.toolset_page import render_toolset_page

sync_api = playwright_api()
expect = sync_api.expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
RAW_SERVER = Path(__file__).resolve().parents[1] / "mcp" / "mcp_servers" / "raw_tools.py"

TOOLS: list[dict[str, Any]] = [
    {
        "name": "search_dashboards",
        "description": "Search dashboards by title or tag.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words in the title."},
                "tag": {"type": ["string", "null"], "description": "Only dashboards with it."},
            },
            "required": ["query"],
        },
    },
    {
        "name": "update_dashboard",
        "description": "Update a dashboard's panels.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "uid": {"type": "string", "description": "The dashboard's uid."},
                "panels": {"type": "array", "description": "The new panels."},
            },
            "required": ["uid", "panels"],
        },
    },
    {
        "name": "list_alert_rules_for_every_folder_of_the_organisation",
        "description": "List the alert rules of every folder.",
        "inputSchema": {"type": "object", "properties": {}},
    },
]
LISTING = {"serverInfo": {"name": "grafana", "version": "1.0"}, "tools": TOOLS}


def _screenshots(page: Any, shown: Any, name: str) -> None:
    """``tests/artifacts/<name>_1400.png`` and ``_1000.png``, ``shown`` scrolled into view."""
    for width in (1400, 1000):
        page.set_viewport_size({"width": width, "height": 900})
        shown.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"{name}_{width}.png"), full_page=True)


def test_the_static_page_picks_a_client_and_shows_what_it_sends(tmp_path: Path) -> None:
    saved = tmp_path / "grafana.tools.json"
    saved.write_text(json.dumps(LISTING), encoding="utf-8")
    page_file = tmp_path / "grafana.html"
    page_file.write_text(render_toolset_page(toollens.toolset(str(saved))), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    with offline_page(sync_api, page_file) as page:
        head = page.locator(".tl-ts-tools thead th")
        expect(head.last).to_have_text("claude-code")  # one client column: the first
        page.select_option(".tl-ts-client", "vscode-copilot")
        expect(head.last).to_have_text("vscode-copilot")
        cells = page.locator(".tl-ts-tools td[data-client]")
        assert cells.all_inner_texts() == ["accepted", "tool-dropped", "accepted"]
        page.select_option(".tl-ts-client", "cursor")
        assert cells.all_inner_texts() == ["accepted", "accepted", "tool-dropped"]
        page.select_option(".tl-ts-client", "vscode-copilot")
        page.click("text=update_dashboard")
        clients = page.locator('.tl-ts-detail #tl-tool-1 [data-view="clients"]')
        opened = clients.locator("details.tl-cl-client[open]")
        expect(opened).to_have_count(1)
        expect(opened).to_have_attribute("data-client", "vscode-copilot")
        expect(opened).to_contain_text("vscode-copilot.array-without-items")
        expect(opened).to_contain_text("Nothing: the tool does not reach the model.")
        expect(opened.locator("a").first).to_have_attribute(
            "href", "https://github.com/modelcontextprotocol/php-sdk/issues/151"
        )
        chosen = clients.locator(".tl-cl-summary tr.tl-cl-chosen")
        expect(chosen).to_have_attribute("data-client", "vscode-copilot")
        page.select_option(".tl-ts-client", "gemini-cli")  # the open tool follows
        expect(opened).to_have_attribute("data-client", "gemini-cli")
        expect(opened).to_contain_text("mcp_grafana_update_dashboard")
        _screenshots(page, clients, "clients_page")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 1000, f"the page scrolls sideways at 1000 px ({width} px)"
        # a rewrite: Gemini CLI's nullable type, as a diff against the tool as served
        page.click("text=search_dashboards")
        rewritten = page.locator(
            '.tl-ts-detail #tl-tool-0 [data-view="clients"] details.tl-cl-client[open]'
        )
        expect(rewritten).to_have_attribute("data-client", "gemini-cli")
        expect(rewritten.locator(".tl-ldiff .tl-add")).to_contain_text(
            ['"type": "string"', '"nullable": true']
        )
        deleted = rewritten.locator(".tl-ldiff .tl-del")
        expect(deleted.filter(has_text='"type": [')).to_have_count(1)  # the list type went
        expect(deleted.filter(has_text='"name": ')).to_have_count(1)  # the client renames
        rewritten.screenshot(path=str(ARTIFACTS / "clients_page_rewrite_1000.png"))
        # a row of the summary unfolds that client
        summary = page.locator('.tl-ts-detail #tl-tool-0 .tl-cl-summary tr[data-client="cursor"]')
        summary.click()
        expect(rewritten).to_have_attribute("data-client", "cursor")
        expect(page.locator(".tl-ts-client")).to_have_value("cursor")  # the picker follows
        expect(page.locator(".tl-ts-tools td[data-client]").first).to_have_attribute(
            "data-client", "cursor"
        )


# -- the Toolset view of an MCP server, in Voila ----------------------------------------------


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    tmp = make_tmp("toollens-clients-nb-")
    (tmp / "tools.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    target = "mcp:" + shlex.join([sys.executable, str(RAW_SERVER), str(tmp / "tools.json")])
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from toollens.jupyter import ToolsetView\n"
            f"view = ToolsetView({target!r})\n"
            "view.table.client = 'vscode-copilot'\n"
            "view.table.selected = 1\n"
            "view"
        )
    ]
    nbformat.write(nb, tmp / "clients.ipynb")
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


def test_the_toolset_view_of_a_server_in_voila(workdir: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with (
        chromium(sync_api, "toollens-clients-chromium-") as browser,
        serving("voila", workdir, "toollens-clients-") as server,
    ):
        page = open_notebook(browser, "voila", server, "clients.ipynb")
        page.set_viewport_size({"width": 1400, "height": 900})
        panel = page.locator('.tl-xp .tl-slot-clients [data-view="clients"]')
        expect(panel).to_be_visible(timeout=180_000)
        expect(page.locator(".tl-ts-client")).to_have_value("vscode-copilot")
        expect(panel.locator(".tl-cl")).to_have_attribute("data-client", "vscode-copilot")
        expect(panel).to_contain_text("vscode-copilot.array-without-items")
        # the explorer's own select: the kernel draws the client picked
        panel.locator("select[data-tl-client]").select_option("gemini-cli")
        expect(panel.locator(".tl-cl")).to_have_attribute("data-client", "gemini-cli")
        expect(page.locator(".tl-ts-client")).to_have_value("gemini-cli")  # and the table's
        # the server names itself raw-json: Gemini CLI puts that in the name
        expect(panel).to_contain_text("Named mcp_raw-json_update_dashboard")
        # the table's picker reaches the open explorer
        page.select_option(".tl-ts-client", "cursor")
        expect(panel.locator(".tl-cl")).to_have_attribute("data-client", "cursor")
        expect(panel.locator("select[data-tl-client]")).to_have_value("cursor")
        expect(panel).to_contain_text("Named update_dashboard")
        panel.locator('.tl-cl-summary tr[data-client="vscode-copilot"]').click()  # a row picks
        expect(panel.locator(".tl-cl")).to_have_attribute("data-client", "vscode-copilot")
        expect(panel).to_contain_text("Nothing: the tool does not reach the model.")
        _screenshots(page, panel, "clients_voila")
