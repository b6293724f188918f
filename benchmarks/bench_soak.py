"""Minutes of continuous typing in the explorer: does the page or the kernel grow?

Voila serves a notebook opening ``toollens.Explorer`` on a ``corpus`` tool (20 parameters
by default; ``--sizes 20 240`` runs one soak per size, one after the other); Debian's
Chromium (through Playwright) types into the CodeMirror editor at a human pace for
``--minutes``: a word typed at the end of a parameter's docstring line, one key every
``--key-ms`` milliseconds, then deleted with Backspace, so the source oscillates (every
typed word is new, so a cache keyed on the source that never forgets would show). Every
``--every`` seconds, at a quiet moment (the views show the restored source):

* **page**: the JS heap in use (CDP ``Performance.getMetrics`` ``JSHeapUsedSize``) after
  ``HeapProfiler.collectGarbage``;
* **kernel**: the resident set size of the kernel process (found among the Voila server's
  child processes; psutil when installed, else ``/proc/<pid>/status``).

The report gives first / last / max and the slope (least squares, MB per minute) of the
second half of the samples: the first half includes warm-up (the kernel's caches fill,
the page's JIT code and CodeMirror's history settle). The verdict "no growth" is printed
only when that slope is below the threshold, which is derived from what an edit moves:
if the page or the kernel kept even a tenth of what one render sends over the wire (the
synced patches and the change list), it would grow by ``0.1 * bytes received per minute``,
which is the threshold (floored at ``--floor-mb`` MB/min, the noise of an idle page and
kernel measured the same way). Timing is never asserted in tests.

    python benchmarks/bench_soak.py                    # 20 parameters, 10 minutes
    python benchmarks/bench_soak.py --minutes 2 --every 15
    python benchmarks/bench_soak.py --sizes 20 240 --minutes 10
    python benchmarks/bench_soak.py --quick            # 3 parameters, 40 s (smoke)
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

import corpus
from bench_browser_explorer import CARET_JS, FILLED_JS, VIEWS, _notebooks, _Wire

MB = 1024 * 1024
# The Metadata view shows the restored docstring line again: the edit cycle has settled.
SETTLED_JS = """([needle, word]) => {
  const slot = document.querySelector('.tl-xp .tl-slot-metadata');
  const view = document.querySelector('.tl-xp .tl-editor').tlView;
  return !!slot && slot.textContent.includes(needle) && !slot.textContent.includes(word)
    && !view.state.doc.toString().includes(word);
}"""


@dataclass
class Samples:
    """Memory samples of one soak: minutes since start, page heap and kernel RSS (bytes)."""

    minutes: list[float] = field(default_factory=list)
    page: list[int] = field(default_factory=list)
    kernel: list[int] = field(default_factory=list)
    cycles: int = 0
    keys: int = 0
    wire_bytes: int = 0


def kernel_pid(server_pid: int) -> int:
    """The kernel started by the Voila server: its child running ``ipykernel``."""
    for pid, cmd in _children(server_pid):
        if "ipykernel" in cmd:
            return pid
    raise RuntimeError("no kernel process among the Voila server's children")


def _children(parent: int) -> list[tuple[int, str]]:
    try:
        import psutil

        kids = psutil.Process(parent).children(recursive=True)
        return [(kid.pid, " ".join(kid.cmdline())) for kid in kids]
    except ImportError:
        pass
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent:
            found.append((int(entry.name), cmd))
    return found


def rss_bytes(pid: int) -> int:
    """Resident set size of ``pid`` (VmRSS)."""
    try:
        import psutil

        return int(psutil.Process(pid).memory_info().rss)
    except ImportError:
        pass
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def page_heap(cdp: Any) -> int:
    """The page's JS heap in use after a full garbage collection."""
    cdp.send("HeapProfiler.collectGarbage")
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return int(next(m["value"] for m in metrics if m["name"] == "JSHeapUsedSize"))


def slope_per_minute(xs: list[float], ys: list[int]) -> float:
    """Least-squares slope of ys (bytes) over xs (minutes), in MB per minute."""
    if len(xs) < 2:
        return 0.0
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return (
        0.0
        if den == 0
        else sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den / MB
    )


def _cycle(page: Any, needle: str, word: str, key_ms: int) -> None:
    """Type ``word`` at the end of the docstring line, then delete it, at a human pace."""
    assert page.evaluate(CARET_JS, needle) >= 0, needle
    page.keyboard.type(word, delay=key_ms)
    page.wait_for_timeout(key_ms * 3)  # a pause, as someone reading the views
    for _ in word:
        page.keyboard.press("Backspace", delay=0)
        page.wait_for_timeout(key_ms)


def soak(page: Any, cdp: Any, server_pid: int, args: argparse.Namespace, n: int) -> Samples:
    wire = _Wire(page)
    page.goto(args.url, wait_until="domcontentloaded")
    page.wait_for_function(FILLED_JS, arg=list(VIEWS), timeout=300_000, polling=100)
    page.wait_for_timeout(2000)
    kpid = kernel_pid(server_pid)  # Voila started it to render the page
    cdp.send("Performance.enable")
    out = Samples()
    start = time.monotonic()
    end = start + args.minutes * 60
    next_sample = start
    wire_start = wire.received
    while True:
        now = time.monotonic()
        if now >= next_sample:
            out.minutes.append((now - start) / 60)
            out.page.append(page_heap(cdp))
            out.kernel.append(rss_bytes(kpid))
            print(
                f"  {out.minutes[-1]:5.2f} min  page {out.page[-1] / MB:7.2f} MB  "
                f"kernel {out.kernel[-1] / MB:7.2f} MB  cycles {out.cycles}",
                flush=True,
            )
            next_sample += args.every
            if now >= end:
                break
        k = (out.cycles * 24 % n) // 8 * 8  # shape 0 lines: "The free-text query for slot k."
        needle = f"The free-text query for slot {k}"
        word = f" soak{out.cycles}x"
        _cycle(page, needle, word, args.key_ms)
        out.keys += 2 * len(word)
        out.cycles += 1
        page.wait_for_function(SETTLED_JS, arg=[needle, word.strip()], timeout=60_000, polling=50)
    out.wire_bytes = wire.received - wire_start
    return out


def summarise(name: str, n: int, s: Samples, floor_mb: float) -> list[str]:
    half = len(s.minutes) // 2
    elapsed = s.minutes[-1] if s.minutes else 0.0
    per_minute = s.wire_bytes / elapsed / MB if elapsed else 0.0
    threshold = max(floor_mb, 0.1 * per_minute)
    values = s.page if name == "page" else s.kernel
    slope = slope_per_minute(s.minutes[half:], values[half:])
    verdict = "no growth" if slope < threshold else "GROWS"
    return [
        str(n),
        name,
        f"{values[0] / MB:.1f}",
        f"{values[-1] / MB:.1f}",
        f"{max(values) / MB:.1f}",
        f"{slope:+.3f}",
        f"{threshold:.3f}",
        verdict,
    ]


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 parameters, 40 s, 10 s samples")
    parser.add_argument("--sizes", type=int, nargs="*", default=None)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--key-ms", type=int, default=150, help="milliseconds between keys")
    parser.add_argument("--floor-mb", type=float, default=0.1, help="slope floor, MB/min")
    parser.add_argument("--json", type=Path, default=None, help="write the samples here")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.minutes, args.every = args.sizes or [3], 40 / 60, 10.0
    args.sizes = args.sizes or [20]
    return args


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    from playwright.sync_api import sync_playwright
    from servers import launch_browser, make_tmp, start_voila, stop

    corpus.print_header("Explorer soak (Voila + Chromium): page heap and kernel RSS while typing")
    rows, dump = [], {}
    for n in args.sizes:
        work, tmp = make_tmp("tl-soak-nb-"), make_tmp("tl-soak-voila-")
        profile = make_tmp("tl-soak-chr-")
        _notebooks(work, [n])
        server = start_voila(tmp, work)
        try:
            server.wait_ready()
            args.url = server.url(f"/voila/render/bench_{n}.ipynb")
            with sync_playwright() as pw:
                context = launch_browser(pw, profile)
                try:
                    page = context.new_page()
                    cdp = context.new_cdp_session(page)
                    print(f"{n} parameters, {args.minutes:g} min:", flush=True)
                    samples = soak(page, cdp, server.proc.pid, args, n)
                finally:
                    context.close()
        finally:
            stop(server)
            for path in (work, tmp, profile):
                shutil.rmtree(path, ignore_errors=True)
        rows += [summarise(name, n, samples, args.floor_mb) for name in ("page", "kernel")]
        dump[str(n)] = samples.__dict__
        minutes = samples.minutes[-1] or 1.0
        print(
            f"  {samples.cycles} edit cycles, {samples.keys} keys "
            f"({samples.keys / minutes:.0f} per minute), "
            f"{samples.wire_bytes / minutes / 1000:.0f} KB received per minute",
            flush=True,
        )
    headers = ["params", "what", "first MB", "last MB", "max MB", "slope MB/min", "threshold", ""]
    print(corpus.format_table(headers, rows))
    print("\nslope: least squares over the second half of the samples")
    if args.json is not None:
        args.json.write_text(json.dumps(dump, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
