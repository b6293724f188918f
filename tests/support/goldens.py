"""Golden files: reviewable expected outputs under ``tests/golden/``.

A missing golden file fails the test, wherever the suite runs. Goldens are written only when
asked: ``pytest --update-goldens`` (``TOOLLENS_REGEN_GOLDEN=1`` is accepted as an alias),
after which ``git diff tests/golden`` shows what changed, for review.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
OPTION = "--update-goldens"

# Set once per test process by conftest.py's pytest_configure (every xdist worker runs it).
UPDATE = False


def check_text(relative: str, actual: str) -> None:
    """Compare ``actual`` with ``tests/golden/<relative>``; write it instead when updating."""
    path = GOLDEN_DIR / relative
    if UPDATE:
        if not path.exists() or path.read_text(encoding="utf-8") != actual:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"golden file tests/golden/{relative} is missing; run pytest {OPTION} "
                    "to write it, then review it", pytrace=False)  # fmt: skip
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"tests/golden/{relative} differs; if that is intended, run " \
        f"pytest {OPTION} and review the diff"  # fmt: skip


def json_text(actual: Any) -> str:
    """The reviewable text of a JSON golden: indented, non-ASCII kept, a final newline."""
    return json.dumps(actual, indent=2, ensure_ascii=False, default=repr) + "\n"


def check_json(relative: str, actual: Any) -> None:
    """Compare ``actual``, as indented JSON, with the golden file ``relative``."""
    check_text(relative, json_text(actual))
