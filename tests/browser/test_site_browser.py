"""The documentation site in a real browser, offline: a lesson page asks for nothing but
its own files (no widget renderer, no diagram library from a CDN), and the views in it
read as in Jupyter: Material styles every ``<details>`` as a callout, not inside a view.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from servers import offline_browser, playwright_api, refuse_network

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
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
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocs_jupyter")
    pytest.importorskip("mkdocstrings_handlers.python")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-d", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.mark.parametrize("lesson", ["01_quickstart", "12_why_tools_vanish"])
def test_a_lesson_page_is_offline_and_its_disclosures_are_plain(site: Path, lesson: str) -> None:
    requests: list[str] = []
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = offline_browser(pw)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 900})
            refuse_network(page, requests)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto((site / "lessons" / f"{lesson}.html").as_uri())
            style = page.evaluate(DETAILS_JS)
            ARTIFACTS.mkdir(exist_ok=True)
            shot = ARTIFACTS / f"site_{lesson}_1000.png"
            page.locator(".tl-root").first.screenshot(path=str(shot))
        finally:
            browser.close()
    assert requests == []  # no CDN: the site is read offline
    # Material's search cannot start from file:// (a browser rule, not the page's): served
    # over HTTP it does. Any other error is the page's.
    assert [e for e in errors if "search_index" not in e] == []
    assert style["border"] == "0px", style
    assert style["shadow"] == "none", style
    assert style["icon"] in ("none", "normal"), style
    assert style["display"] == "list-item", style
