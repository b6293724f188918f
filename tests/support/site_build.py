"""The documentation site built as ``mkdocs build`` builds it, into a folder of the test's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import REPO_ROOT


def build_site(out: Path) -> Path:
    """The site built into ``out`` with ``--strict`` (skips without the ``docs`` packages)."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocs_jupyter")
    pytest.importorskip("mkdocstrings_handlers.python")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(REPO_ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return out
