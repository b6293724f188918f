"""Opening: the explorer's first paint after its cell runs, against an empty anywidget's.

Voila serves two notebooks per tool size with the same setup cell (imports, the floor widget
class of ``browser_floor.py``): one whose last cell shows the floor (an empty anywidget: an
input and an echo), one whose last cell shows ``toollens.Explorer(tool)``. Each last cell
first writes a mark with the time it started (the machine's clock, epoch ms); the page
records when the widget's content is in the page (the floor's echo; the explorer's editor
and its four views, filled) and takes the frame painted after it (the next animation frame,
then the task after it). First paint = that moment minus the mark; "of it building" is the
part the kernel spent in ``Explorer(tool)`` (a second mark after it). The two notebooks are
loaded in turn, each in a fresh page, so both see the same load.

Goal (issue 50): the explorer's median within 1.5x of the floor's. Nothing is asserted.

    python benchmarks/bench_opening.py                  # 3, 20, 240 parameters, 5 rounds
    python benchmarks/bench_opening.py --quick          # 3 parameters, 2 rounds
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

GOAL_RATIO = 1.5
# Installed before the page's own scripts: the first moment the widget shows its content,
# and the frame after it.
WATCH_JS = """(() => {
  const ready = {
    floor: () => !!document.querySelector('.tl-floor-out'),
    explorer: () => !!document.querySelector('.tl-xp .cm-content') && ['signature',
      'metadata', 'strict', 'output'].every((v) => {
        const p = document.querySelector(`.tl-xp .tl-slot-${v} .tl-panel`);
        return p && p.textContent.length > 0; }),
  };
  const check = () => {
    if (window.__tlShown) return;
    const born = document.querySelector('.tl-born');
    if (!born || !ready[born.dataset.name]()) return;
    window.__tlShown = true;
    const built = document.querySelector('.tl-born[data-name="built"]');
    requestAnimationFrame(() => setTimeout(() => {
      window.__tlPaint = {name: born.dataset.name, born: +born.dataset.t,
        built: built ? +built.dataset.t : +born.dataset.t,
        painted: performance.timeOrigin + performance.now()};
    }, 0));
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true});
})();"""


def _first_paint(context: Any, server: Any, notebook: str) -> tuple[float, float]:
    """Cell start -> first paint, and the part of it the kernel spent building the widget."""
    page = context.new_page()
    try:
        page.add_init_script(WATCH_JS)
        page.goto(server.url(f"/voila/render/{notebook}"), wait_until="domcontentloaded")
        page.wait_for_function("() => !!window.__tlPaint", timeout=300_000, polling=50)
        got = page.evaluate("() => window.__tlPaint")
        return float(got["painted"] - got["born"]), float(got["built"] - got["born"])
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 parameters, 2 rounds")
    parser.add_argument("--sizes", type=int, nargs="*", default=None)
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args(argv)
    sizes = args.sizes or ([3] if args.quick else [3, 20, 240])
    rounds = args.rounds or (2 if args.quick else 5)

    from playwright.sync_api import sync_playwright
    from servers import launch_browser, make_tmp, start_voila, stop

    corpus.print_header("Opening: cell start -> first paint, explorer vs an empty anywidget")
    work, tmp, profile = (make_tmp(f"tl-bench-open-{k}-") for k in "wsb")
    pairs = {n: browser_floor.write_opening_notebooks(work, n) for n in sizes}
    server = start_voila(tmp, work)
    rows = []
    try:
        server.wait_ready()
        with sync_playwright() as pw:
            context = launch_browser(pw, profile)
            try:
                _first_paint(context, server, pairs[sizes[0]][0])  # warm the server's caches
                for n in sizes:
                    floor, explorer, built = [], [], []
                    for _ in range(rounds):
                        floor.append(_first_paint(context, server, pairs[n][0])[0])
                        total, kernel = _first_paint(context, server, pairs[n][1])
                        explorer.append(total)
                        built.append(kernel)
                    f, e = statistics.median(floor), statistics.median(explorer)
                    verdict = "met" if e / f <= GOAL_RATIO else "MISSED"
                    rows.append([f"{n} params", f"{f:.0f}", f"{e:.0f}",
                                 f"{statistics.median(built):.0f}", f"{e / f:.2f}",
                                 f"<= {GOAL_RATIO}", verdict])  # fmt: skip
            finally:
                context.close()
    finally:
        stop(server)
        for path in (work, tmp, profile):
            shutil.rmtree(path, ignore_errors=True)
    headers = ["tool", "floor p50 ms", "explorer p50 ms", "of it building", "ratio", "goal"]
    headers.append("verdict")
    print(corpus.format_table(headers, rows))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n{rounds} page loads of each per size, in turn; load now {load:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
