"""Provider checks scale linearly: wall time of ``check_provider`` on 400 and 3,200 wide
properties (8x the nodes), per provider, and the ratio (linear ~8x, quadratic ~64x).

The test suite asserts the same property on a deterministic measure (the number of Python
calls, ``tests/core/test_providers_corpus.py``); this script reports the time. Nothing is
asserted; exit 0.

    python benchmarks/bench_provider_scaling.py            # best of 5 runs per size
    python benchmarks/bench_provider_scaling.py --quick    # best of 2
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import time
from typing import Any

from toollens.core.providers import PROVIDERS, check_provider

SMALL, LARGE = 400, 3200


def wide(width: int) -> dict[str, Any]:
    """An object of ``width`` array properties, each of a small closed object."""
    item = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}},
        "required": ["a", "b"],
        "additionalProperties": False,
    }
    props = {f"p{i}": {"type": "array", "items": item} for i in range(width)}
    return {"type": "object", "properties": props, "required": list(props),
            "additionalProperties": False}  # fmt: skip


def best_seconds(schema: dict[str, Any], provider: str, runs: int) -> float:
    best = float("inf")
    gc.collect()
    gc.disable()  # a collection landing in one run would swamp the comparison
    try:
        for _ in range(runs):
            start = time.perf_counter()
            check_provider(schema, provider, name="tool", translate=True)
            best = min(best, time.perf_counter() - start)
    finally:
        gc.enable()
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="best of 2 runs instead of 5")
    args = parser.parse_args()
    runs = 2 if args.quick else 5
    print(
        f"python {platform.python_version()}, cpu count {os.cpu_count()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'provider':<18} {f'{SMALL} wide ms':>14} {f'{LARGE} wide ms':>14} {'ratio':>7}")
    print("-" * 56)
    small, large = wide(SMALL), wide(LARGE)
    for provider in PROVIDERS:
        a, b = best_seconds(small, provider, runs), best_seconds(large, provider, runs)
        print(f"{provider:<18} {a * 1e3:>14.1f} {b * 1e3:>14.1f} {b / max(a, 1e-9):>7.1f}")
    print("linear work gives ~8x, quadratic ~64x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
