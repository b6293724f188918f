"""The type checker and the linter pass over the sources, as part of the test run.

CI runs the README's test command and nothing else, so mypy (strict, configured under
``[tool.mypy]`` in pyproject.toml) and ruff run here. Each test is skipped when its tool is
not installed (both are in the ``test`` extra) and fails with the tool's own report.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False
    )


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="on 3.10 the test extra leaves out google-genai, pydantic-ai, LangChain and FastMCP "
    "(their releases need 3.11+) and resolves older IPython and Hypothesis, whose types "
    "differ; the check runs on every newer Python (mypy itself targets 3.10, [tool.mypy])",
)
def test_mypy_strict_passes_over_src() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    # The files and the strictness come from [tool.mypy]; no cache, so nothing stale.
    done = _run(sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert done.returncode == 0, f"mypy found problems:\n{done.stdout}{done.stderr}"


def test_ruff_passes_over_src_and_tests() -> None:
    ruff = shutil.which("ruff") or (
        str(Path(sys.executable).with_name("ruff"))
        if Path(sys.executable).with_name("ruff").exists()
        else None
    )
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    done = _run(ruff, "check", "--no-cache", "src", "tests")
    assert done.returncode == 0, f"ruff found problems:\n{done.stdout}{done.stderr}"
