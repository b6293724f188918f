"""Token counts over the real-world schema corpus: what tools cost, and what counting costs.

For each schema of the corpus (JSONSchemaBench, kept beside the repository in
``../shared/corpora/``; ``--corpus`` points elsewhere) as one tool: ``toollens.tokens`` for
gpt-4o (o200k_base) and gpt-4 (cl100k_base), timed, and, as the baseline, the model's
encoding run once over the tool's JSON (``json.dumps``) — what a naive counter reports.
Printed: token statistics (how far the JSON count is from what the model reads), and the
time per ``tokens()`` call against the plain encode of the same tool (a ratio, so it
travels across machines). Nothing is asserted; exit 0.

    python benchmarks/bench_tokens_corpus.py            # the whole corpus
    python benchmarks/bench_tokens_corpus.py --quick    # every 25th schema
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from toollens.tokens import encodings, tokens

_DEFAULT = (
    Path(__file__).resolve().parents[2] / "shared" / "corpora" / "jsonschemabench-dev.json.gz"
)
MODELS = {"gpt-4o": "o200k_base", "gpt-4": "cl100k_base"}


def _machine() -> None:
    from importlib.metadata import version

    print(
        f"python {platform.python_version()}, cpu count {os.cpu_count()}, "
        f"load average {os.getloadavg()[0]:.1f}, tiktoken {version('tiktoken')}"
    )


def _tool(item: dict[str, Any], index: int) -> dict[str, Any]:
    schema = item["schema"]
    if not isinstance(schema, dict) or schema.get("type") not in (None, "object"):
        schema = {"type": "object", "properties": {"value": schema}}
    return {
        "type": "function",
        "function": {
            "name": f"tool_{index}",
            "description": str(item.get("description") or ""),
            "parameters": schema,
        },
    }


def _timed(call: Any) -> tuple[Any, float]:
    gc.collect()
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def _measure(items: list[dict[str, Any]], model: str) -> dict[str, list[float]]:
    encoding = MODELS[model]
    out: dict[str, list[float]] = {"rendered": [], "json": [], "t_tokens": [], "t_json": []}
    for index, item in enumerate(items):
        tool = _tool(item, index)
        text = json.dumps(tool)
        # Interleaved, alternating which goes first, as the other benchmarks do.
        order = (0, 1) if index % 2 else (1, 0)
        results: dict[int, tuple[Any, float]] = {}
        for which in order:
            if which == 0:
                results[0] = _timed(lambda tool=tool: tokens(tool, model))
            else:
                results[1] = _timed(lambda text=text: encodings.count(encoding, text))
        (counted, t_tokens), (naive, t_json) = results[0], results[1]
        out["rendered"].append(counted.total)
        out["json"].append(naive)
        out["t_tokens"].append(t_tokens)
        out["t_json"].append(t_json)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every 25th schema only")
    parser.add_argument("--corpus", type=Path, default=_DEFAULT)
    args = parser.parse_args()
    _machine()
    if not args.corpus.is_file():
        print(f"no corpus at {args.corpus}; nothing measured")
        return 0
    with gzip.open(args.corpus, "rt", encoding="utf-8") as handle:
        items = json.load(handle)[:: 25 if args.quick else 1]
    for model in MODELS:  # warm the encodings (loaded once per process)
        tokens({"type": "object", "properties": {}}, model)
    print(
        f"\n{'model':<8} {'tools':>6} {'median tok':>10} {'p95 tok':>8} {'max tok':>8} "
        f"{'JSON/read':>10} {'ms/tool':>8} {'x encode':>9}"
    )
    print("-" * 74)
    for model in MODELS:
        m = _measure(items, model)
        ranked = sorted(m["rendered"])
        p95 = ranked[min(len(ranked) - 1, int(len(ranked) * 0.95))]
        ratio = statistics.median(j / r for j, r in zip(m["json"], m["rendered"], strict=True) if r)
        cost = statistics.median(
            a / b for a, b in zip(m["t_tokens"], m["t_json"], strict=True) if b
        )
        print(
            f"{model:<8} {len(ranked):>6} {statistics.median(ranked):>10.0f} {p95:>8.0f} "
            f"{ranked[-1]:>8.0f} {ratio:>10.2f} "
            f"{statistics.median(m['t_tokens']) * 1000:>8.2f} {cost:>9.1f}"
        )
    print(
        "\nJSON/read: median of (tokens of the tool's JSON) / (tokens the model reads);"
        "\nx encode: median of (time of tokens()) / (time of one encode of the JSON)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
