"""Startup cost: what ``import toollens`` and one ``toollens show`` cost a user.

1. ``python -X importtime -c "import toollens"``: the cumulative import time of the
   ``toollens`` package (the interpreter's own start-up is not in it), plus whether
   IPython / ipywidgets ended up imported (they must not: the widget layer is lazy).
2. Wall time of ``python -c "import toollens"`` minus ``python -c "pass"``, measured
   interleaved, as a cross-check.
3. Wall time of the CLI, ``python -m toollens show toollens.examples:<example>``; when the
   CLI or the bundled examples are missing, an equivalent ``python -c`` that builds the
   report of a small tool and prints its schema.

    python benchmarks/bench_startup.py            # 15 runs of each
    python benchmarks/bench_startup.py --quick    # 2 runs, one example, no layer rows

Targets: import <= 0.25 s on top of the interpreter, never IPython/ipywidgets;
``toollens show`` <= 1.0 s. Each figure is a median.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus

IMPORT_TARGET_S = 0.25
SHOW_TARGET_S = 1.0
FORBIDDEN = ("IPython", "ipywidgets")
# Informative rows: what the heavier layers cost when a user does reach for them.
LAYERS = ("toollens", "toollens.core.report", "toollens.render.html", "toollens.jupyter")

_IMPORTTIME = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)\s*$")

FALLBACK_SHOW = """
import json, toollens
from typing import Annotated
from pydantic import Field
from toollens.core.report import report

def get_weather(city: str, days: Annotated[int, Field(ge=1, le=7)] = 1) -> str:
    '''Get the forecast.

    Args:
        city: The city.
        days: How many days.
    '''
    return city

rep = report(get_weather)
print(json.dumps(rep.schema if hasattr(rep, "schema") else str(rep))[:200])
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    env["PYTHONDONTWRITEBYTECODE"] = "0"
    return env


def _run(args: list[str], cwd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=_env(), capture_output=True, text=True, check=False
    )


def importtime(module: str, cwd: str) -> tuple[float, set[str]]:
    """Cumulative import seconds of ``module`` and every module name imported."""
    proc = _run(["-X", "importtime", "-c", f"import {module}"], cwd)
    if proc.returncode != 0:
        raise RuntimeError(f"import {module} failed:\n{proc.stderr[-2000:]}")
    cumulative = None
    names: set[str] = set()
    for line in proc.stderr.splitlines():
        match = _IMPORTTIME.match(line)
        if not match:
            continue
        names.add(match.group(4))
        # The outermost entry for the module itself is printed last, with no indent.
        if match.group(4) == module and len(match.group(3)) <= 1:
            cumulative = int(match.group(2)) / 1e6
    if cumulative is None:  # already imported by the interpreter (cannot happen for ours)
        cumulative = 0.0
    return cumulative, names


def wall(args: list[str], cwd: str) -> float:
    start = time.perf_counter()
    proc = _run(args, cwd)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return elapsed


def show_commands() -> list[tuple[str, list[str]]]:
    """``(label, python args)`` for the CLI on each bundled example, or the fallback."""
    have_cli = importlib.util.find_spec("toollens.cli") is not None and (
        importlib.util.find_spec("toollens.__main__") is not None
    )
    names: list[str] = []
    if importlib.util.find_spec("toollens.examples") is not None:
        from toollens import examples

        registry = getattr(examples, "EXAMPLES", {})
        names = [n for n in ("get_weather", "search_documents", "book_meeting") if n in registry]
    if have_cli and names:
        return [
            (f"toollens show examples:{n}", ["-m", "toollens", "show", f"toollens.examples:{n}"])
            for n in names
        ]
    return [("python -c report(tool) (no CLI yet)", ["-c", FALLBACK_SHOW])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs of each")
    args = parser.parse_args(argv)
    runs = 2 if args.quick else 15
    layers = LAYERS[:1] if args.quick else LAYERS
    corpus.print_header("bench_startup: import and CLI start-up (subprocesses)")

    with tempfile.TemporaryDirectory(prefix="toollens-startup-") as cwd:
        _run(["-c", "import toollens.core.report, toollens.cli"], cwd)  # warm bytecode caches

        rows: list[list[str]] = []
        layer_times: dict[str, list[float]] = {m: [] for m in layers}
        imported: set[str] = set()
        for _ in range(runs):
            for module in layers:
                try:
                    seconds, names = importtime(module, cwd)
                except RuntimeError:
                    continue  # a layer that does not exist yet
                layer_times[module].append(seconds)
                if module == "toollens":
                    imported |= names
        for module, times in layer_times.items():
            if not times:
                rows.append([f"importtime {module}", "-", "missing", "-"])
                continue
            target = f"<= {IMPORT_TARGET_S}" if module == "toollens" else "(info)"
            median = statistics.median(times)
            verdict = (
                ("met" if median <= IMPORT_TARGET_S else "MISSED") if module == "toollens" else ""
            )
            rows.append([f"importtime {module}", f"{median * 1e3:.1f} ms", target, verdict])

        base: list[float] = []
        with_import: list[float] = []
        for _ in range(runs):  # interleaved, so load changes hit both alike
            base.append(wall(["-c", "pass"], cwd))
            with_import.append(wall(["-c", "import toollens"], cwd))
        extra = statistics.median(w - b for w, b in zip(with_import, base, strict=False))
        rows.append(
            ["wall python -c pass", f"{statistics.median(base) * 1e3:.1f} ms", "(info)", ""]
        )
        rows.append(
            [
                "wall import toollens - pass",
                f"{extra * 1e3:.1f} ms",
                f"<= {IMPORT_TARGET_S}",
                "met" if extra <= IMPORT_TARGET_S else "MISSED",
            ]
        )
        commands = show_commands()
        for label, command in commands[:1] if args.quick else commands:
            times = [wall(command, cwd) for _ in range(runs)]
            median = statistics.median(times)
            rows.append(
                [
                    f"wall {label}",
                    f"{median * 1e3:.1f} ms",
                    f"<= {SHOW_TARGET_S}",
                    "met" if median <= SHOW_TARGET_S else "MISSED",
                ]
            )

    print(corpus.format_table(["measure", "median", "target s", "verdict"], rows))
    print()
    leaked = [name for name in FORBIDDEN if any(n.split(".")[0] == name for n in imported)]
    if leaked:
        print(f"import toollens imported {', '.join(leaked)}: MISSED (must stay lazy)")
    else:
        print(f"import toollens imported none of {', '.join(FORBIDDEN)}: met")
    print(f"runs per figure: {runs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
