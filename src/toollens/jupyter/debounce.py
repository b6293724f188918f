"""When the explorer renders after an edit: at once when idle, coalesced while busy.

A scheduler is ``scheduler(delay, callback) -> cancel``; the default uses the kernel's event
loop (so a render runs on the kernel's thread, between messages) and a timer thread
elsewhere. Tests pass a fake one to run pending callbacks when they choose.

Two policies share one interface (``lock``, ``pending``, ``request``, ``cancel``):

- :class:`Coalescer`, the explorer's default: an edit that finds the kernel idle renders at
  once (the leading edge: a keystroke costs one round trip plus the render, no waiting).
  Edits that arrive while a render runs, or that were queued behind it (they reach the
  kernel within :data:`QUEUED_WITHIN` of its end), are coalesced into one render shortly
  after, which reads the newest text: typing faster than the kernel renders never builds
  a backlog, and the last edit is always the one shown.
- :class:`Debouncer`: a fixed delay after the last edit (``Explorer(debounce=0.1)``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["DRAIN", "QUEUED_WITHIN", "Cancel", "Coalescer", "Debouncer", "Scheduler"]
__all__ += ["default_scheduler"]

Cancel = Callable[[], None]
Scheduler = Callable[[float, Callable[[], None]], Cancel]

#: An edit this soon (seconds) after a render ended was waiting behind it: coalesce it.
QUEUED_WITHIN = 0.004
#: How long a coalesced render waits for the rest of the queued edits (seconds).
DRAIN = 0.004


def default_scheduler(delay: float, callback: Callable[[], None]) -> Cancel:
    """Run ``callback`` after ``delay`` seconds on the kernel's event loop, else a timer thread."""
    import asyncio  # a kernel has it already; elsewhere it is not worth importing at open

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


class Coalescer:
    """Run at once when idle; while a run is going (or just ended), coalesce into one more.

    ``lock`` is re-entrant and guards what the callback does (the explorer's render holds
    it), as :class:`Debouncer`'s does. The bookkeeping has a lock of its own, so an edit
    arriving on another thread during a run only marks the run to be repeated, never waits.
    """

    def __init__(
        self,
        scheduler: Scheduler | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        queued_within: float = QUEUED_WITHIN,
        drain: float = DRAIN,
    ) -> None:
        self.lock = threading.RLock()
        self._state = threading.Lock()
        self._scheduler = scheduler or default_scheduler
        self._clock = clock
        self._queued_within, self._drain = queued_within, drain
        self._callback: Callable[[], None] | None = None
        self._cancel: Cancel | None = None  # the coalesced run, scheduled
        self._running = False
        self._again = False  # an edit came during the run: run once more after it
        self._ended = float("-inf")

    @property
    def pending(self) -> bool:
        """Whether a run is owed: scheduled, or to follow the one going on."""
        return self._cancel is not None or self._again

    def request(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` now when idle, else once after the current run (never dropped)."""
        with self._state:
            self._callback = callback
            if self._running:
                self._again = True
                return
            if self._cancel is not None:
                return  # the scheduled run reads the newest state when it comes
            if self._clock() - self._ended < self._queued_within:
                self._cancel = self._scheduler(self._drain, self._fire)
                return
        self._fire()

    def cancel(self) -> None:
        """Forget a scheduled run (a render that is starting anyway calls this)."""
        with self._state:
            cancel, self._cancel = self._cancel, None
            self._again = False
        if cancel is not None:
            cancel()

    def _fire(self) -> None:
        with self._state:
            self._cancel, callback = None, self._callback
            if callback is None or self._running:
                self._again = self._again or callback is not None
                return
            self._running, self._again = True, False
        try:
            callback()
        finally:
            with self._state:
                self._running = False
                self._ended = self._clock()
                again, self._again = self._again, False
                if again:
                    self._cancel = self._scheduler(self._drain, self._fire)
