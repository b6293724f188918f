"""Toolsets at scale: a generated module of many tools, serial and pooled, and 1,000 definitions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import toollens
from toollens.toolsets import Toolset
from toollens.toolsets.pool import chunk_ranges, parallel_module_toolset

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.parametrize(("count", "workers"), [(0, 2), (1, 4), (10, 3), (1000, 2), (7, 1)])
def test_chunk_ranges_cover_every_index_once_in_order(count: int, workers: int) -> None:
    ranges = chunk_ranges(count, workers)
    assert [i for r in ranges for i in r] == list(range(count))
    assert all(len(r) > 0 for r in ranges)


def _generated_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> str:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_toolset
    finally:
        sys.path.remove(str(BENCHMARKS))
    name = f"tl_generated_{count}"
    (tmp_path / f"{name}.py").write_text(bench_toolset.module_source(count), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_pool_gives_the_serial_toolset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = _generated_module(tmp_path, monkeypatch, 40)
    serial = toollens.toolset(name)
    pooled, checks = parallel_module_toolset(name, None, 2, check=len_of_findings)
    assert pooled.names == serial.names
    assert [e.origin for e in pooled] == [e.origin for e in serial]
    assert [e.findings for e in pooled] == [e.findings for e in serial]
    assert pooled.findings == serial.findings
    assert checks == [len(e.findings) for e in serial]
    assert all(e.report is None for e in pooled)  # reports stay in the workers
    sys.modules.pop(name, None)


def len_of_findings(entry: toollens.Tool) -> int:
    return len(entry.findings)


def test_a_thousand_definitions(tmp_path: Path) -> None:
    topics = ["billing", "orders", "users", "shipping", "search"]
    definitions = [
        {
            "name": f"tool_{i:04d}",
            "description": f"Handle {topics[i % 5]} request number {i} for the caller quickly.",
            "input_schema": {
                "type": "object",
                "properties": {"id": {"type": "integer" if i % 2 else "string"}},
            },
        }
        for i in range(1000)
    ]
    ts = Toolset.from_definitions(definitions)
    assert len(ts) == 1000
    assert ts.names[0] == "tool_0000"
    assert ts.names[-1] == "tool_0999"
    rules = {f.rule for f in ts.findings}
    assert "toolset.openai-too-many-tools" in rules
    assert "toolset.parameter-type-conflict" in rules
    assert "toolset.near-duplicate-description" not in rules  # numbers keep them apart


def test_bench_toolset_quick_runs() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_toolset.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "same json" in proc.stdout
    assert " NO" not in proc.stdout
    assert "first paint ms" in proc.stdout
