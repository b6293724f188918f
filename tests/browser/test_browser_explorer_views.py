"""The explorer's views in real browsers (Voila, JupyterLab, Notebook 7, marimo): the change
list against the opened schema, the four views side by side at 1,400 and 1,000 px, a
240-parameter tool being editable. Behaviour only, never timing (the timing is
``benchmarks/bench_browser_explorer.py``). Screenshots go to ``tests/artifacts/``.

Run one test at a time on a shared machine, e.g.
``pytest tests/browser/test_browser_explorer_views.py -k "voila and change_list"``.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from explorer_pages import (
    FRONT_ENDS,
    TRIP_SOURCE,
    chromium,
    open_notebook,
    select_text,
    serving,
    write_explorer_notebook,
)
from servers import Server, make_tmp, playwright_api

sync_api = playwright_api()
expect = sync_api.expect

from support.big_tools import big_tool_source  # noqa: E402

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
EXPLORER = ".tl-xp"
CHANGES = f"{EXPLORER} .tl-panel-changes"
VIEWS = ("signature", "metadata", "strict", "output")


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    tmp = make_tmp("toollens-views-nb-")
    (tmp / "trip.py").write_text(TRIP_SOURCE)
    (tmp / "bigtool.py").write_text(big_tool_source(240))
    write_explorer_notebook(tmp, "trip.ipynb", "trip", "plan_trip")
    write_explorer_notebook(tmp, "big.ipynb", "bigtool", "big_tool")
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api, "toollens-views-chromium-") as context:
        yield context


@pytest.fixture(scope="module", params=FRONT_ENDS)
def front_end(request: Any, workdir: Path) -> Iterator[tuple[str, Server]]:
    """A server of each front end on the test notebooks, one at a time (a shared machine)."""
    if request.param == "marimo":
        pytest.importorskip("marimo")
    with serving(request.param, workdir, "toollens-views-") as server:
        yield request.param, server


def _open(browser: Any, front_end: tuple[str, Server], notebook: str) -> Any:
    """A page showing the explorer of ``notebook``, its four views rendered."""
    page = open_notebook(browser, *front_end, notebook)
    for view in VIEWS:
        expect(page.locator(f"{EXPLORER} .tl-slot-{view} .tl-panel")).to_be_visible(timeout=180_000)
    page.locator(EXPLORER).scroll_into_view_if_needed()
    return page


def _select(page: Any, text: str, *, caret_after: bool = False) -> None:
    select_text(page, f"{EXPLORER} .tl-editor", text, caret_after=caret_after)


def _since(page: Any) -> str:
    """The change list's text before the last edit's own line."""
    return str(page.locator(f"{CHANGES} .tl-changes-body").inner_text()).split("Last ")[0]


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def test_change_list_says_what_changed_since_the_tool_was_opened(
    browser: Any, front_end: tuple[str, Server], artifacts: Path
) -> None:
    page = _open(browser, front_end, "trip.ipynb")
    try:
        box = page.locator(CHANGES)
        expect(box).to_have_class(re.compile(r"\btl-changes-empty\b"))  # collapsed: nothing yet
        assert box.bounding_box()["height"] < 40
        _select(page, "7)]")  # the 7 of le=7 (and what follows it, retyped)
        page.keyboard.type("1)]", delay=150)
        expect(box).to_contain_text("from 7 to 1")
        _select(page, "1)]")
        page.keyboard.type("14)]", delay=150)  # a normal pace: the views follow each key
        expect(box).to_contain_text("from 7 to 14")
        expect(box).not_to_have_class(re.compile(r"\btl-changes-empty\b"))
        since = _since(page)
        assert "1 change" in since
        assert "from 1 " not in since  # the intermediate 1 is not what the author changed
        expect(box).to_contain_text("Last edit")
        # a new parameter line ending in "," still lists the new parameter
        _select(page, "= 1,\n", caret_after=True)
        page.keyboard.type("    budget: int = 0,", delay=40)
        expect(box).to_contain_text("/properties/budget")
        expect(box).not_to_contain_text("did not change the schema")
        page.screenshot(path=str(artifacts / f"change_list_{front_end[0]}.png"))
    finally:
        page.close()


def _boxes(page: Any) -> dict[str, dict[str, float]]:
    return {v: page.locator(f"{EXPLORER} .tl-slot-{v}").bounding_box() for v in VIEWS}


@pytest.mark.parametrize("width", [1400, 1000])
def test_four_views_sit_side_by_side(
    browser: Any, front_end: tuple[str, Server], artifacts: Path, width: int
) -> None:
    page = _open(browser, front_end, "trip.ipynb")
    try:
        page.set_viewport_size({"width": width, "height": 1000})
        page.locator(f"{EXPLORER} .tl-slot-signature").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"explorer_views_{front_end[0]}_{width}.png"))
        boxes = _boxes(page)
        for view, box in boxes.items():  # every view has room, inside the window
            assert box["width"] > 150, (view, box)
            assert box["height"] > 100, (view, box)
            assert box["x"] >= 0, (view, box)
            assert box["x"] + box["width"] <= width, (view, box)
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        # nothing changed yet: the change list is one line
        changes = page.locator(CHANGES)
        expect(changes).to_have_class(re.compile(r"\btl-changes-empty\b"))
        assert changes.bounding_box()["height"] < 40
        # a 2x2 grid: Signature | Metadata over Strict | Output, all on one screen
        assert boxes["signature"]["y"] == boxes["metadata"]["y"]
        assert boxes["strict"]["y"] == boxes["output"]["y"]
        assert boxes["signature"]["x"] < boxes["metadata"]["x"]
        top = min(b["y"] for b in boxes.values())
        bottom = max(b["y"] + b["height"] for b in boxes.values())
        assert bottom - top <= 1000, boxes
        # the toolbar is one row
        items = page.locator(f"{EXPLORER} .tl-toolbar > *")
        tops = {round(items.nth(i).bounding_box()["y"]) for i in range(items.count())}
        assert max(tops) - min(tops) < 12, tops
        # rule tags take no space on a line without one
        strict = page.locator(f"{EXPLORER} .tl-slot-strict .tl-inline-view")
        untagged = strict.locator(".tl-dl:not([data-rule])").first
        assert untagged.locator(".tl-gut").evaluate("el => getComputedStyle(el).display") == "none"
        tagged = strict.locator(".tl-dl[data-rule]").first
        assert tagged.locator(".tl-gtag").count() >= 1
    finally:
        page.close()


def test_a_240_parameter_tool_is_editable(
    browser: Any, front_end: tuple[str, Server], artifacts: Path
) -> None:
    page = _open(browser, front_end, "big.ipynb")
    try:
        expect(page.locator(f"{EXPLORER} .tl-slot-signature")).to_contain_text("240 in schema")
        for step, slot in enumerate((16, 200)):
            _select(page, f"The value of slot {slot}", caret_after=True)
            marker = f" edited{step}q"
            page.keyboard.type(marker, delay=40)
            for view in ("metadata", "strict"):
                expect(page.locator(f"{EXPLORER} .tl-slot-{view}")).to_contain_text(
                    marker.strip(), timeout=30_000
                )
            expect(page.locator(CHANGES)).to_contain_text(f"/properties/p{slot}")
        expect(page.locator(CHANGES)).to_contain_text("2 changes")
        page.screenshot(path=str(artifacts / f"big_tool_{front_end[0]}.png"))
    finally:
        page.close()


def test_a_burst_of_keys_ends_with_the_last_edit_shown(
    browser: Any, front_end: tuple[str, Server]
) -> None:
    """Keys typed faster than a 240-parameter tool renders: the edits that queue behind a
    render are coalesced, and the views end on the text as last typed, never an older one."""
    page = _open(browser, front_end, "big.ipynb")
    try:
        _select(page, "The value of slot 40", caret_after=True)
        burst = " burst0123456789xyz"
        page.keyboard.type(burst, delay=0)  # as fast as the page takes keys
        for view in ("metadata", "strict"):
            expect(page.locator(f"{EXPLORER} .tl-slot-{view}")).to_contain_text(
                "The value of slot 40" + burst, timeout=60_000
            )
        # ... and stays there: no older render lands after the last one.
        page.wait_for_timeout(1500)
        for view in ("metadata", "strict"):
            expect(page.locator(f"{EXPLORER} .tl-slot-{view}")).to_contain_text(
                "The value of slot 40" + burst
            )
        expect(page.locator(CHANGES)).to_contain_text("/properties/p40")
    finally:
        page.close()


# The Strict view's lines at 240 parameters (the plain JSON block, each property's lines in
# a group; smaller tools show the diff): the boxes and widths of the rows in sight, and the
# block's horizontal scroll.
LINES_JS = """code => {
  const rows = [...code.querySelectorAll('.tl-line')];
  const pre = code.parentElement;
  const view = pre.closest('.tl-panel').getBoundingClientRect();
  const inSight = rows.filter((el) => {
    const b = el.getBoundingClientRect();
    return b.top >= view.top && b.bottom <= view.bottom;
  });
  const boxes = inSight.map((el) => el.getBoundingClientRect());
  return {rows: rows.length, seen: boxes.length,
    widths: [...new Set(inSight.map((el) => el.offsetWidth))],
    gaps: boxes.slice(1).map((b, i) => b.top - boxes[i].bottom),
    lefts: [...new Set(boxes.map((b) => Math.round(b.left)))],
    scrolls: pre.scrollWidth > pre.clientWidth, inner: pre.scrollWidth - 20};  // less its padding
}"""
SELECT_ALL_JS = """code => {
  const range = document.createRange();
  range.selectNodeContents(code);
  const selection = getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}"""


def test_the_strict_view_of_a_240_parameter_tool_reads_and_copies_as_json(
    browser: Any, front_end: tuple[str, Server]
) -> None:
    """The lines in sight stack one under another, each as wide as the widest (a changed
    line's mark runs the whole width the view scrolls), and copying the view gives the JSON,
    newlines and all."""
    browser.grant_permissions(["clipboard-read", "clipboard-write"])
    page = _open(browser, front_end, "big.ipynb")
    try:
        page.set_viewport_size({"width": 1000, "height": 1000})
        # A description too long for the view: its line scrolls sideways.
        _select(page, "The value of slot 40", caret_after=True)
        page.keyboard.type(" and" + " then some" * 12, delay=0)
        code = page.locator(f"{EXPLORER} .tl-slot-strict pre.tl-code:not(.tl-ldiff) > code")
        expect(code.locator(".tl-line", has_text="then some then some")).to_have_count(1)
        # The lines in sight (the edit scrolled the view to its line; a property's lines
        # out of sight are not laid out).
        page.locator(f"{EXPLORER} .tl-slot-strict").scroll_into_view_if_needed()
        page.wait_for_timeout(300)  # a few frames: what came into sight is laid out
        got = code.evaluate(LINES_JS)
        assert got["rows"] > 2000, got["rows"]
        assert got["seen"] > 10, got["seen"]
        assert all(abs(gap) < 0.5 for gap in got["gaps"]), str(got["gaps"])  # stacked
        assert len(got["lefts"]) == 1, got["lefts"]
        assert got["scrolls"], "the long line scrolls sideways"
        assert len(got["widths"]) == 1, got["widths"]
        assert got["widths"][0] >= got["inner"], got
        assert code.locator(".tl-line.tl-changed").count() > 0
        shown = code.evaluate("code => code.textContent")
        code.evaluate(SELECT_ALL_JS)
        page.keyboard.press("Control+c")
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied.count("\n") == got["rows"] - 1
        assert copied == shown
        assert len(json.loads(copied)["properties"]) == 240
    finally:
        page.close()
