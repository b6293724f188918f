"""Two-generation caches: what the last render and this one used, nothing older."""

from __future__ import annotations

from toollens.core.memo import (
    RENDERS_PER_GENERATION,
    EditCache,
    edit_cache,
    memo_disabled,
    next_generation,
)


def _generation() -> None:
    """Enough renders for the caches to start a generation."""
    for _ in range(RENDERS_PER_GENERATION):
        next_generation()


def _counting(maxsize: int = 100) -> tuple[EditCache[str], list[int]]:
    calls: list[int] = []

    @edit_cache(maxsize)
    def shout(n: int) -> str:
        calls.append(n)
        return f"{n}!"

    return shout, calls


def test_an_entry_used_by_the_last_render_is_reused() -> None:
    shout, calls = _counting()
    assert shout(1) == "1!"
    _generation()
    assert shout(1) == "1!"
    _generation()
    assert shout(1) == "1!"
    assert calls == [1]


def test_an_entry_the_last_render_did_not_use_is_dropped() -> None:
    shout, calls = _counting()
    shout(1)
    _generation()
    shout(2)
    _generation()
    assert len(shout) == 1  # 2 only
    shout(1)
    assert calls == [1, 2, 1]


def test_without_renders_maxsize_bounds_it() -> None:
    shout, calls = _counting(maxsize=10)
    for n in range(1000):
        shout(n)
    assert len(shout) <= 20
    assert shout(999) == "999!"
    assert calls[-1] == 999


def test_cache_clear_forgets_everything() -> None:
    shout, _ = _counting()
    shout(1)
    shout.cache_clear()
    assert len(shout) == 0


def test_a_render_with_the_caches_off_does_not_age_them() -> None:
    shout, calls = _counting()
    shout(1)
    with memo_disabled():
        _generation()
        _generation()
    _generation()
    shout(1)
    assert calls == [1]
