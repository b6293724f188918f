"""The explorer's states as a user sees them in a real browser (Voila): the last-good views
fade while the source does not parse, read from the slots' computed style, not from a class
name; a tool that is only a schema shows the views and choices that fit it. Screenshots go
to ``tests/artifacts/``.
"""

from __future__ import annotations

import re
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
from servers import Server, make_tmp, playwright_api

sync_api = playwright_api()
expect = sync_api.expect

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
EXPLORER = ".tl-xp"
VIEWS = ("signature", "metadata", "strict", "output")

# A JSON tool: no Python signature, one parameter without a description (a lint finding).
SCHEMA_SOURCE = """SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "description": "B."}},
    "required": ["a", "b"],
}
"""

# Every view slot's computed opacity, by its panel key.
OPACITIES_JS = """() => Object.fromEntries(
  [...document.querySelectorAll('.tl-xp .tl-slot')].map(
    (s) => [s.dataset.panel, parseFloat(getComputedStyle(s).opacity)]))"""


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    tmp = make_tmp("toollens-states-nb-")
    (tmp / "trip.py").write_text(TRIP_SOURCE)
    write_explorer_notebook(tmp, "trip.ipynb", "trip", "plan_trip")
    (tmp / "sumtool.py").write_text(SCHEMA_SOURCE)
    write_explorer_notebook(tmp, "schema.ipynb", "sumtool", "SCHEMA")
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api, "toollens-states-chromium-") as context:
        yield context


@pytest.fixture(scope="module")
def voila(workdir: Path) -> Iterator[Server]:
    with serving("voila", workdir, "toollens-states-") as server:
        yield server


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def _open(browser: Any, server: Server, notebook: str) -> Any:
    page = open_notebook(browser, "voila", server, notebook)
    for view in VIEWS:
        expect(page.locator(f"{EXPLORER} .tl-slot-{view} .tl-panel")).to_be_visible(timeout=180_000)
    page.locator(EXPLORER).scroll_into_view_if_needed()
    return page


def _opacities(page: Any) -> dict[str, float]:
    values: dict[str, float] = page.evaluate(OPACITIES_JS)
    assert set(VIEWS) <= set(values), values
    return values


def test_views_fade_while_the_source_does_not_parse_and_come_back_after_a_fix(
    browser: Any, voila: Server, artifacts: Path
) -> None:
    page = _open(browser, voila, "trip.ipynb")
    try:
        assert all(v == 1 for v in _opacities(page).values()), _opacities(page)
        select_text(page, f"{EXPLORER} .tl-editor", "def plan_trip(")
        page.keyboard.type("def plan_trip((", delay=30)  # an unclosed bracket
        expect(page.locator(f"{EXPLORER} .tl-banner")).to_contain_text("stale")
        expect(page.locator(f"{EXPLORER} .tl-panels")).to_have_class(re.compile(r"\btl-stale\b"))
        page.wait_for_function(
            "() => [...document.querySelectorAll('.tl-xp .tl-slot')]"
            ".every((s) => parseFloat(getComputedStyle(s).opacity) < 1)"
        )
        faded = _opacities(page)
        assert all(v < 1 for v in faded.values()), faded
        page.screenshot(path=str(artifacts / "explorer_stale_faded.png"))

        select_text(page, f"{EXPLORER} .tl-editor", "def plan_trip((")
        page.keyboard.type("def plan_trip(", delay=30)
        expect(page.locator(f"{EXPLORER} .tl-banner")).to_be_empty()
        page.wait_for_function(
            "() => [...document.querySelectorAll('.tl-xp .tl-slot')]"
            ".every((s) => parseFloat(getComputedStyle(s).opacity) === 1)"
        )
        assert all(v == 1 for v in _opacities(page).values()), _opacities(page)
    finally:
        page.close()


@pytest.mark.parametrize("width", [1400, 1000])
def test_a_schema_only_tool_shows_the_views_and_choices_that_fit_it(
    browser: Any, voila: Server, artifacts: Path, width: int
) -> None:
    page = open_notebook(browser, "voila", voila, "schema.ipynb")
    try:
        page.set_viewport_size({"width": width, "height": 1000})
        for view in ("metadata", "strict", "output"):
            expect(page.locator(f"{EXPLORER} .tl-slot-{view} .tl-panel")).to_be_visible(
                timeout=180_000
            )
        expect(page.locator(f"{EXPLORER} .tl-slot-signature")).to_be_hidden()
        for trait in ("docstring_style", "optional_defaults"):
            expect(page.locator(f'{EXPLORER} select[data-trait="{trait}"]')).to_be_hidden()
        expect(page.locator(f'{EXPLORER} select[data-trait="provider"]')).to_be_visible()
        findings = page.locator(f"{EXPLORER} .tl-slot-findings")
        expect(findings).to_contain_text("missing-parameter-description")
        expect(findings).not_to_contain_text("nothing to check")
        # the JSON editor is editable (docs/explorer.md), and there is nothing to Apply
        editor = page.locator(f"{EXPLORER} .tl-editor .cm-content")
        expect(editor).to_have_attribute("contenteditable", "true")
        expect(page.locator(f"{EXPLORER} .tl-apply")).to_be_disabled()
        page.locator(EXPLORER).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"explorer_schema_only_{width}.png"), full_page=True)
    finally:
        page.close()


# Scroll a view to its end; where its heading is then, against the view's own box.
HEADING_JS = """(view) => {
  const panel = document.querySelector(`.tl-xp .tl-slot-${view} > .tl-panel`);
  panel.scrollTop = panel.scrollHeight;
  const title = panel.querySelector(':scope > .tl-panel-title').getBoundingClientRect();
  const box = panel.getBoundingClientRect();
  return {scrolled: panel.scrollTop, top: title.top - box.top, bottom: box.bottom - title.bottom};
}"""


def test_a_scrolled_view_keeps_its_heading_in_sight(browser: Any, voila: Server) -> None:
    page = _open(browser, voila, "trip.ipynb")
    try:
        where = page.evaluate(HEADING_JS, "strict")
        assert where["scrolled"] > 0, where  # the Strict view scrolls at this size
        assert 0 <= where["top"] <= 16, where  # its heading stays at the top (its padding)
    finally:
        page.close()
