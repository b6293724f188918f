"""Typing: one keystroke -> all four explorer views updated, against the floor, in one page.

Voila serves a notebook per tool size (3, 20 and 240 parameters by default) that shows an
empty anywidget (the floor: ``browser_floor.py``) above ``toollens.Explorer(tool)``; Debian's
Chromium (Playwright) types real keys. Rounds alternate: one key into the floor's input
(keydown -> its echo written back into the page), then one key at the end of a parameter's
docstring line in the explorer (keydown -> the last change to any of the four views, once
the Metadata and Strict views show the key). Each ends at the frame painted after that last
change (the next animation frame, then the task after it). Both on the page's clock, in the
same page and run.

Prints per size the medians and the explorer's excess over the floor. Goal (issue 50): the
excess <= 40 ms at 3-20 parameters, <= 120 ms at 240. Nothing is asserted.

    python benchmarks/bench_typing.py                 # 3, 20, 240 parameters, 15 rounds
    python benchmarks/bench_typing.py --quick         # 3 parameters, 4 rounds
    python benchmarks/bench_typing.py --sizes 240 --rounds 25
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

import browser_floor
import corpus

VIEWS = ("signature", "metadata", "strict", "output")
GOAL_MS = {3: 40, 20: 40, 240: 120}
READY_JS = """() => !!document.querySelector('.tl-floor-out') && ['signature', 'metadata',
  'strict', 'output'].every((v) => {
    const slot = document.querySelector(`.tl-xp .tl-slot-${v} .tl-panel`);
    return slot && slot.textContent.length > 0; })"""
# Record the keydown and every change to the watched nodes after it, on the page's clock.
WATCH_JS = """([target, slots]) => {
  const old = window.__tlWatch;
  if (old) { old.observer.disconnect(); old.node.removeEventListener('keydown', old.onKey, true); }
  const node = target === 'floor' ? document.querySelector('.tl-floor-in')
    : document.querySelector('.tl-xp .tl-editor').tlView.contentDOM;
  const watch = {key: null, last: null, painted: null, node};
  watch.onKey = () => { if (watch.key === null) watch.key = performance.now(); };
  node.addEventListener('keydown', watch.onKey, true);
  // The frame after a change: the next animation frame, then the task after its paint.
  watch.observer = new MutationObserver(() => {
    watch.last = performance.now();
    requestAnimationFrame(() => setTimeout(() => { watch.painted = performance.now(); }, 0));
  });
  for (const sel of slots) {
    watch.observer.observe(document.querySelector(sel),
      {subtree: true, childList: true, characterData: true});
  }
  window.__tlWatch = watch;
}"""
SHOWN_JS = """([sels, text]) => sels.every(
  (s) => document.querySelector(s).textContent.includes(text))"""
CARET_JS = """(needle) => {
  const view = document.querySelector('.tl-xp .tl-editor').tlView;
  const at = view.state.doc.toString().indexOf(needle);
  if (at < 0) return -1;
  view.focus();
  view.dispatch({selection: {anchor: at + needle.length}, scrollIntoView: true});
  return at;
}"""


def _settle(page: Any, quiet_ms: int = 250) -> float:
    """Wait until nothing watched changed for ``quiet_ms``; keydown -> the frame painted
    after the last change, in ms."""
    page.wait_for_function(
        "(quiet) => { const w = window.__tlWatch; return w.painted !== null && w.painted >= w.last"
        " && performance.now() - w.last > quiet; }",
        arg=quiet_ms,
        timeout=60_000,
        polling=25,
    )
    watch = page.evaluate("() => [window.__tlWatch.key, window.__tlWatch.painted]")
    return float(watch[1] - watch[0])


def _floor_key(page: Any, typed: str) -> float:
    page.evaluate(WATCH_JS, ["floor", [".tl-floor-out"]])
    page.focus(".tl-floor-in")
    page.keyboard.type("k")
    page.wait_for_function(SHOWN_JS, arg=[[".tl-floor-out"], typed + "k"], timeout=60_000)
    return _settle(page)


def _explorer_key(page: Any, needle: str, typed: str) -> float:
    slots = [f".tl-xp .tl-slot-{v}" for v in VIEWS]
    page.evaluate(WATCH_JS, ["explorer", slots])
    assert page.evaluate(CARET_JS, needle + typed) >= 0, needle
    page.keyboard.type("k")
    shown = [f".tl-xp .tl-slot-{v}" for v in ("metadata", "strict")]
    page.wait_for_function(SHOWN_JS, arg=[shown, needle + typed + "k"], timeout=60_000)
    return _settle(page)


def measure(context: Any, server: Any, n: int, rounds: int) -> dict[str, list[float]]:
    page = context.new_page()
    try:
        page.goto(server.url(f"/voila/render/bench_{n}.ipynb"), wait_until="domcontentloaded")
        page.wait_for_function(READY_JS, timeout=300_000, polling=50)
        page.wait_for_timeout(1500)  # fonts, the kernel's idle message
        k = min(8, n - 1) // 8 * 8  # shape 0 of the corpus: "The free-text query for slot k"
        needle = f"The free-text query for slot {k}"
        floor, explorer = [], []
        for step in range(rounds):
            floor.append(_floor_key(page, "k" * step))
            explorer.append(_explorer_key(page, needle, "k" * step))
        return {"floor": floor, "explorer": explorer}
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 parameters, 4 rounds")
    parser.add_argument("--sizes", type=int, nargs="*", default=None)
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args(argv)
    sizes = args.sizes or ([3] if args.quick else [3, 20, 240])
    rounds = args.rounds or (4 if args.quick else 15)

    from playwright.sync_api import sync_playwright
    from servers import launch_browser, make_tmp, start_voila, stop

    corpus.print_header("Typing: keystroke -> four views, explorer vs an empty anywidget")
    work, tmp, profile = (make_tmp(f"tl-bench-typing-{k}-") for k in "wsb")
    for n in sizes:
        browser_floor.write_notebook(work, n)
    server = start_voila(tmp, work)
    rows = []
    try:
        server.wait_ready()
        with sync_playwright() as pw:
            context = launch_browser(pw, profile)
            try:
                for n in sizes:
                    got = measure(context, server, n, rounds)
                    floor, explorer = (statistics.median(got[k]) for k in ("floor", "explorer"))
                    goal = GOAL_MS.get(n)
                    met = goal is not None and explorer - floor <= goal
                    verdict = "-" if goal is None else ("met" if met else "MISSED")
                    rows.append(
                        [
                            f"{n} params",
                            f"{floor:.0f}",
                            f"{explorer:.0f}",
                            f"{max(got['explorer']):.0f}",
                            f"{explorer - floor:.0f}",
                            f"{explorer / floor:.2f}",
                            f"<= {goal}" if goal else "-",
                            verdict,
                        ]
                    )
            finally:
                context.close()
    finally:
        stop(server)
        for path in (work, tmp, profile):
            shutil.rmtree(path, ignore_errors=True)
    headers = [
        "tool",
        "floor p50 ms",
        "explorer p50 ms",
        "explorer max",
        "excess ms",
        "ratio",
        "goal excess",
        "verdict",
    ]
    print(corpus.format_table(headers, rows))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n{rounds} rounds per size, floor and explorer alternating; load now {load:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
