"""The frameworks page's table (``scripts/framework_table.md``) is what the frameworks do now.

The documentation build includes the committed table and imports no framework; this test
measures it again with the frameworks the test extra installs and fails when a count moved
(a framework release that changes what it sends is a documented row, not a silent change).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toollens.frameworks import installed, names

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _without_versions(table: str) -> list[list[str]]:
    rows = [line.split("|")[1:-1] for line in table.strip().splitlines()]
    return [[cell.strip() for i, cell in enumerate(row) if i != 1] for row in rows]


def test_committed_table_matches_a_new_measurement(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = [name for name in names() if name not in installed([name])]
    if missing:
        pytest.skip(f"not installed here: {', '.join(missing)}")
    monkeypatch.syspath_prepend(str(SCRIPTS))
    import framework_table

    committed = (SCRIPTS / "framework_table.md").read_text(encoding="utf-8")
    assert _without_versions(framework_table.table()) == _without_versions(committed), (
        "the frameworks' behaviour changed: run `python scripts/framework_table.py --write` "
        "and review the frameworks page"
    )
    sys.modules.pop("framework_table", None)
