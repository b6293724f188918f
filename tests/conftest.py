"""Shared fixtures: golden files and the no-network guard."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest

GOLDEN_DIR = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("TOOLLENS_REGEN_GOLDEN") == "1"


def check_golden(relative: str, actual: Any) -> None:
    """Compare ``actual`` with a reviewable JSON golden file; rewrite it only when asked."""
    path = GOLDEN_DIR / relative
    text = json.dumps(actual, indent=2, ensure_ascii=False, default=repr) + "\n"
    if REGENERATE or not path.exists():
        if not REGENERATE and os.environ.get("CI"):
            pytest.fail(f"golden file {relative} is missing; run with TOOLLENS_REGEN_GOLDEN=1")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{relative} differs; run with TOOLLENS_REGEN_GOLDEN=1 to update"


@pytest.fixture
def golden():  # type: ignore[no-untyped-def]
    return check_golden


class NetworkAccessError(AssertionError):
    pass


def _refuse(*args: Any, **kwargs: Any) -> None:
    raise NetworkAccessError(f"toollens tried to open a network connection: {args!r}")


@pytest.fixture(autouse=True)
def no_network(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test (browser and notebook tests excepted) that opens a socket connection."""
    if request.node.get_closest_marker("browser") or request.node.get_closest_marker("network_ok"):
        return
    monkeypatch.setattr(socket.socket, "connect", _refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", _refuse)
    monkeypatch.setattr(socket, "create_connection", _refuse)
    monkeypatch.setattr(socket, "getaddrinfo", _refuse)
