"""The explorer's Tokens view in Voila + Debian's Chromium: it renders, and typing a longer
description raises the total. Screenshots at 1400 and 1000 px go to ``tests/artifacts/``.
Skipped without Chromium or Playwright; servers on 127.0.0.1 only, always stopped.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from servers import Server, launch_browser, make_tmp, playwright_api, start_voila, stop

sync_api = playwright_api()
pytest.importorskip("tiktoken")
expect = sync_api.expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "tests" / "artifacts"
CELLS = (
    "import toollens\n"
    "from toollens.examples import EXAMPLES\n"
    "from toollens.jupyter.tokens_view import add_tokens_view\n"
    'add_tokens_view(toollens.Explorer(EXAMPLES["get_weather"]))',
)
TOKENS = ".tl-xp .tl-slot-tokens"
CITY_LINE = 'e.g. "Paris" or "San Francisco, CA".'
# Put the caret after a needle in the explorer's CodeMirror view (hung on .tl-editor).
CARET_JS = """(needle) => {
  const view = document.querySelector('.tl-xp .tl-editor').tlView;
  const at = view.state.doc.toString().indexOf(needle);
  if (at < 0) return -1;
  view.focus();
  view.dispatch({selection: {anchor: at + needle.length}});
  return at + needle.length;
}"""
TOTAL_JS = """() => {
  const head = document.querySelector('.tl-xp .tl-slot-tokens [data-total]');
  return head ? Number(head.getAttribute('data-total')) : -1;
}"""


@pytest.fixture(scope="module")
def voila() -> Iterator[Server]:
    work, tmp = make_tmp("toollens-tok-nb-"), make_tmp("toollens-tok-voila-")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(cell) for cell in CELLS]
    nbformat.write(nb, work / "tokens.ipynb")
    server = start_voila(tmp, work)
    try:
        server.wait_ready()
        yield server
    finally:
        stop(server)
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def page(voila: Server) -> Iterator[Any]:
    tmp = make_tmp("toollens-tok-chromium-")
    try:
        with sync_api.sync_playwright() as pw:
            context = launch_browser(pw, tmp)
            context.set_default_timeout(60_000)
            page = context.new_page()
            page.goto(
                voila.url("/voila/render/tokens.ipynb"),
                wait_until="domcontentloaded",
                timeout=120_000,
            )
            try:
                yield page
            except BaseException:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "tokens_FAILED.png"))
                print(voila.log_tail())
                raise
            finally:
                context.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _shoot(page: Any, width: int) -> int:
    """Screenshot the Tokens view at ``width``; returns how far the page overflows."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": width, "height": 1200})
    view = page.locator(TOKENS)
    view.scroll_into_view_if_needed()
    view.screenshot(path=str(ARTIFACTS / f"tokens_view_{width}.png"))
    overflow: int = page.evaluate(
        "() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
    )
    return overflow


def test_tokens_view_renders_and_grows_while_typing(page: Any) -> None:
    view = page.locator(TOKENS)
    expect(view).to_contain_text("tokens for gpt-4o", timeout=120_000)
    expect(view.locator("tr.tl-tok-part").first).to_be_visible()
    before = page.evaluate(TOTAL_JS)
    assert before > 0
    assert page.evaluate(CARET_JS, CITY_LINE) > 0
    page.keyboard.type(
        " Give the country too, and the region when two cities share a name.", delay=5
    )
    page.wait_for_function(f"() => ({TOTAL_JS})() > {before}", timeout=30_000)
    assert _shoot(page, 1400) <= 0
    assert _shoot(page, 1000) <= 0
