"""``gated_compare``: the checks before a comparison may set ``toollens compare``'s exit code.

A comparison gates only when there is something to compare: a function, the frameworks named
installed, and two sides (two frameworks, or one and toollens' reference view).
"""

from __future__ import annotations

import pytest

import toollens.frameworks.compare as framework_compare
from toollens.core.errors import TargetError
from toollens.frameworks.compare import gated_compare


def search(query: str) -> str:
    """Search.

    Args:
        query: What to look for.
    """
    return query


def test_a_class_or_a_value_is_not_a_function() -> None:
    with pytest.raises(TargetError, match="tools:Box is a type, not a function"):
        gated_compare("tools:Box", type("Box", (), {}), ())
    with pytest.raises(TargetError, match=r"schema\.json is a dict, not a function"):
        gated_compare("schema.json", {"type": "object"}, ())


def test_a_named_framework_that_is_not_installed_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(framework_compare, "installed", lambda wanted: ())
    with pytest.raises(TargetError, match="framework not installed: mcp"):
        gated_compare("tools:search", search, ["mcp"])


def test_no_framework_installed_is_refused_when_none_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(framework_compare, "installed", lambda wanted: ())
    with pytest.raises(TargetError, match="no framework is installed"):
        gated_compare("tools:search", search, ())


def test_one_installed_framework_is_compared_with_the_reference_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[list[str]] = []

    def fake_compare(func: object, wanted: list[str]) -> object:
        seen.append(wanted)
        return framework_compare.Comparison(
            target="search", reference=None, reference_error="refused", entries=(), matrix=None
        )

    monkeypatch.setattr(framework_compare, "installed", lambda wanted: tuple(wanted))
    monkeypatch.setattr(framework_compare, "compare", fake_compare)
    with pytest.raises(TargetError, match="nothing to compare mcp with: refused"):
        gated_compare("tools:search", search, ["mcp"])
    assert seen == [["mcp"]]
