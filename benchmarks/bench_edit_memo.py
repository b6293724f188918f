"""The kernel's work per live edit, with and without the edit-to-edit caches.

Two headless explorers (``Explorer(tool, debounce=0)``) on the same ``corpus`` tool are fed
the same realistic edits (``corpus.edits``: docstring words, the summary, an ``Annotated``
description, a ``Field`` description, a default), alternating which goes first; one renders
with the caches of ``toollens.core.memo`` on, the other inside ``memo_disabled()``. Per
edit the clock runs from ``editor.value = text`` to every view updated (``flush()``), after
a ``gc.collect()``. After every edit the two explorers' synced views and change lists must
be equal (the caches change no output): a difference is reported as a failure.

The table gives, per tool size, the median per-edit milliseconds of each side, the ratio
cached / uncached of the medians and the median of the per-edit ratios (steadier when the
load changes during the run).

    python benchmarks/bench_edit_memo.py                  # 3, 20, 240 parameters, 30 edits
    python benchmarks/bench_edit_memo.py --sizes 240 --edits 60
    python benchmarks/bench_edit_memo.py --quick          # 3 and 20 parameters, 6 edits

No target: the ratio is what the caches save (below 1.0 is faster).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus


def _views(explorer: Any) -> dict[str, str]:
    values = {key: str(html) for key, html in explorer.panels.items()}
    for extra in ("changes", "banner", "note"):
        values[extra] = str(getattr(explorer, extra))
    return values


def _timed_edit(explorer: Any, text: str, cached: bool) -> float:
    from toollens.core.memo import memo_disabled

    guard: AbstractContextManager[None] = nullcontext() if cached else memo_disabled()
    gc.collect()
    with guard:
        started = time.perf_counter()
        explorer.editor.value = text
        explorer.flush()
        return time.perf_counter() - started


def measure(n_params: int, n_edits: int) -> dict[str, Any]:
    """Per-edit seconds of a cached and an uncached explorer on the same edits."""
    from toollens.core.memo import memo_disabled
    from toollens.jupyter.explorer import Explorer

    func = corpus.load_tool(n_params)
    on = Explorer(func, debounce=0)
    with memo_disabled():
        off = Explorer(func, debounce=0)
    start = on.editor.value
    texts = [text for _, text in corpus.edits(start, n_params, n_edits)]
    for text in (texts[0], start):  # warm both, as a user's first edit would
        _timed_edit(on, text, True)
        _timed_edit(off, text, False)
    times: dict[bool, list[float]] = {True: [], False: []}
    mismatches: list[str] = []
    for index, text in enumerate(texts):
        order = (True, False) if index % 2 == 0 else (False, True)
        for cached in order:
            times[cached].append(_timed_edit(on if cached else off, text, cached))
        a, b = _views(on), _views(off)
        mismatches += [f"edit {index}: {key}" for key in a if a[key] != b.get(key)]
    on.close()
    off.close()
    return {"on": times[True], "off": times[False], "mismatches": mismatches}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 and 20 parameters, 6 edits")
    parser.add_argument("--sizes", type=int, nargs="*", default=None)
    parser.add_argument("--edits", type=int, default=None)
    args = parser.parse_args(argv)
    sizes = args.sizes or ([3, 20] if args.quick else [3, 20, 240])
    n_edits = args.edits or (6 if args.quick else 30)
    corpus.print_header("bench_edit_memo: kernel ms per live edit, caches on vs off")
    rows = []
    failures: list[str] = []
    for n in sizes:
        result = measure(n, n_edits)
        on, off = result["on"], result["off"]
        pair = statistics.median(a / b for a, b in zip(on, off, strict=True))
        rows.append(
            [
                str(n),
                str(len(on)),
                f"{statistics.median(on) * 1000:.1f}",
                f"{statistics.median(off) * 1000:.1f}",
                f"{statistics.median(on) / statistics.median(off):.2f}",
                f"{pair:.2f}",
                "yes" if not result["mismatches"] else "NO",
            ]
        )
        failures += [f"{n} params, {m}" for m in result["mismatches"]]
    headers = ["params", "edits", "cached ms p50", "uncached ms p50", "ratio", "pair ratio"]
    print(corpus.format_table([*headers, "same views"], rows))
    for failure in failures[:20]:
        print("MISMATCH", failure)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
