"""The documentation site in a real browser, offline: a lesson page asks for nothing but
its own files (no widget renderer, no diagram library from a CDN), and the views in it
read as in Jupyter: Material styles every ``<details>`` as a callout, not inside a view.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from servers import offline_page, playwright_api

from support.site_build import build_site

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
sync_api = playwright_api()

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DETAILS_JS = """() => {
  const details = document.querySelector('.tl-root details');
  const summary = details.querySelector('summary');
  const box = getComputedStyle(details);
  return {
    border: box.borderLeftWidth,
    shadow: box.boxShadow,
    icon: getComputedStyle(summary, '::before').content,
    display: getComputedStyle(summary).display,
  };
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


@pytest.mark.parametrize("lesson", ["01_quickstart", "12_why_tools_vanish"])
def test_a_lesson_page_is_offline_and_its_disclosures_are_plain(site: Path, lesson: str) -> None:
    # Material's search cannot start from file:// (a browser rule, not the page's); served
    # over HTTP it does. Any other error, or any request but a file, fails.
    page_file = site / "lessons" / f"{lesson}.html"
    with offline_page(sync_api, page_file, width=1000, tolerated="search_index") as page:
        style = page.evaluate(DETAILS_JS)
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"site_{lesson}_1000.png"
        page.locator(".tl-root").first.screenshot(path=str(shot))
    assert style["border"] == "0px", style
    assert style["shadow"] == "none", style
    assert style["icon"] in ("none", "normal"), style
    assert style["display"] == "list-item", style
