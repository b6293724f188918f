"""Time toollens strict conversion against the reference ``ensure_strict_json_schema``.

Builds schemas of about 1k, 10k and 100k nodes, converts each with ``toollens.strict_schema``
and with the reference (on deep copies made outside the timed region, same process,
interleaved runs), and prints the median times, the ratio toollens/reference and the time
per node, so linear growth shows as a flat per-node column.

Run: ``python benchmarks/bench_strict.py`` (``--quick`` for a one-second smoke run).
"""

from __future__ import annotations

import argparse
import copy
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from toollens.core.strict import strict_schema

try:
    from agents.strict_schema import ensure_strict_json_schema as reference
except ImportError:  # the reference is a test extra; without it only toollens is timed
    reference = None

# The reference refuses to visit more than 100,000 nodes, so the largest size stays below.
SIZES = (1_000, 10_000, 95_000)
QUICK_SIZES = (100, 1_000)


def _record(i: int) -> dict[str, Any]:
    """One object property of 11 schema nodes: nested union, array, refs, null default."""
    return {
        "type": "object",
        "description": f"record {i}",
        "properties": {
            "name": {"type": "string", "title": "Name"},
            "age": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
            "tags": {"type": "array", "items": {"type": "string"}},
            "kind": {"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]},
            "home": {"$ref": "#/$defs/Address"},
        },
        "required": ["name"],
    }


def build_schema(nodes: int) -> tuple[dict[str, Any], int]:
    """A schema of about ``nodes`` schema nodes: groups of 10 records under the root."""
    defs = {
        "Cat": {"type": "object", "properties": {"lives": {"type": "integer"}}},
        "Dog": {"properties": {"bark": {"type": "string", "default": None}}},
        "Address": {
            "type": "object",
            "properties": {"street": {"type": "string"}, "zip": {"type": "string"}},
        },
    }
    count = 1 + 8  # root + definitions
    groups: dict[str, Any] = {}
    i = 0
    while count + 12 <= nodes:
        group = groups.setdefault(f"g{i // 10}", {"type": "object", "properties": {}})
        if not group["properties"]:
            count += 1
        group["properties"][f"r{i}"] = _record(i)
        count += 11
        i += 1
    return {"type": "object", "properties": groups, "$defs": defs}, count


def _time(fn: Callable[[dict[str, Any]], object], schema: dict[str, Any]) -> float:
    # Collect first so neither side pays for garbage the other left behind (the deep
    # copies, the previous result) inside its timed region.
    gc.collect()
    start = time.perf_counter()
    fn(schema)
    return time.perf_counter() - start


def run(sizes: tuple[int, ...], repeats: int) -> list[tuple[int, float, float | None]]:
    rows = []
    for size in sizes:
        schema, count = build_schema(size)
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(repeats):
            ours.append(_time(strict_schema, schema))
            if reference is not None:
                victim = copy.deepcopy(schema)  # outside the timed region
                theirs.append(_time(reference, victim))
        rows.append((count, statistics.median(ours), statistics.median(theirs) if theirs else None))
    return rows


def format_table(rows: list[tuple[int, float, float | None]]) -> str:
    lines = [
        f"{'nodes':>8}  {'toollens ms':>12}  {'reference ms':>12}  {'ratio':>6}  "
        f"{'toollens us/node':>16}"
    ]
    for count, ours, theirs in rows:
        ref_ms = f"{theirs * 1e3:12.2f}" if theirs is not None else f"{'n/a':>12}"
        ratio = f"{ours / theirs:6.2f}" if theirs else f"{'n/a':>6}"
        lines.append(
            f"{count:>8}  {ours * 1e3:12.2f}  {ref_ms}  {ratio}  {ours / count * 1e6:16.3f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, few repeats")
    parser.add_argument("--repeats", type=int, default=None, help="runs per size (median)")
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else SIZES
    repeats = args.repeats or (3 if args.quick else 15)
    print(format_table(run(sizes, repeats)))
    if reference is None:
        print("reference not installed (pip install openai-agents); ratios skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
