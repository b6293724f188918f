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
- ``open``: from a click on the last row of the table's first page until that tool's views
  are in the document (a page that inlines every tool has them already: 0).

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
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_toolset
import corpus

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

WORDS = [
    *[
        "account",
        "invoice",
        "customer",
        "order",
        "shipment",
        "parcel",
        "address",
        "ticket",
        "comment",
        "repository",
    ],
    *[
        "branch",
        "commit",
        "issue",
        "label",
        "project",
        "member",
        "permission",
        "file",
        "folder",
        "record",
        "report",
    ],
    *["metric", "alert"],
]


def _property(rng: random.Random, depth: int) -> dict[str, Any]:
    word = rng.choice(WORDS)
    kind = rng.randrange(14 if depth == 0 else 7)
    text = f"The {word} to use; see the {rng.choice(WORDS)} documentation for the accepted values."
    if kind == 0:
        return {"type": "string", "description": text}
    if kind == 1:
        return {"type": "integer", "minimum": 1, "maximum": 100, "default": 30, "description": text}
    if kind == 2:
        return {"type": "string", "enum": rng.sample(WORDS, 4), "description": text}
    if kind == 3:
        return {"type": "boolean", "default": False}
    if kind == 4:
        return {"type": "string", "format": "date-time", "description": text}
    if kind == 5:
        return {"type": "array", "items": {"type": "string"}, "description": text}
    if kind == 6:
        return {"type": "string", "pattern": "^[a-z0-9-]+$", "description": text}
    if kind == 7:
        return {"type": "array", "items": _object(rng, depth + 1, 3), "description": text}
    if kind == 8:
        return _object(rng, depth + 1, 3)
    return {"type": "string", "description": text}  # the commonest parameter, most often


def _object(rng: random.Random, depth: int, most: int) -> dict[str, Any]:
    count = rng.randint(1, most)
    names = rng.sample(WORDS, count)
    props = {f"{name}_{i}": _property(rng, depth) for i, name in enumerate(names)}
    required = [n for n in props if rng.random() < 0.5]
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    return schema


def payload(count: int, seed: int = 42) -> dict[str, Any]:
    """An MCP ``tools/list`` result of ``count`` generated tools (the same for a seed)."""
    rng = random.Random(seed)
    tools = []
    for i in range(count):
        verb, noun = rng.choice(("get", "list", "create", "update", "delete")), rng.choice(WORDS)
        tools.append(
            {
                "name": f"{verb}_{noun}_{i}",
                "description": f"{verb.title()} a {noun} of the workspace. "
                + " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 40))),
                "inputSchema": _object(rng, 0, 8),
            }
        )
    return {"tools": tools}


def measure(page: Path, repeats: int) -> dict[str, float]:
    """Medians over ``repeats`` loads of ``page`` in headless Chromium, offline."""
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    found: dict[str, list[float]] = {"paint": [], "table": [], "open": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for _ in range(repeats):
                tab = browser.new_page(viewport={"width": 1400, "height": 900})
                tab.route(
                    "**/*",
                    lambda route: (
                        route.continue_()
                        if route.request.url.startswith("file:")
                        else route.abort()
                    ),
                )
                tab.add_init_script(_OBSERVER)
                tab.goto(page.as_uri(), timeout=600_000, wait_until="load")
                tab.wait_for_function(_PAINT + " >= 0")
                paint = tab.evaluate(_PAINT)
                found["paint"].append(paint)
                found["table"].append(max(paint, tab.evaluate("window.__tlRowAt ?? -1")))
                found["open"].append(_open_ms(tab))
                tab.close()
        finally:
            browser.close()
    return {k: statistics.median(v) for k, v in found.items()}


def _open_ms(tab: Any) -> float:
    """Click the last shown row; milliseconds until its tool's views are in the document."""
    index = tab.evaluate(
        "[...document.querySelectorAll('.tl-ts-row')].filter(r => !r.hidden).pop()"
        ".getAttribute('data-index')"
    )
    selector = f"#tl-tool-{index} .tl-panel"
    if tab.query_selector(selector):  # every tool's views were inlined in the page
        return 0.0
    start = tab.evaluate("performance.now()")
    tab.click(f'.tl-ts-row[data-index="{index}"]')
    tab.wait_for_selector(selector, state="attached")
    return float(tab.evaluate("performance.now()")) - start


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
        for label, out, wall in pages:
            figures = {} if skip else measure(out, args.repeats)
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
