"""benchmarks/bench_tokens_corpus.py runs with --quick and prints its table (no timing asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tiktoken")

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpora" / "jsonschemabench-dev.json.gz"


@pytest.mark.skipif(not CORPUS.is_file(), reason="the shared corpus is not beside the repository")
def test_bench_tokens_corpus_quick() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_tokens_corpus.py"),
            "--quick",
            "--corpus",
            str(CORPUS),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "cpu count" in proc.stdout
    assert "JSON/read" in proc.stdout
    assert "gpt-4o" in proc.stdout
    assert "-----" in proc.stdout
