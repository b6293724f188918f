"""The golden-file check itself: a missing golden fails, only --update-goldens writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support import goldens


@pytest.fixture
def golden_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(goldens, "GOLDEN_DIR", tmp_path)
    monkeypatch.setattr(goldens, "UPDATE", False)
    return tmp_path


def test_a_missing_golden_fails_and_writes_nothing(golden_dir: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"tests/golden/x/a\.json is missing.*"
                       r"--update-goldens"):  # fmt: skip
        goldens.check_json("x/a.json", {"a": 1})
    assert not (golden_dir / "x").exists()


def test_a_different_golden_fails_and_is_kept(golden_dir: Path) -> None:
    (golden_dir / "a.json").write_text('{\n  "a": 2\n}\n', encoding="utf-8")
    with pytest.raises(AssertionError, match=r"a\.json differs"):
        goldens.check_json("a.json", {"a": 1})
    assert (golden_dir / "a.json").read_text(encoding="utf-8") == '{\n  "a": 2\n}\n'


def test_an_equal_golden_passes(golden_dir: Path) -> None:
    (golden_dir / "a.txt").write_text("é\n", encoding="utf-8")
    goldens.check_text("a.txt", "é\n")


def test_update_writes_missing_and_different_goldens(
    golden_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(goldens, "UPDATE", True)
    (golden_dir / "old.json").write_text("{}\n", encoding="utf-8")
    goldens.check_json("new/b.json", {"b": "ü"})
    goldens.check_json("old.json", [1])
    assert (golden_dir / "new" / "b.json").read_text(encoding="utf-8") == '{\n  "b": "ü"\n}\n'
    assert (golden_dir / "old.json").read_text(encoding="utf-8") == "[\n  1\n]\n"


def test_the_option_sets_the_mode(pytestconfig: pytest.Config) -> None:
    alias = os.environ.get("TOOLLENS_REGEN_GOLDEN") == "1"
    asked = pytestconfig.getoption("update_goldens") or alias
    assert goldens.UPDATE is bool(asked)
