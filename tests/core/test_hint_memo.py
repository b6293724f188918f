"""Remembered annotations: the same texts bound to the same objects, or resolved afresh."""

from __future__ import annotations

import sys
import types
import typing
from typing import Any

import pytest

from toollens.core import hint_memo
from toollens.core.memo import RENDERS_PER_GENERATION, memo_disabled, next_generation

_ANNOTATED = {"Annotated": typing.Annotated}


def _generation() -> None:
    """Enough renders for the caches to start a generation."""
    for _ in range(RENDERS_PER_GENERATION):
        next_generation()


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
    before = _hints(_function(source, dict(ns)))
    rebind(ns)
    hints = _hints(_function(source, dict(ns)))
    assert hints == typing.get_type_hints(_function(source, dict(ns)), include_extras=True)
    assert hints != before


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
    assert hint_memo._keys(func, None) is None


def test_defaults_of_none_are_told_apart() -> None:
    # Python 3.10 makes a hint Optional when the default is None: same text, other hint.
    for source in ("def tool(x: int = 1) -> str: ...", "def tool(x: int = None) -> str: ..."):
        func = _function(source, {})
        assert _hints(func) == typing.get_type_hints(func, include_extras=True)


def test_one_changed_annotation_is_resolved_alone() -> None:
    ns: dict[str, Any] = {"Literal": typing.Literal}
    _hints(_function('def tool(a: int, b: Literal["x"], c: str) -> str: ...', dict(ns)))
    func = _function('def tool(a: int, b: Literal["y"], c: str) -> str: ...', dict(ns))
    hints = _hints(func)
    assert hints == typing.get_type_hints(func, include_extras=True)
    assert list(hints) == ["a", "b", "c", "return"]
    # 3.11+ resolves only b (without the whole function); 3.10 resolves the function
    assert _hints.resolved is (sys.version_info < (3, 11))  # type: ignore[attr-defined]


def test_switched_off_it_always_resolves() -> None:
    ns: dict[str, Any] = {}
    _hints(_function("def tool(x: int) -> str: ...", dict(ns)))
    with memo_disabled():
        _hints(_function("def tool(x: int) -> str: ...", dict(ns)))
        assert _hints.resolved  # type: ignore[attr-defined]


def test_the_cache_keeps_the_last_two_renders() -> None:
    for i in range(5):
        _hints(_function(f"def tool(x: Annotated[int, {i}]) -> str: ...", dict(_ANNOTATED)))
        _generation()
    assert len(hint_memo._entries) == 2
