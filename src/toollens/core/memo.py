"""One switch for the caches that carry work from one live edit to the next.

Every such cache is keyed on everything its answer depends on, so switching it off changes
no output, only the time an edit takes: ``benchmarks/bench_edit_memo.py`` measures an edit
with and without them, and the tests compare the two answers on edit sequences.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

__all__ = ["enabled", "memo_disabled"]

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
