"""The ``toollens report --html`` page at 10 and 1,000 tools: bytes, first paint, opening a row.

Writes two sources of each size: a generated Python module (``bench_toolset.py``'s five
shapes) and a generated MCP-style payload (``{"tools": [...]}``, one to eight parameters of
mixed kinds: enums, nested objects, arrays of objects, formats, patterns, defaults, long
descriptions), runs ``toollens report SOURCE --html`` on each in a fresh process, and, when
Chromium and Playwright are installed, loads every page offline (every non-file request
refused) three times and reports the medians of

- ``first paint``: the first contentful paint,
- ``table``: when the table's first row is painted (the later of first paint and the first
  ``.tl-ts-row`` in the document, seen by a ``MutationObserver`` installed before the page),
- ``open``: in the page, from a click on the last row of the table's first page until that
  tool's views are in the document (a page that inlines every tool has them already: 0).

The pages are loaded in turn, round after round (``--repeats`` rounds), so a change in the
machine's load during the run hits every page alike.

The 10-tool and 1,000-tool pages are measured side by side in one run, so the ratios hold
across machines. ``--page FILE`` measures saved pages as well (for example one written by an
older toollens, to compare with).

    python benchmarks/bench_toolset_page.py                 # 10 and 1,000 tools
    python benchmarks/bench_toolset_page.py --tools 300
    python benchmarks/bench_toolset_page.py --page old.html # and a saved page
    python benchmarks/bench_toolset_page.py --quick         # 10 and 40 tools, no browser
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import bench_toolset
import corpus

from support.many_tools import payload

# Records when the first table row enters the document, before the page's own scripts run.
_OBSERVER = """
window.__tlRowAt = null;
new MutationObserver((_, observer) => {
  if (document.querySelector('.tl-ts-row')) {
    window.__tlRowAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""
_PAINT = "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"


def measure(pages: list[Path], repeats: int) -> list[dict[str, float]]:
    """Per page, medians over ``repeats`` loads in headless Chromium, offline; the pages are
    loaded in turn, round after round, so a change in the machine's load hits them all."""
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    found = [{"paint": [], "table": [], "open": []} for _ in pages]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for _ in range(repeats):
                for page, figures in zip(pages, found, strict=True):
                    for key, value in _load(browser, page).items():
                        figures[key].append(value)
        finally:
            browser.close()
    return [{k: statistics.median(v) for k, v in figures.items()} for figures in found]


def _load(browser: Any, page: Path) -> dict[str, float]:
    tab = browser.new_page(viewport={"width": 1400, "height": 900})
    tab.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort(),
    )
    tab.add_init_script(_OBSERVER)
    tab.goto(page.as_uri(), timeout=600_000, wait_until="load")
    tab.wait_for_function(_PAINT + " >= 0")
    paint = tab.evaluate(_PAINT)
    table = max(paint, tab.evaluate("window.__tlRowAt ?? -1"))
    opened = _open_ms(tab)
    tab.close()
    return {"paint": paint, "table": table, "open": opened}


# Times, in the page, from a row's click to its tool's views being in the document.
_OPEN_TIMER = """index => new Promise(resolve => {
  const row = document.querySelector(`.tl-ts-row[data-index="${index}"]`);
  const done = () => document.querySelector(`#tl-tool-${index} .tl-panel`);
  const start = performance.now();
  new MutationObserver((_, observer) => {
    if (done()) { observer.disconnect(); resolve(performance.now() - start); }
  }).observe(document, {childList: true, subtree: true});
  row.click();
})"""


def _open_ms(tab: Any) -> float:
    """Click the last row of the table's first page: ms until its tool's views are in."""
    index = tab.evaluate(
        "[...document.querySelectorAll('.tl-ts-row')].filter(r => !r.hidden).pop()"
        ".getAttribute('data-index')"
    )
    if tab.query_selector(f"#tl-tool-{index} .tl-panel"):  # every tool's views were inlined
        return 0.0
    return float(tab.evaluate(_OPEN_TIMER, index))


def _browser_ready() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no playwright"
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    return None if Path(chromium).exists() else "no chromium"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--page", action="append", default=[], help="also measure this page")
    parser.add_argument("--quick", action="store_true", help="10 and 40 tools, no browser")
    args = parser.parse_args()
    sizes = (10, 40) if args.quick else (10, args.tools)
    corpus.print_header(f"report --html pages of {sizes[0]} and {sizes[1]} tools")
    skip = "skipped (--quick)" if args.quick else _browser_ready()
    with tempfile.TemporaryDirectory(prefix="toollens-bench-page-") as tmp:
        workdir = Path(tmp)
        pages: list[tuple[str, Path, float]] = []
        for count in sizes:
            module = f"bench_page_tools_{count}"
            (workdir / f"{module}.py").write_text(
                bench_toolset.module_source(count), encoding="utf-8"
            )
            (workdir / f"payload_{count}.json").write_text(
                json.dumps(payload(count)), encoding="utf-8"
            )
            for label, source in (
                (f"module, {count}", module),
                (f"payload, {count}", f"payload_{count}.json"),
            ):
                out = workdir / f"{source}.html"
                wall, _, _ = bench_toolset.run_cli(workdir, "report", source, "--html", str(out))
                pages.append((label, out, wall))
        pages += [(f"saved {Path(p).name}", Path(p), float("nan")) for p in args.page]
        rows = []
        measured = [{}] * len(pages) if skip else measure([p for _, p, _ in pages], args.repeats)
        for (label, out, wall), figures in zip(pages, measured, strict=True):
            rows.append(
                [
                    label,
                    f"{wall:.1f}" if wall == wall else "-",
                    f"{out.stat().st_size / 1e6:.2f}",
                    *(
                        [skip or "n/a"] * 3
                        if skip
                        else [f"{figures[k]:.0f}" for k in ("paint", "table", "open")]
                    ),
                ]
            )
        headers = ["page", "report s", "MB", "first paint ms", "table ms", "open ms"]
        print(corpus.format_table(headers, rows))
        print()
        print("target: the 1,000-tool page at most 5 MB, its table painted no later than before")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
