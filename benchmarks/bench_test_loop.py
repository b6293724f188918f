"""The everyday test loop's wall time and CPU, with the suite's scheduler and with xdist's.

Issue 50's goal "the everyday loop": ``pytest -n 2 -m "not slow and not browser"`` under
90 s on two cores. Each row is that command run as a developer runs it, from the
repository root, once per round; the rounds alternate the rows' order:

- **suite scheduler**: the command as it is (``-n``'s default distribution, which
  ``tests/conftest.py`` hands to ``tests/support/scheduling.py``: modules whole, large ones
  in chunks, the long ones first);
- **xdist loadgroup**: the same with ``--dist loadgroup``, xdist's own scheduler, which is
  what the loop ran before (its groups are dropped under pytest 9.2, pytest-xdist issue
  1386, so every test is scheduled alone).

CPU is the user and system time of the pytest process and everything it waited for (its
workers and their child processes: servers, CLI runs), from ``os.wait4``. Since the loop
runs on two workers, half its CPU is what its wall time cannot go below on two cores; the
table prints it beside the goal. ``--quick`` runs one small test module instead of the loop,
to check the script itself.
"""

from __future__ import annotations

import argparse
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

ROOT = Path(__file__).resolve().parent.parent
LOOP = ["-n", "2", "-q", "-p", "no:cacheprovider", "-m", "not slow and not browser"]
QUICK = ["-n", "2", "-q", "-p", "no:cacheprovider", "tests/test_scheduling.py"]
ROWS = {"suite scheduler": [], "xdist loadgroup": ["--dist", "loadgroup"]}
GOAL_S = 90.0


def run(args: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (with everything it waited for) and tests passed."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", *args], cwd=ROOT, stdout=out, stderr=out
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode(errors="replace")
    passed = re.search(r"(\d+) passed", text)
    if os.waitstatus_to_exitcode(status) != 0 or passed is None:
        raise SystemExit(f"pytest {' '.join(args)} failed:\n{text[-3000:]}")
    return wall, usage.ru_utime + usage.ru_stime, int(passed.group(1))


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="runs of each row (default 1)")
    parser.add_argument("--quick", action="store_true", help="one small module, one round")
    options = parser.parse_args(argv)
    base = QUICK if options.quick else LOOP
    rounds = 1 if options.quick else options.rounds
    print("\n".join(corpus.machine_facts()))
    print(f"command: pytest {' '.join(base)}")
    runs: dict[str, list[tuple[float, float, int]]] = {row: [] for row in ROWS}
    loads = [load()]
    for index in range(rounds):
        order = list(ROWS) if index % 2 == 0 else list(reversed(ROWS))
        for row in order:
            runs[row].append(run([*base, *ROWS[row]]))
            loads.append(load())
    print(f"load average before and after each run: {' -> '.join(loads)}")
    headers = ["row", "tests", "wall s", "CPU s", "CPU / 2 cores s", "wall / goal"]
    table = []
    for row, measured in runs.items():
        wall = statistics.median(m[0] for m in measured)
        cpu = statistics.median(m[1] for m in measured)
        passed = {m[2] for m in measured}
        table.append([
            row, "/".join(map(str, sorted(passed))), f"{wall:.1f}", f"{cpu:.1f}",
            f"{cpu / 2:.1f}", f"{wall / GOAL_S:.2f}",
        ])  # fmt: skip
    print(corpus.format_table(headers, table))
    print(f"goal: the loop under {GOAL_S:.0f} s on two cores (wall / goal <= 1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
