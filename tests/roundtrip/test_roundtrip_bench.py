"""The fuzz benchmark runs: ``--quick`` prints its table and exits 0 (no timing asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

pytest.importorskip("hypothesis_jsonschema")


def test_bench_fuzz_quick() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_fuzz.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=BENCHMARKS,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    for header in ("cpu count", "per property /s", "library object /s", "fuzz ms/example"):
        assert header in proc.stdout, proc.stdout
    assert " 3 params " in proc.stdout
