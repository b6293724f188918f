"""Caches that carry work from one live edit to the next, and one switch for the new ones.

Two kinds live here:

* :func:`edit_cache`, the cache of pure functions the views call on every render (rows,
  escaped text, docstring parses). It keeps two generations of a few renders each: what
  the last generation used and what this one uses. :func:`next_generation` (the explorer
  calls it before each render) starts a generation every ``RENDERS_PER_GENERATION``
  renders and drops whatever the generation before last used and the last one did not, so
  an hour of typing keeps a few renders' worth of entries instead of filling a large LRU
  cache with text nobody will type again; a generation also starts when one reaches
  ``maxsize`` entries, which bounds a cache where nothing marks renders (the command line,
  a static report).
* caches keyed on everything their answer depends on, which only save time:
  :func:`enabled` is false inside :func:`memo_disabled`, where they compute afresh, so that
  ``benchmarks/bench_edit_memo.py`` can measure what they save and the tests can check that
  they change no output.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import weakref
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, Protocol, TypeVar

__all__ = [
    "EditCache",
    "Generations",
    "edit_cache",
    "enabled",
    "memo_disabled",
    "next_generation",
    "register",
]

_R = TypeVar("_R")
_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")
_state = threading.local()


def enabled() -> bool:
    """Whether the edit-to-edit caches may answer (on unless :func:`memo_disabled`)."""
    return not getattr(_state, "off", False)


@contextlib.contextmanager
def memo_disabled() -> Iterator[None]:
    """Compute everything afresh inside the block (in this thread)."""
    before = getattr(_state, "off", False)
    _state.off = True
    try:
        yield
    finally:
        _state.off = before


class Generations(Generic[_K, _V]):
    """A mapping that keeps two generations: the entries of this render and of the last
    (``get`` promotes an entry of the last render to this one). :class:`EditCache` is the
    same for a function's answers."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._current: dict[_K, _V] = {}
        self._previous: dict[_K, _V] = {}
        _CACHES.add(self)

    def get(self, key: _K) -> _V | None:
        found = self._current.get(key)
        if found is None and key in self._previous:
            found = self._previous[key]
            self.put(key, found)
        return found

    def put(self, key: _K, value: _V) -> None:
        if len(self._current) >= self.maxsize:
            self.rotate()
        self._current[key] = value

    def rotate(self) -> None:
        """Start a generation: the current entries become the previous ones."""
        self._previous, self._current = self._current, {}

    def __len__(self) -> int:
        return len(self._current) + len(self._previous)

    def cache_clear(self) -> None:
        self._previous, self._current = {}, {}


class EditCache(Generations[Hashable, _R]):
    """A pure function's answers for the last two generations (see the module docstring).

    Called like the function (positional, hashable arguments, as ``functools.lru_cache``
    takes them). Thread-safe enough for a cache: two threads may compute the same entry.
    """

    def __init__(self, func: Callable[..., _R], maxsize: int) -> None:
        super().__init__(maxsize)
        self._func = func
        functools.update_wrapper(self, func)

    def __call__(self, *args: Hashable) -> _R:
        # Not through get/put: this is on every row of every render, and None is an answer.
        current = self._current
        try:
            return current[args]
        except KeyError:
            pass
        previous = self._previous
        value = previous[args] if args in previous else self._func(*args)
        if len(current) >= self.maxsize:
            self.rotate()
        self._current[args] = value
        return value


class Rotating(Protocol):
    """A cache that starts a generation when a render starts."""

    def rotate(self) -> None: ...

    def __len__(self) -> int: ...


_CACHES: weakref.WeakSet[Rotating] = weakref.WeakSet()


def register(cache: Rotating) -> None:
    """Have :func:`next_generation` rotate ``cache`` too (it is held weakly)."""
    _CACHES.add(cache)


def edit_cache(maxsize: int) -> Callable[[Callable[..., _R]], EditCache[_R]]:
    """Decorate a pure function of hashable positional arguments with an :class:`EditCache`."""

    def wrap(func: Callable[..., _R]) -> EditCache[_R]:
        return EditCache(func, maxsize)

    return wrap


# A generation spans a few renders, so an entry unused for one or two edits (a default typed
# back, a toggle undone) is still there; memory stays that of a few renders.
RENDERS_PER_GENERATION = 4
_renders = 0


def next_generation() -> None:
    """A render starts: every ``RENDERS_PER_GENERATION`` renders, every edit cache drops the
    entries the generation before last used and the last one did not.

    A render inside :func:`memo_disabled` (the uncached side of a comparison) starts none,
    so it does not age the other side's entries.
    """
    global _renders
    if not enabled():
        return
    _renders += 1
    if _renders % RENDERS_PER_GENERATION:
        return
    for cache in list(_CACHES):
        cache.rotate()
