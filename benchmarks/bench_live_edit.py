"""Live-edit speed: from setting the explorer's editor text to every panel updated.

A headless ``toollens.jupyter.explorer.Explorer`` (no front end: ipywidgets only records
the new values) is opened on a generated tool with the debounce disabled (``debounce=0``,
and ``flush()`` in case a render is still pending), then fed a sequence of realistic edits
(words in a parameter's docstring line, the tool summary, an ``Annotated`` description, a
``Field`` description, a default; see ``corpus.edits``). For each edit the clock runs from
``editor.value = text`` until the call returns with every panel's HTML updated.

Per tool the table gives p50/p95 of that latency and the bytes sent to the front end per
edit (``last_render_stats.bytes_sent``: the views' patches and the change list), next to
what resending every view that changed, whole, would cost (by diffing the panel values). A
second table splits one render into its stages -- run the source, ``report()``,
``render_panels()``, the edit diff -- by calling the same functions on the same edits, so a
missed target names the function that dominates.

    python benchmarks/bench_live_edit.py            # 3 and 200 parameters, 40 edits each
    python benchmarks/bench_live_edit.py --quick    # 3 and 20 parameters, 5 edits
    python benchmarks/bench_live_edit.py --profile 200   # cProfile the edits of one tool

Targets: p95 <= 10 ms (3 parameters), <= 100 ms (200 parameters).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus

TARGETS_MS = {3: 10.0, 200: 100.0}
FULL_CASES = ((3, 40), (200, 40))
QUICK_CASES = ((3, 5), (20, 5))


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (no interpolation: with few samples p95 is a real sample)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def _panel_values(explorer: Any) -> dict[str, str]:
    values = {key: str(html) for key, html in explorer.panels.items()}
    for extra in ("changes", "banner"):  # the explorer's other synced HTML traits
        values[extra] = str(getattr(explorer, extra))
    return values


def warm_explorer(n_params: int, n_edits: int) -> tuple[Any, Any, list[tuple[str, str]]]:
    """A headless explorer on the generated tool, its function and its ``(label, text)``
    edits, after one untimed pass that warms caches a user's first edit would also have
    warmed (imports of render modules, pydantic schemas of the nested models)."""
    from toollens.jupyter.explorer import Explorer

    func = corpus.load_tool(n_params)
    explorer = Explorer(func, debounce=0)
    start_text = explorer.editor.value
    texts = list(corpus.edits(start_text, n_params, n_edits))
    for text in (texts[0][1], start_text):
        explorer.editor.value = text
        explorer.flush()
    return explorer, func, texts


def measure_tool(n_params: int, n_edits: int) -> dict[str, Any]:
    explorer, func, texts = warm_explorer(n_params, n_edits)
    latencies: list[float] = []
    stats_bytes: list[int] = []
    diff_bytes: list[int] = []
    failures: list[str] = []
    labels: list[str] = []
    before = _panel_values(explorer)
    for label, text in texts:
        gc.collect()
        started = time.perf_counter()
        explorer.editor.value = text
        explorer.flush()
        latencies.append(time.perf_counter() - started)
        stats = explorer.last_render_stats
        if not stats.ok:
            failures.append(f"{label}: {explorer.error}")
        after = _panel_values(explorer)
        diff_bytes.append(sum(len(v.encode()) for k, v in after.items() if before.get(k) != v))
        stats_bytes.append(stats.bytes_sent)
        labels.append(label)
        before = after
    explorer.close()
    return {
        "latencies": latencies,
        "stats_bytes": stats_bytes,
        "diff_bytes": diff_bytes,
        "failures": failures,
        "labels": labels,
        "texts": [t for _, t in texts],
        "func": func,
    }


def stage_breakdown(func: Any, texts: list[str]) -> list[tuple[str, float]]:
    """Median seconds of each stage of one render, called directly on the same edits."""
    from toollens.core.report import report
    from toollens.jupyter.live import define_from_source

    try:
        from toollens.render.html import render_panels
    except ImportError:
        render_panels = None  # type: ignore[assignment]
    try:
        from toollens.core.diff import diff
        from toollens.render.html import render_edit_changes
    except ImportError:
        diff = None  # type: ignore[assignment]

    from toollens.core.function_schema import function_schema

    stages: dict[str, list[float]] = {
        "define_from_source": [],
        "report()": [],
        "  of which function_schema()": [],
        "render_panels()": [],
        "diff + render_edit_changes()": [],
    }

    def timed(key: str, fn: Callable[[], Any]) -> Any:
        gc.collect()
        started = time.perf_counter()
        value = fn()
        stages[key].append(time.perf_counter() - started)
        return value

    previous = None
    for index, text in enumerate(texts):
        live = timed(
            "define_from_source",
            lambda text=text, index=index: define_from_source(
                text,
                base_globals=func.__globals__,
                filename=f"<bench-{index}>",
                target_name=func.__name__,
            ),
        )
        target = live.value
        if target is None:
            continue
        rep = timed("report()", lambda target=target: report(target))
        timed("  of which function_schema()", lambda target=target: function_schema(target))
        if render_panels is not None:
            timed("render_panels()", lambda rep=rep: render_panels(rep))
        if diff is not None and previous is not None:
            timed(
                "diff + render_edit_changes()",
                lambda rep=rep, prev=previous: render_edit_changes(diff(prev.schema, rep.schema)),
            )
        previous = rep
    return [(k, statistics.median(v)) for k, v in stages.items() if v]


def profile(n_params: int, n_edits: int) -> None:
    import cProfile
    import pstats

    from toollens.jupyter.explorer import Explorer

    func = corpus.load_tool(n_params)
    explorer = Explorer(func, debounce=0)
    texts = [t for _, t in corpus.edits(explorer.editor.value, n_params, n_edits)]
    profiler = cProfile.Profile()
    profiler.enable()
    for text in texts:
        explorer.editor.value = text
        explorer.flush()
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(r"toollens", 30)
    stats.sort_stats("tottime").print_stats(20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small tools, few edits")
    parser.add_argument("--profile", type=int, metavar="N", help="cProfile the N-param tool")
    parser.add_argument("--no-breakdown", action="store_true", help="skip the stage table")
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile, 5 if args.quick else 20)
        return 0
    corpus.print_header("bench_live_edit: headless Explorer, debounce off")
    if importlib.util.find_spec("toollens.jupyter.explorer") is None:
        print("toollens.jupyter.explorer is not there yet: nothing to measure")
        return 0

    rows: list[list[str]] = []
    breakdowns: list[tuple[int, list[tuple[str, float]]]] = []
    problems: list[str] = []
    for n_params, n_edits in QUICK_CASES if args.quick else FULL_CASES:
        result = measure_tool(n_params, n_edits)
        lat = [x * 1e3 for x in result["latencies"]]
        p95 = percentile(lat, 95)
        target = TARGETS_MS.get(n_params)
        verdict = "-" if target is None else ("met" if p95 <= target else "MISSED")
        rows.append(
            [
                f"{n_params} params",
                str(len(lat)),
                f"{percentile(lat, 50):.1f}",
                f"{p95:.1f}",
                f"{max(lat):.1f}",
                f"{statistics.median(result['stats_bytes']):.0f}",
                f"{statistics.median(result['diff_bytes']):.0f}",
                f"{max(result['diff_bytes'])}",
                "-" if target is None else f"<= {target:.0f}",
                verdict,
            ]
        )
        problems.extend(f"{n_params} params: {f}" for f in result["failures"])
        if not args.no_breakdown:
            sample = result["texts"][: min(len(result["texts"]), 3 if args.quick else 10)]
            breakdowns.append((n_params, stage_breakdown(result["func"], sample)))

    headers = [
        "tool",
        "edits",
        "p50 ms",
        "p95 ms",
        "max ms",
        "bytes/edit sent",
        "views changed, whole",
        "max bytes",
        "target p95",
        "verdict",
    ]
    print(corpus.format_table(headers, rows))
    print()
    print("latency: editor.value = text -> every panel updated (debounce=0, then flush());")
    print(
        "bytes/edit sent: median of last_render_stats.bytes_sent (the synced patches and the"
        " change list);\nviews changed, whole: what resending every changed view would cost."
    )
    for n_params, stages in breakdowns:
        print()
        print(f"where one render goes, {n_params} params (median of direct calls):")
        print(
            corpus.format_table(
                ["stage", "ms"], [[name, f"{seconds * 1e3:.1f}"] for name, seconds in stages]
            )
        )
    if problems:
        print()
        print("edits that did not render (error banner shown):")
        for problem in problems:
            print(f"  {problem}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
