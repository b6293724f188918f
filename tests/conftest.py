"""Shared fixtures and options: golden files (``--update-goldens``) and the no-network guard."""

from __future__ import annotations

import os
import socket
from typing import Any

import pytest

from support import goldens
from support.goldens import check_json as check_golden  # the name test modules import

__all__ = ["NetworkAccessError", "check_golden"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        goldens.OPTION,
        action="store_true",
        default=False,
        help="rewrite the golden files under tests/golden/ from the current output (review "
        "the diff); without it a missing or different golden file fails",
    )


def pytest_configure(config: pytest.Config) -> None:
    alias = os.environ.get("TOOLLENS_REGEN_GOLDEN") == "1"
    goldens.UPDATE = bool(config.getoption("update_goldens")) or alias


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
