"""The toolset's static HTML page in Chromium, offline: it renders, sorts, filters and links.

Every request other than the page itself is recorded and refused, so a page that needed the
network (a CDN script, a web font) fails here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import toollens
from toollens.render.toolset_html import render_toolset_page

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is not installed (set CHROMIUM=...)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def _tools() -> list[object]:
    def zeta(a: int) -> int:
        """Zeta: add one to a whole number and return it."""
        return a

    def alpha(b: str, c: str) -> str:
        """Alpha: join two strings with a space between them."""
        return b

    bad = {"name": "get page", "input_schema": {"type": "object"}}
    return [zeta, alpha, bad, {"oops": 1}]


def test_static_page_offline(tmp_path: Path) -> None:
    page_file = tmp_path / "toolset.html"
    page_file.write_text(render_toolset_page(toollens.toolset(_tools())), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    requests: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.route(
                "**/*",
                lambda route: (
                    route.continue_()
                    if route.request.url.startswith("file:")
                    else (requests.append(route.request.url), route.abort())
                ),
            )
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(page_file.as_uri())
            names = "rows => rows.filter(r => !r.hidden).map(r => r.cells[1].textContent)"
            assert page.eval_on_selector_all(".tl-ts-row", names) == [
                "zeta",
                "alpha",
                "get page",
                "#3",
            ]
            page.click(".tl-ts-tools th:nth-child(2)")  # sort by tool name
            assert page.eval_on_selector_all(".tl-ts-row", names) == [
                "#3",
                "alpha",
                "get page",
                "zeta",
            ]
            page.fill(".tl-ts-filter", "zeta")
            assert page.eval_on_selector_all(".tl-ts-row", names) == ["zeta"]
            page.fill(".tl-ts-filter", "")
            page.select_option(".tl-ts-level", "0")  # errors only
            shown = page.eval_on_selector_all(".tl-ts-row", names)
            assert shown == ["#3", "get page"]
            page.select_option(".tl-ts-level", "")
            page.click("text=alpha")
            assert page.evaluate("location.hash") == "#tl-tool-1"
            page.screenshot(path=str(ARTIFACTS / "toolset_page_1400.png"))
            page.set_viewport_size({"width": 1000, "height": 900})
            page.screenshot(path=str(ARTIFACTS / "toolset_page_1000.png"))
            assert errors == []
        finally:
            browser.close()
    assert requests == []
