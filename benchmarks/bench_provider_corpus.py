"""Provider verdicts on the whole real-world schema corpus: the figures the README quotes.

For each of the corpus' schemas (JSONSchemaBench, kept beside the repository in
``../shared/corpora/``; ``--corpus`` points elsewhere): strict conversion, then for every
provider the check toollens makes and the time it takes. Printed: how many strict results
toollens calls clean for OpenAI strict and how many of those llguidance rejects (the
target is 0), how often the documented rules and llguidance disagree, payloads flagged by
their own provider's check (target 0), how the Anthropic check compares with the anthropic
SDK's ``transform_schema``, and per-schema check times. Nothing is asserted; exit 0.

    python benchmarks/bench_provider_corpus.py            # the whole corpus, ~1 min
    python benchmarks/bench_provider_corpus.py --quick    # every 25th schema
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from toollens.core.errors import ToolLensError
from toollens.core.providers import PROVIDERS, check_provider, provider_payload
from toollens.core.records import Origin, Severity
from toollens.core.strict import explain_strict

_DEFAULT = (
    Path(__file__).resolve().parents[2] / "shared" / "corpora" / "jsonschemabench-dev.json.gz"
)


def _errors(findings: list[Any], origin: Origin | None = None) -> set[str]:
    return {
        f.rule
        for f in findings
        if f.severity is Severity.ERROR and (origin is None or f.origin is origin)
    }


def _machine() -> None:
    from importlib.metadata import version

    print(
        f"python {platform.python_version()}, cpu count {os.cpu_count()}, "
        f"load average {os.getloadavg()[0]:.1f}, llguidance {version('llguidance')}"
    )


def _anthropic_sdk(strict: dict[str, Any]) -> bool | None:
    try:
        import anthropic
    except ImportError:
        return None
    try:
        anthropic.transform_schema(strict)
    except Exception:  # the SDK raises ValueError, or worse, on odd schemas
        return False
    return True


def _one(strict: dict[str, Any], stats: Counter[str], times: dict[str, list[float]]) -> None:
    for provider in PROVIDERS:
        start = time.perf_counter()
        findings = check_provider(strict, provider, name="tool", translate=True)
        times[provider].append(time.perf_counter() - start)
        payload = provider_payload(strict, provider, name="tool")
        again = check_provider(payload.schema, provider, name="tool")
        if _errors(again) - _errors(findings):
            stats[f"{provider}: payload flagged by its own check"] += 1
        if provider != "openai-chat":
            continue
        documented, grammar = (
            _errors(findings, Origin.DOCUMENTED_RULE),
            _errors(findings, Origin.GRAMMAR),
        )
        stats["openai strict: clean"] += not _errors(findings)
        stats["openai strict: documented rules reject, llguidance compiles"] += (
            bool(documented) and not grammar
        )
        stats["openai strict: llguidance rejects, documented rules pass"] += (
            bool(grammar) and not documented
        )
        stats["openai strict: both reject"] += bool(grammar) and bool(documented)
    anthropic = _errors(check_provider(strict, "anthropic", name="tool"))
    sdk = _anthropic_sdk(strict)
    if sdk is not None:
        stats[
            f"anthropic: toollens {'rejects' if anthropic else 'accepts'}, "
            f"SDK transform_schema {'works' if sdk else 'raises'}"
        ] += 1


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
    stats: Counter[str] = Counter(schemas=len(items))
    times: dict[str, list[float]] = {p: [] for p in PROVIDERS}
    start = time.perf_counter()
    for item in items:
        try:
            strict, _ = explain_strict(item["schema"])
        except ToolLensError:
            stats["strict conversion refuses"] += 1
            continue
        stats["strict results"] += 1
        _one(strict, stats, times)
    llguidance_rejects = _clean_but_rejected(items)
    print(f"\n{'figure':<70} {'count':>7}")
    print("-" * 78)
    for key, value in sorted(stats.items()):
        print(f"{key:<70} {value:>7}")
    label = "openai strict: called clean but llguidance rejects (target 0)"
    print(f"{label:<70} {llguidance_rejects:>7}")
    print(f"\n{'provider':<18} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    print("-" * 46)
    for provider, values in times.items():
        ms = sorted(v * 1000 for v in values) or [0.0]
        p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
        print(f"{provider:<18} {statistics.median(ms):>10.2f} {p95:>8.2f} {ms[-1]:>8.2f}")
    print(f"\ntotal {time.perf_counter() - start:.1f} s")
    return 0


def _clean_but_rejected(items: list[dict[str, Any]]) -> int:
    """Strict results toollens calls clean for OpenAI that llguidance, asked directly, rejects."""
    import llguidance

    count = 0
    for item in items:
        try:
            strict, _ = explain_strict(item["schema"])
        except ToolLensError:
            continue
        if _errors(check_provider(strict, "openai-chat", name="tool")):
            continue
        grammar = llguidance.LLMatcher.grammar_from_json_schema(json.dumps(strict))
        message = llguidance.LLMatcher.validate_grammar(grammar)
        count += bool(message) and not message.startswith("WARNING")
    return count


if __name__ == "__main__":
    raise SystemExit(main())
