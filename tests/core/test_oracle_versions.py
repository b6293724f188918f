"""The SDK versions the oracle tests run against are documented rows (docs/providers.md)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "providers.md"
ORACLES = ("anthropic", "openai", "google-genai", "mcp", "openai-agents")


@pytest.mark.parametrize("dist", ORACLES)
def test_installed_oracle_version_has_a_row(dist: str) -> None:
    try:
        version = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"{dist} is not installed")
    rows = [line for line in DOCS.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    row = next((line for line in rows if line.startswith(f"| {dist} |")), None)
    assert row is not None, f"docs/providers.md has no oracle row for {dist}"
    assert f"| {version} |" in row, f"{dist} {version} is installed; document it in its row"
