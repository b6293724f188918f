"""Wall time and peak memory of ``toollens check`` on a saved MCP ``tools/list``, by clients.

Issue 50's goal "judging a server": ``check --client all`` within 1.5x of the default
clients' time on the same file, and the default within 1.5x of what it takes just to read
and validate the list. Every row is one subprocess per run, started as a user starts it
(``python -m toollens check FILE ...``), the rows of one round run one after the other and
the rounds alternate the order, so the ratios compare runs made side by side:

- **read and validate (floor)**: a ``python -c`` that does just what reading and
  validating a ``tools/list`` takes, and nothing toollens adds: ``json`` loads the file,
  the MCP SDK's own ``ListToolsResult`` (``mcp_types``; ``mcp.types`` on an SDK before 2)
  validates it, and each tool's ``inputSchema`` is checked against its JSON Schema
  meta-schema with jsonschema (``validator_for(schema).check_schema``; 2020-12 when the
  schema names no ``$schema``, as MCP says). Importing those three is most of its time
  (jsonschema imports ``rfc3987_syntax`` when it is installed, which builds its grammars).
- **importing the default's libraries** / **importing --client all's libraries**: a
  ``python -c`` that imports the floor's modules and the modules the chosen consumers'
  judges import (:data:`ENTRY_POINTS`: the frameworks' entry points toollens drives, the
  MCP SDK's client where a framework takes a session), and does nothing else: the part of a
  row's time that no change in toollens can take away. The "one process" rows import them
  all in one interpreter; the "two processes" rows fork after the modules ``check`` has
  loaded before it judges (``mcp_types``, its methods table) and split the rest as
  ``check`` splits its consumers (:func:`toollens.consumers.workers.split`), each half
  importing its own.
- **default clients** (no ``--client``: the applications and the SDK clients),
  ``--client claude-code`` (one client, nothing run but rules) and ``--client all`` (every
  consumer installed: the framework ones drive their frameworks).
- the same two with ``--jobs 1``: the clients judged in one process, where the default
  (more than one core) judges them in two.

Peak memory is the child's peak resident set (``os.wait4``'s ``ru_maxrss``, which covers
the processes it waited for): with a worker process, the largest of the two, each counting
the pages it shares with the other (the worker is forked), so the two together hold less
than the sum of their figures.

The tool list is a generated one of 26 tools (the size of the GitHub server), written to a
temporary file, so the script needs no corpus. Figures are medians of the runs. Bytecode is
written as a user's Python writes it (``PYTHONDONTWRITEBYTECODE`` is dropped for the
children) and one warm-up run of each row precedes the timed ones.
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

from toollens.consumers import available_clients, default_clients
from toollens.consumers.workers import split

FLOOR = """
import json, sys
import jsonschema
try:
    from mcp_types import ListToolsResult
except ImportError:  # the MCP SDK before 2
    from mcp.types import ListToolsResult
with open(sys.argv[1], encoding="utf-8") as f:
    data = json.load(f)
ListToolsResult.model_validate(data)
for tool in data["tools"]:
    schema = tool["inputSchema"]
    jsonschema.validators.validator_for(schema, jsonschema.Draft202012Validator).check_schema(
        schema
    )
"""

FLOOR_MODULES = ("json", "jsonschema", "mcp_types")

_AGENTS = ("agents", "agents.mcp", "agents.models.openai_responses", "openai")
_PAI = ("pydantic_ai", "pydantic_ai.mcp", "fastmcp")
ENTRY_POINTS: dict[str, tuple[str, ...]] = {
    # What each consumer's judge imports (src/toollens/consumers/), beyond what check has
    # read the list with; jsonschema for the provider check of the clients that send to
    # Anthropic (the only provider check that imports it).
    "claude-code": ("jsonschema",),
    "claude-desktop": ("jsonschema",),
    "cursor": (),
    "vscode-copilot": (),
    "gemini-cli": (),
    "mcp-python": ("mcp_types.methods",),
    "openai-agents": _AGENTS,
    "openai-agents-strict": _AGENTS,
    "pydantic-ai:openai": (*_PAI, "pydantic_ai.models.openai", "pydantic_ai.providers.openai"),
    "pydantic-ai:anthropic": (
        "jsonschema",
        *_PAI,
        "pydantic_ai.models.anthropic",
        "pydantic_ai.providers.anthropic",
    ),
    "pydantic-ai:google": (*_PAI, "pydantic_ai.models.google", "pydantic_ai.providers.google"),
    "langchain-mcp-adapters": (
        "langchain_core.tools.structured",  # StructuredTool: langchain_core.tools loads it late
        "langchain_core.utils.function_calling",
    ),
    "google-genai": ("google.genai", "google.genai.types", "mcp"),
    "anthropic-sdk": ("jsonschema", "anthropic", "anthropic.lib.tools.mcp", "mcp"),
}
BEFORE_JUDGING = ("json", "mcp_types", "mcp_types.methods")  # what check reads the list with

SPLIT = """
import importlib, os
for m in {before!r}: importlib.import_module(m)
pid = os.fork()
for m in {apart!r} if pid == 0 else {here!r}: importlib.import_module(m)
if pid == 0: os._exit(0)
os.waitpid(pid, 0)
"""


def modules_of(clients: tuple[str, ...], first: tuple[str, ...] = ()) -> tuple[str, ...]:
    """``first``, then what ``clients``' judges import, once each, in order."""
    found = dict.fromkeys(first)
    for client in clients:
        found.update(dict.fromkeys(ENTRY_POINTS[client]))
    return tuple(found)


def imports_only(clients: tuple[str, ...]) -> str:
    """A ``python -c`` program importing the floor's modules and what ``clients`` import."""
    return "\n".join(f"import {m}" for m in modules_of(clients, FLOOR_MODULES))


def imports_split(clients: tuple[str, ...]) -> str:
    """The same imports in two processes, split as ``check`` splits ``clients``."""
    here, apart = split(clients, None)
    return SPLIT.format(
        before=BEFORE_JUDGING,
        here=tuple(m for m in modules_of(here) if m not in BEFORE_JUDGING),
        apart=tuple(m for m in modules_of(apart) if m not in BEFORE_JUDGING),
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


def rows_for(path: str) -> list[tuple[str, list[str]]]:
    """Each row's label and command line."""
    check = [sys.executable, "-m", "toollens", "check", path]
    py = sys.executable
    defaults, every = default_clients(), available_clients()
    return [
        ("read and validate (floor)", [py, "-c", FLOOR, path]),
        ("importing the default's libraries, one process", [py, "-c", imports_only(defaults)]),
        ("importing the default's libraries, two processes", [py, "-c", imports_split(defaults)]),
        ("importing --client all's libraries, one process", [py, "-c", imports_only(every)]),
        ("importing --client all's libraries, two processes", [py, "-c", imports_split(every)]),
        ("default clients", check),
        ("default clients --jobs 1", [*check, "--jobs", "1"]),
        ("--client claude-code", [*check, "--client", "claude-code"]),
        ("--client all", [*check, "--client", "all"]),
        ("--client all --jobs 1", [*check, "--client", "all", "--jobs", "1"]),
    ]


def run(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one run of ``argv``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPROFILEIMPORTTIME", "PYTHONDONTWRITEBYTECODE")
    }
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):  # 1: a finding; 3 and up: the command failed
            err.seek(0)
            text = err.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"{' '.join(argv[:6])} ... failed:\n{text}")
    return elapsed, usage.ru_maxrss / 1024  # Linux: KiB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 run of each")
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each row (7)")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else args.runs
    corpus.print_header("bench_check_clients: toollens check on a tools/list, by clients")
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="toollens-clients-") as tmp:
        path = Path(tmp) / "bench.tools.json"
        path.write_text(json.dumps(tools_list(26)), encoding="utf-8")
        rows = rows_for(str(path))
        for _, command in rows:
            run(command)  # warm the bytecode caches
        times: dict[str, list[float]] = {label: [] for label, _ in rows}
        peaks: dict[str, list[float]] = {label: [] for label, _ in rows}
        for round_ in range(runs):
            for label, command in rows if round_ % 2 == 0 else rows[::-1]:
                seconds, peak = run(command)
                times[label].append(seconds)
                peaks[label].append(peak)
            loads.append(os.getloadavg()[0])
    median = {label: statistics.median(found) for label, found in times.items()}
    table = [
        [
            label,
            f"{median[label]:.2f}",
            f"{min(times[label]):.2f}",
            f"{statistics.median(peaks[label]):.0f}",
            f"{median[label] / median['read and validate (floor)']:.2f}x",
            f"{median[label] / median['default clients']:.2f}x",
        ]
        for label, _ in rows
    ]
    headers = ["command (26 tools)", "wall s (median)", "min", "peak MB", "vs floor", "vs default"]
    print(corpus.format_table(headers, table))
    print()
    goal_all = median["--client all"] / median["default clients"]
    goal_default = median["default clients"] / median["read and validate (floor)"]
    print(f"goal: --client all / default = {goal_all:.2f} (<= 1.5), ", end="")
    print(f"default / floor = {goal_default:.2f} (<= 1.5)")
    print(f"load average (1 min) during the runs: {min(loads):.2f} to {max(loads):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
