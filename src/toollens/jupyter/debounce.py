"""Debounced renders: run a callback once typing pauses, cancel it when a newer edit comes.

The explorer renders on every pause in typing, not on every keystroke. A scheduler is
``scheduler(delay, callback) -> cancel``; the default uses the kernel's event loop (so the
render runs on the kernel's thread, between messages) and a timer thread elsewhere. Tests
pass a fake one to run pending callbacks when they choose.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

__all__ = ["Cancel", "Debouncer", "Scheduler", "default_scheduler"]

Cancel = Callable[[], None]
Scheduler = Callable[[float, Callable[[], None]], Cancel]


def default_scheduler(delay: float, callback: Callable[[], None]) -> Cancel:
    """Run ``callback`` after ``delay`` seconds on the kernel's event loop, else a timer thread."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        timer = threading.Timer(delay, callback)
        timer.daemon = True
        timer.start()
        return timer.cancel
    return loop.call_later(delay, callback).cancel


class Debouncer:
    """At most one pending callback; a new request replaces the one still waiting.

    ``lock`` is re-entrant and also guards whatever the callback does, so a render and a
    newer edit never interleave.
    """

    def __init__(self, delay: float, scheduler: Scheduler | None = None) -> None:
        self.delay = delay
        self.lock = threading.RLock()
        self._scheduler = scheduler or default_scheduler
        self._cancel: Cancel | None = None

    @property
    def pending(self) -> bool:
        return self._cancel is not None

    def request(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` after the delay (at once when the delay is 0), cancelling the last."""
        if self.delay <= 0:
            callback()
            return
        with self.lock:
            self.cancel()
            self._cancel = self._scheduler(self.delay, callback)

    def cancel(self) -> None:
        """Forget the pending callback, if any."""
        with self.lock:
            if self._cancel is not None:
                self._cancel()
                self._cancel = None
