"""Wall time of ``toollens check`` on a saved MCP ``tools/list``, by which clients judge it.

Runs the CLI as a user does (``python -m toollens check FILE ...``, one subprocess per run)
for: no ``--client`` (the default clients: the applications and the SDK clients),
``--client claude-code`` (one client, nothing run but rules), and ``--client all`` (every
consumer installed, the framework ones import their frameworks). The tool list is a
generated one of 26 tools (the size of the GitHub server), written to a temporary file, so
the script needs no corpus. Each figure is the median of the runs; the runs of the three
commands alternate.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus

COMMANDS = (
    ("default clients", ()),
    ("--client claude-code", ("--client", "claude-code")),
    ("--client all", ("--client", "all")),
)


def tools_list(count: int) -> dict[str, object]:
    """A ``tools/list`` answer of ``count`` tools, each with a few typed, optional
    parameters (what strict mode rewrites) and a nullable one (what Gemini CLI rewrites)."""
    tools = []
    for i in range(count):
        properties = {
            "owner": {"type": "string", "description": "Repository owner"},
            "repo": {"type": "string", "description": "Repository name"},
            "page": {"type": "integer", "minimum": 1, "description": "Page number"},
            "label": {"type": ["string", "null"], "description": "A label to filter on"},
        }
        schema = {"type": "object", "properties": properties, "required": ["owner", "repo"]}
        tools.append({"name": f"tool_{i}", "description": f"Tool {i}.", "inputSchema": schema})
    return {"serverInfo": {"name": "bench"}, "protocolVersion": "2025-11-25", "tools": tools}


def wall(args: list[str]) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPROFILEIMPORTTIME"}
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "toollens", "check", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):  # 1: a finding; 3 and up: the command failed
        raise RuntimeError(f"check {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 run of each")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else 7
    corpus.print_header("bench_check_clients: toollens check on a tools/list, by clients")
    with tempfile.TemporaryDirectory(prefix="toollens-clients-") as tmp:
        path = Path(tmp) / "bench.tools.json"
        path.write_text(json.dumps(tools_list(26)), encoding="utf-8")
        wall([str(path)])  # warm the bytecode caches
        times: dict[str, list[float]] = {label: [] for label, _ in COMMANDS}
        for _ in range(runs):
            for label, extra in COMMANDS:
                times[label].append(wall([str(path), *extra]))
    base = statistics.median(times["--client claude-code"])
    rows = [
        [label, f"{statistics.median(found):.2f}", f"{statistics.median(found) / base:.1f}x"]
        for label, found in times.items()
    ]
    print(corpus.format_table(["command (26 tools)", "wall s (median)", "vs one client"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
