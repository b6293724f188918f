"""A toolset of 1,000 generated tools: ``toollens check`` serial against the process pool.

Writes a module of N tools of mixed shapes (plain parameters, ``Annotated`` descriptions
and ``Field`` constraints, a pydantic model parameter, literals, optional values, lists,
and an open dict that cannot be strict), then runs ``toollens check MODULE --format json``
in a fresh process, serially and with ``--jobs`` (one process per core, and 2), and reports
wall time, peak memory (the check's own process, and its largest worker), and whether the
JSON is byte-identical to the serial run. It also times ``toollens report --html`` and the
page's size, and, when Chromium and Playwright are installed, the page's first contentful
paint (offline, from a file).

    python benchmarks/bench_toolset.py              # 1,000 tools
    python benchmarks/bench_toolset.py --tools 300
    python benchmarks/bench_toolset.py --quick      # 60 tools, one run each
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus

ROOT = Path(__file__).resolve().parent.parent
MODULE = "bench_toolset_tools"

HEADER = '''"""Generated tools for bench_toolset.py."""
from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, Field


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str
    zip_code: Annotated[str, Field(pattern=r"^[0-9]{5}$")]
'''

SHAPES = (
    '''
def {name}(query: str, limit: int = 10) -> list[str]:
    """Look up {topic} records matching a free-text query, newest first.

    Args:
        query: the words to look for in {topic}.
        limit: how many {topic} records to return.
    """
    return []
''',
    '''
def {name}(
    amount: Annotated[float, Field(gt=0, description="How much, in the account currency.")],
    currency: Literal["EUR", "USD", "GBP"] = "EUR",
) -> dict[str, float]:
    """Convert an amount of {topic} money and report the rate used."""
    return {{}}
''',
    '''
def {name}(address: Address, note: Optional[str] = None) -> str:
    """Ship a {topic} parcel to an address and return the tracking number.

    Args:
        address: where the {topic} parcel goes.
        note: a note for the courier.
    """
    return ""
''',
    '''
def {name}(ids: list[int], tags: Annotated[list[str], "labels to attach to {topic}"]) -> int:
    """Tag many {topic} items at once and return how many changed."""
    return 0
''',
    '''
def {name}(options: dict[str, Any]) -> str:
    """Configure the {topic} service with free-form options."""
    return ""
''',
)
TOPICS = ("billing", "orders", "users", "catalogue", "shipping", "support", "search", "audit")


def module_source(count: int) -> str:
    """The generated module: ``count`` tools, shapes and topics cycling."""
    parts = [HEADER]
    for i in range(count):
        topic = f"{TOPICS[i % len(TOPICS)]} {i}"
        parts.append(SHAPES[i % len(SHAPES)].format(name=f"tool_{i:04d}", topic=topic))
    return "".join(parts)


# Runs the command line in this process and prints its peak memory and its children's.
_RUNNER = """
import io, json, resource, sys
from toollens.cli import main
out = io.StringIO()
code = main(sys.argv[1:], stdout=out, stderr=sys.stderr)
sys.stdout.write(out.getvalue())
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stderr.write(json.dumps({"code": code, "own_kb": own, "children_kb": kids}) + "\\n")
"""


def run_cli(workdir: Path, *argv: str) -> tuple[float, str, dict[str, int]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(workdir)])}
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _RUNNER, *argv],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    wall = time.perf_counter() - start
    stats = json.loads(proc.stderr.strip().splitlines()[-1])
    return wall, proc.stdout, stats


def first_paint_ms(page: Path) -> str:
    """First contentful paint of the page in headless Chromium, or why it was not measured."""
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "n/a (no playwright)"
    if not Path(chromium).exists():
        return "n/a (no chromium)"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 900})
            tab.goto(page.as_uri(), timeout=600_000)
            paint = tab.evaluate(
                "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"
            )
        finally:
            browser.close()
    return f"{paint:.0f}" if paint >= 0 else "n/a"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="60 tools, no browser")
    args = parser.parse_args()
    count = 60 if args.quick else args.tools
    corpus.print_header(f"toolset of {count} generated tools: check serial vs process pool")
    with tempfile.TemporaryDirectory(prefix="toollens-bench-toolset-") as tmp:
        workdir = Path(tmp)
        (workdir / f"{MODULE}.py").write_text(module_source(count), encoding="utf-8")
        base = ["check", MODULE, "--format", "json"]
        rows, serial_out, serial_wall = [], "", 0.0
        for label, extra in (
            ("serial", []),
            ("pool, 2", ["--jobs", "2"]),
            ("pool, all", ["--jobs", "0"]),
        ):
            wall, out, stats = run_cli(workdir, *base, *extra)
            if label == "serial":
                serial_out, serial_wall = out, wall
            tools = len(json.loads(out)["tools"])
            rows.append(
                [
                    label,
                    f"{wall:.2f}",
                    f"{serial_wall / wall:.2f}",
                    f"{stats['own_kb'] / 1024:.0f}",
                    f"{stats['children_kb'] / 1024:.0f}",
                    str(tools),
                    "yes" if out == serial_out else "NO",
                ]
            )
        headers = ["mode", "wall s", "speed-up", "peak MB", "worker peak MB", "tools", "same json"]
        print(corpus.format_table(headers, rows))
        print()
        page = workdir / "toolset.html"
        wall, _, stats = run_cli(workdir, "report", MODULE, "--html", str(page))
        paint = "skipped (--quick)" if args.quick else first_paint_ms(page)
        print(
            corpus.format_table(
                ["report --html", "wall s", "page MB", "peak MB", "first paint ms"],
                [
                    [
                        "page",
                        f"{wall:.2f}",
                        f"{page.stat().st_size / 1e6:.1f}",
                        f"{stats['own_kb'] / 1024:.0f}",
                        paint,
                    ]
                ],
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
