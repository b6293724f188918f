"""Time argument generation for ``toollens.fuzz``: the property-by-property strategy against
hypothesis-jsonschema's own object strategy, and a whole fuzz run per example.

For tools of 3, 9 and 20 parameters (``corpus.load_tool``: nested models, lists, optionals),
each strategy draws the same number of arguments with the same seed (interleaved runs, the
median of several); the table prints draws per second and the ratio. ``per property`` is
what ``fuzz`` uses: a closed root object drawn key by key, each key's strategy made once.
``library object`` is ``from_schema`` on the same schema, whose object strategy rebuilds the
strategies of its properties on every draw. The last column is a dry-run ``fuzz`` (edge cases,
draws, validation and call building, no call), in milliseconds per example.

Run: ``python benchmarks/bench_fuzz.py`` (``--quick`` for a few-second smoke run).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

import corpus

from toollens.core.function_schema import function_schema
from toollens.roundtrip import fuzz, generate
from toollens.roundtrip.fuzzing import explore

SIZES = (3, 9, 20)
QUICK_SIZES = (3,)


def _seconds(run: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _draws(strategy: Any, n: int) -> Callable[[], None]:
    return lambda: explore(strategy, n, 0, lambda _value: None)


def measure(size: int, n: int, repeats: int) -> tuple[float, float, float]:
    """(per-property draws/s, library-object draws/s, fuzz ms per example)."""
    from hypothesis_jsonschema import from_schema

    tool = corpus.load_tool(size)
    schema = generate.declared_only(function_schema(tool).json_schema)
    ours = generate.valid_arguments(schema)
    library = from_schema(schema)
    generate.simplest(ours)  # installs the shim, warms both paths
    ours_times, library_times = [], []
    for i in range(repeats):
        runs = [(ours_times, ours), (library_times, library)]
        for times, strategy in runs if i % 2 == 0 else reversed(runs):
            times.append(_seconds(_draws(strategy, n)))
    report: list[Any] = []
    fuzz_time = _seconds(lambda: report.append(fuzz(tool, n=n, dry_run=True)))
    per_example = fuzz_time * 1000 / max(report[0].examples, 1)
    return n / statistics.median(ours_times), n / statistics.median(library_times), per_example


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few-second smoke run")
    quick = parser.parse_args().quick
    sizes, n, repeats = (QUICK_SIZES, 20, 1) if quick else (SIZES, 60, 3)
    for fact in corpus.machine_facts():
        print(fact)
    print(f"draws per run {n}, runs {repeats} (median)")
    print()
    header = f"{'tool':<10} {'per property /s':>16} {'library object /s':>18} {'ratio':>7} "
    header += f"{'fuzz ms/example':>16}"
    print(header)
    print("-" * len(header))
    for size in sizes:
        ours, library, per_example = measure(size, n, repeats)
        row = f"{size:>2} params  {ours:>16.0f} {library:>18.0f} {ours / library:>6.1f}x "
        print(row + f"{per_example:>16.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
