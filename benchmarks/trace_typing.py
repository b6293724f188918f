"""Where a keystroke's page time goes, and what a CSS change does to it, in one page.

Voila serves the typing benchmark's notebook (``bench_typing.py``: the floor widget above
the explorer of an n-parameter tool). In one page, each variant's CSS is injected in turn
(the page as served is the variant "as-is"); per variant, two keys go to the floor, then
keys go to the explorer under a Chromium trace, each typed at the end of a docstring line
and undone before the next (so every key edits the same text). Prints, per variant, the
median keydown -> painted frame of the floor and of the explorer, and the thread time
(``tdur``: CPU time, steadier than wall time on a loaded machine) of the page's main thread
per explorer key, by trace event. Nothing is asserted.

    python benchmarks/trace_typing.py
    python benchmarks/trace_typing.py --css 'no-contain=.tl-xp .tl-panel { contain: none }'
"""

from __future__ import annotations

import argparse
import collections
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

import bench_typing
import browser_floor
import corpus

EVENTS = ("FunctionCall", "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize")
STYLE_JS = """(css) => {
  let style = document.getElementById('tl-trace-variant');
  if (!style) {
    style = document.createElement('style');
    style.id = 'tl-trace-variant';
    document.head.append(style);
  }
  style.textContent = css;
}"""
STAMP_JS = """() => document.addEventListener('keydown', (event) => {
  if (event.key === 'k') console.timeStamp('tl-key');
}, true)"""
GONE_JS = "([sel, text]) => !document.querySelector(sel).textContent.includes(text)"


def _key_and_undo(page: Any, needle: str) -> float:
    took = bench_typing._explorer_key(page, needle, "")
    page.keyboard.press("Backspace")
    page.wait_for_function(GONE_JS, arg=[".tl-xp .tl-slot-strict", needle + "k"], timeout=60_000)
    page.wait_for_timeout(1800)  # the flash of the key ends
    return took


def _traced_keys(context: Any, page: Any, needle: str, keys: int) -> tuple[list[float], Any]:
    """Explorer keys typed under a trace: their times, and thread ms by event."""
    cdp = context.new_cdp_session(page)
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda e: done.append(True))
    cdp.send("Tracing.start", {"categories": "devtools.timeline,blink,v8"})
    times = [_key_and_undo(page, needle) for _ in range(keys)]
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(50)
    cdp.detach()
    stamps = [
        e
        for e in events
        if e.get("name") == "TimeStamp"
        and e.get("args", {}).get("data", {}).get("message") == "tl-key"
    ][-keys:]
    main = (stamps[0]["pid"], stamps[0]["tid"])
    spans = [(s["ts"], s["ts"] + took * 1000) for s, took in zip(stamps, times, strict=True)]
    spent: collections.Counter[str] = collections.Counter()
    for e in events:
        if (e.get("pid"), e.get("tid")) != main or e.get("ph") != "X" or e["name"] not in EVENTS:
            continue
        if any(start <= e["ts"] < end for start, end in spans):
            spent[e["name"]] += e.get("tdur", e.get("dur", 0)) / 1000
    return times, spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=240)
    parser.add_argument("--css", action="append", default=[], help="NAME=CSS, a variant")
    parser.add_argument("--rounds", type=int, default=2, help="turns through the variants")
    parser.add_argument("--keys", type=int, default=4, help="explorer keys a variant a turn")
    args = parser.parse_args(argv)
    variants = {"as-is": "", **dict(v.split("=", 1) for v in args.css)}

    from playwright.sync_api import sync_playwright
    from servers import launch_browser, make_tmp, start_voila, stop

    corpus.print_header("Typing, traced: a keystroke's page time by event, per CSS variant")
    work, tmp, profile = (make_tmp(f"tl-trace-typing-{k}-") for k in "wsb")
    browser_floor.write_notebook(work, args.size)
    server = start_voila(tmp, work)
    got = {v: {"floor": [], "explorer": [], "spent": collections.Counter()} for v in variants}
    try:
        server.wait_ready()
        with sync_playwright() as pw:
            context = launch_browser(pw, profile)
            page = context.new_page()
            page.goto(
                server.url(f"/voila/render/bench_{args.size}.ipynb"), wait_until="domcontentloaded"
            )
            page.wait_for_function(bench_typing.READY_JS, timeout=300_000, polling=50)
            page.wait_for_timeout(1500)
            page.evaluate(STAMP_JS)
            k = min(8, args.size - 1) // 8 * 8
            needle = f"The free-text query for slot {k}"
            _key_and_undo(page, needle)
            typed = ""
            names = list(variants)
            for turn in range(args.rounds):
                for name in names if turn % 2 == 0 else names[::-1]:
                    page.evaluate(STYLE_JS, variants[name])
                    page.wait_for_timeout(1500)
                    for _ in range(2):
                        got[name]["floor"].append(bench_typing._floor_key(page, typed))
                        typed += "k"
                    times, spent = _traced_keys(context, page, needle, args.keys)
                    got[name]["explorer"].extend(times)
                    got[name]["spent"].update(spent)
            context.close()
    finally:
        stop(server)
        for path in (work, tmp, profile):
            shutil.rmtree(path, ignore_errors=True)
    rows = []
    for name, r in got.items():
        keys = len(r["explorer"])
        rows.append(
            [
                name,
                f"{statistics.median(r['floor']):.0f}",
                f"{statistics.median(r['explorer']):.0f}",
                *(f"{r['spent'][e] / keys:.1f}" for e in EVENTS),
            ]
        )
    headers = ["variant", "floor p50 ms", "explorer p50 ms", *(f"{e} ms" for e in EVENTS)]
    print(corpus.format_table(headers, rows))
    print(f"\n{args.rounds * args.keys} explorer keys a variant; thread ms a key (tdur)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
