"""The explorer's Remedies in a real browser: a Fix button edits the editor's text as one
undo step and the views follow; a pasted error marks the editor's line and the schema's
pointer and shows the finding. Screenshots at 1,400 and 1,000 px go to tests/artifacts/.

Run one front end at a time on a shared machine:
``pytest tests/browser/test_remedies_browser.py -k voila``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from explorer_pages import chromium, open_notebook, serving, write_explorer_notebook
from scenario import HAS_TEXT_JS, TEXT_JS, VIEW_JS
from servers import Server, make_tmp, playwright_api

sync_api = playwright_api()
expect = sync_api.expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
MESSY = Path(__file__).resolve().parents[1] / "fixes" / "messy_tools.py"
EXPLORER = ".tl-xp"
REMEDIES = f"{EXPLORER} .tl-remedies .tl-fixes-body"
EXPLAIN = f"{EXPLORER} .tl-explain"
ERROR = (
    "openai.BadRequestError: Error code: 400 - {'error': {'message': \"Invalid schema for "
    "function 'find_orders': In context=('properties', 'limit'), schema must have a 'type' "
    "key.\", 'param': 'tools[0].function.parameters'}}"
)
UNDO_JS = (
    "() => {"
    + VIEW_JS
    + """
  const view = tlView();
  view.focus();
  return true;
}"""
)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    tmp = make_tmp("toollens-remedy-nb-")
    shutil.copy(MESSY, tmp / "messy.py")
    write_explorer_notebook(tmp, "messy.ipynb", "messy", "find_orders")
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api, "toollens-remedy-chromium-") as context:
        yield context


@pytest.fixture(scope="module", params=("voila", "jupyterlab"))
def front_end(request: Any, workdir: Path) -> Iterator[tuple[str, Server]]:
    with serving(request.param, workdir, "toollens-remedy-") as server:
        yield request.param, server


def test_fix_button_and_pasted_error(browser: Any, front_end: tuple[str, Server]) -> None:
    page = open_notebook(browser, *front_end, "messy.ipynb")
    try:
        fix = page.locator(f"{REMEDIES} .tl-fix", has_text="'page'")
        expect(fix).to_be_visible(timeout=180_000)
        assert "page: which page" in page.evaluate(TEXT_JS)

        # Fix: the entry leaves the editor in one edit, and the views follow.
        fix.locator("button").click()
        page.wait_for_function(
            "() => {" + VIEW_JS + " return !tlView().state.doc.toString().includes('page:'); }"
        )
        expect(page.locator(f"{REMEDIES} .tl-fix", has_text="'page'")).to_have_count(0)
        expect(page.locator(f"{EXPLORER} .tl-slot-findings")).not_to_contain_text(
            "documents 'page'"
        )

        # One undo step brings it back (and the views follow again).
        page.evaluate(UNDO_JS)
        page.keyboard.press("Control+z")
        page.wait_for_function(HAS_TEXT_JS, arg="page: which page")
        expect(page.locator(f"{REMEDIES} .tl-fix", has_text="'page'")).to_have_count(1)

        # A pasted error: the editor marks the parameter's line, the schema its pointer.
        page.locator(f"{EXPLAIN} > summary").click()
        page.locator(f"{EXPLAIN} .tl-error-input").fill(ERROR)
        page.locator(f"{EXPLAIN} .tl-explain-btn").click()
        answer = page.locator(f"{EXPLAIN} .tl-explained-body")
        expect(answer).to_contain_text("/properties/limit")
        expect(answer).to_contain_text("openai.untyped-node")
        expect(answer.locator(".tl-line.tl-explained")).to_contain_text('"limit"')
        mark = page.locator(f"{EXPLORER} .tl-editor .cm-lintRange-error").first
        expect(mark).to_contain_text("limit=20")

        for width in (1400, 1000):
            page.set_viewport_size({"width": width, "height": 1000})
            page.locator(EXPLAIN).scroll_into_view_if_needed()
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"remedies_{front_end[0]}_{width}.png"))
            box = page.locator(EXPLAIN).bounding_box()
            assert box is not None
            assert box["width"] <= width
    finally:
        page.close()
