"""The documentation site in a real browser, offline: a lesson page asks for nothing but
its own files (no widget renderer, no diagram library from a CDN), and the views in it
read as in Jupyter: Material styles every ``<details>`` as a callout, not inside a view.
Served over HTTP, its search box finds a lesson's prose and views, not its code.
"""

from __future__ import annotations

import contextlib
import functools
import html
import json
import re
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from servers import offline_browser, offline_page, playwright_api

from support import REPO_ROOT
from support.site_build import build_site, lesson_code_and_prose, words

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


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def _served(site: Path) -> Iterator[str]:
    """The site served over HTTP on a free loopback port (search cannot run from file://)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=site))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _query(site: Path, code: list[str], prose: list[str]) -> str:
    """A word of the lesson's code and of its prose, the one fewest index entries hold."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    texts = [html.unescape(entry["text"]).lower() for entry in index["docs"]]
    code_words: set[str] = set(re.findall(r"[a-z]{5,}", " ".join(code)))
    both = code_words & set(re.findall(r"[a-z]{5,}", " ".join(prose)))
    assert both, "no word of the lesson is in both its code and its prose"
    return min(sorted(both), key=lambda word: sum(word in text for text in texts))


META_JS = "() => {}.test(document.querySelector('.md-search-result__meta')?.textContent || '')"
RESULTS_JS = """() => [...document.querySelectorAll('.md-search-result__item')].map(item => ({
  href: item.querySelector('a')?.getAttribute('href') || '',
  text: item.textContent,
}))"""


@pytest.mark.parametrize("lesson", ["01_quickstart", "12_why_tools_vanish"])
def test_the_search_box_shows_a_lessons_prose_not_its_code(site: Path, lesson: str) -> None:
    # A word that is in the lesson's code and in its prose: before the index left code
    # cells out, its results showed the lesson's code as one block of text.
    code, prose = lesson_code_and_prose(REPO_ROOT / "notebooks" / f"{lesson}.ipynb")
    word = _query(site, code, prose)
    requests: list[str] = []
    errors: list[str] = []
    with _served(site) as base, sync_api.sync_playwright() as pw:
        browser = offline_browser(pw)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})

            def local_only(route: Any) -> None:
                if route.request.url.startswith(base):
                    route.continue_()
                else:
                    requests.append(route.request.url)
                    route.abort()

            page.route("**/*", local_only)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{base}lessons/{lesson}.html")
            box = page.locator("input.md-search__input")
            box.click()
            page.wait_for_function(META_JS.format("/type to start/i"))  # the index is loaded
            # Material reads the box on key events: the last letter is a key press, so the
            # first results it shows are the whole word's
            box.fill(word[:-1])
            box.press(word[-1])
            page.wait_for_function(META_JS.format("/matching/i"))
            meta = page.locator(".md-search-result__meta").text_content()
            results = page.evaluate(RESULTS_JS)
        finally:
            browser.close()
    assert errors == []
    assert requests == []
    assert results, f"no result for {word!r}: {meta}"
    assert any(f"lessons/{lesson}.html" in r["href"] for r in results), (word, results)
    shown = [words(r["text"]) for r in results]
    leaked = [line for line in code if any(line in text for text in shown)]
    assert not leaked, f"{word!r} shows code of {lesson}: {leaked[:5]}"
