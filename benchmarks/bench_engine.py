"""Engine speed: toollens ``function_schema`` against the reference, side by side.

For each generated tool (see ``corpus.py``) both implementations run interleaved in one
process -- toollens, reference, reference, toollens, ... -- so a noisy machine slows both
alike; the table shows the median of each and the ratio of the medians, plus the median of
the per-pair ratios (more robust when the load changes during the run).

    python benchmarks/bench_engine.py            # full run (a minute or two)
    python benchmarks/bench_engine.py --quick    # tiny tools, few repeats (seconds)
    python benchmarks/bench_engine.py --profile 200   # cProfile toollens on one case

Target: ratio <= 1.0 for every strict case (toollens also records provenance, which the
reference does not compute).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus

FULL_CASES = ((3, 300), (50, 60), (200, 25))
QUICK_CASES = ((3, 5), (20, 3))


def _timed(fn: Callable[[], Any]) -> float:
    gc.collect()  # garbage from the previous call must not be billed to this one
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def compare(
    func: Callable[..., Any], *, strict: bool, pairs: int
) -> tuple[list[float], list[float], bool]:
    """Interleaved timings of toollens and the reference on ``func``; also whether the
    parameter schemas they emit are equal."""
    from agents.function_schema import function_schema as reference

    from toollens.core.function_schema import function_schema

    def ours() -> Any:
        return function_schema(func, strict=strict)

    def theirs() -> Any:
        return reference(func, strict_json_schema=strict)

    same = ours().json_schema == theirs().params_json_schema  # also warms both up
    a: list[float] = []
    b: list[float] = []
    for index in range(pairs):
        if index % 2 == 0:
            a.append(_timed(ours))
            b.append(_timed(theirs))
        else:
            b.append(_timed(theirs))
            a.append(_timed(ours))
    return a, b, same


def run(cases: tuple[tuple[int, int], ...], modes: tuple[bool, ...]) -> list[list[str]]:
    rows: list[list[str]] = []
    for n_params, pairs in cases:
        func = corpus.load_tool(n_params)
        for strict in modes:
            a, b, same = compare(func, strict=strict, pairs=pairs)
            ma, mb = statistics.median(a), statistics.median(b)
            pair_ratio = statistics.median(x / y for x, y in zip(a, b, strict=False))
            verdict = "met" if ma / mb <= 1.0 else "MISSED"
            rows.append(
                [
                    f"{n_params} params",
                    "strict" if strict else "non-strict",
                    str(pairs),
                    f"{ma * 1e3:.2f}",
                    f"{mb * 1e3:.2f}",
                    f"{ma / mb:.3f}",
                    f"{pair_ratio:.3f}",
                    "yes" if same else "NO",
                    verdict if strict else "-",
                ]
            )
    return rows


def profile(n_params: int, repeats: int) -> None:
    import cProfile
    import pstats

    from toollens.core.function_schema import function_schema

    func = corpus.load_tool(n_params)
    function_schema(func)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeats):
        function_schema(func)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(r"toollens|typing|inspect|docstring", 25)
    stats.sort_stats("tottime").print_stats(20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny tools, few repeats")
    parser.add_argument("--strict-only", action="store_true", help="skip the non-strict rows")
    parser.add_argument("--profile", type=int, metavar="N", help="cProfile the N-param tool")
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile, 3 if args.quick else 10)
        return 0
    corpus.print_header("bench_engine: toollens function_schema vs agents function_schema")
    modes = (True,) if args.strict_only else (True, False)
    rows = run(QUICK_CASES if args.quick else FULL_CASES, modes)
    headers = [
        "case",
        "mode",
        "pairs",
        "toollens ms",
        "reference ms",
        "ratio",
        "pair ratio",
        "same schema",
        "target <=1.0",
    ]
    print(corpus.format_table(headers, rows))
    print()
    print("ms = median wall time per call; ratio = toollens median / reference median;")
    print("pair ratio = median of per-pair ratios (interleaved, alternating order).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
