"""The explorer in a real browser: first render, last key -> views, bytes per edit.

Voila serves one notebook per tool size (the ``corpus`` tools: 3, 20 and 240 parameters by
default), each opening ``toollens.Explorer(tool)``; Debian's Chromium (through Playwright)
opens it and types into the CodeMirror editor with real key events.

* **first render**: from navigation start to the four side-by-side views showing the tool
  (so it includes Voila starting the kernel and running the notebook: compare sizes, not
  the absolute figure).
* **last key -> views**: a short marker typed at a normal pace (60 ms between keys) at the
  end of a parameter's docstring line; from the last keydown to both the Metadata and the
  Strict view showing it (the explorer's 100 ms debounce included), on the page's clock.
* **bytes per edit**: what the kernel's websocket delivered to the page from the first key
  of an edit until its views showed it (every message: the synced patches, the change list,
  kernel status messages).

    python benchmarks/bench_browser_explorer.py             # 3, 20, 240 parameters, 8 edits
    python benchmarks/bench_browser_explorer.py --quick     # 3 and 20 parameters, 3 edits
    python benchmarks/bench_browser_explorer.py --sizes 240 --edits 20

Targets (issue 31): at 240 parameters first render <= 2 s beyond the 3-parameter one,
last key -> views <= 500 ms median, <= 100 KB per one-character edit; at 3-20 parameters
last key -> views <= 200 ms median. Timing is never asserted in tests.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

import corpus

VIEWS = ("signature", "metadata", "strict", "output")
FILLED_JS = """(views) => views.every((v) => {
  const slot = document.querySelector(`.tl-xp .tl-slot-${v} .tl-panel`);
  return slot && slot.textContent.length > 0;
}) && performance.now()"""
CARET_JS = """(needle) => {
  const view = document.querySelector('.tl-xp .tl-editor').tlView;
  const at = view.state.doc.toString().indexOf(needle);
  if (at < 0) return -1;
  view.focus();
  view.dispatch({selection: {anchor: at + needle.length}, scrollIntoView: true});
  return at;
}"""
WATCH_JS = """(marker) => {
  const content = document.querySelector('.tl-xp .tl-editor').tlView.contentDOM;
  const old = window.__tlBench;
  if (old) { old.observer.disconnect(); content.removeEventListener('keydown', old.onKey, true); }
  const watch = {keys: [], seen: {}};
  watch.onKey = () => watch.keys.push(performance.now());
  content.addEventListener('keydown', watch.onKey, true);
  const slots = ['metadata', 'strict'].map(
    (v) => [v, document.querySelector(`.tl-xp .tl-slot-${v}`)]);
  watch.observer = new MutationObserver(() => {
    for (const [name, slot] of slots) {
      if (!(name in watch.seen) && slot.textContent.includes(marker)) {
        watch.seen[name] = performance.now();
      }
    }
  });
  const what = {subtree: true, childList: true, characterData: true};
  for (const [, slot] of slots) watch.observer.observe(slot, what);
  window.__tlBench = watch;
}"""
SEEN_JS = "() => ({keys: window.__tlBench.keys, seen: window.__tlBench.seen})"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


def _notebooks(work: Path, sizes: list[int]) -> None:
    import nbformat

    for n in sizes:
        (work / f"benchtool_{n}.py").write_text(corpus.tool_source(n))
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = KERNELSPEC
        setup = "import sys; sys.path.insert(0, '.')\nimport toollens\n"
        nb.cells = [
            nbformat.v4.new_code_cell(f"{setup}from benchtool_{n} import tool_{n}"),
            nbformat.v4.new_code_cell(f"toollens.Explorer(tool_{n})"),
        ]
        nbformat.write(nb, work / f"bench_{n}.ipynb")


class _Wire:
    """Bytes the page receives on its websockets (the kernel's messages)."""

    def __init__(self, page: Any) -> None:
        self.received = 0
        page.on("websocket", self._attach)

    def _attach(self, ws: Any) -> None:
        ws.on("framereceived", self._count)

    def _count(self, payload: Any) -> None:
        self.received += len(payload.encode() if isinstance(payload, str) else payload)


def measure(context: Any, server: Any, n: int, edits: int) -> dict[str, Any]:
    page = context.new_page()
    wire = _Wire(page)
    try:
        page.goto(server.url(f"/voila/render/bench_{n}.ipynb"), wait_until="domcontentloaded")
        first = page.wait_for_function(FILLED_JS, arg=list(VIEWS), timeout=300_000, polling=50)
        first_ms = float(first.json_value())
        page.wait_for_timeout(1500)  # let the page settle (fonts, the kernel's idle message)
        latencies, sent = [], []
        for step in range(edits):
            k = (step * 24 % n) // 8 * 8  # shape 0: "The free-text query for slot k."
            needle = f"The free-text query for slot {k}"
            assert page.evaluate(CARET_JS, needle) >= 0, needle
            marker = f" q{step}z"
            page.evaluate(WATCH_JS, marker.strip())
            before = wire.received
            page.keyboard.type(marker, delay=60)
            page.wait_for_function(
                "() => Object.keys(window.__tlBench.seen).length === 2", timeout=60_000, polling=20
            )
            watch = page.evaluate(
                "() => ({keys: window.__tlBench.keys, seen: window.__tlBench.seen})"
            )
            latencies.append(max(watch["seen"].values()) - max(watch["keys"]))
            sent.append(wire.received - before)
            page.wait_for_timeout(300)
        return {"n": n, "first_ms": first_ms, "latencies": latencies, "sent": sent}
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 and 20 parameters, 3 edits")
    parser.add_argument("--sizes", type=int, nargs="*", default=None)
    parser.add_argument("--edits", type=int, default=None)
    args = parser.parse_args(argv)
    sizes = args.sizes or ([3, 20] if args.quick else [3, 20, 240])
    edits = args.edits or (3 if args.quick else 8)

    from playwright.sync_api import sync_playwright
    from servers import launch_browser, make_tmp, start_voila, stop

    corpus.print_header("Explorer in a browser (Voila + Chromium): first render, last key -> views")
    work, tmp, profile = (
        make_tmp("tl-bench-nb-"),
        make_tmp("tl-bench-voila-"),
        make_tmp("tl-bench-chr-"),
    )
    _notebooks(work, sizes)
    server = start_voila(tmp, work)
    rows = []
    try:
        server.wait_ready()
        with sync_playwright() as pw:
            context = launch_browser(pw, profile)
            try:
                for n in sizes:
                    result = measure(context, server, n, edits)
                    lat, sent = result["latencies"], result["sent"]
                    rows.append(
                        [
                            str(n),
                            f"{result['first_ms'] / 1000:.2f}",
                            f"{statistics.median(lat):.0f}",
                            f"{max(lat):.0f}",
                            f"{statistics.median(sent) / 1000:.1f}",
                            f"{max(sent) / 1000:.1f}",
                        ]
                    )
            finally:
                context.close()
    finally:
        stop(server)
        for path in (work, tmp, profile):
            shutil.rmtree(path, ignore_errors=True)
    headers = ["params", "first render s", "key->views p50 ms", "max ms", "KB/edit p50", "KB max"]
    print(corpus.format_table(headers, rows))
    print(f"\n{edits} edits per size; each edit types {len(' q0z')} keys, 60 ms apart")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
