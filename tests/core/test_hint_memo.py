"""Remembered annotations: the same texts bound to the same objects, or resolved afresh."""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest

from toollens.core import hint_memo
from toollens.core.memo import memo_disabled


def _function(source: str, namespace: dict[str, Any]) -> Any:
    code = compile("from __future__ import annotations\n" + source, "<hint-memo>", "exec")
    exec(code, namespace)
    return namespace["tool"]


def _hints(func: Any) -> dict[str, Any]:
    calls: list[int] = []

    def resolve() -> dict[str, Any]:
        calls.append(1)
        return typing.get_type_hints(func, include_extras=True)

    hints = hint_memo.resolve_type_hints(func, None, resolve)
    _hints.resolved = bool(calls)  # type: ignore[attr-defined]
    return hints


@pytest.fixture(autouse=True)
def _empty() -> None:
    hint_memo.clear()


def test_the_same_texts_and_bindings_are_answered_from_the_cache() -> None:
    ns: dict[str, Any] = {"Kind": typing.Literal["a"]}
    first = _hints(_function("def tool(x: Kind, y: int = 1) -> str: ...", dict(ns)))
    assert _hints.resolved  # type: ignore[attr-defined]
    again = _hints(_function("def tool(x: Kind, y: int = 1) -> str: ...", dict(ns)))
    assert not _hints.resolved  # type: ignore[attr-defined]
    assert again == first


@pytest.mark.parametrize(
    "rebind",
    [
        lambda ns: ns.__setitem__("Kind", typing.Literal["b"]),  # the name itself
        lambda ns: setattr(ns["models"], "Kind", typing.Literal["b"]),  # an attribute chain
    ],
    ids=["name", "module attribute"],
)
def test_a_rebound_name_is_resolved_afresh(rebind: Any) -> None:
    models = types.ModuleType("models")
    models.Kind = typing.Literal["a"]  # type: ignore[attr-defined]
    ns: dict[str, Any] = {"Kind": typing.Literal["a"], "models": models}
    source = "def tool(x: Kind, y: models.Kind) -> str: ..."
    _hints(_function(source, dict(ns)))
    rebind(ns)
    hints = _hints(_function(source, dict(ns)))
    assert _hints.resolved  # type: ignore[attr-defined]
    assert hints == typing.get_type_hints(_function(source, dict(ns)), include_extras=True)


@pytest.mark.parametrize(
    ("annotation", "bound"),
    [
        ("Literal[tuple(CHOICES)]", {"CHOICES": ["a", "b"]}),  # a list read in place
        ("make()", {"make": lambda: int}),  # a user function may read anything
    ],
    ids=["mutable list", "user function"],
)
def test_names_bound_to_untrusted_values_are_never_remembered(
    annotation: str, bound: dict[str, Any]
) -> None:
    ns = {"Literal": typing.Literal, **bound}
    func = _function(f"def tool(x: {annotation}) -> str: ...", ns)
    assert hint_memo._key(func, None) is None


def test_defaults_of_none_are_part_of_the_key() -> None:
    # Python 3.10 makes a hint Optional when the default is None; the key tells them apart.
    with_none = _function("def tool(x: int = None) -> str: ...", {})
    with_one = _function("def tool(x: int = 1) -> str: ...", {})
    key_none, key_one = hint_memo._key(with_none, None), hint_memo._key(with_one, None)
    assert key_none is not None
    assert key_one is not None
    assert key_none[0] != key_one[0]


def test_switched_off_it_always_resolves() -> None:
    ns: dict[str, Any] = {}
    _hints(_function("def tool(x: int) -> str: ...", dict(ns)))
    with memo_disabled():
        _hints(_function("def tool(x: int) -> str: ...", dict(ns)))
        assert _hints.resolved  # type: ignore[attr-defined]


def test_the_cache_holds_a_few_entries() -> None:
    for i in range(3 * hint_memo._SIZE):
        _hints(_function(f"def tool(x{i}: int) -> str: ...", {}))
    assert len(hint_memo._entries) == hint_memo._SIZE
