"""``benchmarks/bench_edit_memo.py --quick`` runs and finds the cached views equal to the
uncached ones (no timing asserted); ``bench_soak.py``'s arithmetic on known samples."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_bench_edit_memo_quick() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_edit_memo.py"), "--quick"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "cpu count" in proc.stdout
    rows = [line.split() for line in proc.stdout.splitlines() if line.strip()[:2] in ("3 ", "20")]
    assert [row[0] for row in rows] == ["3", "20"], proc.stdout
    assert all(row[-1] == "yes" for row in rows), proc.stdout  # same views with and without
    assert "MISMATCH" not in proc.stdout


def test_soak_slope_is_least_squares_in_mb_per_minute() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_soak
    finally:
        sys.path.remove(str(BENCHMARKS))
    mb = bench_soak.MB
    assert bench_soak.slope_per_minute([0.0, 1.0, 2.0], [0, mb, 2 * mb]) == 1.0
    assert bench_soak.slope_per_minute([0.0, 1.0, 2.0], [5 * mb] * 3) == 0.0
    assert bench_soak.slope_per_minute([1.0], [mb]) == 0.0
