"""The explorer's Try-it view in real browsers (Voila, JupyterLab, marimo): open it, edit the
arguments and see the problem marked at its pointer, Call, then edit the function and see the
example re-checked. Behaviour only; screenshots at 1,400 and 1,000 px go to tests/artifacts/.

Run one front end at a time on a shared machine:
``pytest tests/browser/test_try_it_browser.py -k voila``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from explorer_pages import (
    TRIP_SOURCE,
    chromium,
    open_notebook,
    select_text,
    serving,
    write_explorer_notebook,
)
from scenario import VIEW_JS
from servers import Server, make_tmp, playwright_api

sync_api = playwright_api()
expect = sync_api.expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
EXPLORER = ".tl-xp"
TRY = f"{EXPLORER} .tl-try"
ARGUMENTS_JS = (
    "() => {" + VIEW_JS + "return tlFind('.tl-xp .tl-try-editor').tlView.state.doc.toString(); }"
)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    tmp = make_tmp("toollens-try-nb-")
    (tmp / "trip.py").write_text(TRIP_SOURCE)
    write_explorer_notebook(tmp, "trip.ipynb", "trip", "plan_trip")
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api, "toollens-try-chromium-") as context:
        yield context


@pytest.fixture(scope="module", params=("voila", "jupyterlab", "marimo"))
def front_end(request: Any, workdir: Path) -> Iterator[tuple[str, Server]]:
    if request.param == "marimo":
        pytest.importorskip("marimo")
    with serving(request.param, workdir, "toollens-try-") as server:
        yield request.param, server


def _open(browser: Any, front_end: tuple[str, Server]) -> Any:
    page = open_notebook(browser, *front_end, "trip.ipynb")
    expect(page.locator(f"{EXPLORER} .tl-slot-strict .tl-panel")).to_be_visible(timeout=180_000)
    return page


def _select(page: Any, box: str, text: str, *, caret_after: bool = False) -> None:
    select_text(page, box, text, caret_after=caret_after)


def test_try_it_checks_calls_and_follows_the_function(
    browser: Any, front_end: tuple[str, Server]
) -> None:
    page = _open(browser, front_end)
    status = page.locator(f"{TRY} .tl-try-status")
    try:
        expect(page.locator(f"{TRY} .tl-try-editor")).to_be_hidden()  # folded until opened
        page.locator(f"{TRY} > summary").click()
        expect(status).to_contain_text("plan_trip(city='', days=1)")
        assert '"days": 1' in page.evaluate(ARGUMENTS_JS)

        # An out-of-range value: marked in the editor at /days, listed with its pointer.
        _select(page, f"{TRY} .tl-try-editor", '"days": 1')
        page.keyboard.type('"days": 9', delay=60)
        expect(status).to_contain_text("/days")
        expect(status).to_contain_text("The model is told")
        mark = page.locator(f"{TRY} .tl-try-editor .cm-lintRange-error").first
        expect(mark).to_have_text("9")

        # Fixed and called: the result only after Call.
        _select(page, f"{TRY} .tl-try-editor", "9")
        page.keyboard.type("3", delay=60)
        expect(status).to_contain_text("accepted")
        expect(status).not_to_contain_text("model reads")
        page.locator(f"{TRY} button", has_text="Call").click()
        expect(status).to_contain_text("3 days in ")
        expect(status.locator(".tl-try-result")).to_have_attribute("data-status", "returned")

        # The function gains a required parameter: the same arguments, now marked.
        _select(page, f"{EXPLORER} .tl-editor", "    city: str,\n", caret_after=True)
        page.keyboard.type("    country: str,\n", delay=30)
        expect(status).to_contain_text("/country")
        expect(status).to_contain_text("from an earlier call")
        assert '"days": 3' in page.evaluate(ARGUMENTS_JS), "the example is never replaced"

        for width in (1400, 1000):
            page.set_viewport_size({"width": width, "height": 1000})
            page.locator(TRY).scroll_into_view_if_needed()
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"try_it_{front_end[0]}_{width}.png"))
            box = page.locator(TRY).bounding_box()
            assert box["width"] <= width
    finally:
        page.close()
