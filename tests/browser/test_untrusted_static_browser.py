"""Saved static views opened untrusted in JupyterLab, as the README's command opens the
quickstart's fresh copy: the sanitizer strips their stylesheet, and the layout copied onto
each element (``toollens.render.inline``) still reads: JSON keeps its lines, the title
stands apart from its badges, table cells sit left. With the file browser open (the
layout the README's command gives) at 1,400 and 1,000 px, the metadata table fits the
notebook's width. Screenshots go to ``tests/artifacts/``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from explorer_pages import chromium
from servers import Server, make_tmp, playwright_api, start_lab, stop

from toollens.static_notebook import static_copies

sync_api = playwright_api()
expect = sync_api.expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CELLS = [
    "import toollens\nfrom toollens.examples import get_weather",
    "toollens.report(get_weather)",
    "toollens.Explorer(get_weather)",
]

STYLES_JS = """() => {
  const root = document.querySelector('.jp-OutputArea-output .tl-root');
  const pick = (sel) => root.querySelector(sel);
  const css = (node, prop) => node ? getComputedStyle(node)[prop] : null;
  const title = pick('.tl-title');
  const meta = pick('.tl-meta') || pick('.tl-table');
  const box = meta ? meta.closest('.jp-OutputArea-output') : null;
  return {
    styleTags: document.querySelectorAll('.jp-OutputArea-output .tl-root style').length,
    preWhiteSpace: css(pick('pre'), 'whiteSpace'),
    preFont: css(pick('pre'), 'fontFamily'),
    titleMargin: parseFloat(css(title, 'marginRight')),
    cellAlign: css(pick('.tl-table td'), 'textAlign'),
    tableRight: meta ? meta.getBoundingClientRect().right : 0,
    boxRight: box ? box.getBoundingClientRect().right : 0,
  };
}"""


def _executed(folder: Path) -> None:
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    NotebookClient(nb, timeout=180, kernel_name="python3", store_widget_state=True).execute()
    nbformat.write(static_copies(nb), folder / "saved.ipynb")
    live = nbformat.v4.new_notebook()
    live.metadata["kernelspec"] = nb.metadata["kernelspec"]
    live.cells = [nbformat.v4.new_code_cell(CELLS[0]), nbformat.v4.new_code_cell(CELLS[2])]
    nbformat.write(live, folder / "live.ipynb")


@pytest.fixture(scope="module")
def lab() -> Iterator[Server]:
    work, tmp = make_tmp("toollens-untrusted-nb-"), make_tmp("toollens-untrusted-lab-")
    _executed(work)
    server = start_lab(tmp, work)
    try:
        server.wait_ready()
        yield server
    finally:
        stop(server)
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api, "toollens-untrusted-chromium-") as context:
        yield context


@pytest.mark.parametrize("width", [1400, 1000])
def test_saved_views_read_well_untrusted_with_the_file_browser_open(
    lab: Server, browser: Any, width: int
) -> None:
    page = browser.new_page()
    try:
        page.set_viewport_size({"width": width, "height": 1000})
        page.goto(lab.url("/lab/tree/saved.ipynb?reset"), wait_until="domcontentloaded")
        page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
        page.evaluate(
            "() => { const s = window.jupyterapp.shell; if (s.expandLeft) s.expandLeft(); }"
        )
        output = page.locator(".jp-OutputArea-output .tl-root").first
        expect(output).to_be_visible(timeout=120_000)
        output.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"untrusted_static_{width}.png"))
        seen = page.evaluate(STYLES_JS)
        assert seen["styleTags"] == 0, "the notebook is trusted: this test needs it untrusted"
        assert seen["preWhiteSpace"] in ("pre", "pre-wrap"), seen
        assert "monospace" in seen["preFont"], seen
        assert seen["titleMargin"] >= 6, seen  # the title stands apart from its badges
        assert seen["cellAlign"] in ("left", "start"), seen
        assert seen["tableRight"] <= seen["boxRight"] + 1, seen  # nothing cut at the right
    finally:
        page.close()


KERNEL_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""

FITS_JS = """() => {
  const slot = document.querySelector('.tl-xp .tl-slot-metadata');
  const table = slot.querySelector('table');
  const scrolled = [slot, ...slot.querySelectorAll('*')].filter(
    (n) => n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).overflowX !== 'visible');
  const cells = [...table.querySelectorAll('th')].map((th) => th.textContent.trim());
  return {
    tableRight: table.getBoundingClientRect().right,
    slotRight: slot.getBoundingClientRect().right,
    scrolled: scrolled.map((n) => n.className),
    headers: cells,
  };
}"""


@pytest.mark.parametrize("width", [1400, 1000])
def test_the_live_metadata_table_fits_beside_the_file_browser(
    lab: Server, browser: Any, width: int
) -> None:
    page = browser.new_page()
    try:
        page.set_viewport_size({"width": width, "height": 1000})
        page.goto(lab.url("/lab/tree/live.ipynb?reset"), wait_until="domcontentloaded")
        page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
        page.wait_for_function(KERNEL_READY_JS, timeout=120_000, polling=250)
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        page.evaluate(
            "() => { const s = window.jupyterapp.shell; if (s.expandLeft) s.expandLeft(); }"
        )
        slot = page.locator(".tl-xp .tl-slot-metadata table")
        expect(slot).to_be_visible(timeout=180_000)
        slot.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"live_file_browser_{width}.png"))
        seen = page.evaluate(FITS_JS)
        assert seen["tableRight"] <= seen["slotRight"] + 1, seen
        assert seen["scrolled"] == [], seen  # no sideways scrolling to read a column
        assert "constraints" in " ".join(seen["headers"]), seen  # the column is all there
    finally:
        page.close()
